"""Batches: many deck sources checked at once, with one summary and one exit code.

::

    import deckcheck
    batch = deckcheck.check(deckcheck.sources(["decks/", "extra.ydk"]), "tcg")
    batch.exit_code            # ExitCode.OK / ILLEGAL / ERROR
    batch.reports              # one Report per deck read (its verdict)
    batch.rows                 # Checked (report, fingerprint, registration) or Unreadable,
                               # in source order
    batch.unreadable           # (path, error, line) per source that could not be read
    deckcheck.render(batch, "json")

:func:`sources` expands paths (files, folders searched recursively for deck files, ``-`` for
stdin, ``ydke://`` URLs) and never stops on one bad path: a missing file is an unreadable source,
not an abort. :func:`check` reads and validates each source and never stops on one bad deck.

**Exit codes.** :class:`ExitCode` ``OK`` (0) when every deck read is legal, ``ILLEGAL`` (1) when
at least one is illegal, ``ERROR`` (2) when at least one source could not be read, *even if other
decks are illegal*: a run that could not check everything is not a verdict. Every output still
lists both the illegal decks and the unreadable sources.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Iterable, Sequence
from datetime import date
from functools import cached_property
from typing import TYPE_CHECKING

from msgspec import Struct, structs

from deckcheck.error import ExitCode as ExitCode  # re-exported: batches have exit codes
from deckcheck.run.job import PARALLEL_MIN as PARALLEL_MIN
from deckcheck.run.job import Outcome as Outcome
from deckcheck.run.job import Planned, Step, checked, checked_keeping_deck, run
from deckcheck.run.row import Checked as Checked
from deckcheck.source.record import STDIN as STDIN
from deckcheck.source.record import Skipped as Skipped
from deckcheck.source.record import Source as Source
from deckcheck.source.record import SourceKind as SourceKind
from deckcheck.source.record import Unreadable as Unreadable
from deckcheck.source.record import is_url as is_url
from deckcheck.source.scan import expand_sources as expand_sources
from deckcheck.source.scan import sources as sources
from deckcheck.source.sniff import SNIFF_BYTES as SNIFF_BYTES
from deckcheck.source.sniff import TOOL_FOLDERS as TOOL_FOLDERS
from deckcheck.source.sniff import VCS_FOLDERS as VCS_FOLDERS
from deckcheck.validation.report import Report

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.rule.banlist import TcgRegion
    from deckcheck.rule.format import Format


class Summary(Struct, frozen=True):
    """Totals of a batch."""

    decks: int
    """Decks read and validated."""
    legal: int
    illegal: int
    errors: int
    """Violations of severity error, over all decks."""
    warnings: int
    notes: int
    unreadable: int
    """Sources that could not be read."""
    skipped: int = 0
    """Files a folder scan did not take for decks."""
    duplicates: int = 0
    """Registrations whose player id an earlier row already registered."""


class Batch(Struct, frozen=True, dict=True):
    """The result of checking many sources: reports, unreadable sources, summary, exit code."""

    format: str
    date: date
    reports: tuple[Report, ...]
    unreadable: tuple[Unreadable, ...]
    skipped: tuple[Skipped, ...] = ()
    data_as_of: _dt.date | None = None
    """As-of date of the dataset the batch was checked against."""
    data_fingerprint: str | None = None
    """Fingerprint of that dataset."""
    rows: tuple[Checked | Unreadable, ...] = ()
    """Checked decks and unreadable sources together, in source order (one per registration);
    a batch built by hand from reports alone has none."""

    def __post_init__(self) -> None:
        self.summary  # noqa: B018  (made once, here: the report writers forked later share it)

    @cached_property
    def summary(self) -> Summary:
        """The batch's totals (duplicate registrations among them)."""
        checked = [r for r in self.rows if isinstance(r, Checked)]
        regs = [c.registration for c in checked] + [u.registration for u in self.unreadable]
        summary = summarize(self.reports, self.unreadable, self.skipped)
        dups = sum(r is not None and r.duplicate_of is not None for r in regs)
        return structs.replace(summary, duplicates=dups)

    @property
    def checked(self) -> tuple[Checked, ...]:
        """The checked decks of :attr:`rows` (report, fingerprint, registration), in order."""
        return tuple(r for r in self.rows if isinstance(r, Checked))

    @property
    def exit_code(self) -> ExitCode:
        """ERROR if any source was unreadable, else ILLEGAL if any deck is, else OK."""
        if self.unreadable:
            return ExitCode.ERROR
        if any(not r.legal for r in self.reports):
            return ExitCode.ILLEGAL
        return ExitCode.OK

    def verdict(self, *, strict: bool = False) -> ExitCode:
        """:attr:`exit_code`; with ``strict``, a deck with a warning also gives ILLEGAL."""
        code = self.exit_code
        if strict and code is ExitCode.OK and self.summary.warnings:
            return ExitCode.ILLEGAL
        return code


def summarize(
    reports: Iterable[Report],
    unreadable: Sequence[Unreadable] = (),
    skipped: Sequence[Skipped] = (),
) -> Summary:
    """Totals over reports (and the unreadable and skipped sources of a batch)."""
    decks = legal = errors = warnings = notes = duplicates = 0
    for u in unreadable:
        duplicates += u.registration is not None and u.registration.duplicate_of is not None
    for r in reports:
        decks += 1
        legal += r.legal
        for v in r.violations:
            sev = v.severity.value
            if sev == "error":
                errors += 1
            elif sev == "warning":
                warnings += 1
            else:
                notes += 1
    return Summary(
        decks,
        legal,
        decks - legal,
        errors,
        warnings,
        notes,
        len(unreadable),
        len(skipped),
        duplicates,
    )


def check(
    items: Iterable[Source | str],
    format: Format | str = "tcg",
    date: date | None = None,
    *,
    allow_prerelease: bool = False,
    data: Dataset | None = None,
    progress: Callable[[int, str], None] | None = None,
    region: TcgRegion | str | None = None,
    jobs: int | None = 1,
    plan: Sequence[Planned] | None = None,
    keep_decks: bool = False,
) -> Batch:
    """Read and validate every source; one bad source never stops the rest.

    ``items`` are :class:`Source` values or plain paths (expanded with :func:`sources`), each
    checked in ``format``; or, with ``plan`` (a repository configuration's, see
    :func:`deckcheck.run.config.plan`), every planned source in its own format with its ignored
    codes (``items`` and ``format`` then only name the batch's default format).
    ``progress`` is called with the count of sources done and the last one's label, after each
    source (after each chunk of sources when working in parallel). ``jobs`` is the number of
    worker processes (None: one per CPU); with more than one, chunks of sources are checked in a
    process pool whose workers each open the same dataset once, and the results come back in
    source order, exactly as one process would give them.

    Each deck's row (:attr:`Batch.rows`, a :class:`Checked`) carries its report, the deck's
    fingerprint (:func:`deckcheck.deck.model.fingerprint_deck`) and, for a registrations CSV, its
    registration; with ``keep_decks``, the deck itself (for builders over the same read, such
    as registration sheets).
    ``region`` (``na``/``eu``) picks whose TCG list dates apply. Raises
    :class:`~deckcheck.error.DateRangeError`, before reading anything, for a date before the
    format's first list.
    """
    from deckcheck.data.dataset import resolve_data
    from deckcheck.validation.engine import today

    ds = resolve_data(data)
    fmt = ds.format(format) if isinstance(format, str) else format
    if region is not None:
        fmt = fmt.in_region(region)
    when = date if date is not None else today()
    if plan is None:
        fmt.require_date(when, ds)
        plan = [Planned(src, fmt) for src in expand_sources(items, ds)]
    step = Step(when, allow_prerelease, checked_keeping_deck if keep_decks else checked)
    outcomes = run(plan, step, ds, jobs=jobs, progress=progress)
    return collect(fmt.id, when, outcomes, ds)


def collect(format: str, when: date, outcomes: Iterable[Outcome], ds: Dataset) -> Batch:
    """The batch of outcomes in source order (skipped sources apart)."""
    reports: list[Report] = []
    unreadable: list[Unreadable] = []
    skipped: list[Skipped] = []
    rows: list[Checked | Unreadable] = []
    for got in outcomes:
        if isinstance(got, Skipped):
            skipped.append(got)
            continue
        if isinstance(got, Checked):
            reports.append(got.report)
        else:
            unreadable.append(got)
        rows.append(got)
    return Batch(
        format,
        when,
        tuple(reports),
        tuple(unreadable),
        tuple(skipped),
        ds.as_of,
        ds.fingerprint,
        tuple(rows),
    )
