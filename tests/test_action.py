"""The GitHub Action (action.yml), read and run locally with its steps' commands: its inputs,
pip cache, one validation run with SARIF, paths one per line, region, and the upcoming list's
failures apart from strictness."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.test_deck_repo import EXAMPLE, ROOT, _action, _run_action

LEGAL = ROOT / "examples" / "tcg-legal.ydk"
CYBER_JAR = "34124316"  # Semi-Limited -> Unlimited on the 2025-04-07 TCG list
TTT = "25311006"  # Unlimited -> Limited on the same list


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """A copy of the example deck repository."""
    dest = tmp_path / "deck-repo"
    shutil.copytree(EXAMPLE, dest)
    return dest


def _steps() -> list[dict[str, object]]:
    steps = _action()["runs"]["steps"]  # type: ignore[index]
    assert isinstance(steps, list)
    return steps


def _script() -> str:
    return str(next(s for s in _steps() if s.get("id") == "validate")["run"])


def test_inputs_and_outputs() -> None:
    inputs = _action()["inputs"]
    assert isinstance(inputs, dict)
    names = (
        "paths",
        "config",
        "format",
        "date",
        "region",
        "strict",
        "upcoming",
        "fail-on-upcoming",
        "sarif",
        "working-directory",
        "python-version",
        "cache",
    )
    for name in names:
        assert name in inputs and inputs[name]["description"], name
    assert "one per line" in inputs["paths"]["description"]
    assert inputs["fail-on-upcoming"]["default"] == "never"
    outputs = _action()["outputs"]
    assert isinstance(outputs, dict) and {"exit-code", "upcoming-exit-code"} <= set(outputs)


def test_pip_downloads_are_cached() -> None:
    steps = _steps()
    names = [str(s.get("uses", "")) for s in steps]
    cache = steps[next(i for i, n in enumerate(names) if n.startswith("actions/cache@"))]
    install = next(i for i, s in enumerate(steps) if "pip install" in str(s.get("run", "")))
    assert steps.index(cache) < install  # restored before pip runs
    assert cache["with"]["path"] == "~/.cache/pip"  # type: ignore[index]
    assert "github.action_ref" in str(cache["with"]["key"])  # type: ignore[index]
    assert cache["if"] == "inputs.cache == 'true'"


@pytest.mark.slow
def test_one_validation_run_writes_annotations_and_sarif(repo: Path, tmp_path: Path) -> None:
    assert len(re.findall(r"\bdeckcheck validate\b", _script())) == 1
    shutil.copy(ROOT / "examples" / "problems.ydk", repo / "tcg" / "bad.ydk")
    code, out, summary, outputs = _run_action(repo, tmp_path, sarif="scan.sarif")
    assert code == 1 and "exit-code=1" in outputs
    assert "::error file=tcg/bad.ydk," in out
    sarif = json.loads((repo / "scan.sarif").read_text(encoding="utf-8"))
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in sarif["runs"][0]["results"]
        if r["level"] == "error"
    }
    assert uris == {"tcg/bad.ydk"}
    assert summary.count("### deckcheck") == 1  # one run, one summary


@pytest.mark.slow
def test_paths_are_one_per_line_and_may_hold_spaces(repo: Path, tmp_path: Path) -> None:
    spaced = repo / "my decks"
    spaced.mkdir()
    shutil.copy(LEGAL, spaced / "cyber dragon.ydk")
    shutil.copy(ROOT / "examples" / "problems.ydk", repo / "tcg" / "bad one.ydk")
    code, out, _, _ = _run_action(repo, tmp_path, paths="my decks/cyber dragon.ydk\n\n")
    assert code == 0, out
    assert "1 deck, 1 legal" in out
    code, out, _, _ = _run_action(
        repo, tmp_path, paths="  my decks/cyber dragon.ydk  \r\ntcg/bad one.ydk\n"
    )
    assert code == 1 and "::error file=tcg/bad one.ydk," in out and "2 decks" in out


@pytest.mark.slow
def test_region_reaches_deckcheck(repo: Path, tmp_path: Path) -> None:
    """Summon Limit is Forbidden from 2024-04-15 in North America, 2024-04-22 in Europe."""
    text = (repo / "tcg" / "ash-control.ydk").read_text(encoding="utf-8")
    (repo / "tcg" / "summon-limit.ydk").write_text(
        text.replace("#main\n", "#main\n23516703\n"), encoding="utf-8"
    )
    common = {"paths": "tcg/summon-limit.ydk", "date": "2024-04-18"}
    code, out, _, _ = _run_action(repo, tmp_path, region="na", **common)
    assert code == 1 and "title=forbidden::Summon Limit" in out
    code, out, _, _ = _run_action(repo, tmp_path, region="eu", **common)
    assert code == 0, out
    code, out, _, outputs = _run_action(repo, tmp_path, paths="tcg", region="mars")
    assert code == 2 and "exit-code=2" in outputs


def _deck(folder: Path, swap: str, extra: str = "") -> None:
    """tcg/next.ydk: the legal example with Triple Tactics Talent swapped for ``swap``, and
    ``extra`` copies in place of a Cyber Dragon."""
    text = LEGAL.read_text(encoding="utf-8").replace(f"{TTT}\n", f"{swap}\n", 1)
    if extra:
        text = text.replace("70095154\n", f"{extra}\n", 1)
    (folder / "tcg" / "next.ydk").write_text(text, encoding="utf-8")


@pytest.mark.slow
def test_a_relaxing_list_never_fails_the_job_unless_asked(repo: Path, tmp_path: Path) -> None:
    _deck(repo, CYBER_JAR)
    common = {"paths": "tcg/next.ydk", "date": "2025-03-01"}
    code, out, _, outputs = _run_action(repo, tmp_path, upcoming="true", strict="true", **common)
    assert code == 0, out  # strict is about warnings of the check, not about the next list
    assert "upcoming-exit-code=0" in outputs and "Semi-Limited -> Unlimited" in out
    code, _, _, _ = _run_action(repo, tmp_path, **{"fail-on-upcoming": "illegal"}, **common)
    assert code == 0
    code, _, _, outputs = _run_action(repo, tmp_path, **{"fail-on-upcoming": "changes"}, **common)
    assert code == 1 and "upcoming-exit-code=1" in outputs


@pytest.mark.slow
def test_a_deck_the_next_list_makes_illegal(repo: Path, tmp_path: Path) -> None:
    _deck(repo, TTT, extra=TTT)  # two copies: Limited from 2025-04-07
    common = {"paths": "tcg/next.ydk", "date": "2025-03-01"}
    code, out, _, outputs = _run_action(repo, tmp_path, upcoming="true", **common)
    assert code == 0 and "upcoming-exit-code=1" in outputs, out  # annotated, not failing
    code, _, _, _ = _run_action(repo, tmp_path, **{"fail-on-upcoming": "illegal"}, **common)
    assert code == 1
    code, out, _, outputs = _run_action(repo, tmp_path, **{"fail-on-upcoming": "sometimes"})
    assert code == 2 and "fail-on-upcoming must be" in out
