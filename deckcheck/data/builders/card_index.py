#!/usr/bin/env python3
"""Build deckcheck's bundled card index from the shared card data.

Reads (relative to ``--data``, default ``../shared/data``):

* ``cards/derived/projectignis-cards.merged.cdb``      official OCG/TCG cards
* ``cards/projectignis/babelcdb-current/*.cdb``        skills, Rush, unofficial, GOAT, pre-release
* ``cards/projectignis/deltas/*/mappings.json``        pre-release code -> passcode
* ``cards/projectignis/strings/strings.conf``          archetype (setcode) names
* ``cards/yaml-yugi/{cards,rush}.min.jsonl``           Japanese / Chinese names, Konami ids
* ``cards/ygojson/{cards,sets}.min.jsonl``             first OCG / TCG release dates
* ``lflists/timewizard/curated-lflist/*.conf``          TCG card pools at dates (promo releases)
* ``lflists/projectignis/history/*Rush Duel*.conf``      Rush Duel pools at dates (Rush dates)

and writes ``deckcheck/data/cards.json``: facts only (passcodes, names, types, dates,
flags), never card text.  The output is deterministic: the same input gives the same bytes.
It also writes a build report (``docs/card-index-report.md``): how many names, dates and
region flags each source decided, and every card whose flags and dates still disagree, with
the reason.

Rules (each one is counted in the report):

* **Names.** Konami's English name (yaml-yugi) wins over the card database's name (which may
  be a pre-release or fan translation); the database name stays a search alias.
* **Dates.** A card's first TCG (OCG) release is the *earliest* date any source gives: YGOJSON's
  first release over all sets, the set date of the card's first print code in each TCG (OCG)
  language (yaml-yugi), and, for the TCG, the date of the first TimeWizard curated pool that
  holds the card (an upper bound that catches promo releases the set data misses).
* **Rush dates.** Rush Duel cards (released in Japan: ``ocg_date``) are dated by the earlier
  of a Konami-id estimate and the first EDOPro Rush list holding them (see
  :func:`date_rush_cards`).
* **Flags.** A release date in a region is evidence that outranks a stale region flag: a card
  with a TCG (OCG) date is in the TCG (OCG). Konami's "Not yet released" status clears a
  region flag that no date supports. A region flag without a date is kept and reported
  (validation then treats the date as unknown).

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
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
"""The source checkout (for the command-line defaults: ``../shared/data``, the bundled folder)."""

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
    TYPE_BITS,
    build_name_table,
    normalize_name,
)

# EDOPro `ot` scope bits.
OT_OCG, OT_TCG, OT_ANIME, OT_ILLEGAL, OT_VIDEO, OT_CUSTOM = 0x1, 0x2, 0x4, 0x8, 0x10, 0x20
OT_SPEED, OT_PRERELEASE, OT_RUSH, OT_LEGEND = 0x40, 0x100, 0x200, 0x400
TYPE_TOKEN, TYPE_SKILL = 0x4000, 0x8000000

RUBY_RE = re.compile(r"<ruby>(.*?)<rt>.*?</rt></ruby>")
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


def build(data: Path) -> dict[str, Any]:
    """Build the index document from the shared data folder."""
    cards_dir = data / "cards"
    babel = cards_dir / "projectignis" / "babelcdb-current"

    # --- archetype names -------------------------------------------------------------
    setnames: dict[int, str] = {}
    strings = (cards_dir / "projectignis" / "strings" / "strings.conf").read_text(encoding="utf-8")
    for line in strings.splitlines():
        if line.startswith("!setname "):
            parts = line.rstrip("\n").split(" ", 2)
            if len(parts) == 3:
                name = parts[2].split("\t")[0].strip()
                setnames[int(parts[1], 16)] = name

    # --- yaml-yugi: names, konami ids ------------------------------------------------
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

    # --- ygojson: release dates, konami ids, extra names -------------------------------
    set_dates: dict[str, dict[str, str]] = {}  # set prefix ("DUAD") -> {"ocg"/"tcg": date}
    print_dates: dict[str, dict[str, str]] = {}  # print prefix ("DUAD-EN") -> {fmt: date}
    print_sets: dict[str, set[str]] = {}  # print prefix -> ids of the sets that use it
    for rec in load_jsonl(cards_dir / "ygojson" / "sets.min.jsonl"):
        for loc in (rec.get("locales") or {}).values():
            full = (loc.get("prefix") or "").rstrip("-")
            print_sets.setdefault(full, set()).add(rec.get("id") or "")
    for rec in load_jsonl(cards_dir / "ygojson" / "sets.min.jsonl"):
        for loc in (rec.get("locales") or {}).values():
            full = (loc.get("prefix") or "").rstrip("-")
            prefix = full.split("-")[0]
            date = loc.get("date")
            if not prefix or not date:
                continue
            for fmt in loc.get("formats") or []:
                for table, key in ((set_dates, prefix), (print_dates, full)):
                    if table is print_dates and len(print_sets[full]) > 1:
                        continue  # a prefix shared by several products (promo series) dates none
                    cur = table.setdefault(key, {})
                    if fmt in ("ocg", "tcg") and (fmt not in cur or date < cur[fmt]):
                        cur[fmt] = date

    # --- TimeWizard curated pools: "the TCG card pool at date X" (catches promo releases) ---
    pool_first: dict[int, str] = {}  # passcode -> first pool date that holds it
    curated = data / "lflists" / "timewizard" / "curated-lflist"
    for pool_path in sorted(curated.glob("*.lflist.conf")):
        when = pool_path.name[:10]
        for line in pool_path.read_text(encoding="utf-8-sig", errors="replace").splitlines():
            m = re.match(r"(\d+)\s+(-?\d+)", line)
            if m and int(m.group(2)) >= 0:
                code = int(m.group(1))
                if code not in pool_first or when < pool_first[code]:
                    pool_first[code] = when
    yj: dict[int, dict[str, Any]] = {}
    for rec in load_jsonl(cards_dir / "ygojson" / "cards.min.jsonl"):
        for pw in rec.get("passwords") or []:
            p = parse_password(pw)
            if p is not None and p not in yj:
                yj[p] = rec

    rows: dict[int, dict[str, Any]] = {}

    def add(
        pid: int,
        ot: int,
        alias: int,
        setcode: int,
        typ: int,
        level: int,
        race: int,
        attr: int,
        name: str,
        flags: int,
    ) -> None:
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

    def ot_flags(ot: int, typ: int) -> int:
        f = 0
        if ot & OT_OCG:
            f |= FLAG_OCG
        if ot & OT_TCG:
            f |= FLAG_TCG
        if ot & (OT_ANIME | OT_ILLEGAL | OT_VIDEO | OT_CUSTOM):
            f |= FLAG_UNOFFICIAL
        if ot & OT_SPEED:
            f |= FLAG_SPEED
        if ot & OT_PRERELEASE:
            f |= FLAG_PRERELEASE
        if ot & OT_RUSH:
            f |= FLAG_RUSH
        if ot & OT_LEGEND:
            f |= FLAG_LEGEND
        if typ & TYPE_TOKEN:
            f |= FLAG_TOKEN
        if typ & TYPE_SKILL:
            f |= FLAG_SKILL
        return f

    # Official cards first: they win any passcode clash. Konami's English name (yaml-yugi)
    # wins over the database's name, which may be a pre-release or fan translation; the
    # database name stays a search alias. Alternate artworks of a renamed card follow it.
    report: dict[str, Any] = {"renamed": [], "counts": Counter(), "open": []}
    official = list(read_cdb(str(cards_dir / "derived" / "projectignis-cards.merged.cdb")))
    cdb_names = {r[0]: r[9] for r in official}
    search_aliases: dict[int, list[str]] = {}
    for r in official:
        pid, ot, alias, setcode, typ, level, race, attr, _, name = r
        base = alias if alias and alias != pid and cdb_names.get(alias) == name else pid
        y_en = ((yy.get(base) or {}).get("name") or {}).get("en")
        if y_en and y_en != name:
            if base == pid:
                search_aliases.setdefault(pid, []).append(name)
                report["renamed"].append((pid, name, y_en))
            name = y_en
        add(pid, ot, alias, setcode, typ, level, race, attr, name, ot_flags(ot, typ))
    official_ids = set(rows)
    report["counts"]["names: Konami's English name (yaml-yugi) replaced the cdb name"] = len(
        report["renamed"]
    )

    # Cards released in the OCG that the cdbs still keep under pre-release codes.
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
        add(
            pw,
            OT_OCG | (OT_TCG if fl & FLAG_TCG else 0),
            0,
            0,
            yaml_type_bits(rec),
            int(level or 0),
            0,
            0,
            rec["name"]["en"],
            fl,
        )
        official_ids.add(pw)

    # Other databases, in order of precedence: (file, flags to add, flags to clear, strip the
    # "(Rush)"/"(GOAT)"/... suffix from the name). The first file naming a passcode wins.
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
            pid, ot, alias, setcode, typ, level, race, attr, _, name = r
            flags = (ot_flags(ot, typ) & ~clear) | extra
            name = SUFFIX_RE.sub("", name) if strip else name
            add(pid, ot, alias, setcode, typ, level, race, attr, name, flags)

    # --- pre-release code -> official passcode -------------------------------------------
    prerelease_map: dict[int, int] = {}
    for path in sorted(
        glob.glob(str(cards_dir / "projectignis" / "deltas" / "*" / "mappings.json"))
    ):
        with open(path, encoding="utf-8") as fh:
            for pre, real in json.load(fh).get("mappings", []):
                if real in rows:
                    prerelease_map.setdefault(int(pre), int(real))
    official_by_name: dict[str, int] = {}
    for pid in sorted(official_ids):
        rec = rows[pid]
        if rec["alias"] == 0:
            official_by_name.setdefault(rec["name"], pid)
    for pid, olds in sorted(search_aliases.items()):
        for old in olds:  # pre-release records may still carry the old name
            official_by_name.setdefault(old, pid)
    for pid, rec in rows.items():
        if rec["flags"] & FLAG_PRERELEASE and pid not in prerelease_map:
            real = official_by_name.get(rec["name"])
            if real is not None:
                prerelease_map[pid] = real

    # --- alias classification ----------------------------------------------------------
    for pid, rec in rows.items():
        alias = rec["alias"]
        rec["alias_kind"] = ALIAS_NONE
        if pid in prerelease_map and prerelease_map[pid] != pid:
            rec["alias"] = prerelease_map[pid]
            rec["alias_kind"] = ALIAS_VARIANT
            continue
        if not alias or alias == pid:
            rec["alias"] = 0
            continue
        target = rows.get(alias)
        if target is None or bool(target["flags"] & FLAG_RUSH) != bool(rec["flags"] & FLAG_RUSH):
            # Rush cards alias the OCG card they reprint: a different game, its own card.
            rec["alias"] = 0
            continue
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

    # Rush reprints: EDOPro aliases them to the OCG card; within Rush, the same name is the same
    # card, so later Rush records of a name become alternate artworks of the first one.
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

    # --- names, konami ids, dates -----------------------------------------------------------
    out_rows: list[list[Any]] = []
    for pid in sorted(rows):
        rec = rows[pid]
        base = rec["alias"] if rec["alias_kind"] in (ALIAS_ALT_ART, ALIAS_VARIANT) else pid
        y = yy.get(pid) or yy.get(base)
        j = yj.get(pid) or yj.get(base)
        ja = zh = None
        konami: int | None = None
        if rec["flags"] & FLAG_RUSH:
            y = yy_rush.get(rec["name"])
            j = None
        if y is not None:
            names = y.get("name") or {}
            ja = strip_ruby(names.get("ja"))
            zh = names.get("zh-CN") or None
            konami = y.get("konami_id")
        if j is not None:
            jn = j.get("name") or {}
            ja = ja or strip_ruby(jn.get("ja"))
            zh = zh or jn.get("zh-CN") or None
            konami = konami or (j.get("externalIDs") or {}).get("dbID")
        # Release dates: the earliest date any source gives (see the module docstring).
        cands: dict[str, list[tuple[str, str]]] = {"ocg": [], "tcg": []}
        if j is not None:
            frs = j.get("firstReleaseFromSets") or {}
            for fmt in ("ocg", "tcg"):
                if frs.get(fmt):
                    cands[fmt].append((frs[fmt], "ygojson first release over all sets"))
        prints = (y.get("first_print_numbers") or {}) if y is not None else {}
        by_region: tuple[tuple[str, tuple[str, ...]], ...] = (
            ("tcg", TCG_LOCALES),
            ("ocg", OCG_LOCALES),
        )
        for fmt, locales in by_region:
            for loc in locales:
                number = prints.get(loc)
                if number:
                    d = print_dates.get(re.sub(r"[0-9]+$", "", number).rstrip("-"), {})
                    if d.get(fmt):
                        cands[fmt].append((d[fmt], "yaml-yugi first print code's set date"))
        if pid in pool_first or base in pool_first:
            first = min(pool_first.get(c, "9999") for c in (pid, base))
            cands["tcg"].append((first, "TimeWizard curated TCG pool holding the card"))
        if y is not None:  # last resort: the set code alone (several products may share it)
            fallback: tuple[tuple[str, tuple[str, ...]], ...] = (
                ("tcg", ("en",)),
                ("ocg", ("ja", "zh-CN", "ko")),
            )
            for fmt, locales in fallback:
                if cands[fmt]:
                    continue
                for loc in locales:
                    printed = prints.get(loc)
                    d = set_dates.get(printed.split("-")[0], {}) if printed else {}
                    if d.get(fmt):
                        cands[fmt].append((d[fmt], "set code's earliest date (fallback)"))
                        break
        dated = {fmt: min(c, key=lambda t: t[0]) if c else None for fmt, c in cands.items()}
        ocg_got, tcg_got = dated["ocg"], dated["tcg"]
        ocg_date: str | None = ocg_got[0] if ocg_got else None
        tcg_date: str | None = tcg_got[0] if tcg_got else None
        flags = rec["flags"]
        if flags & (FLAG_UNOFFICIAL | FLAG_PRERELEASE | FLAG_GOAT):
            ocg_date = tcg_date = None
        elif base == pid and not flags & (FLAG_RUSH | FLAG_SKILL | FLAG_TOKEN):
            counts = report["counts"]
            for fmt, got in dated.items():
                if got is not None:
                    counts[f"{fmt.upper()} dates: {got[1]}"] += 1
            lr = (y.get("limit_regulation") or {}) if y is not None else {}
            for fmt, flag, released in (
                ("tcg", FLAG_TCG, tcg_date),
                ("ocg", FLAG_OCG, ocg_date),
            ):
                other = FLAG_OCG if flag == FLAG_TCG else FLAG_TCG
                if released and not flags & flag:
                    flags |= flag  # a release is evidence that outranks a stale flag
                    counts[f"{fmt.upper()} flags: set by a {fmt.upper()} release date"] += 1
                elif (
                    not released
                    and flags & flag
                    and flags & other
                    and (lr.get(fmt) == NOT_RELEASED)
                ):
                    flags &= ~flag
                    counts[f"{fmt.upper()} flags: cleared by Konami's 'Not yet released'"] += 1
                elif not released and flags & flag:
                    why = f"Konami status {lr[fmt]!r}" if lr.get(fmt) else "no Konami status"
                    other_date = ocg_date if fmt == "tcg" else tcg_date
                    if other_date:
                        why += f"; {('OCG' if fmt == 'tcg' else 'TCG')} release {other_date}"
                    report["open"].append((pid, rec["name"], fmt.upper(), why))
            rec["flags"] = flags
        archetypes = sorted({setnames[c] for c in rec["setcodes"] if c in setnames})
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
            "ocg_date": ocg_date,
            "tcg_date": tcg_date,
            "archetypes": archetypes,
        }
        out_rows.append([row[f] for f in FIELDS])

    date_rush_cards(out_rows, rush_lists(data), report)
    aliases = {pid: names for pid, names in search_aliases.items()}
    return {
        "format": INDEX_FORMAT,
        "fields": list(FIELDS),
        "cards": out_rows,
        "search_aliases": aliases,
        "report": report,
    }


RUSH_NEIGHBOURS = 40
"""OCG cards with the nearest Konami ids that date a Rush card."""
RUSH_SPREAD_DAYS = 120
"""Widest spread (between the neighbours' first and third quartile dates) of a usable estimate."""
RUSH_LIST_FRESH_DAYS = 45
"""An EDOPro Rush list last changed within this many days of its date describes that date."""


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
    for row in json.loads(index_path.read_text(encoding="utf-8")):
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
        for line in (hist / row["file"]).read_text(encoding="utf-8-sig").splitlines():
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
    ocg = sorted(
        (r[col["konami_id"]], min(d for d in (r[col["ocg_date"]], r[col["tcg_date"]]) if d))
        for r in rows
        if r[col["konami_id"]] and (r[col["ocg_date"]] or r[col["tcg_date"]])
        and not r[col["alias"]]
        and not r[col["flags"]] & (FLAG_RUSH | FLAG_UNOFFICIAL | FLAG_PRERELEASE | FLAG_GOAT)
    )  # fmt: skip
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
        estimate = None
        kid = r[col["konami_id"]]
        if kid and kids:
            i = bisect.bisect_left(kids, kid)
            lo = max(0, i - RUSH_NEIGHBOURS // 2)
            near = sorted(d for _, d in ocg[lo : lo + RUSH_NEIGHBOURS])
            q1, q3 = near[len(near) // 4], near[(3 * len(near)) // 4]
            if len(near) >= RUSH_NEIGHBOURS // 2 and _day(q3) - _day(q1) <= RUSH_SPREAD_DAYS:
                estimate = q1
        listed = first_listed.get(r[col["passcode"]])
        if estimate and listed:
            got = min(estimate, listed)
            key = "Konami-id estimate" if got == estimate else "EDOPro Rush list (upper bound)"
        else:
            got = estimate or listed
            key = "Konami-id estimate" if estimate else "EDOPro Rush list (upper bound)"
        if got and launch and got < launch:
            got, key = launch, "Rush Duel's launch (EDOPro's first Rush list)"
        counts[f"Rush dates: {key if got else 'none (release-date-unknown)'}"] += 1
        dated[r[col["passcode"]]] = got
    for r in rows:
        if r[col["flags"]] & FLAG_RUSH and r[col["passcode"]] in dated:
            r[col["ocg_date"]] = dated[r[col["passcode"]]]
        elif r[col["flags"]] & FLAG_RUSH and r[col["alias"]] in dated:
            r[col["ocg_date"]] = dated[r[col["alias"]]]


def dump(doc: dict[str, Any]) -> tuple[str, str]:
    """Serialise deterministically: (cards.jsonl text, names.json text).

    ``cards.jsonl`` is a header line then one JSON array per card, sorted by passcode.
    ``names.json`` is the name table of the rows plus each renamed card's old database name
    (a search alias: it finds the card, whose name is Konami's).
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
    names = dict(sorted(names.items()))
    names_text = json.dumps(names, ensure_ascii=False, separators=(",", ":"))
    return "\n".join(lines) + "\n", names_text + "\n"


def render_report(doc: dict[str, Any]) -> str:
    """The card-index build report (Markdown): what each source decided, and open cases."""
    rep = doc["report"]
    out = [
        "# Card index build report",
        "",
        "Generated by `scripts/build_card_index.py` from `../shared/data`; do not edit. The",
        "rules are in the script's docstring: Konami's English name wins (the database name",
        "stays a search alias); a card's first release in a region is the earliest date any",
        "source gives; a release date outranks a stale region flag; Konami's 'Not yet",
        "released' clears a region flag that no date supports. No source dates Rush Duel cards:",
        "each is dated by the earlier of an estimate from Konami's card ids (the first-quartile",
        "first release of the 40 OCG/TCG cards with the nearest ids, when they agree within 120",
        "days) and the first EDOPro Rush list holding it, never before Rush Duel's launch",
        "(2020-04-04); these dates are estimates (validation says 'about').",
        "",
        "## What each source decided",
        "",
        "Counts over original official cards (no alternate artworks, tokens, Skills; Rush",
        "cards only in the 'Rush dates' rows). A date is credited to the source that gave the",
        "earliest date.",
        "",
        "| decision | cards |",
        "|---|---|",
    ]
    for key, n in sorted(rep["counts"].items()):
        out.append(f"| {key} | {n} |")
    out += ["", "## Official names", "", "| passcode | database name (search alias) | name |",
            "|---|---|---|"]  # fmt: skip
    out += [f"| {pid} | {old} | {new} |" for pid, old, new in sorted(rep["renamed"])]
    opened = sorted(rep["open"])
    by_region = Counter(r[2] for r in opened)
    out += [
        "",
        "## Region flag without a release date (recorded reasons)",
        "",
        "No source dates these releases. Validation keeps such a card out of a dated pool",
        "before its release in the other region (when known) and then warns",
        "`release-date-unknown` instead of passing it silently.",
        "",
        f"TCG: {by_region.get('TCG', 0)}, OCG: {by_region.get('OCG', 0)}. "
        "Cards with a release date but no flag of that region: 0 (the date sets the flag).",
        "",
        "| passcode | card | region | reason |",
        "|---|---|---|---|",
    ]
    out += [f"| {pid} | {name} | {region} | {why} |" for pid, name, region, why in opened]
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
    args = ap.parse_args(argv)
    if not (args.data / "cards").is_dir():
        print(f"error: no card data under {args.data}", file=sys.stderr)
        return 2
    doc = build(args.data)
    cards_text, names_text = dump(doc)
    args.out.mkdir(parents=True, exist_ok=True)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(render_report(doc), encoding="utf-8")
    for key, n in sorted(doc["report"]["counts"].items()):
        print(f"{n:6d}  {key}")
    print(f"{len(doc['report']['open']):6d}  region flag without a date (reasons in the report)")
    for fname, text in ((CARDS_FILE, cards_text), (NAMES_FILE, names_text)):
        target = args.out / fname
        tmp = target.with_suffix(".tmp")
        tmp.write_bytes(text.encode("utf-8"))
        tmp.replace(target)
        print(f"wrote {target} ({len(text.encode()):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
