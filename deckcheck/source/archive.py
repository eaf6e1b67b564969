"""Zip archives of deck files, read safely: nothing is ever extracted to disk.

An organiser's ``.zip`` of registrations is read entry by entry, in memory, each entry at most
:data:`~deckcheck.deck.io.MAX_INPUT_BYTES` (like any deck file). Hostile archives are expected:

* an entry whose name climbs out (``../x.ydk``), is absolute (``/x.ydk``, ``C:\\x.ydk``,
  ``\\\\server\\x``), is a symlink, is encrypted or uses an unsupported compression is a
  per-entry error (the rest of the archive is still read);
* an entry over :data:`~deckcheck.deck.io.MAX_INPUT_BYTES` uncompressed, or larger than
  :data:`MAX_RATIO` times its compressed size (once over :data:`RATIO_FLOOR` bytes), is a
  per-entry error; its data is never inflated;
* an archive with more than :data:`MAX_ENTRIES` entries or whose deck entries declare more than
  :data:`MAX_TOTAL_BYTES` uncompressed in total is refused as a whole, before any entry is read;
* an entry whose data does not match its header (a lying size, a bad CRC) is a per-entry error:
  reading never returns more than the declared size;
* names that are not UTF-8 are kept byte for byte and shown as ``\\xNN``.

An archive holding a ``.csv`` entry is a bundle of registrations instead
(:func:`registration_sources`): the CSV's deck paths name entries of the archive, relative to the
CSV's folder and never outside it.

Entries whose names do not end in a deck suffix (``.ydk .ydke .txt .json .omega``) are left out,
as are folders and macOS resource forks (``__MACOSX/``, ``._*``); ``.json`` entries that are not
deckcheck decks are skipped with a reason, like in a folder scan.
"""

from __future__ import annotations

import json
import os
import posixpath
import stat
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from deckcheck.deck.io.builder import MAX_INPUT_BYTES
from deckcheck.deck.io.detect import DECK_SUFFIXES
from deckcheck.error import DeckReadError, DeckTooLargeError, InputError

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

if TYPE_CHECKING:
    from deckcheck.run.batch import Source

_SUPPORTED = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA}


class ArchiveError(InputError):
    """A zip archive that cannot be read at all (not a zip, too many entries, too big)."""

    code = "bad-archive"


@dataclass(frozen=True, slots=True)
class Entry:
    """One deck entry of an archive: its name, and why it cannot be read or is skipped, if so."""

    member: str
    """The name as :mod:`zipfile` knows it (to open the entry)."""
    name: str
    """The name to show: UTF-8 where the bytes are UTF-8, else with undecodable bytes kept."""
    error: str | None = None
    skip: str | None = None


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


def entry_problem(
    info: zipfile.ZipInfo, limit: int = MAX_INPUT_BYTES, max_ratio: int = MAX_RATIO
) -> str | None:
    """Why one entry is refused (a symlink, encrypted, unsupported compression, over ``limit``
    bytes uncompressed, over ``max_ratio`` compression), or None: the per-entry rules shared
    by every reader of zips (files here, uploads in the service)."""
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


def _open(path: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(path)
    except FileNotFoundError:
        raise ArchiveError(f"{path}: no such file") from None
    except OSError as exc:
        raise ArchiveError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise ArchiveError(f"{path}: not a readable zip archive ({exc})") from exc
    except UnicodeDecodeError as exc:
        raise ArchiveError(f"{path}: an entry name is not valid UTF-8 ({exc.reason})") from exc


def list_entries(path: str) -> list[Entry]:
    """The deck entries of an archive, in archive order; :class:`ArchiveError` if unusable."""
    with _open(path) as zf:
        infos = zf.infolist()
        if len(infos) > MAX_ENTRIES:
            raise ArchiveError(f"{path}: {len(infos)} entries; the limit is {MAX_ENTRIES}")
        entries: list[Entry] = []
        total = 0
        for info in infos:
            name = display_name(info)
            base = name.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
            if info.is_dir() and not _is_symlink(info):
                continue
            if name.startswith("__MACOSX/") or base.startswith("._"):
                continue
            unsafe = unsafe_reason(name)
            if unsafe is None and not base.lower().endswith(DECK_SUFFIXES):
                continue
            if unsafe is not None:
                entries.append(Entry(info.filename, name, error=unsafe))
                continue
            problem = entry_problem(info)
            if problem is None:
                total += info.file_size
                if total > MAX_TOTAL_BYTES:
                    raise ArchiveError(
                        f"{path}: deck entries hold over {MAX_TOTAL_BYTES} bytes uncompressed "
                        "(refused as a possible zip bomb)"
                    )
            entries.append(Entry(info.filename, name, error=problem))
        return [_sniff(zf, e) if e.error is None else e for e in entries]


def _sniff(zf: zipfile.ZipFile, entry: Entry) -> Entry:
    """A ``.json`` entry that is not a deckcheck deck is skipped (as in a folder scan)."""
    if not entry.name.lower().endswith(".json"):
        return entry
    try:
        raw = _read(zf, entry.member)
        doc = json.loads(raw)
    except (DeckReadError, ValueError, RecursionError):
        return entry  # let the reader report it
    if isinstance(doc, dict) and "deckcheck" in doc:
        return entry
    return Entry(entry.member, entry.name, skip="not a deckcheck deck JSON file")


def _read(zf: zipfile.ZipFile, member: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    info = zf.getinfo(member)
    problem = entry_problem(info, limit)
    if problem is not None:
        raise DeckReadError(problem)
    try:
        with zf.open(info) as handle:
            data = handle.read(limit + 1)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
        raise DeckReadError(f"damaged archive entry ({exc})") from exc
    except RuntimeError as exc:  # zipfile: encrypted entry without a password
        raise DeckReadError(f"cannot read entry ({exc})") from exc
    if len(data) > limit:
        raise DeckTooLargeError(f"over the {limit} byte limit")
    return data


@lru_cache(maxsize=4)
def _cached(path: str, pid: int) -> zipfile.ZipFile:
    # keyed by process: a forked worker must not share its parent's file offset
    return _open(path)


def read_entry(path: str, member: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of one entry (at most ``limit``, by default
    :data:`~deckcheck.deck.io.MAX_INPUT_BYTES`).

    Raises :class:`~deckcheck.error.DeckReadError` (without a source: the caller names it) for
    an entry that cannot be read, :class:`ArchiveError` for an archive that cannot.
    """
    zf = _cached(path, os.getpid())
    try:
        return _read(zf, member, limit)
    except KeyError:
        raise DeckReadError("no such entry in the archive") from None


def csv_entries(path: str) -> list[Entry]:
    """The ``.csv`` entries of an archive (registrations), checked like deck entries."""
    with _open(path) as zf:
        infos = zf.infolist()
        if len(infos) > MAX_ENTRIES:
            raise ArchiveError(f"{path}: {len(infos)} entries; the limit is {MAX_ENTRIES}")
        out = []
        for info in infos:
            name = display_name(info)
            base = name.replace("\\", "/").rsplit("/", 1)[-1]
            if info.is_dir() or name.startswith("__MACOSX/") or base.startswith("._"):
                continue
            if base.lower().endswith(".csv"):
                problem = unsafe_reason(name) or entry_problem(info, _csv_limit())
                out.append(Entry(info.filename, name, error=problem))
        return out


def _csv_limit() -> int:
    from deckcheck.source.registration import MAX_CSV_BYTES

    return MAX_CSV_BYTES


def registration_sources(path: str, csvs: list[Entry]) -> list[Source]:
    """The registrations of the CSV entries of an archive; their deck paths name entries of the
    same archive, relative to the CSV's folder (never outside it)."""
    from deckcheck.run.batch import Source, SourceKind
    from deckcheck.source.registration import Registration, RegistrationError, parse_registrations

    members = {posixpath.normpath(e.name.replace("\\", "/")): e for e in list_entries(path)}
    out: list[Source] = []
    for entry in csvs:
        label = f"{path}{SEPARATOR}{entry.name}"
        if entry.error is not None:
            raise ArchiveError(f"{label}: {entry.error}")
        try:
            raw = read_entry(path, entry.member, _csv_limit())
        except DeckReadError as exc:
            raise RegistrationError(f"{label}: {exc.reason}") from exc
        folder = posixpath.dirname(entry.name.replace("\\", "/"))

        def deck_file(cell: str, reg: Registration, folder: str = folder) -> Source | None:
            rel = cell.strip().replace("\\", "/")
            if not (rel.lower().endswith(DECK_SUFFIXES) or "/" in rel):
                return None
            unsafe = None
            if rel.startswith("/") or (len(rel) > 1 and rel[1] == ":") or "\0" in rel:
                unsafe = "absolute deck path (paths are relative to the CSV's folder)"
            target = posixpath.normpath(posixpath.join(folder, rel))
            shown = f"{path}{SEPARATOR}{target}"
            outside = target == ".." or target.startswith("../")
            if unsafe is None and (outside or (folder and not target.startswith(folder + "/"))):
                unsafe = "deck path leads outside the CSV's folder (refused)"
            found = members.get(target) if unsafe is None else None
            if found is None:
                error = unsafe or "no such deck file in the archive"
                return Source(SourceKind.ZIP, path, error, display=shown, registration=reg)
            return Source(SourceKind.ZIP, path, found.error or found.skip, None, found.member,
                          display=f"{path}{SEPARATOR}{found.name}", registration=reg)  # fmt: skip

        out += parse_registrations(raw, label, deck_file)
    named = {src.entry for src in out if src.entry is not None}
    out += [
        Source(SourceKind.ZIP, path, None, "not named by the archive's registrations CSV",
               e.member, display=f"{path}{SEPARATOR}{e.name}")
        for e in members.values() if e.member not in named
    ]  # fmt: skip
    return out


def iter_entries(path: str) -> Iterator[tuple[Entry, bytes | None, str | None]]:
    """Each deck entry with its bytes (or None and the reason it could not be read)."""
    for entry in list_entries(path):
        if entry.error is not None or entry.skip is not None:
            yield entry, None, entry.error
            continue
        try:
            yield entry, read_entry(path, entry.member), None
        except DeckReadError as exc:
            yield entry, None, exc.reason
