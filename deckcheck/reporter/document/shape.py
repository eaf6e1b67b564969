"""The one converter from records to documents: :func:`shape` reads a record's fields by its
document model's fields, so each output shape is defined once, in its model.

For each field of the model, in the model's order, the value is the record's attribute of the
field's name (or what the field's :class:`~deckcheck.reporter.document.base.Src` mark says);
a record without that attribute leaves the field out (as an unset field is left out when a
model is written). The value is converted by the field's type: a nested model is shaped from
the value the same way, a list from any sequence, a ``dict`` from a mapping or from
``(key, value)`` pairs, a string from an enum (its value), a date (ISO 8601) or a path; a float
with a :class:`~deckcheck.reporter.document.base.Round` mark is rounded. A display option may leave
fields out wherever they occur (``leave_out``: the goldfish ``fraction`` without
``--fractions``).
"""

from __future__ import annotations

import enum
import functools
import types
import typing
from collections.abc import Callable, Mapping
from datetime import date
from inspect import isclass
from pathlib import PurePath
from typing import Any

from pydantic import BaseModel

from deckcheck.reporter.document.base import OmitNone, Round, Src

_MISSING: Any = object()
Convert = Callable[[Any], Any] | None


class Merged:
    """Several records read as one (the first that has an attribute gives it): a batch row and
    its report, a registration and its status."""

    __slots__ = ("_parts",)

    def __init__(self, *sources: object) -> None:
        self._parts = tuple(
            [(src, type(src) is dict or isinstance(src, Mapping)) for src in sources]
        )

    def first(self, name: str) -> Any:
        """The attribute (or key) ``name`` of the first part that has it, else ``_MISSING``."""
        for src, mapping in self._parts:
            got = src.get(name, _MISSING) if mapping else getattr(src, name, _MISSING)  # type: ignore[attr-defined]
            if got is not _MISSING:
                return got
        return _MISSING

    def __getattr__(self, name: str) -> Any:
        got = self.first(name)
        if got is _MISSING:
            raise AttributeError(name)
        return got


def shape(
    model: type[BaseModel], record: object, leave_out: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """``record`` as plain data in the shape of the document ``model`` (keys by alias, in the
    model's order): what ``model.model_validate(...)`` takes and ``pydantic_core.to_json``
    writes exactly as the model would. The fields named (by alias) in ``leave_out`` are left
    out at every level (a display option)."""
    return _plan(model, leave_out)(record)


def document(
    model: type[BaseModel], record: object, leave_out: frozenset[str] = frozenset()
) -> BaseModel:
    """The document ``model`` of ``record`` (:func:`shape`, then validated by the model)."""
    from deckcheck.reporter.options import safe

    return model.model_validate(safe(shape(model, record, leave_out)))


@functools.cache
def _plan(
    model: type[BaseModel], skip: frozenset[str] = frozenset()
) -> Callable[[object], dict[str, Any]]:
    """The reader of one model's fields (built once per model and fields left out)."""
    fields = _fields(model, skip)

    def build(record: object) -> dict[str, Any]:
        out: dict[str, Any] = {}
        merged = type(record) is Merged  # (read straight from its parts: no __getattr__)
        mapping = not merged and (type(record) is dict or isinstance(record, Mapping))
        for key, get, by_name, omit, conv in fields:
            if not by_name:
                value = get(record)
            else:
                value = (
                    record.first(get)  # type: ignore[attr-defined]
                    if merged
                    else record.get(get, _MISSING)  # type: ignore[attr-defined]
                    if mapping
                    else getattr(record, get, _MISSING)
                )
                if value is _MISSING:
                    continue
            if value is None:
                if not omit:
                    out[key] = None
            else:
                out[key] = value if conv is None else conv(value)
        return out

    return build


def _fields(
    model: type[BaseModel], skip: frozenset[str]
) -> list[tuple[str, Any, bool, bool, Convert]]:
    """Each field of ``model`` not in ``skip``: its key, its source (a name, or a function of
    the record), whether that is a name, whether a None leaves it out, and its conversion."""
    fields: list[tuple[str, Any, bool, bool, Convert]] = []
    for name, info in model.model_fields.items():
        key = info.alias or name
        if key in skip:
            continue
        get, omit, digits = _marks(name, info.metadata)
        conv = _convert(info.annotation, digits, skip)
        fields.append((key, get, isinstance(get, str), omit, conv))
    return fields


def _marks(name: str, metadata: list[Any]) -> tuple[str | Callable[[Any], Any], bool, int | None]:
    """A field's source, whether a None leaves it out, and its rounding (from its marks)."""
    get: str | Callable[[Any], Any] = name
    omit = False
    digits = None
    for mark in metadata:
        if isinstance(mark, Src):
            get = mark.get
        elif isinstance(mark, OmitNone):
            omit = True
        elif isinstance(mark, Round):
            digits = mark.digits
    return get, omit, digits


def _text(value: Any) -> Any:
    if type(value) is str:  # the usual case, first
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, PurePath):
        return str(value)
    return value


def _optional(conv: Convert) -> Convert:
    if conv is None:
        return None
    return lambda v: None if v is None else conv(v)


def _convert(tp: Any, digits: int | None = None, skip: frozenset[str] = frozenset()) -> Convert:
    """The conversion of a value to a field of type ``tp`` (None: taken as it is)."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is types.UnionType or origin is typing.Union:
        kept = [a for a in args if a is not type(None)]
        if len(kept) == 1:
            return _optional(_convert(kept[0], digits, skip))
        return _text
    if origin is typing.Annotated:
        return _convert(args[0], digits, skip)
    if isclass(tp) and issubclass(tp, BaseModel):
        return _plan(tp, skip)
    if origin in (list, tuple, dict):
        return _container(origin, args, digits, skip)
    if tp is str or origin is typing.Literal:
        return _text
    if tp is float and digits is not None:
        return lambda v: round(v, digits)
    return None


def _container(
    origin: Any, args: tuple[Any, ...], digits: int | None, skip: frozenset[str]
) -> Convert:
    """The conversion to a list (from any sequence) or a dict (from a mapping or pairs)."""
    if origin in (list, tuple):
        item = _convert(args[0], digits, skip) if args else None
        if item is None:
            return list
        return lambda v: [item(x) for x in v]
    value = _convert(args[1], digits, skip) if len(args) == 2 else None
    if value is None:
        return lambda v: {_text(k): x for k, x in dict(v).items()}
    return lambda v: {_text(k): value(x) for k, x in dict(v).items()}
