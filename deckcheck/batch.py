"""Batches: many deck sources checked at once, with one summary and one exit code.

::

    import deckcheck
    batch = deckcheck.check(deckcheck.sources(["decks/", "extra.ydk"]), "tcg")
    batch.exit_code            # ExitCode.OK / ILLEGAL / ERROR
    batch.reports              # one Report per deck read
    batch.unreadable           # (path, error, line) per source that could not be read
    deckcheck.render(batch, "json")

:func:`sources` expands paths (files, folders searched recursively for deck files, ``-`` for
stdin, ``ydke://`` URLs) and never stops on one bad path: a missing file is an unreadable source,
not an abort. :func:`check` reads and validates each source and never stops on one bad deck.

**Exit codes.** :class:`ExitCode` ``OK`` (0) when every deck read is legal, ``ILLEGAL`` (1) when
at least one is illegal, ``ERROR`` (2) when at least one source could not be read, *even if other
decks are illegal*: a run that could not check everything is not a verdict. Every output still
lists both the illegal decks and the unreadable sources.
"""

from __future__ import annotations

import datetime as _dt
import enum
import fnmatch
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from deckcheck.error import DeckcheckError, DeckReadError
from deckcheck.report import Report

if TYPE_CHECKING:
    from deckcheck.banlist import TcgRegion
    from deckcheck.dataset import Dataset
    from deckcheck.format import Format

STDIN = "-"
"""The path that means standard input."""
SNIFF_BYTES = 1 << 20
"""Most bytes of a ``.json`` file read to decide, in a folder scan, whether it is a deck."""


class ExitCode(enum.IntEnum):
    """Exit code of a batch (and of the CLI)."""

    OK = 0
    """Every deck read is legal (warnings allowed)."""
    ILLEGAL = 1
    """At least one deck is illegal, and every source was read."""
    ERROR = 2
    """At least one source could not be read (or deckcheck could not run at all)."""


class SourceKind(enum.StrEnum):
    """Where a deck comes from."""

    FILE = "file"
    STDIN = "stdin"
    URL = "url"
    MEMORY = "memory"
    """A deck already in memory (an upload, a zip entry): ``content`` holds its bytes."""


@dataclass(frozen=True, slots=True)
class Source:
    """One deck source: a file, standard input or a ``ydke://`` URL.

    ``error`` is set when the source is already known to be unreadable (a missing path, a folder
    without decks); ``skip`` when a folder scan decided it is not a deck (it is then neither read
    nor counted as unreadable).
    """

    kind: SourceKind
    path: str
    """The path as given (or found in a folder), ``-``, or the URL."""
    error: str | None = None
    skip: str | None = None
    content: bytes | None = field(default=None, repr=False)
    """The deck's bytes, for a :attr:`SourceKind.MEMORY` source (nothing is read from disk)."""

    @classmethod
    def memory(cls, name: str, content: bytes | str) -> Source:
        """A deck held in memory, named ``name`` in reports (an upload's file name, say)."""
        raw = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
        return cls(SourceKind.MEMORY, name, content=raw)

    @property
    def label(self) -> str:
        """How reports name the source: the path, ``<stdin>`` or ``<ydke URL>``."""
        if self.kind is SourceKind.STDIN:
            return "<stdin>"
        if self.kind is SourceKind.URL:
            return "<ydke URL>"
        return self.path


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A source that could not be read: where, why, and the line where known."""

    path: str
    error: str
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file a folder scan did not take for a deck, and why."""

    path: str
    reason: str


@dataclass(frozen=True, slots=True)
class Summary:
    """Totals of a batch."""

    decks: int
    """Decks read and validated."""
    legal: int
    illegal: int
    errors: int
    """Violations of severity error, over all decks."""
    warnings: int
    notes: int
    unreadable: int
    """Sources that could not be read."""
    skipped: int = 0
    """Files a folder scan did not take for decks."""


@dataclass(frozen=True)
class Batch:
    """The result of checking many sources: reports, unreadable sources, summary, exit code."""

    format: str
    date: date
    reports: tuple[Report, ...]
    unreadable: tuple[Unreadable, ...]
    skipped: tuple[Skipped, ...] = ()
    data_as_of: _dt.date | None = None
    """As-of date of the dataset the batch was checked against."""
    data_fingerprint: str | None = None
    """Fingerprint of that dataset."""
    summary: Summary = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "summary", summarize(self.reports, self.unreadable, self.skipped))

    @property
    def exit_code(self) -> ExitCode:
        """ERROR if any source was unreadable, else ILLEGAL if any deck is, else OK."""
        if self.unreadable:
            return ExitCode.ERROR
        if any(not r.legal for r in self.reports):
            return ExitCode.ILLEGAL
        return ExitCode.OK

    def verdict(self, *, strict: bool = False) -> ExitCode:
        """:attr:`exit_code`; with ``strict``, a deck with a warning also gives ILLEGAL."""
        code = self.exit_code
        if strict and code is ExitCode.OK and self.summary.warnings:
            return ExitCode.ILLEGAL
        return code


def summarize(
    reports: Iterable[Report],
    unreadable: Sequence[Unreadable] = (),
    skipped: Sequence[Skipped] = (),
) -> Summary:
    """Totals over reports (and the unreadable and skipped sources of a batch)."""
    decks = legal = errors = warnings = notes = 0
    for r in reports:
        decks += 1
        legal += r.legal
        for v in r.violations:
            sev = v.severity.value
            if sev == "error":
                errors += 1
            elif sev == "warning":
                warnings += 1
            else:
                notes += 1
    return Summary(decks, legal, decks - legal, errors, warnings, notes, len(unreadable),
                   len(skipped))  # fmt: skip


# ---------------------------------------------------------------------------------------------
# sources


def is_url(text: str) -> bool:
    """True for a ``ydke://`` URL (any case)."""
    return text.strip()[:7].lower() == "ydke://"


def sources(paths: Iterable[str], *, exclude: Sequence[str] = ()) -> Iterator[Source]:
    """The deck sources named by ``paths``; never raises for a bad path.

    A folder is searched recursively for deck files (``.ydk .ydke .txt .json .omega``), sorted;
    ``exclude`` globs (matched against the path relative to the folder, and each of its parts)
    leave files out. ``-`` is standard input (once, however often given); a ``ydke://`` URL is
    read as is. A missing path or a folder without decks is an unreadable source.
    """
    stdin_seen = False
    for p in paths:
        if p == STDIN:
            if not stdin_seen:
                stdin_seen = True
                yield Source(SourceKind.STDIN, p)
            continue
        if is_url(p):
            yield Source(SourceKind.URL, p)
            continue
        path = Path(p)
        try:
            is_dir = path.is_dir()
            exists = is_dir or path.exists()
        except (OSError, ValueError) as exc:
            yield Source(SourceKind.FILE, p, error=f"cannot read: {exc}")
            continue
        if is_dir:
            yield from _folder(path, exclude)
        elif exists:
            yield Source(SourceKind.FILE, p)
        else:
            yield Source(SourceKind.FILE, p, error="no such file or folder")


def _excluded(rel: Path, exclude: Sequence[str]) -> bool:
    text = rel.as_posix()
    return any(
        fnmatch.fnmatch(text, pat) or any(fnmatch.fnmatch(part, pat) for part in rel.parts)
        for pat in exclude
    )


def _folder(folder: Path, exclude: Sequence[str]) -> Iterator[Source]:
    from deckcheck.io.detect import DECK_SUFFIXES

    found = False
    try:
        files = sorted(
            f for f in folder.rglob("*") if f.suffix.lower() in DECK_SUFFIXES and f.is_file()
        )
    except OSError as exc:
        yield Source(SourceKind.FILE, str(folder), error=f"cannot list folder: {exc}")
        return
    for f in files:
        if exclude and _excluded(f.relative_to(folder), exclude):
            continue
        found = True
        reason = _not_a_deck(f)
        yield Source(SourceKind.FILE, str(f), skip=reason)
    if not found:
        yield Source(
            SourceKind.FILE,
            str(folder),
            error=f"no deck files ({', '.join(DECK_SUFFIXES)}) in this folder",
        )


def _not_a_deck(path: Path) -> str | None:
    """In a folder scan, why a ``.json`` file is not taken for a deck (None: it is one)."""
    if path.suffix.lower() != ".json":
        return None
    try:
        with open(path, "rb") as handle:
            raw = handle.read(SNIFF_BYTES)
    except OSError:
        return None  # let the reader report it as unreadable
    try:
        doc = json.loads(raw)
    except (ValueError, RecursionError):
        doc = None
    if isinstance(doc, dict) and "deckcheck" in doc:
        return None
    return "not a deckcheck deck JSON file"


# ---------------------------------------------------------------------------------------------
# checking


def check(
    items: Iterable[Source | str],
    format: Format | str = "tcg",
    date: date | None = None,
    *,
    allow_prerelease: bool = False,
    data: Dataset | None = None,
    progress: Callable[[int, str], None] | None = None,
    region: TcgRegion | str | None = None,
) -> Batch:
    """Read and validate every source; one bad source never stops the rest.

    ``items`` are :class:`Source` values or plain paths (expanded with :func:`sources`).
    ``region`` (``na``/``eu``) is passed to :func:`~deckcheck.validate`.
    ``progress`` is called with the count done and the source's label after each source.
    """
    from deckcheck.dataset import resolve_data
    from deckcheck.format import Pool
    from deckcheck.io import read_deck, read_path
    from deckcheck.validation import _today, validate

    ds = resolve_data(data)
    fmt = ds.format(format) if isinstance(format, str) else format
    if region is not None:
        fmt = fmt.in_region(region)
    when = date if date is not None else _today()
    rush = fmt.pool is Pool.RUSH
    reports: list[Report] = []
    unreadable: list[Unreadable] = []
    skipped: list[Skipped] = []
    for done, src in enumerate(_as_sources(items), 1):
        if src.skip is not None:
            skipped.append(Skipped(src.path, src.skip))
        elif src.error is not None:
            unreadable.append(Unreadable(src.path, f"{src.path}: {src.error}"))
        else:
            try:
                if src.content is not None:
                    deck = read_deck(src.content, source=src.label, rush=rush, data=ds)
                else:
                    deck = read_path(src.path, rush=rush, data=ds)
            except DeckReadError as exc:
                unreadable.append(Unreadable(src.label, str(exc), exc.line))
            except DeckcheckError as exc:
                unreadable.append(Unreadable(src.label, str(exc)))
            else:
                reports.append(
                    validate(deck, fmt, when, allow_prerelease=allow_prerelease, path=src.label,
                             data=ds)
                )  # fmt: skip
        if progress is not None:
            progress(done, src.label)
    return Batch(fmt.id, when, tuple(reports), tuple(unreadable), tuple(skipped), ds.as_of,
                 ds.fingerprint)  # fmt: skip


def _as_sources(items: Iterable[Source | str]) -> Iterator[Source]:
    pending: list[str] = []
    for item in items:
        if isinstance(item, Source):
            if pending:
                yield from sources(pending)
                pending = []
            yield item
        else:
            pending.append(item)
    if pending:
        yield from sources(pending)
