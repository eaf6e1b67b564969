"""The batch report as CSV: one row per registration (or deck source), for spreadsheets.

Columns (:data:`HEADER`, public API), then the registrations CSV's own extra columns in their
order: ``row`` (line in the registrations CSV), ``player_id``, ``player``, ``deck_name`` (from
the file: ``#created by``, ``!name``, JSON ``name``), ``source`` (file, archive entry or CSV
row), ``status`` (``legal``, ``illegal``, ``unreadable``, ``duplicate``, ``skipped``),
``duplicate_of``, ``legal`` (``true``/``false``, empty when unreadable), ``errors``,
``warnings``, ``notes``, ``codes`` (distinct violation codes, ``;``-separated), ``messages``
(`` | ``-separated; for an unreadable deck, why), ``main``, ``extra``, ``side`` (card counts)
and ``fingerprint``.
Every file a scan skipped follows, one row each: ``source``, ``status`` ``skipped``, ``codes``
its skip code (:class:`~deckcheck.source.record.SkipReason`) and ``messages`` its meaning.

Cells that a spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``, ``@``, a tab
or a carriage return) get a leading ``'``; control characters in the report's own columns (file
names, deck and player names) are escaped (``\\x1b``); the registration CSV's own columns and
their headers are defused the same way, keeping only their line breaks and tabs. The file is
UTF-8 with CRLF line ends (RFC 4180).
"""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, TypeAlias

from deckcheck.reporter.text import clean
from deckcheck.run.row import Checked
from deckcheck.source.record import Unreadable
from deckcheck.validation.report import Report

if TYPE_CHECKING:
    from deckcheck.reporter.i18n import Localizer
    from deckcheck.run.batch import Batch, Skipped
    from deckcheck.source.registration import Registration

HEADER = (
    "row",
    "player_id",
    "player",
    "deck_name",
    "source",
    "status",
    "duplicate_of",
    "legal",
    "errors",
    "warnings",
    "notes",
    "codes",
    "messages",
    "main",
    "extra",
    "side",
    "fingerprint",
)
"""The report's own columns, in order (public API)."""

_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def defuse(text: str, *, control: bool = True) -> str:
    """``text`` safe for a spreadsheet cell and a terminal: a would-be formula gets a leading
    ``'``; control characters (with ``control``) and undecodable bytes are escaped."""
    if control and not text.isprintable():
        text = clean(text)
    else:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = clean(text)
    return "'" + text if text.startswith(_FORMULA) else text


def _passed(text: str) -> str:
    """A registration CSV's own cell: defused, control characters escaped but line breaks and
    tabs kept (a multi-line note stays one)."""
    if not text.isprintable():
        text = "".join(ch if ch in "\n\r\t" else clean(ch) for ch in text)
    return defuse(text, control=False)


Row: TypeAlias = "Checked | Report | Unreadable"
"""A row of a batch report: a checked deck, an unreadable source, or (in a batch built by hand
from reports) a bare report."""


def rows(batch: Batch) -> tuple[Row, ...]:
    """The batch's rows in source order (reports, then unreadable, for a hand-built batch)."""
    return batch.rows or (*batch.reports, *batch.unreadable)


def registration_of(row: Row) -> Registration | None:
    """The registration of a row (a hand-built batch's reports have none)."""
    return None if isinstance(row, Report) else row.registration


def batch_csv(batch: Batch, *, lang: str = "en") -> str:
    """The CSV report of a batch (``lang``: the language of the ``messages`` column; the
    columns and the codes never change)."""
    from deckcheck.reporter.i18n import localizer

    loc = localizer(lang)
    table = rows(batch)
    extra: dict[str, None] = {}
    for r in table:
        reg = registration_of(r)
        if reg is not None:
            for key, _ in reg.fields:
                extra.setdefault(_column(key), None)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([*HEADER, *(defuse(k) for k in extra)])
    for r in table:
        reg = registration_of(r)
        fields = {_column(k): v for k, v in reg.fields} if reg is not None else {}
        head = [reg.row, reg.player_id, reg.player] if reg is not None else ["", "", ""]
        own = [defuse(v) if isinstance(v, str) else v for v in (*head, *_cells(r, reg, loc))]
        # the registration CSV's own columns pass through as written (line breaks included)
        writer.writerow([*own, *(_passed(fields.get(k, "")) for k in extra)])
    for k in batch.skipped:  # a file a scan did not take for a deck, with its skip code
        writer.writerow([*(defuse(v) for v in _skipped_cells(k)), *("" for _ in extra)])
    return out.getvalue()


def _column(key: str) -> str:
    """The report's column of a registration CSV's own column (renamed where it would clash
    with one of the report's)."""
    return key if key not in HEADER else f"registration {key}"


def _cells(r: Row, reg: Registration | None, loc: Localizer) -> list[object]:
    """A deck's cells after the registration's: its verdict, counts and fingerprint (an
    unreadable source: its error)."""
    from deckcheck.source.registration import status_of

    duplicate = reg.duplicate_of if reg and reg.duplicate_of is not None else ""
    if isinstance(r, Unreadable):
        return ["", r.path, status_of(r).value, duplicate, *[""] * 5, r.error, *[""] * 4]
    errors = sum(v.severity.value == "error" for v in r.violations)
    warnings = sum(v.severity.value == "warning" for v in r.violations)
    c = r.counts
    return [
        r.name or "",
        r.path or "",
        status_of(r).value,
        duplicate,
        "true" if r.legal else "false",
        errors,
        warnings,
        len(r.violations) - errors - warnings,
        ";".join(dict.fromkeys(v.code.value for v in r.violations)),
        " | ".join(loc.violation(v) for v in r.violations),
        c["main"],
        c["extra"],
        c["side"],
        r.fingerprint if isinstance(r, Checked) else "",
    ]


def _skipped_cells(k: Skipped) -> list[str]:
    """The row of a file a scan skipped: its path, status, code and reason."""
    from deckcheck.source.registration import Status

    return [
        "",
        "",
        "",
        "",
        k.path,
        Status.SKIPPED.value,
        *[""] * 5,
        k.code.value,
        k.reason,
        *[""] * 4,
    ]
