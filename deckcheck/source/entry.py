"""The zip file under :mod:`deckcheck.source.archive`: caps, the per-entry rules, the archive
opened with its entries counted first, one entry's bytes read bounded.

Nothing here reads a deck: :func:`open_zip` refuses an archive with too many entries before
:mod:`zipfile` reads its directory, :func:`entry_problem` says why one entry is refused (a
symlink, encryption, an unsupported compression, over the size or ratio cap) and
:func:`read_member` reads one entry, never more than its cap, never raising anything but a
:class:`~deckcheck.error.DeckReadError`.
"""

from __future__ import annotations

import io
import os
import stat
import struct
import zipfile
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import IO

from deckcheck.deck.io.builder import MAX_INPUT_BYTES
from deckcheck.error import DeckReadError, DeckTooLargeError, InputError, LimitError
from deckcheck.source.record import SkipReason, UnreadableReason

MAX_ENTRIES = 100_000
"""Most entries (files and folders) an archive may hold."""
MAX_TOTAL_BYTES = 1 << 30
"""Most uncompressed bytes (1 GiB) the deck entries of one archive may declare in total."""
MAX_RATIO = 100
"""Largest uncompressed/compressed size ratio of one entry (zip bombs)..."""
RATIO_FLOOR = 64 << 10
"""...checked for entries over 64 KiB uncompressed (small files may compress very well)."""

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


def is_symlink(info: zipfile.ZipInfo) -> bool:
    return stat.S_ISLNK(info.external_attr >> 16)


def entry_code(info: zipfile.ZipInfo, problem: str | None) -> UnreadableReason | None:
    """The code of an entry's :func:`entry_problem` (over the size limit: too large)."""
    if problem is None:
        return None
    if info.file_size > MAX_INPUT_BYTES and not is_symlink(info) and not info.flag_bits & 0x1:
        return UnreadableReason.TOO_LARGE
    return UnreadableReason.BAD_ENTRY


def entry_problem(
    info: zipfile.ZipInfo, limit: int = MAX_INPUT_BYTES, max_ratio: int = MAX_RATIO
) -> str | None:
    """Why one entry is refused (a symlink, encrypted, unsupported compression, over ``limit``
    bytes uncompressed, over ``max_ratio`` compression), or None: the per-entry rules."""
    if is_symlink(info):
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


def over_cap(label: str, what: str, limits: Limits, which: int, value: int) -> Exception:
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
        raise over_cap(label, f"{count} entries; the limit is {cap}", limits, 0, cap)
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
            raise over_cap(label, f"over {cap} entries; the limit is {cap}", limits, 0, cap)


def open_zip(where: str | bytes, label: str, limits: Limits) -> zipfile.ZipFile:
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


def read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int, ratio: int) -> bytes:
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
