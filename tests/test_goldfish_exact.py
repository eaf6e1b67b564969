"""Exact engine: known answers as fractions, and brute-force enumeration of small decks."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from math import comb

import pytest

from deckcheck.goldfish import (
    DrawRules,
    ExactBudget,
    Going,
    GoldfishError,
    Method,
    Spec,
    draw_rules_for,
    parse_spec,
    simulate,
)
from deckcheck.reporter import render

from .goldfish_support import CODES, brute_force, make_deck


def spec_of(categories: dict[str, list[int]], conditions: dict[str, str]) -> Spec:
    """A spec whose categories list passcodes."""
    return parse_spec(
        {
            "categories": {k: {"passcodes": [str(c) for c in v]} for k, v in categories.items()},
            "conditions": conditions,
        }
    )


def test_three_of_in_forty() -> None:
    deck = make_deck([3] + [1] * 37, CODES[:1] + [CODES[1 + i % 24] for i in range(37)])
    # 37 single filler entries over 24 codes merge into distinct cards; the deck is still 40
    assert len(deck.main) == 40
    spec = spec_of({"a": [CODES[0]]}, {"a": "a >= 1"})
    stats = simulate(deck, spec)
    first, second = (stats.condition("a").by_going[g][0] for g in (Going.FIRST, Going.SECOND))
    assert first.fraction == 1 - Fraction(comb(37, 5), comb(40, 5))
    assert second.fraction == 1 - Fraction(comb(37, 6), comb(40, 6))
    assert stats.method is Method.EXACT
    assert json.loads(render(stats, "json", fractions=True))["conditions"][0]["results"]["first"][
        0
    ]["fraction"] == (f"{first.fraction.numerator}/{first.fraction.denominator}")


def test_two_disjoint_three_ofs() -> None:
    deck = make_deck([3, 3] + [2] * 17)
    assert len(deck.main) == 40
    spec = spec_of({"a": [CODES[0]], "b": [CODES[1]]}, {"both": "a >= 1 and b >= 1"})
    stats = simulate(deck, spec, going="first")
    est = stats.condition("both").by_going[Going.FIRST][0]
    n = comb(40, 5)
    assert est.fraction == 1 - Fraction(2 * comb(37, 5), n) + Fraction(comb(34, 5), n)


CONDITIONS = [
    "a >= 1",
    "a >= 1 and b == 0",
    "a + b >= 2 or c",
    "not (a or c) and b <= 1",
    "1 <= a + c - b <= 2",
    "a != b",
    "(a > 0 or b > 1) and not c >= 2",
]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8))
def test_overlapping_categories_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    copies = [rng.randint(1, 3) for _ in range(rng.randint(4, 7))]
    deck = make_deck(copies)
    codes = CODES[: len(copies)]
    cats = {k: rng.sample(codes, rng.randint(1, 3)) for k in "abc"}  # overlapping at random
    conds = {f"c{i}": t for i, t in enumerate(rng.sample(CONDITIONS, 3))}
    spec = spec_of(cats, conds)
    turns = 3
    stats = simulate(deck, spec, turns=turns)
    for name, cond in spec.conditions:
        for g in (Going.FIRST, Going.SECOND):
            for t, est in enumerate(stats.condition(name).by_going[g]):
                seen = stats.seen[g][t]
                assert est.fraction == brute_force(deck, spec, cond, seen), (name, g, t)


def test_draw_rules_by_era() -> None:
    modern = DrawRules()
    assert modern.seen(Going.FIRST, 3) == [5, 6, 7]
    assert modern.seen(Going.SECOND, 3) == [6, 7, 8]
    assert DrawRules(first_player_draws=True).seen(Going.FIRST, 2) == [6, 7]
    assert DrawRules(hand_size=4).seen(Going.FIRST, 2) == [4, 5]
    rush = DrawRules(draw_up_to=5)
    assert rush.seen(Going.FIRST, 3) == [5, 10, 15]
    assert DrawRules(draw_up_to=5, plays_whole_hand=False).seen(Going.FIRST, 3) == [5, 6, 7]
    from datetime import date

    rush_era = draw_rules_for("rush")
    assert rush_era.seen(Going.FIRST, 3) == [5, 10, 15]
    assert rush_era.seen(Going.SECOND, 3) == [5, 10, 15]
    assert draw_rules_for("speed").seen(Going.FIRST, 2) == [4, 5]
    assert draw_rules_for("goat").seen(Going.FIRST, 1) == [6]

    assert draw_rules_for(None, date(2010, 1, 1)).first_player_draws
    assert not draw_rules_for(None, date(2020, 1, 1)).first_player_draws


def test_first_player_draw_changes_the_answer() -> None:
    deck = make_deck([3] + [2] * 18 + [1])
    spec = spec_of({"a": [CODES[0]]}, {"a": "a"})
    old = simulate(deck, spec, going="first", rules=DrawRules(first_player_draws=True))
    new = simulate(deck, spec, going="first")
    assert old.seen[Going.FIRST] == (6,) and new.seen[Going.FIRST] == (5,)
    assert old.conditions[0].by_going[Going.FIRST][0].probability == pytest.approx(
        1 - comb(37, 6) / comb(40, 6)
    )


def test_default_report_and_composition() -> None:
    deck = make_deck([3, 2, 1] + [2] * 17)
    stats = simulate(deck)
    assert stats.default and len(stats.conditions) == 20
    first = stats.conditions[0].by_going[Going.FIRST][0]
    assert first.fraction == 1 - Fraction(comb(37, 5), comb(40, 5))
    for kinds in stats.composition.values():
        for ests in kinds.values():
            assert sum((e.fraction or Fraction(0)) for e in ests) == 1
    data = json.loads(render(stats, "json"))
    assert data["report"] == "default" and data["method"] == "exact"
    assert set(data["composition"]["first"]) == {"Monster", "Spell", "Trap"}


def test_over_the_exact_budget_switches_to_simulation() -> None:
    deck = make_deck([3] * 13 + [1])
    spec = spec_of({"a": CODES[:2], "b": CODES[2:4]}, {"x": "a - b >= 2"})
    tiny = ExactBudget(max_bytes=1000)
    stats = simulate(deck, spec, trials=2000, seed=1, budget=tiny)
    assert stats.method is Method.SIMULATION and "MB of states" in (stats.note or "")
    with pytest.raises(GoldfishError, match="exact odds impractical"):
        simulate(deck, spec, exact="always", budget=tiny)
    with pytest.raises(GoldfishError, match="s budget"):
        simulate(deck, spec, exact="always", budget=ExactBudget(seconds=0.0))
    assert simulate(deck, spec).method is Method.EXACT


def test_bad_arguments() -> None:
    deck = make_deck([3] * 13 + [1])
    with pytest.raises(GoldfishError):
        simulate(deck, going="sideways")
    with pytest.raises(GoldfishError):
        simulate(deck, turns=0)
    with pytest.raises(GoldfishError):
        simulate(make_deck([]))
