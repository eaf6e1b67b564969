"""deckcheck's test suite.

The suite keeps compiled bytecode, its own and that of every CLI child it starts, under
``.pytest_cache/bytecode`` even where ``PYTHONDONTWRITEBYTECODE`` is set: without it each test
module is compiled and assertion-rewritten again on every run, and every ``deckcheck`` child
process compiles the package from source. The source tree gets no ``__pycache__`` folders.
"""

import os
import sys
from pathlib import Path

if sys.flags.dont_write_bytecode or os.environ.get("PYTHONDONTWRITEBYTECODE"):
    _CACHE = Path(__file__).resolve().parent.parent / ".pytest_cache" / "bytecode"
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"] = str(_CACHE)
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
