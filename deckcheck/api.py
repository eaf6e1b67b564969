"""The public functions' guard: checked arguments in, documented errors out.

Every function ``import deckcheck`` exports goes through :func:`guard`:

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

import datetime
import functools
import inspect
import os
import re
import types
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from deckcheck.error import (
    ArgumentError,
    DeckcheckError,
    GoldfishArgumentError,
    InputError,
    LimitError,
)

F = TypeVar("F", bound=Callable[..., Any])

_SIMPLE: dict[str, Any] = {
    "str": str, "bytes": bytes, "bool": bool, "int": int, "float": (int, float),
    "None": type(None), "date": datetime.date, "_date": datetime.date, "Path": os.PathLike,
    "_dt.date": datetime.date, "dict": dict, "list": list, "tuple": tuple,
    "frozenset": frozenset, "set": set,
}  # fmt: skip
_CLASSES = {
    "Deck": "deckcheck.deck.model", "Format": "deckcheck.rule.format",
    "Dataset": "deckcheck.data.dataset", "CardIndex": "deckcheck.card",
    "DeckFormat": "deckcheck.deck.io", "TcgRegion": "deckcheck.rule.banlist",
    "Spec": "deckcheck.goldfish", "DrawRules": "deckcheck.goldfish",
    "OutputFormat": "deckcheck.reporter", "RenderOptions": "deckcheck.reporter",
    "SidePlan": "deckcheck.run.siding", "Banlist": "deckcheck.rule.banlist",
    "Report": "deckcheck.validation.report", "Source": "deckcheck.run.batch",
    "ExactMode": "deckcheck.goldfish.spec",
}  # fmt: skip
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
