"""Hostile input 3, the service: the metagame's budget, the data each answer names, workers
that disagree, a failed reload, query parameters beside a JSON batch, budget wording, the
imports a forked child no longer repeats."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.data.dataset import Dataset
from deckcheck.error import DataError
from deckcheck.service import Settings, create_app
from deckcheck.service.state import SUPERVISOR_ENV, WORKERS_ENV, Reloader
from tests.conftest import TEST_DATA
from tests.test_service import LEGAL, Api, error_of

META = TEST_DATA / "meta"


def _meta_decks(n: int) -> list[dict[str, str]]:
    text = (META / "blue-eyes.txt").read_text(encoding="utf-8")
    return [{"name": f"d{i}.txt", "deck": text} for i in range(n)]


def test_meta_runs_within_the_compute_budget() -> None:
    api = Api(create_app(Settings(compute_memory_bytes=1 << 20)))
    err = error_of(api.post("/v1/meta", json={"decks": _meta_decks(200)}), 422, "limit-exceeded")
    assert err["detail"]["limit"] == "compute_memory_bytes"
    assert api.post("/v1/validate", json={"deck": LEGAL}).status_code == 200  # not a budget route


def test_every_answer_names_the_data_it_came_from() -> None:
    api = Api(create_app(Settings(max_body_bytes=1000)))
    tag = Dataset.active().fingerprint[:16]
    answers = [
        api.get("/healthz"),
        api.get("/nowhere"),
        api.post("/v1/validate", json={"deck": LEGAL}),
        api.post("/v1/validate", content=b"x" * 5000),
        api.post("/v1/validate", content=b"{"),
        api.post("/v1/simulate", json={"deck": LEGAL, "trials": 100}),
        api.get("/v1/formats"),
    ]
    for resp in answers:
        assert resp.headers.get("x-deckcheck-data") == tag, (resp.status_code, resp.text[:200])


@pytest.mark.slow
def test_a_json_batch_refuses_query_parameters() -> None:
    api = Api(create_app())
    body = {"decks": [{"name": "a.ydk", "deck": LEGAL}]}
    err = error_of(api.post("/v1/batch?date=garbage", json=body), 422, "bad-input")
    assert "'date'" in err["message"]
    assert api.post("/v1/batch?timeline=tcg", json=body).status_code == 422
    assert api.post("/v1/batch", json=body).status_code == 200


def test_a_failed_reload_does_not_show_the_servers_paths() -> None:
    app = create_app(data=Dataset.active())
    svc = app.state.service
    secret = "/srv/private/deckcheck-home/bundle-x/cards.jsonl"

    def broken() -> Dataset:
        raise DataError(f"{secret}: cannot read card index")

    Reloader(svc.holder, broken).run()
    body = Api(app).get("/healthz").json()
    assert body["reload"]["status"] == "failed"
    assert body["reload"]["error"].startswith("data-error")
    assert "/srv" not in json.dumps(body) and "deckcheck-home" not in json.dumps(body)


def test_healthz_reports_workers_that_serve_different_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WORKERS_ENV, str(tmp_path))
    monkeypatch.setenv(SUPERVISOR_ENV, "1")  # not this process's parent: no signal is sent
    app = create_app(data=Dataset.active())
    svc = app.state.service
    svc.siblings.started(svc.holder.live)  # what a worker does at start-up
    api = Api(app)
    workers = api.get("/healthz").json()["workers"]
    assert workers == {
        "count": 1,
        "consistent": True,
        "fingerprints": [Dataset.active().fingerprint],
    }
    sibling = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        other = {"pid": sibling.pid, "fingerprint": "f" * 64, "as_of": "2026-01-01"}
        (tmp_path / f"{sibling.pid}.json").write_text(json.dumps(other))
        workers = api.get("/healthz").json()["workers"]
        assert workers["count"] == 2 and workers["consistent"] is False
        assert "f" * 64 in workers["fingerprints"]
    finally:
        sibling.kill()
        sibling.wait()
    assert api.get("/healthz").json()["workers"]["consistent"] is True  # a dead one is gone


def test_budget_refusals_say_which_clock() -> None:
    from deckcheck.service.limit import WALL, ComputeLimit

    limit = ComputeLimit(create_app(), Settings(compute_seconds=2), frozenset())
    cpu = json.loads(limit.over("compute_seconds")[1]["body"])["error"]
    wall = json.loads(limit.over(WALL)[1]["body"])["error"]
    assert "CPU time" in cpu["message"] and cpu["detail"]["clock"] == "cpu"
    assert "wall-clock" in wall["message"] and wall["detail"]["clock"] == "wall"
    assert "6 s" in wall["message"] and cpu["detail"]["limit"] == wall["detail"]["limit"]


SIMULATE_ONCE = """
import json, resource, sys
import httpx, asyncio
from deckcheck.service import create_app
app = create_app()
async def go():
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        return await c.post("/v1/simulate", json={"deck": sys.argv[1], "trials": 100})
before = "numpy" in sys.modules
resp = asyncio.run(go())
print(json.dumps({"status": resp.status_code, "before": before, "after": "numpy" in sys.modules,
                  "child_cpu": resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime}))
"""


@pytest.mark.slow
def test_the_worker_imports_numpy_before_forking_a_simulation() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SIMULATE_ONCE, LEGAL],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
        env=dict(os.environ),
    )
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["status"] == 200
    assert got["before"] is False and got["after"] is True  # imported here, not in each child


@pytest.mark.slow
def test_the_same_two_megabyte_batch_is_decided_the_same_way_every_time() -> None:
    api = Api(create_app())
    deck = LEGAL + "\n#" + "x" * (2000 - len(LEGAL)) + "\n"
    raw = json.dumps({"decks": [{"name": f"d{i}.ydk", "deck": deck} for i in range(1000)]})
    assert len(raw) > 2_000_000
    answers = [
        api.post("/v1/batch", content=raw, headers={"content-type": "application/json"})
        for _ in range(3)
    ]
    assert [a.status_code for a in answers] == [200, 200, 200], answers[0].text[:300]
    assert len({json.dumps(a.json()["summary"], sort_keys=True) for a in answers}) == 1


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are Unix processes here")
def test_a_restarted_worker_does_not_leave_the_workers_on_different_data(tmp_path: Path) -> None:
    import signal
    import time

    import httpx

    from deckcheck.data.update import update
    from tests.conftest import start_server, stop_server
    from tests.test_service_reload import newer_bundle, server_env

    home = tmp_path / "home"
    proc, url = start_server("--workers", "2", env=server_env(home), timeout=240)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:  # both workers up and recorded
            old = httpx.get(f"{url}/healthz", timeout=30).json()
            if old["workers"]["count"] == 2:
                break
            time.sleep(1)
        assert old["workers"]["count"] == 2 and old["workers"]["consistent"] is True
        newer, fingerprint = newer_bundle(tmp_path)
        update(newer, home=home)  # installed, but nobody told the server (no SIGHUP)
        rows = subprocess.run(
            ["ps", "-ww", "-o", "pid=,args=", "--ppid", str(proc.pid)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        workers = [int(r.split()[0]) for r in rows if "spawn_main" in r]  # not the tracker
        os.kill(workers[0], signal.SIGKILL)  # a worker dies; the supervisor starts another
        deadline = time.monotonic() + 240
        seen: dict[str, object] = {}
        while time.monotonic() < deadline:
            try:
                seen = httpx.get(f"{url}/healthz", timeout=10).json()["workers"]
            except httpx.HTTPError:
                seen = {}
            if seen.get("fingerprints") == [fingerprint] and seen.get("count") == 2:
                break
            time.sleep(1)
        assert seen.get("fingerprints") == [fingerprint], seen  # every worker on the new data
        assert seen.get("count") == 2
    finally:
        stop_server(proc)
