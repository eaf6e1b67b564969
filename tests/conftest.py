"""Shared fixtures: the bundled card index, a CLI runner, paths to shared data."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from typer.testing import CliRunner

from deckcheck.card import CardIndex
from deckcheck.cli import app
from deckcheck.data.dataset import Dataset

# CI runs the property tests on a fixed sequence of examples, so a red run is reproducible;
# local runs explore new examples each time.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# No test reads or changes the developer's installed data: updates go to an empty folder.
_HOME = tempfile.mkdtemp(prefix="deckcheck-test-home-")
atexit.register(shutil.rmtree, _HOME, True)
os.environ["DECKCHECK_HOME"] = _HOME
# Output is English unless a test asks for a language (the locale would pick one otherwise).
os.environ["DECKCHECK_LANG"] = "en"
for _var in (
    "DECKCHECK_UPDATE_URL",
    "DECKCHECK_UPSTREAM_URL",
    "DECKCHECK_OFFLINE",
    "DECKCHECK_BUNDLE_URL",
    "DECKCHECK_MAX_AGE_DAYS",
):
    os.environ.pop(_var, None)

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("DECKCHECK_SHARED_DATA") or ROOT.parent / "shared" / "data")
"""The shared source data (``DECKCHECK_SHARED_DATA``, default ``../shared/data``)."""
TEST_DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def index() -> CardIndex:
    """The bundled card index."""
    return Dataset.active().cards


class CliResult:
    """Exit code and captured output of one CLI run."""

    def __init__(self, code: int, stdout: str, stderr: str) -> None:
        self.code = code
        self.stdout = stdout
        self.stderr = stderr


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty data folder of this test only, online, with no update URL set (the active
    dataset follows it: the bundled data until something is installed)."""
    from deckcheck.data.dataset import Dataset

    folder = tmp_path / "home"
    monkeypatch.setenv("DECKCHECK_HOME", str(folder))
    monkeypatch.delenv("DECKCHECK_OFFLINE", raising=False)
    monkeypatch.delenv("DECKCHECK_UPDATE_URL", raising=False)
    Dataset.reload_active()
    yield folder
    monkeypatch.undo()
    Dataset.reload_active()


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


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(
    *args: str, timeout: float = 60.0, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``deckcheck serve ARGS`` on a free port of 127.0.0.1; wait until /healthz answers."""
    import time

    import httpx

    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "deckcheck",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
            *args,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            raise RuntimeError(f"deckcheck serve exited with {proc.returncode}: {err}")
        try:
            if httpx.get(f"{url}/healthz", timeout=1.0).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    stop_server(proc)
    raise RuntimeError(f"deckcheck serve did not answer on {url} within {timeout} s")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server started by :func:`start_server` (SIGTERM, then SIGKILL)."""
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=15)
    if proc.stderr:
        proc.stderr.close()


@pytest.fixture(scope="module")
def live_server() -> Iterator[str]:
    """A real ``deckcheck serve`` on a free port of 127.0.0.1; yields its base URL."""
    proc, url = start_server()
    try:
        yield url
    finally:
        stop_server(proc)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of a ``*_browser.py`` file is a ``browser`` test (``-m 'not browser'``)."""
    for item in items:
        if item.path.name.endswith("_browser.py"):
            item.add_marker(pytest.mark.browser)
