"""Goldfish 3: the new questions against same-run baselines.

Exact figures (cumulative answers with expected copies, distinct pieces, games two and three
after a side plan) against the plain single-condition dynamic programme on the same deck (the
issue's target: within 10x). Simulated figures (distinct pieces, a paired comparison keeping
every game's outcome) against a plain Python ``random.sample`` loop asking the same (at least
20x). Each figure is checked against its exact answer before it is timed.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from common import Figure, best_of

from deckcheck.deck.io import read_path
from deckcheck.goldfish import Going, parse_spec, simulate, simulate_counts
from deckcheck.goldfish.compare import compare
from deckcheck.goldfish.side import simulate_side
from deckcheck.reporter.document import GoldfishDocument, hidden, shape
from deckcheck.run.siding import parse_side_plan

ROOT = Path(__file__).resolve().parent.parent
TURNS = 20
COMBO = {"a": 3, "b": 3, "c": 2, "d": 1, "e": 3}
"""Five combo pieces (quick mode: each category is one card's copies)."""


def _json(stats: object) -> object:
    """A run's JSON form as plain data (its document's shape, without fractions)."""
    return shape(GoldfishDocument, stats, hidden(False))


def _plain() -> float:
    """The baseline: one plain condition, 20 turns, both goings, by the DP, to its JSON form."""
    return best_of(lambda: _json(simulate_counts(40, {"s": 9}, ["s >= 1"], turns=TURNS)), repeat=10)


def _cumulative() -> Figure:
    """P(at least k), P(at most k) and the expected copies of a 9-card category by 20 turns."""
    stats = simulate_counts(40, {"s": 9}, ["s >= 1"], turns=TURNS, distributions=True)
    d = stats.distributions[0]
    assert d.expected(Going.FIRST, 0).fraction == 9 * 5 / 40
    assert d.at_least(Going.FIRST, 0)[1] == stats.conditions[0].by_going[Going.FIRST][0]
    t = best_of(
        lambda: _json(simulate_counts(40, {"s": 9}, ["s >= 1"], turns=TURNS, distributions=True)),
        repeat=10,
    )
    return Figure(
        f"cumulative + expected of a category, {TURNS} turns (exact, JSON)",
        t * 1e3,
        "plain single-condition DP (JSON)",
        _plain() * 1e3,
        "ms",
        target=10,
    )


def _distinct_exact() -> Figure:
    counts = {**COMBO, "brick": 4}
    when = ["distinct(a, b, c, d, e) >= 2 and brick == 0"]
    t = best_of(lambda: simulate_counts(40, counts, when, turns=TURNS), repeat=10)
    return Figure(
        f"distinct pieces (2 of 5, no brick), {TURNS} turns (exact)",
        t * 1e3,
        "plain single-condition DP",
        _plain() * 1e3,
        "ms",
        target=10,
    )


def _side_exact() -> Figure:
    deck = read_path(str(ROOT / "examples" / "tcg-legal.ydk"))
    plan = parse_side_plan((ROOT / "examples" / "side-plan.toml").read_text(encoding="utf-8"))
    spec = parse_spec(
        {
            "categories": {
                "starter": {"archetypes": ["Cyber Dragon"]},
                "brick": {"kinds": ["Trap"]},
                "out": {"names": ["Cosmic Cyclone", "Harpie's Feather Duster"]},
            },
            "conditions": {"good": "starter >= 1 and brick == 0", "out": "out >= 1"},
        }
    )
    assert simulate_side(deck, plan, spec, turns=TURNS).sided.method.value == "exact"
    t = best_of(lambda: simulate_side(deck, plan, spec, turns=TURNS), repeat=5)
    single = parse_spec(
        {
            "categories": {"starter": {"archetypes": ["Cyber Dragon"]}},
            "conditions": {"s": "starter >= 1"},
        }
    )
    base = best_of(lambda: simulate(deck, single, turns=TURNS), repeat=5)
    return Figure(
        f"games 2 and 3: game 1, sided deck, side cards, {TURNS} turns (exact)",
        t * 1e3,
        "plain single-condition run of the deck",
        base * 1e3,
        "ms",
        target=10,
    )


def _loop_distinct(hands: int) -> float:
    """The plain loop: random.sample a hand of 5, count different pieces; returns P."""
    cards = [n for n, c in COMBO.items() for _ in range(c)] + ["other"] * (40 - sum(COMBO.values()))
    rng = random.Random(1)
    hits = 0
    for _ in range(hands):
        hits += len({c for c in rng.sample(cards, 5) if c != "other"}) >= 2
    return hits / hands


def _distinct_simulated() -> Figure:
    when = ["distinct(a, b, c, d, e) >= 2"]
    exact = simulate_counts(40, COMBO, when).conditions[0].by_going[Going.FIRST][0].probability
    n_loop, n = 100_000, 1_000_000
    t0 = time.perf_counter()
    p_loop = _loop_distinct(n_loop)
    loop_rate = n_loop / (time.perf_counter() - t0)

    def mc() -> float:
        s = simulate_counts(40, COMBO, when, going="first", exact="never", trials=n, seed=3)
        return s.conditions[0].by_going[Going.FIRST][0].probability

    assert abs(mc() - exact) < 0.003 and abs(p_loop - exact) < 0.01
    t = best_of(mc, repeat=3)
    return Figure(
        "distinct pieces, simulated hands/s",
        n / t,
        "random.sample loop",
        loop_rate,
        "hands/s",
        target=20,
        higher_is_better=True,
    )


def _loop_pair(hands: int) -> float:
    """The plain loop of a paired comparison: one shuffle, both decks' hands; returns B - A."""
    rng = random.Random(1)
    diff = 0
    for _ in range(hands):
        order = rng.sample(range(40), 5)
        a = any(i < 9 for i in order) and not any(9 <= i < 15 for i in order)
        b = any(i < 11 for i in order) and not any(11 <= i < 15 for i in order)
        diff += b - a
    return diff / hands


def _paired() -> Figure:
    when = ["starter >= 1 and brick == 0"]
    n_loop, n = 100_000, 1_000_000

    def pair() -> float:
        kw = dict(going="first", exact="never", trials=n, seed=5, paired=True)
        a = simulate_counts(40, {"starter": 9, "brick": 6}, when, **kw)  # type: ignore[arg-type]
        b = simulate_counts(40, {"starter": 11, "brick": 4}, when, **kw)  # type: ignore[arg-type]
        d = compare(a, b).differences[0]
        assert d.method == "paired"
        return d.diff

    ea = simulate_counts(40, {"starter": 9, "brick": 6}, when).conditions[0]
    eb = simulate_counts(40, {"starter": 11, "brick": 4}, when).conditions[0]
    want = eb.by_going[Going.FIRST][0].probability - ea.by_going[Going.FIRST][0].probability
    t0 = time.perf_counter()
    got_loop = _loop_pair(n_loop)
    loop_rate = n_loop / (time.perf_counter() - t0)
    assert abs(pair() - want) < 0.003 and abs(got_loop - want) < 0.01
    t = best_of(pair, repeat=3)
    return Figure(
        "paired --vs (both decks, games kept), hands/s",
        n / t,
        "random.sample loop over both decks",
        loop_rate,
        "hands/s",
        target=20,
        higher_is_better=True,
    )


def run() -> list[Figure]:
    """Measure and return the figures."""
    return [_cumulative(), _distinct_exact(), _side_exact(), _distinct_simulated(), _paired()]
