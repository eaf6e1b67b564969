"""Making dataset bundles: the manifest, and a whole bundle built from the source data.

One code path for ``scripts/build_dataset.py`` (the bundle shipped in ``deckcheck/data``) and
``deckcheck data update --from-upstream`` (a bundle built on the user's machine):
:func:`build` runs the build scripts (``scripts/build_card_index.py``, then
``scripts/build_banlists.py`` against the new card index) on a folder laid out like the shared
source data, copies the formats file, and writes the manifest with :func:`write_manifest`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from deckcheck.data.dataset import (
    BUNDLE_FILES,
    BUNDLED_DIR,
    DATA_ENV,
    MANIFEST,
    SCHEMA_VERSION,
    file_sha256,
)
from deckcheck.error import DataError

SCRIPTS_DIR = Path(__file__).resolve().parents[2] / "scripts"
"""The build scripts of a source checkout (absent from an installed wheel)."""
FORMATS_FILE = "formats.toml"
"""The eras and formats as data (written by hand, copied into every bundle)."""
_SNAPSHOT = re.compile(r"newest commits of \*\*(\d{4}-\d{2}-\d{2})\*\*")


def snapshot_date(data: Path) -> date | None:
    """The date of the newest source snapshot, as the source data's README states it."""
    try:
        text = (data / "README.md").read_text(encoding="utf-8")
    except OSError:
        return None
    m = _SNAPSHOT.search(text)
    return date.fromisoformat(m[1]) if m else None


def list_sources(bundle: Path) -> list[str]:
    """The source repositories (``owner/name@commit``) the bundle's lists name, sorted."""
    doc = json.loads((bundle / "banlists.json").read_bytes())
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
        "files": {name: file_sha256(bundle / name) for name in BUNDLE_FILES},
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


def _run(script: str, args: list[str], env: dict[str, str], log: Log | None) -> None:
    path = SCRIPTS_DIR / script
    if not path.is_file():
        raise DataError(
            f"{path}: build script not found; building data needs a source checkout of deckcheck"
        )
    if log is not None:
        log(f"running {script}")
    proc = subprocess.run(
        [sys.executable, str(path), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
        raise DataError(f"{script} failed (exit {proc.returncode}): " + " | ".join(tail))


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
    env = dict(os.environ)
    env.pop(DATA_ENV, None)
    _run("build_card_index.py", ["--data", str(data), "--out", str(out)], env, log)
    # the lists are resolved against the new card index: make the half-built bundle loadable
    shutil.copyfile(formats or BUNDLED_DIR / FORMATS_FILE, out / FORMATS_FILE)
    placeholder = {name: "0" * 64 for name in BUNDLE_FILES}
    (out / "banlists.json").write_text('{"lists": []}\n', encoding="utf-8")
    (out / MANIFEST).write_text(
        manifest_text(
            {
                "schema": SCHEMA_VERSION,
                "as_of": as_of.isoformat(),
                "sources": [],
                "files": placeholder,
            }
        ),
        encoding="utf-8",
    )
    lists = out / "banlists-toml"
    _run(
        "build_banlists.py",
        ["--data", str(data), "--out", str(lists), "--bundle", str(out / "banlists.json")],
        env | {DATA_ENV: str(out)},
        log,
    )
    shutil.rmtree(lists, ignore_errors=True)
    write_manifest(out, as_of, extra_sources)
    return out
