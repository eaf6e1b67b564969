"""The event documents: an event (where it stands at a moment), its registrations and its
audit log (``deckcheck event ... --output json`` and the service's ``/v1/events`` routes)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from deckcheck.reporter.document.base import Doc
from deckcheck.reporter.document.shape import Merged

WITHOUT_DECK = frozenset({"deck"})
"""``leave_out`` of a registration written without its deck text."""


def event_at(ev: Any, now: Any) -> Merged:
    """An event read as its document at the moment ``now`` (its status then)."""
    return Merged({"status": ev.phase(now)}, ev)


class EventDoc(Doc):
    """An event, as anyone may see it."""

    not_fields = frozenset({"created_at"})  # (in the export's manifest only)

    id: str
    name: str
    format: str = Field(description="The format's id or alias, as the organiser gave it.")
    date: str = Field(description="Decks are checked against the lists in force on it.")
    deadline: str = Field(description="When submissions close (ISO 8601).")
    tcg_region: str | None
    status: Literal["open", "locked", "published"]
    locked_at: str | None
    published_at: str | None


class EventEntryDoc(Doc):
    """One registration: the player, the deck's verdict (and the deck, for the organiser)."""

    not_fields = frozenset({"event_id", "verdict_json"})  # (its event's; read as ``verdict``)

    id: str
    player: str
    player_id: str
    legal: bool
    fingerprint: str
    deck_format: str
    version: int = Field(description="1 for the first submission, one more per edit.")
    created_at: str
    updated_at: str
    verdict: dict[str, Any] = Field(description="The verdict as of the submission.")
    deck: str = Field(description="The deck exactly as submitted.")


class AuditDoc(Doc):
    """One change in an event's audit log."""

    not_fields = frozenset({"event_id"})  # (its event's)

    seq: int
    registration_id: str | None
    action: str
    actor: str
    at: str
    old_fingerprint: str | None
    new_fingerprint: str | None
