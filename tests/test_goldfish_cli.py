"""``deckcheck simulate`` through the in-process CLI runner."""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT, TEST_DATA

DATA = TEST_DATA / "goldfish"
ASH40 = str(DATA / "ash-40.ydk")
POTS40 = str(DATA / "pots-40.ydk")
Cli = Callable[..., Any]


def test_default_report(cli: Cli) -> None:
    res = cli("simulate", ASH40)
    assert res.code == 0, res.stderr
    assert "P(at least 1)" in res.stdout and "going first" in res.stdout
    line = next(x for x in res.stdout.splitlines() if x.startswith("Ash Blossom"))
    assert "33.8%" in line and "39.4%" in line
    assert "Turn 1 hand composition" in res.stdout


def test_json_fractions(cli: Cli) -> None:
    res = cli(
        "simulate",
        ASH40,
        "--spec",
        str(DATA / "spec-ash.toml"),
        "--output",
        "json",
        "--fractions",
        "--turns",
        "2",
        "--going",
        "first",
    )
    assert res.code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["method"] == "exact" and data["going"] == ["first"]
    fig = data["conditions"][0]["results"]["first"][0]
    assert Fraction(fig["fraction"]) == 1 - Fraction(comb(37, 5), comb(40, 5))
    assert fig["turn"] == 1 and fig["seen"] == 5 and fig["ci"] is None
    assert [f["seen"] for f in data["conditions"][0]["results"]["first"]] == [5, 6]


def test_simulation_with_effects(cli: Cli) -> None:
    res = cli(
        "simulate",
        POTS40,
        "-s",
        str(DATA / "spec-pots.toml"),
        "--seed",
        "3",
        "--trials",
        "20000",
        "-o",
        "json",
    )
    assert res.code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["method"] == "simulation" and data["trials"] == 20000 and data["seed"] == 3
    assert "effects" in data["note"]
    fig = data["conditions"][0]["results"]["second"][0]
    assert fig["ci"][0] <= fig["p"] <= fig["ci"][1]
    text = cli(
        "simulate", POTS40, "-s", str(DATA / "spec-pots.toml"), "--seed", "3", "--trials", "2000"
    )
    assert "simulated" in text.stdout and "95% intervals" in text.stdout


def test_exact_always_with_effects_fails(cli: Cli) -> None:
    res = cli("simulate", POTS40, "-s", str(DATA / "spec-pots.toml"), "--exact", "always")
    assert res.code == 2 and "effects" in res.stderr


def test_formats(cli: Cli) -> None:
    speed = json.loads(cli("simulate", ASH40, "--format", "speed", "-o", "json").stdout)
    assert speed["seen"]["first"] == [4]
    old = cli("simulate", ASH40, "--date", "2010-06-01", "-o", "json", "--turns", "2")
    assert json.loads(old.stdout)["seen"]["first"] == [6, 7]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["tests/nowhere.ydk"], "cannot read"),
        ([ASH40, "--spec", "nowhere.toml"], "nowhere.toml: cannot read spec"),
        ([ASH40, "--date", "yesterday"], "bad date"),
        ([ASH40, "--plot", "out.pdf"], "must end in .png or .svg"),
    ],
)
def test_bad_input_exits_2(cli: Cli, args: list[str], fragment: str) -> None:
    res = cli("simulate", *args)
    assert res.code == 2
    assert fragment in res.stderr


def test_bad_spec_names_file_and_position(cli: Cli, tmp_path: Path) -> None:
    spec = tmp_path / "bad.toml"
    spec.write_text(
        '[categories]\nash = { names = ["Ash Blossom & Joyous Spring"] }\n'
        '[conditions]\ngood = "ash >= 1 && ash"\n',
        encoding="utf-8",
    )
    res = cli("simulate", ASH40, "--spec", str(spec))
    assert res.code == 2
    assert str(spec) in res.stderr and "conditions.good: position 10" in res.stderr


@pytest.mark.slow
def test_plot(cli: Cli, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    for name in ("odds.png", "odds.svg"):
        out = tmp_path / name
        res = cli(
            "simulate", ASH40, "-s", str(DATA / "spec-ash.toml"), "--turns", "3", "--plot", str(out)
        )
        assert res.code == 0, res.stderr
        assert out.stat().st_size > 1000


def test_plot_without_matplotlib(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def fake_import(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    res = cli("simulate", ASH40, "--plot", str(tmp_path / "x.png"))
    assert res.code == 2
    assert "pip install 'deckcheck[plot]'" in res.stderr


def test_example_runs(cli: Cli) -> None:
    deck = str(ROOT / "examples" / "tcg-legal.ydk")
    spec = str(ROOT / "examples" / "spec-starters.toml")
    res = cli("simulate", deck, "--spec", spec, "--trials", "5000", "--seed", "1")
    assert res.code == 0, res.stderr
    assert "starter_and_handtrap" in res.stdout
