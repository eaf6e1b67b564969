"""The metagame JSON document (``deckcheck meta --output json``, ``deckcheck schema meta``, the
``meta`` of a batch's ``report.json`` and ``POST /v1/meta``) as pydantic models."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from deckcheck.reporter.document.base import Doc, Round, Src
from deckcheck.reporter.document.shape import Merged


class ArchetypeShareDoc(Doc):
    """One archetype label of the breakdown."""

    label: str = Field(description="The archetype, 'A / B' for a hybrid, or 'rogue'.")
    kind: Literal["archetype", "hybrid", "rogue"]
    decks: int
    share: Annotated[float, Round(4)] = Field(description="Share of the decks read (0-1).")


class CardUsageDoc(Doc):
    """One card of the field."""

    passcode: int
    name: str
    decks: int = Field(description="Decks playing it.")
    share: Annotated[float, Round(4)] = Field(
        description="Share of the decks read that play it (0-1)."
    )
    copies: int = Field(description="Copies over every deck.")
    average: Annotated[float, Round(2)] = Field(
        description="Average copies in the decks that play it."
    )


class ScoreDoc(Doc):
    """An archetype's Main + Extra copies in one deck."""

    archetype: str
    copies: int


class UnreadLineDoc(Doc):
    """A line of a deck that names no card."""

    line: int | None
    code: str = Field(description="The finding's code: unknown-card, ambiguous-card, parse.")
    text: str | None


class MetaEntryDoc(Doc):
    """One deck of the field and its archetype."""

    source: str
    name: str | None = None
    player: str | None = None
    label: str
    kind: Literal["archetype", "hybrid", "rogue"]
    archetypes: list[str]
    scores: Annotated[
        list[ScoreDoc], Src(lambda e: [{"archetype": a, "copies": n} for a, n in e.scores])
    ]
    copies: int = Field(description="Main + Extra copies of the deck.")
    signature: bool = Field(description="True when the organiser's signature cards decided it.")
    unread: list[UnreadLineDoc] = Field(
        default_factory=list, description="The deck's lines that name no card (not counted)."
    )


class MetaUnreadableDoc(Doc):
    """A source that could not be read."""

    source: Annotated[str, Src("path")]
    code: str = Field(description="Why, as an unreadable code (README table).")
    error: str


class MetaSkippedDoc(Doc):
    """A file a scan left out."""

    path: str
    code: str = Field(description="Why, as a skip code (README table).")
    reason: str


def _entries(meta: Any) -> list[Merged]:
    """Each deck of the field over its archetype (one flat object in the document)."""
    return [Merged(e, e.archetype) for e in meta.entries]


class MetaDocument(Doc):
    """``deckcheck meta --output json``: what the field is playing."""

    decks: int = Field(description="Decks read.")
    archetypes: list[ArchetypeShareDoc] = Field(description="Most decks first, rogue last.")
    most_played: list[CardUsageDoc] = Field(description="Cards of any section, most decks first.")
    main: list[CardUsageDoc] = Field(description="Main + Extra Deck staples.")
    side: list[CardUsageDoc] = Field(description="Side Deck staples.")
    entries: Annotated[list[MetaEntryDoc], Src(_entries)]
    unread_lines: int = Field(0, description="Lines of the decks read that name no card.")
    unreadable: list[MetaUnreadableDoc] = Field(default_factory=list)
    skipped: list[MetaSkippedDoc] = Field(default_factory=list)
