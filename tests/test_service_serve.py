"""``deckcheck serve`` for real: a process on 127.0.0.1 answering over HTTP."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from deckcheck.data.dataset import Dataset
from tests.conftest import start_server, stop_server


@pytest.mark.slow
def test_serve_answers_healthz_and_the_api(live_server: str) -> None:
    health = httpx.get(f"{live_server}/healthz").json()
    assert health["data"]["fingerprint"] == Dataset.active().fingerprint
    # the first search builds the name index: generous on a busy machine (speed is in bench/)
    card = httpx.get(f"{live_server}/v1/cards", params={"q": "灰流うらら"}, timeout=60).json()
    assert card["results"][0]["passcode"] == 14558127
    page = httpx.get(f"{live_server}/")
    assert page.status_code == 200 and "deck builder" in page.text
    spec = httpx.get(f"{live_server}/openapi.json").json()
    assert "/v1/validate" in spec["paths"]
    bad = httpx.post(
        f"{live_server}/v1/validate",
        content=b"{",
        timeout=10,
        headers={"Content-Type": "application/json"},
    )
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad-request"


@pytest.mark.slow
def test_serve_with_two_workers_and_limits_from_options() -> None:
    proc, url = start_server("--workers", "2", "--max-cards", "10", "--cors-origin", "https://a.b")
    try:
        resp = httpx.post(f"{url}/v1/validate", json={"deck": "3 Pot of Greed\n" * 5})
        assert resp.status_code == 422
        assert resp.json()["error"]["detail"] == {"limit": "max_cards", "value": 10}
        health = httpx.get(f"{url}/healthz", headers={"Origin": "https://a.b"})
        assert health.headers["access-control-allow-origin"] == "https://a.b"
    finally:
        stop_server(proc)


@pytest.mark.slow
def test_serve_help_and_bad_settings(cli: Callable[..., Any], cli_proc: Callable[..., Any]) -> None:
    res = cli("serve", "--help")
    assert res.code == 0
    for flag in ("--host", "--port", "--workers", "--cors-origin", "--max-cards"):
        assert flag in res.stdout
    import os
    import subprocess
    import sys

    env = dict(os.environ, DECKCHECK_MAX_CARDS="many")
    done = subprocess.run(
        [sys.executable, "-m", "deckcheck", "serve"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "DECKCHECK_MAX_CARDS" in done.stderr and "Traceback" not in done.stderr


def test_cli_start_does_not_import_fastapi(cli_proc: Callable[..., Any]) -> None:
    import subprocess
    import sys

    code = "import sys, deckcheck.cli; print('fastapi' in sys.modules, 'uvicorn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.slow
def test_serve_on_a_busy_port_or_bad_host_exits_2() -> None:
    import socket
    import subprocess
    import sys

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "deckcheck", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2, done.stderr
    assert f"127.0.0.1:{port}" in done.stderr and "Traceback" not in done.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "deckcheck", "serve", "--host", "no.such.host.invalid"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2 and "cannot listen" in bad.stderr


@pytest.mark.slow
def test_serve_picks_up_an_installed_bundle_on_sighup(tmp_path: Path) -> None:
    import signal
    import time
    from datetime import date

    from deckcheck.data.bundle import write_manifest
    from deckcheck.data.dataset import Dataset
    from deckcheck.data.update import update

    home = tmp_path / "home"
    newer = tmp_path / "newer"
    Dataset.bundled().export(newer)
    write_manifest(newer, date.today())  # newer than the bundled data, not in the future
    fingerprint = Dataset.open(newer).fingerprint
    env = {**os.environ, "DECKCHECK_HOME": str(home)}
    env.pop("DECKCHECK_DATA", None)
    proc, url = start_server(env=env)
    try:
        before = httpx.get(f"{url}/healthz").json()["data"]
        assert before["fingerprint"] == Dataset.bundled().fingerprint
        update(newer, home=home)  # what `deckcheck data update --source DIR` does
        assert httpx.get(f"{url}/healthz").json()["data"] == before  # not before a reload
        proc.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            now = httpx.get(f"{url}/healthz").json()["data"]
            if now["fingerprint"] == fingerprint:
                break
            time.sleep(0.1)
        assert now == {"as_of": date.today().isoformat(), "fingerprint": fingerprint}
        assert proc.poll() is None  # reloaded, not stopped
        card = httpx.get(f"{url}/v1/cards/14558127")
        assert card.status_code == 200 and fingerprint[:16] in card.headers["etag"]
    finally:
        stop_server(proc)
