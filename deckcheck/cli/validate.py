"""``deckcheck validate``: check decks against a format at a date (a thin shell over
:func:`deckcheck.batch.check` and :func:`deckcheck.render.render`)."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from deckcheck.cli.common import Output, clean
from deckcheck.cli.options import (
    DateOpt,
    FormatFileOpt,
    FormatOpt,
    OutputOpt,
    parse_date,
    resolve_format,
)


def register(app: typer.Typer) -> None:
    """Add ``validate`` to the main app."""

    @app.command("validate")
    def validate_cmd(
        paths: Annotated[
            list[str],
            typer.Argument(
                help="Deck files, folders (searched recursively), .zip archives, registration "
                ".csv files, '-' for stdin, or ydke:// URLs.",
                show_default=False,
            ),
        ],
        format: FormatOpt = None,
        format_file: FormatFileOpt = None,
        on: DateOpt = None,
        output: OutputOpt = Output.TEXT,
        allow_prerelease: Annotated[
            bool,
            typer.Option("--allow-prerelease", help="Pre-release codes are warnings, not errors."),
        ] = False,
        exclude: Annotated[
            list[str] | None,
            typer.Option(
                "--exclude", metavar="GLOB", help="Leave out files matching GLOB (repeatable)."
            ),
        ] = None,
    ) -> None:
        """Check decks: report every problem with a stable code.

        Exit 0 when every deck is legal (warnings allowed), 1 when any deck is illegal,
        2 when deckcheck could not run or a source could not be read (bad arguments,
        unreadable file, unknown format); every output lists both illegal and unreadable decks.
        """
        from deckcheck.batch import check, sources
        from deckcheck.render import render

        fmt = resolve_format(format, format_file)
        when = parse_date(on)
        batch = check(
            sources(paths, exclude=exclude or ()), fmt, when, allow_prerelease=allow_prerelease
        )
        colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        sys.stdout.write(render(batch, output, colour=colour))
        if batch.skipped:
            sys.stderr.write(
                f"note: skipped {len(batch.skipped)} file(s) that are not decks "
                f"(e.g. {clean(batch.skipped[0].path)}: {batch.skipped[0].reason})\n"
            )
        for u in batch.unreadable:
            sys.stderr.write(f"error: {clean(u.error)}\n")
        raise typer.Exit(int(batch.exit_code))
