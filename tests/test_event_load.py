"""Events under load and faults, against a real ``deckcheck serve`` on 127.0.0.1, on SQLite and
PostgreSQL: 200 concurrent submissions and then 200 concurrent edits (with racing duplicates)
lose and duplicate nothing; a server killed with SIGKILL in the middle of submissions keeps,
after a restart, every submission it acknowledged, intact."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import start_server, stop_server
from tests.event_support import BACKENDS, ILLEGAL, deck_for, fresh_database

ADMIN = "load-test-admin-token"
PLAYERS = 200
RACERS = 20
"""Players whose first submission is sent twice at once (exactly one may win)."""
THREADS = 40


def _env(url: str) -> dict[str, str]:
    return {**os.environ, "DECKCHECK_DATABASE_URL": url, "DECKCHECK_ADMIN_TOKEN": ADMIN}


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from fresh_database(request.param, tmp_path)


def _create(base: str) -> dict[str, Any]:
    body = {
        "name": "Load",
        "format": "tcg",
        "date": "2025-06-01",
        "deadline": "2099-01-01T00:00:00Z",
    }
    r = httpx.post(
        f"{base}/v1/events", json=body, headers={"Authorization": f"Bearer {ADMIN}"}, timeout=30
    )
    assert r.status_code == 201, r.text
    got: dict[str, Any] = r.json()
    return got


def _decks(base: str, ev: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every stored registration with its deck, by player id (the organiser's view)."""
    r = httpx.get(
        f"{base}/v1/events/{ev['id']}/decklists",
        timeout=60,
        headers={"Authorization": f"Bearer {ev['organiser_token']}"},
    )
    assert r.status_code == 200, r.text
    rows = r.json()["decklists"]
    by_id = {d["player_id"]: d for d in rows}
    assert len(by_id) == len(rows), "a player id is stored twice"
    return by_id


@pytest.mark.slow
def test_200_concurrent_submissions_and_edits_lose_and_duplicate_nothing(database: str) -> None:
    proc, base = start_server("--workers", "2", env=_env(database))
    try:
        ev = _create(base)
        org = {"Authorization": f"Bearer {ev['organiser_token']}"}
        client = httpx.Client(timeout=120, limits=httpx.Limits(max_connections=THREADS))

        def submit(n: int) -> tuple[int, int, dict[str, Any]]:
            r = client.post(
                f"{base}/v1/events/{ev['id']}/registrations",
                json={"player": f"Player {n}", "player_id": f"P{n:03d}", "deck": deck_for(n)},
            )
            return n, r.status_code, r.json()

        jobs = list(range(PLAYERS)) + list(range(RACERS))
        with ThreadPoolExecutor(THREADS) as pool:
            answers = list(pool.map(submit, jobs))
        won = {n: doc for n, status, doc in answers if status == 201}
        refused = [(n, status, doc) for n, status, doc in answers if status != 201]
        assert sorted(won) == list(range(PLAYERS))  # every player exactly once...
        assert len(refused) == RACERS  # ... and each racing duplicate refused with 409
        assert all(s == 409 and d["error"]["code"] == "already-registered" for _, s, d in refused)

        def edit(n: int) -> tuple[int, int, dict[str, Any]]:
            deck = ILLEGAL if n % 10 == 0 else deck_for(n + 37)
            r = client.put(
                f"{base}/v1/events/{ev['id']}/registrations/{won[n]['id']}",
                json={"deck": deck},
                headers={"Authorization": f"Bearer {won[n]['edit_token']}"},
            )
            return n, r.status_code, r.json()

        with ThreadPoolExecutor(THREADS) as pool:
            edits = list(pool.map(edit, range(PLAYERS)))
        assert [s for _, s, _ in edits] == [200] * PLAYERS, [d for _, s, d in edits if s != 200]
        stored = _decks(base, ev)
        assert sorted(stored) == [f"P{n:03d}" for n in range(PLAYERS)]
        for n, _, doc in edits:
            want = ILLEGAL if n % 10 == 0 else deck_for(n + 37)
            row = stored[f"P{n:03d}"]
            assert row["deck"] == want and row["fingerprint"] == doc["fingerprint"], n
            assert row["legal"] is doc["legal"]
            if n % 10 == 0:
                assert row["legal"] is False
        log = httpx.get(f"{base}/v1/events/{ev['id']}/audit", headers=org, timeout=60).json()
        actions = [a["action"] for a in log["audit"]]
        assert actions.count("submit") == PLAYERS and actions.count("edit") == PLAYERS
        first = {
            a["registration_id"]: a["new_fingerprint"]
            for a in log["audit"]
            if a["action"] == "submit"
        }
        for a in log["audit"]:
            if a["action"] == "edit":
                assert a["old_fingerprint"] == first[a["registration_id"]]
        client.close()
    finally:
        stop_server(proc)


class _Submissions:
    """What submitters sent and what the server acknowledged, shared by their threads."""

    def __init__(self, base: str, event_id: str) -> None:
        self.url = f"{base}/v1/events/{event_id}/registrations"
        self.acked: dict[str, str] = {}
        self.sent: dict[str, str] = {}
        self.lock = threading.Lock()
        self.stop = threading.Event()

    def submit(self, worker: int) -> None:
        """Submit decks until stopped or the server is gone, recording every 201."""
        with httpx.Client(timeout=30) as client:
            for n in range(10_000):
                if self.stop.is_set():
                    return
                pid = f"W{worker}-{n:05d}"
                deck = deck_for(worker * 1000 + n)
                with self.lock:
                    self.sent[pid] = deck
                try:
                    r = client.post(self.url, json={"player": pid, "player_id": pid, "deck": deck})
                except httpx.HTTPError:
                    return  # the server is gone
                if r.status_code == 201:
                    with self.lock:
                        self.acked[pid] = deck


def _check_after_restart(env: dict[str, str], ev: dict[str, Any], subs: _Submissions) -> None:
    """Every acknowledged submission is stored intact, nothing unsent is, and the restarted
    service takes submissions again."""
    proc, base = start_server(env=env)
    try:
        stored = _decks(base, ev)
        for pid, deck in subs.acked.items():  # every acknowledged submission, intact
            assert pid in stored, f"{pid} was acknowledged but is gone"
            assert stored[pid]["deck"] == deck
        for pid, row in stored.items():  # nothing stored that was not sent, nothing garbled
            assert row["deck"] == subs.sent[pid]
        body = {"player": "After", "player_id": "after", "deck": deck_for(1)}
        r = httpx.post(f"{base}/v1/events/{ev['id']}/registrations", json=body, timeout=30)
        assert r.status_code == 201
    finally:
        stop_server(proc)


@pytest.mark.slow
def test_a_server_killed_during_submissions_keeps_every_acknowledged_one(database: str) -> None:
    env = _env(database)
    proc, base = start_server(env=env)  # one process: SIGKILL reaches the one writing
    try:
        ev = _create(base)
        subs = _Submissions(base, ev["id"])
        threads = [threading.Thread(target=subs.submit, args=(w,)) for w in range(6)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 120
        while len(subs.acked) < 60 and time.monotonic() < deadline:
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)  # in the middle of submissions
        proc.wait(timeout=30)
        subs.stop.set()
        for t in threads:
            t.join(timeout=60)
        assert len(subs.acked) >= 60, "too few submissions before the kill"
    finally:
        stop_server(proc)
    _check_after_restart(env, ev, subs)
    if database.startswith("sqlite:"):
        import sqlite3

        conn = sqlite3.connect(database.removeprefix("sqlite:///"))
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        conn.close()
