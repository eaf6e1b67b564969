"""Comparing two decks: what a played deck is missing or has extra against the registered one.

Cards compare by their *canonical* card, section by section (see
:func:`deckcheck.deck.model.canonical_counts`): order, file format and alternate artworks never
make
a difference; moving a card between sections does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from deckcheck.deck.model import Deck, ReadFinding, Section, canonical_counts, fingerprint_deck

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset


@dataclass(frozen=True, slots=True)
class CardDelta:
    """Copies of one card that one deck has and the other lacks, in one section."""

    section: Section
    passcode: int
    """The canonical card's passcode."""
    name: str
    """Its English name (``#<passcode>`` for a card the index does not know)."""
    count: int


@dataclass(frozen=True, slots=True)
class DeckDiff:
    """Registered deck vs played deck: what is missing from the played one and what is extra."""

    missing: tuple[CardDelta, ...]
    """In the registered deck, not in the played one."""
    extra: tuple[CardDelta, ...]
    """In the played deck, not in the registered one."""
    registered_fingerprint: str
    played_fingerprint: str
    registered_unread: tuple[ReadFinding, ...] = ()
    """Lines of the registered deck that name no card (:attr:`Deck.unread`)."""
    played_unread: tuple[ReadFinding, ...] = ()
    """Lines of the played deck that name no card."""

    @property
    def same(self) -> bool:
        """True when both decks hold the same cards in the same sections and every line of
        both was read (a deck with unread lines is never the same as another)."""
        return not self.missing and not self.extra and not self.unread

    @property
    def unread(self) -> bool:
        """Whether either deck has lines that name no card (then nothing is called the same)."""
        return bool(self.registered_unread or self.played_unread)


def compare_decks(registered: Deck, played: Deck, data: Dataset | None = None) -> DeckDiff:
    """What ``played`` is missing and has extra, per section, against ``registered``, and the
    lines of either that name no card (then the decks are never :attr:`DeckDiff.same`).

    Card names come from the card index of ``data`` (default: the active dataset).
    """
    from deckcheck.data.dataset import resolve_data

    index = resolve_data(data).cards

    def name(code: int) -> str:
        return index.get(code).name if code in index else f"#{code}"

    reg, got = canonical_counts(registered), canonical_counts(played)
    missing: list[CardDelta] = []
    extra: list[CardDelta] = []
    for section in Section:
        a, b = reg[section], got[section]
        for code in sorted(set(a) | set(b), key=lambda c: (name(c), c)):
            delta = b[code] - a[code]
            if delta < 0:
                missing.append(CardDelta(section, code, name(code), -delta))
            elif delta > 0:
                extra.append(CardDelta(section, code, name(code), delta))
    return DeckDiff(
        tuple(missing),
        tuple(extra),
        fingerprint_deck(registered),
        fingerprint_deck(played),
        registered.unread,
        played.unread,
    )
