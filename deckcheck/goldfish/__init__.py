"""Goldfish: exact and simulated opening-hand odds of a deck.

``simulate(deck, spec)`` answers "how often do I see X by turn N, going first or second?":
exactly (multivariate hypergeometric sums) where the maths allows, by a seeded, vectorised
Monte Carlo simulation with 95% intervals where card effects or a huge state space need it.
Specs (TOML) name categories of cards, conditions over their counts, and card effects; see
``docs/goldfish.md``.
"""

from __future__ import annotations

from deckcheck.error import ConditionError, GoldfishError, SpecError
from deckcheck.goldfish.condition import Condition, parse_condition
from deckcheck.goldfish.exact import ExactBudget
from deckcheck.goldfish.quick import simulate_counts
from deckcheck.goldfish.result import DistributionStats, Estimate, ExactMode, HandStats, Method
from deckcheck.goldfish.rule import DrawRules, Going, draw_rules_for
from deckcheck.goldfish.simulation import default_spec, simulate
from deckcheck.goldfish.spec import Category, Effect, EffectKind, Spec, load_spec, parse_spec
from deckcheck.goldfish.sweep import SweepRow, SweepStats, sweep, sweep_counts
from deckcheck.goldfish.vary import Vary

__all__ = [
    "Category",
    "Condition",
    "ConditionError",
    "DistributionStats",
    "DrawRules",
    "Effect",
    "EffectKind",
    "Estimate",
    "ExactBudget",
    "ExactMode",
    "Going",
    "GoldfishError",
    "HandStats",
    "Method",
    "Spec",
    "SpecError",
    "SweepRow",
    "SweepStats",
    "Vary",
    "default_spec",
    "draw_rules_for",
    "load_spec",
    "parse_condition",
    "parse_spec",
    "simulate",
    "simulate_counts",
    "sweep",
    "sweep_counts",
]
