"""Goldfish 3: cumulative answers, distinct pieces, sample hands, games two and three, paired
comparisons and exact-or-simulated per condition.

Every exact figure is checked against scipy's hypergeometric distribution or a brute-force
enumeration written here (never the engine's own model).
"""

from __future__ import annotations

import itertools
import json
import math
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from scipy.stats import hypergeom

from deckcheck.goldfish import (
    ExactBudget,
    Going,
    GoldfishError,
    Method,
    parse_condition,
    parse_spec,
    simulate,
    simulate_counts,
)
from deckcheck.goldfish.compare import compare
from deckcheck.reporter import render

from .conftest import ROOT
from .goldfish_support import CODES, make_deck
from .test_service import Api, api  # noqa: F401  (api is a fixture)

EXAMPLES = ROOT / "examples"
DECK = str(EXAMPLES / "tcg-legal.ydk")
PLAN = str(EXAMPLES / "side-plan.toml")


def _enumerate(sizes: list[int], other: int, seen: int, pred) -> Fraction:  # type: ignore[no-untyped-def]
    """P(pred(x)) over every count vector x of disjoint groups ``sizes`` (+ other), by
    enumeration of count vectors weighted by binomials (multivariate hypergeometric)."""
    total = math.comb(sum(sizes) + other, seen)
    hits = 0
    for xs in itertools.product(*(range(min(n, seen) + 1) for n in sizes)):
        rest = seen - sum(xs)
        if rest < 0 or rest > other:
            continue
        if pred(xs):
            hits += math.prod(math.comb(n, x) for n, x in zip(sizes, xs, strict=True)) * math.comb(
                other, rest
            )
    return Fraction(hits, total)


# --- cumulative answers ---------------------------------------------------------------------


@pytest.mark.parametrize(("size", "copies"), [(40, 9), (40, 3), (60, 12), (20, 20)])
def test_cumulative_and_expected_match_scipy(size: int, copies: int) -> None:
    stats = simulate_counts(size, {"s": copies}, turns=4, distributions=True)
    d = stats.distributions[0]
    for going in (Going.FIRST, Going.SECOND):
        for t, seen in enumerate(stats.seen[going]):
            rv = hypergeom(size, copies, seen)
            least, most = d.at_least(going, t), d.at_most(going, t)
            assert len(least) == len(most) == min(copies, seen) + 1
            for k in range(len(least)):
                assert least[k].fraction is not None and most[k].fraction is not None
                assert float(least[k].fraction) == pytest.approx(rv.sf(k - 1), abs=1e-12)
                assert float(most[k].fraction) == pytest.approx(rv.cdf(k), abs=1e-12)
            mean = d.expected(going, t)
            assert mean.fraction == Fraction(copies * seen, size)  # n d / N
            assert mean.value == pytest.approx(rv.mean(), abs=1e-12)


def test_cumulative_in_json_and_text(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli(
        "simulate",
        "--size",
        "40",
        "--count",
        "starter=9",
        "--cumulative",
        "-t",
        "2",
        "-o",
        "json",
        "--fractions",
    )
    assert res.code == 0, res.stderr
    data = json.loads(res.stdout)
    turn = data["distributions"][0]["results"]["first"][1]  # 6 seen
    rv = hypergeom(40, 9, 6)
    assert [round(x["p"], 12) for x in turn["at_least"]] == [
        round(float(rv.sf(k - 1)), 12) for k in range(7)
    ]
    assert [round(x["p"], 12) for x in turn["at_most"]] == [
        round(float(rv.cdf(k)), 12) for k in range(7)
    ]
    assert turn["expected"]["fraction"] == "27/20" and turn["expected"]["ci"] is None
    text = cli("simulate", "--size", "40", "--count", "starter=9", "--cumulative")
    assert "P(at least k) | P(at most k) of starter, going first:" in text.stdout
    assert " exp" in text.stdout and "1.125" in text.stdout  # 9 * 5 / 40


def test_simulated_cumulative_intervals_cover_the_exact_ones() -> None:
    sim = simulate_counts(
        40, {"s": 9}, turns=2, distributions=True, exact="never", seed=11, trials=50_000
    )
    d = sim.distributions[0]
    for t, seen in enumerate(sim.seen[Going.FIRST]):
        rv = hypergeom(40, 9, seen)
        for k, est in enumerate(d.at_least(Going.FIRST, t)):
            assert est.low is not None and est.high is not None
            assert est.low - 1e-9 <= rv.sf(k - 1) <= est.high + 1e-9
        mean = d.expected(Going.FIRST, t)
        assert mean.low is not None and mean.high is not None
        assert mean.low <= rv.mean() <= mean.high


# --- distinct pieces --------------------------------------------------------------------------


@pytest.mark.parametrize("need", [1, 2, 3])
def test_distinct_pieces_quick_mode_match_enumeration(need: int) -> None:
    counts = {"a": 3, "b": 3, "c": 2, "d": 1, "e": 3}
    stats = simulate_counts(40, counts, [f"distinct(a, b, c, d, e) >= {need}"], turns=3)
    sizes = list(counts.values())
    for going in (Going.FIRST, Going.SECOND):
        for t, seen in enumerate(stats.seen[going]):
            want = _enumerate(
                sizes, 40 - sum(sizes), seen, lambda xs: sum(x >= 1 for x in xs) >= need
            )
            assert stats.conditions[0].by_going[going][t].fraction == want


def test_distinct_cards_of_one_category_match_enumeration() -> None:
    # a "combo" category of 5 different cards (3, 3, 2, 1, 3 copies), plus a brick category
    copies = [3, 3, 2, 1, 3, 3, 3]
    deck = make_deck(copies + [1] * 15)
    spec = parse_spec(
        {
            "categories": {
                "combo": {"passcodes": [str(c) for c in CODES[:5]]},
                "brick": {"passcodes": [str(c) for c in CODES[5:7]]},
            },
            "conditions": {
                "two pieces": "distinct(combo) >= 2",
                "two pieces no brick": "distinct(combo) >= 2 and brick == 0",
                "more pieces than copies - 1": "distinct(combo) > combo - 1",
            },
        }
    )
    stats = simulate(deck, spec, turns=3)
    assert stats.method is Method.EXACT
    sizes = copies  # groups: five combo cards, two brick cards; the rest (15) other
    preds = {
        "two pieces": lambda xs: sum(x >= 1 for x in xs[:5]) >= 2,
        "two pieces no brick": lambda xs: sum(x >= 1 for x in xs[:5]) >= 2 and sum(xs[5:]) == 0,
        "more pieces than copies - 1": lambda xs: sum(x >= 1 for x in xs[:5]) > sum(xs[:5]) - 1,
    }
    for cond in stats.conditions:
        for going in (Going.FIRST, Going.SECOND):
            for t, seen in enumerate(stats.seen[going]):
                want = _enumerate(sizes, 15, seen, preds[cond.name])
                assert cond.by_going[going][t].fraction == want, (cond.name, going, t)


def test_distinct_simulated_agrees_with_exact() -> None:
    counts = {"a": 3, "b": 3, "c": 2, "d": 1, "e": 3}
    when = ["distinct(a, b, c, d, e) >= 2"]
    exact = simulate_counts(40, counts, when, turns=2)
    sim = simulate_counts(40, counts, when, turns=2, exact="never", seed=5, trials=60_000)
    for going in (Going.FIRST, Going.SECOND):
        for e, s in zip(
            exact.conditions[0].by_going[going], sim.conditions[0].by_going[going], strict=True
        ):
            assert s.low is not None and s.high is not None
            assert s.low - 0.003 <= e.probability <= s.high + 0.003


def test_distinct_parse_errors() -> None:
    for text, message in [
        ("distinct() >= 1", "expected a category name"),
        ("distinct(a b) >= 1", "expected , or \\)"),
        ("distinct(a, 2)", "expected a category name"),
    ]:
        with pytest.raises(Exception, match=message):
            parse_condition(text, {"a", "b"})
    with pytest.raises(Exception, match="unknown category 'zz'"):
        parse_condition("distinct(a, zz) >= 1", {"a"})
    assert str(parse_condition("distinct(a,b)>=2")) == "distinct(a, b) >= 2"


# --- exact or simulated per condition ---------------------------------------------------------


def test_one_condition_over_the_budget_leaves_the_others_exact() -> None:
    counts = {c: 3 for c in "abcdefghijkl"}
    when = {"hard": "a - b + c - d + e - f + g - h + i - j + k - l != 0", "easy": "a >= 1"}
    stats = simulate_counts(
        40, counts, when, turns=2, budget=ExactBudget(max_bytes=20_000), seed=3, trials=20_000
    )
    hard, easy = stats.condition("hard"), stats.condition("easy")
    assert hard.method is Method.SIMULATION and easy.method is Method.EXACT
    assert stats.method is Method.SIMULATION and "hard" in (stats.note or "")
    assert "the other figures are exact" in (stats.note or "")
    for t, seen in enumerate(stats.seen[Going.FIRST]):
        assert float(easy.by_going[Going.FIRST][t].probability) == pytest.approx(
            hypergeom(40, 3, seen).sf(0), abs=1e-12
        )
    data = json.loads(render(stats, "json"))
    assert [c["method"] for c in data["conditions"]] == ["simulation", "exact"]
    with pytest.raises(GoldfishError, match="exact odds impractical"):
        simulate_counts(40, counts, when, budget=ExactBudget(max_bytes=20_000), exact="always")


def test_text_names_the_exact_and_the_simulated_conditions(cli) -> None:  # type: ignore[no-untyped-def]
    # a deck with an effect simulates everything; quick mode with a tiny budget is mixed: the
    # CLI has no budget flag, so go through the library's text renderer
    counts = {c: 3 for c in "abcdefghijkl"}
    when = {"hard": "a - b + c - d + e - f + g - h + i - j + k - l != 0", "easy": "a >= 1"}
    stats = simulate_counts(
        40, counts, when, budget=ExactBudget(max_bytes=20_000), seed=3, trials=5_000
    )
    text = render(stats, "text")
    assert "exact: easy" in text and "simulated: hard" in text


# --- paired comparisons -----------------------------------------------------------------------


def _quick_pair(seed_a: int, seed_b: int, trials: int = 20_000, paired: bool = True):  # type: ignore[no-untyped-def]
    when = ["starter >= 1 and brick == 0"]
    a = simulate_counts(
        40,
        {"starter": 9, "brick": 6},
        when,
        turns=2,
        exact="never",
        seed=seed_a,
        trials=trials,
        paired=paired,
    )
    b = simulate_counts(
        40,
        {"starter": 11, "brick": 4},
        when,
        turns=2,
        exact="never",
        seed=seed_b,
        trials=trials,
        paired=paired,
    )
    return compare(a, b)


def _exact_diffs() -> dict[tuple[Going, int], float]:
    when = ["starter >= 1 and brick == 0"]
    a = simulate_counts(40, {"starter": 9, "brick": 6}, when, turns=2)
    b = simulate_counts(40, {"starter": 11, "brick": 4}, when, turns=2)
    return {(d.going, d.turn): d.diff for d in compare(a, b).differences}


def test_one_seed_pairs_the_games_and_different_seeds_do_not() -> None:
    same = _quick_pair(7, 7)
    other = _quick_pair(7, 8)
    assert same.paired and all(d.method == "paired" for d in same.differences)
    assert not other.paired and all(d.method == "independent" for d in other.differences)
    assert "different seeds" in (other.unpaired_reason or "")
    for d in same.differences:  # the mean of the games' differences is B - A
        assert d.interval is not None
        assert (d.interval[0] + d.interval[1]) / 2 == pytest.approx(d.diff, abs=1e-12)
    # common random numbers: the paired interval is much narrower than the independent one
    for p, q in zip(same.differences, _quick_pair(7, 7, paired=False).differences, strict=True):
        assert p.interval is not None and q.interval is not None
        assert (p.interval[1] - p.interval[0]) < 0.8 * (q.interval[1] - q.interval[0])
    # and each paired interval's width is the one of the discordant games, by hand
    d = same.differences[0]
    assert d.discordant is not None
    only_a, only_b, n = d.discordant
    mean = (only_b - only_a) / n
    half = 1.959963984540054 * math.sqrt(((only_a + only_b) / n - mean * mean) / n)
    assert d.interval == pytest.approx((mean - half, mean + half), abs=1e-12)


def test_cli_vs_with_a_seed_says_paired(cli) -> None:  # type: ignore[no-untyped-def]
    args = (
        "simulate",
        "--size",
        "40",
        "--count",
        "starter=9",
        "--count",
        "brick=6",
        "--when",
        "starter >= 1 and brick == 0",
        "--vs",
        "starter=11,brick=4",
        "--exact",
        "never",
        "--trials",
        "20000",
    )
    res = cli(*args, "--seed", "7", "-o", "json")
    assert res.code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["paired"] is True and {d["interval"] for d in data["differences"]} == {"paired"}
    assert "paired (common random numbers)" in cli(*args, "--seed", "7").stdout
    unseeded = json.loads(cli(*args, "-o", "json").stdout)  # each run its own random seed
    assert unseeded["paired"] is False
    assert {d["interval"] for d in unseeded["differences"]} == {"independent"}


@pytest.mark.slow
def test_paired_interval_covers_95_percent() -> None:
    exact = _exact_diffs()
    runs, covered, total = 300, 0, 0
    widths = []
    for seed in range(runs):
        cmp = _quick_pair(1000 + seed, 1000 + seed, trials=4_000)
        for d in cmp.differences:
            assert d.interval is not None and d.method == "paired"
            total += 1
            covered += d.interval[0] <= exact[(d.going, d.turn)] <= d.interval[1]
            widths.append(d.interval[1] - d.interval[0])
    rate = covered / total
    # 1,200 intervals: the rate of a true 95% interval is within 93.5%..96.5% (> 3 sigma)
    assert 0.935 <= rate <= 0.965, rate


# --- sample hands -------------------------------------------------------------------------------


def test_sample_hands_are_seeded_and_consistent(cli) -> None:  # type: ignore[no-untyped-def]
    spec = str(EXAMPLES / "spec-starters.toml")
    args = (
        "simulate",
        DECK,
        "-s",
        spec,
        "--sample",
        "4",
        "--seed",
        "9",
        "-t",
        "3",
        "-o",
        "json",
        "--trials",
        "2000",
    )
    one, two = cli(*args), cli(*args)
    assert one.code == 0, one.stderr
    assert one.stdout == two.stdout
    data = json.loads(one.stdout)
    hands = data["samples"]["hands"]
    assert data["samples"]["seed"] == 9 and len(hands) == 8  # 4 deals, both goings
    from deckcheck.deck.io import read_path
    from deckcheck.goldfish import load_spec

    deck = read_path(str(EXAMPLES / "tcg-legal.ydk"))
    loaded = load_spec(EXAMPLES / "spec-starters.toml")
    in_deck: dict[str, int] = {}
    for dc in deck.main:
        in_deck[dc.name] = in_deck.get(dc.name, 0) + 1
    by_name = {dc.name: dc for dc in deck.main}
    for h in hands:
        assert len(h["hand"]) == 5
        draws = [len(d) for d in h["draws"]]
        assert draws == ([0, 1, 1] if h["going"] == "first" else [1, 1, 1])
        seen = list(h["hand"])
        for t, drawn in enumerate(h["draws"]):
            seen += drawn
            for name in set(seen):
                assert seen.count(name) <= in_deck[name]
            counts = {c.name: sum(c.matches(by_name[n]) for n in seen) for c in loaded.categories}
            for cname, cond in loaded.conditions:
                assert h["met"][cname][t] == bool(cond.evaluate(counts))
    assert [h["hand"] for h in hands[::2]] == [h["hand"] for h in hands[1::2]]  # same deal
    text = cli(*args[:-4], "--trials", "2000")
    assert "Sample hands (seed 9" in text.stdout and "going second:" in text.stdout


def test_sample_limits() -> None:
    with pytest.raises(GoldfishError, match="sample"):
        simulate_counts(40, {"s": 9}, sample=101)
    stats = simulate_counts(40, {"s": 9}, sample=3)
    assert stats.samples is not None and len(stats.samples.hands) == 6
    assert all(set(h.hand) <= {"s", "other"} for h in stats.samples.hands)


# --- games two and three ------------------------------------------------------------------------


def test_side_plan_figures_match_enumeration(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    res = cli(
        "simulate",
        str(EXAMPLES / "tcg-legal.ydk"),
        "--side",
        str(EXAMPLES / "side-plan.toml"),
        "-t",
        "2",
        "-o",
        "json",
        "--fractions",
    )
    assert res.code == 0, res.stderr
    data = json.loads(res.stdout)
    assert [(c["name"], c["copies"]) for c in data["plan"]["in"]] == [
        ("Cosmic Cyclone", 2),
        ("Dark Ruler No More", 1),
    ]
    cmp = data["comparison"]
    assert cmp["labels"] == {"a": "game 1", "b": "games 2 and 3"}
    # default report: P(at least 1) of each card; the sided deck has Cosmic Cyclone, game 1 not
    b_names = {c["name"] for c in cmp["b"]["conditions"]}
    assert "Cosmic Cyclone" in b_names and "Cosmic Cyclone" in cmp["only_b"]
    assert "Sales Ban" in cmp["only_a"]
    side = {c["name"]: c for c in data["side_cards"]["conditions"]}
    assert set(side) == {"Cosmic Cyclone", "Dark Ruler No More", "any side card"}
    for name, copies in (("Cosmic Cyclone", 2), ("Dark Ruler No More", 1), ("any side card", 3)):
        for going, seens in (("first", (5, 6)), ("second", (6, 7))):
            for est, seen in zip(side[name]["results"][going], seens, strict=True):
                n, d = map(int, est["fraction"].split("/"))
                assert Fraction(n, d) == 1 - Fraction(
                    math.comb(40 - copies, seen), math.comb(40, seen)
                )
                assert est["p"] == pytest.approx(1 - hypergeom(40, copies, seen).pmf(0))


def test_side_plan_spec_conditions_match_enumeration() -> None:
    from deckcheck.deck.io import read_path
    from deckcheck.goldfish.side import simulate_side
    from deckcheck.run.siding import parse_side_plan

    deck = read_path(str(EXAMPLES / "tcg-legal.ydk"))
    plan = parse_side_plan((EXAMPLES / "side-plan.toml").read_text(encoding="utf-8"))
    spec = parse_spec(
        {
            "categories": {
                "spell_removal": {
                    "names": ["Cosmic Cyclone", "Harpie's Feather Duster", "Dark Ruler No More"]
                },
                "ban": {"names": ["Sales Ban", "Clockwork Night"]},
            },
            "conditions": {
                "out": "spell_removal >= 1 and ban == 0",
                "two": "distinct(spell_removal) >= 2",
            },
        }
    )
    stats = simulate_side(deck, plan, spec, turns=2)
    # game 1: 1 Duster, 1 Sales Ban + 2 Clockwork Night; sided: Duster, 2 Cyclone, DRNM, no ban
    for stats_, groups, ban in ((stats.game1, [1], 3), (stats.sided, [1, 2, 1], 0)):
        other = 40 - sum(groups) - ban
        for going in (Going.FIRST, Going.SECOND):
            for t, seen in enumerate(stats_.seen[going]):
                sizes = [*groups, ban] if ban else groups
                k = len(groups)
                out = _enumerate(
                    sizes, other, seen, lambda xs, k=k: sum(xs[:k]) >= 1 and sum(xs[k:]) == 0
                )
                two = _enumerate(
                    sizes, other, seen, lambda xs, k=k: sum(x >= 1 for x in xs[:k]) >= 2
                )
                assert stats_.condition("out").by_going[going][t].fraction == out
                assert stats_.condition("two").by_going[going][t].fraction == two
    diffs = {(d.name, d.going, d.turn): d for d in stats.comparison.differences}
    d = diffs[("out", Going.FIRST, 1)]
    assert d.fraction == d.b.fraction - d.a.fraction  # type: ignore[operator]


def test_side_plan_problems_are_errors(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.txt"
    bad.write_text("in:\n3 Cosmic Cyclone\nout:\n1 Sales Ban\n", encoding="utf-8")
    res = cli("simulate", str(EXAMPLES / "tcg-legal.ydk"), "--side", str(bad))
    assert res.code == 2 and "side-unbalanced" in res.stderr and "side-not-in-side" in res.stderr
    res = cli("simulate", "--size", "40", "--count", "s=3", "--side", str(bad))
    assert res.code == 2 and "--side needs a DECK" in res.stderr
    res = cli("simulate", str(EXAMPLES / "tcg-legal.ydk"), "--side", str(tmp_path / "nope.txt"))
    assert res.code == 2 and "nope.txt" in res.stderr


def test_side_cards_text(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli("simulate", DECK, "--side", PLAN, "-t", "2")
    assert res.code == 0, res.stderr
    assert "Side plan · in: 2 Cosmic Cyclone, 1 Dark Ruler No More" in res.stdout
    assert "Side cards seen in games 2 and 3" in res.stdout and "any side card" in res.stdout


# --- plots of comparisons -----------------------------------------------------------------------


@pytest.mark.slow
def test_plot_with_vs_plots_both(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    out = tmp_path / "vs.png"
    res = cli(
        "simulate", "--size", "40", "--count", "starter=9", "--vs", "starter=11", "--plot", str(out)
    )
    assert res.code == 0, res.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = tmp_path / "side.svg"
    res = cli("simulate", DECK, "--side", PLAN, "--plot", str(svg))
    assert res.code == 0, res.stderr
    assert "game 1" in svg.read_text(encoding="utf-8")


def test_random_quick_questions_match_enumeration() -> None:
    rng = random.Random(36)
    for _ in range(12):
        sizes = [rng.randint(0, 4) for _ in range(rng.randint(2, 4))]
        names = "abcd"[: len(sizes)]
        need = rng.randint(1, len(sizes))
        bound = rng.randint(0, 3)
        counts = dict(zip(names, sizes, strict=True))
        text = f"distinct({', '.join(names)}) >= {need} or {names[0]} - {names[-1]} >= {bound}"
        stats = simulate_counts(40, counts, [text], turns=2)
        for going in (Going.FIRST, Going.SECOND):
            for t, seen in enumerate(stats.seen[going]):
                want = _enumerate(
                    sizes,
                    40 - sum(sizes),
                    seen,
                    lambda xs, need=need, bound=bound: (
                        sum(x >= 1 for x in xs) >= need or xs[0] - xs[-1] >= bound
                    ),
                )
                assert stats.conditions[0].by_going[going][t].fraction == want, text


# --- over HTTP ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_simulate_route_answers_the_new_questions(api: Api) -> None:  # noqa: F811
    from .test_service import error_of

    combo = {"a": 3, "b": 3, "c": 2, "d": 1, "e": 3}
    quick = {"size": 40, "counts": combo, "when": ["distinct(a, b, c, d, e) >= 2"]}
    body = {
        "quick": quick,
        "turns": 2,
        "fractions": True,
        "distributions": True,
        "sample": 2,
        "seed": 4,
    }
    resp = api.post("/v1/simulate", json=body)
    assert resp.status_code == 200, resp.text
    doc = resp.json()
    sizes = list(combo.values())
    fig = doc["conditions"][0]
    assert fig["method"] == "exact"
    for t, seen in enumerate((5, 6)):
        want = _enumerate(sizes, 40 - sum(sizes), seen, lambda xs: sum(x >= 1 for x in xs) >= 2)
        assert Fraction(fig["results"]["first"][t]["fraction"]) == want
    a = next(d for d in doc["distributions"] if d["name"] == "a")["results"]["second"][0]
    assert [round(x["p"], 12) for x in a["at_least"]] == [
        round(float(hypergeom(40, 3, 6).sf(k - 1)), 12) for k in range(4)
    ]
    assert a["expected"]["fraction"] == "9/20"
    assert doc["samples"]["seed"] == 4 and len(doc["samples"]["hands"]) == 4
    again = api.post("/v1/simulate", json=body).json()
    assert again["samples"] == doc["samples"]
    error_of(api.post("/v1/simulate", json=dict(body, sample=101)), 422, "bad-request")
    sweep = dict(body, distributions=False, vary=["a=1..3"])
    error_of(api.post("/v1/simulate/sweep", json=sweep), 422, "bad-input")


def test_side_checks_the_sided_deck_on_the_date_asked(cli: Any) -> None:
    # --date reached the draw rules but not the sided deck's legality check (it used today)
    root = Path(__file__).resolve().parent.parent / "examples"
    args = [
        "simulate",
        str(root / "tcg-legal.ydk"),
        "--spec",
        str(root / "spec-starters.toml"),
        "--side",
        str(root / "side-plan.toml"),
        "--trials",
        "2000",
        "--seed",
        "1",
    ]
    old = cli(*args, "-d", "2010-01-01")
    assert old.code == 0, old.stderr
    assert "the sided deck: Cyber Dragon is Limited (1) on the 2009-09-01 TCG list" in old.stderr
    assert "the sided deck" not in cli(*args, "-d", "2025-06-01").stderr
