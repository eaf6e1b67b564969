"""``deckcheck sheet``: deck registration sheets as one PDF, a page per deck
(:mod:`deckcheck.reporter.sheet`)."""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.boundary import write_file
from deckcheck.cli.common import clean, fail, shorten
from deckcheck.cli.options import (
    AllowPrereleaseOpt,
    DateOpt,
    FormatFileOpt,
    FormatOpt,
    LangOpt,
    RegionOpt,
    out_path,
    parse_date,
    resolve_format,
)

if TYPE_CHECKING:
    from deckcheck.reporter.sheetbatch import SheetBatch
    from deckcheck.run.batch import Batch


class PaperChoice(enum.StrEnum):
    """``--paper`` values (mirrors :class:`deckcheck.reporter.sheet.Paper`)."""

    A4 = "a4"
    LETTER = "letter"


def write_bytes(path: Path, data: bytes) -> None:
    """``data`` into ``path`` through the one output writer (:func:`deckcheck.boundary.write_file`:
    atomic, keeps mode and owner, respects the umask, refuses what the user could not write).
    Raises :class:`~deckcheck.error.OutputError` (an :class:`OSError`)."""
    write_file(path, data)


def write_sheets(batch: SheetBatch, out: Path, paper: str) -> None:
    """The batch's sheets as one PDF in ``out``; exit 2 if there is none or it cannot be
    written (or the ``sheet`` extra is missing)."""
    from deckcheck.error import DeckcheckError, OutputError
    from deckcheck.reporter.sheet import sheets_pdf

    try:
        pdf = sheets_pdf(batch.sheets, paper)
    except DeckcheckError as exc:
        fail(str(exc))
    try:
        write_file(out, pdf)
    except OutputError as exc:
        fail(str(exc))


def batch_sheets(checked: Batch, lang: str, out: Path) -> str:
    """``deckcheck batch --sheets``: the sheet of every deck the batch checked (each read and
    validated once, by the batch's own run) into ``out``; its name."""
    from deckcheck.data.dataset import Dataset
    from deckcheck.reporter.sheetbatch import sheets_from_batch

    batch = sheets_from_batch(checked, lang=lang, data=Dataset.active())
    if not batch.sheets:
        fail("--sheets: no deck could be read: no sheet written")
    write_sheets(batch, out, "a4")
    return str(out)


DecksArg = Annotated[
    list[str],
    typer.Argument(
        metavar="DECK...",
        help="Deck files, folders, .zip archives, registrations .csv files, '-' for "
        "stdin, or ydke:// URLs.",
        show_default=False,
    ),
]
PdfOutOpt = Annotated[
    Path,
    typer.Option(
        "--out",
        metavar="FILE.pdf",
        help="The PDF to write.",
        show_default=False,
        parser=out_path,
    ),
]
PlayerOpt = Annotated[str | None, typer.Option("--player", help="Player name.")]
PlayerIdOpt = Annotated[
    str | None, typer.Option("--player-id", help="Player ID (e.g. a CARD GAME ID).")
]
EventNameOpt = Annotated[str | None, typer.Option("--event", help="Event name.")]
PaperOpt = Annotated[PaperChoice, typer.Option("--paper", help="Paper size.")]


def sheet_cmd(
    decks: DecksArg,
    out: PdfOutOpt,
    player: PlayerOpt = None,
    player_id: PlayerIdOpt = None,
    event: EventNameOpt = None,
    format: FormatOpt = None,
    format_file: FormatFileOpt = None,
    on: DateOpt = None,
    region: RegionOpt = None,
    lang: LangOpt = None,
    paper: PaperOpt = PaperChoice.A4,
    allow_prerelease: AllowPrereleaseOpt = False,
) -> None:
    """Write deck registration sheets: one PDF, a page per deck.

    Each page has the Main Deck split into Monster, Spell and Trap cards with counts and
    totals, the Extra and Side Decks, the player and event fields (empty ones are fillable
    PDF form fields), card names in --lang, the verdict for the format and date, the deck's
    and the data's fingerprints, and a QR code holding the deck's ydke:// URL. A
    registrations CSV fills each page's player and player ID.
    Exit 0 when every deck is legal, 1 when any is illegal, 2 when a source could not be
    read (the PDF then holds the decks that could) or nothing could be written.
    """
    from deckcheck.error import DeckcheckError
    from deckcheck.reporter.sheet import SheetFields
    from deckcheck.reporter.sheetbatch import sheets_from_sources

    fmt = resolve_format(format, format_file, region=region)
    when = parse_date(on)
    fields = SheetFields(player, player_id, event, when.isoformat() if on else None)
    try:
        batch = sheets_from_sources(
            decks,
            fmt,
            when,
            lang=lang or "en",
            fields=fields,
            allow_prerelease=allow_prerelease,
        )
    except DeckcheckError as exc:
        fail(str(exc))
    for line in batch.unreadable:
        sys.stderr.write(f"error: {clean(shorten(line))}\n")
    if not batch.sheets:
        fail("no deck could be read: no sheet written")
    write_sheets(batch, out, paper.value)
    legal = sum(r.legal for r in batch.reports)
    sys.stdout.write(
        f"wrote {len(batch.sheets)} sheet(s) to {clean(str(out))}: {legal} legal, "
        f"{len(batch.reports) - legal} illegal\n"
    )
    if batch.unreadable:
        raise typer.Exit(2)
    raise typer.Exit(0 if legal == len(batch.reports) else 1)


def register(app: typer.Typer) -> None:
    """Add ``sheet`` to the main app."""
    app.command("sheet")(sheet_cmd)
