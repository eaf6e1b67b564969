"""Goldfish odds: exact engine vs scipy enumeration, Monte Carlo vs a random.sample loop.

Figures: the exact engine against ``scipy.stats.multivariate_hypergeom`` enumeration of the
same question (identical answer asserted); simulated hands per second against a plain
``random.sample`` loop; the wall time of 1,000,000 simulated hands with 5 categories.
"""

from __future__ import annotations

import itertools
import random
import time
from typing import Any

from common import Figure, best_of

from deckcheck.card import CardIndex
from deckcheck.deck.model import Deck, DeckCard, Section
from deckcheck.goldfish import Condition, Going, Spec, parse_spec, simulate
from deckcheck.goldfish.exact import ExactEngine, atoms_of

CODES = [
    70095154,
    23893227,
    56364287,
    1142880,
    5370235,
    63941210,
    10604644,
    46659709,
    14558127,
    42141493,
    37630732,
    60600126,
    86686671,
    64753988,
    63995093,
    84797028,
    35269904,
    25311006,
    64964750,
    12580477,
    14532163,
    24224830,
    24299458,
    34507039,
    10045474,
]
COPIES = [3, 3, 2, 1, 1, 1, 1, 2, 2, 2, 2, 3, 1, 1, 1, 2, 1, 1, 1, 1, 2, 1, 1, 2, 1]  # 40


def _deck() -> Deck:
    index = CardIndex.load()
    main = [
        DeckCard(code, Section.MAIN, index.get(code))
        for code, n in zip(CODES, COPIES, strict=True)
        for _ in range(n)
    ]
    return Deck(tuple(main), name="bench")


def _spec() -> Spec:
    def cat(*codes: int) -> dict[str, Any]:
        return {"passcodes": [str(c) for c in codes]}

    return parse_spec(
        {
            "categories": {
                "starter": cat(*CODES[0:4], CODES[11]),
                "extender": cat(CODES[3], *CODES[4:8]),  # overlaps starter
                "handtrap": cat(CODES[8], CODES[9], CODES[24]),
                "breaker": cat(*CODES[18:22], CODES[22]),
                "brick": {"kinds": ["Trap"]},  # overlaps handtrap
            },
            "conditions": {
                "good": "starter >= 1 and brick == 0 and (extender + handtrap >= 2 or breaker)",
            },
        }
    )


def _groups(deck: Deck, spec: Spec) -> list[tuple[int, frozenset[str]]]:
    by: dict[int, list[DeckCard]] = {}
    for dc in deck.main:
        by.setdefault(dc.passcode, []).append(dc)
    return [
        (len(cs), frozenset(c.name for c in spec.categories if c.matches(cs[0])))
        for cs in by.values()
    ]


def _scipy_enumeration(
    groups: list[tuple[int, frozenset[str]]], cond: Condition, seen: int
) -> float:
    """The obvious script: every count vector over the atoms, scipy's pmf for the matching ones."""
    from scipy.stats import multivariate_hypergeom

    sizes, members, other = atoms_of(groups, cond.names)
    m = [*sizes, other]
    total = 0.0
    for x in itertools.product(*(range(min(n, seen) + 1) for n in sizes)):
        rest = seen - sum(x)
        if not 0 <= rest <= other:
            continue
        counts = {
            name: sum(v for v, mem in zip(x, members, strict=True) if name in mem)
            for name in cond.names
        }
        if cond.evaluate(counts):
            total += float(multivariate_hypergeom.pmf(x=[*x, rest], m=m, n=seen))
    return total


def _sample_loop(deck: Deck, spec: Spec, cond: Condition, hands: int, seen: int) -> float:
    """The plain loop: random.sample a hand, count categories, evaluate; returns P."""
    members = [tuple(c.name for c in spec.categories if c.matches(card)) for card in deck.main]
    rng = random.Random(1)
    names = [c.name for c in spec.categories]
    hits = 0
    for _ in range(hands):
        counts = dict.fromkeys(names, 0)
        for m in rng.sample(members, seen):
            for name in m:
                counts[name] += 1
        hits += bool(cond.evaluate(counts))
    return hits / hands


def run() -> list[Figure]:
    """Measure and return the figures."""
    deck, spec = _deck(), _spec()
    cond = spec.conditions[0][1]
    groups = _groups(deck, spec)
    seen = 8  # going second, by turn 3

    exact = float(ExactEngine(groups).probability(cond, seen))
    ref = _scipy_enumeration(groups, cond, seen)
    assert abs(exact - ref) < 1e-12, (exact, ref)
    t_exact = best_of(lambda: ExactEngine(groups).probability(cond, seen), repeat=20)
    t_scipy = best_of(lambda: _scipy_enumeration(groups, cond, seen), repeat=3)

    n_base = 100_000
    t0 = time.perf_counter()
    p_loop = _sample_loop(deck, spec, cond, n_base, 5)
    loop_rate = n_base / (time.perf_counter() - t0)

    n_mc = 1_000_000

    def mc() -> float:
        stats = simulate(deck, spec, going="first", trials=n_mc, seed=7, exact="never")
        return stats.conditions[0].by_going[Going.FIRST][0].probability

    p_mc = mc()
    t_mc = best_of(mc, repeat=3)
    p5 = float(ExactEngine(groups).probability(cond, 5))
    assert abs(p_mc - p5) < 0.005 and abs(p_loop - p5) < 0.02, (p_mc, p_loop, p5)
    return [
        Figure(
            "exact engine, 5 overlapping categories, 8 cards",
            t_exact * 1e3,
            "scipy multivariate_hypergeom enumeration",
            t_scipy * 1e3,
            "ms",
            target=1 / 20,
        ),
        Figure(
            "Monte Carlo hands/s (5 categories)",
            n_mc / t_mc,
            "random.sample loop",
            loop_rate,
            "hands/s",
            target=20,
            higher_is_better=True,
        ),
        Figure(
            "1,000,000 simulated hands, 5 categories, no effects",
            t_mc,
            "random.sample loop (extrapolated)",
            n_mc / loop_rate,
            "s",
            limit=0.5,
        ),
    ]
