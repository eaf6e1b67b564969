"""Budgets of the computing routes, on a real ``deckcheck serve`` on 127.0.0.1.

The expensive request is the goldfish issue's: a 1.4 KB ``/v1/simulate`` body (15 one-card
categories, a condition over all of them, 20 turns) that takes tens of seconds and gigabytes
when nothing bounds it.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import deckcheck
from tests.conftest import start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent
LEGAL = (ROOT / "examples" / "tcg-legal.ydk").read_text(encoding="utf-8")
BUDGET_SECONDS = 3
BUDGET_BYTES = 64 << 20


def expensive() -> dict[str, Any]:
    """15 categories of one card each, all of them needed, by turn 20."""
    deck = deckcheck.read_deck(LEGAL)
    cards = deckcheck.Dataset.active().cards
    names = list(dict.fromkeys(cards.get(c.passcode).name for c in deck.main))[:15]
    cats = {f"c{i}": {"names": [n]} for i, n in enumerate(names)}
    cond = " and ".join(f"{c} >= 1" for c in cats)
    return {"deck": LEGAL, "spec": {"categories": cats, "conditions": {"all": cond}},
            "turns": 20, "date": "2025-06-01"}  # fmt: skip


def family_pss(pid: int) -> float:
    """MiB of memory (proportional set size) of a process and its children."""
    kids = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                          text=True, check=False).stdout.split()  # fmt: skip
    total = 0
    for p in [pid, *map(int, kids)]:
        try:
            with open(f"/proc/{p}/smaps_rollup", encoding="ascii") as f:
                total += sum(int(x.split()[1]) for x in f if x.startswith("Pss:"))
        except OSError:
            continue
    return total / 1024


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[Any, str]]:
    env = dict(os.environ, DECKCHECK_COMPUTE_SECONDS=str(BUDGET_SECONDS),
               DECKCHECK_COMPUTE_MEMORY_BYTES=str(BUDGET_BYTES),
               DECKCHECK_MAX_COMPUTING="2")  # fmt: skip
    proc, url = start_server(env=env)
    try:
        yield proc, url
    finally:
        stop_server(proc)


@pytest.mark.skipif(not Path("/proc/self/smaps_rollup").exists(), reason="needs Linux /proc")
def test_three_expensive_requests_at_once(server: tuple[Any, str]) -> None:
    proc, url = server
    body = expensive()
    answers: list[tuple[int, dict[str, Any], dict[str, str], float]] = []

    def post() -> None:
        t0 = time.monotonic()
        r = httpx.post(f"{url}/v1/simulate", json=body, timeout=60)
        answers.append((r.status_code, r.json(), dict(r.headers), time.monotonic() - t0))

    threads = [threading.Thread(target=post) for _ in range(3)]
    for t in threads:
        t.start()
    peak, health = 0.0, []
    with httpx.Client(base_url=url) as client:
        while any(t.is_alive() for t in threads):
            peak = max(peak, family_pss(proc.pid))
            t0 = time.monotonic()
            assert client.get("/healthz").status_code == 200
            health.append(time.monotonic() - t0)
            time.sleep(0.02)
    for t in threads:
        t.join()
    statuses = sorted(a[0] for a in answers)
    assert statuses == [422, 422, 429], answers
    for status, doc, headers, took in answers:
        if status == 429:
            assert doc["error"]["code"] == "too-many-requests"
            assert 1 <= int(headers["retry-after"]) <= 3 * BUDGET_SECONDS
        else:
            assert doc["error"]["code"] == "limit-exceeded"
            assert doc["error"]["detail"]["limit"] in ("compute_seconds", "compute_memory_bytes")
            assert took < 3 * BUDGET_SECONDS + 2
    assert peak < 300, peak
    health.sort()
    assert len(health) >= 5
    assert health[int(len(health) * 0.9)] < 0.050, health
    assert health[-1] < 0.5, health


def test_cheap_requests_still_answer_and_the_server_is_healthy(server: tuple[Any, str]) -> None:
    _, url = server
    got = httpx.post(f"{url}/v1/simulate", json={"deck": LEGAL, "turns": 2, "date": "2025-06-01"},
                     timeout=60)  # fmt: skip
    assert got.status_code == 200, got.text
    deck = deckcheck.read_deck(LEGAL)
    from datetime import date

    want = deckcheck.simulate(deck, turns=2, date=date(2025, 6, 1)).to_dict()
    assert got.json()["seen"] == want["seen"]
    batch = httpx.post(f"{url}/v1/batch", json={"decks": [{"name": "a", "deck": LEGAL}],
                                               "date": "2025-06-01"}, timeout=60)  # fmt: skip
    assert batch.status_code == 200, batch.text
    assert batch.json()["summary"]["legal"] == 1
    # the budgets did not leave children behind
    kids = subprocess.run(["ps", "-o", "pid=", "--ppid", str(server[0].pid)],
                          capture_output=True, text=True, check=False).stdout.split()  # fmt: skip
    assert kids == []
