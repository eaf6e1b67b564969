"""Goldfish specs: the TOML loader, categories, effects and their error messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.card import CardKind
from deckcheck.goldfish import EffectKind, SpecError, load_spec, parse_spec

from .conftest import ROOT, TEST_DATA
from .goldfish_support import ASH, make_deck

DATA = TEST_DATA / "goldfish"


def test_example_spec_loads() -> None:
    spec = load_spec(ROOT / "examples" / "spec-starters.toml")
    assert [c.name for c in spec.categories][:2] == ["cyber_dragon", "starter"]
    assert dict(spec.conditions)["starter_no_brick"].names == {"starter", "brick"}
    assert spec.effects[0].kind is EffectKind.SEARCH and spec.effects[0].target == "cyber_dragon"
    assert spec.category("brick").kinds == (CardKind.TRAP,)


def test_effect_presets() -> None:
    spec = load_spec(DATA / "spec-pots.toml")
    kinds = {e.card: (e.kind, e.count) for e in spec.effects}
    assert kinds["Pot of Greed"] == (EffectKind.DRAW, 2)
    assert kinds["Upstart Goblin"] == (EffectKind.DRAW, 1)
    assert kinds["Pot of Desires"] == (EffectKind.DESIRES, 10)
    assert kinds["Pot of Prosperity"] == (EffectKind.EXCAVATE, 6)
    assert spec.effects[-1].prefer == ("ash",)


def test_category_matching() -> None:
    deck = make_deck([1] * 25)
    spec = load_spec(ROOT / "examples" / "spec-starters.toml")
    by = {c.name: {d.name for d in deck.main if c.matches(d)} for c in spec.categories}
    assert "Cyber Dragon Nachster" in by["cyber_dragon"]  # archetype
    assert "Cyber Emergency" in by["starter"] and "Cyber Emergency" not in by["cyber_dragon"]
    assert by["brick"] == {"Wiretap", "Infinite Impermanence", "Clockwork Night"}  # kind + name
    types = parse_spec({"categories": {"qp": {"types": ["Spell / Quick-Play"]}}})
    assert {d.name for d in deck.main if types.categories[0].matches(d)} == {
        "Called by the Grave",
        "Forbidden Droplet",
    }


def test_no_conditions_means_one_per_category() -> None:
    spec = parse_spec({"categories": {"ash": {"passcodes": [ASH]}, "trap": {"kinds": "Trap"}}})
    assert [name for name, _ in spec.conditions] == ["ash", "trap"]


def _err(tmp_path: Path, text: str) -> str:
    path = tmp_path / "spec.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(path)
    message = str(info.value)
    assert message.startswith(str(path))
    return message


def test_errors(tmp_path: Path) -> None:
    msg = _err(tmp_path, '[categories]\nx = { names = ["Ash Blossm"] }\n')
    assert "categories.x.names[0]: unknown card 'Ash Blossm'" in msg
    assert "did you mean: Ash Blossom & Joyous Spring" in msg
    msg = _err(tmp_path, '[categories]\nx = { kinds = ["Trap"] }\n[conditions]\ng = "x >= 1 an"\n')
    assert "conditions.g: position 8" in msg
    msg = _err(tmp_path, '[categories]\nx = { kinds = ["Trap"] }\n[conditions]\ng = "y >= 1"\n')
    assert "unknown category 'y'" in msg
    assert "invalid TOML" in _err(tmp_path, "[categories\n")
    assert "line 1" in _err(tmp_path, "[categories\n")
    assert "is missing or empty" in _err(tmp_path, "[conditions]\n")
    assert "unknown key(s) nmes" in _err(tmp_path, '[categories]\nx = { nmes = ["a"] }\n')
    assert "not one of Monster" in _err(tmp_path, '[categories]\nx = { kinds = ["Skill"] }\n')
    assert "empty category" in _err(tmp_path, "[categories]\nx = {}\n")
    assert "unknown table(s) setting" in _err(
        tmp_path, '[setting]\n[categories]\nx = {kinds="Trap"}\n'
    )
    base = '[categories]\nx = { kinds = ["Trap"] }\n[[effects]]\n'
    assert "kind: required" in _err(tmp_path, base + 'card = "Ash Blossom & Joyous Spring"\n')
    assert "needs target" in _err(tmp_path, base + 'card = "Sangan"\nkind = "search"\n')
    assert "unknown category 'z'" in _err(
        tmp_path, base + 'card = "Sangan"\nkind = "search"\ntarget = "z"\n'
    )
    assert "count: expected" in _err(tmp_path, base + 'card = "Pot of Greed"\ncount = 0\n')
    assert "not one of draw" in _err(tmp_path, base + 'card = "Pot of Greed"\nkind = "mill"\n')
    assert "listed twice" in _err(
        tmp_path, base + 'card = "Pot of Greed"\n[[effects]]\ncard = "Pot of Greed"\n'
    )
    missing = tmp_path / "nope.toml"
    with pytest.raises(SpecError, match="cannot read spec"):
        load_spec(missing)
