"""The metagame's records: the archetype rule's thresholds and signatures, one deck's archetype,
the field's breakdown (:mod:`deckcheck.run.meta` computes them)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from deckcheck.deck.model import ReadFinding
from deckcheck.source.record import Skipped, Unreadable

GENERIC: frozenset[str] = frozenset(
    {
        "Polymerization|Fusion",
        "Fusion",
        "Xyz",
        "Synchro",
        "Pendulum",
        "Link",
        "Ritual",
        "Number",
        "Number C",
        "CXyz",
        "Rank-Up-Magic",
        "Rank-Down-Magic",
        "Speed Spell",
        "Pendulum Dragon",
        "Spell Card",
        "Trap Card",
        "Token",
    }
)
"""Archetype tags of the card data that name a mechanic, not a deck (never counted)."""

ROGUE = "rogue"
"""The label of a deck with no archetype present."""
TOP = 20
"""Default length of the card tables."""


class ArchetypeKind(enum.StrEnum):
    """How a deck's archetype was decided."""

    ARCHETYPE = "archetype"
    """One archetype dominates the deck."""
    HYBRID = "hybrid"
    """Two or more archetypes are present and none dominates."""
    ROGUE = "rogue"
    """No archetype is present."""


@dataclass(frozen=True, slots=True)
class Signature:
    """An organiser's signature cards of one archetype (canonical passcodes)."""

    archetype: str
    cards: frozenset[int]
    min: int = 1
    """Distinct signature cards a deck needs to be this archetype."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The thresholds of the archetype rule (module docstring) and the organiser's signatures."""

    share: float = 0.15
    min_copies: int = 6
    dominance: float = 2.0
    generic: frozenset[str] = GENERIC
    signatures: tuple[Signature, ...] = ()


@dataclass(frozen=True, slots=True)
class DeckArchetype:
    """One deck's archetype: its label, how it was decided, and the copies that decided it."""

    label: str
    """``"Cyber Dragon"``, ``"Blue-Eyes / Dark Magician"`` (hybrid) or ``"rogue"``."""
    kind: ArchetypeKind
    archetypes: tuple[str, ...]
    """The archetype(s) the label names (empty for rogue)."""
    scores: tuple[tuple[str, int], ...]
    """Archetypes with their Main + Extra copies (most first, at most five)."""
    copies: int
    """Main + Extra copies of the deck."""
    signature: bool = False
    """True when an organiser's signature cards decided it."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One deck of the field: where it came from and its archetype."""

    source: str
    archetype: DeckArchetype
    name: str | None = None
    player: str | None = None
    contents: tuple[tuple[str, int, int], ...] = field(default=(), repr=False)
    """The deck's cards (:func:`deck_contents`)."""
    unread: tuple[ReadFinding, ...] = ()
    """The deck's lines that name no card (:attr:`~deckcheck.deck.model.Deck.unread`): not
    counted in the breakdown, counted in :attr:`Metagame.unread_lines`."""


@dataclass(frozen=True, slots=True)
class ArchetypeShare:
    """An archetype label of the breakdown: decks playing it and their share of the field."""

    label: str
    kind: ArchetypeKind
    decks: int
    share: float


@dataclass(frozen=True, slots=True)
class CardUsage:
    """A card of the field: decks playing it, their share, copies in total and on average."""

    passcode: int
    name: str
    decks: int
    share: float
    copies: int
    average: float
    """Average copies in the decks that play it."""


@dataclass(frozen=True, slots=True)
class Metagame:
    """The breakdown of a field of decks."""

    decks: int
    archetypes: tuple[ArchetypeShare, ...]
    most_played: tuple[CardUsage, ...]
    """Cards over every section, by decks playing them."""
    main: tuple[CardUsage, ...]
    """Main + Extra Deck staples, by decks playing them."""
    side: tuple[CardUsage, ...]
    """Side Deck staples, by decks playing them."""
    entries: tuple[Entry, ...] = ()
    unreadable: tuple[Unreadable, ...] = ()
    """The sources that could not be read (each with its code)."""
    skipped: tuple[Skipped, ...] = ()
    """The files a scan left out (each with its code)."""

    @property
    def unread_lines(self) -> int:
        """Lines of the decks read that name no card (not counted in the breakdown)."""
        return sum(len(e.unread) for e in self.entries)


DEFAULT_RULES = Rules()
