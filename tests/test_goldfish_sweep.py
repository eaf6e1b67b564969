"""Ratio sweeps (``--vary``) and comparisons (``--vs``), against closed forms and an exact
Markov chain of a search policy, through the library, the CLI and HTTP."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import matplotlib
import pytest

from deckcheck.goldfish import (
    DrawRules,
    Going,
    GoldfishError,
    Method,
    parse_spec,
    sweep,
    sweep_counts,
)

from .goldfish_support import ASH, UPSTART_GOBLIN, make_deck
from .test_goldfish_cli import ASH40, DATA
from .test_goldfish_effects import FILLER, _search_chain
from .test_service import LEGAL, Api, api, error_of  # noqa: F401  (api is a fixture)

Cli = Callable[..., Any]
GOOD = "starter >= 1 and brick == 0"


def _good(starters: int, bricks: int, seen: int, deck: int = 40) -> Fraction:
    """P(at least 1 starter and no brick): no brick, minus neither."""
    return Fraction(
        comb(deck - bricks, seen) - comb(deck - bricks - starters, seen), comb(deck, seen)
    )


def test_quick_sweep_ranks_every_ratio_exactly() -> None:
    stats = sweep_counts(
        40,
        {"starter": 8, "brick": 4, "handtrap": 9},
        ["starter=6..10", "brick=0..4"],
        [GOOD, "handtrap >= 1"],
        turns=3,
    )
    assert stats.method is Method.EXACT and len(stats.rows) == 25 and not stats.skipped
    seen = {g: DrawRules().seen(g, 3)[-1] for g in (Going.FIRST, Going.SECOND)}
    for row in stats.rows:
        s, b = dict(row.values)["starter"], dict(row.values)["brick"]
        assert row.filler == 40 - 9 - s - b
        for g in (Going.FIRST, Going.SECOND):
            assert row.figures[GOOD][g].fraction == _good(s, b, seen[g])
            want = 1 - Fraction(comb(31, seen[g]), comb(40, seen[g]))
            assert row.figures["handtrap >= 1"][g].fraction == want
    ps = [r.figures[GOOD][Going.FIRST].probability for r in stats.rows]
    assert ps == sorted(ps, reverse=True)
    assert dict(stats.rows[0].values) == {"starter": 10, "brick": 0}


@pytest.mark.slow
def test_deck_sweep_of_a_card_and_a_category(cli: Cli) -> None:
    res = cli(
        "simulate",
        ASH40,
        "-s",
        str(DATA / "spec-ash.toml"),
        "--vary",
        "Ash Blossom & Joyous Spring=0..3",
        "--vary",
        "trap=0..2",
        "-o",
        "json",
        "--fractions",
        "--by",
        "ash_no_trap",
        "--going",
        "first",
    )
    assert res.code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["deck"]["main"] == 40 and doc["method"] == "exact" and len(doc["rows"]) == 12
    for row in doc["rows"]:
        a, t = row["values"]["Ash Blossom & Joyous Spring"], row["values"]["trap"]
        assert row["filler"] == 19 + (3 - a) + (2 - t)  # 16 machines stay
        ash = Fraction(row["results"]["ash"]["first"]["fraction"])
        assert ash == 1 - Fraction(comb(40 - a, 5), comb(40, 5))
        both = Fraction(row["results"]["ash_no_trap"]["first"]["fraction"])
        assert both == _good(a, t, 5)
    text = cli("simulate", ASH40, "-s", str(DATA / "spec-ash.toml"), "--vary", "trap=0..2")
    assert text.code == 0 and "ranked by ash, going first, by turn 1" in text.stdout


def test_a_sweep_of_searchers_agrees_with_the_exact_chain() -> None:
    """Simulated (a searcher is an effect): within the stated 95% intervals of the chain."""
    codes = [ASH, FILLER[0], UPSTART_GOBLIN, *FILLER[1:12]]
    deck = make_deck([3, 3, 3] + [3] * 10 + [1], codes)
    spec = parse_spec(
        {
            "categories": {"starter": {"passcodes": [str(ASH), str(FILLER[0])]}},
            "conditions": {"two": "starter >= 2"},
            "effects": [{"card": str(UPSTART_GOBLIN), "kind": "search", "target": "starter"}],
        }
    )
    trials = 40_000
    stats = sweep(
        deck, spec, {"Upstart Goblin": [0, 1, 2, 3]}, going="first", turns=3, trials=trials, seed=8
    )
    assert stats.method is Method.SIMULATION and len(stats.rows) == 4
    draws = DrawRules().draws(Going.FIRST, 3)
    outside = 0
    for row in stats.rows:
        x = dict(row.values)["Upstart Goblin"]
        chain = _search_chain(6, x, 34 - x, 5, draws)[-1]
        p = float(sum(q for k, q in chain.items() if k >= 2))
        est = row.figures["two"][Going.FIRST]
        assert est.low is not None and est.high is not None
        outside += not est.low <= p <= est.high
        assert abs(est.probability - p) <= 4.5 * math.sqrt(p * (1 - p) / trials), x
    assert outside <= 1
    ranked = [dict(r.values)["Upstart Goblin"] for r in stats.rows]
    assert ranked == [3, 2, 1, 0]


@pytest.mark.parametrize(
    ("vary", "fragment"),
    [
        (["starter=3..1"], "a <= b"),
        (["starter"], "expected NAME=a..b"),
        (["nothing=1..2"], "neither a card of the deck nor a category"),
        (["starter=0..20", "brick=0..20"], "combinations; at most"),
        (["starter=1..2", "starter=3"], "varied twice"),
    ],
)
def test_bad_sweeps(vary: list[str], fragment: str) -> None:
    with pytest.raises(GoldfishError, match=fragment):
        sweep_counts(40, {"starter": 8, "brick": 4}, vary)


@pytest.mark.slow
def test_infeasible_combinations_are_skipped_and_said(cli: Cli) -> None:
    res = cli(
        "simulate",
        "--size",
        "20",
        "--count",
        "starter=8",
        "--count",
        "brick=8",
        "--vary",
        "starter=8..14",
    )
    assert res.code == 0, res.stderr
    assert "2 combinations skipped: the filler would go below 0" in res.stdout
    res = cli(
        "simulate",
        "--size",
        "40",
        "--count",
        "starter=8",
        "--vary",
        "starter=1..2",
        "--by",
        "nothing",
    )
    assert res.code == 2 and "no condition 'nothing' to rank by" in res.stderr


@pytest.mark.slow
def test_sweep_plot(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "sweep.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        res = cli(
            "simulate",
            "--size",
            "40",
            "--count",
            "starter=8",
            "--count",
            "brick=4",
            "--when",
            GOOD,
            "--vary",
            "starter=6..8",
            "--vary",
            "brick=0..1",
            "--plot",
            str(out),
        )
    assert res.code == 0, res.stderr
    svg = out.read_text(encoding="utf-8")
    assert "starter=8, brick=0" in svg and "Ratio sweep, ranked by" in svg


@pytest.mark.slow
def test_sweep_over_http(api: Api) -> None:  # noqa: F811
    body = {
        "quick": {"size": 40, "counts": {"starter": 8, "brick": 4}, "when": [GOOD]},
        "vary": {"starter": [6, 8], "brick": [0, 2]},
        "going": "first",
        "fractions": True,
    }
    resp = api.post("/v1/simulate/sweep", json=body)
    assert resp.status_code == 200, resp.text
    doc = resp.json()
    assert doc["rows"][0]["values"] == {"starter": 8, "brick": 0}
    for r in doc["rows"]:
        want = _good(r["values"]["starter"], r["values"]["brick"], 5)
        assert Fraction(r["results"][GOOD]["first"]["fraction"]) == want
    spec = {"categories": {"cyber": {"names": ["Cyber Dragon"]}}}
    deck = api.post(
        "/v1/simulate/sweep", json={"deck": LEGAL, "spec": spec, "vary": ["Cyber Dragon=1..3"]}
    )
    assert deck.status_code == 200, deck.text
    assert len(deck.json()["rows"]) == 3
    error_of(api.post("/v1/simulate/sweep", json=dict(body, vary=["x"])), 422, "goldfish-error")
    openapi = api.get("/openapi.json").json()
    op = openapi["paths"]["/v1/simulate/sweep"]["post"]
    ok = op["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/SweepDocument"}


# --- comparisons ------------------------------------------------------------------------------


@pytest.mark.slow
def test_quick_comparison_gives_exact_differences(cli: Cli) -> None:
    res = cli(
        "simulate",
        "--size",
        "40",
        "--count",
        "starter=8",
        "--count",
        "brick=4",
        "--when",
        GOOD,
        "--vs",
        "starter=10,brick=3",
        "--turns",
        "2",
        "-o",
        "json",
        "--fractions",
    )
    assert res.code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert {c["name"]: (c["a"], c["b"]) for c in doc["categories"]} == {
        "starter": (8, 10),
        "brick": (4, 3),
    }
    assert len(doc["differences"]) == 4
    for d in doc["differences"]:
        seen = DrawRules().seen(Going(d["going"]), 2)[d["turn"] - 1]
        assert Fraction(d["fraction"]) == _good(10, 3, seen) - _good(8, 4, seen)
        assert d["ci"] is None
    text = cli(
        "simulate",
        "--size",
        "40",
        "--count",
        "starter=8",
        "--when",
        "starter >= 1",
        "--vs",
        "starter=10",
    ).stdout
    assert "categories: starter 8 -> 10" in text and "B - A" in text


@pytest.mark.slow
def test_comparing_two_specs_and_two_decks(cli: Cli, tmp_path: Path) -> None:
    other = tmp_path / "other.toml"
    other.write_text(
        '[categories]\nash = { names = ["Ash Blossom & Joyous Spring"] }\n'
        '[conditions]\nash = "ash >= 2"\nnew = "ash == 0"\n'
    )
    res = cli(
        "simulate",
        ASH40,
        "-s",
        str(DATA / "spec-ash.toml"),
        "--vs",
        str(other),
        "-o",
        "json",
        "--going",
        "first",
    )
    assert res.code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["only_a"] == ["ash_no_trap"] and doc["only_b"] == ["new"]
    (d,) = doc["differences"]
    want = sum(Fraction(comb(3, k) * comb(37, 5 - k), comb(40, 5)) for k in (2, 3))
    assert d["b"] == pytest.approx(float(want)) and d["diff"] == pytest.approx(d["b"] - d["a"])
    pots = str(DATA / "pots-40.ydk")
    res = cli(
        "simulate",
        ASH40,
        "-s",
        str(DATA / "spec-pots.toml"),
        "--vs",
        pots,
        "--trials",
        "20000",
        "--seed",
        "4",
        "-o",
        "json",
    )
    assert res.code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["a"]["method"] == "exact" and doc["b"]["method"] == "simulation"
    for d in doc["differences"]:
        low, high = d["ci"]
        assert low < d["diff"] < high and d["diff"] > 0  # the pots dig for Ash


VARY_SPEC = """
[categories]
ash = { names = ["Ash Blossom & Joyous Spring"] }
trap = { kinds = ["Trap"] }
[conditions]
ash_no_trap = "ash and not trap"
[vary]
"Ash Blossom & Joyous Spring" = "1..3"
trap = [0, 2]
"""


@pytest.mark.slow
def test_a_vary_table_in_the_spec_makes_a_sweep(cli: Cli, api: Api, tmp_path: Path) -> None:  # noqa: F811
    spec = tmp_path / "vary.toml"
    spec.write_text(VARY_SPEC, encoding="utf-8")
    res = cli("simulate", ASH40, "-s", str(spec), "-o", "json", "--fractions", "--going", "first")
    assert res.code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert [v["name"] for v in doc["vary"]] == ["Ash Blossom & Joyous Spring", "trap"]
    assert len(doc["rows"]) == 6
    for row in doc["rows"]:
        a, t = row["values"]["Ash Blossom & Joyous Spring"], row["values"]["trap"]
        assert Fraction(row["results"]["ash_no_trap"]["first"]["fraction"]) == _good(a, t, 5)
    deck = (Path(ASH40)).read_text(encoding="utf-8")
    over_http = api.post(
        "/v1/simulate/sweep", json={"deck": deck, "spec": VARY_SPEC, "going": "first"}
    ).json()
    assert [r["values"] for r in over_http["rows"]] == [r["values"] for r in doc["rows"]]
    spec.write_text(VARY_SPEC.replace('"1..3"', '"3..1"'), encoding="utf-8")
    bad = cli("simulate", ASH40, "-s", str(spec))
    assert bad.code == 2 and "vary.Ash Blossom & Joyous Spring" in bad.stderr
