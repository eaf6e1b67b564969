"""An event's stored decks as the batch reports, sheets and metagame that ``deckcheck batch``
makes: each registration becomes a :class:`~deckcheck.source.record.Source` in memory with its
:class:`~deckcheck.source.registration.Registration` (player, player id, row), checked by
:func:`deckcheck.run.batch.check` and rendered by :mod:`deckcheck.reporter` (``report.csv``,
``report.html`` and ``report.json`` with the metagame of :func:`deckcheck.run.meta.from_batch`;
``sheets.pdf`` by :func:`deckcheck.reporter.sheetbatch.sheets_from_sources`).

The rows are numbered as in the export's ``registrations.csv`` (the header is row 1), and each
deck is named by its file in the export (``decks/0001-ID.ydk``), so the reports of the live
event and of its export read the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec.structs import replace

from deckcheck.event.model import Entry, Event

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.run.batch import Batch
    from deckcheck.run.meta import Metagame
    from deckcheck.source.record import Source

SUFFIX = {"ydk": ".ydk", "ydke": ".ydke", "text": ".txt", "omega": ".omega", "json": ".json"}
"""The file ending of a stored deck's file format in an export."""
CSV_NAME = "registrations.csv"
"""The registrations CSV of an export."""


def deck_file(n: int, entry: Entry) -> str:
    """The export's name for the ``n``-th registration's deck (1-based)."""
    return f"decks/{n:04d}-{entry.id}{SUFFIX.get(entry.deck_format, '.txt')}"


def sources(event: Event, entries: list[Entry]) -> list[Source]:
    """The registrations as deck sources in memory, each with its registration row."""
    from deckcheck.source.record import Source
    from deckcheck.source.registration import Registration

    out: list[Source] = []
    for n, e in enumerate(entries, start=1):
        name = deck_file(n, e)
        reg = Registration(
            file=CSV_NAME,
            row=n + 1,
            player_id=e.player_id,
            player=e.player,
            deck=name,
            fields=(
                ("registration_id", e.id),
                ("submitted_at", e.created_at.isoformat()),
                ("updated_at", e.updated_at.isoformat()),
                ("version", str(e.version)),
            ),
            line=n + 1,
        )
        out.append(replace(Source.memory(name, e.deck), registration=reg))
    return out


def event_batch(event: Event, entries: list[Entry], data: Dataset | None = None) -> Batch:
    """The stored decks checked as one batch (format, date and region of the event)."""
    from deckcheck.run.batch import check
    from deckcheck.run.vocab import resolve_format

    fmt = resolve_format(event.format, data=data, region=event.tcg_region, files=False)
    return check(sources(event, entries), fmt, event.date, data=data, jobs=1)


def metagame(batch: Batch) -> Metagame:
    """The metagame of the batch's decks (the default archetype rules)."""
    from deckcheck.run.meta import DEFAULT_RULES, from_batch

    return from_batch(batch, DEFAULT_RULES)


def report(batch: Batch, kind: str, *, lang: str = "en") -> str:
    """``report.csv``, ``report.html`` or ``report.json`` of the batch (``kind``: csv, html,
    json), as ``deckcheck batch`` writes them (HTML and JSON with the metagame)."""
    from deckcheck.reporter import render
    from deckcheck.reporter.batchmeta import batch_with_meta

    if kind == "csv":
        return render(batch, "csv", lang=lang)
    return batch_with_meta(batch, kind, metagame(batch), lang=lang)


def meta_dict(batch: Batch) -> dict[str, Any]:
    """The metagame document (``POST /v1/meta``'s ``MetaDocument``)."""
    from deckcheck.reporter.document import MetaDocument, shape

    return shape(MetaDocument, metagame(batch))


def sheets(
    event: Event,
    entries: list[Entry],
    data: Dataset | None = None,
    *,
    lang: str = "en",
    paper: str = "a4",
) -> bytes:
    """Every registration's sheet in one PDF (player, id, event name and date filled in);
    :class:`~deckcheck.error.SheetUnavailableError` without the ``sheet`` extra."""
    from deckcheck.reporter.sheet import SheetFields, sheets_pdf
    from deckcheck.reporter.sheetbatch import sheets_from_sources
    from deckcheck.run.vocab import resolve_format

    fmt = resolve_format(event.format, data=data, region=event.tcg_region, files=False)
    fields = SheetFields(event=event.name, date=event.date.isoformat())
    got = sheets_from_sources(
        sources(event, entries), fmt, event.date, lang=lang, fields=fields, data=data
    )
    return sheets_pdf(got.sheets, paper)
