"""Decks: the immutable ``Deck`` model (``deck.model``), one reader and writer per file format
(``deck.io``), and deck comparison (``deck.compare``).

The model's names are re-exported here, so ``from deckcheck.deck import Deck`` reads as before.
"""

from __future__ import annotations

from deckcheck.deck.model import (
    FINGERPRINT_LENGTH,
    Deck,
    DeckCard,
    FindingCode,
    ReadFinding,
    Section,
    canonical_counts,
    fingerprint_deck,
)

__all__ = [
    "FINGERPRINT_LENGTH",
    "Deck",
    "DeckCard",
    "FindingCode",
    "ReadFinding",
    "Section",
    "canonical_counts",
    "fingerprint_deck",
]
