"""The rows of a run: one checked deck with the facts a batch adds around its verdict.

A :class:`~deckcheck.validation.report.Report` is one deck's verdict and knows nothing of batches.
A :class:`Checked` row wraps it with what only a run knows: the deck's fingerprint, the
registration (CSV row) it came from, and the codes the run's plan ignored. A batch's rows are
``Checked`` or :class:`~deckcheck.source.record.Unreadable`, in source order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import chain, repeat
from operator import attrgetter, is_
from typing import TYPE_CHECKING

from msgspec import Struct

if TYPE_CHECKING:
    from deckcheck.deck.model import Deck, DeckCard, ReadFinding, Section
    from deckcheck.source.registration import Registration
    from deckcheck.validation.report import Report, Violation


Contents = tuple[tuple[str, int, int], ...]
"""A deck's cards as ``(section, canonical passcode, copies)`` (``Checked.contents``)."""


def deck_contents(deck: Deck, counts: Mapping[Section, Counter[int]] | None = None) -> Contents:
    """The deck's known cards as ``(section, canonical passcode, copies)``, sorted; unknown
    passcodes are left out (alternate artworks count as their original card).

    ``counts``, the deck's :func:`~deckcheck.deck.model.canonical_counts` when already known,
    saves counting again."""
    out: list[tuple[str, int, int]] = []
    if counts is not None and not any(map(is_, map(_CARD, _cards(deck)), repeat(None))):
        for part, got in counts.items():
            tag = part.value
            out.extend([(tag, code, n) for code, n in got.items()])
    else:
        for name, cards in (("main", deck.main), ("extra", deck.extra), ("side", deck.side)):
            got = Counter([c.card.canonical for c in cards if c.card is not None])
            out.extend([(name, code, n) for code, n in got.items()])
    out.sort()
    return tuple(out)


_CARD = attrgetter("card")
"""(``None in`` cards would compare each card to None by its ``__eq__``: ``is_`` is read in C.)"""


def _cards(deck: Deck) -> chain[DeckCard]:
    return chain(deck.main, deck.extra, deck.side)


class Checked(Struct, frozen=True):
    """One deck checked by a run: its report, fingerprint, registration and ignored codes."""

    report: Report
    """The deck's verdict (ignored codes already removed)."""
    fingerprint: str
    """The deck's own fingerprint (:func:`~deckcheck.deck.model.fingerprint_deck`)."""
    registration: Registration | None = None
    """The registration (row of a registrations CSV) the deck belongs to, if any."""
    ignored: frozenset[str] = frozenset()
    """Violation codes the run's plan left out of the report."""
    contents: Contents = ()
    """The deck's cards as ``(section, canonical passcode, copies)`` (the batch's metagame is
    computed from them: :mod:`deckcheck.run.meta`)."""
    unread: tuple[ReadFinding, ...] = ()
    """The deck's lines that name no card (:attr:`~deckcheck.deck.model.Deck.unread`; the
    report has a finding for each)."""
    deck: Deck | None = None
    """The deck as read, when the run keeps it (``check(keep_decks=True)``: for the builders
    that need every card, as registration sheets do, without reading the source again)."""

    @property
    def legal(self) -> bool:
        """The report's verdict."""
        return self.report.legal

    @property
    def path(self) -> str | None:
        """Where the deck came from."""
        return self.report.path

    @property
    def name(self) -> str | None:
        """The deck's own name, if it has one."""
        return self.report.name

    @property
    def violations(self) -> tuple[Violation, ...]:
        """The report's violations."""
        return self.report.violations

    @property
    def errors(self) -> tuple[Violation, ...]:
        """The report's violations of severity error."""
        return self.report.errors

    @property
    def counts(self) -> dict[str, int]:
        """Cards per section."""
        return self.report.counts
