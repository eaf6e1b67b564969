"""The example deck repository, the pre-commit hook and the GitHub Action, run for real."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .conftest import ROOT

EXAMPLE = ROOT / "examples" / "deck-repo"
PROBLEMS = ROOT / "examples" / "problems.ydk"
BIN = Path(sys.executable).parent


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """A copy of the example deck repository."""
    dest = tmp_path / "deck-repo"
    shutil.copytree(EXAMPLE, dest)
    return dest


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env.pop("GITHUB_WORKSPACE", None)
    env.update(extra)
    return env


def _hook(hook_id: str = "deckcheck") -> dict[str, object]:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return next(h for h in hooks if h["id"] == hook_id)


def _staged(repo: Path, hook: dict[str, object]) -> list[str]:
    """The files pre-commit would pass to the hook: files matching ``files``, not ``exclude``."""
    files = re.compile(str(hook["files"]))
    exclude = re.compile(str(hook.get("exclude", "^$")))
    return sorted(
        rel
        for rel in (p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_file())
        if files.search(rel) and not exclude.search(rel)
    )


def _run_hook(repo: Path, files: list[str]) -> subprocess.CompletedProcess[str]:
    hook = _hook()
    entry = str(hook["entry"]).split()
    return subprocess.run(
        [*entry, *files], cwd=repo, capture_output=True, text=True, env=_env(), check=False
    )


def test_hook_definition() -> None:
    hook = _hook()
    assert hook["language"] == "python"
    assert str(hook["entry"]).startswith("deckcheck validate")
    files = re.compile(str(hook["files"]))
    for name in ("a.ydk", "b.YDKE", "decks/c.txt"):
        assert files.search(name)
    for name in ("README.md", "deckcheck.toml", "x.ydk.bak"):
        assert not files.search(name)
    exclude = re.compile(str(hook["exclude"]))
    for name in ("requirements.txt", "docs/LICENSE.txt", "requirements-dev.txt", "README.TXT"):
        assert exclude.search(name), name
    for name in ("decks/blue-eyes.txt", "license-to-duel.txt", "tcg/history-deck.ydk"):
        assert not exclude.search(name), name


@pytest.mark.slow
def test_hook_on_the_example_repo_passes(repo: Path) -> None:
    hook = _hook()
    (repo / "requirements.txt").write_text("deckcheck==0.1.0\n", encoding="utf-8")
    staged = _staged(repo, hook)
    assert "drafts/pot-of-greed.txt" in staged  # staged, but excluded by the config
    res = _run_hook(repo, staged)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "pot-of-greed" not in res.stdout
    assert "4 decks: 4 legal, 0 illegal" in res.stdout


@pytest.mark.slow
def test_hook_fails_on_one_illegal_deck_and_names_it(repo: Path) -> None:
    shutil.copy(PROBLEMS, repo / "tcg" / "new-deck.ydk")
    res = _run_hook(repo, _staged(repo, _hook()))
    assert res.returncode == 1
    assert re.search(r"^ILLEGAL\s+tcg/new-deck\.ydk", res.stdout, re.MULTILINE)
    # only the illegal deck staged: the same verdict
    assert _run_hook(repo, ["tcg/new-deck.ydk"]).returncode == 1
    assert _run_hook(repo, ["tcg/cyber-dragon.ydk"]).returncode == 0


def test_upcoming_hook_exists() -> None:
    assert str(_hook("deckcheck-upcoming")["entry"]) == "deckcheck upcoming"


# -- the Action -----------------------------------------------------------------------------------


def _action() -> dict[str, object]:
    doc = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def _run_action(repo: Path, tmp_path: Path, **inputs: str) -> tuple[int, str, str, str]:
    """Run the action's validate step as GitHub would (bash -e, inputs through env)."""
    action = _action()
    defaults = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}  # type: ignore[union-attr]
    values = defaults | inputs
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "validate")  # type: ignore[index]
    env = {}
    for key, expr in step["env"].items():
        name = re.fullmatch(r"\$\{\{ inputs\.([a-z-]+) \}\}", expr)
        assert name, expr
        env[key] = values[name.group(1)]
    summary = tmp_path / "step-summary.md"
    output = tmp_path / "github-output"
    res = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
        env=_env(GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output), **env),
    )
    return (
        res.returncode,
        res.stdout,
        summary.read_text("utf-8") if summary.exists() else "",
        output.read_text("utf-8") if output.exists() else "",
    )


def test_action_installs_its_own_version() -> None:
    action = _action()
    runs = action["runs"]
    assert isinstance(runs, dict) and runs["using"] == "composite"
    install = next(s for s in runs["steps"] if "pip install" in str(s.get("run", "")))
    assert install["env"]["DECKCHECK_SOURCE"] == "${{ github.action_path }}"


@pytest.mark.slow
def test_action_on_the_example_repo(repo: Path, tmp_path: Path) -> None:
    code, out, summary, outputs = _run_action(repo, tmp_path)
    assert code == 0, out
    assert "exit-code=0" in outputs
    assert "| 4 | 4 | 0 | 0 | 0 |" in summary
    shutil.copy(PROBLEMS, repo / "goat" / "bad.ydk")
    code, out, summary, outputs = _run_action(repo, tmp_path, sarif="out.sarif")
    assert code == 1 and "exit-code=1" in outputs
    assert re.search(r"^::error file=goat/bad\.ydk,line=\d+,title=", out, re.MULTILINE)
    assert "| illegal deck | format | errors |" in summary
    assert "| goat/bad.ydk | goat |" in summary
    assert (repo / "out.sarif").is_file()


@pytest.mark.slow
def test_action_warns_about_the_next_list(repo: Path, tmp_path: Path) -> None:
    lines = (ROOT / "examples" / "tcg-legal.ydk").read_text(encoding="utf-8").splitlines()
    swapped = iter(range(2))
    three = [
        ("25311006" if ln.strip() == "70095154" and next(swapped, None) is not None else ln)
        for ln in lines
    ]
    (repo / "tcg" / "three-ttt.ydk").write_text("\n".join(three) + "\n", encoding="utf-8")
    code, out, summary, _ = _run_action(repo, tmp_path, date="2025-03-01", upcoming="true")
    assert code == 0, out  # legal today: the upcoming list only warns
    assert re.search(
        r"^::warning file=tcg/three-ttt\.ydk,line=\d+,title=upcoming-change::from "
        r"2025-04-07",
        out,
        re.MULTILINE,
    )
    assert "### deckcheck upcoming" in summary and "| tcg/three-ttt.ydk | tcg |" in summary
    code, out, _, _ = _run_action(repo, tmp_path, date="2025-03-01", upcoming="true", strict="true")
    assert code == 1


def test_example_workflow_uses_the_action() -> None:
    flow = yaml.safe_load((EXAMPLE / ".github" / "workflows" / "deckcheck.yml").read_text("utf-8"))
    steps = flow["jobs"]["deckcheck"]["steps"]
    uses = [s["uses"] for s in steps if "uses" in s]
    assert any(re.search(r"/deckcheck@[0-9a-f]{40}$", u) for u in uses)  # a commit (test_init)
    inputs = _action()["inputs"]
    for step in steps:
        for key in step.get("with", {}):
            assert key in inputs  # type: ignore[operator]


def test_ci_script_smoke_tests_the_example_repo() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "examples/deck-repo" in script
