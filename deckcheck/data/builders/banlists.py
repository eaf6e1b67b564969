#!/usr/bin/env python3
"""Build the project's ban-list files from the shared ban-list sources, reconciling them.

Reads (relative to ``--data``, default ``../shared/data``; see its README, section 2):

* ``lflists/timewizard/banlists-tcg-by-name/*.json``    TCG lists by name, real effective dates
* ``lflists/yaml-yugi-limit-regulation/<region>/*``      Konami's official lists (Konami ids)
* ``lflists/ygopro-fluorohydride/*.conf``                YGOPro's dated OCG + TCG lists
* ``lflists/projectignis/history/*.conf``                EDOPro's lists 2020 -> 2026
* ``lflists/timewizard/curated-lflist/*.conf``           GOAT / Edison / HAT whitelists
* ``cards/ygojson/cards.min.jsonl``                      per-card TCG history dates (a date vote)
* ``cards/yaml-yugi/cards.min.jsonl``                    Konami id -> passcode fallback

and the bundled card index, and writes:

* ``banlists/<family>/<effective-date>.toml``   one file per list (the source of truth)
* ``banlists/RECONCILIATION.md``                what agreed, what did not, what was kept and why
* ``deckcheck/data/banlists.json``              the compact bundle the library loads

How sources are reconciled: the lists of every source are matched to each other by date and
content (the best-agreeing list within a window around the date, one per source). The effective
date is the majority of the *real* dates given (month labels such as Konami's March/September
TCG labels do not vote); a tie goes to the higher-priority source. Each entry's value is the
majority over the matched sources (a card absent from a list votes "unlimited", or "not in pool"
for whitelists); a tie goes to the higher-priority source. Every disagreement is written out.

Usage::

    python scripts/build_banlists.py [--data ../shared/data] [--check]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from types import MappingProxyType

ROOT = Path(__file__).resolve().parents[3]
"""The source checkout (for the command-line defaults: ``../shared/data``, the bundled folder)."""

from deckcheck.boundary import read_data  # noqa: E402
from deckcheck.card import CardIndex  # noqa: E402
from deckcheck.error import AmbiguousCardError, UnknownCardError  # noqa: E402
from deckcheck.rule.banlist import (  # noqa: E402
    Banlist,
    date_from_name,
    dump_banlist_toml,
    dump_bundle,
    read_banlist_dir,
    read_lflist,
    status_word,
)

DEFAULT_DATA = ROOT.parent / "shared" / "data"
OUT_DIR = ROOT / "banlists"
BUNDLE = ROOT / "deckcheck" / "data" / "bundled" / "banlists.json"

REPO_TW = "SantiagoRivera92/TimeWizard@d0f91f29d79dc9dfe8c24a6f7d68e9ff9e8f9996"
REPO_YY = "DawnbrandBots/yaml-yugi-limit-regulation@be1c8e923109420f444f1760aadd562aa8c2ee41"
REPO_FL = "Fluorohydride/ygopro@33f7bcf3eeb2b125473b78d8d08106585017924b"
REPO_FL_2011 = "Fluorohydride/ygopro@47d118575d239471a525bc718d6367d6c86229d6"
REPO_PI = "ProjectIgnis/LFLists"
REPO_YJ = "iconmaster5326/YGOJSON@14e3ec20b4593cb5f6b9f19d67833c09e4aa1b69"

ABSENT = -1
"""Vote value of a whitelist that does not hold a card (not in the pool)."""


@dataclass
class SrcList:
    """One list as one source gives it, with passcodes already resolved."""

    source: str
    """Short source id (its priority decides ties)."""
    ref: str
    """Full provenance: repository @ commit : path."""
    when: date
    label_only: bool
    """True when ``when`` is a label (first of a month), not a real effective date."""
    name: str
    entries: dict[int, int]
    label: str | None = None
    groups: dict[int, int] = field(default_factory=dict)
    """Speed Duel limit groups the source gives (passcode -> N: N cards from the group)."""
    snapshot: bool = False
    """True when ``when`` is the day a source downloaded the list (a snapshot), not a date the
    list was announced to take effect: it votes only when another source confirms it."""


@dataclass
class Group:
    """The lists of several sources that describe one real list."""

    spine: SrcList
    members: list[SrcList] = field(default_factory=list)


class Builder:
    """Holds the card index, name/id maps and the reconciliation log."""

    def __init__(self, data: Path, index: CardIndex | None = None) -> None:
        self.data = data
        self.lf = data / "lflists"
        self.index = index if index is not None else _active_cards()
        self.log: list[str] = []
        self.kid_main: dict[int, int] = {}
        self.kid_rush: dict[int, int] = {}
        for card in self.index:
            if card.konami_id and card.canonical == card.passcode and not card.is_unofficial:
                table = self.kid_rush if card.is_rush else self.kid_main
                if card.is_prerelease or card.is_goat_variant:
                    continue
                table.setdefault(card.konami_id, card.passcode)
        yy = data / "cards" / "yaml-yugi" / "cards.min.jsonl"
        self.kid_yy: dict[int, int] = {}
        if yy.exists():
            # streamed by line: a build input (shared data, or a file fetched under the cap)
            for line in yy.open(encoding="utf-8"):
                row = json.loads(line)
                if row.get("konami_id") and row.get("password"):
                    self.kid_yy[int(row["konami_id"])] = int(row["password"])
        rush_yy = data / "cards" / "yaml-yugi" / "rush.min.jsonl"
        self.rush_names: dict[int, str] = {}
        if rush_yy.exists():
            # streamed by line: a build input (shared data, or a file fetched under the cap)
            for line in rush_yy.open(encoding="utf-8"):
                row = json.loads(line)
                if row.get("konami_id") and row.get("name", {}).get("en"):
                    self.rush_names[int(row["konami_id"])] = row["name"]["en"]
        self.misses: dict[str, list[str]] = {}

    # -- resolution -----------------------------------------------------------------------

    def miss(self, where: str, what: str) -> None:
        """Remember an entry that could not be mapped to a card."""
        self.misses.setdefault(where, []).append(what)

    def canon(self, code: int) -> int | None:
        """The original passcode of a code, or None when the index does not know it."""
        if code not in self.index:
            return None
        return self.index.get(code).canonical

    def by_kid(self, kid: int, where: str, rush: bool = False) -> int | None:
        """Passcode of a Konami card id (index first, then yaml-yugi, then Rush names)."""
        if rush:
            code = self.kid_rush.get(kid)
            if code is None and kid in self.rush_names:
                code = self.by_name(self.rush_names[kid], where, rush=True)
                return code
        else:
            code = self.kid_main.get(kid)
            if code is None and kid in self.kid_yy:
                code = self.canon(self.kid_yy[kid])
        if code is None:
            self.miss(where, f"Konami id {kid}")
        return code

    def by_name(self, name: str, where: str, rush: bool = False) -> int | None:
        """Passcode of an exact (normalised) English name; misses are logged, never guessed."""
        try:
            return self.index.lookup_name(name, rush=rush).card.canonical
        except UnknownCardError:
            self.miss(where, f"name {name!r}")
        except AmbiguousCardError as exc:
            self.miss(where, f"ambiguous name {name!r}: {exc.candidates}")
        return None

    def add(self, entries: dict[int, int], code: int | None, value: int, where: str) -> None:
        """Add one resolved entry; two codes of one card keep the stricter value (logged)."""
        if code is None:
            return
        old = entries.get(code)
        if old is not None and old != value:
            self.miss(where, f"{code} listed twice ({old} and {value}); kept {min(old, value)}")
            value = min(old, value)
        entries[code] = value

    def is_legend(self, code: int) -> bool:
        """Whether a passcode is a Rush Legend card."""
        return code in self.index and self.index.get(code).is_legend

    def name(self, code: int) -> str:
        """English name of a passcode."""
        return self.index.get(code).name if code in self.index else str(code)

    # -- readers --------------------------------------------------------------------------

    def section_entries(
        self, b: Banlist, never: set[int], where: str, keep3: bool
    ) -> dict[int, int]:
        """One lflist.conf section's entries by original passcode: ``never`` ("-1") entries
        dropped, 3s too unless ``keep3`` (or a whitelist or points list); unknown codes counted."""
        entries: dict[int, int] = {}
        unknown = 0
        for code, value in b.entries.items():
            if code in never:
                continue
            if not keep3 and not b.whitelist and not b.points and value >= 3:
                continue
            canon = self.canon(code)
            if canon is None:
                unknown += 1
                continue
            self.add(entries, canon, value, where)
        if unknown:
            self.miss(where, f"{unknown} passcode(s) not in the card index (dropped)")
        return entries

    def lflist_lists(self, path: Path, ref: str, source: str, keep3: bool = False) -> list[SrcList]:
        """Every section of an lflist.conf file, resolved to original passcodes."""
        text = read_data(path).decode("utf-8-sig", errors="replace")
        # -1 ("never allowed") entries are read as 0 by read_lflist; find them to drop them
        never = {
            int(ln.split()[0])
            for ln in text.splitlines()
            if ln[:1].isdigit() and len(ln.split()) > 1 and ln.split()[1] == "-1"
        }
        out = []
        problems: list[str] = []
        for b in read_lflist(text, ref, effective=date(1970, 1, 1), problems=problems):
            when = date_from_name(b.name)
            if when is None:
                continue
            entries = self.section_entries(b, never, f"{source} {b.name}", keep3)
            parts = b.name.split()[0].replace("-", ".").split(".")
            src = SrcList(source, f"{ref} !{b.name}", when, len(parts) < 3, b.name, entries)
            for code, group in b.groups.items():
                canon = self.canon(code)
                if canon is not None:
                    src.groups[canon] = group
            out.append(src)
        for problem in problems:
            self.miss(f"{source} {path.name}", f"malformed line skipped: {problem}")
        return out

    def ignis(self, suffixes: Iterable[str], exclude: Iterable[str] = ()) -> list[SrcList]:
        """ProjectIgnis history lists whose name ends with one of ``suffixes``."""
        hist = self.lf / "projectignis" / "history"
        meta = {r["file"]: r for r in json.loads(read_data(hist / "_index.json"))}
        out = []
        for path in sorted(hist.glob("*.lflist.conf")):
            stem = path.name.removesuffix(".lflist.conf")
            if not any(stem.lower().endswith(s.lower()) for s in suffixes):
                continue
            if any(x.lower() in stem.lower() for x in exclude):
                continue
            m = meta.get(path.name, {})
            ref = f"{REPO_PI}@{m.get('commit', '?')}:{m.get('source_path', path.name)}"
            out.extend(self.lflist_lists(path, ref, "projectignis"))
        return out

    def yaml_vectors(self, region: str, rush: bool = False) -> list[SrcList]:
        """yaml-yugi-limit-regulation ``*.vector.json`` lists of a region."""
        out = []
        for path in sorted((self.lf / "yaml-yugi-limit-regulation" / region).glob("*.vector.json")):
            raw = json.loads(read_data(path).decode("utf-8"))
            when = date.fromisoformat(raw["date"])
            where = f"yaml-yugi {region} {when}"
            entries: dict[int, int] = {}
            for kid, value in raw["regulation"].items():
                self.add(entries, self.by_kid(int(kid), where, rush), int(value), where)
            ref = f"{REPO_YY}:{region}/{path.name}"
            out.append(SrcList("yaml-yugi", ref, when, when.day == 1, str(when), entries))
        return out

    def yaml_names(self, region: str) -> list[SrcList]:
        """yaml-yugi-limit-regulation ``*.name.json`` lists of a region (English names)."""
        out = []
        for path in sorted((self.lf / "yaml-yugi-limit-regulation" / region).glob("*.name.json")):
            raw = json.loads(read_data(path).decode("utf-8"))
            when = date.fromisoformat(path.name.split(".")[0])
            where = f"yaml-yugi-names {region} {when}"
            entries: dict[int, int] = {}
            for name, value in raw.items():
                self.add(entries, self.by_name(name, where), int(value), where)
            ref = f"{REPO_YY}:{region}/{path.name}"
            out.append(SrcList("yaml-yugi-names", ref, when, False, str(when), entries))
        return out

    def timewizard(self) -> list[SrcList]:
        """TimeWizard's TCG lists by name (real effective dates)."""
        out = []
        folder = self.lf / "timewizard" / "banlists-tcg-by-name"
        for path in sorted(folder.glob("*.json")):
            raw = json.loads(read_data(path).decode("utf-8"))
            when = date.fromisoformat(path.stem)
            where = f"timewizard {when}"
            entries: dict[int, int] = {}
            for key, value in (("forbidden", 0), ("limited", 1), ("semilimited", 2)):
                for name in raw.get(key, []):
                    self.add(entries, self.by_name(name, where), value, where)
            ref = f"{REPO_TW}:banlists-tcg-by-name/{path.name}"
            out.append(SrcList("timewizard", ref, when, False, str(when), entries))
        return out

    def ygojson_history(self, region: str = "tcg") -> dict[int, list[tuple[date, int]]]:
        """YGOJSON's (Yugipedia's) per-card list history: original passcode -> [(date, status)]."""
        path = self.data / "cards" / "ygojson" / "cards.min.jsonl"
        words = {"forbidden": 0, "limited": 1, "semilimited": 2, "unlimited": 3}
        out: dict[int, list[tuple[date, int]]] = {}
        if not path.exists():
            return out
        # streamed by line: a build input (shared data, or a file fetched under the cap)
        for line in path.open(encoding="utf-8"):
            row = json.loads(line)
            hist = row.get("legality", {}).get(region, {}).get("history", [])
            steps = [
                (date.fromisoformat(h["date"]), words[h["legality"]])
                for h in hist
                if h.get("legality") in words
            ]
            if not steps:
                continue
            for pw in row.get("passwords") or []:
                code = self.canon(int(pw)) if str(pw).isdigit() else None
                if code is not None and code not in out:
                    out[code] = sorted(steps)
        return out

    def ygojson_speed(self) -> dict[int, list[tuple[date, str]]]:
        """YGOJSON's (Yugipedia's) Speed Duel history per card: passcode -> [(date, word)].

        Words: ``forbidden``, ``limit1``/``limit2``/``limit3`` (the Limited N groups),
        ``unlimited``. Skill cards have no password there: they are matched by name to the
        card index's Skill records.
        """
        path = self.data / "cards" / "ygojson" / "cards.min.jsonl"
        skills = {
            c.name: c.passcode for c in self.index if c.is_skill and c.canonical == c.passcode
        }
        out: dict[int, list[tuple[date, str]]] = {}
        if not path.exists():
            return out
        # streamed by line: a build input (shared data, or a file fetched under the cap)
        for line in path.open(encoding="utf-8"):
            row = json.loads(line)
            hist = row.get("legality", {}).get("speed", {}).get("history", [])
            if not hist:
                continue
            steps = sorted((date.fromisoformat(h["date"]), str(h["legality"])) for h in hist)
            codes = [self.canon(int(pw)) for pw in row.get("passwords") or [] if str(pw).isdigit()]
            if row.get("cardType") == "skill":
                codes = [skills.get(row.get("name", {}).get("en", ""))]
            code = next((c for c in codes if c is not None), None)
            if code is None:
                self.miss("ygojson speed", f"name {row.get('name', {}).get('en')!r}")
            elif code not in out:
                out[code] = steps
        return out

    def ygojson_dates(self, region: str = "tcg") -> list[date]:
        """Every list date of ``region`` in YGOJSON's per-card legality histories."""
        path = self.data / "cards" / "ygojson" / "cards.min.jsonl"
        dates: set[date] = set()
        if path.exists():
            # streamed by line: a build input (shared data, or a file fetched under the cap)
            for line in path.open(encoding="utf-8"):
                hist = json.loads(line).get("legality", {}).get(region, {}).get("history", [])
                dates.update(date.fromisoformat(h["date"]) for h in hist)
        return sorted(dates)


def clean_source(lists: list[SrcList], title: str, log: list[str]) -> list[SrcList]:
    """One source's lists without the entries that are not real lists (each drop is logged).

    * A list identical to the source's previous list is not a new list (a duplicate entry in
      the source, e.g. OCG 2013-11-01 repeating 2013-09-01).
    * A list that disagrees with both its neighbours (under 80% agreement) but is a near copy
      (98%+) of a non-adjacent list of the same source that does fit its own neighbours is
      that list mis-dated (e.g. Master Duel's January 2026 list also filed as 2025-01-08).
    """
    ordered = sorted(lists, key=lambda s: s.when)
    drop: dict[int, str] = {}

    def fit(i: int) -> float:
        near = [ordered[j] for j in (i - 1, i + 1) if 0 <= j < len(ordered)]
        return max((agreement(ordered[i].entries, n.entries) for n in near), default=1.0)

    for i, cur in enumerate(ordered):
        if i and ordered[i - 1].entries == cur.entries and ordered[i - 1].name != cur.name:
            drop[i] = f"identical to the source's previous list (`{ordered[i - 1].ref}`)"
            continue
        if len(ordered) < 4 or fit(i) >= 0.8:
            continue
        for j, other in enumerate(ordered):
            if abs(i - j) > 1 and fit(j) >= 0.8 and agreement(cur.entries, other.entries) >= 0.98:
                drop[i] = (
                    f"a mis-dated copy of `{other.ref}` ({other.when}): it agrees with that "
                    f"list, not with its neighbours (best {fit(i) * 100:.0f}%)"
                )
                break
    for i, why in sorted(drop.items()):
        log.append(f"- {title}: `{ordered[i].ref}` is {why}; not used.")
    kept = {id(s) for i, s in enumerate(ordered) if i not in drop}
    return [s for s in lists if id(s) in kept]


def agreement(a: dict[int, int], b: dict[int, int]) -> float:
    """Share of entries (union of both) on which two lists agree."""
    keys = set(a) | set(b)
    if not keys:
        return 1.0
    return sum(1 for k in keys if a.get(k) == b.get(k)) / len(keys)


def match(
    spine: list[SrcList], others: list[SrcList], before: int = 75, after: int = 45
) -> tuple[dict[int, SrcList], list[SrcList]]:
    """Match each other-list to at most one spine list (best agreement within the window).

    A candidate must be dated at most ``before`` days before and ``after`` days after the spine
    list. Greedy by agreement; one list per spine list. Returns (spine position -> list, unmatched).
    """
    pairs = []
    for j, o in enumerate(others):
        for i, s in enumerate(spine):
            delta = (s.when - o.when).days
            if -after <= delta <= before:
                pairs.append((agreement(s.entries, o.entries), -abs(delta), i, j))
    pairs.sort(reverse=True)
    taken: dict[int, SrcList] = {}
    used: set[int] = set()
    for score, _, i, j in pairs:
        if i in taken or j in used or score < 0.5:
            continue
        taken[i] = others[j]
        used.add(j)
    return taken, [o for j, o in enumerate(others) if j not in used]


@dataclass
class Family:
    """How one list family is built."""

    family: str
    title: str
    priority: tuple[str, ...]
    whitelist: bool = False
    points: bool = False
    point_cap: int | None = None
    note: str = ""
    remarks: str = ""
    """Extra text for the reconciliation report only."""
    ygojson_window: int = 45
    """Days around a list's date within which a YGOJSON history date is taken as its date."""

    def date_priority(self, when: date) -> tuple[str, ...]:
        """Which source wins a tie on the effective date.

        TCG lists before 2013-10: TimeWizard (the reference for early real dates), then
        YGOJSON; later TCG lists: YGOJSON (Yugipedia gives the North-American date, the
        default region), then Konami's (yaml-yugi's dates come from Konami's European site),
        then TimeWizard. Other families: Konami's own date, then YGOJSON.
        """
        if self.family == "tcg" and when < date(2013, 10, 1):
            return ("timewizard", "ygojson", *self.priority)
        if self.family == "tcg":
            return ("ygojson", *self.priority)
        return (self.priority[0], "ygojson", *self.priority[1:])

    def entry_priority(self, when: date) -> tuple[str, ...]:
        """Which source wins a tie on an entry.

        TCG lists before 2013-10: YGOJSON's per-card history (Yugipedia, which dates each
        change), then TimeWizard; later lists: the family's priority, YGOJSON last.
        """
        if self.family == "tcg" and when < date(2013, 10, 1):
            return ("ygojson", "timewizard", *(s for s in self.priority if s != "timewizard"))
        return (*self.priority, "ygojson")


def vote(
    values: dict[str, int], priority: tuple[str, ...], absent: int | None = None
) -> tuple[int, str]:
    """Majority value of the sources; a tie goes to the highest-priority source.

    With ``absent`` given, a tie between "not listed" (``absent``) and a listed value goes to
    the listed value first: leaving a card out is the likelier error (a scraping or name-mapping
    miss) than listing it.
    """
    counts = Counter(values.values())
    top = max(counts.values())
    best = [v for v, n in counts.items() if n == top]
    if absent is not None and len(best) > 1 and absent in best:
        best.remove(absent)
        if len(best) == 1:
            return best[0], f"tie {top}/{len(values)}: a listed value beats 'not listed'"
    if len(best) == 1:
        return best[0], f"majority {top}/{len(values)}"
    for src in priority:
        if src in values and values[src] in best:
            return values[src], f"tie {top}/{len(values)}: priority to {src}"
    return min(best), "tie: stricter value"


def _fmt(value: int, fam: Family) -> str:
    if value == ABSENT:
        return "not in pool" if fam.whitelist else "-"
    if fam.points:
        return f"{value} pts"
    return status_word(value)


def history_status(steps: list[tuple[date, int]], when: date) -> int:
    """A card's status on ``when`` from a per-card history (Unlimited before its first step)."""
    status = 3
    for step, value in steps:
        if step > when:
            break
        status = value
    return status


LISTED_TIE_FROM = date(2013, 1, 1)
"""From this date a tie between a listed value and 'not listed' goes to the listed value (a
scraping or name-mapping miss is the likelier error). Before it, Konami's month-labelled early
database (which holds OCG-only cards) is the usual lone lister, so the tie goes by priority."""


@dataclass
class Stats:
    """Per family: how each entry disagreement was settled (for the report's summary)."""

    lists: int = 0
    single: int = 0
    majority: int = 0
    ties: Counter[str] = field(default_factory=Counter)
    ties_before_2013: int = 0


STATS: dict[str, Stats] = {}


def _eu_date(fam: Family, dates: dict[str, date], effective: date) -> date | None:
    """The European effective date of a TCG list where it differs from the kept (North-American)
    date: yaml-yugi's dates come from Konami's European site. None when they agree."""
    eu = dates.get("yaml-yugi")
    if fam.family != "tcg" or eu is None or eu == effective or abs((eu - effective).days) > 14:
        return None
    return eu


def reconcile(
    b: Builder,
    fam: Family,
    group: Group,
    yj_dates: list[date] | None = None,
    yj_hist: dict[int, list[tuple[date, int]]] | None = None,
) -> Banlist:
    """One reconciled list from a group of source lists; the decisions go to the log.

    With ``yj_hist`` (YGOJSON's per-card histories), YGOJSON votes on every entry too: the
    card's status on the date YGOJSON gives for this list (or the effective date).
    """
    members = [group.spine, *group.members]
    dates = _date_votes(fam, group, members, yj_dates)
    effective, approximate, why_date = _effective(fam, group, members, dates)
    label = _label(members)
    stats = STATS.setdefault(fam.family, Stats())
    stats.lists += 1
    yj_when = dates.get("ygojson", effective)
    entries, disagreements = _vote_entries(b, fam, group, members, effective, yj_hist, yj_when)
    names = {c: b.name(c) for c in entries}
    banlist = Banlist(
        family=fam.family,
        name=f"{effective.isoformat()} {fam.title}",
        label=label,
        effective=effective,
        announced=None,
        sources=tuple(m.ref for m in members),
        entries=MappingProxyType(entries),
        whitelist=fam.whitelist,
        points=fam.points,
        point_cap=fam.point_cap if fam.points else None,
        note=fam.note,
        effective_eu=_eu_date(fam, dates, effective),
        approximate=approximate,
        names=MappingProxyType(names),
    )
    _log_dates(b.log, banlist, why_date, dates)
    _log_members(b.log, members, entries, yj_hist, yj_when)
    if len(members) == 1 and yj_hist is None:
        stats.single += 1
        b.log.append("Single source: nothing to cross-check.")
    elif disagreements:
        b.log.append(f"{len(disagreements)} disagreement(s):")
        b.log.append("")
        b.log.append("| passcode | card | values | kept | why |")
        b.log.append("|---|---|---|---|---|")
        b.log.extend(disagreements)
    else:
        b.log.append("All sources agree on every entry.")
    b.log.append("")
    return banlist


def _date_votes(
    fam: Family, group: Group, members: list[SrcList], yj_dates: list[date] | None
) -> dict[str, date]:
    """The effective dates the sources give (YGOJSON's nearest within the family's window)."""
    dates: dict[str, date] = {m.source: m.when for m in members if not (m.label_only or m.snapshot)}
    if yj_dates is not None:
        window = fam.ygojson_window
        near = [d for d in yj_dates if abs((d - group.spine.when).days) <= window]
        if near:
            dates["ygojson"] = min(near, key=lambda d: abs((d - group.spine.when).days))
    # a first-of-month date may be a label, a snapshot date only the day a source looked: they
    # vote only when another source confirms them
    for m in members:
        if (m.label_only or m.snapshot) and m.source not in dates and m.when in dates.values():
            dates[m.source] = m.when
    return dates


def _effective(
    fam: Family, group: Group, members: list[SrcList], dates: dict[str, date]
) -> tuple[date, bool, str]:
    """The effective date voted from ``dates``, whether it is approximate, and why."""
    if dates:
        ords = {s: d.toordinal() for s, d in dates.items()}
        order = fam.date_priority(group.spine.when)
        eff_ord, why_date = vote(ords, order)
        return date.fromordinal(eff_ord), False, why_date
    if any(m.snapshot for m in members):
        return (
            group.spine.when,
            True,
            "no source gives an announced effective date, only the day a source first showed "
            "the list: kept that day, marked approximate",
        )
    return group.spine.when, False, "only month labels given; kept the spine's"


def _label(members: list[SrcList]) -> str | None:
    """The list's label (yaml-yugi's month first, else the first label-only list's name)."""
    labels = [m for m in members if m.label_only]
    labels.sort(key=lambda m: m.source != "yaml-yugi")
    if not labels:
        return None
    first = labels[0]
    return first.when.strftime("%B %Y") if first.source == "yaml-yugi" else first.name


def _vote_entries(
    b: Builder,
    fam: Family,
    group: Group,
    members: list[SrcList],
    effective: date,
    yj_hist: dict[int, list[tuple[date, int]]] | None,
    yj_when: date,
) -> tuple[dict[int, int], list[str]]:
    """Every card's status voted by the sources, and the log's rows of their disagreements."""
    order = fam.entry_priority(group.spine.when)
    codes = sorted(set().union(*(m.entries for m in members)))
    default = ABSENT if fam.whitelist else (0 if fam.points else 3)
    entries: dict[int, int] = {}
    disagreements: list[str] = []
    stats = STATS[fam.family]
    listed_tie = None if fam.whitelist or effective < LISTED_TIE_FROM else default
    for code in codes:
        values = {m.source: m.entries.get(code, default) for m in members}
        if yj_hist is not None:
            values["ygojson"] = history_status(yj_hist.get(code, []), yj_when)
        kept, why = vote(values, order, listed_tie)
        if kept != default:
            entries[code] = kept
        if len(set(values.values())) > 1:
            if why.startswith("tie"):
                rule = why.split(": ", 1)[-1]
                stats.ties[rule] += 1
                stats.ties_before_2013 += effective < LISTED_TIE_FROM
            else:
                stats.majority += 1
            shown = ", ".join(f"{s} {_fmt(v, fam)}" for s, v in values.items())
            disagreements.append(
                f"| {code} | {b.name(code)} | {shown} | **{_fmt(kept, fam)}** | {why} |"
            )
    return entries, disagreements


def _log_dates(log: list[str], banlist: Banlist, why_date: str, dates: dict[str, date]) -> None:
    """The log's heading of a reconciled list: its label and how its dates were chosen."""
    log.append(f"### {banlist.name}")
    log.append("")
    if banlist.label:
        log.append(f"Label: {banlist.label}.")
    date_votes = ", ".join(f"{s} {d}" for s, d in dates.items()) or "none"
    log.append(f"Effective date {banlist.effective} ({why_date}; real dates given: {date_votes}).")
    if banlist.effective_eu is not None:
        log.append(
            f"Europe: in force from {banlist.effective_eu} (Konami's European date; the "
            f"effective date kept is North America's, the default region; `--region eu` "
            "uses the European one)."
        )
    log.append("")


def _log_members(
    log: list[str],
    members: list[SrcList],
    entries: dict[int, int],
    yj_hist: dict[int, list[tuple[date, int]]] | None,
    yj_when: date,
) -> None:
    """The log's table of a reconciled list's sources and their agreement with it."""
    log.append("| source | list | entries | agreement with kept list |")
    log.append("|---|---|---|---|")
    for m in members:
        log.append(
            f"| {m.source} | `{m.ref}` | {len(m.entries)} | "
            f"{agreement(m.entries, dict(entries)) * 100:.1f}% |"
        )
    log.append("")
    if yj_hist is not None:
        log.append(f"YGOJSON's per-card history votes on every entry (status on {yj_when}).")
        log.append("")


def build_groups(
    b: Builder,
    spine: list[SrcList],
    other_sources: list[list[SrcList]],
    fam: Family,
    extend_after: date | None = None,
) -> list[Group]:
    """Group the spine's lists with the best-matching lists of the other sources.

    Unmatched lists of another source dated after ``extend_after`` start groups of their own
    (e.g. Konami lists newer than TimeWizard's data); other unmatched lists are logged.
    """
    groups = [Group(s) for s in spine]
    for others in other_sources:
        taken, unmatched = match([g.spine for g in groups], others)
        for i, o in taken.items():
            groups[i].members.append(o)
        for o in unmatched:
            if extend_after is not None and o.when > extend_after:
                groups.append(Group(o))
            else:
                b.log.append(
                    f"- {fam.title}: `{o.ref}` ({len(o.entries)} entries) matched no list "
                    "(no list within the date window agreed on at least half its entries); "
                    "not used."
                )
    groups.sort(key=lambda g: g.spine.when)
    return groups


def konami_only(b: Builder, groups: list[Group], official: str) -> list[Group]:
    """Groups with Konami's official list: the other sources' entries Konami lacks go.

    EDOPro kept editing its Rush lists after their dates, so they hold entries of later lists
    (its "2024.01.01" list has Legend Strike, Obsidian Magical Soldier and Divinebreath, which
    Konami's list of that date does not). The official list is the list; the others only
    confirm it.
    """
    for g in groups:
        konami = [m for m in [g.spine, *g.members] if m.source == official]
        if not konami:
            continue
        keep = set(konami[0].entries)
        for m in [g.spine, *g.members]:
            extra = sorted(set(m.entries) - keep)
            if m.source == official or not extra:
                continue
            names = ", ".join(b.name(c) for c in extra)
            b.log.append(
                f"- `{m.ref}`: {len(extra)} entr(y/ies) not on Konami's list of "
                f"{konami[0].when} dropped: {names}."
            )
            m.entries = {c: v for c, v in m.entries.items() if c in keep}
    return groups


def build_all(b: Builder) -> list[Banlist]:
    """Every family's lists, reconciled; the log fills as it goes."""
    log = b.log
    log.append("# Unmatched source lists")
    log.append("")
    tcg_fam, tcg_groups, fl_ocg = _tcg(b)
    ocg_fam, ocg_groups = _ocg(b, fl_ocg)
    md_fam, md_groups = _master_duel(b)
    gen_fam, gen_groups = _genesys(b)
    ogen_fam, ogen_v = _ocg_genesys(b)
    rush_fam, rush_pi, rush_yy = _rush(b)
    speed_pi = b.ignis(["Speed Duel"], exclude=["Midterm"])
    log.append("")
    out = family_lists(b, tcg_fam, tcg_groups, b.ygojson_dates(), b.ygojson_history("tcg"))
    out += family_lists(b, ocg_fam, ocg_groups)
    out += family_lists(b, md_fam, md_groups)
    out += family_lists(b, gen_fam, gen_groups, b.ygojson_dates("genesys"))
    out += family_lists(b, ogen_fam, [Group(s) for s in ogen_v])
    rush_groups = konami_only(b, build_groups(b, rush_pi, [rush_yy], rush_fam), "yaml-yugi")
    out += family_lists(b, rush_fam, rush_groups)
    out.extend(build_speed(b, SPEED_FAMILY, sorted(speed_pi, key=lambda s: s.when)))
    for fmt in WHITELISTS:
        out += family_lists(b, *whitelist_group(b, *fmt))
    return out


def family_lists(
    b: Builder,
    fam: Family,
    groups: list[Group],
    yj: list[date] | None = None,
    yj_hist: dict[int, list[tuple[date, int]]] | None = None,
) -> list[Banlist]:
    """One family's reconciled lists (one per effective date: a later group wins), logged."""
    log = b.log
    log.append(f"## {fam.title} (`{fam.family}`)")
    log.append("")
    for text in (fam.note, fam.remarks):
        if text:
            log.append(text)
            log.append("")
    log.append(
        f"Source priority on ties: {', '.join(fam.priority)}"
        + (" (TimeWizard first for lists before 2013-10)." if fam.family == "tcg" else ".")
        + (
            ""
            if fam.whitelist
            else " From 2013 a listed value beats 'not listed' on a "
            "tie; before 2013 such a tie goes by priority."
        )
    )
    log.append("")
    made: dict[date, Banlist] = {}
    for g in groups:
        bl = reconcile(b, fam, g, yj, yj_hist)
        if bl.effective in made:
            log.append(
                f"**Two groups reconciled to {bl.effective}; the later-built one "
                f"(from `{g.spine.ref}`) replaces the earlier.**"
            )
            log.append("")
        made[bl.effective] = bl
    return list(made.values())


TCG_FAMILY = Family(
    "tcg",
    "TCG",
    ("yaml-yugi", "timewizard", "fluorohydride", "projectignis"),
    note="Real TCG effective dates: TimeWizard's dates, yaml-yugi dates and YGOJSON's "
    "per-card history dates vote. A yaml-yugi date on the first of a month may be one of "
    "Konami's March/September labels: it is kept as the list's label and votes only when "
    "another source gives the same date. Date ties go to TimeWizard, then YGOJSON, before "
    "2013-10; after, to YGOJSON (North-American dates, the default region), then Konami "
    "(yaml-yugi, whose dates are the European ones; a differing European date is kept "
    "as the list's effective_eu), then TimeWizard. The four "
    "yaml-yugi lists before 2002 are OCG-era lists in Konami's database and are not used.",
    remarks="Known conflict with the shared rules notes (rules.md §5: 'Konami's TCG "
    "Forbidden status began in Oct 2004'): TimeWizard's 2004-08-25 list already has 12 "
    "Forbidden cards and YGOJSON (Yugipedia) dates those changes 2004-08-25 too. The data "
    "is kept as given; no source puts a Forbidden entry before 2004-08-25.",
)


def _tcg(b: Builder) -> tuple[Family, list[Group], list[SrcList]]:
    """The TCG family's groups, and fluorohydride's OCG lists (read with its TCG ones)."""
    log = b.log
    tw = clean_source(b.timewizard(), "TCG", log)
    yy_tcg = [s for s in b.yaml_vectors("tcg") if s.when >= date(2002, 3, 1)]
    yy_tcg = clean_source(yy_tcg, "TCG", log)
    fl_path = b.lf / "ygopro-fluorohydride" / "lflist.conf"
    fl_all = b.lflist_lists(fl_path, f"{REPO_FL}:lflist.conf", "fluorohydride")
    fl_all += b.lflist_lists(
        b.lf / "ygopro-fluorohydride" / "2011.3.1.lflist.conf",
        f"{REPO_FL_2011}:lflist.conf (section !2011.3.1)",
        "fluorohydride",
    )
    fl_tcg = [s for s in fl_all if "TCG" in s.name or s.when < date(2013, 9, 1)]
    fl_ocg = clean_source([s for s in fl_all if s not in fl_tcg], "OCG", log)
    fl_tcg = clean_source(fl_tcg, "TCG", log)
    pi_tcg = clean_source(b.ignis([" TCG"]), "TCG", log)
    groups = build_groups(b, tw, [yy_tcg, fl_tcg, pi_tcg], TCG_FAMILY, tw[-1].when)
    return TCG_FAMILY, groups, fl_ocg


def _ocg(b: Builder, fl_ocg: list[SrcList]) -> tuple[Family, list[Group]]:
    """The OCG family's groups: yaml-yugi's lists (vectors, then names) as the spine."""
    log = b.log
    fam = Family("ocg", "OCG", ("yaml-yugi", "yaml-yugi-names", "fluorohydride", "projectignis"))
    yy_ocg_v = clean_source(b.yaml_vectors("ocg"), "OCG", log)
    yy_ocg_n = clean_source(b.yaml_names("ocg"), "OCG", log)
    vec_dates = {s.when for s in yy_ocg_v}
    spine = sorted(
        yy_ocg_v + [s for s in yy_ocg_n if s.when not in vec_dates], key=lambda s: s.when
    )
    for s in spine:
        s.label_only = False  # OCG dates are real dates
    others = [
        [s for s in yy_ocg_n if s.when in vec_dates],
        fl_ocg,
        clean_source(b.ignis([" OCG"]), "OCG", log),
    ]
    return fam, build_groups(b, spine, others, fam)


def _master_duel(b: Builder) -> tuple[Family, list[Group]]:
    """The Master Duel family's groups."""
    log = b.log
    fam = Family("master-duel", "Master Duel", ("yaml-yugi", "yaml-yugi-names", "projectignis"))
    md_v = clean_source(b.yaml_vectors("master-duel"), "Master Duel", log)
    for s in md_v:
        s.label_only = False
    others = [
        clean_source(b.yaml_names("master-duel"), "Master Duel", log),
        clean_source(b.ignis(["Master Duel"]), "Master Duel", log),
    ]
    return fam, build_groups(b, md_v, others, fam)


def _genesys(b: Builder) -> tuple[Family, list[Group]]:
    """The TCG Genesys family's groups (points lists; empty snapshots dropped)."""
    fam = Family(
        "genesys",
        "Genesys",
        ("yaml-yugi", "projectignis"),
        points=True,
        point_cap=100,
        note="Points lists (TCG Genesys): the value is points, 100 = effectively banned. "
        "yaml-yugi-limit-regulation's dates are snapshot (download) dates: they count only when "
        "another source confirms them (YGOJSON's per-card history, the same day); an EDOPro "
        "list named with a full date (2026.06.08) gives the announced effective date; "
        "otherwise the snapshot date is kept and the list is marked approximate. Empty "
        "snapshots are dropped.",
        ygojson_window=0,
    )
    gen_v = []
    for s in b.yaml_vectors("genesys"):
        s.label_only, s.snapshot = False, True
        if not s.entries:
            b.log.append(
                f"- Genesys: `{s.ref}` is empty (a failed snapshot, not a list); not used."
            )
            continue
        gen_v.append(s)
    return fam, build_groups(b, gen_v, [b.ignis(["Genesys"])], fam)


def _ocg_genesys(b: Builder) -> tuple[Family, list[SrcList]]:
    """The OCG Genesys family and its lists (yaml-yugi's snapshots only)."""
    fam = Family(
        "ocg-genesys",
        "OCG Genesys",
        ("yaml-yugi",),
        points=True,
        point_cap=100,
        note="Points lists (OCG Genesys), yaml-yugi-limit-regulation only: its dates are "
        "snapshot (download) dates, so the lists are marked approximate.",
    )
    ogen_v = b.yaml_vectors("ocg-genesys")
    for s in ogen_v:
        s.label_only, s.snapshot = False, True
    return fam, ogen_v


def _rush(b: Builder) -> tuple[Family, list[SrcList], list[SrcList]]:
    """The Rush Duel family, EDOPro's lists (Legend stand-ins left out) and Konami's."""
    fam = Family(
        "rush",
        "Rush Duel",
        ("yaml-yugi", "projectignis"),
        note="Forbidden/Limited/Semi-Limited lists from EDOPro and Konami's official Rush lists "
        "(yaml-yugi-limit-regulation, from 2023; Konami's value wins a tie). These lists do "
        "not define the Rush card pool: EDOPro's Rush whitelists "
        "of 2020-2022 are lost ('2020.04.27' was kept up to date until 2023-01-05, '2020.5.17' "
        "froze at 81 cards), so Rush legality follows the cards' release dates, as the other "
        "pools do (see the card-index build report). EDOPro's Limited 1 entries for Legend "
        "cards stand in for the Legend rule, which deckcheck applies itself: they are left out.",
    )
    rush_pi = [s for s in b.ignis(["Rush Duel"]) if "Prerelease" not in s.name]
    for s in rush_pi:
        s.label_only = False
        legends = {c for c, v in s.entries.items() if v == 1 and b.is_legend(c)}
        if legends:
            b.log.append(
                f"- Rush Duel: `{s.ref}`: {len(legends)} Legend card(s) listed as "
                "Limited 1 (EDOPro's stand-in for the Legend rule) left out."
            )
        s.entries = {c: v for c, v in s.entries.items() if v < 3 and c not in legends}
    rush_pi = clean_source(rush_pi, "Rush Duel", b.log)
    return fam, rush_pi, b.yaml_vectors("rush", rush=True)


SPEED_FAMILY = Family(
    "speed",
    "Speed Duel",
    ("ygojson", "projectignis"),
    whitelist=False,
    note="Limits only (the card pool comes from the Speed Duel products: a card printed in "
    "one, and every Skill, is legal from its product's date; see docs/data.md). From "
    "EDOPro's Speed lists, on the published list dates "
    "of YGOJSON's per-card Speed Duel history (Yugipedia), which also gives the limits: "
    "Forbidden, and the Limited 1/2/3 groups (a deck holds at most N cards from all the "
    "cards of Limited N together; EDOPro notes that it does not model this system). "
    "Lists before the first published list (2022-09-10) keep EDOPro's month labels and "
    "are marked approximate. The event-specific '2022.10.07 Speed Duel Midterm Paradox "
    "Box' list is left out.",
)

WHITELISTS: tuple[tuple[str, str, list[str], str, date], ...] = (
    ("goat", "GOAT", ["2005.4 GOAT"], "2005-07-27 (Goat)", date(2005, 4, 1)),
    (
        "edison",
        "Edison",
        ["2010.3 EDISON", "2010.03 EDISON", "2010.03.01 Edison"],
        "2010-04-24 (Edison)",
        date(2010, 3, 1),
    ),
    ("hat", "HAT", ["2014.04 HAT", "2014.4 HAT"], "2014-07-11 (HAT)", date(2014, 4, 1)),
)
"""The whitelist formats: id, title, EDOPro's list names (reference first), TimeWizard's
curated list, the date of the TCG list the format uses."""


def _tw_curated(b: Builder, stem: str) -> list[SrcList]:
    """TimeWizard's curated list ``stem`` (labelled with the date its name starts with)."""
    path = b.lf / "timewizard" / "curated-lflist" / f"{stem}.lflist.conf"
    got = b.lflist_lists(path, f"{REPO_TW}:curated-lflist/{path.name}", "timewizard")
    for s in got:
        s.when = date.fromisoformat(stem[:10])
        s.label_only = True
    return got


def whitelist_group(
    b: Builder, fam_id: str, title: str, ignis_names: list[str], tw_stem: str, when: date
) -> tuple[Family, list[Group]]:
    """A whitelist format's family and its one group: EDOPro's list, cross-checked."""
    fam = Family(
        fam_id,
        title,
        ("projectignis", "timewizard"),
        whitelist=True,
        note=f"{title} whitelist (card pool and limits). EDOPro's list is the reference; "
        "TimeWizard's curated list of the format's date cross-checks it. The effective "
        f"date is that of the TCG list the format uses ({when}).",
    )
    pis = [s for s in b.ignis(ignis_names) if s.name in ignis_names]
    pis.sort(key=lambda s: ignis_names.index(s.name))
    spine = pis[0]
    spine.when, spine.label_only = when, False
    members = _tw_curated(b, tw_stem)
    for extra in pis[1:]:
        if agreement(extra.entries, spine.entries) >= 0.99:
            # an earlier version of the same EDOPro list (a header rename): one source
            # must not vote twice, or it wins 2-2 ties on pool membership by itself
            b.log.append(
                f"- {title}: `{extra.ref}` is a near-identical version of `{spine.ref}` "
                "(the same EDOPro list); counted once."
            )
            b.log.append("")
            continue
        extra.source = f"projectignis ({extra.name})"
        members.append(extra)
    return fam, [Group(spine, members)]


SPEED_WINDOW = 45
"""Days between an EDOPro Speed list's month label and a published list date that pair them."""
SPEED_WORDS = {"forbidden": 0, "limit1": 1, "limit2": 2, "limit3": 3}
"""YGOJSON's Speed Duel statuses: Forbidden (0), Limited 1/2/3 (the limit group)."""
_SPEED_TIE = "priority to ygojson (published per-card history)"

History = dict[int, list[tuple[date, str]]]
"""Per card: (date, status word) steps of YGOJSON's Speed Duel history."""


def build_speed(b: Builder, fam: Family, spine: list[SrcList]) -> list[Banlist]:
    """Speed Duel lists: EDOPro's whitelists (the pool) on the published dates, with the limit
    groups of YGOJSON's per-card history (Yugipedia).

    Each EDOPro list (named by month) is paired with the nearest published list date within
    :data:`SPEED_WINDOW` days (greedy, nearest first); it takes that date, and YGOJSON's status
    on it votes with EDOPro's on every card (Forbidden, Limited 1/2/3 groups). EDOPro says it
    does not model the group system (its Limited N sections are "for reference"), so a tie goes
    to YGOJSON. A list no published date pairs with keeps its month label, marked approximate.
    """
    log = b.log
    hist = b.ygojson_speed()
    published = sorted({d for steps in hist.values() for d, _ in steps})
    paired = _pair_speed(spine, published)
    log.append(f"## {fam.title} (`{fam.family}`)")
    log.append("")
    log.append(fam.note)
    log.append("")
    for d in published:
        if d not in paired.values():
            log.append(f"- Published Speed Duel list of {d} (YGOJSON) has no EDOPro pool near it.")
    stats = STATS.setdefault(fam.family, Stats())
    out = []
    for i, src in enumerate(spine):
        when = paired.get(i)
        stats.lists += 1
        entries, groups, rows = _speed_entries(b, src, when, hist, stats)
        effective = when or src.when
        banlist = Banlist(
            family=fam.family,
            name=f"{effective.isoformat()} {fam.title}",
            label=src.name,
            effective=effective,
            announced=None,
            sources=(src.ref, *([f"{REPO_YJ}:cards (legality.speed.history)"] if when else [])),
            entries=MappingProxyType(entries),
            whitelist=False,
            note=fam.note,
            approximate=when is None,
            groups=MappingProxyType(groups),
            names=MappingProxyType({c: b.name(c) for c in entries}),
        )
        out.append(banlist)
        _log_speed(log, banlist, src, when, rows, stats)
    return out


def _pair_speed(spine: list[SrcList], published: list[date]) -> dict[int, date]:
    """Each EDOPro list's published date (by index): greedy, nearest first, within
    :data:`SPEED_WINDOW` days, each date used once."""
    pairs = sorted(
        (abs((p - sp.when).days), i, j)
        for i, sp in enumerate(spine)
        for j, p in enumerate(published)
        if abs((p - sp.when).days) <= SPEED_WINDOW
    )
    paired: dict[int, date] = {}
    used: set[int] = set()
    for _, i, j in pairs:
        if i not in paired and j not in used:
            paired[i] = published[j]
            used.add(j)
    return paired


def _status_on(steps: list[tuple[date, str]], when: date) -> str:
    """A card's YGOJSON Speed Duel status on ``when`` ("unlimited" before any step)."""
    word = "unlimited"
    for step, value in steps:
        if step <= when:
            word = value
    return word


def _speed_entries(
    b: Builder, src: SrcList, when: date | None, hist: History, stats: Stats
) -> tuple[dict[int, int], dict[int, int], list[str]]:
    """One Speed list's entries and limit groups (YGOJSON's on a published date, else
    EDOPro's), and the log's rows of their disagreements."""
    entries: dict[int, int] = {}
    groups: dict[int, int] = {}
    rows = []
    for code in sorted(src.entries):
        if when is None:
            entries[code] = src.entries[code]
            continue
        y = SPEED_WORDS.get(_status_on(hist.get(code, []), when))
        row = _speed_disagreement(b, src, code, y)
        if row is not None:
            stats.ties[_SPEED_TIE] += 1
            rows.append(row)
        if y == 0:
            entries[code] = 0
        elif y:
            entries[code] = y
            groups[code] = y
        else:
            entries[code] = 3
    if when is not None:
        for code, steps in sorted(hist.items()):
            word = _status_on(steps, when)
            if word != "unlimited" and code not in src.entries and word in SPEED_WORDS:
                rows.append(
                    f"| {code} | {b.name(code)} | ygojson {word}, not in EDOPro's "
                    f"list | **{word}** | Konami's list (YGOJSON) |"
                )
                entries[code] = SPEED_WORDS[word]
                if SPEED_WORDS[word]:
                    groups[code] = SPEED_WORDS[word]
    entries = {c: v for c, v in entries.items() if 0 <= v < 3}
    groups = {c: v for c, v in groups.items() if c in entries}
    return entries, groups, rows


def _limit_text(forbidden: bool, group: int | None) -> str:
    """A Speed Duel status as the log writes it."""
    return "Forbidden" if forbidden else (f"Limited {group}" if group else "-")


def _speed_disagreement(b: Builder, src: SrcList, code: int, y: int | None) -> str | None:
    """The log's row when EDOPro's status of ``code`` differs from YGOJSON's ``y`` (the
    limit group, 0 Forbidden, None unlimited), else None."""
    e_forbidden = src.entries[code] == 0
    y_group = y if y else None
    e_text = _limit_text(e_forbidden, src.groups.get(code))
    y_text = _limit_text(y == 0, y_group)
    edopro_speaks = bool(src.groups) or e_forbidden
    if not edopro_speaks and src.entries[code] < 3 and y_group != src.entries[code]:
        # EDOPro without group sections: its per-card 1/2 approximates a group
        return (
            f"| {code} | {b.name(code)} | EDOPro per-card "
            f"{src.entries[code]}, ygojson {y_text} | **{y_text}** | "
            "tie 1/2: priority to ygojson |"
        )
    if edopro_speaks and e_text != y_text:
        return (
            f"| {code} | {b.name(code)} | EDOPro {e_text}, ygojson {y_text} | "
            f"**{y_text}** | tie 1/2: priority to ygojson |"
        )
    return None


def _log_speed(
    log: list[str],
    banlist: Banlist,
    src: SrcList,
    when: date | None,
    rows: list[str],
    stats: Stats,
) -> None:
    """The log's section of one Speed Duel list."""
    effective = banlist.effective
    log.append(f"### {banlist.name}")
    log.append("")
    log.append(f"Label: {src.name}.")
    if when is None:
        stats.single += 1
        log.append(
            f"Effective date {effective}: EDOPro's month label; no published list date "
            f"within {SPEED_WINDOW} days, so the date is approximate and the limits are "
            "EDOPro's (per card, no groups)."
        )
    else:
        log.append(
            f"Effective date {effective}: the published date (YGOJSON's per-card history); "
            f"EDOPro's month label {src.when} is {abs((src.when - effective).days)} days "
            f"{'later' if src.when > effective else 'earlier'}. "
            f"{len(banlist.groups)} cards in limit groups, "
            f"{sum(1 for v in banlist.entries.values() if v == 0)} Forbidden."
        )
    log.append("")
    if rows:
        log.append(f"{len(rows)} disagreement(s):")
        log.append("")
        log.append("| passcode | card | values | kept | why |")
        log.append("|---|---|---|---|---|")
        log.extend(rows)
    elif when is not None:
        log.append("All sources agree on every entry.")
    log.append("")


def write(lists: list[Banlist], b: Builder, out_dir: Path, bundle: Path) -> None:
    """Write the TOML files, the reconciliation report and the bundle."""
    if out_dir.exists():
        for old in out_dir.glob("*/*.toml"):
            old.unlink()
        for sub in out_dir.iterdir():
            if sub.is_dir() and not any(sub.iterdir()):
                shutil.rmtree(sub)
    for bl in lists:
        path = out_dir / bl.family / f"{bl.effective.isoformat()}.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        header = f"{bl.name}: generated by scripts/build_banlists.py; see banlists/README.md."
        path.write_text(dump_banlist_toml(bl, header), encoding="utf-8")
    report = [
        "# Ban-list reconciliation",
        "",
        "Generated by `scripts/build_banlists.py` from `../shared/data` (see its README, §2).",
        "For each list: the sources matched to it, how far each agrees with the list kept, and",
        "every entry where they disagreed, with the value kept and why. Votes: a card absent",
        "from a list votes Unlimited (or 'not in pool' for a whitelist); majority wins; a tie",
        "goes to the family's highest-priority source. Month labels do not vote on dates.",
        "",
    ]
    report += [
        "# Summary: how disagreements were settled",
        "",
        "Per list family: lists built, lists with a single source (nothing to cross-check), and",
        "entries where the sources disagreed, settled by majority or by a tie rule. YGOJSON's",
        "per-card history votes on TCG entries, so early TCG lists have three voters.",
        "",
        "| family | lists | single-source | majority | ties | ties before 2013 | tie rules used |",
        "|---|---|---|---|---|---|---|",
    ]
    for fam, st in STATS.items():
        rules = "; ".join(f"{rule} ({n})" for rule, n in sorted(st.ties.items())) or "-"
        report.append(
            f"| {fam} | {st.lists} | {st.single} | {st.majority} | {sum(st.ties.values())} | "
            f"{st.ties_before_2013} | {rules} |"
        )
    report.append("")
    report.extend(b.log)
    report.append("# Entries that could not be mapped to a card (left out)")
    report.append("")
    for where in sorted(b.misses):
        items = b.misses[where]
        report.append(
            f"- **{where}** ({len(items)}): "
            + "; ".join(items[:40])
            + (" …" if len(items) > 40 else "")
        )
    if not b.misses:
        report.append("None.")
    (out_dir / "RECONCILIATION.md").write_text("\n".join(report) + "\n", encoding="utf-8")
    bundle.write_text(dump_bundle(lists) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    ap.add_argument("--out", type=Path, default=OUT_DIR, help="the banlists/ folder to write")
    ap.add_argument("--bundle", type=Path, default=BUNDLE, help="the JSON bundle to write")
    ap.add_argument(
        "--bundle-only",
        action="store_true",
        help="only rebuild the bundle from the banlists/ TOML files",
    )
    args = ap.parse_args(argv)
    if args.bundle_only:
        files = read_banlist_dir(args.out)
        args.bundle.write_text(dump_bundle(files) + "\n", encoding="utf-8")
        print(f"{len(files)} lists -> {args.bundle}")
        return 0
    if not (args.data / "lflists").is_dir():
        print(f"no lflists/ under {args.data}", file=sys.stderr)
        return 2
    b = Builder(args.data)
    lists = build_all(b)
    write(lists, b, args.out, args.bundle)
    by_family = Counter(bl.family for bl in lists)
    print(", ".join(f"{f} {n}" for f, n in sorted(by_family.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())


def _active_cards() -> CardIndex:
    """The card index of the active dataset (a builder run with no index given)."""
    from deckcheck.data.dataset import Dataset

    return Dataset.active().cards
