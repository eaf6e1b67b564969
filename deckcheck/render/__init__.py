"""Rendering: every report deckcheck prints, in every output format, from one registry.

:func:`render` takes a result (a :class:`~deckcheck.batch.Batch`, a
:class:`~deckcheck.report.Report`, a :class:`~deckcheck.goldfish.HandStats`) and an
:class:`OutputFormat`; dispatch over the formats ends in ``assert_never``, so adding a format
without a reporter fails type-checking. JSON documents are pydantic models
(:mod:`deckcheck.render.document`), whose JSON Schemas ``deckcheck schema`` prints. Plots of
goldfish results are in :mod:`deckcheck.render.plot` (optional ``plot`` extra).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, assert_never

if TYPE_CHECKING:
    from deckcheck.batch import Batch, Unreadable
    from deckcheck.goldfish import HandStats
    from deckcheck.report import Report

    Renderable = Batch | Report | HandStats


class OutputFormat(enum.StrEnum):
    """Report formats (the CLI's ``-o/--output``)."""

    TEXT = "text"
    JSON = "json"
    CSV = "csv"
    """Batches: one row per registration or deck (:mod:`deckcheck.render.csv`)."""
    HTML = "html"
    """Batches: one self-contained page (:mod:`deckcheck.render.html`)."""


@dataclass(frozen=True, slots=True)
class RenderOptions:
    """How to render: display choices, never part of a result."""

    colour: bool = False
    """ANSI colours (the CLI turns them on for a terminal without ``NO_COLOR``)."""
    fractions: bool = False
    """Goldfish: exact probabilities also as fractions."""
    warnings: tuple[str, ...] = ()
    """Goldfish: warnings to carry in the JSON document."""


def render(
    value: Renderable,
    output: OutputFormat | str = OutputFormat.TEXT,
    options: RenderOptions | None = None,
    **kw: Any,
) -> str:
    """``value`` rendered as ``output``; ``kw`` sets :class:`RenderOptions`.

    Batches and reports render as ``text``, ``json``, ``csv`` and ``html``; goldfish results
    as ``text`` and ``json``.

    Raises :class:`~deckcheck.error.InputError` for an unknown output format.
    """
    from deckcheck.error import InputError

    try:
        fmt = OutputFormat(output)
    except ValueError:
        valid = ", ".join(f.value for f in OutputFormat)
        raise InputError(f"unknown output format {output!r}; valid: {valid}") from None
    opts = options or RenderOptions(**kw)
    if fmt is OutputFormat.TEXT:
        return _text(value, opts)
    elif fmt is OutputFormat.JSON:
        return _json(value, opts)
    elif fmt is OutputFormat.CSV:
        from deckcheck.render.csv import batch_csv

        return batch_csv(_as_batch(value, fmt))
    elif fmt is OutputFormat.HTML:
        from deckcheck.render.html import batch_html

        return batch_html(_as_batch(value, fmt))
    else:
        assert_never(fmt)


def _as_batch(value: Renderable, fmt: OutputFormat) -> Batch:
    """A batch as is; one report as a batch of one; anything else cannot be a table."""
    from deckcheck.batch import Batch
    from deckcheck.error import InputError
    from deckcheck.report import Report

    if isinstance(value, Batch):
        return value
    if isinstance(value, Report):
        return Batch(value.format, value.date, (value,), ())
    raise InputError(f"{fmt.value} output is for validation results; use text or json")


def _text(value: Renderable, opts: RenderOptions) -> str:
    from deckcheck.batch import Batch
    from deckcheck.render import text
    from deckcheck.report import Report

    if isinstance(value, Batch):
        return text.batch_text(value, opts)
    if isinstance(value, Report):
        return text.report_text(value, opts) + "\n"
    return text.goldfish_text(value, opts)


def _json(value: Renderable, opts: RenderOptions) -> str:
    from deckcheck.batch import Batch
    from deckcheck.render import document as doc
    from deckcheck.report import Report

    if isinstance(value, Batch):
        return doc.dump(doc.ValidationDocument.model_validate(safe(batch_dict(value))))
    if isinstance(value, Report):
        return doc.dump(doc.ResultDoc.model_validate(safe(value.to_dict())))
    data = value.to_dict(fractions=opts.fractions)
    data["warnings"] = list(opts.warnings)
    return doc.dump(doc.GoldfishDocument.model_validate(safe(data)))


def batch_dict(batch: Batch) -> dict[str, Any]:
    """The validation document of a batch as plain data (the README documents its shape)."""
    unreadable = [unreadable_dict(u) for u in batch.unreadable]
    s = batch.summary
    out: dict[str, Any] = {
        "results": [r.to_dict() for r in batch.reports],
        "summary": {
            "decks": s.decks, "legal": s.legal, "illegal": s.illegal, "errors": s.errors,
            "warnings": s.warnings, "notes": s.notes, "unreadable": s.unreadable,
            "skipped": s.skipped, "duplicates": s.duplicates,
        },
        "unreadable": unreadable,
        "skipped": [{"path": k.path, "reason": k.reason} for k in batch.skipped],
        "format": batch.format,
        "date": batch.date.isoformat(),
        "data": {
            "as_of": batch.data_as_of.isoformat() if batch.data_as_of else None,
            "fingerprint": batch.data_fingerprint,
        },
    }  # fmt: skip
    if unreadable:
        out["errors"] = [dict(u) for u in unreadable]  # deprecated alias, one release
    return out


def unreadable_dict(u: Unreadable) -> dict[str, Any]:
    """JSON form of an unreadable source (with its registration and status, if any)."""
    out: dict[str, Any] = {"path": u.path, "error": u.error, "line": u.line}
    if u.registration is not None:
        from deckcheck.registration import status_of

        out["registration"] = {**u.registration.to_dict(), "status": status_of(u).value}
    return out


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
            from deckcheck.render.text import clean

            return clean(value)
        return value
    if isinstance(value, dict):
        return {k: _safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_safe(v) for v in value]
    return value
