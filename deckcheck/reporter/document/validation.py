"""The validation and upcoming documents: a deck's verdict, a run's totals, the
unreadable and skipped sources, and what the next list does to each deck."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from deckcheck.reporter.document.base import Doc
from deckcheck.reporter.document.meta import MetaDocument
from deckcheck.source.record import SkipReason, UnreadableReason


class ViolationDoc(Doc):
    """One finding in a deck."""

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

    total: int | None
    cap: int
    cards: list[PointCardDoc] = Field(
        default_factory=list, description="The cards that make the total, largest first."
    )


class RegistrationDoc(Doc):
    """The registration (row of a registrations CSV) a deck belongs to."""

    file: str = Field(description="The registrations CSV.")
    row: int = Field(
        description="The row as a spreadsheet shows it (the header is row 1; a multi-line cell "
        "is one row)."
    )
    line: int | None = Field(None, description="The line of the CSV file the row starts on.")
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
    points: PointsDoc | None = Field(None, description="Only for point formats (Genesys).")
    name: str | None = Field(None, description="The deck's own name, if the file gives one.")
    data_fingerprint: str | None = Field(None, description="Dataset the deck was checked against.")
    fingerprint: str | None = Field(
        None, description="Short hash of the deck's contents (order and artwork do not count)."
    )
    registration: RegistrationDoc | None = Field(
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
    registration: RegistrationDoc | None = None


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

    results: list[ResultDoc]
    summary: SummaryDoc
    unreadable: list[UnreadableDoc] = Field(description="Sources that could not be read.")
    skipped: list[SkippedDoc] = Field(default_factory=list)
    format: str | None = None
    date: str | None = None
    data: DataDoc | None = None
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
    message: str


class DeckForecastDoc(Doc):
    """One deck on the date and under the next list."""

    path: str
    format: str
    outlook: Literal["becomes-illegal", "new-errors", "changes", "unaffected", "no-list"]
    legal_now: bool
    legal_then: bool | None
    next_list: NextListDoc | None
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
    summary: UpcomingSummaryDoc
    unreadable: list[UnreadableDoc]
    skipped: list[SkippedDoc] = Field(default_factory=list)
    data_as_of: str | None
