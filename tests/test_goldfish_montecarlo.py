"""Monte Carlo engine: agrees with the exact engine within its stated error; effects."""

from __future__ import annotations

import itertools
import json
import math
import random
from fractions import Fraction

import pytest

from deckcheck.goldfish import Going, Method, Spec, parse_spec, simulate
from deckcheck.reporter import render

from .goldfish_support import (
    ASH,
    CODES,
    POT_OF_DESIRES,
    POT_OF_GREED,
    POT_OF_PROSPERITY,
    UPSTART_GOBLIN,
    make_deck,
)

TEMPLATES = [
    "a >= 1",
    "a >= 1 and b == 0",
    "a + b >= 2 or c",
    "not (a or c) and b <= 1",
    "1 <= a + c - b <= 2",
    "a >= 2 or b + c >= 3",
]


@pytest.mark.slow
def test_simulation_agrees_with_exact_on_random_decks() -> None:
    """Every simulated figure lies within 4.5 standard errors of the exact one, and the 95%
    Wilson intervals cover the exact value for about 95% of the figures."""
    rng = random.Random(2024)
    covered = total = 0
    for case in range(30):
        copies = [rng.randint(1, 3) for _ in range(rng.randint(8, 20))]
        deck = make_deck(copies)
        codes = CODES[: len(copies)]
        cats = {
            k: {"passcodes": [str(c) for c in rng.sample(codes, rng.randint(1, 5))]} for k in "abc"
        }
        conds = {f"c{i}": t for i, t in enumerate(rng.sample(TEMPLATES, 2))}
        spec = parse_spec({"categories": cats, "conditions": conds})
        turns = rng.randint(1, 3)
        trials = 20_000
        exact = simulate(deck, spec, turns=turns)
        mc = simulate(deck, spec, turns=turns, trials=trials, seed=case, exact="never")
        assert exact.method is Method.EXACT and mc.method is Method.SIMULATION
        for ce, cm in zip(exact.conditions, mc.conditions, strict=True):
            for g in (Going.FIRST, Going.SECOND):
                for e, m in zip(ce.by_going[g], cm.by_going[g], strict=True):
                    p = e.probability
                    se = math.sqrt(max(p * (1 - p), 1e-12) / trials)
                    assert abs(m.probability - p) <= 4.5 * se + 1e-12, (case, ce.name, g)
                    assert m.low is not None and m.high is not None
                    covered += m.low <= p <= m.high
                    total += 1
        for g in (Going.FIRST, Going.SECOND):
            for kind, ests in exact.composition[g].items():
                for e, m in zip(ests, mc.composition[g][kind], strict=True):
                    se = math.sqrt(max(e.probability * (1 - e.probability), 1e-12) / trials)
                    assert abs(m.probability - e.probability) <= 4.5 * se + 1e-12
    assert covered / total >= 0.9, (covered, total)


def test_seed_makes_runs_repeatable() -> None:
    deck = make_deck([3] * 13 + [1])
    spec = parse_spec({"categories": {"a": {"passcodes": [str(CODES[0])]}}})
    one = json.loads(render(simulate(deck, spec, trials=5000, seed=42, exact="never"), "json"))
    two = json.loads(render(simulate(deck, spec, trials=5000, seed=42, exact="never"), "json"))
    assert one == two
    assert one["trials"] == 5000 and one["seed"] == 42
    fig = one["conditions"][0]["results"]["first"][0]
    assert fig["ci"][0] <= fig["p"] <= fig["ci"][1]


# --- effects: checked against brute force over every deck order of a small deck ----------


def _policy_first_turn(order: tuple[str, ...], hand_size: int) -> set[int]:
    """Positions reached on turn 1 going first by the documented policy (draw spells first,
    each copy; then one search of the first `x` left in the deck)."""
    reached = list(range(hand_size))
    top = hand_size
    unused_greed = sum(order[i] == "greed" for i in reached)
    searched = False
    taken = set(reached)
    while True:
        if unused_greed:
            unused_greed -= 1
            new = [i for i in range(len(order)) if i not in taken][:2]
            taken.update(new)
            reached += new
            unused_greed += sum(order[i] == "greed" for i in new)
            top += 2
            continue
        if not searched and any(order[i] == "searcher" for i in reached):
            left = [i for i in range(len(order)) if i not in taken and order[i] == "x"]
            if left:
                searched = True
                taken.add(left[0])
                reached.append(left[0])
                continue
        break
    return set(reached)


def test_draw_and_search_effects_match_brute_force() -> None:
    # 9 cards: 2 targets (Ash), 2 Pot of Greed, 1 searcher (Upstart Goblin recast), 4 filler
    codes = [ASH, POT_OF_GREED, UPSTART_GOBLIN, CODES[0], CODES[1]]
    deck = make_deck([2, 2, 1, 2, 2], codes)
    spec = parse_spec(
        {
            "categories": {"x": {"passcodes": [str(ASH)]}},
            "conditions": {"x": "x >= 1", "two": "x >= 2"},
            "effects": [
                {"card": str(POT_OF_GREED), "kind": "draw", "count": 2},
                {"card": str(UPSTART_GOBLIN), "kind": "search", "target": "x"},
            ],
        }
    )
    labels = ["x", "x", "greed", "greed", "searcher", "f", "f", "f", "f"]
    hits = [0, 0]
    total = 0
    for order in set(itertools.permutations(labels)):
        got = _policy_first_turn(order, 3)
        xs = sum(order[i] == "x" for i in got)
        hits[0] += xs >= 1
        hits[1] += xs >= 2
        total += 1
    from deckcheck.goldfish import DrawRules

    trials = 40_000
    stats = simulate(deck, spec, going="first", trials=trials, seed=3, rules=DrawRules(hand_size=3))
    assert stats.method is Method.SIMULATION and "effects" in (stats.note or "")
    for name, h in zip(("x", "two"), hits, strict=True):
        p = float(Fraction(h, total))
        est = stats.condition(name).by_going[Going.FIRST][0]
        assert abs(est.probability - p) <= 4.5 * math.sqrt(p * (1 - p) / trials), name


def _pots_deck() -> tuple[object, Spec]:
    codes = [ASH, POT_OF_DESIRES, POT_OF_PROSPERITY, UPSTART_GOBLIN, *CODES[:12]]
    deck = make_deck([3, 2, 1, 3] + [3] * 10 + [1, 0], codes)
    return deck, parse_spec(
        {
            "categories": {"ash": {"passcodes": [str(ASH)]}},
            "conditions": {"ash": "ash"},
            "effects": [
                {"card": "Pot of Desires"},
                {"card": "Pot of Prosperity", "prefer": ["ash"]},
                {"card": "Upstart Goblin"},
            ],
        }
    )


def test_pots_raise_the_odds_and_exact_cannot_follow() -> None:
    deck, spec = _pots_deck()
    plain = simulate(deck, parse_spec({"categories": {"ash": {"passcodes": [str(ASH)]}}}))  # type: ignore[arg-type]
    pots = simulate(deck, spec, trials=40_000, seed=5)  # type: ignore[arg-type]
    for g in (Going.FIRST, Going.SECOND):
        p0 = plain.conditions[0].by_going[g][0].probability
        p1 = pots.conditions[0].by_going[g][0]
        assert p1.low is not None and p1.low > p0
    with pytest.raises(Exception, match="effects"):
        simulate(deck, spec, exact="always")  # type: ignore[arg-type]
    data = json.loads(render(pots, "json"))
    assert {e["kind"] for e in data["effects"]} == {"desires", "excavate", "draw"}
    # with effects, more cards than dealt can be reached on turn 1
    assert len(data["composition"]["first"]["Monster"]) > 6


def test_effects_for_cards_not_in_the_deck_are_ignored() -> None:
    deck = make_deck([3] * 13 + [1])
    spec = parse_spec(
        {"categories": {"a": {"passcodes": [str(CODES[0])]}}, "effects": [{"card": "Pot of Greed"}]}
    )
    assert simulate(deck, spec).method is Method.EXACT


def test_deep_hands_take_the_general_path_and_agree() -> None:
    """Past SPARSE_DEPTH cards the engine shuffles whole decks; it must agree all the same."""
    from deckcheck.goldfish.montecarlo import SPARSE_DEPTH

    deck = make_deck([3, 2, 3, 1, 2, 3, 3, 2, 1, 3, 2, 3, 3, 3, 2, 2, 2])
    spec = parse_spec(
        {
            "categories": {
                "a": {"passcodes": [str(c) for c in CODES[:3]]},
                "b": {"passcodes": [str(c) for c in CODES[2:6]]},
            },
            "conditions": {"x": "a >= 3 and b <= 4", "y": "a + b >= 8"},
        }
    )
    turns = 14
    assert spec and max(simulate(deck, spec, turns=turns).seen[Going.SECOND]) > SPARSE_DEPTH
    exact = simulate(deck, spec, turns=turns)
    trials = 20_000
    mc = simulate(deck, spec, turns=turns, trials=trials, seed=11, exact="never")
    for ce, cm in zip(exact.conditions, mc.conditions, strict=True):
        for g in (Going.FIRST, Going.SECOND):
            for e, m in zip(ce.by_going[g], cm.by_going[g], strict=True):
                p = e.probability
                assert abs(m.probability - p) <= 4.5 * math.sqrt(max(p * (1 - p), 1e-12) / trials)
