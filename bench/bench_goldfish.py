"""Goldfish odds: exact engine vs scipy enumeration, Monte Carlo vs plain Python loops.

Figures: the exact engine against ``scipy.stats.multivariate_hypergeom`` enumeration of the
same question (answers compared); big exact questions (10 categories x 3 copies and 13 x 2,
20 turns) with their peak memory; a 5 x 5 ratio sweep; simulated hands per second against a
plain ``random.sample`` loop, without and with effects; ``deckcheck simulate`` exact (10
categories x 4 x 20 turns) as a whole command beside ``python -c pass``; the service's memory
with three big requests at once.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from common import Figure, best_of

from deckcheck.data.dataset import Dataset
from deckcheck.deck.model import Deck, DeckCard, Section
from deckcheck.goldfish import Condition, Going, Spec, parse_condition, parse_spec, simulate
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
    index = Dataset.active().cards
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


def _peak(fn: Callable[[], object]) -> tuple[float, float]:
    """(seconds, peak MB traced) of one call."""
    tracemalloc.start()
    t0 = time.perf_counter()
    fn()
    dt = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    return dt, peak


def _big_when(names: list[str]) -> dict[str, str]:
    """Two conditions reading every category: a mix of sums and tests, and a chain."""
    third = len(names) // 3
    a, b, c = names[:third], names[third : 2 * third], names[2 * third :]
    return {
        "mix": f"{' + '.join(a)} >= 2 and {b[0]} == 0 and ({' or '.join(b[1:])}) "
        f"and {' + '.join(c)} <= 3",
        "chain": " and ".join(f"{x} != {y}" for x, y in itertools.pairwise(names)),
    }


def _scipy_one_turn(
    sizes: list[int], other: int, names: list[str], conds: list[Condition], seen: int
) -> list[float]:
    """The obvious vectorised script for one turn: every hand shape, scipy's pmf, the
    conditions evaluated on the shapes."""
    import numpy as np
    from scipy.stats import multivariate_hypergeom

    shape = [n + 1 for n in sizes]
    total = [0.0] * len(conds)
    space = int(np.prod(shape))
    for lo in range(0, space, 200_000):  # in chunks, so the baseline's memory stays sane
        vec = np.stack(np.unravel_index(np.arange(lo, min(space, lo + 200_000)), shape), axis=1)
        rest = seen - vec.sum(axis=1)
        ok = (rest >= 0) & (rest <= other)
        vec, rest = vec[ok], rest[ok]
        x = np.column_stack([vec, rest])
        pmf = multivariate_hypergeom.pmf(x=x, m=[*sizes, other], n=seen)
        counts = {n: vec[:, i] for i, n in enumerate(names)}
        for i, c in enumerate(conds):
            total[i] += float(pmf[np.asarray(c.evaluate(counts), dtype=bool)].sum())
    return total


def _big_exact(categories: int, copies: int) -> Figure:
    from deckcheck.goldfish import DrawRules, simulate_counts

    names = [f"k{i}" for i in range(categories)]
    when = _big_when(names)
    counts = dict.fromkeys(names, copies)
    result: list[Any] = []

    def dp() -> None:
        result.append(simulate_counts(40, counts, when, turns=20, rules=DrawRules()))

    t_dp, mb_dp = _peak(dp)
    t_dp = min(t_dp, best_of(dp, repeat=3))
    stats = result[0]
    assert stats.method.value == "exact", stats.note
    deepest = stats.seen[Going.SECOND][-1]
    conds = [parse_condition(t, set(names)) for t in when.values()]
    ref: list[float] = []
    t_sp, mb_sp = _peak(
        lambda: ref.extend(
            _scipy_one_turn([copies] * categories, 40 - categories * copies, names, conds, deepest)
        )
    )
    got = [c.by_going[Going.SECOND][-1].probability for c in stats.conditions]
    assert all(abs(x - y) < 1e-9 for x, y in zip(got, ref, strict=True)), (got, ref)
    print(
        f"    {categories}x{copies}: peak {mb_dp:.1f} MB traced (scipy, one turn: {mb_sp:.0f} MB)"
    )
    return Figure(
        f"exact {categories} categories x {copies} copies, 2 conditions x 20 turns x 2 goings",
        t_dp * 1e3,
        "scipy pmf over every hand shape, 1 turn only",
        t_sp * 1e3,
        "ms",
        limit=500,
    )


def _memory_figure(categories: int, copies: int) -> Figure:
    from deckcheck.goldfish import DrawRules, simulate_counts

    names = [f"k{i}" for i in range(categories)]
    counts = dict.fromkeys(names, copies)
    _, mb = _peak(
        lambda: simulate_counts(40, counts, _big_when(names), turns=20, rules=DrawRules())
    )
    conds = [parse_condition(t, set(names)) for t in _big_when(names).values()]
    _, mb_sp = _peak(
        lambda: _scipy_one_turn([copies] * categories, 40 - categories * copies, names, conds, 25)
    )
    return Figure(
        f"peak memory, exact {categories} x {copies} x 20 turns",
        mb,
        "scipy pmf over every hand shape, 1 turn",
        mb_sp,
        "MB",
        limit=200,
    )


def _sweep_figure() -> Figure:
    from scipy.stats import multivariate_hypergeom

    from deckcheck.goldfish import DrawRules, sweep_counts

    good = "starter >= 1 and brick == 0"
    rules = DrawRules()

    def dp() -> Any:
        return sweep_counts(
            40,
            {"starter": 8, "brick": 4, "handtrap": 9},
            ["starter=6..10", "brick=0..4"],
            [good, "handtrap >= 1"],
            turns=10,
            rules=rules,
        )

    stats = dp()
    t_dp = best_of(dp, repeat=3)

    def loop() -> list[float]:
        out = []
        for s_, b in itertools.product(range(6, 11), range(5)):
            other = 40 - s_ - b - 9
            for g in (Going.FIRST, Going.SECOND):
                for d in rules.seen(g, 10):
                    total = 0.0
                    for x, y, z in itertools.product(range(s_ + 1), range(b + 1), range(10)):
                        w = d - x - y - z
                        if 0 <= w <= other and x >= 1 and y == 0:
                            total += float(
                                multivariate_hypergeom.pmf([x, y, z, w], [s_, b, 9, other], d)
                            )
                    out.append(total)
        return out

    t0 = time.perf_counter()
    ref = loop()
    t_loop = time.perf_counter() - t0
    best = stats.rows[0]
    s_, b = dict(best.values)["starter"], dict(best.values)["brick"]
    index = ((s_ - 6) * 5 + b) * 20 + 9  # going first, turn 10
    assert abs(best.figures[good][Going.FIRST].probability - ref[index]) < 1e-9
    return Figure(
        "5 x 5 ratio sweep, 2 conditions, 10 turns, both goings",
        t_dp * 1e3,
        "scipy pmf loop over the hand shapes (1 condition)",
        t_loop * 1e3,
        "ms",
        limit=1000,
    )


POTS = {"g": 1, "u": 3, "d": 2, "p": 1, "a": 3, "f": 30}
"""The pots deck: Pot of Greed, Upstart Goblin, Pot of Desires, Pot of Prosperity, Ash, filler."""


def _policy_loop(games: int) -> float:
    """The documented policy in plain Python, turn 1 going first: P(Ash reached)."""
    rng = random.Random(3)
    cards = [c for c, n in POTS.items() for _ in range(n)]
    hits = 0
    for _ in range(games):
        deck = cards[:]
        rng.shuffle(deck)
        hand, deck = deck[:5], deck[5:]
        played = dict.fromkeys("gudp", 0)
        drew = lock = desires = False
        while True:
            free = {c: hand.count(c) - played[c] for c in "gudp"}
            if free["g"] and not lock:
                played["g"] += 1
                hand += deck[:2]
                deck = deck[2:]
                drew = True
            elif free["u"] and not lock:
                played["u"] += 1
                hand += deck[:1]
                deck = deck[1:]
                drew = True
            elif free["d"] and not lock and not desires and len(deck) >= 10:
                played["d"] += 1
                desires = drew = True
                hand += deck[10:12]
                deck = deck[12:]
            elif free["p"] and not played["p"] and not drew and len(deck) >= 6:
                played["p"] += 1
                lock = True
                dug, deck = deck[:6], deck[6:]
                hand.append(dug.pop(dug.index("a") if "a" in dug else 0))
                deck += dug
            else:
                break
        hits += "a" in hand
    return hits / games


def _effects_figure() -> Figure:
    from deckcheck.goldfish import simulate

    codes = [55144522, 70368879, 35261759, 84211599, 14558127]
    filler = [c for c in CODES if c not in codes][:15]
    index = Dataset.active().cards
    copies = [1, 3, 2, 1, 3] + [2] * 15
    main = [
        DeckCard(c, Section.MAIN, index.get(c))
        for c, n in zip([*codes, *filler], copies, strict=True)
        for _ in range(n)
    ]
    deck = Deck(tuple(main), name="pots")
    spec = parse_spec(
        {
            "categories": {"ash": {"passcodes": ["14558127"]}},
            "effects": [
                {"card": "Pot of Greed"},
                {"card": "Upstart Goblin"},
                {"card": "Pot of Desires"},
                {"card": "Pot of Prosperity", "prefer": ["ash"]},
            ],
        }
    )
    n = 200_000

    def mc() -> float:
        stats = simulate(deck, spec, going="first", trials=n, seed=2)
        return stats.conditions[0].by_going[Going.FIRST][0].probability

    p_mc = mc()
    t_mc = best_of(mc, repeat=3)
    n_loop = 20_000
    p_loop = _policy_loop(n_loop)
    t_loop = best_of(lambda: _policy_loop(n_loop), repeat=3)  # best of 3, as for the engine
    se = (p_loop * (1 - p_loop) / n_loop) ** 0.5
    assert abs(p_mc - p_loop) < 5 * se, (p_mc, p_loop)
    return Figure(
        "Monte Carlo games/s with effects (4 pots, turn 1)",
        n / t_mc,
        "plain Python loop of the same policy",
        n_loop / t_loop,
        "games/s",
        target=30,
        higher_is_better=True,
    )


def _command_figures() -> list[Figure]:
    """``deckcheck simulate`` exact, 10 categories x 4 copies, 2 conditions x 20 turns: the
    whole command (start, engine, report) beside ``python -c pass``; then what importing Typer
    and numpy alone costs, the least any such command can take."""

    from common import command_time, deckcheck_exe, installed_python, outside, python_pass_time

    names = [f"k{i}" for i in range(10)]
    exe = deckcheck_exe()
    argv = [
        exe,
        "simulate",
        "--size",
        "40",
        *[f"--count={n}=4" for n in names],
        "--turns",
        "20",
        "--exact",
        "always",
    ]
    for text in _big_when(names).values():
        argv += ["--when", text]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    whole = command_time(argv)
    bare = python_pass_time() * 1e3
    # the floor: the CLI framework and the exact engine's array library, imported alone
    floor = command_time([installed_python(), "-c", "import typer, numpy"], cwd=outside())
    return [
        Figure(
            "deckcheck simulate exact, 10 categories x 4 x 20 turns (whole command)",
            whole * 1e3,
            "python -c pass",
            bare,
            "ms",
            target=6,
        ),
        Figure(
            'python -c "import typer, numpy" (cold; the floor of simulate, no target)',
            floor * 1e3,
            "python -c pass",
            bare,
            "ms",
        ),
    ]


SERVICE_SCRIPT = """
import json, resource, sys, threading
from deckcheck.data.dataset import Dataset
from deckcheck.service import Settings
from deckcheck.service.core import Service
from deckcheck.service import budget
from deckcheck.service.model import SimulateRequest
svc = Service(Settings(), Dataset.active())
svc.warm()
body = json.loads(sys.stdin.read())
import time
if body:
    start = time.perf_counter()
    req = SimulateRequest.model_validate(body)
    out = []
    def ask():
        out.append(budget.simulate(svc, req))
    threads = [threading.Thread(target=ask) for _ in range(3)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert len(out) == 3 and all(s.method.value == "exact" for s in out), out
    print(f"{time.perf_counter() - start:.3f}")
for line in open("/proc/self/status"):  # VmHWM: this process's peak (ru_maxrss keeps the parent's)
    if line.startswith("VmHWM:"):
        print(int(line.split()[1]) / 1024)
        break
else:
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def _service_memory() -> Figure:
    import json

    names = [f"c{i}" for i in range(15)]
    main = CODES[:15] + [
        c for c, n in zip(CODES[15:], [3] * 5 + [2] * 5, strict=True) for _ in range(n)
    ]
    spec = {
        "categories": {n: {"passcodes": [str(c)]} for n, c in zip(names, CODES, strict=False)},
        "conditions": _big_when(names) | {"any3": " + ".join(names) + " >= 3"},
    }
    body = {
        "deck": "#main\n" + "".join(f"{c}\n" for c in main) + "#extra\n!side\n",
        "spec": spec,
        "turns": 20,
    }

    def rss(payload: object) -> list[float]:
        proc = subprocess.run(
            [sys.executable, "-c", SERVICE_SCRIPT],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            check=True,
        )
        return [float(x) for x in proc.stdout.split()]

    seconds, busy = rss(body)
    (idle,) = rss({})
    print(
        f"    three big /v1/simulate requests ({len(json.dumps(body)):,} bytes) at once: "
        f"{seconds:.2f} s in all"
    )
    return Figure(
        "service peak RSS, three 15-category 20-turn requests at once",
        busy,
        "the same process idle",
        idle,
        "MB",
        limit=300,
    )


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
        _big_exact(10, 3),
        _memory_figure(10, 3),
        _big_exact(13, 2),
        _memory_figure(13, 2),
        _sweep_figure(),
        _effects_figure(),
        *_command_figures(),
        _service_memory(),
    ]
