"""One vocabulary for every command: the options, their spellings and their parsing.

* ``-f/--format``: the game format (or era) id or alias; ``--format-file FILE``: an organiser's
  format file;
* ``-d/--date``: an event date ``YYYY-MM-DD`` or ``today``;
* ``--region na|eu``: whose effective dates pick a TCG list where North America and Europe
  differ (default: the format's, North America);
* ``-o/--output``: the report format (``text``, ``json``; for validation results also
  ``junit``, ``github``, ``sarif``);
* ``--config FILE`` / ``--no-config``: the repository configuration; ``--strict``: warnings fail;
* ``--out FILE``: an output file;
* ``--from`` / ``--to``: deck (or list) file formats, no short flags.
"""

from __future__ import annotations

import enum
import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.common import Output, clean, fail

if TYPE_CHECKING:
    from deckcheck.rule.format import Format
    from deckcheck.run.config import Config

FormatOpt = Annotated[
    str | None,
    typer.Option(
        "--format", "-f", help="Game format or era id/alias (default tcg); see 'deckcheck formats'."
    ),
]
FormatFileOpt = Annotated[
    Path | None,
    typer.Option(
        "--format-file", metavar="FILE", help="An organiser's TOML format file (docs/formats.md)."
    ),
]
DateOpt = Annotated[
    str | None,
    typer.Option(
        "--date", "-d", metavar="DATE", help="Event date YYYY-MM-DD or 'today' (default)."
    ),
]


class RegionChoice(enum.StrEnum):
    """``--region`` values (the same as :class:`deckcheck.rule.banlist.TcgRegion`)."""

    NA = "na"
    EU = "eu"


RegionOpt = Annotated[
    RegionChoice | None,
    typer.Option(
        "--region",
        help="TCG region whose effective dates pick the list where North America and Europe "
        "differ (e.g. April 2024: na 2024-04-15, eu 2024-04-22). Default: the format's "
        "(tcg_region in a format file), else na.",
    ),
]


def _text_or_json(value: str | Output) -> Output:
    """``--output`` of the commands that write text or JSON only: only those two are accepted
    (and only those two are listed in ``--help``)."""
    if isinstance(value, Output):
        return value
    try:
        fmt = Output(value.strip().lower())
    except ValueError:
        fmt = None
    if fmt is None:
        raise typer.BadParameter(f"{value!r}: this command writes text or json")
    if fmt not in (Output.TEXT, Output.JSON):
        raise typer.BadParameter(
            f"{value!r}: this command writes text or json ({fmt.value} is "
            "for validation results: 'deckcheck validate')"
        )
    return fmt


def out_path(value: str | Path) -> Path:
    """An output file or folder named on the command line (``--out``, ``--sarif``,
    ``--sheets``): an empty name is refused, never taken for the current folder."""
    if isinstance(value, Path):
        return value
    if not value:
        raise typer.BadParameter("an empty file name")
    return Path(value)


def out_name(value: str) -> str:
    """:func:`out_path` for the options that keep the name as text (``-`` for stdout)."""
    if not value:
        raise typer.BadParameter("an empty file name")
    return value


JobsOpt = Annotated[
    int,
    typer.Option(
        "--jobs", "-j", min=0, help="Worker processes (0: one per CPU).", show_default=True
    ),
]
"""``--jobs N``: worker processes for many decks (``batch`` defaults to every CPU, ``validate``
and ``upcoming`` to one)."""

AllowPrereleaseOpt = Annotated[
    bool,
    typer.Option("--allow-prerelease", help="Pre-release codes are warnings, not errors."),
]


OutputOpt = Annotated[
    Output,
    typer.Option(
        "--output",
        "-o",
        help="Report format: text or json.",
        parser=_text_or_json,
        metavar="<text|json>",
    ),
]
ReportOutputOpt = Annotated[
    Output,
    typer.Option(
        "--output",
        "-o",
        help="Report format: text, json, junit (JUnit XML), github (workflow-command "
        "annotations), sarif (SARIF 2.1.0), csv (one row per deck) or html (one page).",
    ),
]
ConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--config",
        metavar="FILE",
        help="Repository configuration (deckcheck.toml, or pyproject.toml with "
        "a tool.deckcheck table); default: found from the current folder upwards.",
    ),
]
NoConfigOpt = Annotated[
    bool,
    typer.Option(
        "--no-config", help="Ignore any deckcheck.toml or pyproject.toml tool.deckcheck table."
    ),
]
StrictOpt = Annotated[
    bool | None,
    typer.Option(
        "--strict/--no-strict",
        help="Warnings fail too (exit 1); default: the configuration's 'strict' (off).",
        show_default=False,
    ),
]


def load_repo_config(path: Path | None, no_config: bool) -> Config | None:
    """The configuration named by ``--config``, else found upwards (None with ``--no-config``
    or when there is none); exit 2 with the file and key when it is unusable."""
    from deckcheck.error import ConfigError
    from deckcheck.run.config import find_config, load_config

    if path is not None and no_config:
        fail("give --config or --no-config, not both")
    if no_config:
        return None
    try:
        found = path if path is not None else find_config()
        return load_config(found) if found is not None else None
    except ConfigError as exc:
        fail(str(exc))


def parse_date(text: str | None) -> date:
    """``YYYY-MM-DD``, ``today`` or nothing (today); exit 2 with an example on a bad date
    (:func:`deckcheck.run.vocab.parse_date`, shared with the configuration and the service)."""
    from deckcheck.error import InputError
    from deckcheck.run.vocab import event_date

    try:
        return event_date(text)
    except InputError as exc:
        fail(str(exc))


def resolve_format(
    name: str | None,
    file: Path | str | None,
    *,
    default: str = "tcg",
    region: RegionChoice | str | None = None,
) -> Format:
    """The format named by ``--format`` or defined by ``--format-file``; exit 2 if unusable.

    ``region`` (``--region``), when given, replaces the format's TCG region.
    """
    fmt = _resolve_format(name, file, default=default)
    if region is None:
        return fmt
    from deckcheck.error import DeckcheckError

    try:
        return fmt.in_region(str(region))
    except DeckcheckError as exc:
        fail(str(exc))


def _resolve_format(name: str | None, file: Path | str | None, *, default: str) -> Format:
    from deckcheck.error import DeckcheckError, UnknownFormatError
    from deckcheck.run.vocab import resolve_format as resolve

    if name is not None and file is not None:
        fail("give --format or --format-file, not both")
    if name is not None and not name.strip():
        fail("--format is empty; see 'deckcheck formats' for the valid names")
    try:
        fmt = resolve(name, file=file, default=default)
    except UnknownFormatError as exc:
        fail(
            f"unknown format {exc.name!r}{did_you_mean(exc.name, exc.valid)}",
            ["valid formats: " + ", ".join(exc.valid)],
        )
    except DeckcheckError as exc:
        fail(str(exc))
    for warning in fmt.warnings:
        sys.stderr.write(f"warning: {clean(warning)} (line skipped)\n")
    return fmt


def _lang_value(ctx: typer.Context, value: str | None) -> str | None:
    from deckcheck.cli.common import LANG_KEY
    from deckcheck.error import InputError
    from deckcheck.reporter.i18n import resolve_lang

    try:
        lang = resolve_lang(value).value
    except InputError as exc:
        raise typer.BadParameter(str(exc)) from None
    ctx.meta[LANG_KEY] = lang  # error lines are written in it too (cli.common.error_line)
    return lang


LangOpt = Annotated[
    str | None,
    typer.Option(
        "--lang",
        metavar="LANG",
        callback=_lang_value,
        is_eager=True,  # resolved first, so the errors of the other options are in it too
        help="Language of card names, messages, headings and dates: en, ja, zh (Simplified "
        "Chinese; also zh-Hans) or ko (default: DECKCHECK_LANG, else the locale, else en). Card "
        "names the data lacks in the language are printed in English. Codes, JSON field names "
        "and CSV headings never change.",
    ),
]
"""``--lang en|ja|zh|ko``; the callback resolves a missing value from DECKCHECK_LANG and the
locale."""


def did_you_mean(name: str, valid: list[str]) -> str:
    """``"; did you mean 'tcg'?"`` for a near miss among ``valid`` (case-insensitive), else
    nothing."""
    import difflib

    lowered = {v.lower(): v for v in valid}
    close = difflib.get_close_matches(name.strip().lower(), list(lowered), n=3, cutoff=0.6)
    if not close:
        return ""
    return "; did you mean " + " or ".join(repr(lowered[c]) for c in close) + "?"


def check_globs(value: list[str] | None) -> list[str] | None:
    """``--exclude`` globs, each compiled once to refuse a bad one before any scan."""
    if not value:
        return value
    from deckcheck.source.glob import path_glob

    for pattern in value:
        try:
            path_glob(pattern)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
    return value


FolderExcludeOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--exclude",
        metavar="GLOB",
        help="Leave out folder files matching GLOB.",
        callback=check_globs,
    ),
]
