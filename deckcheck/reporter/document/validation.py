"""The validation and upcoming documents: a deck's verdict, a run's totals, the
unreadable and skipped sources, and what the next list does to each deck."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from deckcheck.reporter.document.base import OMIT_NONE, Doc, Src
from deckcheck.reporter.document.meta import MetaDocument
from deckcheck.reporter.document.shape import Merged
from deckcheck.source.record import SkipReason, UnreadableReason


def _points(report: Any) -> Any:
    """A report's points: the report itself in a point format (its total, cap and cards)."""
    return None if report.point_cap is None else report


def _registration(row: Any) -> Any:
    """A row's registration with the status the row's verdict gives it."""
    from deckcheck.source.registration import status_of

    reg = getattr(row, "registration", None)
    return None if reg is None else Merged(reg, {"status": status_of(row, reg)})


def _results(batch: Any) -> Any:
    """A batch's results: each checked row over its report (or the bare reports)."""
    checked = batch.checked
    return [Merged(c.report, c) for c in checked] if checked else batch.reports


def _data(batch: Any) -> dict[str, Any]:
    return {"as_of": batch.data_as_of, "fingerprint": batch.data_fingerprint}


def _next_list(deck: Any) -> Any:
    """A forecast's next list, with its first day where the deck is checked."""
    nxt = deck.next_list
    return None if nxt is None else Merged({"effective": deck.takes_effect or nxt.effective}, nxt)


def _outlooks(forecast: Any) -> dict[str, int]:
    from deckcheck.run.forecast import Outlook

    counts = {o.name.lower(): forecast.count(o) for o in Outlook}
    return {"decks": len(forecast.decks), **counts} | {
        "unreadable": len(forecast.unreadable),
        "skipped": len(forecast.skipped),
    }


def _unregistered(forecast: Any) -> list[Any]:
    """A forecast's unreadable sources (it lists no registrations)."""
    return [Merged({"registration": None}, u) for u in forecast.unreadable]


class ViolationDoc(Doc):
    """One finding in a deck."""

    not_fields = frozenset({"facts"})  # (the message's facts: the translations read them)

    code: str = Field(description="Stable kebab-case violation code (README table).")
    severity: Literal["error", "warning", "note"]
    section: Literal["main", "extra", "side"] | None = None
    passcode: int | None = None
    name: str | None = None
    found: int | None = None
    allowed: int | None = None
    line: int | None = Field(None, description="Line of the deck file, where known.")
    text: str | None = Field(
        None, description="The line as written, for lines that name no card (unknown, parse)."
    )
    message: str
    name_local: str | None = Field(
        None,
        description="With --lang ja or zh: the card's name in that language (English "
        "when it has none).",
    )
    message_local: str | None = Field(
        None, description="With --lang ja or zh: the message in that language."
    )


class BanlistRefDoc(Doc):
    """The ban list a deck was checked against."""

    name: str
    effective: str


class CountsDoc(Doc):
    """Cards counted in each section."""

    main: int
    extra: int
    side: int


class PointCardDoc(Doc):
    """A card that adds points: copies x points of one copy."""

    name: str
    passcode: int
    copies: int
    each: int
    points: int


class PointsDoc(Doc):
    """Point total and cap (point formats only)."""

    total: Annotated[int | None, Src("points")]
    cap: Annotated[int, Src("point_cap")]
    cards: Annotated[list[PointCardDoc], Src("point_cards")] = Field(
        default_factory=list, description="The cards that make the total, largest first."
    )


class RegistrationDoc(Doc):
    """The registration (row of a registrations CSV) a deck belongs to."""

    file: str = Field(description="The registrations CSV.")
    row: int = Field(
        description="The row as a spreadsheet shows it (the header is row 1; a multi-line cell "
        "is one row)."
    )
    line: Annotated[int | None, Src(lambda r: r.line or r.row)] = Field(
        None, description="The line of the CSV file the row starts on."
    )
    player_id: str
    player: str
    deck: str = Field(description="The deck cell as written: a path, a ydke:// URL or a list.")
    fields: dict[str, str] = Field(description="The CSV's other columns, by header.")
    duplicate_of: int | None = Field(
        None, description="Row of the first registration with the same player id."
    )
    status: Literal["legal", "illegal", "unreadable", "duplicate"]


class ResultDoc(Doc):
    """The verdict on one deck."""

    path: str | None
    format: str
    era: str
    banlist: BanlistRefDoc | None
    date: str
    legal: bool
    counts: CountsDoc
    violations: list[ViolationDoc]
    points: Annotated[PointsDoc | None, Src(_points), OMIT_NONE] = Field(
        None, description="Only for point formats (Genesys)."
    )
    name: str | None = Field(None, description="The deck's own name, if the file gives one.")
    data_fingerprint: str | None = Field(None, description="Dataset the deck was checked against.")
    fingerprint: str | None = Field(
        None, description="Short hash of the deck's contents (order and artwork do not count)."
    )
    registration: Annotated[RegistrationDoc | None, Src(_registration), OMIT_NONE] = Field(
        None, description="Only for decks from a registrations CSV."
    )


class SummaryDoc(Doc):
    """Totals of a run."""

    decks: int
    legal: int
    illegal: int
    errors: int
    warnings: int
    notes: int
    unreadable: int
    skipped: int = 0
    duplicates: int = Field(0, description="Registrations whose player id was already used.")


class UnreadableDoc(Doc):
    """A source that could not be read."""

    path: str
    code: UnreadableReason = Field(description="Why, as a stable code (README table).")
    error: str = Field(description="The message, naming the source and the line where known.")
    line: int | None = None
    registration: Annotated[RegistrationDoc | None, Src(_registration), OMIT_NONE] = None


class SkippedDoc(Doc):
    """A file a folder scan did not take for a deck."""

    path: str
    code: SkipReason = Field(description="Why, as a stable code (README table).")
    reason: str = Field(description="The code's meaning in words.")


class DataDoc(Doc):
    """The dataset a run used."""

    as_of: str | None
    fingerprint: str | None


class ValidationDocument(Doc):
    """``deckcheck validate --output json``: every deck's verdict, unreadable sources, totals."""

    results: Annotated[list[ResultDoc], Src(_results)]
    summary: SummaryDoc
    unreadable: list[UnreadableDoc] = Field(description="Sources that could not be read.")
    skipped: list[SkippedDoc] = Field(default_factory=list)
    format: str | None = None
    date: str | None = None
    data: Annotated[DataDoc | None, Src(_data)] = None
    meta: MetaDocument | None = Field(
        None, description="deckcheck batch's report.json: the metagame of the decks read."
    )


class NextListDoc(Doc):
    """The next list of a deck's format."""

    name: str
    effective: str = Field(
        description="First day in force where the deck is checked (the format's TCG region: "
        "na or eu, as --region)."
    )
    announced: str | None


class CardChangeDoc(Doc):
    """A card of the deck whose status (or points) changes on the next list."""

    name: str
    passcode: int
    copies: int = Field(description="Copies of the card name in the deck.")
    before: int | None = Field(description="Copies allowed (or points) now; null: not listed.")
    after: int | None = Field(description="Copies allowed (or points) on the next list.")
    points: bool
    line: int | None
    message: Annotated[str, Src(lambda c: c.describe())]


class DeckForecastDoc(Doc):
    """One deck on the date and under the next list."""

    not_fields = frozenset({"now", "then", "effective"})

    path: str
    format: str
    outlook: Literal["becomes-illegal", "new-errors", "changes", "unaffected", "no-list"]
    legal_now: Annotated[bool, Src(lambda d: d.now.legal)]
    legal_then: Annotated[bool | None, Src(lambda d: None if d.then is None else d.then.legal)]
    next_list: Annotated[NextListDoc | None, Src(_next_list)]
    new_errors: list[ViolationDoc]
    changes: list[CardChangeDoc]


class UpcomingSummaryDoc(Doc):
    """Decks by outlook."""

    decks: int
    becomes_illegal: int = Field(alias="becomes-illegal")
    new_errors: int = Field(alias="new-errors")
    changes: int
    unaffected: int
    no_list: int = Field(alias="no-list")
    unreadable: int
    skipped: int


class UpcomingDocument(Doc):
    """``deckcheck upcoming --output json``: what the next announced list does to each deck."""

    date: str
    decks: list[DeckForecastDoc]
    summary: Annotated[UpcomingSummaryDoc, Src(_outlooks)]
    unreadable: Annotated[list[UnreadableDoc], Src(_unregistered)]
    skipped: list[SkippedDoc] = Field(default_factory=list)
    data_as_of: str | None
