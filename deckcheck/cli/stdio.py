"""Standard output that fails as one ``error:`` line, never a traceback or exit 1.

:func:`guard` (called by :func:`deckcheck.cli.main` before the app runs) replaces
``sys.stdout`` with a writer to the same file descriptor whose failures (a closed descriptor,
a reader that went away, a full disk) raise :class:`~deckcheck.error.OutputError`: a
``DeckcheckError``, so every command turns it into ``error: cannot write the output: ...`` and
exit 2. (Click would turn a broken pipe into exit 1, the code of an *illegal deck*.) After the
first failure further writes are dropped, so nothing is reported twice. A closed standard
output or error is first pointed at the null device, so no file opened later takes its number.
A closed standard input is plugged the same way, and reading it raises
:class:`~deckcheck.error.InputError`
(``cannot read standard input: it is closed``, exit 2). Lone surrogates (a card name read from
a damaged file) are written as ``\\uXXXX`` escapes, never an encoding error.
"""

from __future__ import annotations

import errno
import io
import os
import sys

from deckcheck.boundary import escape_surrogates
from deckcheck.error import InputError, OutputError

_FAILURES = frozenset(
    {errno.EPIPE, errno.EBADF, errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EINVAL}
)


def _closed(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


def _plug(fd: int) -> None:
    """Point a closed descriptor at the null device."""
    null = os.open(os.devnull, os.O_RDWR)
    if null != fd:
        os.dup2(null, fd)
        os.close(null)


class _Out(io.RawIOBase):
    """File descriptor 1, its write errors raised as :class:`OutputError` (once)."""

    def __init__(self, gone: bool) -> None:
        super().__init__()
        self.gone = gone
        self.failed = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return 1

    def isatty(self) -> bool:
        return not self.gone and os.isatty(1)

    def write(self, data: object) -> int:
        view = memoryview(data)  # type: ignore[arg-type]
        if self.failed:
            return len(view)
        if self.gone:
            self.failed = True
            raise OutputError("cannot write the output: standard output is closed")
        try:
            return os.write(1, view)
        except OSError as exc:
            if exc.errno not in _FAILURES:
                raise
            self.failed = True
            reason = "the reader went away" if exc.errno == errno.EPIPE else exc.strerror
            raise OutputError(f"cannot write the output: {reason}") from None  # (no errno: click
            # would make EPIPE exit 1)


from deckcheck.reporter.text import TERMINAL_ESCAPES as _TERMINAL  # noqa: E402


class _Text(io.TextIOWrapper):
    """Text standard output; on a terminal, DEL, C1 and bidi controls become ``\\uXXXX``
    (the same value in JSON and SARIF; text reports have escaped them already)."""

    escape = False

    def write(self, text: str) -> int:
        safe = escape_surrogates(text)
        super().write(safe.translate(_TERMINAL) if self.escape else safe)
        return len(text)


class _ClosedIn(io.RawIOBase):
    """Standard input that was closed (``0<&-``): reading it is an :class:`InputError`."""

    def readable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def readinto(self, buffer: object) -> int:
        raise InputError("cannot read standard input: it is closed")


def guard() -> None:
    """Make the process's standard streams fail cleanly (see the module docstring)."""
    if sys.stdin is None or _closed(0):
        _plug(0)  # no file opened later takes descriptor 0 and is read as standard input
        sys.stdin = io.TextIOWrapper(io.BufferedReader(_ClosedIn()), encoding="utf-8")
    if _closed(2):
        _plug(2)
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    gone = _closed(1)
    if gone:
        _plug(1)
    old = sys.stdout
    encoding = getattr(old, "encoding", None) or "utf-8"
    errors = getattr(old, "errors", None) or "strict"
    raw = _Out(gone)
    tty = raw.isatty()
    out = _Text(io.BufferedWriter(raw), encoding=encoding, errors=errors, line_buffering=tty)
    out.escape = tty
    sys.stdout = out


def failed() -> bool:
    """Whether a write to the guarded standard output failed (its error already raised)."""
    buffer = getattr(sys.stdout, "buffer", None)
    raw = getattr(buffer, "raw", None)
    return isinstance(raw, _Out) and raw.failed
