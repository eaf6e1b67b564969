"""Validation results: severities, violation codes, violations and reports.

Codes are public API (see the README's table): they are never renamed, only added.
"""

from __future__ import annotations

import enum
from datetime import date

from msgspec import Struct


class Severity(enum.StrEnum):
    """How much a finding matters: an error makes the deck illegal; warnings and notes do not."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


class Code(enum.StrEnum):
    """Stable violation codes (public API)."""

    MAIN_SIZE = "main-size"
    """Main Deck has too few or too many cards for the era."""
    EXTRA_SIZE = "extra-size"
    """Extra Deck has too many (or too few) cards for the era."""
    SIDE_SIZE = "side-size"
    """Side Deck size not allowed (too many, or not "0 or exactly N")."""
    COPIES = "copies"
    """More copies of one card name than the format's copy limit (3)."""
    FORBIDDEN = "forbidden"
    """A Forbidden card is in the deck."""
    OVER_LIMIT = "over-limit"
    """More copies than the ban list allows (Limited 1, Semi-Limited 2)."""
    NOT_IN_POOL = "not-in-pool"
    """Not released in the format's region by the date, or not on a whitelist format's list."""
    WRONG_SECTION = "wrong-section"
    """Extra Deck monster in the Main Deck, or Main Deck card in the Extra Deck."""
    NOT_A_DECK_CARD = "not-a-deck-card"
    """Tokens (and Skill cards outside Speed Duel) are never deck cards."""
    UNKNOWN_CARD = "unknown-card"
    """A passcode or name that matches no card."""
    AMBIGUOUS_CARD = "ambiguous-card"
    """A name that matches several different cards."""
    UNOFFICIAL_CARD = "unofficial-card"
    """Anime, manga, video-game or otherwise unofficial card."""
    PRERELEASE = "prerelease"
    """A pre-release code (error unless allowed, then a warning)."""
    PRERELEASE_CODE = "prerelease-code"
    """A pre-release code of a card since released: read as the released card (a warning)."""
    POINTS_OVER_CAP = "points-over-cap"
    """Genesys: the point total is over the cap."""
    FORBIDDEN_TYPE = "forbidden-type"
    """A card type the format bans outright (Genesys: Link and Pendulum monsters)."""
    LEGEND_LIMIT = "legend-limit"
    """Rush Duel: too many Legend cards."""
    LIMIT_GROUP = "limit-group"
    """Speed Duel: more cards from a Limited 1/2/3 group than the group's shared total."""
    SKILL_COUNT = "skill-count"
    """Speed Duel: not exactly one Skill card."""
    PARSE = "parse"
    """A line of the deck file that could not be read."""
    UPCOMING_CHANGE = "upcoming-change"
    """Warning: a card's status changes in a list announced for after the date."""
    TREATED_AS = "treated-as"
    """Note: a card counted toward another name's copy limit."""
    DATE_OUT_OF_RANGE = "date-out-of-range"
    """Warning: the date lies after the ban-list data ends (a date before the format's first list
    is a :class:`~deckcheck.error.DateRangeError`)."""
    RELEASE_DATE_UNKNOWN = "release-date-unknown"
    """Warning: the card is in the format's region, but no source dates its release there."""
    MISSING_SECTIONS = "missing-sections"
    """Note: a ``.ydk`` file has ``#main`` but no ``#extra`` or ``!side`` header (truncated?)."""


CODE_MEANING: dict[Code, str] = {
    Code.MAIN_SIZE: "The Main Deck size is outside the era's bounds (40-60 in most eras; lp4000: "
    "40-80).",
    Code.EXTRA_SIZE: "The Extra Deck is over the era's maximum (15; mr4-ex20: 20; Speed Duel: 5).",
    Code.SIDE_SIZE: "The Side Deck is too big, or not '0 or exactly 15' in eras that require it.",
    Code.COPIES: "More than the copy limit (3) of one card name over Main + Extra + Side; "
    "alternate artworks and 'always treated as' names count together.",
    Code.FORBIDDEN: "A Forbidden card on the list in force.",
    Code.OVER_LIMIT: "More copies than the list allows (Limited 1, Semi-Limited 2).",
    Code.NOT_IN_POOL: "The card is not legal in the format's card pool: not released in the "
    "region by the date, OCG-only in TCG (or the reverse), not on a whitelist format's list, or "
    "a Rush card outside Rush (or the reverse).",
    Code.WRONG_SECTION: "A Fusion/Synchro/Xyz/Link monster in the Main Deck, or a Main Deck card "
    "in the Extra Deck.",
    Code.NOT_A_DECK_CARD: "A Token, or a Skill card outside Speed Duel, is never a deck card.",
    Code.UNKNOWN_CARD: "A passcode or name that matches no card (the message suggests close "
    "names).",
    Code.AMBIGUOUS_CARD: "A name that matches several different cards; deckcheck never guesses.",
    Code.UNOFFICIAL_CARD: "An anime, manga, video-game or otherwise unofficial card.",
    Code.PRERELEASE: "A pre-release code of a card not released yet (an error unless "
    "pre-release codes are allowed, then a warning).",
    Code.PRERELEASE_CODE: "An EDOPro pre-release code of a card released since: the line is read "
    "as the released card (checked like any other), and the message gives its passcode.",
    Code.POINTS_OVER_CAP: "The point total (Genesys) is over the cap.",
    Code.FORBIDDEN_TYPE: "A card type the format bans outright (Genesys: Link and Pendulum "
    "monsters).",
    Code.LEGEND_LIMIT: "Rush Duel: more than 1 Legend card (before 2022-12) or more than 1 Legend "
    "Monster/Spell/Trap.",
    Code.SKILL_COUNT: "Speed Duel: the deck needs exactly one Skill card.",
    Code.PARSE: "A line of the deck file that could not be read.",
    Code.UPCOMING_CHANGE: "Warning: a card's status gets stricter on an announced list effective "
    "after the date.",
    Code.DATE_OUT_OF_RANGE: "Warning: the date is after the data ends (a newer list may exist).",
    Code.LIMIT_GROUP: "Speed Duel / Duel Links limit groups: more cards of Limited 1/2/3 together "
    "than the group allows (Main + Extra + Side, Skill cards included).",
    Code.RELEASE_DATE_UNKNOWN: "Warning: no source dates the card's release in the format's "
    "region; it is assumed released by the date.",
    Code.MISSING_SECTIONS: "Note: a .ydk file has '#main' but no '#extra' or '!side' header (a "
    "truncated file?); the missing sections were read as empty.",
    Code.TREATED_AS: "Note: a card is counted toward another name's copy limit ('always treated "
    "as').",
}
"""What each code means."""

CODE_FIX: dict[Code, str] = {
    Code.MAIN_SIZE: "Add or remove Main Deck cards to fit the era's size.",
    Code.EXTRA_SIZE: "Remove Extra Deck cards down to the era's maximum.",
    Code.SIDE_SIZE: "Make the Side Deck a size the era allows.",
    Code.COPIES: "Cut the copies of this card name to the limit (all sections together).",
    Code.FORBIDDEN: "Remove every copy; it is Forbidden.",
    Code.OVER_LIMIT: "Cut the copies to what the list allows.",
    Code.NOT_IN_POOL: "Replace the card with one legal in this format on this date.",
    Code.WRONG_SECTION: "Move the card to the section it belongs in (Main or Extra).",
    Code.NOT_A_DECK_CARD: "Remove it: it is not a card a deck may hold.",
    Code.UNKNOWN_CARD: "Correct the passcode or name (see the suggestions).",
    Code.AMBIGUOUS_CARD: "Name the card exactly, or use its passcode.",
    Code.UNOFFICIAL_CARD: "Replace it with an official card.",
    Code.PRERELEASE: "Use the card's released passcode.",
    Code.PRERELEASE_CODE: "Write the released passcode in the file.",
    Code.POINTS_OVER_CAP: "Cut pointed cards until the total fits the cap.",
    Code.FORBIDDEN_TYPE: "Remove the cards of a type the format bans.",
    Code.LEGEND_LIMIT: "Keep at most the allowed number of Legend cards.",
    Code.SKILL_COUNT: "Use exactly one Skill card.",
    Code.PARSE: "Fix or delete the line of the deck file.",
    Code.UPCOMING_CHANGE: "Change the deck before the new list takes effect.",
    Code.TREATED_AS: "No action: counted toward another card name's limit.",
    Code.DATE_OUT_OF_RANGE: "Check the event date, or update deckcheck's data.",
    Code.LIMIT_GROUP: "Cut the cards of the Limited group down to what the group allows.",
    Code.RELEASE_DATE_UNKNOWN: "Check that the card was released in the region by the event date.",
    Code.MISSING_SECTIONS: "Check the file is complete (it lacks an Extra or Side Deck header).",
}
"""How to fix a finding of each code (the HTML report shows it beside the message)."""

CODE_HELP: dict[Code, str] = {code: f"{CODE_MEANING[code]} {CODE_FIX[code]}" for code in Code}
"""What each code means and how to fix it (the README's table; SARIF rule help)."""

DEFAULT_SEVERITY: dict[Code, Severity] = {code: Severity.ERROR for code in Code} | {
    Code.UPCOMING_CHANGE: Severity.WARNING,
    Code.DATE_OUT_OF_RANGE: Severity.WARNING,
    Code.TREATED_AS: Severity.NOTE,
    Code.RELEASE_DATE_UNKNOWN: Severity.WARNING,
    Code.MISSING_SECTIONS: Severity.NOTE,
    Code.PRERELEASE_CODE: Severity.WARNING,
}
"""The usual severity of each code (``prerelease`` is a warning with ``--allow-prerelease``)."""


class Violation(Struct, frozen=True):
    """One finding: code, severity, where, what was found and what is allowed, and how to fix it."""

    code: Code
    severity: Severity
    message: str
    section: str | None = None
    passcode: int | None = None
    name: str | None = None
    found: int | None = None
    allowed: int | None = None
    line: int | None = None
    text: str | None = None
    """The deck file's line as written (for lines that name no card: unknown, ambiguous, parse)."""
    facts: tuple[tuple[str, object], ...] = ()
    """The message's other named facts (the ban list's name, a date, the suggested names...):
    translations fill their templates from these and the fields above, so no fact is lost."""


class BanlistRef(Struct, frozen=True):
    """Which ban list a report used."""

    name: str
    effective: date


class PointCard(Struct, frozen=True):
    """A card that adds Genesys points to a deck: copies x points of one copy."""

    name: str
    passcode: int
    copies: int
    each: int

    @property
    def points(self) -> int:
        """The points the copies add."""
        return self.copies * self.each

    def label(self) -> str:
        """``3x Name 20 = 60`` (one copy: ``Name 20``)."""
        if self.copies == 1:
            return f"{self.name} {self.each}"
        return f"{self.copies}x {self.name} {self.each} = {self.points}"


class Report(Struct, frozen=True):
    """Every violation of one deck against one format at one date."""

    format: str
    era: str
    date: date
    banlist: BanlistRef | None
    counts: dict[str, int]
    violations: tuple[Violation, ...] = ()
    path: str | None = None
    points: int | None = None
    point_cap: int | None = None
    name: str | None = None
    """The deck's own name (``#created by`` / ``!name`` / JSON ``name``), if it has one."""
    data_fingerprint: str | None = None
    """Fingerprint of the dataset the deck was checked against."""
    point_cards: tuple[PointCard, ...] = ()
    """Point formats: the cards that make the total, largest first."""

    @property
    def legal(self) -> bool:
        """True when no violation is an error (warnings and notes are allowed)."""
        return not any(v.severity is Severity.ERROR for v in self.violations)

    @property
    def errors(self) -> tuple[Violation, ...]:
        """The violations of severity error."""
        return tuple(v for v in self.violations if v.severity is Severity.ERROR)

    @property
    def codes(self) -> set[str]:
        """The distinct codes found (handy in tests and scripts)."""
        return {v.code.value for v in self.violations}
