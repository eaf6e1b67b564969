#!/usr/bin/env python3
"""Build the data from upstream and write what the data release publishes.

    python scripts/publish_data.py --out dist [--previous previous/deckcheck-data.zip]
                                   [--source URL|DIR]

Writes ``dist/deckcheck-data.zip``, ``dist/manifest.json``, ``dist/notes.md`` (what changed
since ``--previous``, in Markdown) and ``dist/tag`` (the as-of date); nothing when the data is
the previous bundle's. The sources: ``--source`` (a mirror), else ``DECKCHECK_UPSTREAM_URL``,
else the upstream repositories (the built-in source list); ``DECKCHECK_HOME`` keeps the cache of
the last fetch. See :mod:`deckcheck.data.publish`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckcheck.data.publish import publish  # noqa: E402
from deckcheck.error import DeckcheckError  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").strip().splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="the folder to write")
    ap.add_argument("--previous", type=Path, help="the bundle published last (.zip)")
    ap.add_argument("--source", help="a mirror of the upstream files (URL or folder)")
    args = ap.parse_args(argv)
    try:
        done = publish(args.out, source=args.source, previous=args.previous, notify=print)
    except DeckcheckError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not done.files:
        print(f"nothing new: the data (as of {done.data.as_of}) is the published bundle's")
        return 0
    for path in done.files:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
