"""The one exception tree of deckcheck.

Every exception deckcheck raises on purpose derives from :class:`DeckcheckError`. An exception
means "could not run"; problems *in* a deck are never raised, they are collected in a report.
Each class knows the CLI exit code and the HTTP status it maps to, so every front end turns an
error into the same answer::

    DeckcheckError                 exit 2 · HTTP 500
    ├── DataError                  exit 2 · HTTP 500  bundled or installed data unusable
    ├── InputError                 exit 2 · HTTP 422  input that cannot be used
    │   ├── DeckReadError          exit 2 · HTTP 422  a deck file cannot be read at all
    │   │   └── DeckTooLargeError  exit 2 · HTTP 413  over the size or card-count cap
    │   ├── FormatFileError        exit 2 · HTTP 422  an organiser's format file (also a DataError)
    │   ├── ConfigError            exit 2 · HTTP 422  a repository's deckcheck.toml
    │   ├── SpecError              exit 2 · HTTP 422  a goldfish spec (also a GoldfishError)
    │   │   └── ConditionError     exit 2 · HTTP 422  a spec condition expression
    │   ├── UnknownDeckFormatError exit 2 · HTTP 422  a deck file format name
    │   ├── LimitError             exit 2 · HTTP 422  over a configured limit (cards, trials, time)
    │   ├── ArgumentError          exit 2 · HTTP 422  a library argument of the wrong type or value
    │   │   └── GoldfishArgumentError                 (of a goldfish function; also a GoldfishError)
    │   └── DateRangeError         exit 2 · HTTP 422  a date before the format's first list
    ├── NotFoundError              exit 2 · HTTP 404
    │   ├── UnknownCardError       exit 2 · HTTP 404  no card has this passcode or name
    │   ├── AmbiguousCardError     exit 2 · HTTP 409  several cards have this name
    │   └── UnknownFormatError     exit 2 · HTTP 404  no format or era has this name
    ├── GoldfishError              exit 2 · HTTP 422  odds that cannot be computed
    │   ├── SidePlanError          exit 2 · HTTP 422  a side plan that cannot be read or applied
    │   └── PlotUnavailableError   exit 2 · HTTP 422  matplotlib is not installed
    ├── DeckWriteError             exit 2 · HTTP 422  a deck that cannot be written in a format
    ├── OutputError                exit 2 · HTTP 500  the output cannot be written (stdout closed)
    ├── UpdateError                exit 2 · HTTP 502  a data update failed (previous data kept)
    │   └── OfflineError           exit 2 · HTTP 503  network access disabled (--offline)
    └── EventError                 exit 2 · HTTP 500  an event's base class (a bug)
        ├── StorageError           exit 2 · HTTP 503  the event database cannot be used
        ├── UnauthorizedError      exit 2 · HTTP 401  no token, or one that opens nothing
        ├── ForbiddenError         exit 2 · HTTP 403  a token whose role may not do this
        ├── EventNotFoundError     exit 2 · HTTP 404  no such event or registration (also NotFound)
        ├── ConflictError          exit 2 · HTTP 409  a player id registered twice, an import
        ├── LockedError            exit 2 · HTTP 423  past the deadline or the lock
        └── EventInputError        exit 2 · HTTP 422  an event request (an InputError)

``DeckReadError`` carries ``source`` and ``line``; ``UnknownCardError`` its ``suggestions``;
``UnknownFormatError`` the ``valid`` names; ``SidePlanError`` the plan's ``problems``.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, ClassVar


class ExitCode(enum.IntEnum):
    """Exit code of the CLI and of a batch (:attr:`deckcheck.run.batch.Batch.exit_code`)."""

    OK = 0
    """Every deck read is legal (warnings allowed)."""
    ILLEGAL = 1
    """At least one deck is illegal, and every source was read."""
    ERROR = 2
    """At least one source could not be read (or deckcheck could not run at all)."""


class DeckcheckError(Exception):
    """Base class of every error deckcheck raises on purpose."""

    exit_code: ClassVar[int] = 2
    """Exit code of the CLI when this error stops a command."""
    http_status: ClassVar[int] = 500
    """HTTP status of the service's answer when this error stops a request."""
    code: ClassVar[str] = "error"
    """Stable kebab-case name of the error kind (the service's ``error.code``)."""


class DataError(DeckcheckError):
    """Bundled or installed data (card index, ban-list bundle, format data) is unusable."""

    code = "data-error"


class InputError(DeckcheckError, ValueError):
    """Input given to deckcheck cannot be used: a deck, a spec, a condition, a format file."""

    http_status = 422
    code = "bad-input"


class NotFoundError(DeckcheckError, LookupError):
    """Something named in the input does not exist: a card or a format."""

    http_status = 404
    code = "not-found"


class GoldfishError(DeckcheckError):
    """Goldfish odds cannot be computed as asked (bad option, empty deck, engine limits)."""

    http_status = 422
    code = "goldfish-error"


class SidePlanError(GoldfishError):
    """A side plan that cannot be read or applied as written (games two and three)."""

    code = "bad-side-plan"

    def __init__(
        self,
        message: str,
        problems: Sequence[dict[str, Any]] = (),
        cause: DeckcheckError | None = None,
    ) -> None:
        super().__init__(message)
        self.problems = list(problems)
        """The plan's problems (``code``, ``message``, ``name``, ``passcode``), when applied."""
        self.cause = cause
        """The error that stopped reading the plan (an unknown card...), else None."""


class DeckWriteError(DeckcheckError, ValueError):
    """A deck cannot be written in the requested file format."""

    http_status = 422
    code = "deck-write-error"


class UpdateError(DeckcheckError):
    """A data update could not be fetched, verified or installed.

    The previous data stays active and whole: nothing is installed until every file is verified.
    """

    http_status = 502
    code = "update-failed"


class OfflineError(UpdateError):
    """Network access is needed but disabled (``--offline`` or ``DECKCHECK_OFFLINE=1``)."""

    http_status = 503
    code = "offline"


class UnknownCardError(NotFoundError):
    """A passcode or card name matched no card.

    ``suggestions`` holds the closest card names, best first.
    """

    code = "unknown-card"

    def __init__(self, query: str, suggestions: list[str] | None = None) -> None:
        self.query = query
        self.suggestions = list(suggestions or [])
        msg = f"unknown card: {query!r}"
        if self.suggestions:
            msg += "; did you mean: " + ", ".join(self.suggestions[:5]) + "?"
        super().__init__(msg)


class AmbiguousCardError(NotFoundError):
    """A card name matched several different cards; ``candidates`` lists their passcodes."""

    http_status = 409
    code = "ambiguous-card"

    def __init__(self, query: str, candidates: list[tuple[int, str]]) -> None:
        self.query = query
        self.candidates = list(candidates)
        listed = ", ".join(f"{name} ({code})" for code, name in self.candidates[:6])
        super().__init__(f"ambiguous card name {query!r}: matches {listed}")


class UnknownFormatError(NotFoundError):
    """A format or era name is not in the registry; ``valid`` lists the names that are."""

    code = "unknown-format"

    def __init__(self, name: str, valid: list[str]) -> None:
        self.name = name
        self.valid = list(valid)
        super().__init__(f"unknown format {name!r}; valid formats: {', '.join(self.valid)}")


class DeckReadError(InputError):
    """A deck file cannot be read at all (binary junk, over the size limit, bad encoding...).

    ``source`` names the file (or ``<stdin>``), ``line`` the line where reading failed, if any.
    """

    code = "unreadable-deck"

    def __init__(self, message: str, source: str | None = None, line: int | None = None) -> None:
        self.source = source
        self.line = line
        where = source or "<input>"
        if line is not None:
            where += f":{line}"
        super().__init__(f"{where}: {message}")
        self.reason = message


class DeckTooLargeError(DeckReadError):
    """The input is over the byte or card-count cap."""

    http_status = 413
    code = "too-large"


class DeckEncodingError(DeckReadError):
    """The input is not text in a supported encoding (binary data, bad UTF-16...)."""


class DeckSyntaxError(DeckReadError):
    """The input's structure is broken (bad base64, bad JSON, truncated code)."""


class UnknownDeckFormatError(InputError):
    """A deck file format name that deckcheck does not know."""

    code = "unknown-deck-format"


class LimitError(InputError):
    """A request is over a configured limit: cards per deck, trials, a simulation's time budget.

    ``limit`` names the setting (``max_cards``...), ``value`` its value.
    """

    code = "limit-exceeded"

    def __init__(self, message: str, limit: str, value: float) -> None:
        self.limit = limit
        self.value = value
        super().__init__(message)


class ArgumentError(InputError, TypeError):
    """A library function was given an argument of the wrong type or an impossible value.

    ``argument`` names the parameter. Also a :class:`TypeError` (and, as an
    :class:`InputError`, a :class:`ValueError`), so either ``except`` catches it.
    """

    code = "bad-argument"

    def __init__(self, message: str, argument: str) -> None:
        self.argument = argument
        super().__init__(message)


class GoldfishArgumentError(ArgumentError, GoldfishError):
    """An :class:`ArgumentError` of a goldfish function (``simulate``...): also a
    :class:`GoldfishError`, as every bad goldfish option is."""


class OutputError(DeckcheckError, OSError):
    """The output cannot be written: standard output closed or broken, a full disk.

    Also an :class:`OSError`.
    """

    code = "output-failed"

    def __str__(self) -> str:
        return self.strerror or super().__str__()


class DateRangeError(InputError):
    """A date the format has no list for: before its first list (nothing could be checked)."""

    code = "date-before-lists"


class FormatFileError(InputError, DataError):
    """An organiser's format file (or a list file it names) cannot be used."""

    http_status = 422
    code = "bad-format-file"


class ConfigError(InputError):
    """A repository configuration (``deckcheck.toml`` or ``[tool.deckcheck]``) cannot be used.

    The message names the file and the offending key.
    """

    code = "bad-config"


class SpecError(InputError, GoldfishError):
    """A goldfish spec is malformed: unknown key, bad category, unknown card, bad effect."""

    http_status = 422
    code = "bad-spec"


class ConditionError(SpecError):
    """A condition text does not follow the grammar; ``position`` is the 0-based offset."""

    code = "bad-condition"

    def __init__(self, message: str, text: str, position: int) -> None:
        self.text = text
        self.position = position
        self.reason = message
        super().__init__(f"position {position + 1}: {message}")


class PlotUnavailableError(GoldfishError):
    """A plot was asked for but matplotlib is not installed (``pip install 'deckcheck[plot]'``)."""

    code = "plot-unavailable"


class SheetUnavailableError(DeckcheckError):
    """A registration sheet was asked for but reportlab or segno is not installed
    (``pip install 'deckcheck[sheet]'``)."""

    http_status = 501
    code = "sheet-unavailable"

    def __init__(self, message: str | None = None) -> None:
        super().__init__(
            message
            or "registration sheets need reportlab and segno; "
            "install with: pip install 'deckcheck[sheet]'"
        )


ERRORS: tuple[type[DeckcheckError], ...] = (
    DeckcheckError,
    DataError,
    InputError,
    NotFoundError,
    GoldfishError,
    DeckWriteError,
    UpdateError,
    OfflineError,
    UnknownCardError,
    AmbiguousCardError,
    UnknownFormatError,
    DeckReadError,
    DeckTooLargeError,
    DeckEncodingError,
    DeckSyntaxError,
    UnknownDeckFormatError,
    LimitError,
    ArgumentError,
    GoldfishArgumentError,
    OutputError,
    DateRangeError,
    FormatFileError,
    ConfigError,
    SpecError,
    ConditionError,
    PlotUnavailableError,
    SheetUnavailableError,
)
"""Every class of the tree (documented in the README's "Errors" table)."""


# -- events (deckcheck.event: registrations, deadlines, tokens) ---------------------------------


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
