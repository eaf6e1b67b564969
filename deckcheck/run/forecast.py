"""Forecasts: what the next announced list does to each deck, before it takes effect.

::

    import deckcheck
    from deckcheck.run.forecast import forecast
    fc = forecast(["decks/"], date=date(2025, 3, 1))
    for d in fc.decks:
        d.outlook, d.next_list, d.new_errors, d.changes
    fc.exit_code                          # 1 if a deck becomes illegal (or gets new errors)

For each deck, :func:`forecast` finds the format's next list effective after the date (the
soonest known to the data), and validates the deck twice: on the date and on that list's
effective date. Errors found then but not now are :attr:`DeckForecast.new_errors`; each card of
the deck whose status (or Genesys points) differs between the two lists is a
:class:`CardChange`. The :class:`Outlook` of a deck is ``becomes-illegal`` (legal now, illegal
then), ``new-errors`` (already illegal, with new problems), ``changes`` (a card's status changes,
the deck stays as legal as it was), ``unaffected``, or ``no-list`` (no list is announced after
the date for its format). Errors are compared by code, section and card, never by message.

Exit code: ERROR (2) if a source could not be read, else ILLEGAL (1) if a deck becomes illegal
or gets new errors (with ``strict``: also if any card changes), else OK (0).
"""

from __future__ import annotations

import datetime as _dt
import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from deckcheck.error import ExitCode
from deckcheck.source.record import Skipped, Source, Unreadable
from deckcheck.validation.report import Report, Severity, Violation

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.deck.model import Deck
    from deckcheck.rule.banlist import Banlist
    from deckcheck.rule.format import Format
    from deckcheck.run.config import Config
    from deckcheck.run.job import Planned, Step


class Outlook(enum.StrEnum):
    """What the next list does to a deck."""

    BECOMES_ILLEGAL = "becomes-illegal"
    """Legal on the date, illegal from the next list's effective date."""
    NEW_ERRORS = "new-errors"
    """Already illegal, and the next list adds errors."""
    CHANGES = "changes"
    """A card of the deck changes status; the verdict does not get worse."""
    UNAFFECTED = "unaffected"
    """No card of the deck changes status."""
    NO_LIST = "no-list"
    """No list is known to take effect after the date for the deck's format."""


@dataclass(frozen=True, slots=True)
class CardChange:
    """A card of the deck whose value on the next list differs from the list in force."""

    name: str
    passcode: int
    copies: int
    """Copies of the card (name) in the deck, over Main + Extra + Side."""
    before: int | None
    """Copies allowed (or points) now; None: not listed (Unlimited; 0 points)."""
    after: int | None
    """Copies allowed (or points) on the next list."""
    points: bool = False
    """True when the values are Genesys points."""
    line: int | None = None
    """Line of the card's first copy in the deck file, where known."""

    def describe(self) -> str:
        """``Maxx "C": Limited -> Forbidden (the deck has 1)``."""
        from deckcheck.rule.banlist import status_word

        if self.points:
            a, b = self.before or 0, self.after or 0
            return f"{self.name}: {a} -> {b} points (the deck has {self.copies})"
        return (
            f"{self.name}: {status_word(self.before)} -> {status_word(self.after)} "
            f"(the deck has {self.copies})"
        )


@dataclass(frozen=True, slots=True)
class DeckForecast:
    """One deck on the date and under the next list."""

    path: str
    format: str
    now: Report
    """The deck checked on the date."""
    then: Report | None
    """The deck checked on the next list's effective date (None: no next list)."""
    next_list: Banlist | None
    changes: tuple[CardChange, ...] = ()
    new_errors: tuple[Violation, ...] = ()
    effective: date | None = None
    """The next list's first day in force where the deck is checked (its format's TCG region:
    North America and Europe differ for some lists); None: no next list."""

    @property
    def takes_effect(self) -> date | None:
        """When the next list takes effect for this deck (None: no next list)."""
        if self.next_list is None:
            return None
        return self.effective if self.effective is not None else self.next_list.effective

    @property
    def outlook(self) -> Outlook:
        """What the next list does to the deck."""
        if self.then is None or self.next_list is None:
            return Outlook.NO_LIST
        if self.new_errors:
            return Outlook.BECOMES_ILLEGAL if self.now.legal else Outlook.NEW_ERRORS
        return Outlook.CHANGES if self.changes else Outlook.UNAFFECTED


FAILING = frozenset({Outlook.BECOMES_ILLEGAL, Outlook.NEW_ERRORS})
"""Outlooks that fail a forecast (exit 1)."""


@dataclass(frozen=True)
class Forecast:
    """Every deck's forecast, with the sources that could not be read."""

    date: _dt.date
    decks: tuple[DeckForecast, ...]
    unreadable: tuple[Unreadable, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    data_as_of: _dt.date | None = None

    def count(self, outlook: Outlook) -> int:
        """How many decks have this outlook."""
        return sum(1 for d in self.decks if d.outlook is outlook)

    def verdict(self, *, strict: bool = False) -> ExitCode:
        """ERROR if a source was unreadable, else ILLEGAL if a deck becomes illegal or gets new
        errors (``strict``: or has any change), else OK."""
        if self.unreadable:
            return ExitCode.ERROR
        failing = FAILING | {Outlook.CHANGES} if strict else FAILING
        if any(d.outlook in failing for d in self.decks):
            return ExitCode.ILLEGAL
        return ExitCode.OK

    @property
    def exit_code(self) -> ExitCode:
        """:meth:`verdict` without strict."""
        return self.verdict()


def _key(v: Violation) -> tuple[Any, ...]:
    return (v.code.value, v.section, v.passcode, v.name)


def card_changes(deck: Deck, before: Banlist | None, after: Banlist) -> tuple[CardChange, ...]:
    """The cards of ``deck`` whose value differs between two lists, in deck order."""
    from deckcheck.validation.fact import list_status

    copies: dict[str, int] = {}
    first: dict[str, Any] = {}
    for dc in (*deck.main, *deck.extra, *deck.side):
        if dc.card is None:
            continue
        name = dc.card.limit_name
        copies[name] = copies.get(name, 0) + 1
        first.setdefault(name, dc)
    out = []
    for name, dc in first.items():
        card = dc.card
        now = list_status(before, card)[0]
        then = list_status(after, card)[0]
        if after.whitelist:
            continue  # a whitelist's change is a pool change, reported as a new error
        if now != then:
            out.append(
                CardChange(name, card.canonical, copies[name], now, then, after.points, dc.line)
            )
    return tuple(out)


def forecast_deck(
    deck: Deck,
    fmt: Format,
    when: date,
    *,
    path: str,
    allow_prerelease: bool = False,
    data: Dataset | None = None,
) -> DeckForecast:
    """The forecast of one deck read already: checked on ``when`` and under the next list (on
    its first day in the format's TCG region)."""
    from deckcheck.data.dataset import resolve_data
    from deckcheck.validation.engine import validate

    ds = resolve_data(data)
    now = validate(deck, fmt, when, allow_prerelease=allow_prerelease, path=path, data=ds)
    upcoming = fmt.upcoming(when, ds)
    if not upcoming:
        return DeckForecast(path, fmt.id, now, None, None)
    nxt = upcoming[0]
    starts = nxt.effective_in(fmt.tcg_region)
    then = validate(deck, fmt, starts, allow_prerelease=allow_prerelease, path=path, data=ds)
    known = {_key(v) for v in now.violations if v.severity is Severity.ERROR}
    new = tuple(v for v in then.errors if _key(v) not in known)
    changes = card_changes(deck, fmt.banlist_at(when, ds), nxt)
    return DeckForecast(path, fmt.id, now, then, nxt, changes, new, starts)


def forecast(
    items: Iterable[Source | str],
    config: Config | None = None,
    *,
    format: Format | str | None = None,
    date: date | None = None,
    allow_prerelease: bool | None = None,
    data: Dataset | None = None,
    progress: Callable[[int, str], None] | None = None,
    region: str | None = None,
) -> Forecast:
    """Forecast every source under the next announced list of its format.

    As :func:`deckcheck.run.config.check_with_config`: ``format`` (the command line's) applies to
    every deck; without it each deck gets its folder's format, else the configured default
    (else ``tcg``); ``region`` (``na``/``eu``), else the configured one, picks whose TCG list
    dates apply. The configuration's include/exclude globs and ignored codes apply too. Each
    source is read by the same step as :func:`deckcheck.run.batch.check` (files, zip entries,
    registration rows, inline lists); one bad source never stops the rest.
    """
    from deckcheck.data.dataset import resolve_data
    from deckcheck.run.config import empty_config, plan
    from deckcheck.run.job import Step, run
    from deckcheck.validation.engine import today

    ds = resolve_data(data)
    cfg = config if config is not None else empty_config()
    when = date or cfg.event_date() or today()
    prerelease = cfg.settings.allow_prerelease if allow_prerelease is None else allow_prerelease
    fixed = ds.format(format) if isinstance(format, str) else format
    _, planned = plan(items, cfg, format=fixed, data=ds, region=region)
    for fmt in {id(p.format): p.format for p in planned}.values():
        fmt.require_date(when, ds)  # DateRangeError before reading anything, as check does
    # in this process: a forecast holds the lists themselves, which do not cross processes
    outcomes = run(planned, Step(when, prerelease, forecasted), ds, jobs=1, progress=progress)
    decks = tuple(o for o in outcomes if isinstance(o, DeckForecast))
    unreadable = tuple(o for o in outcomes if isinstance(o, Unreadable))
    skipped = tuple(o for o in outcomes if isinstance(o, Skipped))
    return Forecast(when, decks, unreadable, skipped, ds.as_of)


def forecasted(deck: Deck, one: Planned, step: Step, ds: Dataset) -> DeckForecast:
    """The forecast builder of :func:`deckcheck.run.job.run`: one deck's forecast, its
    folder's ignored codes removed."""
    got = forecast_deck(
        deck,
        one.format,
        step.date,
        path=one.source.label,
        allow_prerelease=step.allow_prerelease,
        data=ds,
    )
    return _ignore(got, one.ignored) if one.ignored else got


def _ignore(d: DeckForecast, codes: frozenset[str]) -> DeckForecast:
    from deckcheck.run.job import apply_ignores

    now = apply_ignores(d.now, codes)
    then = apply_ignores(d.then, codes) if d.then is not None else None
    new = tuple(v for v in d.new_errors if v.code.value not in codes)
    return DeckForecast(d.path, d.format, now, then, d.next_list, d.changes, new, d.effective)
