"""Genesys: which cards make a deck's point total (largest first)."""

from __future__ import annotations

from collections.abc import Iterable

from deckcheck.deck.model import DeckCard
from deckcheck.validation.report import PointCard


def points_by_card(cards: Iterable[DeckCard], points: dict[int, int]) -> tuple[PointCard, ...]:
    """The cards with points among ``cards`` (Main + Extra + Side), one entry per card name.

    ``points`` maps a passcode to the points of one copy. Entries are ordered by the points
    they add, largest first, then by name.
    """
    copies: dict[str, list[int]] = {}
    for dc in cards:
        each = points.get(dc.passcode, 0)
        if each:
            name = dc.card.limit_name if dc.card is not None else dc.name
            got = copies.setdefault(name, [dc.passcode, 0, each])
            got[1] += 1
            got[2] = max(got[2], each)
    out = [PointCard(name, pc, n, each) for name, (pc, n, each) in copies.items()]
    out.sort(key=lambda c: (-c.points, c.name))
    return tuple(out)
