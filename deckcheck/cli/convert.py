"""``deckcheck convert``: read a deck in one format and write it in another."""

from __future__ import annotations

import enum
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.common import EXIT_ILLEGAL, EXIT_OK, clean, fail, shorten, write_output
from deckcheck.cli.options import LangOpt, out_name
from deckcheck.reporter.text import plural

if TYPE_CHECKING:
    from deckcheck.deck.model import Deck


class FormatChoice(enum.StrEnum):
    """Deck file formats on the command line (mirrors deckcheck.deck.io.DeckFormat)."""

    YDK = "ydk"
    YDKE = "ydke"
    TEXT = "text"
    OMEGA = "omega"
    JSON = "json"


InArg = Annotated[
    str, typer.Argument(metavar="IN", help="Deck file, '-' for stdin, or a ydke:// URL.")
]
FromOpt = Annotated[
    FormatChoice | None,
    typer.Option("--from", help="Input format (default: detected from the content)."),
]
ToOpt = Annotated[FormatChoice, typer.Option("--to", help="Output deck format.")]
DeckOutOpt = Annotated[
    str,
    typer.Option(
        "--out", metavar="FILE", help="Output file, '-' for stdout (default).", parser=out_name
    ),
]
RushOpt = Annotated[
    bool, typer.Option("--rush", help="Prefer Rush Duel cards for names in text lists.")
]
LenientOpt = Annotated[
    bool,
    typer.Option(
        "--lenient",
        help="Write the deck even though lines that name no card must be left out of the "
        "output (warning with each line; exit 0).",
    ),
]
DropUnknownOpt = Annotated[
    bool,
    typer.Option(
        "--drop-unknown",
        help="Deprecated (use --lenient): write the deck leaving such lines out, exit 1.",
    ),
]


def convert(
    source: InArg,
    from_: FromOpt = None,
    to: ToOpt = FormatChoice.YDK,
    out: DeckOutOpt = "-",
    rush: RushOpt = False,
    lenient: LenientOpt = False,
    drop_unknown: DropUnknownOpt = False,
    lang: LangOpt = None,
) -> None:
    """Convert a deck between ydk, ydke, text, omega and json.

    Nothing is lost silently: unknown passcodes are kept, and lines naming no card (unknown or
    ambiguous names) are kept as written in text and json output; all are reported on stderr
    as warnings with their line numbers. A line the output cannot hold (any such line in ydk,
    ydke and omega; a line that is not a card at all in any format) refuses the conversion
    (exit 2, naming the lines) unless --lenient is given: then the deck is written, each line
    left out is named in a warning, and the exit is 0. Exit 2 if the input cannot be read or
    the output cannot be written (an existing output file is then left untouched). --out
    replaces a regular file atomically, keeping its permissions, and writes in place to
    anything else (a FIFO, a device, a pipe).
    """
    from deckcheck.deck.io import lost_lines, read_path, write_deck
    from deckcheck.error import DeckcheckError

    try:
        deck = read_path(source, fmt=from_.value if from_ else None, rush=rush)
    except DeckcheckError as exc:
        fail(str(exc))
    where = deck.source or source
    _warn_findings(deck, where)
    lost = lost_lines(deck, to.value)
    listed = [
        f"{where}:{f.line}: {what}" if f.line is not None else f"{where}: {what}"
        for f in lost
        for what in [f.text if f.text is not None else f.message]
    ]
    if lost and not (lenient or drop_unknown):
        fail(
            f"{to.value} cannot hold the {plural(len(lost), 'line')} naming no card; "
            "fix them, convert to text or json (which keep named lines), or give --lenient",
            listed,
        )
    try:
        text = write_deck(deck, to.value, lang=lang or "en")
    except DeckcheckError as exc:
        fail(f"cannot write {to.value}: {exc}")
    _notes(deck, to.value, lang)
    status = EXIT_OK
    if lost:
        _say_left_out(listed, lang)
        status = EXIT_OK if lenient else EXIT_ILLEGAL
    _write_deck_text(out, text)
    raise typer.Exit(status)


def _warn_findings(deck: Deck, where: str) -> None:
    """A warning on stderr for each line the reader did not turn into a card, with hints."""
    from deckcheck.deck.model import FindingCode

    for finding in deck.findings:
        at = f"{where}:{finding.line}" if finding.line is not None else where
        sys.stderr.write(f"warning: {clean(at)}: {clean(shorten(finding.message))}\n")
        label = "candidate" if finding.code is FindingCode.AMBIGUOUS_CARD else "did you mean"
        for hint in finding.suggestions:
            sys.stderr.write(f"  {label}: {clean(hint)}\n")


def _notes(deck: Deck, to: str, lang: str | None) -> None:
    """The notes on stderr: English names kept in a translated text list, the cover card."""
    if to == "text" and lang and lang != "en":
        _say_fallback(deck, lang)
    if deck.cover is not None:
        kept = "kept" if to == "omega" else f"left out ({to} has no place for it)"
        sys.stderr.write(f"note: the Omega code's cover card {deck.cover} is {kept}\n")


def _say_left_out(listed: list[str], lang: str | None) -> None:
    """The warning naming each line the output left out."""
    from deckcheck.reporter.i18n import t

    n = len(listed)
    said = (
        f"left out {plural(n, 'line')} naming no card:"
        if not lang or lang == "en"
        else t(lang, "cli.left_out", n=n)
    )
    sys.stderr.write(f"warning: {said}\n")
    for entry in listed:
        sys.stderr.write(f"  {clean(entry)}\n")


def _write_deck_text(out: str, text: str) -> None:
    """Write the converted deck to ``--out`` (``-``: stdout)."""
    if out == "-":
        # a deck file's bytes go to a file or pipe unchanged; on a terminal, escaped
        sys.stdout.write(
            text if not sys.stdout.isatty() else "\n".join(map(clean, text.split("\n")))
        )
    else:
        write_output(out, text)


def _say_fallback(deck: Deck, lang: str) -> None:
    """Once, on stderr: how many distinct cards of a text list in ``lang`` kept their English
    name (the data has none in that language)."""
    from deckcheck.data.dataset import Dataset
    from deckcheck.reporter.i18n import card_name, t

    index = Dataset.active().cards
    missing = {
        dc.passcode for dc in deck if dc.card is not None and card_name(dc.card, lang, index)[1]
    }
    if missing:
        language = t(lang, f"lang.{lang}")
        sys.stderr.write(f"note: {t(lang, 'report.fallback', n=len(missing), language=language)}\n")


def register(app: typer.Typer) -> None:
    """Add the ``convert`` command to the main app."""
    app.command("convert")(convert)
