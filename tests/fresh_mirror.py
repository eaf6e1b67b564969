"""A mirror of the upstream layout built from the shared data, and the changes tests make to it.

:func:`make_mirror` lays the shared data out as the upstream repositories serve it (see
:mod:`deckcheck.data.source_list`); :func:`publish_changes` then changes it as upstream would:
a new TCG list (EDOPro's ``0TCG.lflist.conf`` and Konami's list through the
``current.vector.json`` link, both with one card moved from Limited to Forbidden), a new card in
the card database, and an earlier first TCG release date of one card.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from deckcheck.data.source_list import write_mirror

NEW_LIST = "2026.11 TCG"
NEW_LIST_DATE = "2026-11-01"
NEW_CARD = 99990001
NEW_CARD_NAME = "Pot of Freshness"
DATED_CARD = 14558127  # Ash Blossom & Joyous Spring: first TCG print 2017-05-04
NEW_TCG_DATE = "2017-04-20"

RAW = "ProjectIgnis/LFLists/HEAD/0TCG.lflist.conf"
VECTORS = "DawnbrandBots/yaml-yugi-limit-regulation/HEAD/data/tcg"
CDB = "ProjectIgnis/BabelCDB/HEAD/cards.cdb"
YGOJSON = "deckcheck/deckcheck/releases/download/sources/ygojson-cards.min.jsonl"
YAML_YUGI = "deckcheck/deckcheck/releases/download/sources/yaml-yugi-cards.min.jsonl"


@dataclass(frozen=True)
class Published:
    """What :func:`publish_changes` changed."""

    banned: int
    """The card moved from Limited to Forbidden in the new list."""
    banned_name: str


def make_mirror(shared: Path, out: Path) -> Path:
    """The shared data laid out as a mirror of the upstream files, under ``out``."""
    write_mirror(shared, out)
    return out


def _clone(path: Path) -> None:
    """Give ``path`` its own copy (the mirror may share files with another)."""
    tmp = path.with_name(path.name + ".tmp")
    shutil.copyfile(path, tmp)
    tmp.replace(path)


def publish_changes(mirror: Path) -> Published:
    """Change the mirror as upstream would publish a new list, a new card and a new date."""
    lflist = mirror / RAW
    text = lflist.read_text(encoding="utf-8")
    m = re.search(r"^(\d+) 1 --(.*)$", text, flags=re.M)
    assert m is not None
    code, name = int(m[1]), m[2].strip()
    text = re.sub(r"^#\[.*?\]$", f"#[{NEW_LIST}]", text, count=1, flags=re.M)
    text = re.sub(r"^!.*$", f"!{NEW_LIST}", text, count=1, flags=re.M)
    text = text.replace(m[0], f"{code} 0 --{name}")
    _clone(lflist)
    lflist.write_text(text, encoding="utf-8")
    _new_vector(mirror, code)
    _new_card(mirror / CDB)
    _new_date(mirror / YGOJSON)
    return Published(code, name)


def _konami_id(mirror: Path, code: int) -> int:
    with open(mirror / YAML_YUGI, encoding="utf-8") as handle:
        for line in handle:
            rec = json.loads(line)
            if rec.get("password") == code:
                return int(rec["konami_id"])
    raise AssertionError(f"no konami id for {code}")


def _new_vector(mirror: Path, code: int) -> None:
    folder = mirror / VECTORS
    current = (folder / "current.vector.json").read_text(encoding="utf-8").strip()
    doc = json.loads((folder / current).read_text(encoding="utf-8"))
    doc["date"] = NEW_LIST_DATE
    doc["regulation"][str(_konami_id(mirror, code))] = 0
    name = f"{NEW_LIST_DATE}.vector.json"
    (folder / name).write_text(json.dumps(doc), encoding="utf-8")
    _clone(folder / "current.vector.json")
    (folder / "current.vector.json").write_text(name, encoding="utf-8")


def _new_card(cdb: Path) -> None:
    _clone(cdb)
    con = sqlite3.connect(cdb)
    try:
        row = con.execute("SELECT * FROM datas WHERE id = 55144522").fetchone()
        con.execute(f"INSERT INTO datas VALUES ({','.join('?' * len(row))})", (NEW_CARD, *row[1:]))
        text = con.execute("SELECT * FROM texts WHERE id = 55144522").fetchone()
        con.execute(
            f"INSERT INTO texts VALUES ({','.join('?' * len(text))})",
            (NEW_CARD, NEW_CARD_NAME, *text[2:]),
        )
        con.commit()
    finally:
        con.close()


def _new_date(jsonl: Path) -> None:
    lines = jsonl.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        rec = json.loads(line)
        if str(DATED_CARD) in rec.get("passwords", []):
            rec["firstReleaseFromSets"]["locale:na"] = NEW_TCG_DATE  # a North American print
            lines[i] = json.dumps(rec, ensure_ascii=False)
            break
    else:
        raise AssertionError("the dated card is not in the YGOJSON projection")
    jsonl.unlink()
    jsonl.write_text("\n".join(lines) + "\n", encoding="utf-8")
