"""Zip archives of deck files, read safely: nothing is ever extracted to disk.

One reader for a zip on disk (``deckcheck validate decks.zip``) and a zip in memory (an upload
to ``POST /v1/batch``), with the same caps and the same "is this a deck file" rule
(:mod:`deckcheck.source.sniff`). Each entry is read in memory, bounded, at most
:data:`~deckcheck.deck.io.MAX_INPUT_BYTES` (like any deck file). Hostile archives are expected:

* an archive whose end record declares more than :attr:`Limits.max_entries` entries, or whose
  central directory holds more, is refused before the directory is read (it is counted first,
  stopping at the cap);
* an entry whose name climbs out (``../x.ydk``), is absolute (``/x.ydk``, ``C:\\x.ydk``,
  ``\\\\server\\x``), is a symlink, is encrypted or uses an unsupported compression is a
  per-entry error (the rest of the archive is still read);
* an entry over :data:`~deckcheck.deck.io.MAX_INPUT_BYTES` uncompressed, or larger than
  :data:`MAX_RATIO` times its compressed size (once over :data:`RATIO_FLOOR` bytes), is a
  per-entry error; its data is never inflated;
* an entry whose data is damaged (bad deflate, bzip2 or LZMA data, a lying size, a bad CRC) is
  a per-entry error: reading never returns more than the declared size, and never raises;
* deck entries that declare more than :attr:`Limits.max_bytes` uncompressed in total refuse
  the archive as a whole, before any entry is read;
* two entries with the same name (after ``\\`` became ``/`` and ``./`` parts were dropped) refuse
  the archive: a later entry would otherwise hide an earlier one;
* names that are not UTF-8 are kept byte for byte and shown as ``\\xNN``.

An archive holding a ``.csv`` entry is a bundle of registrations instead: the CSV's deck paths
name entries of the archive, relative to the CSV's folder and never outside it.

The caps, the per-entry rules and the counted opening live in :mod:`deckcheck.source.entry`
(re-exported here); this module lists an archive's deck entries and reads them as sources.
"""

from __future__ import annotations

import os
import posixpath
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from deckcheck.deck.io.builder import MAX_INPUT_BYTES
from deckcheck.error import DeckReadError, DeckTooLargeError, InputError
from deckcheck.source import sniff
from deckcheck.source.entry import MAX_ENTRIES as MAX_ENTRIES
from deckcheck.source.entry import MAX_RATIO as MAX_RATIO
from deckcheck.source.entry import MAX_TOTAL_BYTES as MAX_TOTAL_BYTES
from deckcheck.source.entry import RATIO_FLOOR as RATIO_FLOOR
from deckcheck.source.entry import ArchiveError as ArchiveError
from deckcheck.source.entry import Entry as Entry
from deckcheck.source.entry import Limits as Limits
from deckcheck.source.entry import display_name as display_name
from deckcheck.source.entry import entry_code, is_symlink, open_zip, over_cap, read_member
from deckcheck.source.entry import entry_problem as entry_problem
from deckcheck.source.entry import unsafe_reason as unsafe_reason
from deckcheck.source.record import SkipReason, Source, SourceKind, UnreadableReason, read_code

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.source.registration import Registration

SEPARATOR = "!/"
"""Between the archive's path and an entry's name in labels: ``regs.zip!/decks/a.ydk``."""


def is_archive(path: str) -> bool:
    """True when ``path`` names a ``.zip`` file (by its suffix)."""
    return path.lower().endswith(".zip")


# -- listing: one pass over the directory -----------------------------------------------------


def _norm(name: str) -> str:
    return posixpath.normpath(name.replace("\\", "/"))


@dataclass
class _Listing:
    """What one pass over an archive's directory found."""

    decks: list[Entry] = field(default_factory=list)
    csvs: list[Entry] = field(default_factory=list)
    skipped: list[Entry] = field(default_factory=list)
    """Folders skipped by the sniff rule (once each)."""


class _Reader:
    """One open archive (on disk or in memory) and the rules it is read by."""

    def __init__(self, where: str | bytes, label: str, limits: Limits, data: Dataset | None):
        self.where = where
        self.label = label
        self.limits = limits
        self.data = data
        self.zf = open_zip(where, label, limits)
        self.budget = limits.max_bytes

    def close(self) -> None:
        """Close the archive."""
        self.zf.close()

    def read(self, info: zipfile.ZipInfo, limit: int | None = None) -> bytes:
        """One entry's bytes; DeckReadError if it cannot be read."""
        lim = self.limits.max_entry_bytes if limit is None else limit
        return read_member(self.zf, info, lim, self.limits.max_ratio)

    def listing(self) -> _Listing:
        """The deck and CSV entries, and the folders skipped, in archive order."""
        infos = self.zf.infolist()
        venvs = {
            posixpath.dirname(_norm(i.filename))
            for i in infos
            if _norm(i.filename).endswith("pyvenv.cfg")
        }
        out = _Listing()
        seen_names: dict[str, str] = {}
        seen_folders: set[str] = set()
        total = 0
        for info in infos:
            if info.is_dir() and not is_symlink(info):
                continue
            name = display_name(info)
            unsafe = unsafe_reason(name)
            if unsafe is not None:
                out.decks.append(
                    Entry(info.filename, name, error=unsafe, code=UnreadableReason.UNSAFE_ENTRY)
                )
                continue
            norm = _norm(name)
            folder = self._skipped_folder(norm, venvs, seen_folders)
            if folder is not None:
                if folder:
                    out.skipped.append(folder_entry(norm, folder, venvs))
                continue
            self._unique(norm, name, seen_names)
            entry = self._entry(info, name, norm)
            if entry is None:
                continue
            if norm.lower().endswith(".csv"):
                out.csvs.append(entry)
                continue
            if entry.error is None and entry.skip is None:
                total += info.file_size
                if total > self.limits.max_bytes:
                    raise over_cap(
                        self.label,
                        f"deck entries hold over {self.limits.max_bytes} "
                        "bytes uncompressed (refused as a possible zip bomb)",
                        self.limits,
                        1,
                        self.limits.max_bytes,
                    )
            out.decks.append(entry)
        return out

    def _skipped_folder(self, norm: str, venvs: set[str], seen: set[str]) -> str | None:
        """The folder (of ``norm``'s) the sniff rule skips: "" when already reported or a
        version-control folder, None when every folder is entered."""
        parts = norm.split("/")[:-1]
        for i, part in enumerate(parts):
            prefix = "/".join(parts[: i + 1])
            if sniff.is_vcs_folder(part):
                return ""
            why = sniff.folder_skip(part, prefix in venvs)
            if why is None:
                continue
            if prefix in seen:
                return ""
            seen.add(prefix)
            return prefix
        return None

    def _unique(self, norm: str, name: str, seen: dict[str, str]) -> None:
        """Refuse a second entry of the same name (it would hide the first)."""
        if not (sniff.is_deck_name(norm) or norm.lower().endswith(".csv")):
            return
        if norm in seen:
            raise ArchiveError(
                f"{self.label}: two entries are named {name!r}: refused (a later entry would "
                "hide an earlier one; rename one of them)"
            )
        seen[norm] = name

    def _entry(self, info: zipfile.ZipInfo, name: str, norm: str) -> Entry | None:
        """A deck (or CSV) entry with its error or skip reason; None: not a deck file."""
        base = norm.rsplit("/", 1)[-1]
        if norm.lower().endswith(".csv"):
            if sniff.name_skip(base) is not None:
                return None
            problem = entry_problem(info, _csv_limit())
            return Entry(info.filename, name, error=problem, code=entry_code(info, problem))
        if not sniff.is_deck_name(base):
            return None
        skip = sniff.name_skip(base)
        if skip is not None:
            return Entry(info.filename, name, skip=skip)
        problem = entry_problem(info, self.limits.max_entry_bytes, self.limits.max_ratio)
        if problem is not None:
            return Entry(info.filename, name, error=problem, code=entry_code(info, problem))
        if not sniff.needs_sniff(base):
            return Entry(info.filename, name)
        return self._sniffed(info, name, base)

    def _sniffed(self, info: zipfile.ZipInfo, name: str, base: str) -> Entry:
        """A ``.json``/``.txt`` entry, read to see whether it is a deck."""
        try:
            raw = self.read(info)
        except DeckReadError as exc:
            return Entry(info.filename, name, error=exc.reason, code=read_code(exc))
        skip = sniff.content_skip(base, raw, self.data)
        refused = sniff.refusal(base, skip)
        if refused is not None:
            return Entry(info.filename, name, error=refused[0], code=refused[1])
        return Entry(info.filename, name, skip=skip, content=raw)

    def source(
        self, entry: Entry, registration: Registration | None = None, shown: str | None = None
    ) -> Source:
        """The source of one deck entry: read on use for an archive on disk, read now (within
        the budget of the whole archive) for one in memory."""
        label = shown if shown is not None else f"{self.prefix}{entry.name}"
        if entry.error is not None or entry.skip is not None:
            return Source(
                self.kind,
                self.path,
                entry.error,
                entry.skip,
                entry.member,
                display=label,
                registration=registration,
                code=entry.code,
            )
        if isinstance(self.where, str):
            return Source(
                SourceKind.ZIP,
                self.where,
                None,
                None,
                entry.member,
                display=label,
                registration=registration,
            )
        raw = entry.content
        if raw is None:
            try:
                raw = self._budgeted(self.zf.getinfo(entry.member))
            except DeckReadError as exc:
                return Source(
                    SourceKind.MEMORY,
                    label,
                    exc.reason,
                    registration=registration,
                    code=read_code(exc),
                )
        return Source(SourceKind.MEMORY, label, content=raw, registration=registration)

    def _budgeted(self, info: zipfile.ZipInfo) -> bytes:
        """An entry read within what is left of the archive's byte budget."""
        cap = min(self.limits.max_entry_bytes, self.budget)
        raw = self.read(info, cap) if cap >= info.file_size else b""
        if cap < info.file_size or len(raw) > cap:
            if cap < self.limits.max_entry_bytes:
                what = f"the decks in the zip are over {self.limits.max_bytes} bytes uncompressed"
                raise over_cap(self.label, what, self.limits, 1, self.limits.max_bytes)
            raise DeckTooLargeError(f"over the {self.limits.max_entry_bytes} byte limit")
        self.budget -= len(raw)
        return raw

    @property
    def kind(self) -> SourceKind:
        """The kind of this archive's sources."""
        return SourceKind.ZIP if isinstance(self.where, str) else SourceKind.MEMORY

    @property
    def path(self) -> str:
        """The ``path`` of this archive's sources."""
        return self.where if isinstance(self.where, str) else self.label

    @property
    def prefix(self) -> str:
        """What labels start with: ``a.zip!/`` for an archive on disk, nothing for an upload."""
        return f"{self.where}{SEPARATOR}" if isinstance(self.where, str) else ""


def _defaults() -> Limits:
    """The caps of an archive on disk (the module's, read on use)."""
    return Limits(MAX_ENTRIES, MAX_TOTAL_BYTES, MAX_RATIO, MAX_INPUT_BYTES)


def folder_entry(norm: str, folder: str, venvs: set[str]) -> Entry:
    """The record of a folder the sniff rule skips (as a folder scan would)."""
    name = folder.rsplit("/", 1)[-1]
    return Entry(folder, folder, skip=sniff.folder_skip(name, folder in venvs))


def _csv_limit() -> int:
    from deckcheck.source.registration import MAX_CSV_BYTES

    return MAX_CSV_BYTES


# -- the public faces ---------------------------------------------------------------------------


def read_archive(
    where: str | bytes,
    *,
    label: str | None = None,
    limits: Limits | None = None,
    data: Dataset | None = None,
) -> list[Source]:
    """The deck sources of a zip on disk (``where`` a path) or in memory (bytes).

    Entries of a zip on disk are read when checked (:func:`read_entry`); those of a zip in
    memory are read now, within :attr:`Limits.max_bytes` in total. With a registrations CSV
    inside, its rows are the sources (deck paths naming entries next to the CSV), and the deck
    entries no row names are skipped. Raises :class:`ArchiveError` (or
    :class:`~deckcheck.error.LimitError`, when ``limits`` names settings) for an archive that
    cannot be used at all.
    """
    name = label if label is not None else (where if isinstance(where, str) else "upload")
    reader = _Reader(where, name, limits or _defaults(), data)
    try:
        found = reader.listing()
        if found.csvs:
            out = _registrations(reader, found)
        else:
            out = [reader.source(e) for e in found.decks]
        skipped = [
            Source(reader.kind, reader.path, skip=e.skip, display=f"{reader.prefix}{e.name}")
            for e in found.skipped
        ]
        return out + skipped  # the skipped folders after the entries (each named once)
    finally:
        reader.close()


def archive_sources(path: str, data: Dataset | None = None) -> tuple[list[Source], str]:
    """The sources of a zip on disk, and what to say when there are none."""
    got = read_archive(path, data=data)
    reg = any(s.registration is not None for s in got)
    what = (
        "no registrations in the archive's CSV"
        if reg
        else f"no deck files ({', '.join(sniff.deck_suffixes())}) in this archive"
    )
    return got, what


def read_zip(
    raw: bytes,
    *,
    max_entries: int,
    max_bytes: int,
    max_ratio: int,
    max_entry_bytes: int = MAX_INPUT_BYTES,
    data: Dataset | None = None,
) -> list[Source]:
    """The deck sources of an uploaded zip held in ``raw`` (entries named as in the archive).

    Raises :class:`~deckcheck.error.InputError` when ``raw`` is not a zip, and
    :class:`~deckcheck.error.LimitError` over the entry or byte caps.
    """
    limits = Limits(
        max_entries, max_bytes, max_ratio, max_entry_bytes, ("max_zip_entries", "max_zip_bytes")
    )
    try:
        return read_archive(raw, label="the upload", limits=limits, data=data)
    except ArchiveError as exc:
        raise InputError(str(exc)) from None


def list_entries(path: str) -> list[Entry]:
    """The deck entries of an archive on disk, in archive order; :class:`ArchiveError` if
    unusable."""
    reader = _Reader(path, path, _defaults(), None)
    try:
        return reader.listing().decks
    finally:
        reader.close()


@lru_cache(maxsize=4)
def _cached(path: str, pid: int, version: tuple[int, int]) -> zipfile.ZipFile:
    # keyed by process (a forked worker must not share its parent's file offset) and by the
    # file's size and time (an archive written again is opened again)
    return open_zip(path, path, _defaults())


def read_entry(path: str, member: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of one entry (at most ``limit``, by default
    :data:`~deckcheck.deck.io.MAX_INPUT_BYTES`).

    Raises :class:`~deckcheck.error.DeckReadError` (without a source: the caller names it) for
    an entry that cannot be read, :class:`ArchiveError` for an archive that cannot.
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        raise ArchiveError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    zf = _cached(path, os.getpid(), (st.st_size, st.st_mtime_ns))
    try:
        info = zf.getinfo(member)
    except KeyError:
        raise DeckReadError("no such entry in the archive") from None
    return read_member(zf, info, limit, MAX_RATIO)


def _registrations(reader: _Reader, found: _Listing) -> list[Source]:
    """The registrations of the CSV entries; their deck paths name entries of the same
    archive, relative to the CSV's folder (never outside it)."""
    from deckcheck.source.registration import RegistrationError, parse_registrations

    members = {_norm(e.name): e for e in found.decks}
    out: list[Source] = []
    named: set[str] = set()
    for entry in found.csvs:
        label = f"{reader.prefix}{entry.name}" or entry.name
        if entry.error is not None:
            raise ArchiveError(f"{label}: {entry.error}")
        try:
            raw = reader.read(reader.zf.getinfo(entry.member), _csv_limit())
        except DeckReadError as exc:
            raise RegistrationError(f"{label}: {exc.reason}") from exc
        cells = _Cells(reader, members, posixpath.dirname(_norm(entry.name)))
        out += parse_registrations(raw, label, cells.source)
        named |= cells.named
    out += [
        Source(
            reader.kind,
            reader.path,
            None,
            SkipReason.NOT_REGISTERED,
            e.member,
            display=f"{reader.prefix}{e.name}",
        )
        for e in members.values()
        if e.member not in named
    ]
    return out


class _Cells:
    """Deck cells of an archive's registrations CSV, turned into the entries they name."""

    def __init__(self, reader: _Reader, members: dict[str, Entry], folder: str) -> None:
        self.reader = reader
        self.members = members
        self.folder = "" if folder == "." else folder
        self.named: set[str] = set()

    def source(self, cell: str, reg: Registration) -> Source | None:
        """The source of the entry a cell names, or None when the cell is not a path."""
        from deckcheck.source.registration import is_deck_code

        rel = cell.strip().replace("\\", "/")
        if not (sniff.is_deck_name(rel) or "/" in rel) or is_deck_code(rel):
            return None
        unsafe = None
        if rel.startswith("/") or (len(rel) > 1 and rel[1] == ":") or "\0" in rel:
            unsafe = "absolute deck path (paths are relative to the CSV's folder)"
        target = posixpath.normpath(posixpath.join(self.folder, rel))
        shown = f"{self.reader.prefix}{target}"
        outside = target == ".." or target.startswith("../")
        inside = not self.folder or target.startswith(self.folder + "/")
        if unsafe is None and (outside or not inside):
            unsafe = "deck path leads outside the CSV's folder (refused)"
        found = self.members.get(target) if unsafe is None else None
        if found is None:
            error = unsafe or "no such deck file in the archive"
            return Source(
                self.reader.kind,
                self.reader.path,
                error,
                display=shown,
                registration=reg,
                code=UnreadableReason.BAD_DECK_PATH,
            )
        self.named.add(found.member)
        return self.reader.source(found, reg, f"{self.reader.prefix}{found.name}")
