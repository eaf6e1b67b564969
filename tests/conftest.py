"""Shared fixtures: the bundled card index, a CLI runner, paths to shared data."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings
from typer.testing import CliRunner

from deckcheck.card import CardIndex
from deckcheck.cli import app

# CI runs the property tests on a fixed sequence of examples, so a red run is reproducible;
# local runs explore new examples each time.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# No test reads or changes the developer's installed data: updates go to an empty folder.
_HOME = tempfile.mkdtemp(prefix="deckcheck-test-home-")
atexit.register(shutil.rmtree, _HOME, True)
os.environ["DECKCHECK_HOME"] = _HOME
for _var in ("DECKCHECK_UPDATE_URL", "DECKCHECK_UPSTREAM_URL", "DECKCHECK_OFFLINE"):
    os.environ.pop(_var, None)

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"
TEST_DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def index() -> CardIndex:
    """The bundled card index."""
    return CardIndex.load()


class CliResult:
    """Exit code and captured output of one CLI run."""

    def __init__(self, code: int, stdout: str, stderr: str) -> None:
        self.code = code
        self.stdout = stdout
        self.stderr = stderr


@pytest.fixture()
def cli() -> Callable[..., CliResult]:
    """Run ``deckcheck ARGS...`` in-process; returns exit code, stdout and stderr."""
    runner = CliRunner()

    def run(*args: str, input: str | bytes | None = None) -> CliResult:
        res = runner.invoke(app, list(args), input=input, catch_exceptions=False)
        return CliResult(res.exit_code, res.stdout, res.stderr)

    return run


@pytest.fixture()
def cli_proc() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``python -m deckcheck ARGS...`` as a real subprocess (for stdin, TTY-free output)."""

    def run(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "deckcheck", *args],
            input=input,
            capture_output=True,
            text=True,
            check=False,
        )

    return run
