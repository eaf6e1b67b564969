"""``deckcheck upcoming``: which decks the next announced list makes illegal or changes (a thin
shell over :func:`deckcheck.run.forecast.forecast` and :func:`deckcheck.reporter.render`)."""

from __future__ import annotations

import enum
from typing import Annotated

import typer

from deckcheck.cli.common import Output
from deckcheck.cli.options import (
    AllowPrereleaseOpt,
    ConfigOpt,
    DateOpt,
    FormatFileOpt,
    FormatOpt,
    NoConfigOpt,
    RegionOpt,
    StrictOpt,
)
from deckcheck.cli.validate import (
    CheckRun,
    ExcludeOpt,
    OutOpt,
    PathsArg,
    ProgressOpt,
    Scope,
    SummaryOpt,
)


class UpcomingOutput(enum.StrEnum):
    """The report formats of ``upcoming`` (a subset of ``OutputFormat``)."""

    TEXT = "text"
    JSON = "json"
    GITHUB = "github"


def upcoming_command(
    paths: PathsArg = None,
    format: FormatOpt = None,
    format_file: FormatFileOpt = None,
    on: DateOpt = None,
    region: RegionOpt = None,
    output: Annotated[
        UpcomingOutput,
        typer.Option(
            "--output", "-o", help="Report format: text, json or github (workflow commands)."
        ),
    ] = UpcomingOutput.TEXT,
    allow_prerelease: AllowPrereleaseOpt = False,
    exclude: ExcludeOpt = None,
    config: ConfigOpt = None,
    no_config: NoConfigOpt = False,
    strict: StrictOpt = None,
    out: OutOpt = None,
    summary: SummaryOpt = None,
    progress: ProgressOpt = None,
) -> None:
    """Which decks become illegal or change under the next announced list, and from when.

    Each deck is checked on the date (default today) and on the effective date of its format's
    next known list. Exit 1 if a deck becomes illegal or gets new errors (with --strict: also
    if a card of a deck changes status), 2 if a source could not be read, else 0.
    """
    from deckcheck.reporter import render
    from deckcheck.reporter.outlook import forecast_markdown
    from deckcheck.run.forecast import forecast

    run = CheckRun.start(config, no_config, format, format_file, on, strict, out)
    is_strict = run.strict
    fc = run.check_sources(forecast, Scope(paths, exclude, allow_prerelease, region), progress)
    run.finish(
        render(fc, Output(output.value), colour=run.colour, root=run.root, strict=is_strict),
        out,
        lambda: forecast_markdown(fc, root=run.root),
        summary,
        fc.unreadable,
    )
    raise typer.Exit(int(fc.verdict(strict=is_strict)))


def register(app: typer.Typer) -> None:
    """Add ``deckcheck upcoming`` to the main app."""
    app.command("upcoming")(upcoming_command)
