"""Bounded reads: every file deckcheck reads comes through here.

:func:`read_capped` reads at most a given number of bytes, and refuses anything but a regular
file (a FIFO, a device such as ``/dev/zero``, a socket) without ever blocking: the file is
opened non-blocking and checked with ``fstat`` before a byte is read. The documented ``-``
(standard input) is read, still capped, where a caller allows it. This module sits at the
bottom of the package: it imports only :mod:`deckcheck.error`.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path

from deckcheck.error import DeckcheckError, InputError

STDIN = "-"
"""The path that names standard input (where a caller allows it)."""
MAX_TEXT_BYTES = 1 << 20
"""Size cap of a small text input without a cap of its own (a side plan)."""

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_FLAGS |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)

Refusal = Callable[[str], DeckcheckError]
"""Turns a reason (``"not a regular file (a FIFO)"``) into the error a caller raises."""


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a file"


def _default_refusal(path: str) -> Refusal:
    return lambda reason: InputError(f"{path}: {reason}")


def read_capped(
    path: str | Path,
    cap: int,
    *,
    refuse: Refusal | None = None,
    over: Refusal | None = None,
    allow_stdin: bool = False,
) -> bytes:
    """The bytes of the regular file ``path``, at most ``cap`` of them.

    Raises what ``refuse`` makes of the reason (default :class:`~deckcheck.error.InputError`
    naming the path) for a file that is not a regular file, and what ``over`` (default
    ``refuse``) makes of it for a file over ``cap`` bytes; an :class:`OSError` when it cannot be
    opened or read. ``-`` reads standard input (capped) when ``allow_stdin``.
    """
    name = str(path)
    make = refuse or _default_refusal(name)
    big = over or make
    if allow_stdin and name == STDIN:
        raw = sys.stdin.buffer.read(cap + 1)
        if len(raw) > cap:
            raise big(f"over the {cap:,}-byte limit")
        return raw
    try:
        fd = os.open(path, _FLAGS)
    except ValueError:
        raise make("not a usable file name (a NUL character)") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise make(f"not a regular file ({_kind(st.st_mode)})")
        if st.st_size > cap:
            raise big(f"{st.st_size:,} bytes, over the {cap:,}-byte limit")
        chunks: list[bytes] = []
        got = 0
        while got <= cap:
            block = os.read(fd, min(1 << 20, cap + 1 - got))
            if not block:
                break
            chunks.append(block)
            got += len(block)
        if got > cap:
            raise big(f"over the {cap:,}-byte limit")
        return b"".join(chunks)
    finally:
        os.close(fd)


def is_regular_file(path: str | Path) -> bool:
    """Whether ``path`` is a regular file (following links); False for anything else or an error."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False
