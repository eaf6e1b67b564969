"""Paths to sources: files, folders (scanned recursively), zips, registration CSVs, stdin and
``ydke://`` URLs, as a stream of :class:`~deckcheck.source.record.Source` records that never
raises for a bad path.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from deckcheck.boundary import is_regular_file
from deckcheck.error import DeckcheckError
from deckcheck.source import sniff
from deckcheck.source.record import (
    STDIN,
    Found,
    Skipped,
    SkipReason,
    Source,
    SourceKind,
    Unreadable,
    UnreadableReason,
    is_url,
)

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset


def source_items(items: object, argument: str = "paths") -> list[Source | str]:
    """``items`` (the sources a public function was given) as a list of paths and
    :class:`Source` values, checked.

    A bare string (or path) is taken as one source only when it is one deckcheck can use: ``-``,
    a ``ydke://`` URL, or an existing file or folder; any other bare string, bytes, or an item
    that is neither a path nor a :class:`Source`, raises
    :class:`~deckcheck.error.ArgumentError` naming ``argument``. (Iterating a string would read
    each of its characters as a path, and ``"x/"`` would scan ``/``.)
    """
    from deckcheck.error import ArgumentError

    if isinstance(items, Source):
        return [items]
    if isinstance(items, str | os.PathLike):
        text = os.fspath(items)
        if isinstance(text, str) and (text == STDIN or is_url(text) or _exists(text)):
            return [text]
        raise ArgumentError(
            f"{argument} must be a list of paths or sources, not a bare string: {text!r} is not "
            "an existing file or folder, '-' or a ydke:// URL",
            argument,
        )
    if isinstance(items, bytes | bytearray) or not isinstance(items, Iterable):
        raise ArgumentError(
            f"{argument} must be a list of paths or sources, not {type(items).__name__}", argument
        )
    out: list[Source | str] = []
    for item in items:
        if isinstance(item, os.PathLike):
            item = os.fspath(item)
        if not isinstance(item, str | Source):
            raise ArgumentError(
                f"{argument}: each item must be a path (str) or a Source, not "
                f"{type(item).__name__}",
                argument,
            )
        if isinstance(item, str) and not item.strip():
            raise ArgumentError(
                f"{argument}: an empty path names no file (give '.' for the current folder)",
                argument,
            )
        out.append(item)
    return out


def _exists(text: str) -> bool:
    try:
        return text != "" and os.path.exists(text)
    except (OSError, ValueError):
        return False


def sources(
    paths: Iterable[str], *, exclude: Sequence[str] = (), data: Dataset | None = None
) -> Iterator[Source]:
    """The deck sources named by ``paths``; never raises for a bad path (a bare string that is
    not a usable path raises :class:`~deckcheck.error.ArgumentError`: see
    :func:`source_items`).

    ``-`` is standard input (once, however often given); a ``ydke://`` URL (any case) is read as
    is; a missing path is an unreadable source. A folder is searched recursively, in path order,
    for deck files (``.ydk .ydke .txt .json .omega``), with the one rule of
    :mod:`deckcheck.source.sniff` (hidden, tool and resource folders and hidden files skipped,
    ``.json``/``.txt`` files read to see whether they are decks) and these:

    * ``exclude`` globs (:func:`deckcheck.source.glob.path_glob`), matched against the path
      relative to the folder, leave files and folders out (silently: the caller asked);
    * paths ignored by the ``.gitignore`` files met on the way down are skipped;
    * symbolic links are followed only to a file inside the folder; others are skipped, and a
      broken link is unreadable; devices, FIFOs and sockets are skipped;
    * a sub-folder that cannot be listed, and a folder with nothing to read, are unreadable.

    Skipped paths come back as sources with ``skip`` set (a :class:`Skipped` record in the
    batch), so a caller can say what was left out. A ``.zip`` gives its deck entries
    (:mod:`deckcheck.source.archive`), a ``.csv`` its registrations
    (:mod:`deckcheck.source.registration`).
    """
    from deckcheck.error import ArgumentError

    given = source_items(paths)
    if not all(isinstance(p, str) for p in given):
        raise ArgumentError(
            "paths: each item must be a path (str); use expand_sources() for Source values", "paths"
        )
    return _sources([p for p in given if isinstance(p, str)], exclude, data)


def _sources(paths: list[str], exclude: Sequence[str], data: Dataset | None) -> Iterator[Source]:
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
        yield from _path(p, exclude, data)


def records(
    paths: Iterable[str], *, exclude: Sequence[str] = (), data: Dataset | None = None
) -> Iterator[Found | Skipped | Unreadable]:
    """:func:`sources` as a stream of records: each a deck to read (:data:`Found`), a path
    left out and why (:class:`Skipped`), or one that cannot be read and why
    (:class:`Unreadable`)."""
    for src in sources(paths, exclude=exclude, data=data):
        yield src.outcome() or src


def _path(p: str, exclude: Sequence[str], data: Dataset | None) -> Iterator[Source]:
    path = Path(p)
    try:
        is_dir = path.is_dir()
        exists = is_dir or path.exists()
    except (OSError, ValueError) as exc:
        yield Source(
            SourceKind.FILE, p, error=f"cannot read: {exc}", code=UnreadableReason.OS_ERROR
        )
        return
    if is_dir:
        yield from _folder(path, exclude, data)
    elif exists and not is_regular_file(p):  # a FIFO would block, a device never end
        yield Source(
            SourceKind.FILE,
            p,
            error="not a regular file (a FIFO, device...)",
            code=UnreadableReason.SPECIAL_FILE,
        )
    elif exists and p.lower().endswith((".zip", ".csv")):
        yield from _bundle(p, data)
    elif exists:
        yield Source(SourceKind.FILE, p)
    else:
        yield Source(
            SourceKind.FILE, p, error="no such file or folder", code=UnreadableReason.MISSING
        )


def _bundle(path: str, data: Dataset | None) -> Iterator[Source]:
    """The sources of a zip archive or a registrations CSV (one unreadable source if unusable)."""
    from deckcheck.source.archive import archive_sources, is_archive
    from deckcheck.source.registration import RegistrationError, read_registrations

    try:
        if is_archive(path):
            got, what = archive_sources(path, data=data)
        else:
            got = read_registrations(path)
            what = "no registrations in this CSV (only a header?)"
        if not got:
            yield Source(SourceKind.FILE, path, error=what, code=UnreadableReason.NO_DECKS)
        yield from got
    except DeckcheckError as exc:
        code = (
            UnreadableReason.BAD_ARCHIVE if is_archive(path) else UnreadableReason.BAD_REGISTRATIONS
        )
        line = exc.line if isinstance(exc, RegistrationError) else None
        error = str(exc).removeprefix(f"{path}: ")
        yield Source(SourceKind.FILE, path, error=error, code=code, error_line=line)
        # (a message naming a line, "regs.csv:3: ...", is kept whole)


# -- globs (one small place, so the glob engine can be swapped) -------------------------------


def excluded(rel: PurePosixPath, exclude: Sequence[str]) -> bool:
    """Whether an ``exclude`` glob matches ``rel`` (:mod:`deckcheck.source.glob`: a pattern
    without ``/`` matches a name at any depth, a folder covers its content)."""
    if not exclude:
        return False
    from deckcheck.source.glob import excluded as glob_excluded

    return glob_excluded(rel.as_posix(), exclude)


def gitignore_spec(lines: list[str]) -> Any:
    """The rules of a ``.gitignore`` (:class:`deckcheck.source.glob.GitIgnore`); lines git would
    not understand either are left out. Its ``decide(path, is_dir)`` is True, False or None."""
    from deckcheck.source.glob import GitIgnore

    return GitIgnore.from_lines(lines)


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
            with open(path, "rb") as handle:  # a regular file (checked above); a bounded read
                raw = handle.read(sniff.SNIFF_BYTES)
        except OSError:
            return self
        lines = raw.decode("utf-8", "replace").splitlines()
        return _Ignore((*self.specs, (rel, gitignore_spec(lines))))

    def ignored(self, rel: PurePosixPath, is_dir: bool) -> bool:
        """Whether ``rel`` (relative to the scanned folder) is ignored."""
        for base, spec in reversed(self.specs):
            include = spec.decide(rel.relative_to(base).as_posix(), is_dir)
            if include is not None:
                return bool(include)
        return False


# -- folders ------------------------------------------------------------------------------------


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
        yield Source(
            SourceKind.FILE,
            str(folder),
            error=f"cannot read folder: {exc}",
            code=UnreadableReason.OS_ERROR,
        )
        return
    found = skipped = 0
    for src in _Walk(root, exclude, data).walk(folder):
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
            error=f"no deck files ({', '.join(sniff.deck_suffixes())}) in this folder{also}",
            code=UnreadableReason.NO_DECKS,
        )


class _Walk:
    """One folder scan: depth-first, in path order, without recursion (a hostile tree may be
    thousands deep)."""

    def __init__(self, root: Path, exclude: Sequence[str], data: Dataset | None) -> None:
        self.root = root
        self.exclude = exclude
        self.data = data

    def walk(self, top: Path) -> Iterator[Source]:
        """Every source under ``top``."""
        listing = _listing(top)
        if isinstance(listing, Source):
            yield listing
            return
        rel_top = PurePosixPath()
        frames = [(top, rel_top, _Ignore().enter(top, rel_top), iter(listing))]
        while frames:
            folder, rel, ignore, entries = frames[-1]
            entry = next(entries, None)
            if entry is None:
                frames.pop()
                continue
            sub = rel / entry.name
            if self.exclude and excluded(sub, self.exclude):
                continue
            path = folder / entry.name
            try:
                is_link = entry.is_symlink()
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError as exc:
                yield Source(
                    SourceKind.FILE,
                    str(path),
                    error=f"cannot read: {_why(exc)}",
                    code=UnreadableReason.OS_ERROR,
                )
                continue
            if is_dir:
                got = self.folder(path, sub, ignore)
                if isinstance(got, Source):
                    yield got
                elif got is not None:
                    frames.append(got)
            elif sniff.is_deck_name(entry.name):
                yield self.file(path, sub, entry, ignore, is_link)

    def folder(
        self, path: Path, sub: PurePosixPath, ignore: _Ignore
    ) -> Source | tuple[Path, PurePosixPath, _Ignore, Iterator[os.DirEntry[str]]] | None:
        """A sub-folder: a skip, an unreadable listing, a frame to descend into, or None."""
        if sniff.is_vcs_folder(path.name):
            return None
        why = sniff.folder_skip(path.name, _is_venv(path))
        if why is None and ignore.ignored(sub, True):
            why = SkipReason.GITIGNORED
        if why is not None:
            return Source(SourceKind.FILE, str(path), skip=why)
        listing = _listing(path)
        if isinstance(listing, Source):
            return listing
        return (path, sub, ignore.enter(path, sub), iter(listing))

    def file(
        self,
        path: Path,
        sub: PurePosixPath,
        entry: os.DirEntry[str],
        ignore: _Ignore,
        is_link: bool,
    ) -> Source:
        """A file with a deck suffix."""
        why = sniff.name_skip(entry.name)
        if why is None and ignore.ignored(sub, False):
            why = SkipReason.GITIGNORED
        if why is not None:
            return Source(SourceKind.FILE, str(path), skip=why)
        if is_link:
            return _link(path, self.root, self.data)
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError as exc:
            return Source(
                SourceKind.FILE,
                str(path),
                error=f"cannot read: {_why(exc)}",
                code=UnreadableReason.OS_ERROR,
            )
        return _checked(path, st, self.data)


def _why(exc: OSError) -> str:
    return str(exc.strerror or exc)


def _listing(folder: Path) -> list[os.DirEntry[str]] | Source:
    """The entries of a folder by name, or the unreadable source saying why not."""
    try:
        with os.scandir(folder) as it:
            return sorted(it, key=lambda e: e.name)
    except OSError as exc:
        return Source(
            SourceKind.FILE,
            str(folder),
            error=f"cannot list folder: {_why(exc)}",
            code=UnreadableReason.OS_ERROR,
        )


def _link(path: Path, root: Path, data: Dataset | None) -> Source:
    """A symbolic link met in a folder scan: followed only to a file inside the folder."""
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError) as exc:
        reason = getattr(exc, "strerror", None) or "a loop"
        return Source(
            SourceKind.FILE,
            str(path),
            error=f"broken symbolic link ({reason})",
            code=UnreadableReason.BROKEN_LINK,
        )
    if not target.is_relative_to(root):
        return Source(SourceKind.FILE, str(path), skip=SkipReason.LINK_OUTSIDE)
    if target.is_dir():
        return Source(SourceKind.FILE, str(path), skip=SkipReason.LINK_TO_FOLDER)
    try:
        st = target.stat()
    except OSError as exc:
        return Source(
            SourceKind.FILE,
            str(path),
            error=f"cannot read: {_why(exc)}",
            code=UnreadableReason.OS_ERROR,
        )
    return _checked(path, st, data)


def _checked(path: Path, st: os.stat_result, data: Dataset | None) -> Source:
    if not stat.S_ISREG(st.st_mode):
        return Source(SourceKind.FILE, str(path), skip=SkipReason.NOT_REGULAR_FILE)
    skip = _not_a_deck(path, st.st_size, data)
    refused = sniff.refusal(path.name, skip)
    if refused is not None:
        return Source(SourceKind.FILE, str(path), error=refused[0], code=refused[1])
    return Source(SourceKind.FILE, str(path), skip=skip)


def _not_a_deck(path: Path, size: int, data: Dataset | None = None) -> SkipReason | None:
    """Why a ``.json`` or ``.txt`` file is not taken for a deck (None: it is). A file that
    cannot be read is taken (the reader then reports it as unreadable)."""
    if not sniff.needs_sniff(path.name):
        return None
    if size > sniff.SNIFF_BYTES:
        return SkipReason.TOO_BIG_TO_SNIFF
    try:
        with open(path, "rb") as handle:  # a regular file (checked above); a bounded read
            raw = handle.read(sniff.SNIFF_BYTES + 1)
    except OSError:
        return None  # let the reader report it as unreadable
    return sniff.content_skip(path.name, raw, data)


def expand_sources(items: Iterable[Source | str], data: Dataset | None = None) -> Iterator[Source]:
    """``items`` as sources: :class:`Source` values as they are, runs of plain paths expanded
    with :func:`sources` (folder scans, zips, registration CSVs), in order. A bare string that
    is not a usable path raises :class:`~deckcheck.error.ArgumentError` (:func:`source_items`)."""
    return _expand(source_items(items, "items"), data)


def _expand(items: list[Source | str], data: Dataset | None) -> Iterator[Source]:
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
