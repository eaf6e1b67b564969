"""What every reporter shares: the render options, repository-relative paths, JSON-safe strings
(a leaf of the reporter stage, so the reporters need not import the registry that calls them)."""

from __future__ import annotations

import functools
from typing import Any

from msgspec import Struct


class RenderOptions(Struct, frozen=True):
    """How to render: display choices, never part of a result."""

    colour: bool = False
    """ANSI colours (the CLI turns them on for a terminal without ``NO_COLOR``)."""
    fractions: bool = False
    """Goldfish: exact probabilities also as fractions."""
    cumulative: bool = False
    """Goldfish text: P(at least k), P(at most k) and the expected copies beside the
    distributions (the JSON always has them)."""
    warnings: tuple[str, ...] = ()
    """Goldfish: warnings to carry in the JSON document."""
    root: str | None = None
    """CI reports: the folder (repository root) that file paths are made relative to; None:
    the current folder."""
    strict: bool = False
    """CI reports: warnings fail too (JUnit failures instead of system-out)."""
    lang: str = "en"
    """Text, CSV and HTML reports: the language of card names, messages and headings (``en``,
    ``ja``, ``zh``); JSON gains ``name_local`` and ``message_local`` beside the English ones."""


def repo_path(path: str, root: str | None) -> str | None:
    """``path`` as a POSIX path relative to ``root`` (default: the current folder), for CI
    reports; None for a source that is no file (``<stdin>``, ``<ydke URL>``).

    A path outside ``root`` stays absolute.
    """
    import os

    if path in ("<stdin>", "<ydke URL>", "<deck>", "-") or path.lower().startswith("ydke://"):
        return None
    return _relative(path, root, os.getcwd())


@functools.lru_cache(maxsize=8192)
def _relative(path: str, root: str | None, cwd: str) -> str:
    """:func:`repo_path` for one working folder (a report names each path many times)."""
    import os

    base = os.path.normpath(os.path.join(cwd, root) if root is not None else cwd)
    full = os.path.normpath(os.path.join(cwd, path))
    inside = base if base.endswith(os.sep) else base + os.sep  # (a drive's or the root folder)
    case = os.path.normcase  # (Windows: folders match whatever their letters' case)
    if case(full) == case(base):
        return "."
    if case(full).startswith(case(inside)):
        return full[len(inside) :].replace(os.sep, "/")
    return full.replace(os.sep, "/")  # outside the root (or on another drive): absolute


def safe(value: Any) -> Any:
    """``value`` with every string made valid for UTF-8 JSON (undecodable bytes as ``\\xNN``)."""
    if isinstance(value, dict | list | tuple):
        import json

        try:  # the usual case, checked in C: nothing to change
            json.dumps(value, ensure_ascii=False, default=str, skipkeys=True).encode("utf-8")
        except UnicodeEncodeError:
            pass
        else:
            return value
    return _safe(value)


def _safe(value: Any) -> Any:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            from deckcheck.reporter.escape import clean

            return clean(value)
        return value
    if isinstance(value, dict):
        return {k: _safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_safe(v) for v in value]
    return value


def dump_json(data: dict[str, Any]) -> str:
    """A big document already built in its model's shape (a batch's ``validation`` document)
    as indented UTF-8 JSON, as :func:`deckcheck.reporter.document.dump` writes the model, but
    without validating it again field by field or importing the models (most of the time of a
    10,000-deck ``report.json``); undecodable strings are escaped as :func:`safe` does."""
    import pydantic_core

    try:
        text = pydantic_core.to_json(data, indent=2)
    except (pydantic_core.PydanticSerializationError, UnicodeError):
        text = pydantic_core.to_json(safe(data), indent=2)
    return text.decode("utf-8") + "\n"
