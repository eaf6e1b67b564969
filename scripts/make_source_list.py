#!/usr/bin/env python3
"""Write the built-in source list (``deckcheck/data/source_list.json``) from a source-data folder.

Every file the build reads is named by its upstream repository and path (the raw-file URL on
the default branch, ``HEAD``; a ProjectIgnis history version by its commit), see
:mod:`deckcheck.data.source_list`. Run it again when the builders read new inputs::

    python scripts/make_source_list.py [--data ../shared/data]
    python scripts/make_source_list.py --mirror DIR [--data ../shared/data]

With ``--mirror DIR`` it writes a mirror of the upstream layout instead (every listed file at the
path of its URL), ready to serve with any static web server.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckcheck.data.source_list import (  # noqa: E402
    BUILTIN_FILE,
    generate,
    generate_text,
    write_mirror,
)

DEFAULT_DATA = ROOT.parent / "shared" / "data"


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the source-data folder")
    ap.add_argument("--mirror", type=Path, help="write a mirror of the upstream layout here")
    args = ap.parse_args(argv)
    if args.mirror is not None:
        count = write_mirror(args.data, args.mirror)
        print(f"wrote {count} files under {args.mirror}")
        return 0
    doc = generate(args.data)
    BUILTIN_FILE.write_text(generate_text(doc), encoding="utf-8")
    print(f"wrote {BUILTIN_FILE} ({len(doc['files'])} files)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
