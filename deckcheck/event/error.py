"""The errors of events: each a :class:`~deckcheck.error.DeckcheckError` with its HTTP status,
so the service answers them as it answers every other error (``{"error": {"code", ...}}``)."""

from __future__ import annotations

from deckcheck.error import DeckcheckError, InputError, NotFoundError


class EventError(DeckcheckError):
    """Base class of the errors of events."""

    http_status = 500
    code = "event-error"


class StorageError(EventError):
    """The event database cannot be opened or used (a bad ``DECKCHECK_DATABASE_URL``, no
    PostgreSQL driver, a schema newer than this deckcheck)."""

    http_status = 503
    code = "storage-unavailable"


class UnauthorizedError(EventError):
    """No token, or a token that opens nothing (401)."""

    http_status = 401
    code = "unauthorized"


class ForbiddenError(EventError):
    """A valid token of a role that may not do this (403)."""

    http_status = 403
    code = "forbidden"


class EventNotFoundError(NotFoundError, EventError):
    """No such event or registration, or a list not published yet (404)."""

    http_status = 404
    code = "not-found"


class ConflictError(EventError):
    """A second registration for a player id, or an import over an existing event (409)."""

    http_status = 409
    code = "already-registered"


class LockedError(EventError):
    """A write after the deadline or the organiser's lock (423)."""

    http_status = 423
    code = "locked"


class EventInputError(InputError, EventError):
    """An event request that cannot be used (a date without a time zone, say) (422)."""

    http_status = 422
    code = "bad-input"


EVENT_ERRORS: tuple[type[EventError], ...] = (
    EventError,
    StorageError,
    UnauthorizedError,
    ForbiddenError,
    EventNotFoundError,
    ConflictError,
    LockedError,
    EventInputError,
)
"""Every error class of events (documented in the README's "Errors" table)."""
