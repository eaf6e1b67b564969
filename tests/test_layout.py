"""The stage layout: old flat import paths still work for one release, and give the same modules."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from deckcheck.legacy import MOVED, new_name

PACKAGE = Path(__file__).resolve().parent.parent / "deckcheck"


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_gives_the_new_module_with_a_warning(old: str) -> None:
    code = (
        "import importlib, warnings, sys\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as seen:\n"
        f"    old = importlib.import_module({old!r})\n"
        f"new = importlib.import_module({MOVED[old]!r})\n"
        "assert old is new, (old, new)\n"
        "assert any(issubclass(w.category, DeprecationWarning) for w in seen), seen\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_submodules_of_a_moved_package_follow_it() -> None:
    assert new_name("deckcheck.io.ydk") == "deckcheck.deck.io.ydk"
    assert new_name("deckcheck.format.file") == "deckcheck.rule.format.file"
    assert new_name("deckcheck.formatted") is None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        old = importlib.import_module("deckcheck.banlist.model")
    assert old is importlib.import_module("deckcheck.rule.banlist.model")


def test_no_old_module_file_is_left_beside_the_stages() -> None:
    for old in MOVED:
        rel = old.split(".")[1:]
        assert not (PACKAGE.joinpath(*rel).with_suffix(".py")).exists(), old
        assert not (PACKAGE.joinpath(*rel) / "__init__.py").exists(), old


def test_the_top_level_stays_small() -> None:
    entries = [p.name for p in PACKAGE.iterdir() if p.name != "__pycache__"]
    # 17: boundary.py, the bottom layer of bounded reads and checked arguments (issue 22)
    # 18: event/, the stage of events between the reporters and the front ends (issue 37)
    assert len(entries) <= 18, sorted(entries)
