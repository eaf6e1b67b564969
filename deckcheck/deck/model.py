"""Decks: immutable values with every card's section and source line remembered.

Readers (``deckcheck.deck.io``) build a :class:`Deck`; validation and simulation read it. A card
the
index does not know keeps its passcode (``card`` is None) so nothing in the file is lost; a line
that could not be resolved to a card at all becomes a :class:`ReadFinding`.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Iterator

from msgspec import Struct

from deckcheck.card import Card, Match


class Section(enum.StrEnum):
    """A part of a deck."""

    MAIN = "main"
    EXTRA = "extra"
    SIDE = "side"


class DeckCard(Struct, frozen=True):
    """One copy of a card in a deck section.

    ``passcode`` is the code as the file gave it (or the resolved record's code for names);
    ``card`` the index record for it (None if the index does not know the code); ``line`` the
    1-based source line where known; ``match`` how the index resolved it.
    """

    passcode: int
    section: Section
    card: Card | None = None
    line: int | None = None
    match: Match | None = None

    @property
    def name(self) -> str:
        """The card's English name, or ``#<passcode>`` for unknown cards."""
        return self.card.name if self.card is not None else f"#{self.passcode}"


class FindingCode(enum.StrEnum):
    """Codes of the problems a reader finds in lines it could read but not resolve."""

    UNKNOWN_CARD = "unknown-card"
    AMBIGUOUS_CARD = "ambiguous-card"
    PARSE = "parse"
    MISSING_SECTIONS = "missing-sections"
    """The file lacks section headers its format always writes (a truncated ``.ydk``)."""
    PRERELEASE_CODE = "prerelease-code"
    """A pre-release code of a card since released, read as the released card."""


class ReadFinding(Struct, frozen=True):
    """A line the reader could not turn into a card (validation reports it)."""

    code: FindingCode
    message: str
    line: int | None = None
    text: str | None = None
    section: Section | None = None
    suggestions: tuple[str, ...] = ()
    passcode: int | None = None
    count: int = 1
    """How many copies the line asked for (``3x Pot of Grid`` -> 3)."""
    name: str | None = None
    """The card name the line gives, without its quantity (``Pot of Grid``), where it has one."""


class Deck(Struct, frozen=True):
    """A deck: Main, Extra and Side sections in file order, plus what the reader found.

    ``source`` names where it came from (a path, ``<stdin>``, a URL); ``source_format`` the
    reader used (``ydk``, ``ydke``, ``text``, ``omega``, ``json``).
    """

    main: tuple[DeckCard, ...] = ()
    extra: tuple[DeckCard, ...] = ()
    side: tuple[DeckCard, ...] = ()
    name: str | None = None
    source: str | None = None
    source_format: str | None = None
    findings: tuple[ReadFinding, ...] = ()
    cover: int | None = None
    """The cover card's passcode, for a deck read from an Omega code that names one (only Omega
    codes hold it; it is not a card of the deck)."""

    def section(self, section: Section) -> tuple[DeckCard, ...]:
        """The cards of one section."""
        if section is Section.MAIN:
            return self.main
        if section is Section.EXTRA:
            return self.extra
        return self.side

    def __iter__(self) -> Iterator[DeckCard]:
        yield from self.main
        yield from self.extra
        yield from self.side

    def __len__(self) -> int:
        return len(self.main) + len(self.extra) + len(self.side)

    @property
    def counts(self) -> dict[str, int]:
        """Cards per section: ``{"main": n, "extra": n, "side": n}``."""
        return {"main": len(self.main), "extra": len(self.extra), "side": len(self.side)}

    @property
    def unread(self) -> tuple[ReadFinding, ...]:
        """Every line the reader did not turn into a card (unknown or ambiguous names, lines
        that are not cards), in file order, each with its line number and code. Unknown
        passcodes are cards (kept, with ``card`` None) and are not in it."""
        return tuple(
            f
            for f in self.findings
            if f.passcode is None and f.code is not FindingCode.MISSING_SECTIONS
        )

    def passcodes(self, section: Section) -> list[int]:
        """The passcodes of a section, in order."""
        return [c.passcode for c in self.section(section)]

    def multiset(self) -> dict[Section, Counter[int]]:
        """Per section, how many copies of each passcode (order-free comparison of decks)."""
        return {s: Counter(self.passcodes(s)) for s in Section}

    @classmethod
    def from_cards(
        cls,
        cards: Iterable[DeckCard],
        *,
        name: str | None = None,
        source: str | None = None,
        source_format: str | None = None,
        findings: Iterable[ReadFinding] = (),
        cover: int | None = None,
    ) -> Deck:
        """Build a deck from cards in any order (each keeps its own section)."""
        by: dict[Section, list[DeckCard]] = {s: [] for s in Section}
        for c in cards:
            by[c.section].append(c)
        return cls(
            tuple(by[Section.MAIN]),
            tuple(by[Section.EXTRA]),
            tuple(by[Section.SIDE]),
            name,
            source,
            source_format,
            tuple(findings),
            cover,
        )


FINGERPRINT_LENGTH = 16
"""Hex digits of a deck fingerprint (64 bits)."""


def canonical_counts(deck: Deck) -> dict[Section, Counter[int]]:
    """Per section, copies of each *canonical* card: alternate artworks, pre-release codes and
    format variants count as their original card; unknown passcodes count as themselves."""
    return {
        section: Counter([c.card.canonical if c.card is not None else c.passcode for c in cards])
        for section, cards in (
            (Section.MAIN, deck.main),
            (Section.EXTRA, deck.extra),
            (Section.SIDE, deck.side),
        )
    }


def fingerprint_deck(deck: Deck) -> str:
    """A short stable hash of the deck's contents: copies per canonical card per section.

    Card order, file format, the deck's name and alternate artworks do not change it; moving a
    card between sections or changing one copy does. It is the first :data:`FINGERPRINT_LENGTH`
    hex digits of the sha256 of ``main:<code>x<n>,...;extra:...;side:...`` (codes ascending),
    so anyone can recompute it. Lines that name no card (:attr:`Deck.unread`) cannot be part
    of it: the faces refuse to fingerprint a deck that has any.
    """
    return fingerprint_counts(canonical_counts(deck))


def fingerprint_counts(counts: dict[Section, Counter[int]]) -> str:
    """:func:`fingerprint_deck` of a deck whose :func:`canonical_counts` are ``counts``."""
    import hashlib

    parts = []
    for section, counts_of in counts.items():
        body = ",".join(f"{code}x{n}" for code, n in sorted(counts_of.items()))
        parts.append(f"{section.value}:{body}")
    return hashlib.sha256(";".join(parts).encode("ascii")).hexdigest()[:FINGERPRINT_LENGTH]
