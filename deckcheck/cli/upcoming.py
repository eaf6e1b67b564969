"""``deckcheck upcoming``: which decks the next announced list makes illegal or changes (a thin
shell over :func:`deckcheck.forecast.forecast` and :func:`deckcheck.reporter.render`)."""

from __future__ import annotations

import enum
import os
import sys
from typing import Annotated

import typer

from deckcheck.cli.common import Output, clean, fail
from deckcheck.cli.options import (
    AllowPrereleaseOpt,
    ConfigOpt,
    DateOpt,
    FormatFileOpt,
    FormatOpt,
    NoConfigOpt,
    RegionOpt,
    StrictOpt,
    load_repo_config,
    parse_date,
    resolve_format,
)
from deckcheck.cli.validate import (
    ExcludeOpt,
    OutOpt,
    PathsArg,
    Progress,
    ProgressOpt,
    SummaryOpt,
    append_summary,
    default_paths,
    write_report,
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
    from deckcheck.batch import sources
    from deckcheck.config import find_repo_root
    from deckcheck.config import strict as strict_of
    from deckcheck.error import ConfigError, DateRangeError
    from deckcheck.forecast import forecast
    from deckcheck.reporter import render
    from deckcheck.reporter.outlook import forecast_markdown

    cfg = load_repo_config(config, no_config)
    fmt = (
        resolve_format(format, format_file)
        if format is not None or format_file is not None
        else None
    )
    when = parse_date(on) if on is not None else None
    shown = Progress(progress)
    try:
        fc = forecast(
            sources(default_paths(paths, cfg), exclude=exclude or ()), cfg, format=fmt,
            date=when, allow_prerelease=True if allow_prerelease else None, progress=shown,
            region=region.value if region is not None else None,
        )  # fmt: skip
    except (ConfigError, DateRangeError) as exc:
        fail(str(exc))
    finally:
        shown.done()
    is_strict = strict_of(cfg, strict)
    colour = out is None and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    root = str(find_repo_root(config=cfg))
    write_report(render(fc, Output(output.value), colour=colour, root=root, strict=is_strict), out)
    append_summary(forecast_markdown(fc, root=root), summary)
    for u in fc.unreadable:
        sys.stderr.write(f"error: {clean(u.error)}\n")
    raise typer.Exit(int(fc.verdict(strict=is_strict)))


def register(app: typer.Typer) -> None:
    """Add ``deckcheck upcoming`` to the main app."""
    app.command("upcoming")(upcoming_command)
