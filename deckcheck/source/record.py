"""The records a source yields: a deck to read (:class:`Source`), a path left out
(:class:`Skipped`), a source that cannot be read (:class:`Unreadable`).

A leaf module: it imports nothing of deckcheck at run time, so every reader (folders, zips,
registration CSVs, uploads) and every driver can share the records without importing each other.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from deckcheck.source.registration import Registration

STDIN = "-"
"""The path that means standard input."""


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


@dataclass(frozen=True, slots=True)
class Source:
    """One deck source: a file, standard input, a ``ydke://`` URL, a zip entry, a CSV cell, or
    bytes in memory.

    ``error`` is set when the source is already known to be unreadable (a missing path, a folder
    without decks); ``skip`` when a scan decided it is not a deck (it is then neither read nor
    counted as unreadable). :meth:`outcome` turns those into their records.
    """

    kind: SourceKind
    path: str
    """The path as given (or found in a folder), ``-``, or the URL."""
    error: str | None = None
    skip: str | None = None
    entry: str | None = None
    """For a zip entry: the member's name in the archive."""
    display: str | None = None
    """How reports name the source, when not derived from the path (``regs.csv:12``)."""
    registration: Registration | None = None
    """The registration (CSV row) this deck belongs to, if any."""
    content: bytes | str | None = field(default=None, repr=False)
    """The deck itself: bytes for a :attr:`SourceKind.MEMORY` source, the list for an
    :attr:`SourceKind.INLINE` one (nothing is read from disk)."""

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
            return Unreadable(self.label, f"{where}{self.error}", None, self.registration)
        return None


Found: TypeAlias = Source
"""A source to read (a :class:`Source` with neither ``error`` nor ``skip``)."""


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A source that could not be read: where, why, and the line where known."""

    path: str
    error: str
    line: int | None = None
    registration: Registration | None = None
    """The registration (CSV row) whose deck this was, if any."""


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file a scan did not take for a deck, and why."""

    path: str
    reason: str


def is_url(text: str) -> bool:
    """True for a ``ydke://`` URL (any case)."""
    return text.strip()[:7].lower() == "ydke://"
