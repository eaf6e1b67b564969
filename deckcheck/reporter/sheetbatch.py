"""Registration sheets of many decks: a builder over the one job loop (:mod:`deckcheck.run.job`),
so each deck is read and validated once whatever else the run reports."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date as _date
from typing import TYPE_CHECKING, Any

from deckcheck.reporter.i18n import Lang
from deckcheck.reporter.sheet import Sheet, SheetFields, build_sheet

if TYPE_CHECKING:
    from deckcheck.run.batch import Batch
    from deckcheck.validation.report import Report


@dataclass(frozen=True, slots=True)
class SheetBatch:
    """The sheets of a run over deck sources, what could not be read, and the verdicts."""

    sheets: tuple[Sheet, ...]
    reports: tuple[Report, ...]
    unreadable: tuple[str, ...]
    """One message per source that could not be read (no sheet for it)."""


def _fields_for(src: Any, fields: SheetFields) -> SheetFields:
    """The run's fields, with the player and id of the source's registration (CSV row)."""
    from dataclasses import replace

    reg = src.registration
    if reg is None:
        return fields
    return replace(
        fields, player=reg.player or fields.player, player_id=reg.player_id or fields.player_id
    )


def sheets_from_batch(
    batch: Batch, *, lang: Lang | str = Lang.EN, fields: SheetFields | None = None, data: Any
) -> SheetBatch:
    """The sheet of every checked deck of ``batch`` (checked with ``keep_decks=True``: each
    deck was read and validated once, by the batch's own run); a registration's player and id
    fill the sheet's fields."""
    base = fields or SheetFields()
    sheets: list[Sheet] = []
    reports: list[Report] = []
    for row in batch.checked:
        if row.deck is None:
            raise ValueError("sheets_from_batch: the batch was checked without keep_decks=True")
        reports.append(row.report)
        fill = _fields_for(row, base)
        sheets.append(build_sheet(row.deck, row.report, lang=lang, fields=fill, index=data.cards))
    unreadable = tuple(
        u.error if u.path in u.error else f"{u.path}: {u.error}" for u in batch.unreadable
    )
    return SheetBatch(tuple(sheets), tuple(reports), unreadable)


def sheets_from_sources(
    items: Sequence[Any],
    format: Any = "tcg",
    date: Any = None,
    *,
    lang: Lang | str = Lang.EN,
    fields: SheetFields | None = None,
    allow_prerelease: bool = False,
    data: Any = None,
) -> SheetBatch:
    """Read and validate every source (paths or :class:`~deckcheck.source.record.Source` values:
    files, folders, zips, registration CSVs, ydke URLs) through the one job loop
    (:func:`deckcheck.run.batch.check`) and build a sheet for each readable deck."""
    from deckcheck.data.dataset import resolve_data
    from deckcheck.run.batch import check

    ds = resolve_data(data)
    when = date if date is not None else _date.today()
    batch = check(items, format, when, allow_prerelease=allow_prerelease, data=ds, keep_decks=True)
    return sheets_from_batch(batch, lang=lang, fields=fields, data=ds)
