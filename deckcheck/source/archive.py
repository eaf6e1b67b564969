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
"""

from __future__ import annotations

import io
import os
import posixpath
import stat
import struct
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import PurePosixPath
from typing import IO, TYPE_CHECKING

from deckcheck.deck.io.builder import MAX_INPUT_BYTES
from deckcheck.error import DeckReadError, DeckTooLargeError, InputError, LimitError
from deckcheck.source import sniff
from deckcheck.source.record import SkipReason, Source, SourceKind, UnreadableReason, read_code

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.source.registration import Registration

MAX_ENTRIES = 100_000
"""Most entries (files and folders) an archive may hold."""
MAX_TOTAL_BYTES = 1 << 30
"""Most uncompressed bytes (1 GiB) the deck entries of one archive may declare in total."""
MAX_RATIO = 100
"""Largest uncompressed/compressed size ratio of one entry (zip bombs)..."""
RATIO_FLOOR = 64 << 10
"""...checked for entries over 64 KiB uncompressed (small files may compress very well)."""
SEPARATOR = "!/"
"""Between the archive's path and an entry's name in labels: ``regs.zip!/decks/a.ydk``."""

_SUPPORTED = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA}


class ArchiveError(InputError):
    """A zip archive that cannot be read at all (not a zip, too many entries, too big)."""

    code = "bad-archive"


@dataclass(frozen=True, slots=True)
class Limits:
    """The caps of one archive read. ``settings`` names the service's settings for the entry
    and byte caps: when given, going over them is a :class:`~deckcheck.error.LimitError`
    naming the setting, else an :class:`ArchiveError`."""

    max_entries: int = MAX_ENTRIES
    max_bytes: int = MAX_TOTAL_BYTES
    """Most uncompressed bytes the deck entries may hold in total."""
    max_ratio: int = MAX_RATIO
    max_entry_bytes: int = MAX_INPUT_BYTES
    settings: tuple[str, str] | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """One deck entry of an archive: its name, and why it cannot be read or is skipped, if so."""

    member: str
    """The name as :mod:`zipfile` knows it (to open the entry)."""
    name: str
    """The name to show: UTF-8 where the bytes are UTF-8, else with undecodable bytes kept."""
    error: str | None = None
    skip: SkipReason | None = None
    content: bytes | None = field(default=None, repr=False)
    """The entry's bytes, when they were read already (a sniffed entry, an upload)."""
    code: UnreadableReason | None = None
    """Why ``error`` is set (its code)."""


def is_archive(path: str) -> bool:
    """True when ``path`` names a ``.zip`` file (by its suffix)."""
    return path.lower().endswith(".zip")


def display_name(info: zipfile.ZipInfo) -> str:
    """An entry's name to show: UTF-8 where the archive says so, else its bytes kept."""
    if info.flag_bits & 0x800:
        return info.filename  # the archive says UTF-8
    raw = info.orig_filename.encode("cp437")
    return raw.decode("utf-8", errors="surrogateescape")


def unsafe_reason(name: str) -> str | None:
    """Why an entry name is unsafe (absolute, a drive, climbing out with ``..``), or None."""
    if "\0" in name:
        return "entry name holds a NUL byte"
    norm = name.replace("\\", "/")
    if norm.startswith("/") or (len(norm) > 1 and norm[1] == ":"):
        return "absolute path in the archive (refused)"
    if ".." in PurePosixPath(norm).parts:
        return "path climbs out of the archive with '..' (refused)"
    return None


def _is_symlink(info: zipfile.ZipInfo) -> bool:
    return stat.S_ISLNK(info.external_attr >> 16)


def _entry_code(info: zipfile.ZipInfo, problem: str | None) -> UnreadableReason | None:
    """The code of an entry's :func:`entry_problem` (over the size limit: too large)."""
    if problem is None:
        return None
    if info.file_size > MAX_INPUT_BYTES and not _is_symlink(info) and not info.flag_bits & 0x1:
        return UnreadableReason.TOO_LARGE
    return UnreadableReason.BAD_ENTRY


def entry_problem(
    info: zipfile.ZipInfo, limit: int = MAX_INPUT_BYTES, max_ratio: int = MAX_RATIO
) -> str | None:
    """Why one entry is refused (a symlink, encrypted, unsupported compression, over ``limit``
    bytes uncompressed, over ``max_ratio`` compression), or None: the per-entry rules."""
    if _is_symlink(info):
        return "symbolic link in the archive (refused)"
    if info.flag_bits & 0x1:
        return "encrypted entry (not supported)"
    if info.compress_type not in _SUPPORTED:
        return f"unsupported compression method {info.compress_type}"
    if info.file_size > limit:
        return f"over the {limit} byte limit uncompressed ({info.file_size} bytes)"
    if info.file_size > RATIO_FLOOR and info.file_size > max_ratio * max(info.compress_size, 1):
        return (
            f"compression ratio over {max_ratio}:1 ({info.file_size} bytes from "
            f"{info.compress_size}): refused as a possible zip bomb"
        )
    return None


# -- opening: the central directory counted first ---------------------------------------------

_EOCD = struct.Struct("<4s4H2LH")
_EOCD64_LOCATOR = struct.Struct("<4sLQL")
_EOCD64 = struct.Struct("<4sQ2H2L4Q")
_CENTRAL = struct.Struct("<4s24xHHH12x")  # signature, then the name/extra/comment lengths


def _over(label: str, what: str, limits: Limits, which: int, value: int) -> Exception:
    """The error for going over a cap: a LimitError naming the setting, or an ArchiveError."""
    if limits.settings is None:
        return ArchiveError(f"{label}: {what}")
    return LimitError(what, limits.settings[which], value)


def _end_record(fp: IO[bytes]) -> tuple[int, int, int] | None:
    """(declared entries, central directory size, its end offset) from the end record."""
    fp.seek(0, os.SEEK_END)
    size = fp.tell()
    tail_at = max(0, size - (_EOCD.size + 0xFFFF))
    fp.seek(tail_at)
    tail = fp.read()
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < _EOCD.size:
        return None
    _, _, _, _, count, cd_size, _, _ = _EOCD.unpack_from(tail, at)
    end = tail_at + at
    loc = at - _EOCD64_LOCATOR.size
    if loc >= 0 and tail[loc : loc + 4] == b"PK\x06\x07":
        # the zip64 end record just before its locator (where zipfile looks for it too)
        at64 = tail_at + loc - _EOCD64.size
        fp.seek(max(0, at64))
        raw = fp.read(_EOCD64.size)
        if at64 >= 0 and len(raw) == _EOCD64.size and raw[:4] == b"PK\x06\x06":
            fields = _EOCD64.unpack(raw)  # sig, size, 2 versions, 2 disks, entries here, total
            count, cd_size, end = fields[7], fields[8], at64  # entries, directory size
    return count, cd_size, end


def _count_entries(fp: IO[bytes], label: str, limits: Limits) -> None:
    """Refuse an archive with more entries than the cap, before :mod:`zipfile` reads them all:
    the end record's count, then the central directory walked header by header (stopping at
    the cap; a lying count does not help)."""
    cap = limits.max_entries
    found = _end_record(fp)
    if found is None:
        return  # not a zip: zipfile says so
    count, cd_size, end = found
    if count > cap:
        raise _over(label, f"{count} entries; the limit is {cap}", limits, 0, cap)
    fp.seek(max(0, end - cd_size))
    seen = pos = 0
    while pos + _CENTRAL.size <= cd_size:
        head = fp.read(_CENTRAL.size)
        if len(head) < _CENTRAL.size or head[:4] != b"PK\x01\x02":
            return  # damaged: zipfile says so
        _, n, m, k = _CENTRAL.unpack(head)
        fp.seek(n + m + k, os.SEEK_CUR)
        pos += _CENTRAL.size + n + m + k
        seen += 1
        if seen > cap:
            raise _over(label, f"over {cap} entries; the limit is {cap}", limits, 0, cap)


def _open(where: str | bytes, label: str, limits: Limits) -> zipfile.ZipFile:
    """The archive at a path or in bytes, its entries counted first; ArchiveError if unusable."""
    try:
        if isinstance(where, bytes):
            _count_entries(io.BytesIO(where), label, limits)
            return zipfile.ZipFile(io.BytesIO(where))
        with open(where, "rb") as fp:  # zipfile seeks: entries counted and capped first
            _count_entries(fp, label, limits)
        return zipfile.ZipFile(where)
    except (ArchiveError, LimitError):
        raise
    except FileNotFoundError:
        raise ArchiveError(f"{label}: no such file") from None
    except UnicodeDecodeError as exc:
        raise ArchiveError(f"{label}: an entry name is not valid UTF-8 ({exc.reason})") from exc
    except OSError as exc:
        raise ArchiveError(f"{label}: cannot read: {exc.strerror or exc}") from exc
    except Exception as exc:  # BadZipFile, struct.error, ...: a damaged directory
        raise ArchiveError(f"{label}: not a readable zip archive ({exc})") from exc


def _read(zf: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int, ratio: int) -> bytes:
    """The bytes of one entry (at most ``limit``); DeckReadError if it cannot be read."""
    problem = entry_problem(info, limit, ratio)
    if problem is not None:
        raise DeckReadError(problem)
    try:
        with zf.open(info) as handle:  # an entry under the size and ratio caps
            data = handle.read(limit + 1)
    except RuntimeError as exc:  # zipfile: encrypted entry without a password
        raise DeckReadError(f"cannot read entry ({exc})") from exc
    except Exception as exc:  # bad deflate/bzip2/LZMA data, a bad CRC, a lying header
        raise DeckReadError(f"damaged archive entry ({type(exc).__name__}: {exc})") from exc
    if len(data) > limit:
        raise DeckTooLargeError(f"over the {limit} byte limit")
    return data


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
        self.zf = _open(where, label, limits)
        self.budget = limits.max_bytes

    def close(self) -> None:
        """Close the archive."""
        self.zf.close()

    def read(self, info: zipfile.ZipInfo, limit: int | None = None) -> bytes:
        """One entry's bytes; DeckReadError if it cannot be read."""
        lim = self.limits.max_entry_bytes if limit is None else limit
        return _read(self.zf, info, lim, self.limits.max_ratio)

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
            if info.is_dir() and not _is_symlink(info):
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
                    raise _over(
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
            return Entry(info.filename, name, error=problem, code=_entry_code(info, problem))
        if not sniff.is_deck_name(base):
            return None
        skip = sniff.name_skip(base)
        if skip is not None:
            return Entry(info.filename, name, skip=skip)
        problem = entry_problem(info, self.limits.max_entry_bytes, self.limits.max_ratio)
        if problem is not None:
            return Entry(info.filename, name, error=problem, code=_entry_code(info, problem))
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
                raise _over(self.label, what, self.limits, 1, self.limits.max_bytes)
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
    return _open(path, path, _defaults())


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
    return _read(zf, info, limit, MAX_RATIO)


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
