"""The globs of a repository configuration (``include``, ``exclude``, ``[folders]``, ``[ignore]``);
see :mod:`deckcheck.run.config` for their rules. A module of its own, so the configuration's
pydantic model can check them without importing the configuration.

They are compiled by the one glob engine, :mod:`deckcheck.source.glob` (no backtracking, a cap on
pattern length), the one ``.gitignore`` files and ``--exclude`` use too.
"""

from __future__ import annotations

from deckcheck.source.glob import Glob as Glob
from deckcheck.source.glob import matches as matches
from deckcheck.source.glob import path_glob as glob_regex

__all__ = ["Glob", "glob_regex", "matches"]
