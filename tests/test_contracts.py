"""The import contracts of ``pyproject.toml`` (one folder per stage, no cycles) hold, and they
catch an import that runs back up a stage."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).with_name("lint-imports")


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [str(LINT), "--no-cache"], cwd=root, env=env, capture_output=True, text=True, check=False
    )


def test_the_layers_hold_and_nothing_imports_in_a_cycle() -> None:
    res = lint(ROOT)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "2 kept, 0 broken" in res.stdout


@pytest.mark.slow
def test_an_import_back_up_a_stage_breaks_the_contract(tmp_path: Path) -> None:
    shutil.copytree(
        ROOT / "deckcheck",
        tmp_path / "deckcheck",
        ignore=shutil.ignore_patterns("__pycache__", "bundled"),
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    report = tmp_path / "deckcheck" / "validation" / "report.py"
    report.write_text(
        report.read_text(encoding="utf-8") + "\nfrom deckcheck.run import batch\n", encoding="utf-8"
    )
    res = lint(tmp_path)
    assert res.returncode == 1
    assert "deckcheck.validation is not allowed to import deckcheck.run" in res.stdout
