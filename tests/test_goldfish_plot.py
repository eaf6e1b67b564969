"""Goldfish plots: every condition is drawn (more panels for more conditions)."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib
import pytest

from deckcheck.goldfish import parse_spec, simulate
from deckcheck.reporter.plot import plot_stats

from .goldfish_support import CODES, make_deck


def _svg_text(stats: object, path: Path) -> str:
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # text as <text>, readable
        plot_stats(stats, path)  # type: ignore[arg-type]
    return path.read_text(encoding="utf-8")


@pytest.mark.slow
def test_every_condition_of_many_is_drawn(tmp_path: Path) -> None:
    deck = make_deck([2] * 20)
    cats = {f"k{i:02d}": {"passcodes": [str(CODES[i])]} for i in range(20)}
    conds = {f"cond{i:02d}": f"k{i:02d} >= 1" for i in range(20)}
    conds |= {f"pair{i:02d}": f"k{i:02d} + k{i + 1:02d} >= 2" for i in range(5)}
    stats = simulate(deck, parse_spec({"categories": cats, "conditions": conds}), turns=2)
    svg = _svg_text(stats, tmp_path / "odds.svg")
    for name in conds:
        assert re.search(rf">\s*{name}\s*<", svg), name
    assert "(3/3)" in svg  # three panels of at most ten conditions
    assert "not drawn" not in svg


@pytest.mark.slow
def test_a_note_names_conditions_past_the_last_panel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import deckcheck.reporter.plot as plot

    monkeypatch.setattr(plot, "MAX_PANELS", 1)
    deck = make_deck([2] * 20)
    cats = {f"k{i:02d}": {"passcodes": [str(CODES[i])]} for i in range(12)}
    stats = simulate(deck, parse_spec({"categories": cats}))
    svg = _svg_text(stats, tmp_path / "odds.svg")
    assert "2 more conditions not drawn" in svg
