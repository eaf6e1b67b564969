"""The records of events: an :class:`Event`, its :class:`Entry` rows (one registration each)
and the :class:`AuditEntry` rows of every change. Frozen values, read from the repository; the
service and the CLI turn them into documents.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any


class Action(enum.StrEnum):
    """What an audit entry records (public API: the audit log's ``action``)."""

    CREATE = "create"
    """The event was created."""
    SUBMIT = "submit"
    """A registration was submitted."""
    EDIT = "edit"
    """A registration's deck was replaced."""
    LOCK = "lock"
    """The organiser locked the event before its deadline."""
    PUBLISH = "publish"
    """The decklists were made public."""
    IMPORT = "import"
    """The event was restored from an export."""


class Phase(enum.StrEnum):
    """Where an event stands at a moment (public API: ``status`` of an event)."""

    OPEN = "open"
    """Submissions and edits are taken."""
    LOCKED = "locked"
    """Past the deadline, or locked by the organiser: every write is refused."""
    PUBLISHED = "published"
    """Locked, and the decklists are public."""


def utc_text(moment: datetime) -> str:
    """A moment as stored: ISO 8601 in UTC with microseconds (sorts as text)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def parse_moment(text: str) -> datetime:
    """A stored moment back (always aware)."""
    got = datetime.fromisoformat(text)
    return got if got.tzinfo is not None else got.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Event:
    """One event: what is checked (format, date, region), when submissions close, and where
    it stands."""

    id: str
    name: str
    format: str
    """The format's id or alias, as the organiser gave it."""
    date: date
    """The event's date: decks are checked against the lists in force on it."""
    deadline: datetime
    """When submissions close (aware); a write at or after it is refused."""
    tcg_region: str | None
    """``na``/``eu``: whose dates pick a TCG list (None: the format's)."""
    created_at: datetime
    locked_at: datetime | None = None
    """When the organiser locked it (None: open until the deadline)."""
    published_at: datetime | None = None

    def phase(self, now: datetime) -> Phase:
        """Open, locked or published at ``now``."""
        if self.published_at is not None:
            return Phase.PUBLISHED
        if self.locked_at is not None or now >= self.deadline:
            return Phase.LOCKED
        return Phase.OPEN

    def is_open(self, now: datetime) -> bool:
        """True while submissions and edits are taken."""
        return self.phase(now) is Phase.OPEN


@dataclass(frozen=True, slots=True)
class Entry:
    """One registration: the player, the deck as submitted, and its verdict."""

    id: str
    event_id: str
    player: str
    player_id: str
    deck: str
    """The deck exactly as submitted (any format deckcheck reads)."""
    deck_format: str
    """The file format it was read as (``ydk``, ``ydke``, ``text``, ``omega``, ``json``)."""
    fingerprint: str
    legal: bool
    verdict_json: str
    """The verdict document (``POST /v1/validate``'s) as JSON, as of the submission."""
    created_at: datetime
    updated_at: datetime
    version: int
    """1 for the first submission, one more per edit."""

    @property
    def verdict(self) -> dict[str, Any]:
        """The verdict document."""
        got: dict[str, Any] = json.loads(self.verdict_json)
        return got


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One change: who did what, when, and the deck's fingerprint before and after."""

    seq: int
    """Order of the changes within the database."""
    event_id: str
    registration_id: str | None
    action: Action
    actor: str
    """The role that made the change (a :class:`~deckcheck.event.token.Role` value), with the
    player id for a player (``player:0301234567``)."""
    at: datetime
    old_fingerprint: str | None
    new_fingerprint: str | None
