"""The one read-and-validate step, and the one loop that runs it over many sources.

Every face of deckcheck (``validate``, ``batch``, ``upcoming``, a repository configuration, the
service's ``POST /v1/batch``) is this road::

    sources ──plan──▶ Planned (source, format, ignored codes) ──step──▶ outcome, in source order

:func:`run` reads each planned source once (:func:`deckcheck.source.read.read_source`), hands the
deck to a *builder* (:func:`checked`: a :class:`Checked` verdict; the forecast's builder: a deck
on the date and under the next list) and turns every failure into an
:class:`~deckcheck.source.record.Unreadable`: one bad source never stops the rest. With
``jobs`` over 1 it runs chunks of sources in a process pool whose workers each open the same
dataset once; the outcomes come back in source order, exactly as one process would give them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any, TypeAlias

from msgspec import Struct, structs

from deckcheck.deck.model import canonical_counts, fingerprint_counts
from deckcheck.error import DeckcheckError, DeckReadError
from deckcheck.rule.format import Pool
from deckcheck.run.row import Checked, deck_contents
from deckcheck.source.read import read_source
from deckcheck.source.record import Skipped, Source, Unreadable, UnreadableReason, read_code
from deckcheck.validation.engine import validate
from deckcheck.validation.report import Report

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.deck.model import Deck
    from deckcheck.rule.format import Format

PARALLEL_MIN = 64
"""Fewest sources worth starting worker processes for (fewer are checked in-process)."""


class Planned(Struct, frozen=True):
    """A source to check, with the format it is checked in and the codes ignored for it."""

    source: Source
    format: Format
    ignored: frozenset[str] = frozenset()


Builder: TypeAlias = Callable[["Deck", "Planned", "Step", "Dataset"], Any]
"""Turns a deck read from a planned source into the step's result (a module-level function,
so a worker process can be sent it)."""


class Step(Struct, frozen=True):
    """What every source of a run is checked against (sent once to each worker)."""

    date: date
    allow_prerelease: bool
    build: Builder


def apply_ignores(report: Report, codes: frozenset[str] | Sequence[str]) -> Report:
    """``report`` without the violations whose code is in ``codes`` (its verdict follows)."""
    drop = frozenset(codes)
    if not drop:
        return report
    return structs.replace(
        report, violations=tuple(v for v in report.violations if v.code.value not in drop)
    )


def checked(deck: Deck, one: Planned, step: Step, ds: Dataset) -> Checked:
    """The batch builder: the deck's report (ignored codes removed) in a :class:`Checked` row,
    with the deck's fingerprint and registration."""
    src = one.source
    report = validate(
        deck, one.format, step.date, allow_prerelease=step.allow_prerelease, path=src.label, data=ds
    )
    report = apply_ignores(report, one.ignored)
    counts = canonical_counts(deck)
    return Checked(
        report,
        fingerprint_counts(counts),
        src.registration,
        frozenset(one.ignored),
        deck_contents(deck, counts),
        deck.unread,
    )


def checked_keeping_deck(deck: Deck, one: Planned, step: Step, ds: Dataset) -> Checked:
    """The batch builder that also keeps the deck in its row (:attr:`Checked.deck`)."""
    return structs.replace(checked(deck, one, step, ds), deck=deck)


def one_source(one: Planned, step: Step, ds: Dataset) -> Any:
    """Read and build one planned source; every failure becomes an :class:`Unreadable`, a
    skipped source a :class:`Skipped`."""
    src = one.source
    known = src.outcome()
    if known is not None:
        return known
    reg = src.registration
    try:
        deck = read_source(src, rush=one.format.pool is Pool.RUSH, data=ds)
    except DeckReadError as exc:
        return Unreadable(src.label, str(exc), exc.line, reg, read_code(exc))
    except DeckcheckError as exc:
        return Unreadable(src.label, f"{src.label}: {exc}", None, reg, _code(exc))
    except Exception as exc:  # a bug must not stop the other decks
        return Unreadable(
            src.label,
            f"{src.label}: unexpected {type(exc).__name__}: {exc}",
            None,
            reg,
            UnreadableReason.INTERNAL_ERROR,
        )
    try:
        return step.build(deck, one, step, ds)
    except DeckcheckError as exc:  # a rule of the library said no (not a bug)
        return Unreadable(
            src.label,
            f"{src.label}: could not be checked: {exc}",
            None,
            reg,
            UnreadableReason.CHECK_FAILED,
        )
    except Exception as exc:  # a bug must not stop the other decks either
        return Unreadable(
            src.label,
            f"{src.label}: could not be checked: unexpected "
            f"{type(exc).__name__}: {exc} (please report it)",
            None,
            reg,
            UnreadableReason.INTERNAL_ERROR,
        )


def _code(exc: DeckcheckError) -> UnreadableReason:
    """The code of an error met reading a source that is not a deck read error (an archive
    or registrations CSV refused, a limit)."""
    from deckcheck.source.archive import ArchiveError
    from deckcheck.source.registration import RegistrationError

    if isinstance(exc, ArchiveError):
        return UnreadableReason.BAD_ARCHIVE
    if isinstance(exc, RegistrationError):
        return UnreadableReason.BAD_REGISTRATIONS
    return UnreadableReason.CHECK_FAILED


def run(
    planned: Sequence[Planned],
    step: Step,
    ds: Dataset,
    *,
    jobs: int | None = 1,
    progress: Callable[[int, str], None] | None = None,
) -> list[Any]:
    """Every planned source through :func:`one_source`, in source order.

    ``progress`` is called with the count of sources done and the last one's label, after each
    source (after each chunk of sources when working in parallel). ``jobs`` is the number of
    worker processes (None or 0: one per CPU).
    """
    workers = _jobs(jobs)
    if workers > 1 and len(planned) >= PARALLEL_MIN:
        return _parallel(list(planned), step, ds, workers, progress)
    out = []
    for done, one in enumerate(planned, 1):
        out.append(one_source(one, step, ds))
        if progress is not None:
            progress(done, one.source.label)
    return out


def _jobs(jobs: int | None) -> int:
    import os

    if jobs is None or jobs <= 0:
        return os.cpu_count() or 1
    return min(jobs, 4 * (os.cpu_count() or 1))  # a huge count must not fork a process each


Outcome: TypeAlias = "Checked | Unreadable | Skipped"
"""What the batch builder's step gives for one source."""


# -- the process pool ---------------------------------------------------------------------------

_PARENT: Dataset | None = None
"""The dataset of the run being started (a forked worker inherits it, already loaded)."""
_WORKER: tuple[Step, Dataset, list[Planned]] | None = None


def _init_worker(folder: str, fingerprint: str, step: Step, planned: list[Planned]) -> None:
    """Worker initializer: open the run's dataset once (or keep the forked parent's), and keep
    the run's plan, so that chunks are sent as index ranges.

    A forked worker inherits the plan (nothing is pickled), and its formats are the very
    objects the parent's warmed ruleset cache holds, so a deck's cache look-up is an identity
    test; a pickled format is an equal copy, and comparing one costs about 30 us a deck."""
    global _WORKER
    from deckcheck.data.dataset import Dataset
    from deckcheck.error import DataError

    ds = _PARENT
    if ds is None or str(ds.folder) != folder or ds.fingerprint != fingerprint:
        ds = Dataset.open(folder)
        if ds.fingerprint != fingerprint:
            raise DataError(f"{folder}: the data changed while the batch was starting")
    _WORKER = (step, ds, planned)


def _check_chunk(start: int, stop: int) -> list[Any]:
    assert _WORKER is not None, "worker not initialised"
    step, ds, planned = _WORKER
    return [one_source(one, step, ds) for one in planned[start:stop]]


def _warm(planned: list[Planned], step: Step, ds: Dataset) -> None:
    """Load what every worker needs before forking, so forked workers inherit it."""
    from deckcheck.validation.ruleset import ruleset

    for fmt in {id(p.format): p.format for p in planned}.values():
        ruleset(fmt, step.date, step.allow_prerelease, ds)


def _parallel(
    planned: list[Planned],
    step: Step,
    ds: Dataset,
    workers: int,
    progress: Callable[[int, str], None] | None,
) -> list[Any]:
    """Chunks of sources checked in a process pool; outcomes in source order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    global _PARENT
    size = max(16, min(500, -(-len(planned) // (workers * 32))))
    chunks = [planned[i : i + size] for i in range(0, len(planned), size)]
    _warm(planned, step, ds)
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    results: list[list[Any] | None] = [None] * len(chunks)
    counter = _Counter(progress)
    _PARENT = ds
    try:
        with ProcessPoolExecutor(
            max_workers=min(workers, len(chunks)),
            mp_context=ctx,
            initializer=_init_worker,
            initargs=(str(ds.folder), ds.fingerprint, step, planned),
        ) as pool:
            _collect(pool, size, chunks, results, counter)
    except BrokenProcessPool:
        pass  # a worker died (out of memory, killed): finish the rest in this process
    finally:
        _PARENT = None
    out: list[Any] = []
    for i, got in enumerate(results):
        if got is None:
            got = [one_source(one, step, ds) for one in chunks[i]]
            counter.add(chunks[i])
        out.extend(got)
    return out


class _Counter:
    """Progress over chunks."""

    def __init__(self, progress: Callable[[int, str], None] | None) -> None:
        self.progress = progress
        self.done = 0

    def add(self, chunk: list[Planned]) -> None:
        """Count a chunk done."""
        self.done += len(chunk)
        if self.progress is not None:
            self.progress(self.done, chunk[-1].source.label)


def _collect(
    pool: Any,
    size: int,
    chunks: list[list[Planned]],
    results: list[list[Any] | None],
    counter: _Counter,
) -> None:
    """Submit every chunk (as the index range of ``size`` sources it is) and gather the
    results as they finish."""
    from concurrent.futures import FIRST_COMPLETED, Future, wait

    pending: dict[Future[list[Any]], int] = {
        pool.submit(_check_chunk, i * size, i * size + len(chunk)): i
        for i, chunk in enumerate(chunks)
    }
    try:
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                i = pending.pop(fut)
                results[i] = fut.result()
                counter.add(chunks[i])
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
