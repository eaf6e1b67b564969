"""``deckcheck init``: the starter files, pinned to this checkout, and a real pre-commit run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from deckcheck.run.config import load_config
from tests.conftest import ROOT


def _git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
    }
    out = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, env=env, check=True
    )
    return out.stdout.strip()


def _deck_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "decks"
    (repo / "tcg").mkdir(parents=True)
    (repo / "goat").mkdir()
    (repo / "drafts").mkdir()
    shutil.copy(ROOT / "examples" / "tcg-legal.ydk", repo / "tcg" / "cyber.ydk")
    shutil.copy(ROOT / "examples" / "deck-repo" / "goat" / "goat-control.ydk", repo / "goat")
    shutil.copy(ROOT / "examples" / "problems.ydk", repo / "drafts" / "wip.ydk")
    _git(repo, "init", "-q")
    return repo


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deckcheck", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.slow
def test_init_writes_pinned_starter_files(tmp_path: Path) -> None:
    repo = _deck_repo(tmp_path)
    res = _run(
        repo,
        "init",
        "--folder",
        "goat/**=goat",
        "--exclude",
        "drafts/**",
        "--repo",
        "https://github.com/someone/deckcheck",
    )
    assert res.returncode == 0, res.stderr
    head = _git(ROOT, "rev-parse", "HEAD")
    assert f"pinned deckcheck 0.1.0 at {head} (checkout)" in res.stdout
    config = load_config(repo / "deckcheck.toml")
    assert dict(config.settings.folders) == {"goat/**": "goat"}
    pre = yaml.safe_load((repo / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert pre == {
        "repos": [
            {
                "repo": "https://github.com/someone/deckcheck",
                "rev": head,
                "hooks": [{"id": "deckcheck"}],
            }
        ]
    }
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert "deckcheck" in {h["id"] for h in hooks}
    flow = yaml.safe_load((repo / ".github/workflows/deckcheck.yml").read_text(encoding="utf-8"))
    steps = flow["jobs"]["deckcheck"]["steps"]
    assert steps[1] == {"uses": f"someone/deckcheck@{head}", "with": {"upcoming": "true"}}
    # the pinned commit is one this repository has, and it holds the Action
    assert _git(ROOT, "cat-file", "-t", head) == "commit"
    assert _git(ROOT, "cat-file", "-t", f"{head}:action.yml") == "blob"
    # validate passes with the written configuration (drafts excluded, goat as GOAT)
    res = _run(repo, "validate")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "goat-control.ydk  [goat" in res.stdout


def test_init_keeps_existing_files_and_checks_its_flags(
    tmp_path: Path, cli: Callable[..., Any]
) -> None:
    repo = _deck_repo(tmp_path)
    (repo / "deckcheck.toml").write_text('format = "goat"\n', encoding="utf-8")
    res = cli("init", str(repo), "--rev", "v9.9.9")
    assert res.code == 2 and res.stderr.startswith("error: ") and "--force" in res.stderr
    assert not (repo / ".pre-commit-config.yaml").exists()  # nothing written
    assert (repo / "deckcheck.toml").read_text(encoding="utf-8") == 'format = "goat"\n'
    res = cli("init", str(repo), "--rev", "v9.9.9", "--force", "--no-upcoming")
    assert res.code == 0 and "at v9.9.9 (given)" in res.stdout and "replace OWNER" in res.stdout
    flow = (repo / ".github/workflows/deckcheck.yml").read_text(encoding="utf-8")
    assert "OWNER/deckcheck@v9.9.9" in flow and "upcoming" not in flow.split("steps:")[1]
    res = cli("init", str(repo), "--force", "--format", "tcgg")
    assert res.code == 2 and "tcgg" in res.stderr
    res = cli("init", str(repo), "--force", "--folder", "goat")
    assert res.code == 2 and "GLOB=FORMAT" in res.stderr


@pytest.mark.slow
def test_init_then_real_pre_commit(tmp_path: Path) -> None:
    """pre-commit clones this checkout at the pinned commit, installs it and runs the hook."""
    repo = _deck_repo(tmp_path)
    res = _run(
        repo, "init", "--repo", str(ROOT), "--exclude", "drafts/**", "--folder", "goat/**=goat"
    )
    assert res.returncode == 0, res.stderr
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "decks")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    pre_commit = Path(sys.executable).parent / "pre-commit"
    run = subprocess.run(
        [str(pre_commit), "run", "--all-files"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "deckcheck (Yu-Gi-Oh! deck legality)" in run.stdout and "Passed" in run.stdout
    # an illegal deck staged outside drafts/ fails the hook
    shutil.copy(ROOT / "examples" / "problems.ydk", repo / "tcg" / "new.ydk")
    _git(repo, "add", "-A")
    run = subprocess.run(
        [str(pre_commit), "run"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert run.returncode == 1 and "Failed" in run.stdout and "forbidden" in run.stdout


def _pins() -> list[tuple[str, str]]:
    import re

    examples = sorted(p for p in (ROOT / "examples").rglob("*") if p.suffix in (".yml", ".yaml"))
    files = [
        ROOT / "README.md",
        ROOT / "action.yml",
        *sorted((ROOT / "docs").glob("*.md")),
        *examples,
    ]
    pins = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"(?:\brev: *|deckcheck@)\"?([\w.\-]+)", text):
            if m.group(1) not in ("REV",):
                pins.append((path.name, m.group(1)))
    return pins


def test_every_documented_pin_exists() -> None:
    """Docs and examples pin commits this repository has, or release tags its CHANGELOG lists."""
    import re

    pins = _pins()
    assert len(pins) >= 4, pins
    released = set(
        re.findall(
            r"^## (\d+\.\d+\.\d+) ", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M
        )
    )
    for where, rev in pins:
        if re.fullmatch(r"v\d+\.\d+\.\d+", rev):
            assert rev[1:] in released, f"{where}: {rev} is not a release"
        else:
            assert re.fullmatch(r"[0-9a-f]{40}", rev), f"{where}: pin {rev} is not a full commit"
            assert _git(ROOT, "cat-file", "-t", f"{rev}:action.yml") == "blob", where
            assert _git(ROOT, "cat-file", "-t", f"{rev}:.pre-commit-hooks.yaml") == "blob"


def test_pin_falls_back_to_the_release_tag(
    tmp_path: Path, cli: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Outside a git checkout, with no commit recorded by pip: the tag of the version."""
    from deckcheck import __version__
    from deckcheck.run import scaffold

    monkeypatch.setattr(scaffold, "_git", lambda folder, *args: None)
    monkeypatch.setattr(scaffold, "_installed_commit", lambda: None)
    ref = scaffold.pinned_ref()
    assert (ref.rev, ref.kind) == (f"v{__version__}", scaffold.RefKind.RELEASE)
    res = cli("init", str(tmp_path))
    assert res.code == 0 and f"note: v{__version__} is the release tag" in res.stdout
    pre = yaml.safe_load((tmp_path / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert pre["repos"][0]["rev"] == f"v{__version__}"
