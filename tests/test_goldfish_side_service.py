"""``POST /v1/simulate/side``: games two and three over HTTP, with the example deck and plan.

Figures are checked against hypergeometric counts computed here, and the answer against the
CLI's ``simulate --side -o json`` (one document for both faces).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

import pytest

from deckcheck.service import Settings, create_app

from .conftest import ROOT
from .test_service import LEGAL, Api, api, error_of  # noqa: F401  (api is a fixture)

EXAMPLES = ROOT / "examples"
PLAN = (EXAMPLES / "side-plan.toml").read_text(encoding="utf-8")


def _side(api: Api, **body: Any) -> Any:  # noqa: F811
    return api.post("/v1/simulate/side", json={"deck": LEGAL, "plan": PLAN, **body})


def _p_at_least_one(copies: int, deck: int, seen: int) -> Fraction:
    return 1 - Fraction(math.comb(deck - copies, seen), math.comb(deck, seen))


def test_side_route_answers_games_two_and_three(api: Api) -> None:  # noqa: F811
    resp = _side(api, turns=2, fractions=True)
    assert resp.status_code == 200, resp.text
    doc = resp.json()
    assert [(c["name"], c["copies"]) for c in doc["plan"]["in"]] == [
        ("Cosmic Cyclone", 2),
        ("Dark Ruler No More", 1),
    ]
    assert [(c["name"], c["copies"]) for c in doc["plan"]["out"]] == [
        ("Clockwork Night", 2),
        ("Sales Ban", 1),
    ]
    cmp = doc["comparison"]
    assert cmp["labels"] == {"a": "game 1", "b": "games 2 and 3"}
    assert "Cosmic Cyclone" in cmp["only_b"] and "Sales Ban" in cmp["only_a"]
    side = {c["name"]: c for c in doc["side_cards"]["conditions"]}
    assert set(side) == {"Cosmic Cyclone", "Dark Ruler No More", "any side card"}
    for name, copies in (("Cosmic Cyclone", 2), ("Dark Ruler No More", 1), ("any side card", 3)):
        for going, seens in (("first", (5, 6)), ("second", (6, 7))):
            figs = side[name]["results"][going]
            assert [Fraction(f["fraction"]) for f in figs] == [
                _p_at_least_one(copies, 40, s) for s in seens
            ]


def test_side_route_matches_the_cli_json(api: Api, cli) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    spec = EXAMPLES / "spec-starters.toml"
    res = cli(
        "simulate",
        str(EXAMPLES / "tcg-legal.ydk"),
        "-s",
        str(spec),
        "--side",
        str(EXAMPLES / "side-plan.toml"),
        "-t",
        "2",
        "-n",
        "20000",
        "--seed",
        "7",
        "-o",
        "json",
    )
    assert res.code == 0, res.stderr
    want = json.loads(res.stdout)
    # the spec's card effects are simulated: one seed, the same games on both faces
    resp = _side(api, spec=spec.read_text(encoding="utf-8"), turns=2, trials=20000, seed=7)
    assert resp.status_code == 200, resp.text
    got = resp.json()
    for key in ("plan", "comparison", "side_cards", "warnings"):
        assert got[key] == want[key], key


def test_side_route_takes_the_plan_as_an_object(api: Api) -> None:  # noqa: F811
    text = _side(api).json()
    obj = _side(
        api,
        plan={
            "in": ["2 Cosmic Cyclone", "1 Dark Ruler No More"],
            "out": "2 Clockwork Night, 1 Sales Ban",
        },
    ).json()
    assert obj == text


@pytest.mark.slow
def test_bad_plans_are_clear_422s(api: Api) -> None:  # noqa: F811
    err = error_of(
        _side(api, plan="in:\n3 Cosmic Cyclone\nout:\n1 Sales Ban\n"), 422, "bad-side-plan"
    )
    codes = {p["code"] for p in err["detail"]["problems"]}
    assert codes == {"side-unbalanced", "side-not-in-side", "side-size-changed"}
    assert "cannot be applied" in err["message"]
    err = error_of(
        _side(api, plan="in:\n1 Cosmic Cyclonne Typo\nout:\n1 Sales Ban\n"), 422, "bad-side-plan"
    )
    assert err["message"].startswith("plan: line 2")
    assert err["detail"]["cause"]["code"] == "unknown-card"
    assert err["detail"]["cause"]["detail"]["query"] == "Cosmic Cyclonne Typo"
    err = error_of(
        _side(api, plan={"in": ["1 Cosmic Cyclone"], "sideways": "x"}), 422, "bad-side-plan"
    )
    assert "sideways" in err["message"]
    error_of(_side(api, plan="   "), 422, "bad-side-plan")
    error_of(_side(api, plan="3 Cosmic Cyclone\n"), 422, "bad-side-plan")  # before a heading
    error_of(api.post("/v1/simulate/side", json={"deck": LEGAL}), 422, "bad-request")
    quick = {"size": 40, "counts": {"s": 9}}
    error_of(_side(api, quick=quick), 422, "bad-request")  # quick mode has no Side Deck


@pytest.mark.slow
def test_side_route_keeps_the_simulate_budgets(api: Api) -> None:  # noqa: F811
    capped = Api(create_app(Settings(max_trials=1000)))
    err = error_of(_side(capped, trials=5000), 422, "limit-exceeded")
    assert err["detail"] == {"limit": "max_trials", "value": 1000}
    slow = Api(create_app(Settings(simulation_seconds=0.001, max_trials=10_000_000)))
    err = error_of(_side(slow, exact="never", trials=10_000_000, seed=1), 422, "limit-exceeded")
    assert "simulation" in err["message"] and err["detail"]["limit"] == "simulation_seconds"
    sim = _side(api, exact="never", trials=3000, seed=2).json()
    assert sim["comparison"]["a"]["method"] == "simulation"
    assert sim["comparison"]["paired"] is True  # one seed: both runs paired, as on the CLI
