"""Query parameters a route cannot use with the body it got: refused, never ignored."""

from __future__ import annotations

from collections.abc import Iterable

from deckcheck.error import InputError


def refuse_query(names: Iterable[str], body: str) -> None:
    """Raise :class:`~deckcheck.error.InputError` (422 ``bad-input``) naming the query
    parameters given with a ``body`` (e.g. a JSON batch) that carries its own fields: they
    would otherwise be ignored without a word."""
    given = sorted(set(names))
    if given:
        listed = ", ".join(repr(n) for n in given)
        raise InputError(
            f"query parameter(s) {listed} cannot be used with {body}: put them in the body"
        )
