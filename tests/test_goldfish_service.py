"""``POST /v1/simulate``: quick mode, distributions, and the exact engine's budget."""

from __future__ import annotations

import itertools
import time
from fractions import Fraction
from math import comb
from typing import Any

import pytest

from deckcheck.service import Settings, create_app

from .goldfish_support import CODES
from .test_service import LEGAL, Api, api, error_of  # noqa: F401  (api is a fixture)

QUICK = {"size": 40, "counts": {"starter": 9, "brick": 6}, "when": ["starter >= 1 and brick == 0"]}


def _hyper(n: int, deck: int, seen: int, k: int) -> Fraction:
    return Fraction(comb(n, k) * comb(deck - n, seen - k), comb(deck, seen))


@pytest.mark.slow
def test_quick_mode_over_http(api: Api) -> None:  # noqa: F811
    resp = api.post(
        "/v1/simulate", json={"quick": QUICK, "turns": 2, "fractions": True, "distributions": True}
    )
    assert resp.status_code == 200, resp.text
    doc = resp.json()
    assert doc["method"] == "exact" and doc["deck"]["main"] == 40
    fig = doc["conditions"][0]["results"]["first"][0]
    # starter >= 1 and brick == 0 among 5 of 40: brick == 0 minus (starter == 0 and brick == 0)
    want = Fraction(comb(34, 5), comb(40, 5)) - Fraction(comb(25, 5), comb(40, 5))
    assert Fraction(fig["fraction"]) == want
    starter = next(d for d in doc["distributions"] if d["name"] == "starter")
    by_turn2 = starter["results"]["second"][1]
    assert by_turn2["seen"] == 7
    assert [Fraction(c["fraction"]) for c in by_turn2["counts"]] == [
        _hyper(9, 40, 7, k) for k in range(8)
    ]


@pytest.mark.slow
def test_quick_or_deck_but_not_both(api: Api) -> None:  # noqa: F811
    error_of(api.post("/v1/simulate", json={"deck": LEGAL, "quick": QUICK}), 422, "bad-input")
    error_of(api.post("/v1/simulate", json={}), 422, "bad-input")
    bad = dict(QUICK, counts={"starter": 50})
    error_of(api.post("/v1/simulate", json={"quick": bad}), 422, "goldfish-error")
    bad = dict(QUICK, when=["starter >= 1 and hand == 0"])
    error_of(api.post("/v1/simulate", json={"quick": bad}), 422, "bad-spec")


def _big_request() -> dict[str, Any]:
    """40 cards, 15 one-card categories read by every condition, 20 turns."""
    main = CODES[:15] + [
        c for c, n in zip(CODES[15:], [3] * 5 + [2] * 5, strict=True) for _ in range(n)
    ]
    assert len(main) == 40
    names = [f"c{i}" for i in range(15)]
    spec = {
        "categories": {n: {"passcodes": [str(c)]} for n, c in zip(names, CODES, strict=False)},
        "conditions": {
            "any3": " + ".join(names) + " >= 3",
            "pairs": " and ".join(f"{a} + {b} <= 1" for a, b in itertools.pairwise(names)),
            "mixed": " or ".join(
                f"({a} and not {b})" for a, b in zip(names[::2], names[1::2], strict=False)
            ),
        },
    }
    deck = "#main\n" + "".join(f"{c}\n" for c in main) + "#extra\n!side\n"
    return {"deck": deck, "spec": spec, "turns": 20}


@pytest.mark.slow
def test_the_big_request_answers_exactly_and_quickly(api: Api) -> None:  # noqa: F811
    start = time.monotonic()
    resp = api.post("/v1/simulate", json=_big_request())
    assert resp.status_code == 200, resp.text
    doc = resp.json()
    assert doc["method"] == "exact", doc["note"]
    any3 = doc["conditions"][0]["results"]["first"]
    # 15 one-card categories: their sum is one hypergeometric count of 15 cards in 40
    for fig in any3:
        want = sum(_hyper(15, 40, fig["seen"], k) for k in range(3, fig["seen"] + 1))
        assert abs(fig["p"] - float(want)) < 1e-12
    assert time.monotonic() - start < 60  # generous: shared machines; the bench measures


@pytest.mark.slow
def test_over_the_exact_budget(api: Api) -> None:  # noqa: F811
    tight = Api(create_app(Settings(exact_bytes=1000)))
    body = _big_request()
    body["spec"]["conditions"] = {"pairs": body["spec"]["conditions"]["pairs"]}
    auto = tight.post("/v1/simulate", json=dict(body, trials=2000, seed=1)).json()
    assert auto["method"] == "simulation" and "exact odds need" in auto["note"]
    err = error_of(
        tight.post("/v1/simulate", json=dict(body, exact="always")), 422, "goldfish-error"
    )
    assert "exact odds impractical" in err["message"]
