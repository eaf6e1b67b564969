"""Release dates from evidence, per region (OCG, TCG North America, TCG Europe, Master Duel).

Used by ``scripts/build_card_index.py``. Every date comes from a dated print in the shared data,
never from a set-code prefix shared by several products:

* YGOJSON's first release per locale (``firstReleaseFromSets``: the earliest dated set of each
  locale that holds the card): ``jp kr ae sc tc`` are OCG, ``na en fc`` North America, ``eu de
  fr it pt sp`` Europe;
* yaml-yugi's first print code per language, when its print prefix (``DUAD-EN``) names exactly
  one dated product of that locale in YGOJSON's sets, or one of the products
  :data:`NAMED_SETS` names (sets YGOJSON holds without a prefix, such as the 2003 Japanese
  boosters ``307``/``308`` and Ghosts From the Past);
* an English print of a product whose English date is missing takes the product's European
  date (since 2012 the TCG releases a product on one day in both regions).

TimeWizard's curated TCG pools only **bound** a North American date: the first pool holding a
card is an upper bound, the last pool before it without the card a lower bound. A dated print
inside that window is confirmed; a card whose first dated print is later than the pool (a
promo the set data misses) gets the window, not an invented day.

A region without evidence gets a **bound**: the card is not in that region's pool before it.
Bounds are, highest first: the numbering of a promo series (``VJMP-JP289`` came out after every
dated ``VJMP-JP`` number below it), the data's as-of date (a card YGOJSON does not know was not
in yaml-yugi when YGOJSON last read it), and the first releases of the cards with the nearest
Konami ids (Konami numbers cards as they come out).

Each region's entry is ``[date, kind, source, upper]``: kind ``e`` a dated print, ``w`` a
window (released between ``date`` and ``upper``), ``b`` a lower bound only (no evidence of a
release), ``a`` assumed from the format's launch (Master Duel cards older than the game).
"""

from __future__ import annotations

import bisect
import json
import re
from collections import Counter
from collections.abc import Iterable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from deckcheck.boundary import read_data
from deckcheck.card.release import describe_source

OCG_LOCALES = ("jp", "kr", "ae", "sc", "tc")
NA_LOCALES = ("na", "en", "fc")
EU_LOCALES = ("eu", "de", "fr", "it", "pt", "sp")
REGION_OF_LOCALE = {
    **{k: "ocg" for k in OCG_LOCALES},
    **{k: "na" for k in NA_LOCALES},
    **{k: "eu" for k in EU_LOCALES},
}
YAML_LOCALE = {
    "ja": "jp",
    "ko": "kr",
    "zh-CN": "sc",
    "zh-TW": "tc",
    "en": "en",
    "de": "de",
    "fr": "fr",
    "it": "it",
    "pt": "pt",
    "es": "sp",
}
"""yaml-yugi print language -> YGOJSON set locale."""

NAMED_SETS = {
    "301": "The New Ruler",
    "307": "Invader of Darkness (set)",
    "308": "The Sanctuary in the Sky (set)",
    "GFTP": "Ghosts From the Past",
    "DUOV": "Duel Overload",
    "KICO": "King's Court",
    "DPCT": "Duelist Pack Collection Tin 2009",
    "SDMA": "Structure Deck: Marik",
    "BLZD": "Blazing Dominion",
    "PHRE": "Phantom Revenge",
    "LOCH": "Limit Over Collection: The Heroes",
    "LOCR": "Limit Over Collection: The Rivals",
    "RA02": "25th Anniversary Rarity Collection II",
    "DUAD": "Duelist's Advance",
    "ALIN": "Alliance Insight",
    "DOOD": "Doom of Dimensions",
    "BPRO": "Burst Protocol",
}
"""Print prefixes of products whose sets in YGOJSON lack that prefix in some or all locales,
matched by hand, by name (the dates still come from the data; the build checks that every name
here is a product of the data, and the report lists the prefixes no product links)."""

LEGAL = ("Unlimited", "Semi-Limited", "Limited", "Forbidden")
"""Konami statuses of a card released in a region (yaml-yugi ``limit_regulation``)."""
MD_LAUNCH = "2022-01-19"
"""Master Duel's worldwide launch."""
KID_NEIGHBOURS = 40
"""Cards with the nearest Konami ids that bound an undated card."""


def _next_day(text: str) -> str:
    return (date.fromisoformat(text) + timedelta(days=1)).isoformat()


def _prefix(number: str) -> str:
    return re.sub(r"[0-9?]+$", "", number).rstrip("-")


LANG_CODE = re.compile(r"^([A-Z0-9]+)-(EN|DE|FR|IT|SP|PT|JP|JA|KR|SC|TC|AE|E|G|F|I|S|P|K|A|C)(.*)$")
"""A print prefix: product code, language letters (``EN``, ``DE``... or the old one-letter
ones), then a sub-product suffix (``SP`` sneak peek, ``SE`` special edition)."""

SAME_DAY_SINCE = "2012-01-01"
"""Since 2012 the TCG releases a product on one day in North America and Europe: before it, a
European date does not date the North American release."""

TCG_LAUNCH = "2002-03-08"
OCG_LAUNCH = "1999-02-04"


def product_key(prefix: str) -> tuple[str, str] | None:
    """(product code, sub-product suffix) of a print prefix (``AGOV-EN`` -> ``('AGOV', '')``)."""
    m = LANG_CODE.match(prefix)
    if not m:
        return None
    return m.group(1), m.group(3)


def region_dates(locs: dict[str, str]) -> dict[str, str]:
    """The earliest date per region of one product's locale dates."""
    out: dict[str, str] = {}
    for loc, when in locs.items():
        region = REGION_OF_LOCALE.get(loc)
        if region and when and (region not in out or when < out[region]):
            out[region] = when
    return out


class SetDates:
    """Products and their dates: by print prefix and locale, by product code, and by name
    (YGOJSON's sets)."""

    def __init__(self, sets: Iterable[dict[str, Any]]) -> None:
        self.records = list(sets)
        self.by_prefix: dict[tuple[str, str], list[str | None]] = {}
        self.by_name: dict[str, dict[str, str]] = {}
        self.by_code: dict[tuple[str, str], set[str]] = {}
        """(product code, suffix) -> the names of the products printed with it (any locale)."""
        self.by_exact: dict[str, set[str]] = {}
        """print prefix (``AGOV-EN``) -> the names of the products printed with it."""
        self.first: dict[str, str] = {}
        """product name -> its earliest date in any locale."""
        for rec in self.records:
            name = rec.get("name_en") or ""
            for loc, info in (rec.get("locales") or {}).items():
                when = info.get("date")
                if info.get("prefix"):
                    key = (info["prefix"].rstrip("-"), loc)
                    self.by_prefix.setdefault(key, []).append(when)
                    self.by_exact.setdefault(info["prefix"].rstrip("-"), set()).add(name)
                    code = product_key(info["prefix"].rstrip("-"))
                    if code and "?" not in code[0]:
                        self.by_code.setdefault(code, set()).add(name)
                if when:
                    cur = self.by_name.setdefault(name, {})
                    if loc not in cur or when < cur[loc]:
                        cur[loc] = when
                    if name not in self.first or when < self.first[name]:
                        self.first[name] = when
        self.shared = {key for key, dates in self.by_prefix.items() if len(dates) > 1}
        self.missing_names = sorted(n for n in NAMED_SETS.values() if n not in self.by_name)
        """Names of :data:`NAMED_SETS` that no dated product of the data has (the report)."""
        self.speed = {
            info["prefix"].split("-")[0]
            for rec in self.records
            if str(rec.get("name_en") or "").startswith("Speed Duel")
            for info in (rec.get("locales") or {}).values()
            if info.get("prefix")
        }
        """Base print prefixes of the Speed Duel products (``SGX2``, ``SBCB``...)."""

    def product(self, number: str, region: str | None = None) -> str | None:
        """The one product a print code names (by its prefix, its product code in any locale,
        else by name); with ``region``, products sold in that game (OCG or TCG) first."""
        pre = _prefix(number)
        key = product_key(pre) or (pre, "")  # 301-001: a prefix without a language
        exact = self.by_exact.get(pre)
        if exact and len(exact) == 1 and next(iter(exact)) in self.by_name:
            return next(iter(exact))  # AGOV-EN: Age of Overlord (AGOV-JP is also its +1 pack)
        names = self.by_code.get(key)
        if names is None and len(key[1]) == 1:  # SGX3-PTB12: box letter B
            names = self.by_code.get((key[0], ""))
        dated = sorted(n for n in names or () if n in self.by_name)
        if len(dated) > 1 and region is not None:  # Alliance Insight, not its +1 Bonus Pack
            ocg = region == "ocg"
            dated = [
                n
                for n in dated
                if any((REGION_OF_LOCALE.get(k) == "ocg") == ocg for k in self.by_name[n])
            ]
        if len(dated) == 1:
            return dated[0]
        named = NAMED_SETS.get(key[0]) if not key[1] else None
        if named and named in self.by_name:  # by hand: also settles a code several products share
            return named
        return None

    def linked(self, number: str) -> bool:
        """Whether a print code's prefix names a product of the data (one, or a series)."""
        pre = _prefix(number)
        key = product_key(pre) or (pre, "")
        if pre in self.by_exact or key in self.by_code or (key[0], "") in self.by_code:
            return True
        return NAMED_SETS.get(key[0]) in self.by_name

    def speed_print(self, y: dict[str, Any] | None) -> str | None:
        """The earliest dated Speed Duel product among a card's first print codes."""
        dates = []
        for lang, number in ((y or {}).get("first_print_numbers") or {}).items():
            loc = YAML_LOCALE.get(lang)
            if loc and number.split("-")[0] in self.speed and REGION_OF_LOCALE[loc] != "ocg":
                got = self.print_dates(number, REGION_OF_LOCALE[loc])
                dates += [d for d, _ in got.values()]
        return min(dates) if dates else None

    def print_dates(self, number: str, region: str) -> dict[str, tuple[str, str]]:
        """(date, source) per region of the product a print code of ``region`` names.

        The print's own region first; an English print is sold in both TCG regions (the
        European English locale), and its product's European date dates the North American
        release too since 2012 (one release day), source ``eu-same``.
        """
        name = self.product(number, region)
        if name is None:
            return {}
        src = "print" if NAMED_SETS.get(number.split("-")[0]) != name else "named"
        dates = region_dates(self.by_name[name])
        out: dict[str, tuple[str, str]] = {}
        if region == "ocg":
            if "ocg" in dates:
                out["ocg"] = (dates["ocg"], src)
            return out
        if region in dates:
            out[region] = (dates[region], src)
        if region == "na" and "eu" in dates:
            out["eu"] = (dates["eu"], src)
            if "na" not in out and dates["eu"] >= SAME_DAY_SINCE:
                out["na"] = (dates["eu"], "eu-same")
        return out

    def print_date(self, number: str, loc: str) -> tuple[str, str] | None:
        """(date, source) of the product a print code names in a locale's region, if dated."""
        region = REGION_OF_LOCALE.get(loc)
        got = self.print_dates(number, region) if region else {}
        return got.get(region or "")


def tw_pools(curated: Path) -> list[tuple[str, set[int]]]:
    """TimeWizard's curated TCG pools: (date, passcodes held), oldest first."""
    out = []
    for path in sorted(curated.glob("*.lflist.conf")):
        codes = set()
        for line in read_data(path).decode("utf-8-sig", errors="replace").splitlines():
            m = re.match(r"(\d+)\s+(-?\d+)", line)
            if m and int(m.group(2)) >= 0:
                codes.add(int(m.group(1)))
        out.append((path.name[:10], codes))
    return out


def tw_window(pools: list[tuple[str, set[int]]], codes: Iterable[int]) -> tuple[str, str] | None:
    """(lower, upper) dates of a card's TCG release from the pools, or None if in none."""
    want = set(codes)
    for i, (when, held) in enumerate(pools):
        if want & held:
            lower = _next_day(pools[i - 1][0]) if i else "2002-03-08"
            return lower, when
    return None


class Evidence:
    """Works out every card's per-region release entries (see the module docstring)."""

    def __init__(self, sets: SetDates, pools: list[tuple[str, set[int]]], as_of: str) -> None:
        self.sets = sets
        self.pools = pools
        self.as_of = as_of
        """The date of yaml-yugi's snapshot: its Konami statuses and Master Duel rarities hold."""
        self.counts: Counter[str] = Counter()
        self.series: dict[tuple[str, str], list[tuple[int, str]]] = {}
        self.kids: list[tuple[int, str]] = []

    def dated(self, y: dict[str, Any] | None, j: dict[str, Any] | None) -> dict[str, Any]:
        """Per region: the earliest dated print (date, source), from both sources."""
        best: dict[str, tuple[str, str]] = {}

        def offer(region: str, when: str | None, src: str) -> None:
            if when and (region not in best or when < best[region][0]):
                best[region] = (when, src)

        frs = (j or {}).get("firstReleaseFromSets") or {}
        for key, when in frs.items():
            if key.startswith("locale:"):
                region = REGION_OF_LOCALE.get(key[7:])
                if region:
                    offer(region, when, "ygojson")
        prints = (y or {}).get("first_print_numbers") or {}
        for lang, number in prints.items():
            loc = YAML_LOCALE.get(lang)
            if loc:
                for region, (when, src) in self.sets.print_dates(
                    number, REGION_OF_LOCALE[loc]
                ).items():
                    offer(region, when, src)
        return best

    def eu_before(self, y: dict[str, Any] | None, best: dict[str, Any]) -> str | None:
        """The European date of the card's first English product when its North American date
        is missing and the product came out before 2012 (an upper bound: North America was
        never later), else None."""
        en = ((y or {}).get("first_print_numbers") or {}).get("en")
        name = self.sets.product(en, "na") if en else None
        if name is None or "na" in best:
            return None
        eu = region_dates(self.sets.by_name[name]).get("eu")
        return eu if eu and eu < SAME_DAY_SINCE else None

    def learn(self, y: dict[str, Any] | None, kid: int | None, best: dict[str, Any]) -> None:
        """Record a card's dated prints for the series and Konami-id bounds."""
        if best and kid:
            self.kids.append((kid, min(d for d, _ in best.values())))
        for lang, number in ((y or {}).get("first_print_numbers") or {}).items():
            loc = YAML_LOCALE.get(lang)
            pre = _prefix(number)
            region = REGION_OF_LOCALE.get(loc or "")
            m = re.search(r"(\d+)$", number)
            if region and m and (pre, loc) in self.sets.shared and region in best:
                key = (pre, region)
                self.series.setdefault(key, []).append((int(m.group(1)), best[region][0]))

    def freeze(self) -> None:
        """Prepare the bounds once every card is learnt."""
        self.kids.sort()
        for key, rows in self.series.items():
            rows.sort()
            run: list[tuple[int, str]] = []
            top = ""
            for number, when in rows:
                top = max(top, when)
                run.append((number, top))
            self.series[key] = run

    def series_bound(self, y: dict[str, Any] | None, region: str) -> str | None:
        """After every dated lower number of the card's promo series (in that region)."""
        out = None
        for lang, number in ((y or {}).get("first_print_numbers") or {}).items():
            loc = YAML_LOCALE.get(lang)
            if REGION_OF_LOCALE.get(loc or "") != region:
                continue
            m = re.search(r"(\d+)$", number)
            run = self.series.get((_prefix(number), region))
            if m and run:
                i = bisect.bisect_left(run, (int(m.group(1)), ""))
                if i:
                    out = max(out or "", run[i - 1][1])
        return out

    def kid_bound(self, kid: int | None) -> str | None:
        """The first-decile first release of the cards with the nearest Konami ids."""
        if not kid or not self.kids:
            return None
        i = bisect.bisect_left(self.kids, (kid, ""))
        lo = max(0, i - KID_NEIGHBOURS // 2)
        near = sorted(d for _, d in self.kids[lo : lo + KID_NEIGHBOURS])
        return near[len(near) // 10] if len(near) >= KID_NEIGHBOURS // 2 else None

    def entries(
        self,
        y: dict[str, Any] | None,
        j: dict[str, Any] | None,
        kid: int | None,
        codes: tuple[int, ...],
        regions: tuple[str, ...],
    ) -> dict[str, list[Any]]:
        """The per-region release entries of one card (regions it is flagged for)."""
        best = self.dated(y, j)
        out: dict[str, list[Any]] = {}
        for region in regions:
            if region in best:
                out[region] = [best[region][0], "e", best[region][1], None]
        window = tw_window(self.pools, codes) if "na" in regions else None
        eu_before = self.eu_before(y, best) if "na" in regions else None
        _bound_na(out, window, eu_before)
        legal = (y or {}).get("limit_regulation") or {}
        for region in regions:
            if region not in out:
                out[region] = self._bound(y, j, kid, region, out, best)
                status = legal.get("ocg" if region == "ocg" else "tcg")
                if status in LEGAL and out[region][0] and out[region][0] <= self.as_of:
                    out[region] = [out[region][0], "w", out[region][2] + "+status", self.as_of]
        for region, entry in out.items():
            self.counts[f"{region.upper()} {entry[1]}: {describe_source(entry[2])}"] += 1
        return out

    def _bound(
        self,
        y: dict[str, Any] | None,
        j: dict[str, Any] | None,
        kid: int | None,
        region: str,
        out: dict[str, list[Any]],
        best: dict[str, Any],
    ) -> list[Any]:
        cands = []
        series = self.series_bound(y, region)
        if series:
            cands.append((_next_day(series), "series"))
        if j is None:
            cands.append(("2025-05-13", "as-of"))
        kid_date = self.kid_bound(kid)
        if kid_date:
            cands.append((kid_date, "kid"))
        if region != "ocg" and "ocg" in best:
            cands.append((best["ocg"][0], self._ocg_first(y)))
        others = [e[0] for r, e in out.items() if r != region] + [d for d, _ in best.values()]
        if others and not cands:
            cands.append((min(others), "other-region"))
        if not cands:
            return [None, "b", "as-of", None]
        when, src = max(cands)
        return [when, "b", src, None]

    def _ocg_first(self, y: dict[str, Any] | None) -> str:
        """``same-product`` when the card's first English and Japanese prints share a product
        code (the OCG release of one product comes first), else ``ocg-first``."""
        prints = (y or {}).get("first_print_numbers") or {}
        en, ja = (
            product_key(_prefix(prints.get("en") or "")),
            product_key(_prefix(prints.get("ja") or "")),
        )
        return "same-product" if en and ja and en[0] == ja[0] else "ocg-first"


def md_entry(
    y: dict[str, Any] | None,
    j: dict[str, Any] | None,
    kid: int | None,
    paper: list[str],
    md_first: dict[int, str],
    as_of: str,
) -> list[Any] | None:
    """The Master Duel entry of a card, or None when it is not in Master Duel.

    In Master Duel: yaml-yugi gives it a Master Duel rarity, YGOJSON a Master Duel legality,
    or a Master Duel list names it. From: its paper release (or the game's launch); a YGOJSON
    'unreleased' Master Duel entry moves that later; the first list naming it is an upper bound.
    """
    md = ((j or {}).get("legality") or {}).get("masterduel") or {}
    listed = md_first.get(kid) if kid else None
    if not ((y or {}).get("master_duel_rarity") or md or listed):
        return None
    lower = max([MD_LAUNCH, *paper[:1]])
    history = [r for r in md.get("history") or [] if r.get("date")]
    for row in history:
        if row.get("legality") == "unreleased":
            lower = max(lower, _next_day(row["date"]))
    later = [r["date"] for r in history if r.get("legality") != "unreleased"]
    later += [listed] if listed else []
    rarity = bool((y or {}).get("master_duel_rarity"))
    later += [as_of] if rarity else []
    later = [d for d in later if d >= lower]
    upper = min(later) if later else None
    if lower == MD_LAUNCH:
        return [lower, "a", "md-launch", upper]
    if upper is not None:
        src = "md-list" if upper == listed else "md-rarity" if upper == as_of else "md-after"
        return [lower, "w", src, upper]
    return [lower, "b", "md-after", None]


def md_lists(folder: Path, names_to_kid: dict[str, int]) -> dict[int, str]:
    """Konami id -> date of the first Master Duel list naming the card."""
    first: dict[int, str] = {}
    for path in sorted(folder.glob("*.json")):
        when = path.name[:10]
        if not re.match(r"\d{4}-\d{2}-\d{2}$", when):
            continue
        doc = json.loads(read_data(path).decode("utf-8"))
        if path.name.endswith(".vector.json"):
            kids = [int(k) for k in (doc.get("regulation") or {})]
        else:
            kids = [names_to_kid[n] for n in doc if n in names_to_kid]
        for k in kids:
            if k not in first or when < first[k]:
                first[k] = when
    return first


def _bound_na(
    out: dict[str, list[Any]], window: tuple[str, str] | None, eu_before: str | None
) -> None:
    """Bound a card's North American entry by TimeWizard's pool window (``window``, which
    confirms a dated entry inside it) and by a European release before it (``eu_before``)."""
    if window is not None:
        lower, upper = window
        got = out.get("na")
        if got is not None and got[0] <= upper:
            got[2] = "tw-confirmed" if got[2] == "ygojson" else got[2]
        elif eu_before is not None and lower <= eu_before < upper:
            out["na"] = [lower, "w", "tw+eu-before", eu_before]
        else:
            out["na"] = [lower, "w", "tw", upper]
    elif eu_before is not None and "na" not in out:
        out["na"] = [TCG_LAUNCH, "w", "eu-before", eu_before]
