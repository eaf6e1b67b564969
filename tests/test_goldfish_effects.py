"""Card effects in the simulation, checked against independent exact calculations.

Searches shuffle the deck (a Markov chain over deck/hand compositions gives the exact answer,
since a shuffled deck deals like uniform sampling); Pot of Prosperity cannot be activated in a
turn with effect draws (brute force over every deck order of a small deck); unknown cards and
effects together; seeds per going.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

from deckcheck.goldfish import DrawRules, Going, Method, parse_spec, simulate
from deckcheck.reporter import render

from .goldfish_support import ASH, CODES, POT_OF_GREED, POT_OF_PROSPERITY, UPSTART_GOBLIN, make_deck

POT_OF_EXTRAVAGANCE = 49238328

Cli = Callable[..., Any]
FILLER = [c for c in CODES if c != ASH]
"""Real cards other than the target."""


def _within(est: Any, p: Fraction | float, trials: int, z: float = 4.5) -> bool:
    p = float(p)
    return bool(abs(est.probability - p) <= z * math.sqrt(max(p * (1 - p), 1e-12) / trials))


# --- searches shuffle the deck ----------------------------------------------------------------


def _draw_outcomes(deck: tuple[int, int, int], n: int) -> list[tuple[Fraction, tuple[int, ...]]]:
    """Multivariate hypergeometric: (probability, cards drawn of each type) for ``n`` draws."""
    total = sum(deck)
    n = min(n, total)
    out: list[tuple[Fraction, tuple[int, ...]]] = []
    for a in range(min(deck[0], n) + 1):
        for b in range(min(deck[1], n - a) + 1):
            c = n - a - b
            if c <= deck[2]:
                w = comb(deck[0], a) * comb(deck[1], b) * comb(deck[2], c)
                out.append((Fraction(w, comb(total, n)), (a, b, c)))
    return out


def _search_chain(
    starters: int, searchers: int, others: int, hand: int, draws: Sequence[int]
) -> list[dict[int, Fraction]]:
    """Exact P(starters in hand = k) after each turn: draw, then (once per turn) one unused
    searcher adds a starter from the deck, which is then shuffled. State: (starters, searchers,
    others left in the deck, starters in hand, unused searchers in hand)."""
    state: dict[tuple[int, ...], Fraction] = {(starters, searchers, others, 0, 0): Fraction(1)}
    out = []
    for turn, n in enumerate(draws):
        n += hand if turn == 0 else 0
        nxt: dict[tuple[int, ...], Fraction] = {}
        for (s, x, o, sh, xu), p in state.items():
            for q, (a, b, c) in _draw_outcomes((s, x, o), n):
                s2, x2, o2, sh2, xu2 = s - a, x - b, o - c, sh + a, xu + b
                if xu2 and s2:  # search: the deck is shuffled, so nothing else changes
                    s2, sh2, xu2 = s2 - 1, sh2 + 1, xu2 - 1
                key: tuple[int, ...] = (s2, x2, o2, sh2, xu2)
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
        state = nxt
        dist: dict[int, Fraction] = {}
        for key, p in state.items():
            dist[key[3]] = dist.get(key[3], Fraction(0)) + p
        out.append(dist)
    return out


def test_searches_shuffle_the_deck_as_an_exact_chain_says() -> None:
    # 6 starters (3 Ash, 3 Cyber Dragon), 3 searchers for a starter (Upstart Goblin recast),
    # 31 others: starter >= 2 by turn 3 going first
    codes = [ASH, FILLER[0], UPSTART_GOBLIN, *FILLER[1:12]]
    deck = make_deck([3, 3, 3] + [3] * 10 + [1], codes)
    assert len(deck.main) == 40
    spec = parse_spec(
        {
            "categories": {"starter": {"passcodes": [str(ASH), str(FILLER[0])]}},
            "conditions": {"two": "starter >= 2", "one": "starter >= 1"},
            "effects": [{"card": str(UPSTART_GOBLIN), "kind": "search", "target": "starter"}],
        }
    )
    draws = DrawRules().draws(Going.FIRST, 3)
    chain = _search_chain(6, 3, 31, 5, draws)
    trials = 100_000
    stats = simulate(deck, spec, going="first", turns=3, trials=trials, seed=21)
    assert stats.method is Method.SIMULATION
    for t, dist in enumerate(chain):
        two = sum(p for k, p in dist.items() if k >= 2)
        one = sum(p for k, p in dist.items() if k >= 1)
        assert _within(stats.condition("two").by_going[Going.FIRST][t], two, trials), t
        assert _within(stats.condition("one").by_going[Going.FIRST][t], one, trials), t


# --- Pot of Prosperity: not in a turn with effect draws -------------------------------------


def _prosperity_policy(order: Sequence[str], hand_size: int, draws: Sequence[int]) -> list[int]:
    """Targets ('a') in hand after each turn, by the documented policy, played step by step:
    Upstart Goblin ('u', draw 1) first; then Pot of Prosperity ('p': excavate 6, add the first
    'a' else the first card, the rest to the bottom) if no card effect drew this turn."""
    deck = list(order)
    hand: list[str] = []
    played: Counter[str] = Counter()
    out = []

    def draw(n: int) -> None:
        for _ in range(min(n, len(deck))):
            hand.append(deck.pop(0))

    draw(hand_size)
    for n in draws:
        draw(n)
        drew = lock = prosperity = False
        while True:
            if hand.count("u") > played["u"] and not lock:
                played["u"] += 1
                draw(1)
                drew = True
            elif hand.count("p") > played["p"] and not prosperity and not drew and len(deck) >= 6:
                played["p"] += 1
                prosperity = lock = True
                dug, deck = deck[:6], deck[6:]
                pick = dug.index("a") if "a" in dug else 0
                hand.append(dug.pop(pick))
                deck += dug
            else:
                break
        out.append(hand.count("a"))
    return out


def test_prosperity_is_not_played_after_effect_draws() -> None:
    labels = ["p", "u", "a", "a", "f", "f", "f", "f", "f"]
    codes = [POT_OF_PROSPERITY, UPSTART_GOBLIN, ASH, FILLER[0], FILLER[1]]
    deck = make_deck([1, 1, 2, 3, 2], codes)
    spec = parse_spec(
        {
            "categories": {"a": {"passcodes": [str(ASH)]}},
            "conditions": {"a": "a >= 1", "two": "a >= 2"},
            "effects": [{"card": "Pot of Prosperity", "prefer": ["a"]}, {"card": "Upstart Goblin"}],
        }
    )
    rules = DrawRules(hand_size=2)
    draws = rules.draws(Going.FIRST, 4)  # by turn 4 the bottom cards are drawn, in order
    orders = set(itertools.permutations(labels))
    counts = [_prosperity_policy(o, 2, draws) for o in orders]
    trials = 100_000
    stats = simulate(deck, spec, going="first", turns=4, trials=trials, seed=4, rules=rules)
    for t in range(4):
        one = Fraction(sum(c[t] >= 1 for c in counts), len(orders))
        two = Fraction(sum(c[t] >= 2 for c in counts), len(orders))
        assert _within(stats.condition("a").by_going[Going.FIRST][t], one, trials), t
        assert _within(stats.condition("two").by_going[Going.FIRST][t], two, trials), t


# --- unknown cards --------------------------------------------------------------------------


def _ydk(tmp_path: Path, main: Sequence[int]) -> Path:
    path = tmp_path / "deck.ydk"
    path.write_text("#main\n" + "".join(f"{c}\n" for c in main) + "#extra\n!side\n")
    return path


def test_unknown_passcodes_with_effects_count_in_the_deck_size(cli: Cli, tmp_path: Path) -> None:
    main = [99999998] + [POT_OF_GREED] * 2 + [ASH] * 3 + [c for c in FILLER[:11] for _ in range(3)]
    main += [FILLER[11]]
    assert len(main) == 40
    deck = _ydk(tmp_path, main)
    spec = tmp_path / "spec.toml"
    spec.write_text(
        '[categories]\nash = { passcodes = [14558127] }\n[[effects]]\ncard = "Pot of Greed"\n'
    )
    res = cli(
        "simulate", str(deck), "-s", str(spec), "--trials", "2000", "--seed", "1", "-o", "json"
    )
    assert res.code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["method"] == "simulation" and doc["deck"]["main"] == 40
    assert "99999998 (counted in the deck size, no card data)" in res.stderr
    assert any("unknown passcodes (99999998)" in w for w in doc["warnings"])
    # without effects: exactly the hypergeometric odds of a 40-card deck
    plain = tmp_path / "plain.toml"
    plain.write_text("[categories]\nash = { passcodes = [14558127] }\n")
    doc = json.loads(
        cli("simulate", str(deck), "-s", str(plain), "-o", "json", "--fractions").stdout
    )
    fig = doc["conditions"][0]["results"]["first"][0]
    assert Fraction(fig["fraction"]) == 1 - Fraction(comb(37, 5), comb(40, 5))
    # the unknown card is in no Monster/Spell/Trap bucket: those sum to 39 cards' worth
    comp = doc["composition"]["first"]
    mean = sum(c["count"] * c["p"] for kind in comp.values() for c in kind)
    assert abs(mean - 5 * 39 / 40) < 1e-9


# --- seeds ----------------------------------------------------------------------------------


def test_going_second_does_not_depend_on_going_first_being_asked() -> None:
    codes = [ASH, POT_OF_GREED, UPSTART_GOBLIN, *FILLER[:11]]
    deck = make_deck([3, 2, 2] + [3] * 11, codes)
    with_effects = parse_spec(
        {
            "categories": {"ash": {"passcodes": [str(ASH)]}},
            "effects": [{"card": "Pot of Greed"}, {"card": "Upstart Goblin"}],
        }
    )
    plain = parse_spec({"categories": {"ash": {"passcodes": [str(ASH)]}}})
    for spec in (with_effects, plain):
        kw: dict[str, Any] = {"turns": 3, "trials": 3000, "seed": 9, "exact": "never"}
        both = json.loads(render(simulate(deck, spec, going="both", **kw), "json"))
        for going in ("first", "second"):
            alone = json.loads(render(simulate(deck, spec, going=going, **kw), "json"))
            for a, b in zip(alone["conditions"], both["conditions"], strict=True):
                assert a["results"][going] == b["results"][going]


# --- Pot of Extravagance: draw 2 at the start of the turn, then no more effect draws ---------


def _extravagance_policy(order: Sequence[str], hand_size: int, draws: Sequence[int]) -> list[int]:
    """Targets ('a') in hand after each turn: Pot of Extravagance ('e') first if nothing was
    played this turn (draw 2, then no effect draws), else Upstart Goblin ('u', draw 1)."""
    deck = list(order)
    hand: list[str] = []
    played: Counter[str] = Counter()
    out = []

    def draw(n: int) -> None:
        for _ in range(min(n, len(deck))):
            hand.append(deck.pop(0))

    draw(hand_size)
    for n in draws:
        draw(n)
        acted = lock = False
        while True:
            if hand.count("e") > played["e"] and not acted:
                played["e"] += 1
                draw(2)
                acted = lock = True
            elif hand.count("u") > played["u"] and not lock:
                played["u"] += 1
                draw(1)
                acted = True
            else:
                break
        out.append(hand.count("a"))
    return out


def test_extravagance_draws_two_then_locks() -> None:
    labels = ["e", "u", "a", "a", "f", "f", "f", "f", "f"]
    codes = [POT_OF_EXTRAVAGANCE, UPSTART_GOBLIN, ASH, FILLER[0], FILLER[1]]
    deck = make_deck([1, 1, 2, 3, 2], codes)
    spec = parse_spec(
        {
            "categories": {"a": {"passcodes": [str(ASH)]}},
            "conditions": {"a": "a >= 1", "two": "a >= 2"},
            "effects": [{"card": "Pot of Extravagance"}, {"card": "Upstart Goblin"}],
        }
    )
    assert spec.effects[0].kind.value == "draw-lock" and spec.effects[0].count == 2
    rules = DrawRules(hand_size=3)
    draws = rules.draws(Going.FIRST, 2)
    orders = set(itertools.permutations(labels))
    counts = [_extravagance_policy(o, 3, draws) for o in orders]
    trials = 100_000
    stats = simulate(deck, spec, going="first", turns=2, trials=trials, seed=6, rules=rules)
    for t in range(2):
        one = Fraction(sum(c[t] >= 1 for c in counts), len(orders))
        two = Fraction(sum(c[t] >= 2 for c in counts), len(orders))
        assert _within(stats.condition("a").by_going[Going.FIRST][t], one, trials), t
        assert _within(stats.condition("two").by_going[Going.FIRST][t], two, trials), t


# --- conditions on the cards still in the deck ----------------------------------------------


def test_cards_left_in_the_deck_after_searches_follow_the_chain() -> None:
    """``deck(starter) >= 1``: a starter left to search, after the searches of each turn."""
    codes = [ASH, FILLER[0], UPSTART_GOBLIN, *FILLER[1:12]]
    deck = make_deck([3, 3, 3] + [3] * 10 + [1], codes)
    spec = parse_spec(
        {
            "categories": {"starter": {"passcodes": [str(ASH), str(FILLER[0])]}},
            "conditions": {
                "left": "deck(starter) >= 1 and starter >= 1",
                "gone": "deck(starter) == 0",
            },
            "effects": [{"card": str(UPSTART_GOBLIN), "kind": "search", "target": "starter"}],
        }
    )
    # the chain again, read by (starters left, starters in hand)
    state: dict[tuple[int, ...], Fraction] = {(6, 3, 31, 0, 0): Fraction(1)}
    trials = 60_000
    stats = simulate(deck, spec, going="second", turns=6, trials=trials, seed=12)
    for t, n in enumerate(DrawRules().draws(Going.SECOND, 6)):
        n += 5 if t == 0 else 0
        nxt: dict[tuple[int, ...], Fraction] = {}
        for (s, x, o, sh, xu), p in state.items():
            for q, (a, b, c) in _draw_outcomes((s, x, o), n):
                key: tuple[int, ...] = (s - a, x - b, o - c, sh + a, xu + b)
                if key[4] and key[0]:
                    key = (key[0] - 1, key[1], key[2], key[3] + 1, key[4] - 1)
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
        state = nxt
        left = sum(p for k, p in state.items() if k[0] >= 1 and k[3] >= 1)
        gone = sum(p for k, p in state.items() if k[0] == 0)
        assert _within(stats.condition("left").by_going[Going.SECOND][t], left, trials), t
        assert _within(stats.condition("gone").by_going[Going.SECOND][t], gone, trials), t


def test_cards_left_in_the_deck_exactly_and_simulated() -> None:
    deck = make_deck([3, 2] + [3] * 11 + [2], FILLER)
    spec = parse_spec(
        {
            "categories": {
                "a": {"passcodes": [str(FILLER[0])]},
                "b": {"passcodes": [str(FILLER[1])]},
            },
            "conditions": {"x": "deck(a) >= 2 and b >= 1", "y": "deck(a) + deck(b) < a + 3"},
        }
    )
    assert len(deck.main) == 40
    exact = simulate(deck, spec, turns=3)
    assert exact.method is Method.EXACT
    for t, d in enumerate(exact.seen[Going.FIRST]):
        # x: at most 1 of the 3 a seen, and at least 1 of the 2 b
        x = sum(
            Fraction(comb(3, i) * comb(2, j) * comb(35, d - i - j), comb(40, d))
            for i in (0, 1)
            for j in (1, 2)
        )
        assert exact.condition("x").by_going[Going.FIRST][t].fraction == x
        # y: (3 - a) + (2 - b) < a + 3, i.e. 2a + b > 2
        y = sum(
            Fraction(comb(3, i) * comb(2, j) * comb(35, d - i - j), comb(40, d))
            for i in range(4)
            for j in range(3)
            if 2 * i + j > 2 and i + j <= d
        )
        assert exact.condition("y").by_going[Going.FIRST][t].fraction == y
    trials = 40_000
    mc = simulate(deck, spec, turns=3, trials=trials, seed=5, exact="never")
    for name in ("x", "y"):
        for g in (Going.FIRST, Going.SECOND):
            for e, m in zip(
                exact.condition(name).by_going[g], mc.condition(name).by_going[g], strict=True
            ):
                assert _within(m, e.probability, trials), (name, g)


def test_pots_warn_about_a_small_extra_deck(cli: Cli, tmp_path: Path) -> None:
    main = [POT_OF_PROSPERITY] + [ASH] * 3 + [c for c in FILLER[:12] for _ in range(3)]
    spec = tmp_path / "spec.toml"
    spec.write_text(
        '[categories]\nash = { passcodes = [14558127] }\n[[effects]]\ncard = "Pot of Prosperity"\n'
    )
    for extra, warned in ((0, True), (6, False)):
        deck = tmp_path / f"deck{extra}.ydk"
        deck.write_text(
            "#main\n"
            + "".join(f"{c}\n" for c in main)
            + "#extra\n"
            + "1561110\n" * extra
            + "!side\n"
        )
        res = cli(
            "simulate", str(deck), "-s", str(spec), "--trials", "1000", "--seed", "1", "-o", "json"
        )
        assert res.code == 0, res.stderr
        doc = json.loads(res.stdout)
        found = any(
            "banishes 6 face-down cards from the Extra Deck, which holds 0" in w
            for w in doc["warnings"]
        )
        assert found is warned, doc["warnings"]
