"""The exception family of deckcheck.

Every exception deckcheck raises on purpose derives from :class:`DeckcheckError`. An exception
means "could not run"; problems *in* a deck are never raised, they are collected in a report.
"""

from __future__ import annotations


class DeckcheckError(Exception):
    """Base class of every error deckcheck raises on purpose."""


class DataError(DeckcheckError):
    """Bundled or user-supplied data (card index, ban-list file, format file) is unusable."""


class UnknownCardError(DeckcheckError, LookupError):
    """A passcode or card name matched no card.

    ``suggestions`` holds the closest card names, best first.
    """

    def __init__(self, query: str, suggestions: list[str] | None = None) -> None:
        self.query = query
        self.suggestions = list(suggestions or [])
        msg = f"unknown card: {query!r}"
        if self.suggestions:
            msg += "; did you mean: " + ", ".join(self.suggestions[:5]) + "?"
        super().__init__(msg)


class AmbiguousCardError(DeckcheckError, LookupError):
    """A card name matched several different cards; ``candidates`` lists their passcodes."""

    def __init__(self, query: str, candidates: list[tuple[int, str]]) -> None:
        self.query = query
        self.candidates = list(candidates)
        listed = ", ".join(f"{name} ({code})" for code, name in self.candidates[:6])
        super().__init__(f"ambiguous card name {query!r}: matches {listed}")


class UnknownFormatError(DeckcheckError, LookupError):
    """A format or era name is not in the registry; ``valid`` lists the names that are."""

    def __init__(self, name: str, valid: list[str]) -> None:
        self.name = name
        self.valid = list(valid)
        super().__init__(f"unknown format {name!r}; valid formats: {', '.join(self.valid)}")


class DeckReadError(DeckcheckError, ValueError):
    """A deck file cannot be read at all (binary junk, over the size limit, bad encoding...).

    ``source`` names the file (or ``<stdin>``), ``line`` the line where reading failed, if any.
    """

    def __init__(self, message: str, source: str | None = None, line: int | None = None) -> None:
        self.source = source
        self.line = line
        where = source or "<input>"
        if line is not None:
            where += f":{line}"
        super().__init__(f"{where}: {message}")
        self.reason = message
