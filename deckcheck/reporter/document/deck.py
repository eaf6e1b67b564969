"""The documents of two decks compared (``deckcheck diff``, a judge's check of an event
registration) and of a side plan applied (``deckcheck side``)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from deckcheck.reporter.document.base import Doc, Src
from deckcheck.reporter.document.meta import UnreadLineDoc
from deckcheck.reporter.document.validation import ResultDoc


class CardDeltaDoc(Doc):
    """Copies of one card one deck has and the other lacks, in one section."""

    section: str
    passcode: int = Field(description="The canonical card's passcode.")
    name: str
    count: int


class UnreadByDeckDoc(Doc):
    """The lines of each deck that name no card."""

    registered: Annotated[list[UnreadLineDoc], Src("registered_unread")]
    played: Annotated[list[UnreadLineDoc], Src("played_unread")]


class DeckDiffDoc(Doc):
    """What the played deck is missing and has extra against the registered one."""

    same: bool = Field(description="Same cards in the same sections, and every line read.")
    registered_fingerprint: str
    played_fingerprint: str
    missing: list[CardDeltaDoc]
    extra: list[CardDeltaDoc]
    unread: Annotated[UnreadByDeckDoc, Src(lambda d: d)]


class _Sources(Doc):
    registered: str | None = Field(description="The registered deck's source.")
    played: str | None = Field(description="The played deck's source.")


class DiffDocument(DeckDiffDoc, _Sources):
    """``deckcheck diff --output json``: the two decks' sources, then their difference."""


class _Registration(Doc):
    registration_id: Annotated[str, Src(lambda c: c.entry.id)]
    player: Annotated[str, Src(lambda c: c.entry.player)]
    player_id: Annotated[str, Src(lambda c: c.entry.player_id)]
    locked: bool = Field(description="The registration can no longer change.")


class CheckDocument(DeckDiffDoc, _Registration):
    """A judge's check of a played deck against an event registration."""


class MovedCardDoc(Doc):
    """A card and its copies."""

    name: str
    passcode: int
    copies: int


class PlanProblemDoc(Doc):
    """One problem of a side plan."""

    code: str
    message: str
    name: str | None
    passcode: int | None


def _cards(triples: Any) -> list[dict[str, Any]]:
    return [{"name": n, "passcode": c, "copies": k} for n, c, k in triples]


class SideResultDocument(Doc):
    """``deckcheck side --output json``: the sided deck, the plan's problems, its verdict."""

    not_fields = frozenset({"deck", "moved_in", "moved_out"})

    ok: bool = Field(description="The plan has no problem and the sided deck is legal.")
    moved: dict[str, int]
    cards_in: Annotated[list[MovedCardDoc], Src(lambda r: _cards(r.moved_in))]
    cards_out: Annotated[list[MovedCardDoc], Src(lambda r: _cards(r.moved_out))]
    deck: Annotated[
        dict[str, list[MovedCardDoc]],
        Src(lambda r: {part: _cards(got) for part, got in r.sections.items()}),
    ]
    problems: list[PlanProblemDoc]
    result: Annotated[ResultDoc, Src("report")]
