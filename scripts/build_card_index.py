#!/usr/bin/env python3
"""Build deckcheck's bundled card index from the shared card data.

The builder is library code, :mod:`deckcheck.data.builders.card_index` (``deckcheck data update
--from-upstream`` runs it in-process); this is its command line, run from a source checkout::

    python scripts/build_card_index.py --help
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deckcheck.data.builders.card_index import main

if __name__ == "__main__":
    raise SystemExit(main())
