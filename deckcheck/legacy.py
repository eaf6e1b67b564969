"""Old import paths, kept for one release.

Before 0.2 the package was flat (``deckcheck.batch``, ``deckcheck.card``, ``deckcheck.io``, ...).
Those paths still import, with a ``DeprecationWarning``, and give the very module of the new layout
(``deckcheck.run.batch``, ``deckcheck.card``, ``deckcheck.deck.io``, ...), so objects are
identical whichever path found them. The table is the one place that lists the moves.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import warnings
from types import ModuleType

#: old module path -> new module path (a package's submodules follow their package)
MOVED: dict[str, str] = {
    "deckcheck.format": "deckcheck.rule.format",
    "deckcheck.banlist": "deckcheck.rule.banlist",
    "deckcheck.dataset": "deckcheck.data.dataset",
    "deckcheck.store": "deckcheck.data.store",
    "deckcheck.update": "deckcheck.data.update",
    "deckcheck.upstream": "deckcheck.data.upstream",
    "deckcheck.bundle": "deckcheck.data.bundle",
    "deckcheck.io": "deckcheck.deck.io",
    "deckcheck.comparison": "deckcheck.deck.compare",
    "deckcheck.siding": "deckcheck.run.siding",
    "deckcheck.archive": "deckcheck.source.archive",
    "deckcheck.registration": "deckcheck.source.registration",
    "deckcheck.report": "deckcheck.validation.report",
    "deckcheck.batch": "deckcheck.run.batch",
    "deckcheck.config": "deckcheck.run.config",
    "deckcheck.configfile": "deckcheck.run.configfile",
    "deckcheck.forecast": "deckcheck.run.forecast",
}


def new_name(old: str) -> str | None:
    """The module path of the new layout for an old one, or None if ``old`` did not move."""
    for prefix, target in MOVED.items():
        if old == prefix or old.startswith(prefix + "."):
            return target + old[len(prefix) :]
    return None


class _AliasLoader:
    """Loads an old path by importing the new one and putting that very module in its place
    (a loader by its methods: ``importlib.abc`` costs milliseconds at every start)."""

    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None  # a placeholder; exec_module swaps the real module in

    def exec_module(self, module: ModuleType) -> None:
        warnings.warn(
            f"{module.__name__} moved to {self.target}; the old path goes in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        sys.modules[module.__name__] = importlib.import_module(self.target)


class _AliasFinder:
    """Finds the old module paths listed in ``MOVED``."""

    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = new_name(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(new))  # type: ignore[arg-type]


def install() -> None:
    """Make the old import paths work (idempotent; ``import deckcheck`` calls it)."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())
