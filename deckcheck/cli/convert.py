"""``deckcheck convert``: read a deck in one format and write it in another."""

from __future__ import annotations

import enum
import sys
from typing import Annotated

import typer

from deckcheck.cli.common import EXIT_ILLEGAL, EXIT_OK, clean, fail, write_output
from deckcheck.cli.options import LangOpt, out_name
from deckcheck.reporter.text import plural


class FormatChoice(enum.StrEnum):
    """Deck file formats on the command line (mirrors deckcheck.deck.io.DeckFormat)."""

    YDK = "ydk"
    YDKE = "ydke"
    TEXT = "text"
    OMEGA = "omega"
    JSON = "json"


def convert(
    source: Annotated[
        str, typer.Argument(metavar="IN", help="Deck file, '-' for stdin, or a ydke:// URL.")
    ],
    from_: Annotated[
        FormatChoice | None,
        typer.Option("--from", help="Input format (default: detected from the content)."),
    ] = None,
    to: Annotated[FormatChoice, typer.Option("--to", help="Output deck format.")] = (
        FormatChoice.YDK
    ),
    out: Annotated[
        str,
        typer.Option(
            "--out", metavar="FILE", help="Output file, '-' for stdout (default).", parser=out_name
        ),
    ] = "-",
    rush: Annotated[
        bool, typer.Option("--rush", help="Prefer Rush Duel cards for names in text lists.")
    ] = False,
    drop_unknown: Annotated[
        bool,
        typer.Option(
            "--drop-unknown",
            help="Write ydk, ydke or omega even though lines naming no card must be left out "
            "(exit 1, listing them).",
        ),
    ] = False,
    lang: LangOpt = None,
) -> None:
    """Convert a deck between ydk, ydke, text, omega and json.

    Nothing is lost silently: unknown passcodes are kept, and lines naming no card (unknown or
    ambiguous names) are kept as written in text and json output; all are reported on stderr
    as warnings with their line numbers. ydk, ydke and omega have no room for such lines: the
    conversion is refused (exit 2) unless --drop-unknown is given, and then exits 1 naming the
    lines left out. Exit 2 if the input cannot be read or the output cannot be written (an
    existing output file is then left untouched). --out replaces a regular file atomically,
    keeping its permissions, and writes in place to anything else (a FIFO, a device, a pipe).
    """
    from deckcheck.deck.io import read_path, write_deck
    from deckcheck.deck.io.text import unresolved_lines
    from deckcheck.deck.model import FindingCode
    from deckcheck.error import DeckcheckError

    try:
        deck = read_path(source, fmt=from_.value if from_ else None, rush=rush)
    except DeckcheckError as exc:
        fail(str(exc))
    where = deck.source or source
    for finding in deck.findings:
        at = f"{where}:{finding.line}" if finding.line is not None else where
        sys.stderr.write(f"warning: {clean(at)}: {clean(finding.message)}\n")
        label = "candidate" if finding.code is FindingCode.AMBIGUOUS_CARD else "did you mean"
        for hint in finding.suggestions:
            sys.stderr.write(f"  {label}: {clean(hint)}\n")
    lost = unresolved_lines(deck) if to.value in ("ydk", "ydke", "omega") else []
    listed = [
        f"{where}:{f.line}: {f.text}" if f.line is not None else f"{where}: {f.text}" for f in lost
    ]
    if lost and not drop_unknown:
        fail(
            f"{to.value} cannot hold the {plural(len(lost), 'line')} naming no card; "
            "fix them, convert to text or json (which keep them), or give --drop-unknown",
            listed,
        )
    try:
        text = write_deck(deck, to.value, lang=lang or "en")
    except DeckcheckError as exc:
        fail(f"cannot write {to.value}: {exc}")
    status = EXIT_OK
    if lost:
        sys.stderr.write(f"warning: left out {plural(len(lost), 'line')} naming no card:\n")
        for entry in listed:
            sys.stderr.write(f"  {clean(entry)}\n")
        status = EXIT_ILLEGAL
    if out == "-":
        # a deck file's bytes go to a file or pipe unchanged; on a terminal, escaped
        sys.stdout.write(
            text if not sys.stdout.isatty() else "\n".join(map(clean, text.split("\n")))
        )
    else:
        write_output(out, text)
    raise typer.Exit(status)


def register(app: typer.Typer) -> None:
    """Add the ``convert`` command to the main app."""
    app.command("convert")(convert)
