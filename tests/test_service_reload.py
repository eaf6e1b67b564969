"""Reloading the data under load: ``deckcheck serve --workers 2``, keep-alive clients, SIGHUP.

No request may be lost, every answer must come from one dataset (``X-Deckcheck-Data``, the same
as its ETag's prefix), every worker logs its reload with both fingerprints, and a failed
reload keeps the old data and shows on ``/healthz``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from datetime import date
from pathlib import Path
from typing import Any

import httpx
import pytest

from deckcheck.data.bundle import write_manifest
from deckcheck.data.dataset import Dataset
from deckcheck.data.update import update
from tests.conftest import start_server

ROOT = Path(__file__).resolve().parent.parent
LEGAL = (ROOT / "examples" / "tcg-legal.ydk").read_text(encoding="utf-8")

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="SIGHUP is Unix only")


def newer_bundle(tmp_path: Path) -> tuple[Path, str]:
    newer = tmp_path / "newer"
    Dataset.bundled().export(newer)
    write_manifest(newer, date.today())  # newer than the bundled data, not in the future
    return newer, Dataset.open(newer).fingerprint


def server_env(home: Path) -> dict[str, str]:
    env = {**os.environ, "DECKCHECK_HOME": str(home)}
    env.pop("DECKCHECK_DATA", None)
    return env


def finish(proc: subprocess.Popen[bytes]) -> str:
    """Stop the server; what it wrote to stderr."""
    proc.terminate()
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate(timeout=20)
    return err.decode(errors="replace")


class Client(threading.Thread):
    """One keep-alive client sending card lookups and deck checks until told to stop."""

    def __init__(self, url: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.stop = stop
        self.answers: list[tuple[int, str, str | None]] = []
        self.failures: list[str] = []

    def run(self) -> None:
        body = {"deck": LEGAL, "date": "2025-06-01"}
        with httpx.Client(base_url=self.url, timeout=30) as c:
            while not self.stop.is_set():
                try:
                    r = c.get("/v1/cards/14558127")
                    self.answers.append(
                        (r.status_code, r.headers["x-deckcheck-data"], r.headers.get("etag"))
                    )
                    r = c.post("/v1/validate", json=body)
                    self.answers.append((r.status_code, r.headers["x-deckcheck-data"], None))
                except Exception as exc:
                    self.failures.append(f"{type(exc).__name__}: {exc}")


@pytest.mark.slow
def test_reload_under_load_loses_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    newer, fingerprint = newer_bundle(tmp_path)
    old = Dataset.bundled().fingerprint
    proc, url = start_server("--workers", "2", "--log-level", "info", env=server_env(home))
    try:
        stop = threading.Event()
        clients = [Client(url, stop) for _ in range(6)]
        for c in clients:
            c.start()
        time.sleep(1.5)
        update(newer, home=home)  # what `deckcheck data update --source DIR` does
        proc.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            recent = [a[1] for c in clients for a in c.answers[-10:]]
            if recent and all(tag == fingerprint[:16] for tag in recent):
                break
            time.sleep(0.2)
        time.sleep(1.0)
        stop.set()
        for c in clients:
            c.join(timeout=30)
    finally:
        log = finish(proc)
    answers = [a for c in clients for a in c.answers]
    assert [f for c in clients for f in c.failures] == []
    assert len(answers) > 100
    assert {status for status, _, _ in answers} == {200}
    assert {tag for _, tag, _ in answers} == {old[:16], fingerprint[:16]}
    for _, tag, etag in answers:
        if etag is not None:
            assert etag.startswith(f'"{tag}-'), (tag, etag)
    for c in clients:  # every client ends on the new data (both workers reloaded)
        assert {tag for _, tag, _ in c.answers[-10:]} == {fingerprint[:16]}
    reloads = [line for line in log.splitlines() if "data reloaded" in line]
    assert len(reloads) == 2, log
    assert all(f"{old[:16]} -> {fingerprint[:16]}" in line for line in reloads)


@pytest.mark.slow
def test_a_failed_reload_is_logged_and_shown(tmp_path: Path) -> None:
    home = tmp_path / "home"
    newer, fingerprint = newer_bundle(tmp_path)
    proc, url = start_server("--log-level", "info", env=server_env(home))
    try:
        before: dict[str, Any] = httpx.get(f"{url}/healthz").json()
        assert before["reload"] == {"status": "none", "at": None, "error": None}
        update(newer, home=home)
        for path in home.rglob("banlists.json"):  # the installed bundle is unusable
            path.write_text("{not json", encoding="utf-8")
        proc.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            now = httpx.get(f"{url}/healthz").json()
            if now["reload"]["status"] != "none":
                break
            time.sleep(0.1)
        assert now["reload"]["status"] == "failed" and now["reload"]["error"]
        assert now["data"] == before["data"]  # still the old data
        card = httpx.get(f"{url}/v1/cards/14558127")
        assert card.status_code == 200
        assert card.headers["x-deckcheck-data"] == before["data"]["fingerprint"][:16]
    finally:
        log = finish(proc)
    assert "data reload failed" in log and fingerprint[:16] not in log
