"""The records a source yields: a deck to read (:class:`Source`), a path left out
(:class:`Skipped`), a source that cannot be read (:class:`Unreadable`).

Every source ends as exactly one of three outcomes: checked (a
:class:`~deckcheck.run.row.Checked` row), :class:`Skipped` with a :class:`SkipReason`, or
:class:`Unreadable` with an :class:`UnreadableReason`, a message and its place (path and line).
The two reason enums are public codes (the README's tables); reporters branch on them, never on
the message.

A leaf module: it imports nothing of deckcheck at run time, so every reader (folders, zips,
registration CSVs, uploads) and every driver can share the records without importing each other.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, TypeAlias

from msgspec import Struct

if TYPE_CHECKING:
    from deckcheck.error import DeckReadError

STDIN = "-"
"""The path that means standard input."""


class Registration(Struct, frozen=True):
    """One row of a registrations CSV."""

    file: str
    """The CSV it comes from."""
    row: int
    """Its row as a spreadsheet shows it: the header is row 1, the first registration row 2
    (a quoted multi-line cell is one row; blank lines are not rows)."""
    player_id: str = ""
    player: str = ""
    deck: str = ""
    """The deck cell as written (a path, a URL or a list)."""
    fields: tuple[tuple[str, str], ...] = ()
    """The other columns, in order, by header."""
    duplicate_of: int | None = None
    """Row of the first registration with the same player id, for a duplicate."""
    line: int = 0
    """The line of the CSV file the row starts on (CI reports point there); 0: unknown."""


class SkipReason(enum.StrEnum):
    """Why a scan left a path out: the file is clearly not a deck (public, stable codes)."""

    HIDDEN_FOLDER = "hidden-folder"
    HIDDEN_FILE = "hidden-file"
    TOOL_FOLDER = "tool-folder"
    RESOURCE_FOLDER = "resource-folder"
    GITIGNORED = "gitignored"
    LINK_OUTSIDE = "link-outside"
    LINK_TO_FOLDER = "link-to-folder"
    NOT_REGULAR_FILE = "not-regular-file"
    TOO_BIG_TO_SNIFF = "too-big-to-sniff"
    NOT_DECK_JSON = "not-deck-json"
    NOT_DECK_LIST = "not-deck-list"
    NOT_REGISTERED = "not-registered"

    @property
    def meaning(self) -> str:
        """What the code means, in words (the text reports show)."""
        return SKIP_MEANING[self]


SKIP_MEANING: dict[SkipReason, str] = {
    SkipReason.HIDDEN_FOLDER: "hidden folder",
    SkipReason.HIDDEN_FILE: "hidden file",
    SkipReason.TOOL_FOLDER: "tool folder",
    SkipReason.RESOURCE_FOLDER: "macOS resource folder",
    SkipReason.GITIGNORED: "ignored by .gitignore",
    SkipReason.LINK_OUTSIDE: "symbolic link out of the folder",
    SkipReason.LINK_TO_FOLDER: "symbolic link to a folder",
    SkipReason.NOT_REGULAR_FILE: "not a regular file",
    SkipReason.TOO_BIG_TO_SNIFF: "over the 1 MiB limit of a deck file",
    SkipReason.NOT_DECK_JSON: "not a deckcheck deck JSON file",
    SkipReason.NOT_DECK_LIST: "not a deck list",
    SkipReason.NOT_REGISTERED: "not named by the archive's registrations CSV",
}
"""The words of each :class:`SkipReason` (the ``reason`` of JSON documents)."""


class UnreadableReason(enum.StrEnum):
    """Why a source could not be read or checked (public, stable codes)."""

    MISSING = "missing"
    """No such file or folder."""
    SPECIAL_FILE = "special-file"
    """A FIFO, device or socket given by name (it would block or never end)."""
    OS_ERROR = "os-error"
    """The system refused to read or list it (permissions, I/O error)."""
    BROKEN_LINK = "broken-link"
    NO_DECKS = "no-decks"
    """A folder, zip or registrations CSV with nothing to read."""
    BAD_ARCHIVE = "bad-archive"
    """A zip that cannot be used at all (not a zip, over a cap, duplicate names)."""
    BAD_REGISTRATIONS = "bad-registrations"
    """A registrations CSV that cannot be used at all."""
    UNSAFE_ENTRY = "unsafe-entry"
    """A zip entry whose name climbs out, is absolute or holds a NUL byte."""
    BAD_ENTRY = "bad-entry"
    """A zip entry refused as stored: a symbolic link, encrypted, unsupported compression,
    damaged data, a suspicious compression ratio."""
    NO_DECK_GIVEN = "no-deck-given"
    """A registration whose deck cell is empty."""
    BAD_DECK_PATH = "bad-deck-path"
    """A registration's deck path that is absolute, leads outside the CSV's folder, or names
    no file."""
    TOO_LARGE = "too-large"
    """Over a byte or card-count cap."""
    BAD_ENCODING = "bad-encoding"
    """Not text in a supported encoding (binary data, bad UTF-16)."""
    BAD_SYNTAX = "bad-syntax"
    """Broken structure: bad base64, bad JSON, a truncated code."""
    UNREADABLE_DECK = "unreadable-deck"
    """Another reason the deck reader gave up (too many unreadable lines...)."""
    NOT_A_DECK = "not-a-deck"
    """Looks like a deck by its name or content, but (almost) no line names a card."""
    CHECK_FAILED = "check-failed"
    """Read, but it could not be checked (the format or a rule refused)."""
    INTERNAL_ERROR = "internal-error"
    """A bug: please report it."""


class SourceKind(enum.StrEnum):
    """Where a deck comes from."""

    FILE = "file"
    STDIN = "stdin"
    URL = "url"
    MEMORY = "memory"
    """A deck already in memory (an upload, a zip entry): ``content`` holds its bytes."""
    ZIP = "zip"
    """An entry of a zip archive (``path`` is the archive, ``entry`` the member)."""
    INLINE = "inline"
    """A deck list written in a registrations CSV cell (``content``)."""


class Source(Struct, frozen=True):
    """One deck source: a file, standard input, a ``ydke://`` URL, a zip entry, a CSV cell, or
    bytes in memory.

    ``error`` (with its ``code``) is set when the source is already known to be unreadable (a
    missing path, a folder without decks); ``skip`` when a scan decided it is not a deck (it is
    then neither read nor counted as unreadable). :meth:`outcome` turns those into their records.
    """

    kind: SourceKind
    path: str
    """The path as given (or found in a folder), ``-``, or the URL."""
    error: str | None = None
    skip: SkipReason | None = None
    entry: str | None = None
    """For a zip entry: the member's name in the archive."""
    display: str | None = None
    """How reports name the source, when not derived from the path (``regs.csv:12``)."""
    registration: Registration | None = None
    """The registration (CSV row) this deck belongs to, if any."""
    content: bytes | str | None = None
    """The deck itself: bytes for a :attr:`SourceKind.MEMORY` source, the list for an
    :attr:`SourceKind.INLINE` one (nothing is read from disk)."""
    code: UnreadableReason | None = None
    """Why ``error`` is set (its code)."""
    error_line: int | None = None
    """The line of the file ``error`` is about, where it names one (a registrations CSV's)."""

    def __repr__(self) -> str:
        # the content (a whole deck, up to the size cap) is left out, as a dataclass field with
        # repr=False would be
        names = (name for name in self.__struct_fields__ if name != "content")
        return f"Source({', '.join(f'{name}={getattr(self, name)!r}' for name in names)})"

    @classmethod
    def memory(cls, name: str, content: bytes | str) -> Source:
        """A deck held in memory, named ``name`` in reports (an upload's file name, say)."""
        raw = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
        return cls(SourceKind.MEMORY, name, content=raw)

    @property
    def label(self) -> str:
        """How reports name the source: the path, ``<stdin>``, ``<ydke URL>``, ``a.zip!/x.ydk``,
        ``regs.csv:12``."""
        if self.display is not None:
            return self.display
        if self.kind is SourceKind.STDIN:
            return "<stdin>"
        if self.kind is SourceKind.URL:
            return "<ydke URL>"
        return self.path

    def outcome(self) -> Skipped | Unreadable | None:
        """The record of a source already known to be skipped or unreadable; None: read it."""
        if self.skip is not None:
            return Skipped(self.label, self.skip)
        if self.error is not None:
            where = "" if self.error.startswith(f"{self.label}:") else f"{self.label}: "
            code = self.code or UnreadableReason.UNREADABLE_DECK
            return Unreadable(
                self.label, f"{where}{self.error}", self.error_line, self.registration, code
            )
        return None


Found: TypeAlias = Source
"""A source to read (a :class:`Source` with neither ``error`` nor ``skip``)."""


class Unreadable(Struct, frozen=True):
    """A source that could not be read: its code, the message, and its place (the path, and the
    line where known)."""

    path: str
    error: str
    """The message (naming the source, and the line where known)."""
    line: int | None = None
    registration: Registration | None = None
    """The registration (CSV row) whose deck this was, if any."""
    code: UnreadableReason = UnreadableReason.UNREADABLE_DECK
    """Why, as a public code: reporters branch on it."""


class Skipped(Struct, frozen=True):
    """A file a scan did not take for a deck, and why (:class:`SkipReason`)."""

    path: str
    code: SkipReason

    @property
    def reason(self) -> str:
        """The code's meaning in words."""
        return self.code.meaning


def read_code(exc: DeckReadError) -> UnreadableReason:
    """The code of a deck read error (by its class)."""
    from deckcheck.error import DeckEncodingError, DeckSyntaxError, DeckTooLargeError

    if isinstance(exc, DeckTooLargeError):
        return UnreadableReason.TOO_LARGE
    if isinstance(exc, DeckEncodingError):
        return UnreadableReason.BAD_ENCODING
    if isinstance(exc, DeckSyntaxError):
        return UnreadableReason.BAD_SYNTAX
    return UnreadableReason.UNREADABLE_DECK


def is_url(text: str) -> bool:
    """True for a ``ydke://`` URL (any case)."""
    return text.strip()[:7].lower() == "ydke://"
