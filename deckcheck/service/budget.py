"""The budgets of the goldfish routes: the trial cap, the exact engine's memory and time, and
the simulation's time (a pilot run, projected to the trials asked; over the budget: 422 saying
how many trials would fit)."""

from __future__ import annotations

import time
import tomllib
from typing import TYPE_CHECKING, Any

from msgspec.structs import replace

from deckcheck.boundary import parse_toml
from deckcheck.error import InputError, LimitError, SpecError
from deckcheck.rule.format import Format, Pool
from deckcheck.service.model import SideRequest, SimulateRequest, SweepRequest

if TYPE_CHECKING:
    from deckcheck.service.core import Service

PILOT_TRIALS = 2000
"""Trials of the pilot run that projects a simulation's time against its budget."""


def simulate(svc: Service, req: SimulateRequest) -> Any:
    """Run a goldfish request within the trial cap, the exact engine's budget (memory and
    time) and the simulation's time budget (pilot run, projected)."""
    from deckcheck.goldfish import DrawRules

    _check_trials(svc, req)
    fmt = svc.rules(req)
    when = svc.date(req.date)
    fmt.require_date(when, svc.data)  # one date rule for every route (422 before lists)
    rules = DrawRules.from_era(fmt.era_at(when))
    return _within_budget(svc, req, _goldfish_runner(svc, req, fmt, rules))


def side(svc: Service, req: SideRequest) -> Any:
    """Run games two and three (a side plan applied, beside game one, and the side cards'
    odds) within the same budgets as :func:`simulate`: the pilot run times all three runs."""
    from deckcheck.goldfish import DrawRules
    from deckcheck.goldfish.side import simulate_side

    _check_trials(svc, req)
    fmt = svc.rules(req)
    when = svc.date(req.date)
    fmt.require_date(when, svc.data)
    rules = DrawRules.from_era(fmt.era_at(when))
    deck = svc.deck(req.deck, req.deck_format, "deck", rush=fmt.pool is Pool.RUSH)
    spec = _spec(svc, req)
    plan = _plan(svc, req.plan)
    common = dict(
        going=req.going,
        turns=req.turns,
        seed=req.seed,
        rules=rules,
        distributions=req.distributions,
        sample=req.sample,
    )
    return _within_budget(
        svc,
        req,
        lambda trials, exact, budget: simulate_side(
            deck,
            plan,
            spec,
            format=fmt,
            date=when,
            data=svc.data,
            trials=trials,
            exact=exact,
            budget=budget,
            **common,
        ),
    )


def _check_trials(svc: Service, req: Any) -> None:
    """:class:`LimitError` over the service's trial cap."""
    s = svc.settings
    if req.trials > s.max_trials:
        raise LimitError(
            f"trials {req.trials} is over the limit of {s.max_trials}", "max_trials", s.max_trials
        )


def _runs(stats: Any) -> list[Any]:
    """The goldfish runs (HandStats) of an answer: itself, or a side answer's three."""
    from deckcheck.goldfish.side import SideStats

    if isinstance(stats, SideStats):
        return [stats.game1, stats.sided] + [s for s in (stats.side_cards,) if s is not None]
    return [stats]


def _within_budget(svc: Service, req: Any, runner: Any) -> Any:
    """``runner(trials, exact, budget)`` exact within the exact engine's budget, else
    simulated within the time budget (a pilot run, projected to the trials asked)."""
    from deckcheck.goldfish import ExactBudget, HandStats, Method

    s = svc.settings
    budget = ExactBudget(max_bytes=s.exact_bytes, seconds=s.simulation_seconds)
    pilot = min(req.trials, PILOT_TRIALS)
    stats = runner(pilot, req.exact, budget)  # exact, or the exact engine said why not
    if all(r.method is Method.EXACT for r in _runs(stats)) or pilot == req.trials:
        return stats
    start = time.monotonic()  # time a simulation alone (not the exact engine's attempt)
    runner(pilot, "never", budget)
    projected = (time.monotonic() - start) * req.trials / pilot
    limit = s.simulation_seconds
    if projected > limit:
        fits = max(1, int(req.trials * limit / projected))
        raise LimitError(
            f"{req.trials} trials would take about {projected:.1f} s, over the "
            f"{limit:g} s budget of a simulation; ask for at most about {fits} trials",
            "simulation_seconds",
            limit,
        )
    if all(c.method is Method.SIMULATION for r in _runs(stats) for c in r.conditions):
        # the pilot already found exact odds out of reach: simulate at once, keep its note
        again = runner(req.trials, "never", budget)
        return replace(again, note=stats.note) if isinstance(again, HandStats) else again
    return runner(req.trials, req.exact, budget)  # exact or simulated per condition


def sweep(svc: Service, req: SweepRequest) -> Any:
    """Run a ratio sweep within the exact engine's budget (the whole sweep gets the time
    budget) and, when it simulates, the simulation's time budget (pilot sweep, projected)."""
    from deckcheck.goldfish import DrawRules, ExactBudget, Method, sweep, sweep_counts

    s = svc.settings
    _check_trials(svc, req)
    if req.distributions or req.sample:
        raise InputError("a sweep has no distributions or sample hands (ask POST /v1/simulate)")
    fmt = svc.rules(req)
    when = svc.date(req.date)
    fmt.require_date(when, svc.data)  # one date rule for every route (422 before lists)
    rules = DrawRules.from_era(fmt.era_at(when))
    budget = ExactBudget(max_bytes=s.exact_bytes, seconds=s.simulation_seconds)
    common: dict[str, Any] = dict(
        filler=req.filler,
        by=req.by,
        going=req.going,
        turns=req.turns,
        rules=rules,
        exact=req.exact,
        budget=budget,
    )
    if (req.deck is None) == (req.quick is None):
        raise InputError("give either deck or quick (a deck size and category counts)")
    if req.quick is not None:
        q = req.quick
        if req.vary is None:
            raise InputError("a quick-mode sweep needs vary")
        return sweep_counts(q.size, q.counts, req.vary, q.when, **common)
    assert req.deck is not None
    deck = svc.deck(req.deck, req.deck_format, "deck", rush=fmt.pool is Pool.RUSH)
    spec = _spec(svc, req)

    def run(trials: int) -> Any:
        return sweep(deck, spec, req.vary, trials=trials, seed=req.seed, data=svc.data, **common)

    start = time.monotonic()
    pilot = min(req.trials, PILOT_TRIALS // 4)
    stats = run(pilot)
    if stats.method is Method.EXACT or pilot == req.trials:
        return stats
    projected = (time.monotonic() - start) * req.trials / pilot
    if projected > s.simulation_seconds:
        fits = max(1, int(req.trials * s.simulation_seconds / projected))
        raise LimitError(
            f"{req.trials} trials per combination would take about {projected:.1f} s, over "
            f"the {s.simulation_seconds:g} s budget; ask for at most about {fits} trials",
            "simulation_seconds",
            s.simulation_seconds,
        )
    return run(req.trials)


def _plan(svc: Service, raw: str | dict[str, Any]) -> Any:
    """The request's side plan (a plan file's text, or an object); :class:`SidePlanError`
    naming ``plan`` when it cannot be read."""
    from deckcheck.error import DeckcheckError, SidePlanError
    from deckcheck.run.siding import parse_side_plan, plan_from_document

    try:
        if isinstance(raw, dict):
            return plan_from_document(raw, svc.data)
        if not raw.strip():
            raise InputError("the plan is empty: give 'in' and 'out' card lists")
        return parse_side_plan(raw, svc.data)
    except SidePlanError:
        raise
    except DeckcheckError as exc:
        inner = exc.__cause__  # "line 3: ..." of an unknown card: its suggestions
        cause = inner if isinstance(inner, DeckcheckError) else exc
        raise SidePlanError(f"plan: {exc}", cause=cause) from None


def _spec(svc: Service, req: Any) -> Any:
    """The request's spec (an object or TOML text), or None."""
    from deckcheck.goldfish import parse_spec

    if req.spec is None:
        return None
    raw: Any = req.spec
    if isinstance(raw, str):
        try:
            raw = parse_toml(raw)
        except tomllib.TOMLDecodeError as exc:
            raise SpecError(f"spec: invalid TOML: {exc}") from None
    return parse_spec(raw, source="spec", data=svc.data)


def _goldfish_runner(svc: Service, req: SimulateRequest, fmt: Format, rules: Any) -> Any:
    """A function (trials, exact, budget) -> HandStats for the request's deck or quick mode."""
    from deckcheck.goldfish import simulate, simulate_counts

    if (req.deck is None) == (req.quick is None):
        raise InputError("give either deck or quick (a deck size and category counts)")
    common = dict(
        going=req.going,
        turns=req.turns,
        seed=req.seed,
        rules=rules,
        distributions=req.distributions,
        sample=req.sample,
    )
    if req.quick is not None:
        quick = req.quick
        return lambda trials, exact, budget: simulate_counts(
            quick.size,
            quick.counts,
            quick.when,
            trials=trials,
            exact=exact,
            budget=budget,
            **common,
        )
    assert req.deck is not None
    deck = svc.deck(req.deck, req.deck_format, "deck", rush=fmt.pool is Pool.RUSH)
    spec = _spec(svc, req)
    return lambda trials, exact, budget: simulate(
        deck, spec, trials=trials, exact=exact, budget=budget, data=svc.data, **common
    )
