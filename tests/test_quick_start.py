"""The README's Quick start, run as written in a fresh folder: a new virtual environment, the
light install, the first check. Offline: the venv sees this environment's packages, and pip
installs deckcheck alone (``--no-deps``, no build isolation)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(section: str) -> list[list[str]]:
    text = README.split(f"## {section}", 1)[1].split("\n## ", 1)[0]
    return [
        [line.strip() for line in b.split("```", 1)[0].strip().splitlines()]
        for b in text.split("```sh\n")[1:]
    ]


def _offline(line: str) -> str:
    """A README line made to work without a network (the same commands, fewer downloads)."""
    if line.startswith("python3 -m venv .venv"):
        line = line.replace("python3 -m venv .venv", f"{sys.executable} -m venv .venv", 1)
        # the new venv also sees the packages of the environment running the tests
        site = sysconfig.get_paths()["purelib"]
        pth = (
            "import pathlib, sysconfig; pathlib.Path(sysconfig.get_paths()['purelib'], "
            f"'outer.pth').write_text({site!r})"
        )
        # a networked `pip install .` builds with a current setuptools (pyproject.toml's
        # build-system); offline, the build uses the environment's, so the venv's own old copy
        # (setuptools 65 on Python 3.11, which cannot read an SPDX licence) must not come first
        unbundle = "python -m pip uninstall -q -y setuptools"
        return f'{line} && python -c "{pth}" && {unbundle}'
    if line.startswith("pip install"):
        return line.replace("pip install", "pip install -q --no-deps --no-build-isolation", 1)
    return line


def _repo_copy(tmp_path: Path) -> Path:
    files = (
        subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
        .stdout.decode()
        .split("\0")
    )
    dest = tmp_path / "deckcheck"
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def test_quick_start_says_what_a_fresh_debian_needs() -> None:
    quick, problems, contributors = _blocks("Quick start")
    assert quick == [
        "python3 -m venv .venv && . .venv/bin/activate",
        "pip install .",
        "deckcheck validate examples/tcg-legal.ydk",
    ]
    assert problems == ["deckcheck validate examples/problems.ydk --date 2025-06-01"]
    assert contributors[0] == quick[0]
    assert contributors[1] == "pip install -e '.[dev,service]'"
    assert contributors[2] == "python -m pytest"
    assert "externally-managed-environment" in README and "python3-venv" in README


@pytest.mark.slow
def test_quick_start_runs_in_a_fresh_folder(tmp_path: Path) -> None:
    repo = _repo_copy(tmp_path)
    quick, problems, _ = _blocks("Quick start")
    script = "set -e\n" + "\n".join(_offline(line) for line in quick) + "\n"
    script += "command -v deckcheck\n" + problems[0] + " || echo exit=$?\n"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    here = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if p != here)
    env["PIP_NO_INDEX"] = "1"  # nothing is downloaded
    res = subprocess.run(
        ["bash", "--noprofile", "--norc", "-c", script],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    out = res.stdout.splitlines()
    assert out[0].startswith("LEGAL  examples/tcg-legal.ydk")
    assert str(repo / ".venv" / "bin" / "deckcheck") in out  # the new venv's deckcheck
    assert any(line.startswith("ILLEGAL  examples/problems.ydk") for line in out)
    assert out[-1] == "exit=1"
