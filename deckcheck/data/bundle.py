"""Making dataset bundles: the manifest, and a whole bundle built from the source data.

One code path for ``scripts/build_dataset.py`` (the bundle shipped in ``deckcheck/data``) and
``deckcheck data update --from-upstream`` (a bundle built on the user's machine):
:func:`build` runs the builders in this process (:mod:`deckcheck.data.builders.card_index`,
then :mod:`deckcheck.data.builders.banlists` against the new card index) on a folder laid out
like the shared source data, copies the formats file, and writes the manifest with
:func:`write_manifest`. It works from an installed wheel: nothing of a source checkout is needed.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from deckcheck.boundary import read_data
from deckcheck.data import pack
from deckcheck.data.builders.snapshot import snapshot_date as snapshot_date  # re-exported
from deckcheck.data.dataset import (
    BUNDLE_FILES,
    BUNDLED_DIR,
    MANIFEST,
    OPTIONAL_FILES,
    SCHEMA_VERSION,
    file_sha256,
    read_manifest,
)
from deckcheck.error import DataError

FORMATS_FILE = "formats.toml"
"""The eras and formats as data (written by hand, copied into every bundle)."""


def list_sources(bundle: Path) -> list[str]:
    """The source repositories (``owner/name@commit``) the bundle's lists name, sorted."""
    doc = json.loads(read_data(bundle / "banlists.json"))
    repos: set[str] = set()
    for row in doc["lists"]:
        for src in row.get("sources", []):
            repos.add(src.split(":", 1)[0])
    return sorted(repos)


def manifest(bundle: Path, as_of: date, extra_sources: list[str] | None = None) -> dict[str, Any]:
    """The manifest of a bundle folder: schema, as-of date, sources, a sha256 per file."""
    return {
        "schema": SCHEMA_VERSION,
        "as_of": as_of.isoformat(),
        "sources": sorted(set(list_sources(bundle)) | set(extra_sources or [])),
        "files": {
            name: file_sha256(bundle / name)
            for name in (*BUNDLE_FILES, *OPTIONAL_FILES)
            if name in BUNDLE_FILES or (bundle / name).exists()
        },
    }


def manifest_text(doc: dict[str, Any]) -> str:
    """Deterministic JSON text of a manifest."""
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"


def write_manifest(bundle: Path, as_of: date, extra_sources: list[str] | None = None) -> Path:
    """Write ``manifest.json`` for the data files of ``bundle``; returns its path."""
    path = bundle / MANIFEST
    path.write_text(manifest_text(manifest(bundle, as_of, extra_sources)), encoding="utf-8")
    return path


Log = Callable[[str], None]
"""Receives one line about each build step."""


def _card_index(data: Path, out: Path, log: Log | None, as_of: date | None = None) -> None:
    """Build ``cards.jsonl`` and ``names.json`` into ``out`` (in this process), as of ``as_of``
    (the data's date: release windows that Konami's current status closes end there)."""
    from deckcheck.card.index import CARDS_FILE, NAMES_FILE, NAMES_INTL_FILE
    from deckcheck.data.builders import card_index

    if log is not None:
        log("building the card index")
    if not (data / "cards").is_dir():
        raise DataError(f"{data}: no card data (cards/) to build the card index from")
    try:
        doc = card_index.build(data, as_of)
    except Exception as exc:  # the sources are outside input: any failure is theirs to report
        raise DataError(f"building the card index from {data} failed: {exc!r}") from exc
    cards_text, names_text, intl_text = card_index.dump(doc)
    (out / CARDS_FILE).write_text(cards_text, encoding="utf-8")
    (out / NAMES_FILE).write_text(names_text, encoding="utf-8")
    (out / NAMES_INTL_FILE).write_text(intl_text, encoding="utf-8")


def _banlists(data: Path, out: Path, log: Log | None) -> None:
    """Build ``banlists.json`` into ``out`` against the card index already there."""
    from deckcheck.card import CardIndex
    from deckcheck.data.builders import banlists
    from deckcheck.rule.banlist import dump_bundle

    if log is not None:
        log("building the ban lists")
    if not (data / "lflists").is_dir():
        raise DataError(f"{data}: no ban-list data (lflists/) to build the lists from")
    try:
        builder = banlists.Builder(data, CardIndex.from_dir(out))
        lists = banlists.build_all(builder)
    except Exception as exc:  # the sources are outside input: any failure is theirs to report
        raise DataError(f"building the ban lists from {data} failed: {exc!r}") from exc
    (out / "banlists.json").write_text(dump_bundle(lists) + "\n", encoding="utf-8")


def build(
    data: Path,
    out: Path,
    as_of: date | None = None,
    *,
    formats: Path | None = None,
    extra_sources: list[str] | None = None,
    log: Log | None = None,
) -> Path:
    """Build a whole bundle into ``out`` (an empty folder) from source data under ``data``.

    ``data`` is laid out like the shared source data (``cards/``, ``lflists/``, see the build
    scripts). ``as_of`` defaults to the snapshot date of ``data``'s README. The formats file is
    ``formats`` (default: the bundled one). Raises :class:`DataError` when a step fails.
    """
    as_of = as_of or snapshot_date(data)
    if as_of is None:
        raise DataError(f"{data}: no as-of date given and no snapshot date in its README")
    out.mkdir(parents=True, exist_ok=True)
    _card_index(data, out, log, as_of)
    shutil.copyfile(formats or BUNDLED_DIR / FORMATS_FILE, out / FORMATS_FILE)
    _banlists(data, out, log)
    if log is not None:
        log("writing the manifest")
    write_manifest(out, as_of, extra_sources)
    pack.write(out, read_manifest(out)[0])  # the lists and formats as they load (never shipped)
    return out
