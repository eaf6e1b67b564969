#!/usr/bin/env python3
"""Write the manifest of a dataset bundle (``deckcheck/data`` by default).

The bundle's data files are made by ``scripts/build_card_index.py`` (``cards.jsonl``,
``names.json``), ``scripts/build_banlists.py`` (``banlists.json``) and by hand
(``formats.toml``, the eras and formats as data). This script writes ``manifest.json`` beside
them: the schema version, the data's ``as_of`` date (the date of the newest source snapshot,
read from the shared data README, or ``--as-of``), the sources the lists name, and the sha256
of every file. The dataset's fingerprint is the sha256 of this manifest.

    python scripts/build_dataset.py [--data ../shared/data] [--bundle deckcheck/data]
                                    [--as-of YYYY-MM-DD] [--check]

``--check`` exits 1 when the committed manifest differs from what would be written.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckcheck.dataset import BUNDLE_FILES, MANIFEST, SCHEMA_VERSION, file_sha256  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data"
DEFAULT_BUNDLE = ROOT / "deckcheck" / "data"
_SNAPSHOT = re.compile(r"newest commits of \*\*(\d{4}-\d{2}-\d{2})\*\*")


def snapshot_date(data: Path) -> date | None:
    """The date of the newest source snapshot, as the shared data README states it."""
    try:
        text = (data / "README.md").read_text(encoding="utf-8")
    except OSError:
        return None
    m = _SNAPSHOT.search(text)
    return date.fromisoformat(m[1]) if m else None


def list_sources(bundle: Path) -> list[str]:
    """The source repositories (``owner/name@commit``) the bundled lists name, sorted."""
    doc = json.loads((bundle / "banlists.json").read_bytes())
    repos: set[str] = set()
    for row in doc["lists"]:
        for src in row["sources"]:
            repos.add(src.split(":", 1)[0])
    return sorted(repos)


def manifest(bundle: Path, as_of: date) -> dict[str, Any]:
    """The manifest of a bundle folder."""
    return {
        "schema": SCHEMA_VERSION,
        "as_of": as_of.isoformat(),
        "sources": list_sources(bundle),
        "files": {name: file_sha256(bundle / name) for name in BUNDLE_FILES},
    }


def render(doc: dict[str, Any]) -> str:
    """Deterministic JSON text of a manifest."""
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    ap.add_argument("--bundle", type=Path, default=DEFAULT_BUNDLE, help="the bundle folder")
    ap.add_argument("--as-of", type=date.fromisoformat, help="the data's as-of date")
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    args = ap.parse_args(argv)
    path = args.bundle / MANIFEST
    as_of = args.as_of or snapshot_date(args.data)
    if as_of is None and path.exists():
        as_of = date.fromisoformat(json.loads(path.read_bytes())["as_of"])
    if as_of is None:
        ap.error("no --as-of, and the shared data README does not give a snapshot date")
    text = render(manifest(args.bundle, as_of))
    if args.check:
        same = path.exists() and path.read_text(encoding="utf-8") == text
        print(f"{path}: {'up to date' if same else 'OUT OF DATE (run without --check)'}")
        return 0 if same else 1
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path} (as of {as_of.isoformat()})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
