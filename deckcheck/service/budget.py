"""The budgets of the goldfish routes: the trial cap, the exact engine's memory and time, and
the simulation's time (a pilot run, projected to the trials asked; over the budget: 422 saying
how many trials would fit)."""

from __future__ import annotations

import time
import tomllib
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from deckcheck.error import InputError, LimitError, SpecError
from deckcheck.rule.format import Format, Pool
from deckcheck.service.model import SimulateRequest, SweepRequest

if TYPE_CHECKING:
    from deckcheck.service.core import Service

PILOT_TRIALS = 2000
"""Trials of the pilot run that projects a simulation's time against its budget."""


def simulate(svc: Service, req: SimulateRequest) -> Any:
    """Run a goldfish request within the trial cap, the exact engine's budget (memory and
    time) and the simulation's time budget (pilot run, projected)."""
    from deckcheck.goldfish import DrawRules, ExactBudget, Method

    s = svc.settings
    if req.trials > s.max_trials:
        raise LimitError(f"trials {req.trials} is over the limit of {s.max_trials}",
                         "max_trials", s.max_trials)  # fmt: skip
    fmt = svc.rules(req)
    when = svc.date(req.date)
    fmt.require_date(when, svc.data)  # one date rule for every route (422 before lists)
    rules = DrawRules.from_era(fmt.era_at(when))
    runner = _goldfish_runner(svc, req, fmt, rules)
    budget = ExactBudget(max_bytes=s.exact_bytes, seconds=s.simulation_seconds)
    pilot = min(req.trials, PILOT_TRIALS)
    stats = runner(pilot, req.exact, budget)  # exact, or the exact engine said why not
    if stats.method is Method.EXACT or pilot == req.trials:
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
            "simulation_seconds", limit,
        )  # fmt: skip
    if all(c.method is Method.SIMULATION for c in stats.conditions):
        # the pilot already found exact odds out of reach: simulate at once, keep its note
        return replace(runner(req.trials, "never", budget), note=stats.note)
    return runner(req.trials, req.exact, budget)  # exact or simulated per condition


def sweep(svc: Service, req: SweepRequest) -> Any:
    """Run a ratio sweep within the exact engine's budget (the whole sweep gets the time
    budget) and, when it simulates, the simulation's time budget (pilot sweep, projected)."""
    from deckcheck.goldfish import DrawRules, ExactBudget, Method, sweep, sweep_counts

    s = svc.settings
    if req.trials > s.max_trials:
        raise LimitError(f"trials {req.trials} is over the limit of {s.max_trials}",
                         "max_trials", s.max_trials)  # fmt: skip
    if req.distributions or req.sample:
        raise InputError("a sweep has no distributions or sample hands (ask POST /v1/simulate)")
    fmt = svc.rules(req)
    when = svc.date(req.date)
    fmt.require_date(when, svc.data)  # one date rule for every route (422 before lists)
    rules = DrawRules.from_era(fmt.era_at(when))
    budget = ExactBudget(max_bytes=s.exact_bytes, seconds=s.simulation_seconds)
    common: dict[str, Any] = dict(filler=req.filler, by=req.by, going=req.going,
                                  turns=req.turns, rules=rules, exact=req.exact,
                                  budget=budget)  # fmt: skip
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
        return sweep(deck, spec, req.vary, trials=trials, seed=req.seed, data=svc.data,
                     **common)  # fmt: skip

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
            "simulation_seconds", s.simulation_seconds,
        )  # fmt: skip
    return run(req.trials)


def _spec(svc: Service, req: SimulateRequest) -> Any:
    """The request's spec (an object or TOML text), or None."""
    from deckcheck.goldfish import parse_spec

    if req.spec is None:
        return None
    raw: Any = req.spec
    if isinstance(raw, str):
        try:
            raw = tomllib.loads(raw)
        except tomllib.TOMLDecodeError as exc:
            raise SpecError(f"spec: invalid TOML: {exc}") from None
        except RecursionError:
            raise SpecError("spec: invalid TOML: nested too deeply") from None
    return parse_spec(raw, source="spec", data=svc.data)


def _goldfish_runner(svc: Service, req: SimulateRequest, fmt: Format, rules: Any) -> Any:
    """A function (trials, exact, budget) -> HandStats for the request's deck or quick mode."""
    from deckcheck.goldfish import simulate, simulate_counts

    if (req.deck is None) == (req.quick is None):
        raise InputError("give either deck or quick (a deck size and category counts)")
    common = dict(going=req.going, turns=req.turns, seed=req.seed, rules=rules,
                  distributions=req.distributions, sample=req.sample)  # fmt: skip
    if req.quick is not None:
        quick = req.quick
        return lambda trials, exact, budget: simulate_counts(
            quick.size, quick.counts, quick.when, trials=trials, exact=exact,
            budget=budget, **common,
        )  # fmt: skip
    assert req.deck is not None
    deck = svc.deck(req.deck, req.deck_format, "deck", rush=fmt.pool is Pool.RUSH)
    spec = _spec(svc, req)
    return lambda trials, exact, budget: simulate(
        deck, spec, trials=trials, exact=exact, budget=budget, data=svc.data, **common
    )
