"""``deckcheck validate``: check decks against a format at a date (a thin shell over
:func:`deckcheck.run.config.check_with_config` and :func:`deckcheck.reporter.render`)."""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from msgspec import Struct

from deckcheck.cli.common import Output, clean, fail, shorten
from deckcheck.cli.options import (
    AllowPrereleaseOpt,
    ConfigOpt,
    DateOpt,
    FormatFileOpt,
    FormatOpt,
    JobsOpt,
    LangOpt,
    NoConfigOpt,
    RegionChoice,
    RegionOpt,
    ReportOutputOpt,
    StrictOpt,
    check_globs,
    load_repo_config,
    out_path,
    parse_date,
    resolve_format,
)

if TYPE_CHECKING:
    from deckcheck.rule.format import Format
    from deckcheck.run.batch import Batch, Skipped, Unreadable
    from deckcheck.run.config import Config

_T = TypeVar("_T")

PathsArg = Annotated[
    list[str] | None,
    typer.Argument(
        help="Deck files, folders (searched recursively; hidden, tool and .gitignored paths "
        "skipped), .zip archives, registration .csv files, '-' for stdin, or ydke:// URLs "
        "(default: the configuration's folder, else the current folder).",
        show_default=False,
    ),
]


ExcludeOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--exclude",
        metavar="GLOB",
        help="Leave out files and folders matching GLOB (repeatable; the configuration's glob "
        "syntax).",
        callback=check_globs,
    ),
]
SummaryOpt = Annotated[
    Path | None,
    typer.Option(
        "--summary",
        metavar="FILE",
        help="Also append a Markdown summary table to FILE (e.g. $GITHUB_STEP_SUMMARY; - for "
        "standard output, after the report).",
    ),
]
ProgressOpt = Annotated[
    bool | None,
    typer.Option(
        "--progress/--no-progress",
        help="Show a count of the decks checked on stderr (default: when stderr is a terminal).",
        show_default=False,
    ),
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        metavar="FILE",
        help="Write the report to FILE ('-': stdout, the default).",
        parser=out_path,
    ),
]
SarifOpt = Annotated[
    Path | None,
    typer.Option(
        "--sarif",
        metavar="FILE",
        help="Also write a SARIF 2.1.0 report of the same run to FILE (code scanning).",
        parser=out_path,
    ),
]


def default_paths(paths: list[str] | None, config: Config | None) -> list[str]:
    """The paths given, else the configuration's folder (relative when below the current
    folder), else the current folder."""
    if paths:
        return paths
    if config is None:
        return ["."]
    rel = os.path.relpath(config.root)
    return [rel if not rel.startswith(os.pardir) else str(config.root)]


class Progress:
    """A one-line count of the sources checked, redrawn on stderr (cleared by :meth:`done`);
    on a terminal it appears after the first half second and is redrawn at most 10 times a
    second (``--progress`` draws every source)."""

    def __init__(self, enabled: bool | None, lang: str = "en") -> None:
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.lang = lang
        self.throttle = enabled is None
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False

    def __call__(self, done: int, label: str) -> None:
        """Show ``done`` and the source just checked (escaped, cut to fit a line)."""
        if not self.enabled:
            return
        if self.throttle:
            now = time.monotonic()
            if now - self.start < 0.5 or now - self.last < 0.1:
                return
            self.last = now
        width = shutil.get_terminal_size((80, 24)).columns
        if self.lang == "en":
            text = f"checked {done}: {clean(label)}"
        else:
            from deckcheck.reporter.i18n import t

            text = t(self.lang, "cli.checked", done=done, source=clean(label))
        text = text if len(text) < width else text[: max(width - 2, 10)] + "…"
        sys.stderr.write("\r\033[K" + text)
        sys.stderr.flush()
        self.shown = True

    def done(self) -> None:
        """Clear the progress line."""
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


class Scope(Struct, frozen=True):
    """Which sources ``validate`` and ``upcoming`` check: the paths (or the configuration's
    folder), the ``--exclude`` globs, ``--allow-prerelease`` and ``--region``."""

    paths: list[str] | None
    exclude: list[str] | None
    allow_prerelease: bool
    region: RegionChoice | None


class CheckRun(Struct, frozen=True):
    """What ``validate`` and ``upcoming`` take from their shared options and the repository
    configuration, before the checking starts."""

    config: Config | None
    format: Format | None
    """The command line's format (None: the configuration's, per folder)."""
    date: date | None
    strict: bool
    colour: bool
    """Colour the report (stdout is a terminal, no ``--out``, no ``NO_COLOR``)."""
    root: str
    """The repository root, which report paths are relative to."""

    @classmethod
    def start(
        cls,
        config: Path | None,
        no_config: bool,
        format: str | None,
        format_file: Path | None,
        on: str | None,
        strict: bool | None,
        out: Path | None,
    ) -> CheckRun:
        """Read the configuration and the options; exit 2 on a bad one."""
        from deckcheck.run.config import find_repo_root
        from deckcheck.run.config import strict as strict_of

        cfg = load_repo_config(config, no_config)
        fmt = (
            resolve_format(format, format_file)
            if format is not None or format_file is not None
            else None
        )
        return cls(
            cfg,
            fmt,
            parse_date(on) if on is not None else None,
            strict_of(cfg, strict),
            out is None and sys.stdout.isatty() and not os.environ.get("NO_COLOR"),
            str(find_repo_root(config=cfg)),
        )

    def check(self, progress: bool | None, work: Callable[[Progress], _T], lang: str = "en") -> _T:
        """Run ``work`` with a progress line (in ``lang``); a configuration or date problem
        exits 2."""
        from deckcheck.error import ConfigError, DateRangeError

        shown = Progress(progress, lang)
        try:
            return work(shown)
        except (ConfigError, DateRangeError) as exc:
            fail(str(exc))
        finally:
            shown.done()

    def check_sources(
        self,
        work: Callable[..., _T],
        scope: Scope,
        progress: bool | None,
        lang: str = "en",
        **extra: object,
    ) -> _T:
        """Run ``work`` (:func:`~deckcheck.run.config.check_with_config` or
        :func:`~deckcheck.run.forecast.forecast`) over the scope's sources with the run's
        configuration, format and date, under :meth:`check`."""
        from deckcheck.run.batch import sources

        return self.check(
            progress,
            lambda shown: work(
                sources(default_paths(scope.paths, self.config), exclude=scope.exclude or ()),
                self.config,
                format=self.format,
                date=self.date,
                allow_prerelease=True if scope.allow_prerelease else None,
                progress=shown,
                region=scope.region.value if scope.region is not None else None,
                **extra,
            ),
            lang,
        )

    def finish(
        self,
        report: str,
        out: Path | None,
        summary: Callable[[], str],
        summary_file: Path | None,
        unreadable: Iterable[Unreadable],
        lang: str = "en",
    ) -> None:
        """Write the report and the job summary (``summary()``, made only when there is a
        ``summary_file``); one ``error:`` line per unreadable source (its reason in ``lang``)."""
        from deckcheck.reporter.i18n import localizer

        write_report(report, out)
        if summary_file is not None:
            append_summary(summary(), summary_file)
        loc = localizer(lang)
        for u in unreadable:
            why = loc.unreadable(u.code, u.error)
            sys.stderr.write(f"error: {clean(shorten(why))}\n")


def write_report(text: str, out: Path | None) -> None:
    """``text`` to stdout, or atomically to ``out`` (exit 2 if it cannot be written)."""
    if out is None:
        sys.stdout.write(text)
        return
    from deckcheck.cli.common import write_output

    write_output(str(out), text)


def _job_summary(batch: Batch, root: str | None) -> str:
    """The Markdown job summary of a checked batch."""
    from deckcheck.reporter.github import summary_markdown

    return summary_markdown(batch, root=root)


def append_summary(text: str, path: Path | None) -> None:
    """Append ``text`` to ``path`` (the job summary; ``-``: standard output, after the
    report); exit 2 if it cannot be written."""
    if path is None:
        return
    if str(path) == "-":
        sys.stdout.write(text)
        return
    from deckcheck.cli.common import append_whole

    try:
        append_whole(str(path), text)
    except OSError as exc:
        fail(f"cannot write the summary to {path}: {exc.strerror or exc}")


def validate_cmd(
    paths: PathsArg = None,
    format: FormatOpt = None,
    format_file: FormatFileOpt = None,
    on: DateOpt = None,
    region: RegionOpt = None,
    output: ReportOutputOpt = Output.TEXT,
    allow_prerelease: AllowPrereleaseOpt = False,
    exclude: ExcludeOpt = None,
    config: ConfigOpt = None,
    no_config: NoConfigOpt = False,
    strict: StrictOpt = None,
    summary: SummaryOpt = None,
    out: OutOpt = None,
    progress: ProgressOpt = None,
    lang: LangOpt = None,
    jobs: JobsOpt = 1,
    sarif: SarifOpt = None,
) -> None:
    """Check decks: report every problem with a stable code.

    Exit 0 when every deck is legal (warnings allowed, unless --strict), 1 when any deck is
    illegal, 2 when deckcheck could not run or a source could not be read (bad arguments,
    unreadable file, unknown format); every output lists both illegal and unreadable decks.
    A deckcheck.toml (or a tool.deckcheck table in pyproject.toml) found from the current folder
    upwards sets the default format, date, folder formats, ignored codes and strictness;
    command-line options override it.
    """
    from deckcheck.reporter import render
    from deckcheck.reporter.i18n import t
    from deckcheck.run.config import check_with_config

    lang = lang or "en"
    run = CheckRun.start(config, no_config, format, format_file, on, strict, out)
    scope = Scope(paths, exclude, allow_prerelease, region)
    batch = run.check_sources(check_with_config, scope, progress, lang, jobs=jobs)
    _note_skipped(batch.skipped, lang)
    run.finish(
        render(batch, output, colour=run.colour, root=run.root, strict=run.strict, lang=lang),
        out,
        lambda: _job_summary(batch, run.root),
        summary,
        batch.unreadable,
        lang,
    )
    if sarif is not None:
        write_report(render(batch, "sarif", root=run.root, strict=run.strict), sarif)
    if not batch.reports and not batch.unreadable and not batch.skipped:
        sys.stderr.write(f"note: {t(lang, 'cli.nothing')}\n")
    code = batch.verdict(strict=run.strict)
    if run.strict and code != batch.exit_code:
        n = batch.summary.warnings
        said = (
            f"--strict: {n} warning(s) count as failures"
            if lang == "en"
            else t(lang, "cli.strict", n=n)
        )
        sys.stderr.write(f"error: {said}\n")
    raise typer.Exit(int(code))


def _note_skipped(skipped: Sequence[Skipped], lang: str) -> None:
    """A note on stderr naming each file that was skipped (not a deck), with its reason."""
    from deckcheck.reporter.i18n import localizer
    from deckcheck.reporter.text import skipped_line

    if not skipped:
        return
    sys.stderr.write(f"note: {skipped_line(skipped, lang)}\n")
    loc = localizer(lang)
    sys.stderr.writelines(
        f"  {clean(k.path)}: {loc.skip_reason(k.code)} ({k.code.value})\n" for k in skipped
    )


def register(app: typer.Typer) -> None:
    """Add ``validate`` to the main app."""
    app.command("validate")(validate_cmd)
