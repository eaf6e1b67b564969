"""Helpers shared by the CLI command modules: output formats, errors, exit codes."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer

from deckcheck.error import ExitCode
from deckcheck.reporter import OutputFormat as Output
from deckcheck.reporter.text import clean

EXIT_OK = int(ExitCode.OK)
EXIT_ILLEGAL = int(ExitCode.ILLEGAL)
EXIT_ERROR = int(ExitCode.ERROR)

__all__ = [
    "EXIT_ERROR",
    "EXIT_ILLEGAL",
    "EXIT_OK",
    "Output",
    "clean",
    "fail",
    "print_json",
    "print_lines",
    "write_output",
]


def print_json(data: Any) -> None:
    """Write ``data`` as indented UTF-8 JSON to stdout."""
    from deckcheck.reporter import safe

    sys.stdout.write(json.dumps(safe(data), ensure_ascii=False, indent=2) + "\n")


def print_lines(lines: list[str]) -> None:
    """Write text lines to stdout, each escaped for the terminal (:func:`clean`)."""
    sys.stdout.write("".join(clean(line) + "\n" for line in lines))


def write_output(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to the file ``path``, as a user expects of an output file.

    A regular file (or a link to one) is replaced atomically, through a temporary file in its
    folder and a rename, keeping its permission bits; a new file gets the umask's. A file the
    user could not write (read-only: no write permission, or no write bit at all) is refused,
    as a shell's ``>`` refuses it. Anything else
    (a FIFO, a device such as ``/dev/null``, a ``>(cmd)`` pipe) is written in place, never
    replaced. Raises :class:`OSError`.
    """
    import errno
    import os
    import stat
    import tempfile
    from pathlib import Path

    try:
        st: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISREG(st.st_mode) and _read_only(path, st):
        raise PermissionError(errno.EACCES, "the file is read-only (not replaced)", path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        return
    target = Path(os.path.realpath(path))
    if st is None:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    else:
        mode = stat.S_IMODE(st.st_mode)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            os.fchmod(handle.fileno(), mode)
            if st is not None and os.geteuid() == 0:
                os.fchown(handle.fileno(), st.st_uid, st.st_gid)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _read_only(path: str, st: Any) -> bool:
    import os

    return not os.access(path, os.W_OK) or not st.st_mode & 0o222


def append_whole(path: str, text: str) -> None:
    """Append ``text`` (UTF-8) to the file ``path``: all of it or, on a failure (a full disk),
    none of it (a regular file is cut back to its old size). Raises :class:`OSError`."""
    import os
    import stat

    data = text.encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        st = os.fstat(fd)
        done = 0
        try:
            while done < len(data):
                done += os.write(fd, data[done:])
        except OSError:
            if stat.S_ISREG(st.st_mode) and done:
                os.ftruncate(fd, st.st_size)
            raise
    finally:
        os.close(fd)


def print_document(model_name: str, data: Any) -> None:
    """Write ``data`` through its pydantic document model (``deckcheck schema NAME``)."""
    from deckcheck.reporter import document, safe

    model = document.DOCUMENTS[model_name].model_validate(safe(data))
    sys.stdout.write(document.dump(model))


def fail(message: str, hints: list[str] | None = None) -> NoReturn:
    """Print ``error: message`` (and hint lines) to stderr, escaped, and exit with code 2."""
    sys.stderr.write(f"error: {clean(message)}\n")
    for hint in hints or []:
        sys.stderr.write(f"  {clean(hint)}\n")
    raise typer.Exit(EXIT_ERROR)
