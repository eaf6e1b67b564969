"""``POST /v1/meta`` of the HTTP service: the same breakdown as the library, errors as 4xx."""

from __future__ import annotations

import pytest

from deckcheck.run.meta import analyze
from deckcheck.service import Settings, create_app
from tests.conftest import TEST_DATA
from tests.test_service import Api, error_of

META = TEST_DATA / "meta"
LISTS = ["blue-eyes", "blue-eyes", "labrynth", "salamangreat-snake-eye", "rogue"]


@pytest.fixture(scope="module")
def api() -> Api:
    return Api(create_app(Settings(max_batch_decks=10)))


def _decks() -> list[dict[str, str]]:
    return [
        {"name": f"{n}-{i}.txt", "deck": (META / f"{n}.txt").read_text(encoding="utf-8")}
        for i, n in enumerate(LISTS)
    ]


def test_meta_matches_the_library(api: Api) -> None:
    resp = api.post("/v1/meta", json={"decks": _decks(), "top": 5})
    assert resp.status_code == 200, resp.text
    doc = resp.json()
    assert [(a["label"], a["decks"]) for a in doc["archetypes"]] == [
        ("Blue-Eyes", 2),
        ("Labrynth", 1),
        ("Salamangreat / Snake-Eye", 1),
        ("rogue", 1),
    ]
    lib = analyze([str(META / f"{n}.txt") for n in LISTS], top=5)
    assert [c["name"] for c in doc["most_played"]] == [c.name for c in lib.most_played]
    assert [e["source"] for e in doc["entries"]] == [d["name"] for d in _decks()]


def test_meta_signatures_and_unreadable(api: Api) -> None:
    decks = [*_decks(), {"name": "junk.ydke", "deck": "ydke://%%%!!!"}]
    sig = {"archetypes": {"Chaos": {"cards": ["Blue-Eyes Chaos Dragon"]}}}
    doc = api.post("/v1/meta", json={"decks": decks, "signatures": sig}).json()
    assert doc["archetypes"][0] == {"label": "Chaos", "kind": "archetype", "decks": 2, "share": 0.4}
    assert [u["source"] for u in doc["unreadable"]] == ["junk.ydke"]


def test_meta_bad_requests(api: Api) -> None:
    error_of(api.post("/v1/meta", json={"decks": [], "nope": 1}), 422, "bad-request")
    bad = {"archetypes": {"X": {"cards": ["Pot of Grid"]}}}
    err = error_of(
        api.post("/v1/meta", json={"decks": _decks(), "signatures": bad}), 422, "bad-input"
    )
    assert "Pot of Grid" in err["message"]
    many = {"decks": _decks() * 3}
    error_of(api.post("/v1/meta", json=many), 422, "limit-exceeded")
