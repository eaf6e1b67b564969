"""Consistency rules over the release dates the card-index build works out.

Each rule finds dates that cannot all be true; the build report (``docs/card-index-report.md``)
gives each rule's count and examples, and ``scripts/build_card_index.py`` fails on a violation
that is not in the reviewed baseline (``consistency_baseline.json`` beside this file; refresh it
with ``--update-baseline`` after reviewing the report):

* ``tcg-before-ocg``: a TCG date before the OCG debut of a card that is not TCG-first (its first
  English product also came out in the OCG, or the date comes from a set YGOJSON lists before
  the card's first English product and before its OCG debut, such as a game bundle);
* ``na-eu-apart``: North American and European dates more than :data:`NA_EU_DAYS` days apart
  for the same English product (since 2012 one release day);
* ``before-product``: a date before the game's launch in its region, or a YGOJSON TCG date
  before every product the card's first prints name;
* ``prefix-no-product``: a first print prefix that links to no product of the data (by its
  code or by name): its cards get bounds, not dates.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from deckcheck.boundary import read_data
from deckcheck.data.builders.release_dates import (
    OCG_LAUNCH,
    SAME_DAY_SINCE,
    TCG_LAUNCH,
    YAML_LOCALE,
    SetDates,
    product_key,
    region_dates,
)

RULES = ("tcg-before-ocg", "na-eu-apart", "before-product", "prefix-no-product")
"""The consistency rules, in report order."""
NA_EU_DAYS = 28
"""Most days between the North American and European dates of one English product."""
BASELINE = Path(__file__).with_name("consistency_baseline.json")
"""The reviewed violations the build accepts (rule -> keys: passcodes, or print prefixes)."""

Found = dict[str, list[tuple[str, str, str]]]
"""rule -> [(key, card or prefix, detail)]."""


def _days(a: str, b: str) -> int:
    return abs((date.fromisoformat(a) - date.fromisoformat(b)).days)


def check(rows: list[dict[str, Any]], sets: SetDates) -> Found:
    """The violations of every rule. ``rows`` hold ``passcode``, ``name``, ``release`` (the
    index's entries) and ``prints`` (yaml-yugi's first print code per language)."""
    found: Found = {rule: [] for rule in RULES}
    unlinked: dict[str, list[str]] = {}
    for row in rows:
        pid, name, rel, prints = str(row["passcode"]), row["name"], row["release"], row["prints"]
        for rule, detail in (
            ("tcg-before-ocg", _tcg_before_ocg(rel, prints, sets)),
            ("na-eu-apart", _na_eu_apart(rel, prints)),
            ("before-product", _before_product(rel, prints, sets)),
        ):
            if detail is not None:
                found[rule].append((pid, name, detail))
        for number in prints.values():
            pre = number.split("-")[0]
            if number and "?" not in number and not sets.linked(number):
                unlinked.setdefault(pre, []).append(name)
    for pre, names in sorted(unlinked.items()):
        found["prefix-no-product"].append(
            (pre, pre, f"{len(names)} first prints, e.g. {', '.join(sorted(names)[:3])}")
        )
    for rule in RULES:
        found[rule].sort()
    return found


def _tcg_before_ocg(rel: dict[str, Any], prints: dict[str, str], sets: SetDates) -> str | None:
    """A TCG date before the OCG one that the prints explain away (its first English product
    came out in the OCG, or a set dated before it): the first region's detail, else None."""
    ocg = rel.get("ocg")
    en = prints.get("en")
    en_product = sets.product(en, "na") if en else None
    en_locs = sets.by_name[en_product] if en_product else {}
    en_dates = region_dates(en_locs)
    for region in ("na", "eu"):
        tcg = rel.get(region)
        if not (tcg and ocg and tcg[1] == ocg[1] == "e" and tcg[0] < ocg[0]):
            continue
        ja = product_key((prints.get("ja") or "").rsplit("-", 1)[0] + "-JP")
        in_ocg_product = bool(ja and en and ja[0] == en.split("-")[0])
        shared = in_ocg_product and "jp" in en_locs and en_locs["jp"] <= tcg[0]
        early = tcg[2] == "ygojson" and min(en_dates.values(), default="9999") > ocg[0]
        if shared or early:
            why = (
                "its first English product came out in the OCG"
                if shared
                else ("a set dated before its first English product")
            )
            return f"{region.upper()} {tcg[0]} < OCG {ocg[0]} ({why})"
    return None


def _na_eu_apart(rel: dict[str, Any], prints: dict[str, str]) -> str | None:
    """North American and European dates of one English product too far apart, or None."""
    na, eu = rel.get("na"), rel.get("eu")
    en = prints.get("en")
    eu_print = prints.get("de") or prints.get("fr") or prints.get("it")
    same = bool(en and eu_print and en.split("-")[0] == eu_print.split("-")[0])
    if (
        na
        and eu
        and na[1] == eu[1] == "e"
        and same
        and na[0] >= SAME_DAY_SINCE
        and _days(na[0], eu[0]) > NA_EU_DAYS
    ):
        return f"NA {na[0]}, EU {eu[0]} ({en})"
    return None


def _before_product(rel: dict[str, Any], prints: dict[str, str], sets: SetDates) -> str | None:
    """A dated release before the game's launch, or (YGOJSON's) before the card's first
    products: the first such region's detail, else None."""
    for region, entry in rel.items():
        if region not in ("ocg", "na", "eu") or entry[1] != "e":
            continue
        launch = OCG_LAUNCH if region == "ocg" else TCG_LAUNCH
        firsts = [sets.first[p] for p in _products(prints, sets) if p in sets.first]
        if entry[0] < launch:
            return f"{region.upper()} {entry[0]} before the launch ({launch})"
        if region != "ocg" and entry[2] == "ygojson" and firsts and entry[0] < min(firsts):
            return f"{region.upper()} {entry[0]} before its first products ({min(firsts)})"
    return None


def _products(prints: dict[str, str], sets: SetDates) -> list[str]:
    out = []
    for lang, number in prints.items():
        loc = YAML_LOCALE.get(lang)
        if loc and number:
            got = sets.product(number, "ocg" if loc in ("jp", "kr", "sc", "tc", "ae") else "na")
            if got:
                out.append(got)
    return out


def load_baseline(path: Path = BASELINE) -> dict[str, set[str]]:
    """The reviewed violations per rule (empty when the file is missing)."""
    if not path.exists():
        return {}
    doc = json.loads(read_data(path))
    return {rule: set(keys) for rule, keys in doc.items()}


def new_violations(found: Found, baseline: dict[str, set[str]]) -> Found:
    """The violations not in the baseline."""
    return {
        rule: [v for v in rows if v[0] not in baseline.get(rule, set())]
        for rule, rows in found.items()
    }


def baseline_text(found: Found) -> str:
    """The baseline file for these violations (compact, one rule per line)."""
    lines = [f"  {json.dumps(rule)}: {json.dumps([v[0] for v in found[rule]])}" for rule in RULES]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def render(found: Found, new: Found, examples: int = 8) -> list[str]:
    """The report section: each rule with its count, new count and examples."""
    out = [
        "## Consistency checks",
        "",
        "Dates that cannot all be true (rules in `deckcheck/data/builders/consistency.py`). The",
        "build fails on a violation missing from the reviewed baseline",
        "(`deckcheck/data/builders/consistency_baseline.json`).",
        "",
        "| rule | violations | not in the baseline | examples |",
        "|---|---|---|---|",
    ]
    for rule in RULES:
        rows = found[rule]
        shown = "; ".join(
            f"{name} [{key}]: {detail}" if key != name else f"{key}: {detail}"
            for key, name, detail in rows[:examples]
        )
        out.append(f"| `{rule}` | {len(rows)} | {len(new[rule])} | {shown or '-'} |")
    return out
