"""The pack: a bundle's ban lists and formats already parsed, read in one step at start.

``banlists.json`` and ``formats.toml`` are the bundle's data: listed in its manifest with their
sha256, exported and served as they are. Parsing them (JSON of 56,000 list entries, TOML in pure
Python) was most of what a cold command spent on data. ``pack.pickle``, beside them, holds the
same two documents as parsed, which :class:`~deckcheck.data.dataset.Dataset` reads instead: the
lists and formats are then built from the documents as before (one road, whatever the source).

A pack holds plain values only (dicts, lists, strings, numbers, dates) and is read by an
unpickler that can make nothing else, so a pack file can never run code. It is stamped with its
schema and the sha256 of the two files it was made from, as the manifest lists them: a pack
that is missing, unreadable or stamped for other files is ignored and the files are parsed
instead. The build script writes the bundled data's pack, ``deckcheck data update`` writes the
pack of each bundle it installs (from the verified files); a pack is never listed in a
manifest, exported or downloaded, since it is made where it is used.
"""

from __future__ import annotations

import io
import pickle
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from msgspec import Struct

from deckcheck.boundary import parse_json, read_data, write_file
from deckcheck.error import DataError

PACK_FILE = "pack.pickle"
"""File of the pack in a bundle folder."""
PACK_SCHEMA = 1
"""Version of the pack's layout (a pack of another is ignored)."""
MAX_PACK_BYTES = 64 << 20
"""Size cap of a pack file."""
BANLISTS_FILE = "banlists.json"
"""The ban-list bundle of a data folder."""
FORMATS_FILE = "formats.toml"
"""The eras and formats of a data folder."""


class Pack(Struct, frozen=True):
    """The parsed documents of a bundle's ban lists and formats."""

    banlists: Any
    """The JSON document of ``banlists.json``."""
    formats: dict[str, Any]
    """The TOML document of ``formats.toml``."""


def stamp(manifest: Mapping[str, Any]) -> list[Any]:
    """What a pack for the bundle of ``manifest`` is stamped with: the pack schema and the
    sha256 of the files it is made from."""
    files: Mapping[str, str] = manifest["files"]
    return [PACK_SCHEMA, files.get(BANLISTS_FILE), files.get(FORMATS_FILE)]


def build(folder: Path) -> Pack:
    """Parse the ban lists and formats of a bundle folder (:class:`DataError` naming the file
    that cannot be read)."""
    from deckcheck.rule.format import read_registry_document

    path = folder / BANLISTS_FILE
    try:
        raw = read_data(path)
    except OSError as exc:
        raise DataError(f"{path}: cannot read ban-list data: {exc.strerror or exc}") from exc
    try:
        banlists = parse_json(raw)
    except ValueError as exc:
        raise DataError(f"{path}: malformed ban-list bundle: {exc}") from exc
    return Pack(banlists, read_registry_document(folder / FORMATS_FILE))


def load(folder: Path, manifest: Mapping[str, Any]) -> Pack:
    """The pack of a bundle folder: its ``pack.pickle`` when it is one for these files, else
    the files parsed (:func:`build`)."""
    got = read(folder, manifest)
    return got if got is not None else build(folder)


def write(folder: Path, manifest: Mapping[str, Any]) -> Path:
    """Make the pack of a bundle folder from its files and write it there; returns its path."""
    pack = build(folder)
    doc = {"stamp": stamp(manifest), "banlists": pack.banlists, "formats": pack.formats}
    target = folder / PACK_FILE
    write_file(target, pickle.dumps(doc, protocol=5))
    return target


class _PlainUnpickler(pickle.Unpickler):
    """An unpickler of plain values: the one class it may make is :class:`datetime.date`."""

    def find_class(self, module: str, name: str) -> Any:
        """Only ``datetime.date``; anything else is refused."""
        if (module, name) == ("datetime", "date"):
            import datetime

            return datetime.date
        raise pickle.UnpicklingError(f"{module}.{name} is not a plain value")


def read(folder: Path, manifest: Mapping[str, Any]) -> Pack | None:
    """The pack of a bundle folder if it holds one stamped for these files, else None (never
    raises: a bad pack only means the files are parsed)."""
    try:
        raw = read_data(folder / PACK_FILE, MAX_PACK_BYTES)
        doc = _PlainUnpickler(io.BytesIO(raw)).load()
    except Exception:  # a missing or corrupt pack (it fails in many ways) is only no pack
        return None
    if not isinstance(doc, dict) or doc.get("stamp") != stamp(manifest):
        return None
    banlists, formats = doc.get("banlists"), doc.get("formats")
    if not isinstance(banlists, dict) or not isinstance(formats, dict):
        return None
    return Pack(banlists, formats)
