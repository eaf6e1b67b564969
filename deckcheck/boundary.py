"""The boundary between deckcheck and the outside: bounded reads and checked arguments.

**Bounded reads**: every file deckcheck reads comes through here.

:func:`read_capped` reads at most a given number of bytes, and refuses anything but a regular
file (a FIFO, a device such as ``/dev/zero``, a socket) without ever blocking: the file is
opened non-blocking and checked with ``fstat`` before a byte is read. The documented ``-``
(standard input) is read, still capped, where a caller allows it. This module sits at the
bottom of the package: it imports only :mod:`deckcheck.error`.

**Outputs**: every file deckcheck writes for a user goes through :func:`write_file` (atomic,
keeps the mode and owner of the file it replaces, respects the umask, refuses what the user
could not write).

**Numbers in text**: :func:`read_number` reads a whole number written by someone else (a
command-line value, a file's field, a header) without the two ways ``int()`` fails on one:
a digit that is no decimal (``²`` passes ``str.isdigit`` and fails ``int``) and thousands of
digits (over Python's conversion limit).

:func:`parse_toml` and :func:`parse_json` read TOML and JSON documents, failing only with the
decoder's own error (which callers report), never a bare ``ValueError`` or ``RecursionError``.

**Checked arguments**: every function ``import deckcheck`` exports goes through :func:`guard`:

* each argument is checked against its annotation (``str``, ``int``, ``Path``, ``Deck``,
  ``Format | str``, ``X | None``, ``Sequence[str]``...): a wrong type raises
  :class:`~deckcheck.error.ArgumentError` naming the parameter, before any work (a string where
  a list of paths is expected is refused, not read letter by letter);
* anything but a :class:`~deckcheck.error.DeckcheckError` escaping from inside (a
  ``ValueError`` from a value no check foresaw, ``RecursionError``, ``MemoryError``) is turned
  into one: :class:`~deckcheck.error.ArgumentError` (an ``InputError``) or, for memory,
  :class:`~deckcheck.error.LimitError`. Generators (``sources``) are guarded as they run.

A goldfish function (``simulate``...) raises :class:`~deckcheck.error.GoldfishArgumentError`,
also a ``GoldfishError`` like its other bad options.
"""

from __future__ import annotations

import contextlib
import datetime
import errno
import functools
import inspect
import os
import re
import stat
import sys
import types
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from deckcheck.error import (
    ArgumentError,
    DeckcheckError,
    GoldfishArgumentError,
    InputError,
    LimitError,
    OutputError,
)

STDIN = "-"
"""The path that names standard input (where a caller allows it)."""
MAX_TEXT_BYTES = 1 << 20
"""Size cap of a small text input without a cap of its own (a side plan)."""

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_FLAGS |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)

Refusal = Callable[[str], Exception]
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
        return read_stdin(cap, refuse=make, over=big)
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
        # the size the file says in one read (one buffer, no join: a 6 MB card index costs
        # a copy less), then blocks for a file that grew meanwhile, one byte past the cap
        want = min(st.st_size, cap) + 1
        while got <= cap:
            block = os.read(fd, want)
            if not block:
                break
            chunks.append(block)
            got += len(block)
            want = min(1 << 20, cap + 1 - got)
        if got > cap:
            raise big(f"over the {cap:,}-byte limit")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_stdin(cap: int, *, refuse: Refusal | None = None, over: Refusal | None = None) -> bytes:
    """The bytes of standard input, at most ``cap`` of them.

    A closed standard input (``0<&-``), one that cannot be read, or more than ``cap`` bytes
    raise what ``refuse`` (default :class:`~deckcheck.error.InputError`) and ``over`` (default
    ``refuse``) make of the reason.
    """
    make = refuse or _default_refusal("standard input")
    big = over or make
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise make("standard input is closed")
    try:
        raw: bytes = stream.read(cap + 1)
    except DeckcheckError:
        raise
    except (OSError, ValueError) as exc:  # ValueError: a closed stream
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise make(f"cannot read standard input: {reason}") from None
    if len(raw) > cap:
        raise big(f"over the {cap:,}-byte limit")
    return raw


MAX_DATA_BYTES = 256 << 20
"""Size cap of one data file deckcheck reads itself (a bundle's files, the data folder's records,
the files it ships): far over any real one, so only a damaged or hostile file meets it."""


def read_data(path: str | Path, cap: int = MAX_DATA_BYTES) -> bytes:
    """:func:`read_capped` for deckcheck's own data files: a file that is not regular or is over
    ``cap`` raises :class:`OSError` (its ``strerror`` the reason), as a file that cannot be read
    does, so callers handle the three alike."""
    where = str(path)
    return read_capped(path, cap, refuse=lambda why: OSError(errno.EINVAL, why, where))


def is_regular_file(path: str | Path) -> bool:
    """Whether ``path`` is a regular file (following links); False for anything else or an error."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


# -- outputs --------------------------------------------------------------------------------


def write_file(path: str | Path, data: bytes | str) -> None:
    """Write ``data`` (text as UTF-8) to the file ``path``, as a user expects of an output file.

    * A regular file (or a link to one: the file it points to) is replaced **atomically**: the
      bytes go to a temporary file in its folder, are flushed to disk, and renamed over it, so a
      reader sees the old file or the new one, never half of one. The new file **keeps the mode
      and the owner** (user and group) of the old one. When the owner cannot be kept (a file of
      another user that this user may write) or the folder cannot take a temporary file, the
      file is rewritten in place instead, still keeping both.
    * A new file gets the mode the **umask** allows (``0o666 & ~umask``), as a shell's ``>``.
    * A file the user could not write (no write permission, or no write bit at all: a
      read-only file) is **refused**, as is an empty name, a folder, or a FIFO no one reads.
    * Anything else (a device such as ``/dev/null``, a ``>(cmd)`` pipe) is written in place.

    Raises :class:`~deckcheck.error.OutputError` naming the path.
    """
    name = os.fspath(path)
    raw = escape_surrogates(data).encode("utf-8") if isinstance(data, str) else data
    if not name:
        raise OutputError(f"{name!r}: an empty file name")
    try:
        _write(name, raw)
    except OutputError:
        raise
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise OutputError(f"{name}: cannot write: {reason}") from None


def read_number(text: str, most: int) -> int | None:
    """``text`` (blanks around it allowed) as a whole number; None when it is anything but
    decimal digits (those of any script, as a deck file's counts: ``３`` and ``٣`` are 3; a
    sign, a point or ``²`` is no number). A number over ``most`` reads as ``most + 1``, however
    many digits it has, so a caller's range check reports it (no conversion of 5,000 digits)."""
    text = text.strip()
    if not text.isdecimal():
        return None
    text = text.lstrip("0") or "0"
    if len(text) > len(str(most)):
        return most + 1
    return min(int(text), most + 1)


def parse_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``, failing only with :class:`tomllib.TOMLDecodeError`: a number of
    more digits than Python converts was a bare ``ValueError``, nesting past the stack a
    ``RecursionError``."""
    import tomllib  # (here: most commands read no TOML)

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except ValueError:
        raise tomllib.TOMLDecodeError(_UNREADABLE_VALUE) from None
    except RecursionError:
        raise tomllib.TOMLDecodeError("nested too deeply") from None


def parse_json(text: str | bytes) -> Any:
    """``json.loads(text)``, failing only with :class:`json.JSONDecodeError` (a number of more
    digits than Python converts, or nesting past the stack, included)."""
    import json

    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except (ValueError, RecursionError) as exc:
        what = "nested too deeply" if isinstance(exc, RecursionError) else _UNREADABLE_VALUE
        err = json.JSONDecodeError(what, "", 0)
        err.args = (what,)  # (no place: the decoder did not say where)
        raise err from None


_UNREADABLE_VALUE = "a value that cannot be read (such as a number of over 4,300 digits)"


_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_surrogates(text: str) -> str:
    """``text`` with each lone surrogate (which UTF-8 cannot encode) written as ``\\uXXXX``:
    the same character once read back as JSON, and visible as an escape anywhere else."""
    if _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _write(name: str, raw: bytes) -> None:
    try:
        st: os.stat_result | None = os.stat(name)
    except FileNotFoundError:
        st = None
    if st is None:
        _replace(name, raw, 0o666 & ~_umask(), None)
    elif stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{name}: cannot write: a folder")
    elif not stat.S_ISREG(st.st_mode):
        _in_place(name, raw, truncate=False)
    elif not os.access(name, os.W_OK) or not st.st_mode & 0o222:
        raise OutputError(f"{name}: cannot write: the file is read-only (not replaced)")
    elif not _replace(os.path.realpath(name), raw, stat.S_IMODE(st.st_mode), st):
        _in_place(name, raw, truncate=True)


def _umask() -> int:
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def _replace(target: str, raw: bytes, mode: int, old: os.stat_result | None) -> bool:
    """Write a temporary file beside ``target`` and rename it over; False (nothing changed)
    when the folder takes no temporary file or the old owner cannot be kept."""
    import tempfile

    folder, base = os.path.split(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{base}.", suffix=".tmp", dir=folder or ".")
    except PermissionError:
        if old is None:
            raise
        return False
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            if old is not None and not _keep_owner(handle.fileno(), old):
                os.unlink(tmp)
                return False
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return True


def _keep_owner(fd: int, old: os.stat_result) -> bool:
    now = os.fstat(fd)
    if (now.st_uid, now.st_gid) == (old.st_uid, old.st_gid):
        return True
    try:
        os.fchown(fd, old.st_uid, old.st_gid)
    except (PermissionError, AttributeError):
        return False
    return True


def _in_place(name: str, raw: bytes, *, truncate: bool) -> None:
    flags = os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(name, flags | (os.O_TRUNC if truncate else 0))
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO: opened without a reader, it would block forever
            raise OutputError(f"{name}: cannot write: a FIFO that nothing reads") from None
        raise
    try:
        if not truncate:
            os.set_blocking(fd, True)
        view = memoryview(raw)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


# -- checked arguments ------------------------------------------------------------------------

F = TypeVar("F", bound=Callable[..., Any])

_SIMPLE: dict[str, Any] = {
    "str": str,
    "bytes": bytes,
    "bool": bool,
    "int": int,
    "float": (int, float),
    "None": type(None),
    "date": datetime.date,
    "_date": datetime.date,
    "Path": os.PathLike,
    "_dt.date": datetime.date,
    "dict": dict,
    "list": list,
    "tuple": tuple,
    "frozenset": frozenset,
    "set": set,
}
_CLASSES = {
    "Deck": "deckcheck.deck.model",
    "Format": "deckcheck.rule.format",
    "Dataset": "deckcheck.data.dataset",
    "CardIndex": "deckcheck.card",
    "DeckFormat": "deckcheck.deck.io",
    "TcgRegion": "deckcheck.rule.banlist",
    "Spec": "deckcheck.goldfish",
    "DrawRules": "deckcheck.goldfish",
    "OutputFormat": "deckcheck.reporter",
    "RenderOptions": "deckcheck.reporter",
    "SidePlan": "deckcheck.run.siding",
    "Banlist": "deckcheck.rule.banlist",
    "Report": "deckcheck.validation.report",
    "Source": "deckcheck.run.batch",
    "ExactMode": "deckcheck.goldfish.spec",
}
_ITERABLES = ("Iterable", "Sequence", "Collection")


def _split_union(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch == "["
        depth -= ch == "]"
        if ch == "|" and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def _resolve(name: str) -> Any:
    """The runtime type of an annotation name; None when it cannot be checked."""
    if name in _SIMPLE:
        return _SIMPLE[name]
    module = _CLASSES.get(name)
    if module is None:
        return None
    import importlib

    return getattr(importlib.import_module(module), name, None)


def _accepts(part: str, value: Any) -> bool | None:
    """Whether ``value`` fits one member of a union; None: this member cannot be checked."""
    head = re.match(r"^([\w.]+)(?:\[(.*)\])?$", part)
    if head is None:
        return None
    name, inner = head.group(1), head.group(2)
    if name in _ITERABLES:
        if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
            return False
        if inner and isinstance(value, (list, tuple)) and len(value) <= 10_000:
            return all(_fits(inner, v) is not False for v in value)
        return True
    if name == "Callable":
        return callable(value)
    kind = _resolve(name)
    if kind is None:
        return None
    if kind is int and isinstance(value, bool):
        return False
    if name == "Path":
        return isinstance(value, os.PathLike)
    return isinstance(value, kind)


def _fits(annotation: str, value: Any) -> bool | None:
    """Whether ``value`` fits ``annotation`` (None: nothing in it can be checked)."""
    seen: list[bool | None] = [_accepts(p, value) for p in _split_union(annotation)]
    if any(s is True for s in seen):
        return True
    if any(s is None for s in seen):
        return None
    return False


def _check(
    name: str, params: dict[str, str], bound: inspect.BoundArguments, error: type[ArgumentError]
) -> None:
    for arg, value in bound.arguments.items():
        annotation = params.get(arg)
        if annotation is not None and _fits(annotation, value) is False:
            raise error(f"{name}(): {arg} must be {annotation}, not {type(value).__name__}", arg)


def _translated(name: str, exc: Exception, error: type[ArgumentError]) -> DeckcheckError:
    if isinstance(exc, MemoryError):
        return LimitError(f"{name}(): the input needs more memory than there is", "memory", 0)
    if isinstance(exc, RecursionError):
        return InputError(f"{name}(): the input is nested too deeply")
    return error(f"{name}(): cannot use the arguments: {type(exc).__name__}: {exc}", "")


def _guarded_iter(name: str, it: Iterator[Any], error: type[ArgumentError]) -> Iterator[Any]:
    try:
        yield from it
    except DeckcheckError:
        raise
    except Exception as exc:
        raise _translated(name, exc, error) from exc


def guard(fn: F) -> F:
    """``fn`` with its arguments checked and its errors kept in the documented tree."""
    sig = inspect.signature(fn)
    params = {
        p.name: p.annotation
        for p in sig.parameters.values()
        if isinstance(p.annotation, str)
        and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    }
    name = fn.__name__
    goldfish = fn.__module__.startswith("deckcheck.goldfish")
    error = GoldfishArgumentError if goldfish else ArgumentError

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as exc:
            raise error(f"{name}(): {exc}", "") from None
        _check(name, params, bound, error)
        try:
            result = fn(*args, **kwargs)
        except DeckcheckError:
            raise
        except Exception as exc:
            raise _translated(name, exc, error) from exc
        if isinstance(result, types.GeneratorType):
            return _guarded_iter(name, result, error)
        return result

    return call  # type: ignore[return-value]
