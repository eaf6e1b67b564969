"""The seam through which the lower stages (cards, rules) get a dataset when their caller passed
none, without importing the data stage above them.

Every function of :mod:`deckcheck.card` and :mod:`deckcheck.rule` takes the dataset it works on
(``data=``); only when that is left out does it ask :func:`resolve`, which calls the resolver the
data stage installed on import (:func:`deckcheck.data.dataset.resolve_data`: the active
dataset). Nothing here imports a stage above.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset

_resolver: Callable[[Any], Any] | None = None


def install(resolver: Callable[[Any], Any]) -> None:
    """Install the function that turns ``None`` into the active dataset (the data stage's)."""
    global _resolver
    _resolver = resolver


def resolve(data: Dataset | None) -> Dataset:
    """``data``, or the active dataset when None."""
    if data is not None:
        return data
    if _resolver is None:  # only before ``import deckcheck`` finished
        raise RuntimeError("no active-data resolver: import deckcheck first")
    got: Dataset = _resolver(None)
    return got
