#!/usr/bin/env python3
"""Project the upstream per-card folders into the source files of the ``sources`` release.

    python scripts/project_sources.py --out DIR [--yaml-yugi CLONE] [--ygojson CLONE]
                                      [--lflist FILE]

``--yaml-yugi``: a clone of DawnbrandBots/yaml-yugi (``data/cards``, ``data/rush``);
``--ygojson``: a clone of iconmaster5326/YGOJSON's ``v1/individual`` branch; ``--lflist``: the
``lflist.conf`` of Fluorohydride/ygopro at the commit the 2011.3.1 list is cut from. Writes the
files under their asset names (``yaml-yugi-cards.min.jsonl``, ...) into ``DIR``. Reads no
network. See :mod:`deckcheck.data.builders.projection`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckcheck.data.builders.projection import project  # noqa: E402
from deckcheck.error import DeckcheckError  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").strip().splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="the folder to write")
    ap.add_argument("--yaml-yugi", type=Path, help="a clone of DawnbrandBots/yaml-yugi")
    ap.add_argument("--ygojson", type=Path, help="a clone of YGOJSON's v1/individual branch")
    ap.add_argument("--lflist", type=Path, help="Fluorohydride's lflist.conf of early 2012")
    args = ap.parse_args(argv)
    if args.yaml_yugi is None and args.ygojson is None and args.lflist is None:
        ap.error("nothing to project: give --yaml-yugi, --ygojson and/or --lflist")
    try:
        done = project(args.out, yaml_yugi=args.yaml_yugi, ygojson=args.ygojson, lflist=args.lflist)
    except DeckcheckError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for key, path in done.files.items():
        print(f"wrote {path} ({done.lines[key]:,} lines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
