#!/usr/bin/env python3
"""Build the project's ban-list files from the shared ban-list sources, reconciling them.

The builder is library code, :mod:`deckcheck.data.builders.banlists` (``deckcheck data update
--from-upstream`` runs it in-process); this is its command line, run from a source checkout::

    python scripts/build_banlists.py --help
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deckcheck.data.builders.banlists import main

if __name__ == "__main__":
    sys.exit(main())
