"""``deckcheck batch``: check an organiser's registrations and write the reports into a folder.

A thin shell over :func:`deckcheck.run.batch.sources`, :func:`deckcheck.run.batch.check` (in a
process
pool) and :func:`deckcheck.reporter.render`; the progress bar is ``rich``'s, on stderr, only on a
terminal.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from deckcheck.boundary import read_number
from deckcheck.cli.common import clean, fail, shorten
from deckcheck.cli.options import (
    AllowPrereleaseOpt,
    DateOpt,
    FolderExcludeOpt,
    FormatFileOpt,
    FormatOpt,
    JobsOpt,
    LangOpt,
    RegionOpt,
    out_path,
    parse_date,
    resolve_format,
)

if TYPE_CHECKING:
    from datetime import date

    from deckcheck.rule.format import Format
    from deckcheck.run.batch import Batch
    from deckcheck.run.meta import Metagame, Rules
    from deckcheck.source.record import Source

REPORTS = ("report.csv", "report.json", "report.html", "junit.xml")
"""The files ``deckcheck batch`` writes."""
RENDER_FORK_MIN = 2000
"""Fewest rows for which the JSON report is rendered by a second process."""


def write_reports(
    batch: Batch,
    folder: Path,
    meta: Metagame | Callable[[], Metagame] | None = None,
    *,
    lang: str = "en",
    jobs: int = 0,
) -> list[str]:
    """Render the batch's reports and put them into ``folder`` atomically; their names.

    ``meta`` (the metagame of the batch's decks, or a function computing it) goes into
    ``report.html`` and ``report.json``.

    Every report is rendered and written to one staging folder inside ``folder`` first, then
    they are swapped in together: the previous reports are moved aside, the new ones renamed
    into place, and on any failure the previous ones are put back, so the folder holds one run's
    reports, never a mix. Nothing is ever written outside ``folder``. Staging folders left by a
    killed run (``.deckcheck-<pid>-*`` of a process that is gone) are removed first. ``lang``
    is the reports' language. A big batch's reports are rendered by forked processes on the
    other cores (the CSV and JUnit ones while the metagame is computed, then the JSON one),
    unless ``jobs`` is 1 (``--jobs 1``: one process does all the work).
    """
    from deckcheck.reporter import OutputFormat

    csv_, json_, html_, junit_ = (
        ("report.csv", OutputFormat.CSV),
        ("report.json", OutputFormat.JSON),
        ("report.html", OutputFormat.HTML),
        ("junit.xml", OutputFormat.JUNIT),
    )
    folder.mkdir(parents=True, exist_ok=True)
    _clean_stale(folder)
    staging = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", dir=folder))
    helpers: list[tuple[Any, list[tuple[str, Any]]]] = []
    try:
        plain = [junit_, csv_]  # the reports without the metagame
        fork = jobs != 1 and len(batch.rows) >= RENDER_FORK_MIN
        helpers.append((_start_render(batch, plain, staging, None, lang, fork), plain))
        got = meta() if callable(meta) else meta
        helpers.append((_start_render(batch, [json_], staging, got, lang, fork), [json_]))
        _render_all(batch, [html_], staging, got, lang)
        for proc, todo in helpers:
            if proc is not None:
                proc.join()
            done = proc is not None and proc.exitcode == 0
            if not done or not all((staging / name).exists() for name, _ in todo):
                _render_all(batch, todo, staging, got, lang)
        names = [name for name, _ in (csv_, json_, html_, junit_)]
        _swap_in(staging, folder, names)
    finally:
        for proc, _ in helpers:
            if proc is not None and proc.is_alive():
                proc.kill()
                proc.join()
        shutil.rmtree(staging, ignore_errors=True)
    return names


STAGING_PREFIX = ".deckcheck-"
"""Staging folders of ``batch --out DIR``: ``.deckcheck-<pid>-<random>``."""
STALE_SECONDS = 24 * 3600
"""A staging folder without a live owner's pid is stale after this long (or at once if the pid
in its name is gone)."""


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError, OverflowError):
        return True
    return True


def _clean_stale(folder: Path) -> None:
    """Remove the staging folders of runs that were killed."""
    for path in folder.glob(STAGING_PREFIX + "*"):
        pid = read_number(path.name[len(STAGING_PREFIX) :].split("-", 1)[0], 1 << 62)
        try:
            if not path.is_dir() or path.is_symlink():
                continue
            if pid is not None and _alive(pid):
                continue
            if pid is None and time.time() - path.stat().st_mtime < STALE_SECONDS:
                continue
        except OSError:
            continue
        shutil.rmtree(path, ignore_errors=True)


def _keep_mode_and_owner(staged: Path, old: os.stat_result) -> None:
    """Give a staged report the mode and owner (where this user may) of the report it replaces,
    as :func:`deckcheck.boundary.write_file` does for one file."""
    os.chmod(staged, stat.S_IMODE(old.st_mode))
    now = staged.stat()
    if (now.st_uid, now.st_gid) != (old.st_uid, old.st_gid):
        with contextlib.suppress(PermissionError):
            os.chown(staged, old.st_uid, old.st_gid)


def _refuse_unsafe(staging: Path, folder: Path, names: list[str]) -> None:
    """Refuse (before touching anything) a target that is not a regular file or is read-only;
    give each staged report the mode and owner of the one it replaces."""
    for name in names:
        target = folder / name
        if target.is_symlink() or (target.exists() and not target.is_file()):
            raise OSError(errno.EEXIST, f"{name} is not a regular file; nothing replaced", target)
        if target.exists():
            st = target.stat()
            if not os.access(target, os.W_OK) or not st.st_mode & 0o222:
                raise OSError(errno.EACCES, "the file is read-only; nothing replaced", target)
            _keep_mode_and_owner(staging / name, st)


def _swap_in(staging: Path, folder: Path, names: list[str]) -> None:
    """Move the staged reports into ``folder`` together, or put the old ones back."""
    _refuse_unsafe(staging, folder, names)
    old = staging / ".previous"
    old.mkdir()
    moved: list[str] = []
    placed: list[str] = []
    try:
        for name in names:
            if (folder / name).exists():
                os.replace(folder / name, old / name)
                moved.append(name)
        for name in names:
            os.replace(staging / name, folder / name)
            placed.append(name)
    except OSError:
        for name in placed:
            with contextlib.suppress(OSError):
                os.unlink(folder / name)
        for name in moved:
            with contextlib.suppress(OSError):
                os.replace(old / name, folder / name)
        raise


def _render_to(
    batch: Batch, fmt: Any, path: Path, meta: Metagame | None = None, lang: str = "en"
) -> None:
    from deckcheck.reporter import OutputFormat, render

    if meta is not None and fmt in (OutputFormat.JSON, OutputFormat.HTML):
        from deckcheck.reporter.batchmeta import batch_with_meta

        text = batch_with_meta(batch, fmt, meta, lang=lang)
    else:
        text = render(batch, fmt, lang=lang)
    # a new file in the private staging folder; swapped in by _swap_in (mode and owner kept)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)


def _render_all(
    batch: Batch, todo: list[tuple[str, Any]], folder: Path, meta: Metagame | None, lang: str
) -> None:
    for name, fmt in todo:
        _render_to(batch, fmt, folder / name, meta, lang)


def _start_render(
    batch: Batch,
    todo: list[tuple[str, Any]],
    folder: Path,
    meta: Metagame | None,
    lang: str,
    fork: bool,
) -> Any:
    """A forked process rendering some reports into ``folder`` (None without ``fork``, where
    fork is not available: the caller renders them)."""
    import multiprocessing

    if not fork or "fork" not in multiprocessing.get_all_start_methods():
        return None
    try:
        proc = multiprocessing.get_context("fork").Process(
            target=_render_all, args=(batch, todo, folder, meta, lang), daemon=True
        )
        proc.start()
    except OSError:
        return None
    return proc


def _settle() -> None:
    """Leave what this command holds so far (the data, the rows checked) out of the garbage
    collector's later passes: a batch makes millions of objects, and each full pass would walk
    them all again (and touch the pages forked workers share). Only the command does this,
    never the library: it ends when the batch does."""
    import gc

    from deckcheck.data.dataset import Dataset
    from deckcheck.error import DeckcheckError

    with contextlib.suppress(DeckcheckError, OSError):  # (the check says what is wrong)
        Dataset.active().cards  # noqa: B018  (loaded now, so the workers inherit it)
    gc.freeze()


def _progress_bar(total: int, enabled: bool) -> tuple[Callable[[int, str], None], Any]:
    """A progress callback (a rich bar on stderr when enabled) and the bar to stop, or None."""
    if not enabled or total == 0:
        return (lambda done, label: None), None
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("checking"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        auto_refresh=False,  # no refresh thread: the process pool may fork
        transient=True,
    )
    task = bar.add_task("checking", total=total)
    bar.start()
    last = [0.0]

    def update(done: int, label: str) -> None:
        bar.update(task, completed=done)
        now = time.monotonic()
        if now - last[0] > 0.1 or done >= total:
            last[0] = now
            bar.refresh()

    return update, bar


def _tell(batch: Batch, written: list[str], out: Path, quiet: bool, lang: str = "en") -> None:
    """The unreadable and duplicate registrations and the skipped files on stderr, then the
    summary line (legal + illegal + unreadable = the registrations) on stdout, in ``lang``."""
    from deckcheck.reporter.i18n import localizer

    loc = localizer(lang)
    en = lang == "en"
    for u in batch.unreadable[:20]:
        sys.stderr.write(f"error: {clean(shorten(loc.unreadable(u.code, u.error)))}\n")
    if len(batch.unreadable) > 20:
        more = len(batch.unreadable) - 20
        sys.stderr.write(f"error: {loc.t('cli.more_unreadable', n=more)}\n")
    dups = [r.registration for r in batch.rows if r.registration and r.registration.duplicate_of]
    for reg in dups[:20]:
        assert reg is not None
        said = loc.t(
            "cli.duplicate",
            file=clean(reg.file),
            row=reg.row,
            player_id=clean(reg.player_id),
            first=reg.duplicate_of,
        )
        sys.stderr.write(f"warning: {said}\n")
    if batch.skipped:
        sys.stderr.write(_skipped_note(batch, lang))
    if quiet:
        return
    s = batch.summary
    line = loc.t(
        "cli.batch_summary",
        n=len(batch.rows),
        legal=s.legal,
        illegal=s.illegal,
        unreadable=s.unreadable,
    )
    if s.duplicates:
        line += (
            f" ({s.duplicates} of them duplicate{'s' if s.duplicates > 1 else ''})"
            if en
            else " " + loc.t("cli.batch_duplicates", n=s.duplicates)
        )
    wrote = loc.t("cli.wrote", files=", ".join(written), folder=clean(str(out)))
    sys.stdout.write(f"{line}\n{wrote}\n")


def _skipped_note(batch: Batch, lang: str = "en") -> str:
    """One ``note:`` line: how many files were skipped and why (the reports list them)."""
    from collections import Counter

    from deckcheck.reporter.i18n import localizer

    loc = localizer(lang)
    reasons = Counter(k.code for k in batch.skipped)
    why = ", ".join(f"{n} {loc.skip_reason(code)}" for code, n in reasons.most_common())
    n = len(batch.skipped)
    if lang != "en":
        return f"note: {loc.t('cli.skipped_files', n=n, reasons=why)}\n"
    return (
        f"note: skipped {n} file{'s' if n != 1 else ''} that are not decks ({why}); "
        "report.json and report.html list them\n"
    )


InputsArg = Annotated[
    list[str],
    typer.Argument(
        metavar="INPUT...",
        help="Folders of deck files, .zip archives, registrations .csv files, deck "
        "files or ydke:// URLs.",
        show_default=False,
    ),
]
OutDirOpt = Annotated[
    Path,
    typer.Option(
        "--out",
        metavar="DIR",
        help="Folder for report.csv, report.json, report.html, junit.xml (created if missing).",
        show_default=False,
        parser=out_path,
    ),
]
QuietOpt = Annotated[
    bool, typer.Option("--quiet", "-q", help="No progress bar and no summary line.")
]
SheetsOpt = Annotated[
    Path | None,
    typer.Option(
        "--sheets",
        metavar="FILE.pdf",
        help="Also write every readable deck's registration sheet into one PDF.",
        parser=out_path,
    ),
]
SignaturesOpt = Annotated[
    Path | None,
    typer.Option(
        "--signatures",
        metavar="FILE",
        help="Signature cards per archetype for the metagame (see 'deckcheck meta').",
        show_default=False,
    ),
]


def batch_cmd(
    inputs: InputsArg,
    out: OutDirOpt,
    format: FormatOpt = None,
    format_file: FormatFileOpt = None,
    on: DateOpt = None,
    region: RegionOpt = None,
    allow_prerelease: AllowPrereleaseOpt = False,
    jobs: JobsOpt = 0,
    exclude: FolderExcludeOpt = None,
    quiet: QuietOpt = False,
    sheets: SheetsOpt = None,
    lang: LangOpt = None,
    signatures: SignaturesOpt = None,
) -> None:
    """Check deck registrations and write reports for organisers and judges.

    INPUT is a folder (searched recursively), a .zip of deck files (read in memory, never
    extracted) or a registrations CSV (columns player_id, player, deck; see the README).
    Writes report.csv, report.json, report.html and junit.xml into DIR, each replaced
    atomically.
    Exit 0 when every deck is legal, 1 when any is illegal, 2 when any could not be read
    (duplicate registrations are flagged in the reports but do not change the exit code).
    """
    from deckcheck.run.batch import sources
    from deckcheck.run.meta import from_batch

    fmt = resolve_format(format, format_file, region=region)
    rules = _meta_rules(signatures)
    when = parse_date(on)
    if out.exists() and not out.is_dir():
        fail(f"--out {out}: exists and is not a folder")
    srcs = list(sources(inputs, exclude=exclude or ()))
    batch = _check_with_bar(srcs, fmt, when, allow_prerelease, jobs, quiet, sheets is not None)
    try:
        written = write_reports(
            batch, out, lambda: from_batch(batch, rules), lang=lang or "en", jobs=jobs
        )
    except OSError as exc:
        named = f" ({exc.filename})" if exc.filename else ""
        fail(f"cannot write the reports into {out}{named}: {exc.strerror or exc}")
    if sheets is not None:
        from deckcheck.cli.sheet import batch_sheets

        written.append(batch_sheets(batch, lang or "en", sheets))
    _tell(batch, written, out, quiet, lang or "en")
    raise typer.Exit(int(batch.exit_code))


def _meta_rules(signatures: Path | None) -> Rules:
    """The metagame's archetype rules: ``--signatures FILE``'s, else the bundled ones."""
    from deckcheck.error import DeckcheckError
    from deckcheck.run.meta import DEFAULT_RULES
    from deckcheck.run.signature import load_rules

    try:
        return load_rules(signatures) if signatures is not None else DEFAULT_RULES
    except DeckcheckError as exc:
        fail(str(exc))


def _check_with_bar(
    srcs: list[Source],
    fmt: Format,
    when: date,
    allow_prerelease: bool,
    jobs: int,
    quiet: bool,
    keep_decks: bool,
) -> Batch:
    """Check every source with a progress bar on a terminal (none with ``--quiet``)."""
    from deckcheck.run.batch import check

    progress, bar = _progress_bar(len(srcs), not quiet and sys.stderr.isatty())
    _settle()
    try:
        batch = check(
            srcs,
            fmt,
            when,
            allow_prerelease=allow_prerelease,
            progress=progress,
            jobs=jobs,
            keep_decks=keep_decks,  # the sheets are built from the same read
        )
    finally:
        if bar is not None:
            bar.stop()
    _settle()
    return batch


def register(app: typer.Typer) -> None:
    """Add ``batch`` to the main app."""
    app.command("batch")(batch_cmd)
