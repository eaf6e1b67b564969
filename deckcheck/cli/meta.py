"""``deckcheck meta``: what the field is playing (archetypes, most-played cards, staples)."""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.common import EXIT_ERROR, EXIT_OK, clean, fail, shorten, write_output
from deckcheck.cli.options import FolderExcludeOpt, out_path

if TYPE_CHECKING:
    from deckcheck.run.meta import Metagame


class MetaOutput(enum.StrEnum):
    """``deckcheck meta --output`` values."""

    TEXT = "text"
    JSON = "json"
    CSV = "csv"
    HTML = "html"


InputsArg = Annotated[
    list[str],
    typer.Argument(
        metavar="INPUT...",
        help="Deck files, folders, .zip archives, registrations .csv files, '-' or ydke:// URLs.",
        show_default=False,
    ),
]
MetaOutputOpt = Annotated[
    MetaOutput, typer.Option("--output", "-o", help="Report format: text, json, csv or html.")
]
OutFileOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        metavar="FILE",
        help="Write the report to FILE ('-': stdout, the default).",
        show_default=False,
        parser=out_path,
    ),
]
SignaturesOpt = Annotated[
    Path | None,
    typer.Option(
        "--signatures",
        metavar="FILE",
        help="An organiser's TOML of signature cards per archetype (overrides the rule).",
        show_default=False,
    ),
]
TopOpt = Annotated[
    int, typer.Option("--top", min=1, max=1000, help="Cards per table.", show_default=True)
]
PoolFormatOpt = Annotated[
    str | None,
    typer.Option(
        "--format",
        "-f",
        help="The decks' format, for reading card names (rush: Rush Duel "
        "cards first); default tcg.",
    ),
]


def meta_command(
    inputs: InputsArg,
    output: MetaOutputOpt = MetaOutput.TEXT,
    out: OutFileOpt = None,
    signatures: SignaturesOpt = None,
    top: TopOpt = 20,
    exclude: FolderExcludeOpt = None,
    format: PoolFormatOpt = None,
) -> None:
    """Print the metagame: archetypes by decks and share, the most-played cards, staples.

    Each deck's archetype comes from the archetype names of its cards, weighted by copies in
    the Main and Extra Deck; "A / B" is a hybrid, "rogue" a deck with no archetype present
    (the rule: README, "deckcheck meta"). Exit 0, or 2 when a source could not be read (it is
    listed, the others are still counted).
    """
    from deckcheck.cli.options import resolve_format
    from deckcheck.error import DeckcheckError
    from deckcheck.reporter import meta as report
    from deckcheck.rule.format import Pool
    from deckcheck.run.batch import sources
    from deckcheck.run.meta import DEFAULT_RULES, analyze
    from deckcheck.run.signature import load_rules

    rush = resolve_format(format, None).pool is Pool.RUSH
    try:
        rules = load_rules(signatures) if signatures is not None else DEFAULT_RULES
        result = analyze(sources(inputs, exclude=exclude or ()), rules, top=top, rush=rush)
    except DeckcheckError as exc:
        fail(str(exc))
    render = {
        MetaOutput.TEXT: report.meta_text,
        MetaOutput.JSON: report.meta_json,
        MetaOutput.CSV: report.meta_csv,
        MetaOutput.HTML: report.meta_html,
    }[output]
    text = render(result)
    if out is not None:
        write_output(str(out), text)
    else:
        sys.stdout.write(text)
    _say_unread(result)
    raise typer.Exit(EXIT_ERROR if result.unreadable else EXIT_OK)


def _say_unread(result: Metagame) -> None:
    """On stderr: each line that names no card (not counted), and each unreadable source."""
    for entry in result.entries:
        for f in entry.unread:
            what = clean(f.text or f.message)
            sys.stderr.write(
                f"warning: {clean(entry.source)}:{f.line}: names no card, not "
                f"counted: {what} ({f.code.value})\n"
            )
    for u in result.unreadable:
        sys.stderr.write(f"error: {clean(shorten(u.error))} [{u.code.value}]\n")


def register(app: typer.Typer) -> None:
    """Add ``deckcheck meta`` to the main app."""
    app.command("meta")(meta_command)
