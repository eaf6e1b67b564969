#!/usr/bin/env python3
"""Build deckcheck's bundled card index from the shared card data.

Reads (relative to ``--data``, default ``../shared/data``):

* ``cards/derived/projectignis-cards.merged.cdb``      official OCG/TCG cards
* ``cards/projectignis/babelcdb-current/*.cdb``        skills, Rush, unofficial, GOAT, pre-release
* ``cards/projectignis/deltas/*/mappings.json``        pre-release code -> passcode
* ``cards/projectignis/strings/strings.conf``          archetype (setcode) names
* ``cards/yaml-yugi/{cards,rush}.min.jsonl``           Japanese / Chinese names, Konami ids
* ``cards/ygojson/{cards,sets}.min.jsonl``             first OCG / TCG release dates

and writes ``deckcheck/data/cards.json``: facts only (passcodes, names, types, dates,
flags), never card text.  The output is deterministic: the same input gives the same bytes.

Usage::

    python scripts/build_card_index.py [--data ../shared/data] [--out deckcheck/data/cards.json]
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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
)

# EDOPro `ot` scope bits.
OT_OCG, OT_TCG, OT_ANIME, OT_ILLEGAL, OT_VIDEO, OT_CUSTOM = 0x1, 0x2, 0x4, 0x8, 0x10, 0x20
OT_SPEED, OT_PRERELEASE, OT_RUSH, OT_LEGEND = 0x40, 0x100, 0x200, 0x400
TYPE_TOKEN, TYPE_SKILL = 0x4000, 0x8000000

RUBY_RE = re.compile(r"<ruby>(.*?)<rt>.*?</rt></ruby>")
SUFFIX_RE = re.compile(r"\s*\((Rush|GOAT|Skill Card|Pre-Errata|Anime|Manga|VG|Legend)\)$")


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
    for rec in load_jsonl(cards_dir / "ygojson" / "sets.min.jsonl"):
        for loc in (rec.get("locales") or {}).values():
            prefix = (loc.get("prefix") or "").split("-")[0]
            date = loc.get("date")
            if not prefix or not date:
                continue
            for fmt in loc.get("formats") or []:
                cur = set_dates.setdefault(prefix, {})
                if fmt in ("ocg", "tcg") and (fmt not in cur or date < cur[fmt]):
                    cur[fmt] = date
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

    # Official cards first: they win any passcode clash.
    for r in read_cdb(str(cards_dir / "derived" / "projectignis-cards.merged.cdb")):
        pid, ot, alias, setcode, typ, level, race, attr, _, name = r
        add(pid, ot, alias, setcode, typ, level, race, attr, name, ot_flags(ot, typ))
    official_ids = set(rows)

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
        ocg_date = tcg_date = None
        if j is not None:
            frs = j.get("firstReleaseFromSets") or {}
            ocg_date, tcg_date = frs.get("ocg"), frs.get("tcg")
        if y is not None and not (ocg_date and tcg_date):
            for loc, number in (y.get("first_print_numbers") or {}).items():
                d = set_dates.get(number.split("-")[0], {})
                if not ocg_date and loc in ("ja", "zh-CN", "ko") and d.get("ocg"):
                    ocg_date = d["ocg"]
                if not tcg_date and loc == "en" and d.get("tcg"):
                    tcg_date = d["tcg"]
        if rec["flags"] & (FLAG_UNOFFICIAL | FLAG_PRERELEASE | FLAG_GOAT):
            ocg_date = tcg_date = None
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

    return {"format": INDEX_FORMAT, "fields": list(FIELDS), "cards": out_rows}


def dump(doc: dict[str, Any]) -> tuple[str, str]:
    """Serialise deterministically: (cards.jsonl text, names.json text).

    ``cards.jsonl`` is a header line then one JSON array per card, sorted by passcode.
    """
    head = {k: v for k, v in doc.items() if k != "cards"}
    lines = [json.dumps(head, ensure_ascii=False, separators=(",", ":"), sort_keys=True)]
    lines.extend(json.dumps(row, ensure_ascii=False, separators=(",", ":")) for row in doc["cards"])
    names = build_name_table(doc["cards"])
    names_text = json.dumps(names, ensure_ascii=False, separators=(",", ":"))
    return "\n".join(lines) + "\n", names_text + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument(
        "--out",
        type=Path,
        default=ROOT / "deckcheck" / "data",
        help="output folder (cards.jsonl, names.json)",
    )
    args = ap.parse_args(argv)
    if not (args.data / "cards").is_dir():
        print(f"error: no card data under {args.data}", file=sys.stderr)
        return 2
    cards_text, names_text = dump(build(args.data))
    args.out.mkdir(parents=True, exist_ok=True)
    for fname, text in ((CARDS_FILE, cards_text), (NAMES_FILE, names_text)):
        target = args.out / fname
        tmp = target.with_suffix(".tmp")
        tmp.write_bytes(text.encode("utf-8"))
        tmp.replace(target)
        print(f"wrote {target} ({len(text.encode()):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
