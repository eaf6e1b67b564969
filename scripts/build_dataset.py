#!/usr/bin/env python3
"""Make a dataset bundle: write its manifest, or build the whole bundle from the sources.

A bundle holds the card index (``cards.jsonl``, ``names.json``, made by
``scripts/build_card_index.py``), the ban-list bundle (``banlists.json``, made by
``scripts/build_banlists.py``), the eras and formats as data (``formats.toml``, by hand) and
``manifest.json``: the schema version, the data's ``as_of`` date (the date of the newest source
snapshot, read from the shared data README, or ``--as-of``), the sources with their versions,
and the sha256 of every file. The dataset's fingerprint is the sha256 of this manifest.

    python scripts/build_dataset.py [--data ../shared/data] [--bundle deckcheck/data/bundled]
                                    [--as-of YYYY-MM-DD] [--check]
    python scripts/build_dataset.py --out DIR [--data ../shared/data] [--as-of YYYY-MM-DD]
    python scripts/build_dataset.py --source-list [--data ../shared/data] [--base-url URL]

The first form writes the manifest of an existing bundle folder (``--check`` exits 1 when the
committed manifest differs from what would be written). The second builds a whole bundle into
the empty folder DIR, with the same code as ``deckcheck data update --from-upstream``; serve DIR
over HTTP and ``deckcheck data update --source URL`` installs it. The third writes
``sources.json`` (every source file with its sha256 and size) into the data folder, making it a
mirror for ``deckcheck data update --from-upstream --source URL``.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckcheck.data import pack  # noqa: E402
from deckcheck.data.bundle import build, manifest, manifest_text, snapshot_date  # noqa: E402
from deckcheck.data.dataset import MANIFEST  # noqa: E402
from deckcheck.data.upstream import SOURCE_LIST, source_list  # noqa: E402
from deckcheck.error import DataError  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data"
DEFAULT_BUNDLE = ROOT / "deckcheck" / "data" / "bundled"


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    ap.add_argument("--bundle", type=Path, default=DEFAULT_BUNDLE, help="the bundle folder")
    ap.add_argument("--out", type=Path, help="build a whole bundle into this empty folder")
    ap.add_argument("--as-of", type=date.fromisoformat, help="the data's as-of date")
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    ap.add_argument("--source-list", action="store_true", help="write DATA/sources.json")
    ap.add_argument("--base-url", help="with --source-list: absolute URLs under this base")
    args = ap.parse_args(argv)
    if args.source_list:
        doc = source_list(args.data, args.base_url)
        target = args.data / SOURCE_LIST
        target.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {target} ({len(doc['files'])} files)")
        return 0
    if args.out is not None:
        if args.out.exists() and any(args.out.iterdir()):
            ap.error(f"{args.out} is not empty")
        try:
            build(args.data, args.out, args.as_of, log=print)
        except DataError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"built {args.out}")
        return 0
    path = args.bundle / MANIFEST
    as_of = args.as_of or snapshot_date(args.data)
    if as_of is None and path.exists():
        as_of = date.fromisoformat(json.loads(path.read_bytes())["as_of"])
    if as_of is None:
        ap.error("no --as-of, and the shared data README does not give a snapshot date")
    doc = manifest(args.bundle, as_of)
    text = manifest_text(doc)
    if args.check:
        same = path.exists() and path.read_text(encoding="utf-8") == text
        print(f"{path}: {'up to date' if same else 'OUT OF DATE (run without --check)'}")
        packed = pack.read(args.bundle, doc) is not None
        where = args.bundle / pack.PACK_FILE
        print(f"{where}: {'up to date' if packed else 'OUT OF DATE (run without --check)'}")
        return 0 if same and packed else 1
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path} (as of {as_of.isoformat()})")
    print(f"wrote {pack.write(args.bundle, doc)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
