"""A fetched upstream file probed before the build: does it parse as what it claims to be.

An ``.lflist.conf`` gives a list, JSON and JSON lines parse (a vector file holds a date and a
regulation), a card database opens and holds cards, any other file is text.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from deckcheck.boundary import read_data
from deckcheck.error import DataError, UpdateError


def check_file(path: Path, dest: str, origin: str) -> None:
    """Raise :class:`UpdateError` naming ``origin`` when the file at ``path`` does not parse."""
    name = dest.rsplit("/", 1)[-1]
    try:
        if name.endswith(".cdb"):
            _check_cdb(path)
        elif name.endswith(".lflist.conf"):
            _check_lflist(path)
        elif name.endswith(".jsonl"):
            # streamed a line at a time from a file fetched under the download cap
            with open(path, encoding="utf-8") as handle:
                for line in handle:
                    if line.strip() and not isinstance(json.loads(line), dict):
                        raise ValueError("a line is not a JSON object")
        elif name.endswith(".json"):
            doc = json.loads(read_data(path))
            if name.endswith(".vector.json"):
                date.fromisoformat(str(doc["date"]))
                if not isinstance(doc["regulation"], dict):
                    raise ValueError("'regulation' is not an object")
        else:
            read_data(path).decode("utf-8-sig")
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise UpdateError(f"{origin}: does not parse: {exc}") from exc


def _check_cdb(path: Path) -> None:
    import sqlite3

    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            (count,) = con.execute("SELECT count(*) FROM datas").fetchone()
            con.execute("SELECT id, name FROM texts LIMIT 1").fetchall()
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise ValueError(f"not a card database ({exc})") from exc
    if not count:
        raise ValueError("a card database without cards")


def _check_lflist(path: Path) -> None:
    from deckcheck.rule.banlist import read_lflist

    text = read_data(path).decode("utf-8-sig")
    try:
        lists = read_lflist(text, path.name, effective=date(2000, 1, 1), problems=[])
    except DataError as exc:
        raise ValueError(str(exc)) from exc
    if not lists:
        raise ValueError("no '!name' list in it")
