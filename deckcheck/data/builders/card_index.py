#!/usr/bin/env python3
"""Build deckcheck's bundled card index from the shared card data.

Reads (relative to ``--data``, default ``../shared/data``):

* ``cards/derived/projectignis-cards.merged.cdb``      official OCG/TCG cards
* ``cards/projectignis/babelcdb-current/*.cdb``        skills, Rush, unofficial, GOAT, pre-release
* ``cards/projectignis/deltas/*/mappings.json``        pre-release code -> passcode
* ``cards/projectignis/strings/strings.conf``          archetype (setcode) names
* ``cards/yaml-yugi/{cards,rush}.min.jsonl``           Japanese / Chinese names, Konami ids
* ``cards/ygojson/{cards,sets}.min.jsonl``             first OCG / TCG release dates
* ``lflists/timewizard/curated-lflist/*.conf``          TCG card pools at dates (bounds)
* ``lflists/yaml-yugi-limit-regulation/master-duel``    Master Duel lists (Master Duel pool)
* ``lflists/projectignis/history/*Rush Duel*.conf``      Rush Duel pools at dates (Rush dates)

and writes ``deckcheck/data/cards.json``: facts only (passcodes, names, types, dates,
flags), never card text.  The output is deterministic: the same input gives the same bytes.
It also writes a build report (``docs/card-index-report.md``): how many names, dates and
region flags each source decided, and every card whose flags and dates still disagree, with
the reason.

Rules (each one is counted in the report):

* **Names.** Konami's English name (yaml-yugi) wins over the card database's name (which may
  be a pre-release or fan translation); the database name stays a search alias.
* **Dates.** A card's first release per region (OCG, TCG North America, TCG Europe, Master
  Duel) comes from dated prints only (``release_dates.py`` beside this): YGOJSON's first release of
  each locale and the product of a yaml-yugi print code whose prefix names one product. The
  TimeWizard curated pools only bound the North American date (a window); a region without a
  dated print gets a lower bound (promo-series numbering, the data's as-of date, the cards with
  the nearest Konami ids). Each entry names its source.
* **Rush names.** EDOPro Rush cards without a yaml-yugi record of their name are matched to
  Konami's records by name and stats (:func:`match_rush_names`); Konami's name wins.
* **Flags.** A release date in a region is evidence that outranks a stale region flag: a card
  with a TCG (OCG) date is in the TCG (OCG). Konami's "Not yet released" status clears a
  region flag that no date supports. A region flag without a dated print is kept and reported
  with the bound used (validation refuses the card before it and warns after it).

Usage::

    python scripts/build_card_index.py [--data ../shared/data] [--out deckcheck/data/bundled]
                                       [--report docs/card-index-report.md]
"""

from __future__ import annotations

import argparse
import bisect
import glob
import json
import os
import re
import sqlite3
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
"""The source checkout (for the command-line defaults: ``../shared/data``, the bundled folder)."""

from deckcheck.boundary import read_data  # noqa: E402
from deckcheck.card import (  # noqa: E402
    ALIAS_ALT_ART,
    ALIAS_NONE,
    ALIAS_TREATED_AS,
    ALIAS_VARIANT,
    CARDS_FILE,
    FIELDS,
    FLAG_GOAT,
    FLAG_LEGEND,
    FLAG_OCG,
    FLAG_PRERELEASE,
    FLAG_RUSH,
    FLAG_SKILL,
    FLAG_SPEED,
    FLAG_TCG,
    FLAG_TOKEN,
    FLAG_UNOFFICIAL,
    INDEX_FORMAT,
    NAMES_FILE,
    NAMES_INTL_FILE,
    TYPE_BITS,
    build_name_table,
    name_priority,
    normalize_name,
)
from deckcheck.card.name import INTL_LANGS  # noqa: E402
from deckcheck.card.release import describe_source  # noqa: E402
from deckcheck.data.builders import consistency  # noqa: E402
from deckcheck.data.builders.release_dates import (  # noqa: E402
    Evidence,
    SetDates,
    md_entry,
    md_lists,
    tw_pools,
    tw_window,
)
from deckcheck.data.builders.snapshot import snapshot_date  # noqa: E402

# EDOPro `ot` scope bits.
OT_OCG, OT_TCG, OT_ANIME, OT_ILLEGAL, OT_VIDEO, OT_CUSTOM = 0x1, 0x2, 0x4, 0x8, 0x10, 0x20
OT_SPEED, OT_PRERELEASE, OT_RUSH, OT_LEGEND = 0x40, 0x100, 0x200, 0x400
TYPE_TOKEN, TYPE_SKILL = 0x4000, 0x8000000

RUBY_RE = re.compile(r"<ruby>(.*?)<rt>.*?</rt></ruby>")
SKILL_SUFFIX = re.compile(r"\s*\(Skill Card\)$")
SUFFIX_RE = re.compile(r"\s*\((Rush|GOAT|Skill Card|Pre-Errata|Anime|Manga|VG|Legend)\)$")

TCG_LOCALES = ("en", "de", "fr", "it", "es", "pt")
"""yaml-yugi print locales sold in the TCG (their first print codes name TCG sets)."""
OCG_LOCALES = ("ja", "zh-CN", "zh-TW", "ko")
"""yaml-yugi print locales sold in the OCG."""
NOT_RELEASED = "Not yet released"
"""Konami's status for a card not (yet) released in a region (yaml-yugi ``limit_regulation``)."""


def strip_ruby(text: str | None) -> str | None:
    """Return Japanese text with furigana markup removed (keeps the base text)."""
    if not text:
        return None
    return re.sub(r"<[^>]+>", "", RUBY_RE.sub(r"\1", text)).strip() or None


def read_cdb(path: str) -> Iterator[tuple[int, int, int, int, int, int, int, int, int, str]]:
    """Yield (id, ot, alias, setcode, type, level, race, attribute, _, name) rows of a cdb."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = con.execute(
            "SELECT d.id, d.ot, d.alias, d.setcode, d.type, d.level, d.race, d.attribute, "
            "0, t.name FROM datas d JOIN texts t ON t.id = d.id ORDER BY d.id"
        ).fetchall()
    finally:
        con.close()
    yield from rows


def setcodes_of(value: int) -> list[int]:
    """Split a packed 64-bit setcode into its (up to four) 16-bit archetype codes."""
    out = []
    for i in range(4):
        code = (value >> (16 * i)) & 0xFFFF
        if code:
            out.append(code)
    return out


def yaml_type_bits(rec: dict[str, Any]) -> int:
    """Type bits (EDOPro layout) from a yaml-yugi record, for cards the cdbs lack."""
    kind = rec.get("card_type")
    if kind == "Spell":
        prop = {
            "Quick-Play": 0x10000,
            "Continuous": 0x20000,
            "Equip": 0x40000,
            "Field": 0x80000,
            "Ritual": 0x80,
        }.get(rec.get("property") or "", 0)
        return 0x2 | prop
    if kind == "Trap":
        prop = {"Continuous": 0x20000, "Counter": 0x100000}.get(rec.get("property") or "", 0)
        return 0x4 | prop
    bits = 0x1
    words = {w.strip() for w in (rec.get("monster_type_line") or "").split("/")}
    table = {
        "Normal": 0x10,
        "Effect": 0x20,
        "Fusion": 0x40,
        "Ritual": 0x80,
        "Spirit": 0x200,
        "Union": 0x400,
        "Gemini": 0x800,
        "Tuner": 0x1000,
        "Synchro": 0x2000,
        "Flip": 0x200000,
        "Toon": 0x400000,
        "Xyz": 0x800000,
        "Pendulum": 0x1000000,
        "Link": 0x4000000,
    }
    for word, bit in table.items():
        if word in words:
            bits |= bit
    return bits


def load_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """Yield the JSON objects of a JSON-lines file."""
    # streamed by line: a build input (shared data, or a file fetched under the cap)
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def parse_password(value: Any) -> int | None:
    """A passcode from a source field (int or string, possibly with junk after the digits)."""
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        m = re.match(r"\d+", value)
        if m:
            return int(m.group())
    return None


def printed_names(ignis: Path, rows: dict[int, dict[str, Any]]) -> dict[int, list[str]]:
    """Older English names of official cards: a name the 2020 base database or a delta database
    gave the passcode that is not its name now ("Red-Eyes B. Dragon" for Red-Eyes Black
    Dragon, "B. Skull Dragon"), oldest first, each once."""
    paths = [ignis / "base-2020-03-30" / "cards.cdb"]
    for folder in sorted((ignis / "deltas").glob("*")):
        paths += [folder / "cards.delta.cdb", *sorted(folder.glob("*release*.cdb"))]
    out: dict[int, list[str]] = {}
    for path in paths:
        if not path.exists():
            continue
        for r in read_cdb(str(path)):
            pid, name = r[0], SUFFIX_RE.sub("", r[9])
            rec = rows.get(pid)
            if (
                rec is None
                or r[2]
                or rec["flags"] & (FLAG_RUSH | FLAG_UNOFFICIAL | FLAG_PRERELEASE)
            ):
                continue
            if name and name != rec["name"] and name not in out.get(pid, []):
                out.setdefault(pid, []).append(name)
    return out


def intl_names(y: dict[str, Any] | None, j: dict[str, Any] | None) -> list[str | None]:
    """A card's names in :data:`INTL_LANGS` (yaml-yugi first, then YGOJSON)."""
    yn = (y or {}).get("name") or {}
    jn = (j or {}).get("name") or {}
    return [(yn.get(lang) or jn.get(lang) or None) for lang in INTL_LANGS]


@dataclass(frozen=True, slots=True)
class Inputs:
    """What the card index is built from, read once from the shared data folder."""

    cards_dir: Path
    """``DATA/cards``."""
    babel: Path
    """The card databases of ``babelcdb-current``."""
    setnames: dict[int, str]
    """Archetype names by set code (``strings.conf``)."""
    yy: dict[int, dict[str, Any]]
    """yaml-yugi's cards by passcode."""
    yy_rush: dict[str, dict[str, Any]]
    """yaml-yugi's Rush cards by English name (the first of a name)."""
    yj: dict[int, dict[str, Any]]
    """YGOJSON's cards by passcode (the first naming it)."""
    sets: SetDates
    """Product dates per locale (YGOJSON sets)."""
    pools: Any
    """TimeWizard's card pools (TCG bounds)."""
    evidence: Evidence
    """The release-date evidence, learnt card by card."""


def read_setnames(path: Path) -> dict[int, str]:
    """Archetype names by set code, from the ``!setname`` lines of a ``strings.conf``."""
    setnames: dict[int, str] = {}
    for line in read_data(path).decode().splitlines():
        if line.startswith("!setname "):
            parts = line.rstrip("\n").split(" ", 2)
            if len(parts) == 3:
                name = parts[2].split("\t")[0].strip()
                setnames[int(parts[1], 16)] = name
    return setnames


def read_inputs(data: Path, as_of: date | None) -> Inputs:
    """Read the archetype names, yaml-yugi, YGOJSON, product dates and pools of ``data``."""
    cards_dir = data / "cards"
    setnames = read_setnames(cards_dir / "projectignis" / "strings" / "strings.conf")
    yy: dict[int, dict[str, Any]] = {}
    for rec in load_jsonl(cards_dir / "yaml-yugi" / "cards.min.jsonl"):
        pw = parse_password(rec.get("password"))
        if pw is not None:
            yy[pw] = rec
    yy_rush: dict[str, dict[str, Any]] = {}
    for rec in load_jsonl(cards_dir / "yaml-yugi" / "rush.min.jsonl"):
        en = (rec.get("name") or {}).get("en")
        if en and en not in yy_rush:
            yy_rush[en] = rec
    sets = SetDates(load_jsonl(cards_dir / "ygojson" / "sets.min.jsonl"))
    pools = tw_pools(data / "lflists" / "timewizard" / "curated-lflist")
    snapshot = as_of or snapshot_date(data)
    evidence = Evidence(sets, pools, snapshot.isoformat() if snapshot else "9999-12-31")
    yj: dict[int, dict[str, Any]] = {}
    for rec in load_jsonl(cards_dir / "ygojson" / "cards.min.jsonl"):
        for pw in rec.get("passwords") or []:
            p = parse_password(pw)
            if p is not None and p not in yj:
                yj[p] = rec
    babel = cards_dir / "projectignis" / "babelcdb-current"
    return Inputs(cards_dir, babel, setnames, yy, yy_rush, yj, sets, pools, evidence)


Rows = dict[int, dict[str, Any]]
"""The card records being built, by passcode."""
CdbRow = tuple[int, int, int, int, int, int, int, int, int, str]
"""One row of a card database (:func:`read_cdb`)."""


def add_row(rows: Rows, r: CdbRow, name: str, flags: int) -> None:
    """Add the card of database row ``r`` under ``name`` and ``flags``, unless its passcode is
    taken already (the first source naming a passcode wins)."""
    pid, ot, alias, setcode, typ, level, race, attr, _, _ = r
    if pid in rows:
        return
    rows[pid] = {
        "passcode": pid,
        "alias": alias,
        "name": name,
        "type": typ,
        "race": race,
        "attribute": attr,
        "level": level & 0xFF,
        "scale": (level >> 24) & 0xFF,
        "ot": ot,
        "flags": flags,
        "setcodes": setcodes_of(setcode),
    }


_OT_FLAGS = (
    (OT_OCG, FLAG_OCG),
    (OT_TCG, FLAG_TCG),
    (OT_ANIME | OT_ILLEGAL | OT_VIDEO | OT_CUSTOM, FLAG_UNOFFICIAL),
    (OT_SPEED, FLAG_SPEED),
    (OT_PRERELEASE, FLAG_PRERELEASE),
    (OT_RUSH, FLAG_RUSH),
    (OT_LEGEND, FLAG_LEGEND),
)
"""Card-database ``ot`` bits and the index flag each sets."""


def ot_flags(ot: int, typ: int) -> int:
    """The index flags of a card-database row's ``ot`` and type bits."""
    f = 0
    for bit, flag in _OT_FLAGS:
        if ot & bit:
            f |= flag
    if typ & TYPE_TOKEN:
        f |= FLAG_TOKEN
    if typ & TYPE_SKILL:
        f |= FLAG_SKILL
    return f


def add_official(
    rows: Rows, src: Inputs, report: dict[str, Any], search_aliases: dict[int, list[str]]
) -> set[int]:
    """The official cards first: they win any passcode clash; their passcodes.

    Konami's English name (yaml-yugi) wins over the database's name, which may be a
    pre-release or fan translation; the database name stays a search alias. Alternate
    artworks of a renamed card follow it.
    """
    official = list(read_cdb(str(src.cards_dir / "derived" / "projectignis-cards.merged.cdb")))
    cdb_names = {r[0]: r[9] for r in official}
    for r in official:
        pid, ot, alias, typ, name = r[0], r[1], r[2], r[4], r[9]
        base = alias if alias and alias != pid and cdb_names.get(alias) == name else pid
        y_en = ((src.yy.get(base) or {}).get("name") or {}).get("en")
        if y_en and y_en != name:
            if base == pid:
                search_aliases.setdefault(pid, []).append(name)
                report["renamed"].append((pid, name, y_en))
            name = y_en
        add_row(rows, r, name, ot_flags(ot, typ))
    return set(rows)


def add_released_ocg(rows: Rows, yy: dict[int, dict[str, Any]], official_ids: set[int]) -> None:
    """Cards released in the OCG that the cdbs still keep under pre-release codes."""
    for pw, rec in sorted(yy.items()):
        if pw in rows or not (rec.get("name") or {}).get("en"):
            continue
        fl = FLAG_OCG
        lr = rec.get("limit_regulation") or {}
        if lr.get("tcg") not in (None, "Not yet released"):
            fl |= FLAG_TCG
        level = (
            rec.get("level")
            or rec.get("rank")
            or (rec.get("link_arrows") and len(rec["link_arrows"]))
            or 0
        )
        ot = OT_OCG | (OT_TCG if fl & FLAG_TCG else 0)
        r = (pw, ot, 0, 0, yaml_type_bits(rec), int(level or 0), 0, 0, 0, "")
        add_row(rows, r, rec["name"]["en"], fl)
        official_ids.add(pw)


def add_other_databases(rows: Rows, babel: Path) -> None:
    """The other databases, in order of precedence; the first file naming a passcode wins."""
    # (file, flags to add, flags to clear, strip the "(Rush)"/"(GOAT)"/... suffix of the name)
    sources: list[tuple[str, int, int, bool]] = [
        ("cards-skills.cdb", FLAG_SKILL, 0, True),
        ("cards-skills-unofficial.cdb", FLAG_SKILL | FLAG_UNOFFICIAL, 0, True),
        ("cards-rush.cdb", FLAG_RUSH, 0, True),
        ("goat-entries.cdb", FLAG_GOAT | FLAG_TCG, FLAG_UNOFFICIAL, True),
    ]
    for path in sorted(glob.glob(str(babel / "prerelease-*.cdb"))):
        rush = FLAG_RUSH if "rush" in os.path.basename(path) else 0
        sources.append((os.path.basename(path), FLAG_PRERELEASE | rush, 0, True))
    sources.append(("cards-unofficial.cdb", FLAG_UNOFFICIAL, 0, False))
    for fname, extra, clear, strip in sources:
        for r in read_cdb(str(babel / fname)):
            flags = (ot_flags(r[1], r[4]) & ~clear) | extra
            add_row(rows, r, SUFFIX_RE.sub("", r[9]) if strip else r[9], flags)


def edopro_mappings(rows: Rows, cards_dir: Path) -> dict[int, int]:
    """EDOPro's pre-release code -> passcode mappings, of the passcodes in ``rows``."""
    prerelease_map: dict[int, int] = {}
    for path in sorted(
        glob.glob(str(cards_dir / "projectignis" / "deltas" / "*" / "mappings.json"))
    ):
        # streamed by line: a build input (shared data, or a file fetched under the cap)
        with open(path, encoding="utf-8") as fh:
            for pre, real in json.load(fh).get("mappings", []):
                if real in rows:
                    prerelease_map.setdefault(int(pre), int(real))
    return prerelease_map


def official_names(
    rows: Rows, official_ids: set[int], search_aliases: dict[int, list[str]]
) -> dict[str, int]:
    """Official card by name: each card's name, then the old names it was renamed from."""
    official_by_name: dict[str, int] = {}
    for pid in sorted(official_ids):
        rec = rows[pid]
        if rec["alias"] == 0:
            official_by_name.setdefault(rec["name"], pid)
    for pid, olds in sorted(search_aliases.items()):
        for old in olds:  # pre-release records may still carry the old name
            official_by_name.setdefault(old, pid)
    return official_by_name


def prerelease_codes(
    rows: Rows, cards_dir: Path, official_ids: set[int], search_aliases: dict[int, list[str]]
) -> dict[int, int]:
    """Pre-release code -> official passcode: EDOPro's mappings (an old code missing from the
    databases becomes a record of the released card), then pre-release records by name."""
    prerelease_map = edopro_mappings(rows, cards_dir)
    for pre, real in sorted(prerelease_map.items()):
        if pre not in rows:  # an old pre-release code (EDOPro's mappings): the released card
            t = rows[real]
            r = (pre, t["ot"], real, 0, t["type"], t["level"], t["race"], t["attribute"], 0, "")
            add_row(rows, r, t["name"], (t["flags"] & ~FLAG_UNOFFICIAL) | FLAG_PRERELEASE)
            rows[pre]["setcodes"] = t["setcodes"]
    official_by_name = official_names(rows, official_ids, search_aliases)
    for pid, rec in rows.items():
        if rec["flags"] & FLAG_PRERELEASE and pid not in prerelease_map:
            named = official_by_name.get(rec["name"])
            if named is not None:
                prerelease_map[pid] = named
    return prerelease_map


def classify_aliases(rows: Rows, prerelease_map: dict[int, int]) -> None:
    """Set each record's ``alias`` (the card it is a version of, 0 for none) and ``alias_kind``."""
    for pid, rec in rows.items():
        rec["alias_kind"] = ALIAS_NONE
        if pid in prerelease_map and prerelease_map[pid] != pid:
            rec["alias"] = prerelease_map[pid]
            rec["alias_kind"] = ALIAS_VARIANT
        else:
            _classify_alias(rows, pid, rec)


def _classify_alias(rows: Rows, pid: int, rec: dict[str, Any]) -> None:
    """Classify the alias of a record that is no pre-release code."""
    alias = rec["alias"]
    if not alias or alias == pid:
        rec["alias"] = 0
        return
    target = rows.get(alias)
    if target is None or bool(target["flags"] & FLAG_RUSH) != bool(rec["flags"] & FLAG_RUSH):
        # Rush cards alias the OCG card they reprint: a different game, its own card.
        rec["alias"] = 0
        return
    while target["alias"] and target["alias"] in rows and target["alias"] != target["passcode"]:
        target = rows[target["alias"]]
    rec["alias"] = target["passcode"]
    if rec["flags"] & FLAG_GOAT:
        rec["alias_kind"] = ALIAS_VARIANT
    elif rec["name"] == target["name"]:
        rec["alias_kind"] = ALIAS_ALT_ART
    elif SUFFIX_RE.sub("", rec["name"]) == target["name"]:
        # "Sinister Serpent (Pre-Errata)", "Dark Magician (Anime)": a version of the card
        rec["alias_kind"] = ALIAS_VARIANT
    else:
        rec["alias_kind"] = ALIAS_TREATED_AS


def join_rush(
    rows: Rows, src: Inputs, report: dict[str, Any], search_aliases: dict[int, list[str]]
) -> None:
    """Rush reprints, and Rush cards EDOPro names differently from Konami.

    EDOPro aliases reprints to the OCG card; within Rush, the same name is the same card, so
    later Rush records of a name become alternate artworks of the first one. Names matched by
    name and stats: Konami's English name wins (the EDOPro name stays a search alias), so
    Konami ids and lists map.
    """
    first_rush: dict[str, int] = {}
    for pid in sorted(rows):
        rec = rows[pid]
        if not rec["flags"] & FLAG_RUSH or rec["flags"] & (FLAG_PRERELEASE | FLAG_UNOFFICIAL):
            continue
        if rec["alias"]:
            continue
        if rec["name"] in first_rush:
            rec["alias"] = first_rush[rec["name"]]
            rec["alias_kind"] = ALIAS_ALT_ART
        else:
            first_rush[rec["name"]] = pid
    for pid, y_rec in match_rush_names(rows, src.yy_rush, src.babel / "cards-rush.cdb").items():
        old, new = rows[pid]["name"], y_rec["name"]["en"]
        for other in rows.values():
            if other["flags"] & FLAG_RUSH and other["name"] == old:
                other["name"] = new
        search_aliases.setdefault(pid, []).append(old)
        report["renamed"].append((pid, old, new))
        report["counts"]["names: Konami's Rush name (yaml-yugi, matched by name and stats)"] += 1


Found = dict[int, tuple[Any, Any, int | None, dict[str, Any]]]
"""Per passcode: its yaml-yugi and YGOJSON records, Konami id and best dated evidence."""


def _base(pid: int, rec: dict[str, Any]) -> int:
    """The card a record's facts come from: its alias for alternate artworks and versions."""
    return int(rec["alias"]) if rec["alias_kind"] in (ALIAS_ALT_ART, ALIAS_VARIANT) else pid


def gather(rows: Rows, src: Inputs) -> tuple[Found, dict[int, str | None]]:
    """Each card's records, Konami id and dated evidence (the evidence learnt, then frozen),
    and the Speed Duel print of each."""
    yj_skills = {
        SKILL_SUFFIX.sub("", str((r.get("name") or {}).get("en"))): r
        for r in load_jsonl(src.cards_dir / "ygojson" / "cards.min.jsonl")
        if r.get("cardType") == "skill"
    }
    found: Found = {}
    speed_print: dict[int, str | None] = {}
    for pid in sorted(rows):
        rec = rows[pid]
        base = _base(pid, rec)
        y = src.yy.get(pid) or src.yy.get(base)
        j = src.yj.get(pid) or src.yj.get(base)
        if rec["flags"] & FLAG_RUSH:
            y, j = src.yy_rush.get(rec["name"]), None
        konami = (y or {}).get("konami_id") or ((j or {}).get("externalIDs") or {}).get("dbID")
        if rec["flags"] & FLAG_SKILL and not rec["flags"] & FLAG_UNOFFICIAL:
            j = yj_skills.get(rec["name"])
        best = {} if rec["flags"] & FLAG_RUSH else src.evidence.dated(y, j)
        found[pid] = (y, j, konami, best)
        speed_print[pid] = src.sets.speed_print(y)
        rec["tw"] = tw_window(src.pools, (pid, base)) is not None
        if base == pid and not rec["flags"] & NOT_DATED:
            src.evidence.learn(y, konami, best)
    src.evidence.freeze()
    return found, speed_print


def local_names(y: dict[str, Any] | None, j: dict[str, Any] | None) -> tuple[Any, Any]:
    """A card's Japanese (ruby stripped) and Simplified Chinese names, yaml-yugi first."""
    ja = zh = None
    if y is not None:
        names = y.get("name") or {}
        ja = strip_ruby(names.get("ja"))
        zh = names.get("zh-CN") or None
    if j is not None:
        jn = j.get("name") or {}
        ja = ja or strip_ruby(jn.get("ja"))
        zh = zh or jn.get("zh-CN") or None
    return ja, zh


def skill_release(best: dict[str, Any], evidence: Evidence) -> dict[str, list[Any]]:
    """A Speed Duel Skill's release: its product's date (one region's for the other too)."""
    release: dict[str, list[Any]] = {
        k: [best[k][0], "e", best[k][1], None] for k in ("na", "eu") if k in best
    }
    for k, o in (("na", "eu"), ("eu", "na")):
        if k not in release and o in release:
            release[k] = [release[o][0], "e", "speed-same", None]
    evidence.counts.update(
        f"Skill {k.upper()} e: {describe_source(e[2])}" for k, e in release.items()
    )
    return release


def out_row(
    pid: int,
    rec: dict[str, Any],
    src: Inputs,
    found: Found,
    md_first: Any,
    report: dict[str, Any],
) -> list[Any]:
    """The index row of one card (its release dated, its region flags set)."""
    base = _base(pid, rec)
    y, j, konami, best = found[pid]
    if rec["flags"] & FLAG_PRERELEASE and rec["alias_kind"] == ALIAS_VARIANT:
        y = j = None  # a pre-release code of a released card: its names are the card's
    ja, zh = local_names(y, j)
    release: dict[str, list[Any]] = {}
    if rec["flags"] & FLAG_SKILL and best:  # Speed Duel Skills: their product's date
        release = skill_release(best, src.evidence)
    if not rec["flags"] & NOT_DATED:
        rec["flags"] = region_flags(rec, pid == base, best, y, report)
        release = dated_release(src.evidence, rec, y, j, konami, (pid, base), best, md_first)
        if pid == base:
            record_open(report, pid, rec["name"], release, best, y)
    row = {
        "passcode": pid,
        "alias": rec["alias"],
        "alias_kind": rec["alias_kind"],
        "name": rec["name"],
        "name_ja": ja,
        "name_zh": zh,
        "type": rec["type"] & TYPE_BITS,
        "race": rec["race"],
        "attribute": rec["attribute"],
        "level": rec["level"],
        "scale": rec["scale"],
        "flags": rec["flags"],
        "konami_id": konami,
        "ocg_date": (release.get("ocg") or [None])[0],
        "tcg_date": (release.get("na") or [None])[0],
        "archetypes": sorted({src.setnames[c] for c in rec["setcodes"] if c in src.setnames}),
        "release": release,
    }
    return [row[f] for f in FIELDS]


def out_rows(
    rows: Rows, src: Inputs, found: Found, md_first: Any, report: dict[str, Any]
) -> tuple[list[list[Any]], list[list[Any]]]:
    """The index rows, and the other official languages' names of each card."""
    rows_out: list[list[Any]] = []
    intl: list[list[Any]] = []
    for pid in sorted(rows):
        rec = rows[pid]
        y, j, _, _ = found[pid]
        if _base(pid, rec) == pid and not rec["flags"] & FLAG_RUSH:
            local = intl_names(y, j)
            if any(local):
                intl.append([pid, name_priority(rec["flags"]), *local])
        rows_out.append(out_row(pid, rec, src, found, md_first, report))
    return rows_out, intl


def check_dates(
    rows_out: list[list[Any]], src: Inputs, found: Found, report: dict[str, Any]
) -> None:
    """The dates checked against the prints (consistency), Rush and Speed Duel cards dated."""
    col = {f: i for i, f in enumerate(FIELDS)}
    checked = [
        {
            "passcode": r[0],
            "name": r[col["name"]],
            "release": r[col["release"]],
            "prints": (found[r[0]][0] or {}).get("first_print_numbers") or {},
        }
        for r in rows_out
        if not r[col["alias"]] and not r[col["flags"]] & NOT_DATED
    ]
    report["consistency"] = consistency.check(checked, src.sets)


def build(data: Path, as_of: date | None = None) -> dict[str, Any]:
    """Build the index document from the shared data folder, as of ``as_of`` (default: the
    snapshot date of the folder's README)."""
    src = read_inputs(data, as_of)
    rows: Rows = {}
    report: dict[str, Any] = {"renamed": [], "counts": Counter(), "open": [], "na_eu": []}
    search_aliases: dict[int, list[str]] = {}
    official_ids = add_official(rows, src, report, search_aliases)
    report["counts"]["names: Konami's English name (yaml-yugi) replaced the cdb name"] = len(
        report["renamed"]
    )
    old_names = printed_names(src.cards_dir / "projectignis", rows)
    report["counts"]["names: older English names of the card databases (aliases)"] = sum(
        len(v) for v in old_names.values()
    )
    add_released_ocg(rows, src.yy, official_ids)
    add_other_databases(rows, src.babel)
    prerelease_map = prerelease_codes(rows, src.cards_dir, official_ids, search_aliases)
    classify_aliases(rows, prerelease_map)
    join_rush(rows, src, report, search_aliases)
    yy_kid = {
        str((r.get("name") or {}).get("en")): r["konami_id"]
        for r in src.yy.values()
        if r.get("konami_id")
    }
    md_first = md_lists(data / "lflists" / "yaml-yugi-limit-regulation" / "master-duel", yy_kid)
    found, speed_print = gather(rows, src)
    rows_out, intl = out_rows(rows, src, found, md_first, report)
    report["counts"].update(src.evidence.counts)
    check_dates(rows_out, src, found, report)
    date_rush_cards(rows_out, rush_lists(data), report)
    konami_speed = {
        pid
        for pid, (y, _, _, _) in found.items()
        if ((y or {}).get("limit_regulation") or {}).get("speed") in SPEED_LEGAL
    }
    date_speed_cards(
        rows_out, speed_lists(data), speed_print, report, (konami_speed, src.evidence.as_of)
    )
    return {
        "format": INDEX_FORMAT,
        "fields": list(FIELDS),
        "cards": rows_out,
        "search_aliases": dict(search_aliases),
        "old_names": old_names,
        "intl": intl,
        "report": report,
    }


RUSH_MATCH_SCORE = 50
"""Lowest name similarity (rapidfuzz token-set ratio, 0-100) of a Rush name match."""


def match_rush_names(
    rows: dict[int, dict[str, Any]], yy_rush: dict[str, dict[str, Any]], cdb: Path
) -> dict[int, dict[str, Any]]:
    """EDOPro Rush records without a yaml-yugi record of their name -> Konami's record.

    A pair must be the same kind of card (and, for monsters, have the same Level, ATK and DEF);
    the most similar names pair first, each record at most once.
    """
    from rapidfuzz import fuzz

    con = sqlite3.connect(f"file:{cdb}?mode=ro", uri=True)
    try:
        stats = {r[0]: (r[1], r[2]) for r in con.execute("SELECT id, atk, def FROM datas")}
    finally:
        con.close()
    names = {rec["name"] for rec in rows.values() if rec["flags"] & FLAG_RUSH}
    free = [y for n, y in yy_rush.items() if n not in names]
    lone = [
        pid
        for pid, rec in rows.items()
        if rec["flags"] & FLAG_RUSH
        and not rec["alias"]
        and not rec["flags"] & (FLAG_UNOFFICIAL | FLAG_PRERELEASE)
        and rec["name"] not in yy_rush
    ]

    def same_card(pid: int, y: dict[str, Any]) -> bool:
        typ = rows[pid]["type"]
        kind = "Monster" if typ & 0x1 else "Spell" if typ & 0x2 else "Trap"
        if y.get("card_type") != kind:
            return False
        if kind != "Monster":
            return True
        atk, dfn = stats.get(pid, (None, None))
        return (y.get("level"), y.get("atk"), y.get("def")) == (rows[pid]["level"], atk, dfn)

    pairs = sorted(
        (
            (fuzz.token_set_ratio(rows[pid]["name"].lower(), y["name"]["en"].lower()), pid, i)
            for pid in lone
            for i, y in enumerate(free)
            if same_card(pid, y)
        ),
        reverse=True,
    )
    out: dict[int, dict[str, Any]] = {}
    used: set[int] = set()
    for score, pid, i in pairs:
        if score < RUSH_MATCH_SCORE or pid in out or i in used:
            continue
        out[pid] = free[i]
        used.add(i)
    return out


NOT_DATED = FLAG_UNOFFICIAL | FLAG_PRERELEASE | FLAG_GOAT | FLAG_RUSH | FLAG_TOKEN | FLAG_SKILL
"""Records without OCG/TCG release entries (Rush cards are dated by :func:`date_rush_cards`)."""


def region_flags(
    rec: dict[str, Any], counted: bool, best: dict[str, Any], y: Any, report: dict[str, Any]
) -> int:
    """A card's region flags after the evidence: a dated release sets its region's flag;
    Konami's 'Not yet released' clears a flag no date supports (when the other region's is set).
    """
    flags = int(rec["flags"])
    counts: Counter[str] = report["counts"] if counted else Counter()
    lr = (y.get("limit_regulation") or {}) if y is not None else {}
    tcg_known = "na" in best or "eu" in best or bool(rec.get("tw"))
    for fmt, flag, released in (("tcg", FLAG_TCG, tcg_known), ("ocg", FLAG_OCG, "ocg" in best)):
        other = FLAG_OCG if flag == FLAG_TCG else FLAG_TCG
        if released and not flags & flag:
            flags |= flag
            counts[f"{fmt.upper()} flags: set by a {fmt.upper()} release date"] += 1
        elif not released and flags & flag and flags & other and lr.get(fmt) == NOT_RELEASED:
            flags &= ~flag
            counts[f"{fmt.upper()} flags: cleared by Konami's 'Not yet released'"] += 1
    return flags


def dated_release(
    evidence: Evidence,
    rec: dict[str, Any],
    y: Any,
    j: Any,
    konami: int | None,
    codes: tuple[int, int],
    best: dict[str, Any],
    md_first: dict[int, str],
) -> dict[str, list[Any]]:
    """The card's release entries per region it is flagged for (and Master Duel)."""
    regions: tuple[str, ...] = ()
    if rec["flags"] & FLAG_OCG:
        regions += ("ocg",)
    if rec["flags"] & FLAG_TCG:
        regions += ("na", "eu")
    if not regions:
        return {}
    out = evidence.entries(y, j, konami, codes, regions)
    paper = sorted(e[0] for e in out.values() if e[0])
    md = md_entry(y, j, konami, paper, md_first, evidence.as_of)
    if md is not None:
        out["md"] = md
        evidence.counts[f"MD {md[1]}: {describe_source(md[2])}"] += 1
    return dict(sorted(out.items()))


def record_open(
    report: dict[str, Any],
    pid: int,
    name: str,
    release: dict[str, list[Any]],
    best: dict[str, Any],
    y: Any,
) -> None:
    """Report every region a card is flagged for without a dated release, with the bound used,
    and every card whose North American and European dates differ, with the reason."""
    lr = (y.get("limit_regulation") or {}) if y is not None else {}
    for region in ("ocg", "na", "eu"):
        entry = release.get(region)
        if entry is None or entry[1] == "e":
            continue
        status = lr.get("ocg" if region == "ocg" else "tcg")
        why = f"Konami status {status!r}" if status else "no Konami status"
        if entry[1] == "w":
            bound = f"window {entry[0]} .. {entry[3]}: {describe_source(entry[2])}"
        else:
            bound = f"not before {entry[0]}: {describe_source(entry[2])}"
        report["open"].append((pid, name, region.upper(), f"{why}; {bound}"))
    na, eu = release.get("na"), release.get("eu")
    if na and eu and na[1] == eu[1] == "e" and na[0] != eu[0]:
        why = f"North America: {describe_source(na[2])}; Europe: {describe_source(eu[2])}"
        report["na_eu"].append((pid, name, na[0], eu[0], why))


RUSH_NEIGHBOURS = 40
"""OCG cards with the nearest Konami ids that date a Rush card."""
RUSH_SPREAD_DAYS = 120
"""Widest spread (between the neighbours' first and third quartile dates) of a usable estimate."""
RUSH_LIST_FRESH_DAYS = 45
"""An EDOPro Rush list last changed within this many days of its date describes that date."""


SPEED_LABEL_SLACK_DAYS = 31
"""EDOPro's Speed list labels can be a month after the list's publication ("2022.10" was
published 2022-09-10): a card's first label, less this, bounds its Speed release from below."""


def speed_lists(data: Path) -> list[tuple[str, str, set[int]]]:
    """EDOPro's Speed Duel lists as (label date, last change date, passcodes), oldest first."""
    hist = data / "lflists" / "projectignis" / "history"
    index_path = hist / "_index.json"
    if not index_path.exists():
        return []
    out = []
    for row in json.loads(read_data(index_path)):
        header = str(row.get("header", ""))
        m = re.match(r"(\d{4})\.(\d{1,2})(?:\.(\d{1,2}))? Speed Duel", header)
        if not m:
            continue
        named = f"{int(m[1]):04d}-{int(m[2]):02d}-{int(m[3] or 1):02d}"
        codes = set()
        for line in read_data(hist / row["file"]).decode("utf-8-sig").splitlines():
            parts = line.split()
            listed = len(parts) >= 2 and parts[0].isdigit() and parts[1].lstrip("-").isdigit()
            if listed and int(parts[1]) >= 0:
                codes.add(int(parts[0]))
        out.append((named, str(row.get("commit_date", named))[:10], codes))
    return sorted(out)


SPEED_LAUNCH = "2019-01-24"
"""The first Speed Duel products (Speed Duel Starter Decks: Destiny Masters, Duelists of
Tomorrow)."""
SPEED_LEGAL = ("Unlimited", "Limited 1", "Limited 2", "Limited 3", "Semi-Limited", "Limited")
"""Konami's Speed Duel statuses of a card in the Speed Duel pool (yaml-yugi's
``limit_regulation``)."""


def date_speed_cards(
    rows: list[list[Any]],
    lists: list[tuple[str, str, set[int]]],
    printed: dict[int, str | None],
    report: dict[str, Any],
    konami: tuple[set[int], str] = (set(), "9999-12-31"),
) -> None:
    """Give the cards of EDOPro's Speed lists a Speed Duel release window (region ``sd``).

    EDOPro edited every Speed list long after its date (the lists of 2022-2025 were last changed
    5-12 months later), adding the cards released meanwhile, so a list holds cards newer than its
    date. What the lists still tell: a card first appears in the list current when it came out
    (not before its label, less :data:`SPEED_LABEL_SLACK_DAYS`); a list last changed within
    :data:`RUSH_LIST_FRESH_DAYS` of its date (the "2022.10.07 Midterm Paradox Box" list) is a
    snapshot, so a card missing from it came out later; and a card was out by the last change
    of the first list holding it. A card printed in a Speed Duel product (a dated Speed Duel
    product among its first print codes, yaml-yugi) is in the pool from that product's date,
    listed or not: the lists are evidence, not the pool. A card Konami lists as legal in Speed
    Duel (yaml-yugi's status) without a print or list entry here was reprinted in a Speed Duel
    product by the data's date: a window from its TCG release (or the first Speed Duel
    products). Cards of the first list are in the pool from its date.
    """
    col = {f: i for i, f in enumerate(FIELDS)}
    counts = report["counts"]
    if not lists:
        return
    first_label = lists[0][0]
    snapshots = [
        (named, codes)
        for named, changed, codes in lists
        if _day(changed) - _day(named) <= RUSH_LIST_FRESH_DAYS
    ]
    first: dict[int, tuple[str, str]] = {}
    for named, changed, codes in lists:
        for code in codes:
            first.setdefault(code, (named, changed))
    for r in rows:
        flags = r[col["flags"]]
        if flags & (FLAG_RUSH | FLAG_UNOFFICIAL | FLAG_PRERELEASE | FLAG_SKILL | FLAG_TOKEN):
            continue
        pid, alias = r[col["passcode"]], r[col["alias"]]
        got = first.get(pid) or first.get(alias)
        out = printed.get(pid) or printed.get(alias)
        entry: list[Any] | None
        if out is not None:  # printed in a Speed Duel product: in the pool from its date
            entry = [out, "e", "speed-print", None]
        elif got is None:
            entry = _speed_status(r, col, konami)
        elif got[0] == first_label:
            entry = [got[0], "a", "speed-first", None]
        else:
            entry = _speed_listed(pid, got, snapshots)
        if entry is None:
            continue
        release = dict(r[col["release"]])
        release["sd"] = entry
        r[col["release"]] = dict(sorted(release.items()))
        counts[f"SD {entry[1]}: {describe_source(str(entry[2]))}"] += 1


def _speed_status(
    r: list[Any], col: dict[str, int], konami: tuple[set[int], str]
) -> list[Any] | None:
    """The Speed Duel window of a card in no list and no Speed print: on Konami's Speed list
    (a Speed reprint), out by the data's date, from its TCG release; else None."""
    if r[col["passcode"]] not in konami[0] and r[col["alias"]] not in konami[0]:
        return None
    tcg = (r[col["release"]].get("na") or [None])[0]
    return [max(SPEED_LAUNCH, tcg or SPEED_LAUNCH), "w", "speed-status", konami[1]]


def _speed_listed(
    pid: int, got: tuple[str, str], snapshots: list[tuple[str, set[int]]]
) -> list[Any]:
    """The Speed Duel window of a card first in the list ``got`` (label, last change): from
    the label (less the slack), after every later snapshot list missing it."""
    named, changed = got
    lower = date.fromordinal(_day(named) - SPEED_LABEL_SLACK_DAYS).isoformat()
    for snap, codes in snapshots:
        if snap >= lower and pid not in codes:
            lower = max(lower, date.fromordinal(_day(snap) + 1).isoformat())
    return [lower, "w", "speed-lists", max(changed, lower)]


def rush_lists(data: Path) -> list[tuple[str, set[int]]]:
    """EDOPro's Rush Duel lists as (date the pool is known to hold, passcodes), oldest first.

    EDOPro kept each list up to date after its date (the 2023 lists were changed until about
    three months later, and "2020.04.27" until 2023-01-05): a list holds cards released by its
    last change, so its date counts only when it was last changed within
    :data:`RUSH_LIST_FRESH_DAYS` days; otherwise its last change's date does.
    """
    hist = data / "lflists" / "projectignis" / "history"
    index_path = hist / "_index.json"
    if not index_path.exists():
        return []
    out = []
    for row in json.loads(read_data(index_path)):
        header = str(row.get("header", ""))
        if not header.endswith("Rush Duel"):
            continue
        m = re.match(r"(\d{4})\.(\d{1,2})\.(\d{1,2})", header)
        if not m:
            continue
        named = f"{int(m[1]):04d}-{int(m[2]):02d}-{int(m[3]):02d}"
        changed = str(row.get("commit_date", named))
        fresh = (_day(changed) - _day(named)) <= RUSH_LIST_FRESH_DAYS
        codes = set()
        for line in read_data(hist / row["file"]).decode("utf-8-sig").splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[0].isdigit() and parts[1].lstrip("-").isdigit():
                codes.add(int(parts[0]))
        out.append((named if fresh else changed, codes))
    return sorted(out, key=lambda t: t[0])


def _day(text: str) -> int:
    return date.fromisoformat(text[:10]).toordinal()


def date_rush_cards(
    rows: list[list[Any]], lists: list[tuple[str, set[int]]], report: dict[str, Any]
) -> None:
    """Give Rush Duel cards a release date (``ocg_date``: Rush Duel is released in Japan).

    No source here dates Rush cards directly. Two kinds of evidence do:

    * **Konami ids.** Konami numbers the cards of its database in one sequence as products
      come out, Rush Duel and OCG/TCG alike; the Rush card is dated by the first-quartile first
      release (OCG or TCG) of the :data:`RUSH_NEIGHBOURS` cards with the nearest ids (an early
      estimate: a card is rather let in a few weeks early than refused after its release),
      when their dates agree (quartile spread under :data:`RUSH_SPREAD_DAYS` days).
    * **EDOPro's Rush lists** (whitelists of the pool): a card in a list was released by the
      date that list is known to describe (:func:`rush_lists`), an upper bound.

    The date is the earlier of the two, but never before Rush Duel's launch (the date of
    EDOPro's first Rush list, 2020-04-04); a card with neither stays undated (validation warns
    ``release-date-unknown``). Alternate artworks (reprints) take their original's date.
    """
    col = {f: i for i, f in enumerate(FIELDS)}
    counts = report["counts"]

    def printed(r: list[Any]) -> list[str]:  # dated prints only, no bounds
        return [e[0] for k, e in r[col["release"]].items() if k != "md" and e[1] == "e"]

    ocg = sorted(
        (r[col["konami_id"]], min(printed(r)))
        for r in rows
        if r[col["konami_id"]]
        and printed(r)
        and not r[col["alias"]]
        and not r[col["flags"]] & (FLAG_RUSH | FLAG_UNOFFICIAL | FLAG_PRERELEASE | FLAG_GOAT)
    )
    kids = [k for k, _ in ocg]
    launch = lists[0][0] if lists else None  # no Rush card came out before Rush Duel did
    first_listed: dict[int, str] = {}
    for when, codes in lists:
        for code in codes:
            first_listed.setdefault(code, when)
    dated: dict[int, str | None] = {}
    for r in rows:
        flags = r[col["flags"]]
        if not flags & FLAG_RUSH or flags & (FLAG_UNOFFICIAL | FLAG_PRERELEASE) or r[col["alias"]]:
            continue
        estimate = _rush_estimate(r[col["konami_id"]], kids, ocg)
        got, key = _rush_date(estimate, first_listed.get(r[col["passcode"]]), launch)
        counts[f"Rush dates: {key if got else 'none (release-date-unknown)'}"] += 1
        dated[r[col["passcode"]]] = got
    for r in rows:
        if r[col["flags"]] & FLAG_RUSH and r[col["passcode"]] in dated:
            r[col["ocg_date"]] = dated[r[col["passcode"]]]
        elif r[col["flags"]] & FLAG_RUSH and r[col["alias"]] in dated:
            r[col["ocg_date"]] = dated[r[col["alias"]]]


def _rush_estimate(kid: Any, kids: list[Any], ocg: list[tuple[Any, str]]) -> str | None:
    """The first-quartile first release of the cards with the nearest Konami ids to ``kid``,
    when their dates agree (else None)."""
    if not kid or not kids:
        return None
    i = bisect.bisect_left(kids, kid)
    lo = max(0, i - RUSH_NEIGHBOURS // 2)
    near = sorted(d for _, d in ocg[lo : lo + RUSH_NEIGHBOURS])
    q1, q3 = near[len(near) // 4], near[(3 * len(near)) // 4]
    if len(near) >= RUSH_NEIGHBOURS // 2 and _day(q3) - _day(q1) <= RUSH_SPREAD_DAYS:
        return q1
    return None


def _rush_date(
    estimate: str | None, listed: str | None, launch: str | None
) -> tuple[str | None, str]:
    """A Rush card's date (the earlier of the estimate and its first list, never before the
    launch) and the evidence it comes from."""
    got: str | None
    if estimate and listed:
        got = min(estimate, listed)
        key = "Konami-id estimate" if got == estimate else "EDOPro Rush list (upper bound)"
    else:
        got = estimate or listed
        key = "Konami-id estimate" if estimate else "EDOPro Rush list (upper bound)"
    if got and launch and got < launch:
        got, key = launch, "Rush Duel's launch (EDOPro's first Rush list)"
    return got, key


def dump(doc: dict[str, Any]) -> tuple[str, str, str]:
    """Serialise deterministically: (cards.jsonl, names.json, names-intl.jsonl texts).

    ``cards.jsonl`` is a header line then one JSON array per card, sorted by passcode.
    ``names.json`` is the name table of the rows plus each renamed card's old database name
    (a search alias: it finds the card, whose name is Konami's) and the card's older printed
    English names (only where no other card has that name). ``names-intl.jsonl`` is a header
    line (the languages) then ``[passcode, priority, name per language]`` per card: read only
    when a name is not found in English, Japanese or Chinese.
    """
    head = {k: v for k, v in doc.items() if k in ("format", "fields")}
    lines = [json.dumps(head, ensure_ascii=False, separators=(",", ":"), sort_keys=True)]
    lines.extend(json.dumps(row, ensure_ascii=False, separators=(",", ":")) for row in doc["cards"])
    names = build_name_table(doc["cards"])
    for pid, olds in sorted(doc.get("search_aliases", {}).items()):
        for old in olds:
            key = normalize_name(old)
            entries = names.setdefault(key, [])
            if key and not any(e[1] == pid for e in entries):
                entries.append([0, pid, 0])
                entries.sort()
    for pid, olds in sorted(doc.get("old_names", {}).items()):
        for old in olds:
            key = normalize_name(old)
            if key and key not in names:  # never makes a current name ambiguous
                names[key] = [[0, pid, 0]]
    names = dict(sorted(names.items()))
    names_text = json.dumps(names, ensure_ascii=False, separators=(",", ":"))
    intl = [json.dumps({"langs": list(INTL_LANGS)}, separators=(",", ":"))]
    intl.extend(
        json.dumps(row, ensure_ascii=False, separators=(",", ":"))
        for row in sorted(doc.get("intl", []))
    )
    return "\n".join(lines) + "\n", names_text + "\n", "\n".join(intl) + "\n"


REPORT_HEAD = (
    "# Card index build report",
    "",
    "Generated by `scripts/build_card_index.py` from `../shared/data`; do not edit. The",
    "rules are in the docstrings of the script and of `builders/release_dates.py`: Konami's",
    "English name wins (the database name stays a search alias); a card's first release per",
    "region (OCG, TCG North America `NA`, TCG Europe `EU`, Master Duel `MD`, Speed Duel",
    "`SD`) is the earliest dated print of that region (Speed Duel and Master Duel: windows,",
    "see `docs/data.md`); TimeWizard's TCG pools only bound a North American date",
    "(a window between the last pool without the card and the first with it); a region with",
    "no dated print gets a lower bound (promo-series numbering, the data's as-of date, the",
    "first releases of the cards with the nearest Konami ids): validation refuses the card",
    "before it and warns `release-date-unknown` after it. A release date outranks a stale",
    "region flag; Konami's 'Not yet released' clears a region flag that no date supports. No",
    "source dates Rush Duel cards: each is dated by the earlier of an estimate from Konami's",
    "card ids (the first-quartile first release of the 40 OCG/TCG cards with the nearest",
    "ids, when they agree within 120 days) and the first EDOPro Rush list holding it, never",
    "before Rush Duel's launch (2020-04-04); these dates are estimates (validation says",
    "'about').",
    "",
    "## What each source decided",
    "",
    "Counts over official cards (alternate artworks included; no tokens, Skills; Rush",
    "cards only in the 'Rush dates' rows), per region and kind: `e` a dated print (credited",
    "to the source of the earliest one), `w` a window, `b` a bound only, `a` assumed from",
    "Master Duel's launch.",
    "",
    "| decision | cards |",
    "|---|---|",
)
"""The build report's opening: how the index decides, and the heading of its decision counts."""


def render_report(doc: dict[str, Any]) -> str:
    """The card-index build report (Markdown): what each source decided, and open cases."""
    rep = doc["report"]
    out = list(REPORT_HEAD)
    for key, n in sorted(rep["counts"].items()):
        out.append(f"| {key} | {n} |")
    out += [
        "",
        "## Official names",
        "",
        "| passcode | database name (search alias) | name |",
        "|---|---|---|",
    ]
    out += [f"| {pid} | {old} | {new} |" for pid, old, new in sorted(rep["renamed"])]
    opened = sorted(rep["open"])
    by_region = Counter(r[2] for r in opened)
    out += [
        "",
        "## Region flag without a dated release (the bound used)",
        "",
        "No dated print of these regions is in the data. Validation keeps such a card out of",
        "the region's pool before the bound (a window's first day) and then warns",
        "`release-date-unknown` (for a window: until its last day).",
        "",
        f"OCG: {by_region.get('OCG', 0)}, NA: {by_region.get('NA', 0)}, "
        f"EU: {by_region.get('EU', 0)}. Cards with a release date but no flag of that region: 0 "
        "(the date sets the flag).",
        "",
        "| passcode | card | region | reason and bound |",
        "|---|---|---|---|",
    ]
    out += [f"| {pid} | {name} | {region} | {why} |" for pid, name, region, why in opened]
    na_eu = sorted(rep["na_eu"])
    out += [
        "",
        "## North American and European dates that differ",
        "",
        f"{len(na_eu)} cards, {sum(1 for r in na_eu if abs(_day(r[2]) - _day(r[3])) >= 7)} "
        "of them a week or more apart. `--region` / `tcg_region` picks which one applies.",
        "",
        "| passcode | card | NA | EU | reason |",
        "|---|---|---|---|---|",
    ]
    out += [f"| {pid} | {name} | {na} | {eu} | {why} |" for pid, name, na, eu, why in na_eu]
    found = rep.get("consistency") or {r: [] for r in consistency.RULES}
    new = consistency.new_violations(found, consistency.load_baseline())
    out += ["", *consistency.render(found, new)]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument(
        "--out",
        type=Path,
        default=ROOT / "deckcheck" / "data" / "bundled",
        help="output folder (cards.jsonl, names.json)",
    )
    ap.add_argument(
        "--report",
        type=Path,
        default=ROOT / "docs" / "card-index-report.md",
        help="the build report to write (what each source decided)",
    )
    ap.add_argument(
        "--update-baseline",
        action="store_true",
        help="accept the current consistency violations (after reviewing the report)",
    )
    args = ap.parse_args(argv)
    if not (args.data / "cards").is_dir():
        print(f"error: no card data under {args.data}", file=sys.stderr)
        return 2
    doc = build(args.data)
    found = doc["report"]["consistency"]
    if args.update_baseline:
        consistency.BASELINE.write_text(consistency.baseline_text(found), encoding="utf-8")
    cards_text, names_text, intl_text = dump(doc)
    args.out.mkdir(parents=True, exist_ok=True)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(render_report(doc), encoding="utf-8")
    for key, n in sorted(doc["report"]["counts"].items()):
        print(f"{n:6d}  {key}")
    print(f"{len(doc['report']['open']):6d}  region flag without a date (reasons in the report)")
    for fname, text in (
        (CARDS_FILE, cards_text),
        (NAMES_FILE, names_text),
        (NAMES_INTL_FILE, intl_text),
    ):
        target = args.out / fname
        tmp = target.with_suffix(".tmp")
        tmp.write_bytes(text.encode("utf-8"))
        tmp.replace(target)
        print(f"wrote {target} ({len(text.encode()):,} bytes)")
    new = consistency.new_violations(found, consistency.load_baseline())
    for rule, rows in new.items():
        for key, name, detail in rows:
            print(f"error: consistency rule {rule}: {name} [{key}]: {detail}", file=sys.stderr)
    if any(new.values()):
        print(
            "error: new consistency violations (see the report); fix the data or the rules, "
            "or review and accept them with --update-baseline",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
