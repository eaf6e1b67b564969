"""The built-in source list: every upstream file the build reads, by repository and path.

deckcheck ships ``source_list.json`` (package data), so ``deckcheck data update --from-upstream``
needs no list of its own. Each entry says where a file goes in the source-data layout the
builders read (``dest``: ``cards/...``, ``lflists/...``) and where it comes from:

* ``file``: a raw file of a public repository, ``{raw_base}{repo}/{ref}/{path}``, where ``ref``
  is ``HEAD`` (the default branch: the file follows upstream) or a commit (a fixed version,
  such as an old EDOPro list kept in the ProjectIgnis history, fetched once);
* ``follow``: a file naming the newest of a folder (yaml-yugi-limit-regulation's
  ``current.vector.json`` symlink, whose raw text is the target's name): the target is fetched
  too, so a list published upstream is found the day it appears;
* ``asset``: a file the public repositories hold only spread over thousands of files (the card
  name and release-date projections), published by the deckcheck project as a release asset at
  ``{asset_base}{path}``; the data-release workflow makes them before each build
  (:mod:`deckcheck.data.builders.projection`, ``scripts/project_sources.py``).

A ProjectIgnis current list (``history: true``) is also filed in ``history/`` under its
``!name``, as the history of that repository was gathered, and ``history/_index.json`` is written
from the entries. A **mirror** serves every file at the path of its URL under its own base
(``https://raw.githubusercontent.com/ProjectIgnis/LFLists/HEAD/0TCG.lflist.conf`` at
``{mirror}/ProjectIgnis/LFLists/HEAD/0TCG.lflist.conf``); :func:`write_mirror` makes one from a
source-data folder.
"""

from __future__ import annotations

import enum
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from deckcheck.boundary import read_data
from deckcheck.error import DataError

BUILTIN_FILE = Path(__file__).with_name("source_list.json")
"""The built-in source list (package data)."""
RAW_BASE = "https://raw.githubusercontent.com/"
"""Where public repositories serve their raw files."""
PROJECT_URL = "https://github.com/deckcheck/deckcheck"
"""The deckcheck project's repository (its releases carry the published data)."""
ASSET_BASE = PROJECT_URL + "/releases/download/sources/"
"""Where the project publishes the projected source files (the ``sources`` release)."""
HISTORY = "lflists/projectignis/history/"
"""The folder of EDOPro's lists by name (``history/_index.json`` describes it)."""
HISTORY_INDEX = HISTORY + "_index.json"

_ASSETS = {
    "cards/yaml-yugi/cards.min.jsonl": "yaml-yugi-cards.min.jsonl",
    "cards/yaml-yugi/rush.min.jsonl": "yaml-yugi-rush.min.jsonl",
    "cards/ygojson/cards.min.jsonl": "ygojson-cards.min.jsonl",
    "cards/ygojson/sets.min.jsonl": "ygojson-sets.min.jsonl",
    "lflists/ygopro-fluorohydride/2011.3.1.lflist.conf": "fluorohydride-2011.3.1.lflist.conf",
}
_SKIP = ("_symlinks.json",)


class Kind(enum.StrEnum):
    """How an entry is fetched."""

    FILE = "file"
    FOLLOW = "follow"
    ASSET = "asset"


@dataclass(frozen=True, slots=True)
class Entry:
    """One upstream file of the source list."""

    dest: str
    """Where it goes in the source-data layout (a folder ending in ``/`` for ``follow``)."""
    kind: Kind
    repo: str | None
    """``owner/name`` of the repository (None for an asset)."""
    ref: str
    """``HEAD`` (the default branch) or a commit."""
    path: str
    """The path in the repository, or the asset's name."""
    history: bool = False
    """A ProjectIgnis current list: also filed in ``history/`` under its ``!name``."""
    header: str | None = None
    """For a history version: its list name (``_index.json``)."""
    commit_date: str | None = None
    """For a history version: the date of its commit (``_index.json``)."""

    def url(self, sources: SourceList, mirror: str | None = None) -> str:
        """The URL to fetch, on the mirror ``mirror`` when given."""
        if self.kind is Kind.ASSET:
            url = sources.asset_base + quote(self.path)
        else:
            url = f"{sources.raw_base}{self.repo}/{self.ref}/{quote(self.path)}"
        return mirror_url(url, mirror) if mirror else url

    @property
    def pinned(self) -> bool:
        """True for a fixed version (a commit): once fetched, never asked for again."""
        return self.kind is Kind.FILE and self.ref != "HEAD"

    @property
    def origin(self) -> str:
        """``owner/name: path`` (or ``the project's release asset NAME``), for messages."""
        if self.kind is Kind.ASSET:
            return f"the project's release asset {self.path}"
        return f"{self.repo}: {self.path}" + ("" if self.ref == "HEAD" else f" @ {self.ref[:12]}")


@dataclass(frozen=True, slots=True)
class SourceList:
    """The upstream files the build reads."""

    raw_base: str
    asset_base: str
    entries: tuple[Entry, ...]

    def repos(self) -> list[str]:
        """The repositories named, sorted."""
        return sorted({e.repo for e in self.entries if e.repo})


def mirror_url(url: str, mirror: str) -> str:
    """``url`` on a mirror: the mirror's base plus the URL's path."""
    return mirror.rstrip("/") + urlsplit(url).path


def load(path: Path | None = None) -> SourceList:
    """The source list at ``path`` (default: the built-in one); :class:`DataError` if unusable."""
    path = path or BUILTIN_FILE
    try:
        doc = json.loads(read_data(path))
        entries = tuple(_entry(row) for row in doc["files"])
        return SourceList(str(doc["raw_base"]), str(doc["asset_base"]), entries)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DataError(f"{path}: not a usable built-in source list: {exc}") from exc


def _entry(row: dict[str, Any]) -> Entry:
    dest = str(row["dest"])
    parts = dest.rstrip("/").split("/")
    if parts[0] not in ("cards", "lflists") or any(p in ("", ".", "..") for p in parts):
        raise ValueError(f"bad dest {dest!r}")
    return Entry(
        dest=dest,
        kind=Kind(row.get("kind", "file")),
        repo=str(row["repo"]) if row.get("repo") else None,
        ref=str(row.get("ref", "HEAD")),
        path=str(row["path"]),
        history=bool(row.get("history", False)),
        header=row.get("header"),
        commit_date=row.get("commit_date"),
    )


LIMIT_REGULATION_ROOT = "data/"
"""Where yaml-yugi-limit-regulation keeps its region folders (``data/tcg/...``)."""
_TIMEWIZARD = {
    "banlists-tcg-by-name": "banlists/",
    "curated-lflist": "lflist/curated/",
    "popular_formats.json": "static/",
}
"""Where TimeWizard keeps what the source-data layout files under ``lflists/timewizard/``
(checked byte for byte against the repository at the shared data's commit)."""


BASE_CDB = "cards/projectignis/base-2020-03-30/cards.cdb"
"""The 2020 base card database (its older English names are search aliases)."""
BASE_CDB_COMMIT = "945ca034a0e0c8d2eb271923bd8d54735362f352"
"""The BabelCDB commit of :data:`BASE_CDB` (2020-03-30, "Minerva-generated card databases")."""


def _upstream_of(rel: str) -> tuple[str, str] | None:
    """``(repo, path in it)`` of a source-data file that follows its default branch."""
    top = rel.split("/")
    if rel.startswith("lflists/projectignis/current/"):
        return "ProjectIgnis/LFLists", top[-1]
    if rel == "lflists/ygopro-fluorohydride/lflist.conf":
        return "Fluorohydride/ygopro", "lflist.conf"
    if rel.startswith("lflists/yaml-yugi-limit-regulation/"):
        return "DawnbrandBots/yaml-yugi-limit-regulation", LIMIT_REGULATION_ROOT + "/".join(top[2:])
    if rel.startswith("lflists/timewizard/"):  # the source-data layout renamed its folders
        return "SantiagoRivera92/TimeWizard", _TIMEWIZARD.get(top[2], top[2] + "/") + top[-1]
    if rel == "cards/derived/projectignis-cards.merged.cdb":
        return "ProjectIgnis/BabelCDB", "cards.cdb"
    if rel.startswith("cards/projectignis/babelcdb-current/"):
        return "ProjectIgnis/BabelCDB", top[-1]
    if rel.startswith("cards/projectignis/deltas/") and (
        top[-1] == "mappings.json" or top[-1].endswith(".cdb")
    ):
        return f"ProjectIgnis/{top[3]}", top[-1]
    if rel == BASE_CDB:
        return "ProjectIgnis/BabelCDB", "cards.cdb"
    if rel == "cards/projectignis/strings/strings.conf":
        return "ProjectIgnis/Distribution", "config/strings.conf"
    return None


def generate(data: Path) -> dict[str, Any]:
    """The built-in source list for the files of the source-data folder ``data``."""
    rows: list[dict[str, Any]] = []
    for path in sorted(p for top in ("cards", "lflists") for p in (data / top).rglob("*")):
        rel = path.relative_to(data).as_posix()
        if not path.is_file() or path.name in _SKIP or rel.startswith(HISTORY):
            continue
        if rel in _ASSETS:
            rows.append({"dest": rel, "kind": "asset", "path": _ASSETS[rel]})
            continue
        up = _upstream_of(rel)
        if up is not None:
            row: dict[str, Any] = {"dest": rel, "repo": up[0], "path": up[1]}
            if rel == BASE_CDB:  # the 2020 base database, fixed (older English names)
                row["ref"] = BASE_CDB_COMMIT
            if rel.startswith("lflists/projectignis/current/"):
                row["history"] = True
            rows.append(row)
    rows.extend(_follow_rows(data))
    rows.extend(_history_rows(data))
    return {"raw_base": RAW_BASE, "asset_base": ASSET_BASE, "files": rows}


def _follow_rows(data: Path) -> list[dict[str, Any]]:
    links = data / "lflists" / "yaml-yugi-limit-regulation" / "_symlinks.json"
    rows = []
    for link in sorted(json.loads(read_data(links))):
        if link.endswith("current.vector.json"):
            folder = link.rsplit("/", 1)[0]
            rows.append(
                {
                    "dest": f"lflists/yaml-yugi-limit-regulation/{folder}/",
                    "kind": "follow",
                    "repo": "DawnbrandBots/yaml-yugi-limit-regulation",
                    "path": LIMIT_REGULATION_ROOT + link,
                }
            )
    return rows


def _history_rows(data: Path) -> list[dict[str, Any]]:
    index = json.loads(read_data(data / HISTORY_INDEX))
    return [
        {
            "dest": HISTORY + row["file"],
            "repo": "ProjectIgnis/LFLists",
            "ref": row["commit"],
            "path": row["source_path"],
            "header": row["header"],
            "commit_date": row["commit_date"],
        }
        for row in index
    ]


def generate_text(doc: dict[str, Any]) -> str:
    """The JSON text of a source list: one entry a line, so changes diff well."""
    lines = [json.dumps(row, sort_keys=True, ensure_ascii=False) for row in doc["files"]]
    head = f'{{"raw_base": {json.dumps(doc["raw_base"])}, "asset_base": '
    head += f'{json.dumps(doc["asset_base"])},\n "files": [\n  '
    return head + ",\n  ".join(lines) + "\n ]}\n"


def write_mirror(data: Path, out: Path, sources: SourceList | None = None) -> int:
    """Lay the source-data folder ``data`` out as a mirror of the upstream files under ``out``.

    A ``follow`` entry's file holds the name of its target, as a raw symlink does. Returns the
    number of files written.
    """
    sources = sources or load()
    links = json.loads(
        read_data(data / "lflists" / "yaml-yugi-limit-regulation" / "_symlinks.json").decode()
    )
    count = 0
    for entry in sources.entries:
        target = out / unquote(urlsplit(entry.url(sources)).path).lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        if entry.kind is Kind.FOLLOW:
            link = entry.path.removeprefix(LIMIT_REGULATION_ROOT)  # as the shared layout keys it
            target.write_text(_link_target(data / entry.dest, links[link]), "utf-8")
        else:
            shutil.copyfile(data / entry.dest, target)
        count += 1
    return count


def _link_target(folder: Path, name: str) -> str:
    """The symlink's target, or the newest list of the folder when the data left it out."""
    if (folder / name).is_file():
        return name
    return sorted(p.name for p in folder.glob("*.vector.json"))[-1]
