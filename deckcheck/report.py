"""Validation results: severities, violation codes, violations and reports.

Codes are public API (see the README's table): they are never renamed, only added.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deckcheck.registration import Registration


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
    POINTS_OVER_CAP = "points-over-cap"
    """Genesys: the point total is over the cap."""
    FORBIDDEN_TYPE = "forbidden-type"
    """A card type the format bans outright (Genesys: Link and Pendulum monsters)."""
    LEGEND_LIMIT = "legend-limit"
    """Rush Duel: too many Legend cards."""
    SKILL_COUNT = "skill-count"
    """Speed Duel: not exactly one Skill card."""
    PARSE = "parse"
    """A line of the deck file that could not be read."""
    UPCOMING_CHANGE = "upcoming-change"
    """Warning: a card's status changes in a list announced for after the date."""
    TREATED_AS = "treated-as"
    """Note: a card counted toward another name's copy limit."""
    DATE_OUT_OF_RANGE = "date-out-of-range"
    """Warning: the date lies before the format's first list or after the ban-list data ends."""


@dataclass(frozen=True, slots=True)
class Violation:
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

    def to_dict(self) -> dict[str, Any]:
        """JSON form (the README documents it)."""
        return {
            "code": self.code.value,
            "severity": self.severity.value,
            "section": self.section,
            "passcode": self.passcode,
            "name": self.name,
            "found": self.found,
            "allowed": self.allowed,
            "line": self.line,
            "message": self.message,
        }


@dataclass(frozen=True, slots=True)
class BanlistRef:
    """Which ban list a report used."""

    name: str
    effective: date

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"name": self.name, "effective": self.effective.isoformat()}


@dataclass(frozen=True, slots=True)
class Report:
    """Every violation of one deck against one format at one date."""

    format: str
    era: str
    date: date
    banlist: BanlistRef | None
    counts: dict[str, int]
    violations: tuple[Violation, ...] = field(default=())
    path: str | None = None
    points: int | None = None
    point_cap: int | None = None
    name: str | None = None
    """The deck's own name (``#created by`` / ``!name`` / JSON ``name``), if it has one."""
    data_fingerprint: str | None = None
    """Fingerprint of the dataset the deck was checked against."""
    fingerprint: str | None = None
    """The deck's own fingerprint (:func:`deckcheck.deck.fingerprint_deck`), set by batches."""
    registration: Registration | None = None
    """The registration (CSV row) the deck belongs to, set by batches."""

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

    def to_dict(self) -> dict[str, Any]:
        """JSON form of one result (the README documents it)."""
        out: dict[str, Any] = {
            "path": self.path,
            "format": self.format,
            "era": self.era,
            "banlist": self.banlist.to_dict() if self.banlist else None,
            "date": self.date.isoformat(),
            "legal": self.legal,
            "counts": dict(self.counts),
            "violations": [v.to_dict() for v in self.violations],
        }
        if self.point_cap is not None:
            out["points"] = {"total": self.points, "cap": self.point_cap}
        out["name"] = self.name
        out["data_fingerprint"] = self.data_fingerprint
        if self.fingerprint is not None:
            out["fingerprint"] = self.fingerprint
        if self.registration is not None:
            from deckcheck.registration import status_of

            out["registration"] = {
                **self.registration.to_dict(),
                "status": status_of(self, self.registration).value,
            }
        return out
