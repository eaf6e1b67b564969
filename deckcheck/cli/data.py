"""``deckcheck data``: update the card and ban-list data without a new release.

``status`` says which data is in use; ``update`` installs a newer bundle from a URL or a folder
(or builds one from the upstream sources); ``export`` writes the data in use as a bundle folder
that others can serve; ``reset`` goes back to the data shipped with deckcheck.
"""

from __future__ import annotations

import enum
import sys
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from deckcheck.cli.common import Output, clean, fail, print_document
from deckcheck.cli.options import OutputOpt

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.data.diff import DataDiff
    from deckcheck.data.update import FetchOptions, UpdateResult

app = typer.Typer(
    help="Show, update, export or reset the card and ban-list data.", no_args_is_help=True
)


def _short(fingerprint: str) -> str:
    return fingerprint[:16]


def _sources(sources: list[str]) -> str:
    repos = Counter(s.split("@", 1)[0] for s in sources)
    return ", ".join(f"{r} ({n} versions)" if n > 1 else r for r, n in sorted(repos.items()))


MaxAgeOpt = Annotated[
    int | None,
    typer.Option(
        "--max-age",
        min=1,
        metavar="DAYS",
        help="An update is due after this many days (default: DECKCHECK_MAX_AGE_DAYS, else 30).",
    ),
]


TimeoutOpt = Annotated[
    float | None,
    typer.Option(
        "--timeout",
        min=0.1,
        metavar="SECONDS",
        help="Wait this long to connect or for data (default 30), and let one file take this "
        "long in all, however slowly it trickles in (default 900).",
        show_default=False,
    ),
]


def fetch_options(timeout: float | None, retries: int, **more: Any) -> FetchOptions:
    """The download options of ``--timeout`` and ``--retries``: a given timeout is also the
    deadline of each whole file (a server that trickles bytes is cut off at it)."""
    from deckcheck.data.update import FetchOptions

    if timeout is None:
        return FetchOptions(retries=retries, **more)
    return FetchOptions(timeout=timeout, deadline=timeout, retries=retries, **more)


RetriesOpt = Annotated[
    int,
    typer.Option(
        "--retries", min=0, max=10, metavar="N", help="Tries again after a failed download."
    ),
]


@app.command("status")
def status(output: OutputOpt = Output.TEXT, max_age: MaxAgeOpt = None) -> None:
    """Say which data is in use (installed or bundled, as-of date, source) and if it is due."""
    from deckcheck.data.freshness import freshness
    from deckcheck.data.store import status as data_status
    from deckcheck.error import DeckcheckError
    from deckcheck.reporter.document import DataStatusDocument, Merged, shape

    st = data_status()
    try:
        fresh = freshness(st.active.as_of, st.home, max_age=max_age)
    except DeckcheckError as exc:
        fail(str(exc))
    doc = shape(DataStatusDocument, Merged({"freshness": fresh}, st))
    if output is Output.JSON:
        print_document("data-status", doc)
        return
    lines = [
        f"active data: {doc['origin']}, as of {doc['as_of']}",
        f"  fingerprint  {doc['fingerprint']}",
        f"  folder       {clean(doc['folder'])}",
    ]
    if doc["source"]:
        lines.append(f"  source       {clean(doc['source'])}")
    if doc["installed_at"]:
        lines.append(f"  installed    {doc['installed_at']}")
    if doc["sources"]:
        lines.append(f"  built from   {clean(_sources(doc['sources']))}")
    if doc["origin"] != "bundled":
        b = doc["bundled"]
        lines.append(f"bundled data: as of {b['as_of']}, fingerprint {_short(b['fingerprint'])}")
    due = f"update due: {clean(fresh.reason)}" if fresh.reason else "no update due"
    lines.append(f"  age          {fresh.age_days} days ({due})")
    if st.problem:
        lines.append(f"note: {clean(st.problem)}")
    lines.append(f"data folder: {clean(doc['data_home'])}")
    if doc["offline"]:
        lines.append("network: disabled (offline)")
    sys.stdout.write("\n".join(lines) + "\n")


class _Bar:
    """A progress bar on stderr, drawn only on a terminal, at most ten times a second."""

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()
        self.name = ""
        self.last = 0.0

    def __call__(self, name: str, done: int, total: int | None) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if name == self.name and now - self.last < 0.1 and done != total:
            return
        self.name, self.last = name, now
        mb = f"{done / 1e6:6.1f}"
        if total:
            frac = min(done / total, 1.0)
            bar = "#" * int(frac * 30)
            text = f"  {name:<14} [{bar:<30}] {frac:4.0%} {mb} / {total / 1e6:.1f} MB"
        else:
            text = f"  {name:<14} {mb} MB"
        sys.stderr.write("\r" + clean(text[:78]).ljust(78))
        sys.stderr.flush()

    def close(self) -> None:
        """End the bar's line."""
        if self.enabled and self.name:
            sys.stderr.write("\n")
            self.name = ""

    def note(self, line: str) -> None:
        """A step of long work, on its own line."""
        self.close()
        sys.stderr.write(clean(line) + "\n")


def _interrupt_on_sigterm() -> None:
    """Let SIGTERM stop an update like Ctrl-C does, so its staging folder is cleaned up."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)


def _describe(data: Dataset) -> str:
    return f"as of {data.as_of.isoformat()}, fingerprint {_short(data.fingerprint)}"


UpdateSourceOpt = Annotated[
    str | None,
    typer.Option(
        "--source",
        metavar="URL|PATH",
        help="A bundle written by 'deckcheck data export': the URL of its folder (or of its "
        "manifest.json) or of its .zip, or the folder or .zip itself. Default: "
        "DECKCHECK_UPDATE_URL, else the last source.",
    ),
]
FromUpstreamOpt = Annotated[
    bool,
    typer.Option(
        "--from-upstream",
        help="Fetch the card and ban-list source files and build the bundle here "
        "(--source then names their sources.json; default DECKCHECK_UPSTREAM_URL).",
    ),
]
ForceOpt = Annotated[
    bool, typer.Option("--force", help="Install even if the bundle is the data in use, or older.")
]
MaxSizeOpt = Annotated[
    int, typer.Option("--max-size", min=1, metavar="MB", help="Size cap of one downloaded file.")
]
SummaryOpt = Annotated[
    bool,
    typer.Option(
        "--summary/--no-summary", help="After installing, print what changed (data diff)."
    ),
]
RedirectsOpt = Annotated[
    bool,
    typer.Option(
        "--allow-redirects-anywhere",
        help="Follow redirects to other sites too (default: only within the source's site).",
    ),
]


@app.command("update")
def update(
    source: UpdateSourceOpt = None,
    from_upstream: FromUpstreamOpt = False,
    force: ForceOpt = False,
    timeout: TimeoutOpt = None,
    retries: RetriesOpt = 3,
    max_size: MaxSizeOpt = 64,
    summary: SummaryOpt = True,
    redirects_anywhere: RedirectsOpt = False,
) -> None:
    """Install newer card and ban-list data: fetch, verify every checksum, load, then switch.

    A failed or interrupted update changes nothing: the data in use stays active and whole.
    """
    from deckcheck.error import DeckcheckError

    opts = fetch_options(
        timeout, retries, max_bytes=max_size << 20, redirects_anywhere=redirects_anywhere
    )
    bar = _Bar()
    _interrupt_on_sigterm()
    try:
        result = _fetch_update(source, from_upstream, force, opts, bar)
    except DeckcheckError as exc:
        bar.close()
        fail(f"update failed: {exc}", ["the data in use is unchanged"])
    except KeyboardInterrupt:
        bar.close()
        sys.stderr.write("error: update interrupted\n  the data in use is unchanged\n")
        raise typer.Exit(130) from None
    bar.close()
    _say_update(result, summary)


def _fetch_update(
    source: str | None, from_upstream: bool, force: bool, opts: FetchOptions, bar: _Bar
) -> UpdateResult:
    """Run the update the options ask for: from the upstream sources, the published channel
    (no source anywhere) or the named bundle."""
    from deckcheck.data.update import default_source
    from deckcheck.data.update import update as run_update

    if from_upstream:
        from deckcheck.data.upstream import update_from_upstream

        return update_from_upstream(
            source, options=opts, progress=bar, force=force, notify=bar.note
        )
    if source is None and default_source() is None:
        from deckcheck.data.channel import update_default

        return update_default(options=opts, progress=bar, force=force, notify=bar.note)
    return run_update(source, options=opts, progress=bar, force=force)


def _say_update(result: UpdateResult, summary: bool) -> None:
    """What the update did (and, with ``--summary``, what changed)."""
    from deckcheck.data.update import UpdateStatus

    where = clean(result.source)
    if result.status is UpdateStatus.UPDATED:
        sys.stdout.write(
            f"updated: data {_describe(result.data)} (was {_describe(result.previous)})\n"
            f"  from {where}\n"
        )
        if summary:
            _print_changes(result.previous, result.data)
        from deckcheck.data.dataset import Dataset

        if Dataset.active() is not result.data and Dataset.active().folder != result.data.folder:
            _, note = Dataset.active_origin()
            why = note or f"DECKCHECK_DATA is set ({Dataset.active().folder})"
            sys.stderr.write(f"note: installed, but not in use: {clean(str(why))}\n")
    elif result.status is UpdateStatus.NOT_MODIFIED:
        sys.stdout.write(f"up to date: {where} has not changed ({_describe(result.data)})\n")
    else:
        sys.stdout.write(f"up to date: {where} holds the data in use ({_describe(result.data)})\n")


def _clean_lines(text: str) -> str:
    return "".join(clean(line) + "\n" for line in text.splitlines())


def _print_changes(old: Dataset, new: Dataset) -> None:
    """After an update: what changed, in short."""
    from deckcheck.data.diff import diff, render_text

    sys.stdout.write(_clean_lines(render_text(diff(old, new), limit=10)))


class DiffOutput(enum.StrEnum):
    """Formats of ``data diff``."""

    TEXT = "text"
    JSON = "json"
    MARKDOWN = "markdown"


IN_USE = "in-use"
NEWEST = "newest"
BUNDLED = "bundled"


class _Opener:
    """Opens the datasets ``data diff`` names; fetched ones live in temporary folders that
    :meth:`close` removes (nothing is installed)."""

    def __init__(self, source: str | None, options: FetchOptions, bar: _Bar) -> None:
        self.source = source
        self.options = options
        self.bar = bar
        self.stack = ExitStack()

    def open(self, where: str) -> Dataset:
        """``bundled``, ``in-use``, ``newest``, a bundle folder, or a ``.zip`` or URL."""
        from deckcheck.data.dataset import Dataset
        from deckcheck.data.update import is_archive, is_url, open_bundle

        if where == BUNDLED:
            return Dataset.bundled()
        if where == IN_USE:
            return Dataset.active()
        if where == NEWEST:
            from deckcheck.data.channel import bundle_url, open_newest

            url = self.source or bundle_url()
            self.bar.note(f"fetching the newest data: {url}")
            try:
                return open_newest(
                    self._folder(), source=url, options=self.options, progress=self.bar
                )
            finally:
                self.bar.close()
        if is_url(where) or is_archive(where):
            self.bar.note(f"fetching {where}")
            try:
                return open_bundle(where, self._folder(), options=self.options, progress=self.bar)
            finally:
                self.bar.close()
        return Dataset.open(where)

    def _folder(self) -> Path:
        import tempfile

        return Path(self.stack.enter_context(tempfile.TemporaryDirectory(prefix="deckcheck-")))

    def close(self) -> None:
        """Remove the fetched data."""
        self.stack.close()


_WHERE = (
    "A bundle folder or .zip (a path or URL), 'bundled' (shipped with deckcheck), 'in-use' "
    "or 'newest' (the published bundle, or --source)."
)


OldArg = Annotated[str | None, typer.Argument(metavar="[OLD]", help=f"{_WHERE} Default: in-use.")]
NewArg = Annotated[str | None, typer.Argument(metavar="[NEW]", help=f"{_WHERE} Default: newest.")]
LastOpt = Annotated[
    bool,
    typer.Option(
        "--last",
        help="What the last update changed: the data it replaced (or the bundled data) "
        "against the data in use. Nothing is fetched.",
    ),
]
NewestSourceOpt = Annotated[
    str | None,
    typer.Option(
        "--source",
        metavar="URL|PATH",
        help="Where 'newest' comes from: a bundle (folder or .zip, URL or path), e.g. a "
        "mirror of the published one. Default: DECKCHECK_BUNDLE_URL, else the project's "
        "published bundle.",
    ),
]
DiffOutputOpt = Annotated[
    DiffOutput, typer.Option("--output", "-o", help="text, json or markdown (release notes).")
]


@app.command("diff")
def diff_data(
    old: OldArg = None,
    new: NewArg = None,
    last: LastOpt = False,
    source: NewestSourceOpt = None,
    output: DiffOutputOpt = DiffOutput.TEXT,
    timeout: TimeoutOpt = None,
    retries: RetriesOpt = 3,
) -> None:
    """What changed between two datasets: lists per format, new cards, release dates.

    With no arguments: the data in use against the newest available (the published bundle),
    fetched into a temporary folder and not installed.
    """
    from deckcheck.data.diff import diff
    from deckcheck.error import DeckcheckError

    if last and (old is not None or new is not None or source is not None):
        fail(
            "--last compares the data before the last update with the data in use: "
            "give it without OLD, NEW or --source"
        )
    names = (old or IN_USE, new or NEWEST)
    if source is not None and NEWEST not in names:
        fail(f"--source names where 'newest' comes from; neither OLD nor NEW is {NEWEST!r}")
    opener = _Opener(source, fetch_options(timeout, retries), _Bar())
    try:
        if last:
            newer = opener.open(IN_USE)
            changes = diff(_before_last_update(newer), newer)
        else:
            changes = diff(opener.open(names[0]), opener.open(names[1]))
    except DeckcheckError as exc:
        fail(str(exc), ["nothing was installed: the data in use is unchanged"])
    finally:
        opener.close()
    _write_changes(changes, output)


def _write_changes(changes: DataDiff, output: DiffOutput) -> None:
    """``data diff``'s report as text, JSON or Markdown."""
    import json

    from deckcheck.data.diff import render_markdown, render_text
    from deckcheck.reporter.document import DataDiffDocument, shape

    if output is DiffOutput.JSON:
        doc = shape(DataDiffDocument, changes)
        sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    elif output is DiffOutput.MARKDOWN:
        sys.stdout.write(_clean_lines(render_markdown(changes)))
    else:
        sys.stdout.write(_clean_lines(render_text(changes, limit=0)))


def _before_last_update(current: Dataset) -> Dataset:
    """The bundle the last update replaced, when still on disk; else the bundled data."""
    from deckcheck.data.dataset import Dataset
    from deckcheck.data.store import read_pointer
    from deckcheck.error import DeckcheckError

    try:
        rec = read_pointer()
        if rec is not None and rec.previous and rec.folder == current.folder:
            return Dataset.open(rec.folder.parent / rec.previous)
    except (DeckcheckError, OSError):
        pass
    return Dataset.bundled()


@app.command("export")
def export(
    folder: Annotated[
        Path,
        typer.Argument(
            metavar="DIR|FILE.zip", help="A new or empty folder, or a new .zip file, to write."
        ),
    ],
) -> None:
    """Write the data in use as a bundle (serve it, then 'data update --source URL')."""
    from deckcheck.data.dataset import Dataset
    from deckcheck.error import DeckcheckError

    data = Dataset.active()
    try:
        out = data.export(folder)
    except DeckcheckError as exc:
        fail(str(exc))
    sys.stdout.write(f"exported data {_describe(data)} to {clean(str(out))}\n")


@app.command("reset")
def reset() -> None:
    """Go back to the data shipped with deckcheck (removes the installed bundle)."""
    from deckcheck.data.dataset import Dataset
    from deckcheck.data.store import locked
    from deckcheck.data.store import reset as run_reset
    from deckcheck.error import DeckcheckError

    try:
        with locked() as home:
            had = run_reset(home)
    except DeckcheckError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot reset the data: {exc.strerror or exc}")
    data = Dataset.reload_active()
    if had:
        sys.stdout.write(f"reset: using the bundled data ({_describe(data)})\n")
    else:
        sys.stdout.write(f"nothing installed: using the bundled data ({_describe(data)})\n")


def register(root: typer.Typer) -> None:
    """Add ``deckcheck data`` to the main app."""
    root.add_typer(app, name="data")
