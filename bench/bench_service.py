"""Service load: `deckcheck serve --workers 2` on 127.0.0.1, validate and card search, 10% bad.

Starts the server on a free port, drives it with an async httpx client (bounded: a fixed number
of requests per phase, a time cap per phase, a fixed number in flight), then stops it. Phases:

* ``GET /healthz`` alone: the baseline (HTTP stack, client and server, with no deckcheck work);
* ``POST /v1/validate`` alone (real decks, ydk text): requests/s and p50/p99 latency;
* ``GET /v1/cards?q=`` alone (prefixes of real names, English, Japanese, Chinese): p50/p99;
* ``POST /v1/simulate`` of a trivial quick deck, one request at a time: the server's CPU per
  request (limit 5 ms; the compute pool's processes count, living or reaped) beside a
  ``GET /healthz`` sent the same way;
* 10,000 mixed requests (45% validate, 45% search, 10% malformed): no 5xx at all, and every
  malformed request gets a 4xx.

Targets (the issue's): >= 1,000 validate requests/s with p99 <= 50 ms; search p99 <= 20 ms;
validate's rate >= 0.5x /healthz's in the same run with a lean client.
When ``wrk`` is installed (Debian: ``apt-get install wrk``) it drives a first set of lean phases
(``wrk:`` figures, with the server's CPU time per request), interleaved in rounds (healthz,
validate, search, then again: BENCH_SERVICE_WRK_ROUNDS, default 5, over BENCH_SERVICE_WRK_SECONDS
per phase, default 10) so that a figure and its baseline share the machine's conditions;
``BENCH_SERVICE_QUICK=1`` runs only those and the computing phase.
An httpx client costs more CPU per request (about 1.2 ms) than the server does (about 0.5 ms), so
on a 2-core machine it, not the server, caps what a same-machine test can show. The throughput
and latency phases are therefore run twice: with httpx, and with a lean asyncio client (raw
HTTP/1.1 on keep-alive connections, requests encoded before the clock starts, about 0.1 ms of
CPU per request) that leaves the cores to the server. The mixed phase (correctness: no 5xx,
every malformed request a 4xx) uses httpx.
The client shares the machine with the server, so wall-clock figures depend on what else runs;
the server's CPU time per request (from /proc, all its processes) does not, and gives the
capacity of 2 workers on 2 free cores.
Environment: BENCH_SERVICE_REQUESTS (per phase, default 4000), BENCH_SERVICE_CONCURRENCY
(in flight, default 16), BENCH_SERVICE_SECONDS (cap per phase, default 60; the mixed phase
gets three times as long).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from common import Figure

ROOT = Path(__file__).resolve().parent.parent
DECKS = [
    *sorted((ROOT / "tests" / "data" / "decks" / "legal").glob("*.ydk")),
    ROOT / "examples" / "tcg-legal.ydk",
    ROOT / "examples" / "problems.ydk",
]
REQUESTS = int(os.environ.get("BENCH_SERVICE_REQUESTS", "4000"))
CONCURRENCY = int(os.environ.get("BENCH_SERVICE_CONCURRENCY", "16"))
SECONDS = float(os.environ.get("BENCH_SERVICE_SECONDS", "60"))
MIXED = 10_000

Request = tuple[str, str, dict[str, Any], bool]
"""method, path, httpx keyword arguments, malformed on purpose."""


@dataclass
class Phase:
    """What one phase measured."""

    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    malformed_not_4xx: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    server_cpu: float = 0.0
    """CPU seconds the server's processes used during the phase."""
    client_cpu: float = 0.0
    """CPU seconds the load generator (this process) used during the phase."""

    @property
    def cpu_ms(self) -> float:
        """Server CPU milliseconds per request answered."""
        return self.server_cpu / len(self.latencies) * 1e3 if self.latencies else float("nan")

    @property
    def rate(self) -> float:
        """Requests answered per second."""
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def pct(self, q: float) -> float:
        """Latency percentile in ms."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1e3

    @property
    def server_errors(self) -> int:
        """5xx answers."""
        return sum(n for s, n in self.statuses.items() if s >= 500)


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by a process and all its descendants, living
    or reaped."""
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, tuple[int, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            raw = (entry / "stat").read_text()
        except OSError:
            continue
        fields = raw[raw.rindex(")") + 2 :].split()
        # utime + stime, and cutime + cstime: the children it has reaped (a forked child per
        # computing request is gone from /proc by the time the phase ends)
        own = sum(int(f) for f in fields[11:15])
        stats[int(entry.name)] = (int(fields[1]), own / tick)
    family = {pid}
    grew = True
    while grew:
        grew = False
        for p, (ppid, _) in stats.items():
            if ppid in family and p not in family:
                family.add(p)
                grew = True
    return sum(stats[p][1] for p in family if p in stats)


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start(workers: int) -> tuple[subprocess.Popen[bytes], str]:
    """``deckcheck serve --workers N`` on a free port, once /healthz answers."""
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
            "--workers",
            str(workers),
            "--log-level",
            "warning",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"deckcheck serve exited with {proc.returncode}")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                # every worker has warmed up when a burst is answered quickly
                for _ in range(workers * 20):
                    httpx.get(f"{url}/v1/cards", params={"q": "ash"}, timeout=10)
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError("deckcheck serve did not start")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server."""
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def queries(rng: random.Random, n: int) -> list[str]:
    """Prefixes (3-8 characters) of real card names in the three languages."""
    from deckcheck.data.dataset import Dataset

    cards = Dataset.active().cards
    names: list[str] = []
    for card in rng.sample(list(cards), 600):
        for name in (card.name, card.name_ja, card.name_zh):
            if name:
                names.append(name)
    out = []
    for _ in range(n):
        name = rng.choice(names)
        out.append(name[: rng.randint(3, 8)] if not name.isascii() else name[: rng.randint(3, 10)])
    return out


def malformed(rng: random.Random, deck: str) -> Request:
    """A request a client got wrong (each must get a 4xx)."""
    bad: list[Request] = [
        (
            "POST",
            "/v1/validate",
            {"content": b"{not json", "headers": {"Content-Type": "application/json"}},
            True,
        ),
        ("POST", "/v1/validate", {"json": {"deck": deck, "format": "no-such-format"}}, True),
        ("POST", "/v1/validate", {"json": {"deck": deck, "date": "31/12/2024"}}, True),
        ("POST", "/v1/validate", {"json": {"deck": deck, "colour": "red"}}, True),
        ("POST", "/v1/validate", {"json": {"deck": "ydke://%%%"}}, True),
        ("POST", "/v1/validate", {"json": {"deck": "\x00\x01\x02"}}, True),
        ("GET", "/v1/cards", {"params": {"q": "ash", "limit": "0"}}, True),
        ("GET", "/v1/cards", {"params": {"q": "ash", "lang": "klingon"}}, True),
        ("GET", "/v1/cards/999999999999", {}, True),
        ("GET", "/v1/no-such-route", {}, True),
    ]
    return rng.choice(bad)


def _loop_run(coro: Any) -> Phase:
    """Run the client on uvloop when it is installed (less client CPU per request)."""
    try:
        import uvloop
    except ImportError:
        got: Phase = asyncio.run(coro)
        return got
    result: Phase = uvloop.run(coro)
    return result


def measure(
    proc: subprocess.Popen[bytes],
    url: str,
    requests: list[Request],
    seconds: float = SECONDS,
    lean: bool = False,
) -> Phase:
    """One phase: drive the requests (with httpx, or the lean client), and count the server's
    CPU time meanwhile."""
    cpu = server_cpu(proc.pid)
    mine = time.process_time()
    phase = _loop_run((drive_raw if lean else drive)(url, requests, seconds))
    phase.server_cpu = server_cpu(proc.pid) - cpu
    phase.client_cpu = time.process_time() - mine
    return phase


def one_by_one(proc: subprocess.Popen[bytes], url: str, requests: list[Request]) -> Phase:
    """One phase of requests sent one at a time (a computing route's slots never turn one
    away), with the server's CPU time meanwhile; every answer must be a 200."""
    import httpx

    phase = Phase()
    cpu = server_cpu(proc.pid)
    t0 = time.perf_counter()
    with httpx.Client(base_url=url, timeout=30) as client:
        for method, path, kw, _ in requests:
            t1 = time.perf_counter()
            got = client.request(method, path, **kw)
            phase.latencies.append(time.perf_counter() - t1)
            phase.statuses[got.status_code] += 1
    phase.seconds = time.perf_counter() - t0
    phase.server_cpu = server_cpu(proc.pid) - cpu
    assert set(phase.statuses) == {200}, dict(phase.statuses)
    return phase


def compute_figures(
    proc: subprocess.Popen[bytes], url: str, health: list[Request], simulate: list[Request]
) -> list[Figure]:
    """The server's CPU per trivial ``POST /v1/simulate`` (a computing route: it runs in the
    worker's compute pool, within its budgets) beside a ``GET /healthz``'s, both sent one at a
    time by the same client: what the budgets add to a request that computes next to nothing."""
    base = one_by_one(proc, url, health)
    simulated = one_by_one(proc, url, simulate)
    print(
        f"  one at a time, server CPU per request: healthz {base.cpu_ms:.2f} ms, "
        f"trivial simulate {simulated.cpu_ms:.2f} ms"
    )
    return [
        Figure(
            "POST /v1/simulate (trivial quick deck) server CPU per request",
            simulated.cpu_ms,
            "GET /healthz, one at a time",
            base.cpu_ms,
            "ms",
            limit=5,
        )
    ]


async def drive(url: str, requests: list[Request], seconds: float) -> Phase:
    """Send ``requests`` with CONCURRENCY in flight, within ``seconds``."""
    import httpx

    phase = Phase()
    todo = iter(requests)
    deadline = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=CONCURRENCY, max_keepalive_connections=CONCURRENCY)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as client:

        async def worker() -> None:
            for method, path, kw, bad in todo:
                if time.perf_counter() > deadline:
                    return
                t0 = time.perf_counter()
                try:
                    resp = await client.request(method, path, **kw)
                except httpx.HTTPError as exc:
                    phase.errors[type(exc).__name__] += 1
                    continue
                phase.latencies.append(time.perf_counter() - t0)
                phase.statuses[resp.status_code] += 1
                if bad and not 400 <= resp.status_code < 500:
                    phase.malformed_not_4xx += 1

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
        phase.seconds = time.perf_counter() - start
    return phase


def _encode(host: str, req: Request) -> bytes:
    """The bytes of one HTTP/1.1 request (keep-alive)."""
    method, path, kw, _ = req
    body: bytes = kw.get("content", b"")
    head = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: keep-alive"]
    for k, v in kw.get("headers", {}).items():
        head.append(f"{k}: {v}")
    if method == "POST":
        head.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


async def drive_raw(url: str, requests: list[Request], seconds: float) -> Phase:
    """Like :func:`drive`, with a lean client: raw HTTP/1.1 over CONCURRENCY keep-alive
    connections, each request encoded beforehand, answers read by their Content-Length."""
    host, port = url.removeprefix("http://").split(":")
    wire = [(_encode(f"{host}:{port}", r), r[3]) for r in requests]
    phase = Phase()
    todo = iter(wire)
    deadline = time.perf_counter() + seconds

    async def worker() -> None:
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            for data, bad in todo:
                if time.perf_counter() > deadline:
                    return
                t0 = time.perf_counter()
                writer.write(data)
                head = await reader.readuntil(b"\r\n\r\n")
                status = int(head[9:12])
                length = 0
                for line in head.split(b"\r\n"):
                    if line[:15].lower() == b"content-length:":
                        length = int(line[15:])
                if length:
                    await reader.readexactly(length)
                phase.latencies.append(time.perf_counter() - t0)
                phase.statuses[status] += 1
                if bad and not 400 <= status < 500:
                    phase.malformed_not_4xx += 1
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            phase.errors[type(exc).__name__] += 1
        finally:
            writer.close()

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
    phase.seconds = time.perf_counter() - start
    return phase


WRK_SECONDS = int(os.environ.get("BENCH_SERVICE_WRK_SECONDS", "10"))
"""Seconds of each wrk phase (all its rounds together)."""
WRK_ROUNDS = int(os.environ.get("BENCH_SERVICE_WRK_ROUNDS", "5"))
"""Rounds the wrk phases are interleaved in (healthz, validate, search; again...), so that a
figure and its baseline see the same machine even when other work comes and goes on it."""
WRK_SCRIPT = """
local i = 0
local reqs = {}
for line in io.lines(os.getenv("DECKCHECK_WRK_REQUESTS")) do
  local method, path, body = line:match("^(%S+) (%S+) ?(.*)$")
  local headers = {}
  if method == "POST" then headers["Content-Type"] = os.getenv("DECKCHECK_WRK_TYPE") end
  reqs[#reqs + 1] = wrk.format(method, path, headers, method == "POST" and body or nil)
end
request = function()
  i = i % #reqs + 1
  return reqs[i]
end
done = function(summary, latency, requests)
  local out = {}
  for j = 1, #latency do
    local value, count = latency(j)
    out[#out + 1] = value .. ":" .. count
  end
  io.write("latency-histogram " .. table.concat(out, " ") .. "\\n")
end
"""
"""wrk's request script: cycles through prepared requests, one per line of a file; at the end,
writes the latency histogram (microseconds:count), so that rounds can be pooled exactly."""


@dataclass
class WrkPhase:
    """What one wrk phase measured."""

    rate: float
    p50: float
    p99: float
    non_2xx: int
    cpu_ms: float = float("nan")
    """Server CPU milliseconds per request."""
    requests: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    """Server CPU seconds."""
    latency: Counter[int] = field(default_factory=Counter)
    """Requests by latency in microseconds."""


def percentile(latency: Counter[int], q: float) -> float:
    """The ``q`` quantile of a latency histogram, in ms."""
    total = sum(latency.values())
    seen = 0
    for value in sorted(latency):
        seen += latency[value]
        if seen >= q * total:
            return value / 1e3
    return float("nan")


def combine(parts: list[WrkPhase]) -> WrkPhase:
    """The rounds of one phase as one: requests and CPU summed over the time of them all, the
    percentiles of their latency histograms pooled."""
    n = sum(p.requests for p in parts)
    took = sum(p.seconds for p in parts)
    cpu = sum(p.cpu for p in parts)
    latency: Counter[int] = sum((p.latency for p in parts), Counter())
    return WrkPhase(
        n / took if took else 0.0,
        percentile(latency, 0.50),
        percentile(latency, 0.99),
        sum(p.non_2xx for p in parts),
        cpu / n * 1e3 if n else float("nan"),
        n,
        took,
        cpu,
        latency,
    )


def drive_wrk(
    proc: subprocess.Popen[bytes],
    url: str,
    requests: list[Request],
    seconds: int = WRK_SECONDS,
    content_type: str = "application/json",
) -> WrkPhase:
    """Drive the requests with wrk (1 thread, CONCURRENCY connections) for ``seconds``, POST
    bodies sent as ``content_type``."""
    import re
    import tempfile

    cpu = server_cpu(proc.pid)

    with tempfile.TemporaryDirectory() as tmp:
        script, lines = Path(tmp) / "requests.lua", Path(tmp) / "requests.txt"
        script.write_text(WRK_SCRIPT, encoding="utf-8")
        with lines.open("w", encoding="utf-8") as f:
            for method, path, kw, _ in requests[:2000]:
                body = kw.get("content", b"").decode()
                f.write(f"{method} {path} {body}".rstrip() + "\n")
        out = subprocess.run(
            [
                "wrk",
                "-t1",
                f"-c{CONCURRENCY}",
                f"-d{seconds}s",
                "--latency",
                "-s",
                str(script),
                url,
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=seconds + 60,
            env={
                **os.environ,
                "DECKCHECK_WRK_REQUESTS": str(lines),
                "DECKCHECK_WRK_TYPE": content_type,
            },
        ).stdout

    def ms(label: str) -> float:
        m = re.search(rf"^\s*{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.MULTILINE)
        if not m:
            return float("nan")
        return float(m.group(1)) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[m.group(2)]

    used = server_cpu(proc.pid) - cpu
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    done = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s|m)\b", out)
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    n = int(done.group(1)) if done else 0
    unit = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}
    took = float(done.group(2)) * unit[done.group(3)] if done else 0.0
    per = used / n * 1e3 if n else float("nan")
    hist = re.search(r"^latency-histogram (.*)$", out, re.MULTILINE)
    pairs = (pair.split(":") for pair in (hist.group(1).split() if hist else ()))
    latency = Counter({int(v): int(c) for v, c in pairs})
    return WrkPhase(
        float(rate.group(1)) if rate else 0.0,
        ms("50"),
        ms("99"),
        int(bad.group(1)) if bad else 0,
        per,
        n,
        took,
        used,
        latency,
    )


def wrk_figures(
    proc: subprocess.Popen[bytes],
    url: str,
    health: list[Request],
    valid: list[Request],
    search: list[Request],
) -> list[Figure]:
    """The throughput and p99 of validate and search beside /healthz's, driven by wrk in
    interleaved rounds (:data:`WRK_ROUNDS`); and validate through FastAPI's own route (the
    same bodies as ``application/json; charset=utf-8``, which the quick lane leaves to the
    router) beside validate as usual."""
    rounds = max(1, WRK_ROUNDS)
    slice_ = max(1, round(WRK_SECONDS / rounds))
    print(f"  wrk: {rounds} rounds of {slice_} s per phase, interleaved")
    parts: list[list[WrkPhase]] = [[], [], [], []]
    usual, routed = "application/json", "application/json; charset=utf-8"
    phases = ((health, usual), (valid, usual), (search, usual), (valid, routed))
    for _ in range(rounds):
        for got, (requests, kind) in zip(parts, phases, strict=True):
            got.append(drive_wrk(proc, url, requests, slice_, kind))
    h, v, s, r = (combine(p) for p in parts)
    base = "GET /healthz"
    print(
        f"  wrk: validate CPU per request {v.cpu_ms:.3f} ms as application/json, "
        f"{r.cpu_ms:.3f} ms through FastAPI's route ({r.cpu_ms / v.cpu_ms:.3f}x)"
    )
    return [
        Figure(
            "wrk: POST /v1/validate through FastAPI's route, server CPU per request",
            r.cpu_ms,
            "POST /v1/validate as application/json",
            v.cpu_ms,
            "ms",
        ),
        Figure(
            "wrk: POST /v1/validate through FastAPI's route, throughput",
            r.rate,
            "POST /v1/validate as application/json",
            v.rate,
            "req/s",
            higher_is_better=True,
        ),
        Figure("wrk: POST /v1/validate server CPU per request", v.cpu_ms, base, h.cpu_ms, "ms"),
        Figure("wrk: GET /v1/cards?q= server CPU per request", s.cpu_ms, base, h.cpu_ms, "ms"),
        Figure(
            "wrk: POST /v1/validate throughput",
            v.rate,
            base,
            h.rate,
            "req/s",
            target=0.5,
            higher_is_better=True,
        ),
        Figure("wrk: POST /v1/validate p99", v.p99, base, h.p99, "ms", limit=50),
        Figure(
            "wrk: GET /v1/cards?q= throughput", s.rate, base, h.rate, "req/s", higher_is_better=True
        ),
        Figure("wrk: GET /v1/cards?q= p99", s.p99, base, h.p99, "ms", limit=20),
        Figure(
            "wrk: non-2xx answers",
            v.non_2xx + s.non_2xx + h.non_2xx + r.non_2xx,
            "phases",
            4,
            "",
            limit=0,
        ),
    ]


def run() -> list[Figure]:
    """Start the server, run the phases, stop it; the figures beside the /healthz baseline.

    The lean phases use wrk when it is installed (a C load generator: the least client CPU per
    request), else the asyncio client. ``BENCH_SERVICE_QUICK=1`` runs only the lean phases and
    the computing phase.
    """
    rng = random.Random(7)
    decks = [p.read_text(encoding="utf-8") for p in DECKS]
    qs = queries(rng, 3 * REQUESTS + MIXED)  # the wrk, httpx and lean phases

    # bodies and URLs are built before the clock starts: the client's own work stays small
    bodies = [
        json.dumps({"deck": d, "format": "tcg", "date": "2025-06-01"}).encode() for d in decks
    ]
    as_json = {"Content-Type": "application/json"}

    def validate_req() -> Request:
        return ("POST", "/v1/validate", {"content": rng.choice(bodies), "headers": as_json}, False)

    def search_req() -> Request:
        return ("GET", f"/v1/cards?{urlencode({'q': qs.pop(), 'limit': 20})}", {}, False)

    def health_req() -> Request:
        return ("GET", "/healthz", {}, False)

    trivial = json.dumps({"quick": {"size": 40, "counts": {"starter": 9}}}).encode()

    def simulate_req() -> Request:  # a trivial question: the request's overhead is the figure
        return ("POST", "/v1/simulate", {"content": trivial, "headers": as_json}, False)

    def batch(make: Callable[[], Request], n: int) -> list[Request]:
        return [make() for _ in range(n)]

    mixed: list[Request] = []
    for _ in range(MIXED):
        roll = rng.random()
        if roll < 0.10:
            mixed.append(malformed(rng, rng.choice(decks)))
        elif roll < 0.55:
            mixed.append(validate_req())
        else:
            mixed.append(search_req())
    import shutil

    proc, url = start(2)
    try:
        if shutil.which("wrk"):
            print("  lean client: wrk")
            wrk = wrk_figures(
                proc,
                url,
                batch(health_req, REQUESTS),
                batch(validate_req, REQUESTS),
                batch(search_req, REQUESTS),
            )
        else:
            print("  lean client: asyncio (wrk is not installed)")
            wrk = []
        compute = compute_figures(proc, url, batch(health_req, 200), batch(simulate_req, 200))
        if os.environ.get("BENCH_SERVICE_QUICK") == "1":
            return [*wrk, *compute]
        health = measure(proc, url, batch(health_req, REQUESTS))
        valid = measure(proc, url, batch(validate_req, REQUESTS))
        search = measure(proc, url, batch(search_req, REQUESTS))
        mix = measure(proc, url, mixed, 3 * SECONDS)
        lean_health = measure(proc, url, batch(health_req, REQUESTS), lean=True)
        lean_valid = measure(proc, url, batch(validate_req, REQUESTS), lean=True)
        lean_search = measure(proc, url, batch(search_req, REQUESTS), lean=True)
    finally:
        stop(proc)
    per = {
        n: (
            p.server_cpu / max(1, len(p.latencies)) * 1e3,
            p.client_cpu / max(1, len(p.latencies)) * 1e3,
        )
        for n, p in (
            ("healthz", health),
            ("validate", valid),
            ("search", search),
        )
    }
    print(
        "  CPU ms per request, server / client: "
        + ", ".join(f"{n} {a:.2f} / {b:.2f}" for n, (a, b) in per.items())
    )
    print(
        f"  ({CONCURRENCY} in flight; {len(valid.latencies)} validate, "
        f"{len(search.latencies)} search, {len(mix.latencies)} mixed requests answered; "
        f"mixed statuses {dict(sorted(mix.statuses.items()))}; "
        f"client errors {dict(mix.errors + valid.errors + search.errors) or 'none'})"
    )
    base = "GET /healthz"
    cores = 2  # one per worker
    return [
        *wrk,
        *compute,
        Figure("POST /v1/validate server CPU per request", valid.cpu_ms, base, health.cpu_ms, "ms"),
        Figure(
            "POST /v1/validate capacity of 2 workers (2 cores / CPU per request)",
            cores * 1e3 / valid.cpu_ms,
            base,
            cores * 1e3 / health.cpu_ms,
            "req/s",
            higher_is_better=True,
            limit=1000,
        ),
        Figure("GET /v1/cards?q= server CPU per request", search.cpu_ms, base, health.cpu_ms, "ms"),
        Figure(
            "POST /v1/validate throughput",
            valid.rate,
            base,
            health.rate,
            "req/s",
            higher_is_better=True,
            limit=1000,
        ),
        Figure("POST /v1/validate p50", valid.pct(0.50), base, health.pct(0.50), "ms"),
        Figure("POST /v1/validate p99", valid.pct(0.99), base, health.pct(0.99), "ms", limit=50),
        Figure(
            "GET /v1/cards?q= throughput",
            search.rate,
            base,
            health.rate,
            "req/s",
            higher_is_better=True,
        ),
        Figure("GET /v1/cards?q= p50", search.pct(0.50), base, health.pct(0.50), "ms"),
        Figure("GET /v1/cards?q= p99", search.pct(0.99), base, health.pct(0.99), "ms", limit=20),
        Figure("mixed: 5xx answers", mix.server_errors, "requests sent", len(mixed), "", limit=0),
        Figure(
            "mixed: malformed not answered 4xx or not answered",
            mix.malformed_not_4xx + sum(mix.errors.values()),
            "requests sent",
            len(mixed),
            "",
            limit=0,
        ),
        Figure(
            "mixed: requests answered",
            len(mix.latencies),
            "requests sent",
            len(mixed),
            "",
            higher_is_better=True,
            limit=len(mixed),
        ),
        Figure("mixed throughput", mix.rate, base, health.rate, "req/s", higher_is_better=True),
        Figure(
            "lean client: POST /v1/validate throughput",
            lean_valid.rate,
            base,
            lean_health.rate,
            "req/s",
            target=0.5,
            higher_is_better=True,
            limit=1000,
        ),
        Figure(
            "lean client: POST /v1/validate p50",
            lean_valid.pct(0.50),
            base,
            lean_health.pct(0.50),
            "ms",
        ),
        Figure(
            "lean client: POST /v1/validate p99",
            lean_valid.pct(0.99),
            base,
            lean_health.pct(0.99),
            "ms",
            limit=50,
        ),
        Figure(
            "lean client: GET /v1/cards?q= throughput",
            lean_search.rate,
            base,
            lean_health.rate,
            "req/s",
            higher_is_better=True,
        ),
        Figure(
            "lean client: GET /v1/cards?q= p99",
            lean_search.pct(0.99),
            base,
            lean_health.pct(0.99),
            "ms",
            limit=20,
        ),
        Figure(
            "lean client: non-2xx answers to well-formed requests",
            sum(
                n
                for st, n in (lean_valid.statuses + lean_search.statuses).items()
                if not 200 <= st < 300
            )
            + sum((lean_valid.errors + lean_search.errors).values()),
            "requests sent",
            2 * REQUESTS,
            "",
            limit=0,
        ),
    ]
