"""The check of data rebuilt from upstream against the data in use."""

from __future__ import annotations

from deckcheck.data.dataset import Dataset
from deckcheck.error import UpdateError

SHRINK_TOLERANCE = 0.01
"""A rebuilt card index may hold at most this fraction fewer cards than the data in use."""


def guard(new: Dataset, old: Dataset) -> None:
    """Refuse a rebuilt bundle that lost lists or cards the data in use has (UpdateError)."""
    old_lists = {(b.family, b.effective) for b in old.banlists.lists()}
    new_lists = {(b.family, b.effective) for b in new.banlists.lists()}
    lost = sorted(old_lists - new_lists)
    if lost:
        sample = ", ".join(f"{f} {d.isoformat()}" for f, d in lost[:5])
        raise UpdateError(
            f"the rebuilt data lacks {len(lost)} ban lists the data in use has ({sample}...); "
            "the sources are incomplete"
        )
    if len(new.cards) < len(old.cards) * (1 - SHRINK_TOLERANCE):
        raise UpdateError(
            f"the rebuilt card index holds {len(new.cards):,} cards, the data in use "
            f"{len(old.cards):,}; the sources are incomplete"
        )
