"""Quick mode (no deck file) and per-category distributions, through the CLI and the library."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import matplotlib
import pytest
from scipy.stats import hypergeom

from deckcheck.goldfish import Going, GoldfishError, SpecError, simulate_counts

from .test_goldfish_cli import ASH40, DATA, POTS40

Cli = Callable[..., Any]
QUICK = ["--size", "40", "--count", "starter=9", "--count", "brick=6"]


def test_quick_mode_matches_the_closed_form(cli: Cli) -> None:
    res = cli(
        "simulate",
        *QUICK,
        "--when",
        "starter >= 1 and brick == 0",
        "--turns",
        "2",
        "-o",
        "json",
        "--fractions",
    )
    assert res.code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["method"] == "exact" and doc["deck"]["main"] == 40
    assert [c["name"] for c in doc["categories"]] == ["starter", "brick"]
    for fig in doc["conditions"][0]["results"]["first"]:
        d = fig["seen"]
        # brick == 0, minus the hands with neither a brick nor a starter
        want = Fraction(comb(34, d) - comb(25, d), comb(40, d))
        assert Fraction(fig["fraction"]) == want
    assert doc["composition"] == {"first": {}, "second": {}}  # kinds unknown in quick mode


def test_distributions_are_hypergeometric(cli: Cli) -> None:
    res = cli("simulate", *QUICK, "--distribution", "--turns", "3", "-o", "json")
    assert res.code == 0, res.stderr
    doc = json.loads(res.stdout)
    starter = next(d for d in doc["distributions"] if d["name"] == "starter")
    assert starter["copies"] == 9
    for going in ("first", "second"):
        for turn in starter["results"][going]:
            d = turn["seen"]
            ps = [c["p"] for c in turn["counts"]]
            assert len(ps) == min(9, d) + 1
            for k, p in enumerate(ps):
                assert p == pytest.approx(hypergeom.pmf(k, 40, 9, d), abs=1e-12)
    text = cli("simulate", *QUICK, "--distribution").stdout
    assert "P(exactly k) of starter (9 cards), going first:" in text
    assert "1 in 3.9" in text  # P(no starter in 5) = 25.8%


def test_simulated_distributions_with_effects_are_consistent(cli: Cli) -> None:
    res = cli(
        "simulate",
        POTS40,
        "-s",
        str(DATA / "spec-pots.toml"),
        "--distribution",
        "--trials",
        "4000",
        "--seed",
        "2",
        "-o",
        "json",
    )
    assert res.code == 0, res.stderr
    doc = json.loads(res.stdout)
    ash = next(d for d in doc["distributions"] if d["name"] == "ash")
    at_least_one = doc["conditions"][0]["results"]["first"][0]["p"]
    counts = ash["results"]["first"][0]["counts"]
    assert sum(c["p"] for c in counts) == pytest.approx(1)
    # the same games: P(ash >= 1) is exactly 1 - P(ash == 0)
    assert at_least_one == pytest.approx(1 - counts[0]["p"], abs=1e-12)
    assert all(c["ci"] is not None for c in counts)


def test_when_replaces_the_spec_conditions(cli: Cli) -> None:
    res = cli(
        "simulate",
        ASH40,
        "-s",
        str(DATA / "spec-ash.toml"),
        "--when",
        "ash >= 2",
        "-o",
        "json",
        "--fractions",
        "--going",
        "first",
    )
    assert res.code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert [c["name"] for c in doc["conditions"]] == ["ash >= 2"]
    fig = doc["conditions"][0]["results"]["first"][0]
    want = sum(Fraction(comb(3, k) * comb(37, 5 - k), comb(40, 5)) for k in (2, 3))
    assert Fraction(fig["fraction"]) == want


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--size", "40"], "quick mode: --size N and --count"),
        ([ASH40, "--size", "40", "--count", "a=1"], "not both"),
        (["--size", "40", "--count", "a=50"], "more than the deck size 40"),
        (["--size", "40", "--count", "a"], "expected NAME=N"),
        (["--size", "40", "--count", "a=1", "--count", "a=2"], "given twice"),
        (["--size", "40", "--count", "a=5", "--when", "b >= 1"], "unknown category 'b'"),
        ([ASH40, "--when", "ash >= 1"], "--when needs --spec"),
    ],
)
def test_quick_mode_bad_input_exits_2(cli: Cli, args: list[str], fragment: str) -> None:
    res = cli("simulate", *args)
    assert res.code == 2, res.stdout
    assert fragment in res.stderr


def test_library_quick_mode() -> None:
    stats = simulate_counts(40, {"starter": 9, "brick": 6}, {"good": "starter and not brick"})
    est = stats.condition("good").by_going[Going.FIRST][0]
    assert est.fraction == Fraction(comb(34, 5) - comb(25, 5), comb(40, 5))
    with pytest.raises(GoldfishError):
        simulate_counts(0, {"a": 1})
    with pytest.raises(GoldfishError):
        simulate_counts(40, {"a`b": 1})
    with pytest.raises(SpecError):
        simulate_counts(40, {"a": 1}, ["a >="])


@pytest.mark.slow
def test_plot_draws_every_distribution(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "odds.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        res = cli(
            "simulate",
            *QUICK,
            "--count",
            "handtrap=8",
            "--distribution",
            "--turns",
            "3",
            "--plot",
            str(out),
        )
    assert res.code == 0, res.stderr
    svg = out.read_text(encoding="utf-8")
    for name in ("starter", "brick", "handtrap"):
        assert f"{name}: distribution (going first)" in svg
