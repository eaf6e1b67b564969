"""``deckcheck validate``: check decks against a format at a date (a thin shell over
:func:`deckcheck.batch.check` and :func:`deckcheck.render.render`)."""

from __future__ import annotations

import os
import shutil
import sys
import time
from typing import Annotated

import typer

from deckcheck.cli.common import Output, clean, fail
from deckcheck.cli.options import (
    DateOpt,
    FormatFileOpt,
    FormatOpt,
    OutputOpt,
    parse_date,
    resolve_format,
)


class Progress:
    """Progress of a long batch on a terminal: one stderr line, redrawn at most 10 times a
    second, shown only after the first half second and erased at the end."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False

    def __call__(self, done: int, label: str) -> None:
        now = time.monotonic()
        if now - self.start < 0.5 or now - self.last < 0.1:
            return
        self.last = now
        self.shown = True
        width = max(20, shutil.get_terminal_size().columns - 1)
        line = clean(f"checked {done}: {label}")[:width]
        sys.stderr.write(f"\r\033[K{line}")
        sys.stderr.flush()

    def done(self) -> None:
        """Erase the progress line."""
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def register(app: typer.Typer) -> None:
    """Add ``validate`` to the main app."""

    @app.command("validate")
    def validate_cmd(
        paths: Annotated[
            list[str],
            typer.Argument(
                help="Deck files, folders (searched recursively; hidden, tool and .gitignored "
                "paths skipped), '-' for stdin, or ydke:// URLs.",
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
                "--exclude",
                metavar="GLOB",
                help="Leave out files and folders matching GLOB (repeatable).",
            ),
        ] = None,
    ) -> None:
        """Check decks: report every problem with a stable code.

        Exit 0 when every deck is legal (warnings allowed), 1 when any deck is illegal,
        2 when deckcheck could not run or a source could not be read (bad arguments,
        unreadable file, unknown format); every output lists both illegal and unreadable decks.
        """
        from deckcheck.batch import check, sources
        from deckcheck.error import DateRangeError
        from deckcheck.render import render
        from deckcheck.render.text import skipped_line

        fmt = resolve_format(format, format_file)
        when = parse_date(on)
        progress = Progress() if sys.stderr.isatty() else None
        try:
            batch = check(
                sources(paths, exclude=exclude or ()),
                fmt,
                when,
                allow_prerelease=allow_prerelease,
                progress=progress,
            )
        except DateRangeError as exc:
            fail(str(exc))
        finally:
            if progress is not None:
                progress.done()
        colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        sys.stdout.write(render(batch, output, colour=colour))
        if batch.skipped:
            sys.stderr.write(f"note: {skipped_line(batch.skipped)}\n")
        for u in batch.unreadable:
            sys.stderr.write(f"error: {clean(u.error)}\n")
        raise typer.Exit(int(batch.exit_code))
