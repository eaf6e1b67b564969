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
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from deckcheck.error import DeckcheckError, DeckReadError
from deckcheck.error import ExitCode as ExitCode  # re-exported: batches have exit codes
from deckcheck.validation.report import Report

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.deck.model import Deck
    from deckcheck.rule.banlist import TcgRegion
    from deckcheck.rule.format import Format
    from deckcheck.source.registration import Registration

STDIN = "-"
"""The path that means standard input."""
SNIFF_BYTES = 1 << 20
"""Most bytes of a ``.json`` or ``.txt`` file read to decide, in a folder scan, whether it is a
deck (the deck readers' own cap, :data:`deckcheck.deck.io.MAX_INPUT_BYTES`)."""


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
    duplicates: int = 0
    """Registrations whose player id an earlier row already registered."""


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
    rows: tuple[Report | Unreadable, ...] = ()
    """Reports and unreadable sources together, in source order (one per registration)."""
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
    decks = legal = errors = warnings = notes = duplicates = 0
    for u in unreadable:
        duplicates += u.registration is not None and u.registration.duplicate_of is not None
    for r in reports:
        duplicates += r.registration is not None and r.registration.duplicate_of is not None
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
                   len(skipped), duplicates)  # fmt: skip


# ---------------------------------------------------------------------------------------------
# sources


def is_url(text: str) -> bool:
    """True for a ``ydke://`` URL (any case)."""
    return text.strip()[:7].lower() == "ydke://"


def sources(
    paths: Iterable[str], *, exclude: Sequence[str] = (), data: Dataset | None = None
) -> Iterator[Source]:
    """The deck sources named by ``paths``; never raises for a bad path.

    ``-`` is standard input (once, however often given); a ``ydke://`` URL (any case) is read as
    is; a missing path is an unreadable source. A folder is searched recursively, in path order,
    for deck files (``.ydk .ydke .txt .json .omega``), with these rules:

    * ``exclude`` globs, matched against the path relative to the folder and each of its parts,
      leave files and folders out (silently: the caller asked);
    * hidden files and folders, tool folders (:data:`TOOL_FOLDERS`, virtual environments) and
      paths ignored by the ``.gitignore`` files met on the way down are skipped;
    * a ``.json`` file is a deck only if it is deckcheck's JSON form, a ``.txt`` file only if it
      reads like a deck (most lines a card or a heading); at most :data:`SNIFF_BYTES` are read;
    * symbolic links are followed only to a file inside the folder; others are skipped, and a
      broken link is unreadable; devices, FIFOs and sockets are skipped;
    * a sub-folder that cannot be listed, and a folder with nothing to read, are unreadable.

    Skipped paths come back as sources with ``skip`` set (a :class:`Skipped` record in the batch),
    so a caller can say what was left out.

    A ``.zip`` gives its deck entries (:mod:`deckcheck.source.archive`), a ``.csv`` its
    registrations
    (:mod:`deckcheck.source.registration`).
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
            yield from _folder(path, exclude, data)
        elif exists and p.lower().endswith((".zip", ".csv")):
            yield from _bundle(p)
        elif exists:
            yield Source(SourceKind.FILE, p)
        else:
            yield Source(SourceKind.FILE, p, error="no such file or folder")


def _suffixes() -> tuple[str, ...]:
    """The deck file suffixes (imported on use: the readers are not needed to start the CLI)."""
    from deckcheck.deck.io.detect import DECK_SUFFIXES

    return DECK_SUFFIXES


VCS_FOLDERS = frozenset({".git", ".hg", ".svn", ".bzr"})
"""Version-control folders: never scanned, never mentioned."""
TOOL_FOLDERS = frozenset(
    {"node_modules", "__pycache__", "site-packages", "bower_components", "venv", "virtualenv"}
)
"""Folders of tools a folder scan skips (as it skips hidden folders and virtual environments)."""


def _bundle(path: str) -> Iterator[Source]:
    """The sources of a zip archive or a registrations CSV (one unreadable source if unusable)."""
    from deckcheck.source.archive import (
        SEPARATOR,
        csv_entries,
        is_archive,
        list_entries,
        registration_sources,
    )
    from deckcheck.source.registration import read_registrations

    try:
        if is_archive(path) and (csvs := csv_entries(path)):
            got: list[Source] = registration_sources(path, csvs)
            what = "no registrations in the archive's CSV"
        elif is_archive(path):
            got = [
                Source(SourceKind.ZIP, path, e.error, e.skip, e.member,
                       display=f"{path}{SEPARATOR}{e.name}")
                for e in list_entries(path)
            ]  # fmt: skip
            what = f"no deck files ({', '.join(_suffixes())}) in this archive"
        else:
            got = read_registrations(path)
            what = "no registrations in this CSV (only a header?)"
        if not got:
            yield Source(SourceKind.FILE, path, error=what)
        yield from got
    except DeckcheckError as exc:
        yield Source(SourceKind.FILE, path, error=str(exc).removeprefix(f"{path}: "))
        # (a message naming a line, "regs.csv:3: ...", is kept whole)


def _excluded(rel: PurePosixPath, exclude: Sequence[str]) -> bool:
    text = rel.as_posix()
    return any(
        fnmatch.fnmatch(text, pat) or any(fnmatch.fnmatch(part, pat) for part in rel.parts)
        for pat in exclude
    )


class _Ignore:
    """The ``.gitignore`` files met on the way down a folder scan (deepest decides)."""

    def __init__(self, specs: tuple[tuple[PurePosixPath, Any], ...] = ()) -> None:
        self.specs = specs

    def enter(self, folder: Path, rel: PurePosixPath) -> _Ignore:
        """The rules in force inside ``folder`` (its own ``.gitignore`` added, if any)."""
        path = folder / ".gitignore"
        try:
            if not path.is_file():
                return self
            with open(path, "rb") as handle:
                raw = handle.read(SNIFF_BYTES)
        except OSError:
            return self
        lines = raw.decode("utf-8", "replace").splitlines()
        return _Ignore((*self.specs, (rel, _gitignore_spec(lines))))

    def ignored(self, rel: PurePosixPath, is_dir: bool) -> bool:
        """Whether ``rel`` (relative to the scanned folder) is ignored."""
        for base, spec in reversed(self.specs):
            sub = rel.relative_to(base).as_posix() + ("/" if is_dir else "")
            include = spec.check_file(sub).include
            if include is not None:
                return bool(include)
        return False


def _gitignore_spec(lines: list[str]) -> Any:
    """The rules of a ``.gitignore``; lines git would not understand either are left out."""
    import pathspec

    def compiled(some: list[str]) -> Any:
        spec = pathspec.GitIgnoreSpec.from_lines(some)
        spec.check_file("x/y")  # some bad patterns fail only when first used
        return spec

    try:
        return compiled(lines)
    except (ValueError, re.error):  # a bad pattern: keep the good ones
        good = []
        for line in lines:
            try:
                compiled([line])
            except (ValueError, re.error):
                continue
            good.append(line)
        return compiled(good)


def _is_venv(path: Path) -> bool:
    try:
        return (path / "pyvenv.cfg").is_file()
    except OSError:
        return False


def _folder(folder: Path, exclude: Sequence[str], data: Dataset | None = None) -> Iterator[Source]:
    """The deck sources under ``folder``, in path order (see :func:`sources` for the rules)."""
    try:
        root = folder.resolve()
    except (OSError, RuntimeError) as exc:
        yield Source(SourceKind.FILE, str(folder), error=f"cannot read folder: {exc}")
        return
    found = skipped = 0
    for src in _walk(folder, PurePosixPath(), root, exclude, _Ignore(), data):
        if src.skip is None:
            found += 1
        else:
            skipped += 1
        yield src
    if not found:
        also = f" ({skipped} skipped)" if skipped else ""
        yield Source(
            SourceKind.FILE,
            str(folder),
            error=f"no deck files ({', '.join(_suffixes())}) in this folder{also}",
        )


def _walk(
    top: Path,
    rel_top: PurePosixPath,
    root: Path,
    exclude: Sequence[str],
    ignore_top: _Ignore,
    data: Dataset | None,
) -> Iterator[Source]:
    """Depth-first, in path order, without recursion (a hostile tree may be thousands deep)."""
    suffixes = _suffixes()
    listing = _listing(top)
    if isinstance(listing, Source):
        yield listing
        return
    frames = [(top, rel_top, ignore_top.enter(top, rel_top), iter(listing))]
    while frames:
        folder, rel, ignore, entries = frames[-1]
        entry = next(entries, None)
        if entry is None:
            frames.pop()
            continue
        name = entry.name
        path = folder / name
        sub = rel / name
        if exclude and _excluded(sub, exclude):
            continue
        try:
            is_link = entry.is_symlink()
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError as exc:
            yield Source(SourceKind.FILE, str(path), error=f"cannot read: {exc.strerror or exc}")
            continue
        if is_dir:
            if name in VCS_FOLDERS:
                continue
            if name.startswith("."):
                yield Source(SourceKind.FILE, str(path), skip="hidden folder")
            elif name in TOOL_FOLDERS or _is_venv(path):
                yield Source(SourceKind.FILE, str(path), skip="tool folder")
            elif ignore.ignored(sub, True):
                yield Source(SourceKind.FILE, str(path), skip="ignored by .gitignore")
            else:
                listing = _listing(path)
                if isinstance(listing, Source):
                    yield listing
                else:
                    frames.append((path, sub, ignore.enter(path, sub), iter(listing)))
            continue
        if Path(name).suffix.lower() not in suffixes:
            continue
        if name.startswith("."):
            yield Source(SourceKind.FILE, str(path), skip="hidden file")
        elif ignore.ignored(sub, False):
            yield Source(SourceKind.FILE, str(path), skip="ignored by .gitignore")
        elif is_link:
            yield _link(path, root, data)
        else:
            yield _file(path, entry, data)


def _listing(folder: Path) -> list[os.DirEntry[str]] | Source:
    """The entries of a folder by name, or the unreadable source saying why not."""
    try:
        with os.scandir(folder) as it:
            return sorted(it, key=lambda e: e.name)
    except OSError as exc:
        return Source(
            SourceKind.FILE, str(folder), error=f"cannot list folder: {exc.strerror or exc}"
        )


def _link(path: Path, root: Path, data: Dataset | None) -> Source:
    """A symbolic link met in a folder scan: followed only to a file inside the folder."""
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError) as exc:
        reason = getattr(exc, "strerror", None) or "a loop"
        return Source(SourceKind.FILE, str(path), error=f"broken symbolic link ({reason})")
    if not target.is_relative_to(root):
        return Source(SourceKind.FILE, str(path), skip="symbolic link out of the folder")
    if target.is_dir():
        return Source(SourceKind.FILE, str(path), skip="symbolic link to a folder")
    try:
        st = target.stat()
    except OSError as exc:
        return Source(SourceKind.FILE, str(path), error=f"cannot read: {exc.strerror or exc}")
    return _checked(path, st, data)


def _file(path: Path, entry: os.DirEntry[str], data: Dataset | None) -> Source:
    try:
        st = entry.stat(follow_symlinks=False)
    except OSError as exc:
        return Source(SourceKind.FILE, str(path), error=f"cannot read: {exc.strerror or exc}")
    return _checked(path, st, data)


def _checked(path: Path, st: os.stat_result, data: Dataset | None) -> Source:
    if not stat.S_ISREG(st.st_mode):
        return Source(SourceKind.FILE, str(path), skip="not a regular file")
    return Source(SourceKind.FILE, str(path), skip=_not_a_deck(path, st.st_size, data))


def _not_a_deck(path: Path, size: int, data: Dataset | None = None) -> str | None:
    """In a folder scan, why a ``.json`` or ``.txt`` file is not taken for a deck (None: it is).

    At most :data:`SNIFF_BYTES` are read. A file that cannot be read is taken (the reader then
    reports it as unreadable).
    """
    suffix = path.suffix.lower()
    if suffix not in (".json", ".txt"):
        return None
    if size > SNIFF_BYTES:
        return f"over the {SNIFF_BYTES >> 20} MiB limit of a deck file"
    try:
        with open(path, "rb") as handle:
            raw = handle.read(SNIFF_BYTES + 1)
    except OSError:
        return None  # let the reader report it as unreadable
    if len(raw) > SNIFF_BYTES:
        return f"over the {SNIFF_BYTES >> 20} MiB limit of a deck file"
    if suffix == ".json":
        return None if _json_deck(raw) else "not a deckcheck deck JSON file"
    return None if _text_deck(raw, data) else "not a deck list"


def _json_deck(raw: bytes) -> bool:
    try:
        doc = json.loads(raw)
    except (ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and "deckcheck" in doc


def _text_deck(raw: bytes, data: Dataset | None) -> bool:
    """Whether a ``.txt`` file reads like a deck (any deck format, or a text list)."""
    from deckcheck.data.dataset import resolve_data
    from deckcheck.deck.io.builder import decode_input
    from deckcheck.deck.io.detect import DeckFormat, detect_text
    from deckcheck.deck.io.text import looks_like_deck

    try:
        text = decode_input(raw)
    except DeckcheckError:
        return True  # the reader says why it cannot be read
    kind = detect_text(text)
    if kind is DeckFormat.JSON:
        return _json_deck(raw)
    if kind is not DeckFormat.TEXT:
        return True
    return looks_like_deck(text, resolve_data(data).cards)


# ---------------------------------------------------------------------------------------------
# checking

PARALLEL_MIN = 64
"""Fewest sources worth starting worker processes for (fewer are checked in-process)."""


def check(
    items: Iterable[Source | str],
    format: Format | str = "tcg",
    date: date | None = None,
    *,
    allow_prerelease: bool = False,
    data: Dataset | None = None,
    progress: Callable[[int, str], None] | None = None,
    region: TcgRegion | str | None = None,
    jobs: int | None = 1,
) -> Batch:
    """Read and validate every source; one bad source never stops the rest.

    ``items`` are :class:`Source` values or plain paths (expanded with :func:`sources`).
    ``progress`` is called with the count of sources done and the last one's label, after each
    source (after each chunk of sources when working in parallel). ``jobs`` is the number of
    worker processes (None: one per CPU); with more than one, chunks of sources are checked in a
    process pool whose workers each open the same dataset once, and the results come back in
    source order, exactly as one process would give them.

    Each report carries the deck's fingerprint (:func:`deckcheck.deck.model.fingerprint_deck`) and,
    for a registrations CSV, its registration.
    ``region`` (``na``/``eu``) is passed to :func:`~deckcheck.validate`. Raises
    :class:`~deckcheck.error.DateRangeError`, before reading anything, for a date before the
    format's first list.
    """
    from deckcheck.data.dataset import resolve_data
    from deckcheck.validation.engine import _today

    ds = resolve_data(data)
    fmt = ds.format(format) if isinstance(format, str) else format
    if region is not None:
        fmt = fmt.in_region(region)
    when = date if date is not None else _today()
    fmt.require_date(when, ds)
    srcs = list(expand_sources(items, ds))
    workers = _jobs(jobs)
    job = _Job(fmt, when, allow_prerelease, None)  # fmt is already in the region
    if workers > 1 and len(srcs) >= PARALLEL_MIN:
        outcomes = _parallel(srcs, job, ds, workers, progress)
    else:
        outcomes = []
        for done, src in enumerate(srcs, 1):
            outcomes.append(_check_one(src, job, ds))
            if progress is not None:
                progress(done, src.label)
    reports: list[Report] = []
    unreadable: list[Unreadable] = []
    skipped: list[Skipped] = []
    rows: list[Report | Unreadable] = []
    for got in outcomes:
        if isinstance(got, Skipped):
            skipped.append(got)
            continue
        if isinstance(got, Report):
            reports.append(got)
        else:
            unreadable.append(got)
        rows.append(got)
    return Batch(fmt.id, when, tuple(reports), tuple(unreadable), tuple(skipped), ds.as_of,
                 ds.fingerprint, tuple(rows))  # fmt: skip


Outcome = Report | Unreadable | Skipped


class _Job:
    """What every source of a batch is checked against (sent once to each worker)."""

    __slots__ = ("allow_prerelease", "date", "format", "region")

    def __init__(
        self, format: Format, date: date, allow_prerelease: bool, region: TcgRegion | str | None
    ) -> None:
        self.format = format
        self.date = date
        self.allow_prerelease = allow_prerelease
        self.region = region


def _jobs(jobs: int | None) -> int:
    import os

    if jobs is None or jobs <= 0:
        return os.cpu_count() or 1
    return jobs


def _read(src: Source, rush: bool, ds: Dataset) -> Deck:
    from deckcheck.deck.io import read_deck, read_path

    if src.kind is SourceKind.ZIP:
        from deckcheck.source.archive import read_entry

        try:
            raw = read_entry(src.path, src.entry or "")
        except DeckReadError as exc:
            raise DeckReadError(exc.reason, src.label, exc.line) from exc
        return read_deck(raw, source=src.label, rush=rush, data=ds)
    if src.kind in (SourceKind.INLINE, SourceKind.MEMORY):
        return read_deck(src.content or "", source=src.label, rush=rush, data=ds)
    return read_path(src.path, rush=rush, data=ds)


def _check_one(src: Source, job: _Job, ds: Dataset) -> Outcome:
    """Read and validate one source; every failure becomes an :class:`Unreadable`."""
    from dataclasses import replace

    from deckcheck.deck.model import fingerprint_deck
    from deckcheck.rule.format import Pool
    from deckcheck.validation.engine import validate

    reg = src.registration
    if src.skip is not None:
        return Skipped(src.label, src.skip)
    if src.error is not None:
        where = "" if src.error.startswith(f"{src.label}:") else f"{src.label}: "
        return Unreadable(src.label, f"{where}{src.error}", None, reg)
    try:
        deck = _read(src, job.format.pool is Pool.RUSH, ds)
    except DeckReadError as exc:
        return Unreadable(src.label, str(exc), exc.line, reg)
    except DeckcheckError as exc:
        return Unreadable(src.label, f"{src.label}: {exc}", None, reg)
    except Exception as exc:  # a bug must not stop the other decks
        return Unreadable(src.label, f"{src.label}: unexpected {type(exc).__name__}: {exc}",
                          None, reg)  # fmt: skip
    try:
        report = validate(deck, job.format, job.date, allow_prerelease=job.allow_prerelease,
                          path=src.label, data=ds, region=job.region)  # fmt: skip
    except Exception as exc:  # a bug must not stop the other decks either
        return Unreadable(src.label, f"{src.label}: could not be checked: unexpected "
                          f"{type(exc).__name__}: {exc} (please report it)", None, reg)  # fmt: skip
    from deckcheck.run.meta import deck_contents

    return replace(report, fingerprint=fingerprint_deck(deck), registration=reg,
                   contents=deck_contents(deck))  # fmt: skip


# -- the process pool ---------------------------------------------------------------------------

_PARENT: Dataset | None = None
"""The dataset of the batch being started (a forked worker inherits it, already loaded)."""
_WORKER: tuple[_Job, Dataset] | None = None


def _init_worker(folder: str, fingerprint: str, job: _Job) -> None:
    """Worker initializer: open the batch's dataset once (or keep the forked parent's)."""
    global _WORKER
    from deckcheck.data.dataset import Dataset
    from deckcheck.error import DataError

    ds = _PARENT
    if ds is None or str(ds.folder) != folder or ds.fingerprint != fingerprint:
        ds = Dataset.open(folder)
        if ds.fingerprint != fingerprint:
            raise DataError(f"{folder}: the data changed while the batch was starting")
    _WORKER = (job, ds)


def _check_chunk(chunk: list[Source]) -> list[Outcome]:
    assert _WORKER is not None, "worker not initialised"
    job, ds = _WORKER
    return [_check_one(src, job, ds) for src in chunk]


def _parallel(
    srcs: list[Source],
    job: _Job,
    ds: Dataset,
    workers: int,
    progress: Callable[[int, str], None] | None,
) -> list[Outcome]:
    """Chunks of sources checked in a process pool; outcomes in source order."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    from deckcheck.validation.engine import ruleset

    global _PARENT
    size = max(16, min(500, -(-len(srcs) // (workers * 8))))
    chunks = [srcs[i : i + size] for i in range(0, len(srcs), size)]
    # load what every worker needs before forking, so forked workers inherit it
    ruleset(job.format, job.date, job.allow_prerelease, ds)
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    results: list[list[Outcome] | None] = [None] * len(chunks)
    done = 0
    _PARENT = ds
    try:
        with ProcessPoolExecutor(
            max_workers=min(workers, len(chunks)),
            mp_context=ctx,
            initializer=_init_worker,
            initargs=(str(ds.folder), ds.fingerprint, job),
        ) as pool:
            pending: dict[Future[list[Outcome]], int] = {
                pool.submit(_check_chunk, chunk): i for i, chunk in enumerate(chunks)
            }
            try:
                while pending:
                    finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in finished:
                        i = pending.pop(fut)
                        results[i] = fut.result()
                        done += len(chunks[i])
                        if progress is not None:
                            progress(done, chunks[i][-1].label)
            except BaseException:
                pool.shutdown(wait=False, cancel_futures=True)
                raise
    except BrokenProcessPool:
        pass  # a worker died (out of memory, killed): finish the rest in this process
    finally:
        _PARENT = None
    out: list[Outcome] = []
    for i, got in enumerate(results):
        if got is None:
            got = [_check_one(src, job, ds) for src in chunks[i]]
            done += len(chunks[i])
            if progress is not None:
                progress(done, chunks[i][-1].label)
        out.extend(got)
    return out


def expand_sources(items: Iterable[Source | str], data: Dataset | None = None) -> Iterator[Source]:
    """``items`` as sources: :class:`Source` values as they are, runs of plain paths expanded
    with :func:`sources` (folder scans, zips, registration CSVs), in order."""
    pending: list[str] = []
    for item in items:
        if isinstance(item, Source):
            if pending:
                yield from sources(pending, data=data)
                pending = []
            yield item
        else:
            pending.append(item)
    if pending:
        yield from sources(pending, data=data)
