"""Where CI reports point a finding: the file (relative to the repository root) and its line.

A deck from a registrations CSV that is written in the CSV itself (an inline list or a
``ydke://`` URL in a cell; its source is labelled ``regs.csv:ROW``) is pointed at the CSV, on
the CSV's own line (:attr:`Registration.line`, which differs from the row once a cell spans
lines): the row's line for the deck as a whole and for a URL, the row's line plus the finding's
line within the cell for an inline list. A deck file named by the CSV is pointed
at that file. Standard input and a ``ydke://`` URL given on the command line have no file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckcheck.run.batch import Batch
    from deckcheck.source.registration import Registration
    from deckcheck.validation.report import Report


def checked_decks(batch: Batch) -> list[tuple[Report, Registration | None]]:
    """Each checked deck's report with its registration, in order (a batch built by hand from
    reports alone: no registrations)."""
    if batch.rows:
        return [(c.report, c.registration) for c in batch.checked]
    return [(r, None) for r in batch.reports]


def in_csv(path: str | None, registration: Registration | None) -> bool:
    """True when the deck is written in the registrations CSV itself (inline list or URL)."""
    return (
        registration is not None
        and path is not None
        and path == f"{registration.file}:{registration.row}"
    )


def locate(
    path: str | None, registration: Registration | None, line: int | None, root: str | None
) -> tuple[str | None, int | None]:
    """The file a CI report names for a finding of the deck at ``path`` (None: no file) and
    the line in that file (None: none)."""
    from deckcheck.reporter.options import repo_path

    found = locate_line(path, registration, line)
    if registration is not None and in_csv(path, registration):
        return repo_path(registration.file, root), found
    return (repo_path(path, root) if path else None), found


def locate_line(
    path: str | None, registration: Registration | None, line: int | None
) -> int | None:
    """The line :func:`locate` gives (the file's name is not needed for it): a finding's line
    of the deck at ``path``, moved onto the registrations CSV's own line for a deck written in
    the CSV."""
    if registration is not None and in_csv(path, registration):
        url = registration.deck.strip()[:7].lower() == "ydke://"
        shift = 0 if url or line is None else line - 1
        return (registration.line or registration.row) + shift
    return line
