"""The base of every document model, and the marks a field may carry to say how it is read
from a record (:mod:`deckcheck.reporter.document.shape` reads them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict


class Doc(BaseModel):
    """A JSON document or a part of one: unknown fields are refused."""

    # defer_build: a document's validator and serializer are made on its first use (validated,
    # written, asked for its schema), not with its class: a command reads the fields of the
    # documents it prints (shape) and validates one, so it does not build the others
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)

    not_fields: ClassVar[frozenset[str]] = frozenset()
    """The fields of this document's record that are no field of it (read by a function of
    the record, or never written): the parity test checks every other one is."""


@dataclass(frozen=True, slots=True)
class Src:
    """Where a field's value is read from, when not from the record's attribute of the field's
    own name: another attribute's name, or a function of the record."""

    get: str | Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class Round:
    """A float written rounded to ``digits`` decimals."""

    digits: int


@dataclass(frozen=True, slots=True)
class OmitNone:
    """A field left out of the document when the record's value is None (otherwise a None is
    written as ``null``, and a field the record has no attribute for is left out)."""


OMIT_NONE = OmitNone()
"""The one :class:`OmitNone` mark."""
