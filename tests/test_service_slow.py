"""Slow and oversized clients against a real ``deckcheck serve``, over raw sockets.

The server runs with short timeouts (2 s) so that each case is cut off quickly; every client
must be answered (408 / 431) or closed within the documented timeout plus a second.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent
LEGAL = (ROOT / "examples" / "tcg-legal.ydk").read_text(encoding="utf-8")
TIMEOUT = 2.0
SLACK = 1.5
"""What the server may take beyond a timeout (its timers look twice a second)."""


@pytest.fixture(scope="module")
def address() -> Iterator[tuple[str, int]]:
    env = dict(
        os.environ,
        DECKCHECK_HEADER_TIMEOUT=str(TIMEOUT),
        DECKCHECK_BODY_TIMEOUT=str(TIMEOUT),
        DECKCHECK_MIN_BODY_RATE="1000",
        DECKCHECK_KEEP_ALIVE_TIMEOUT=str(TIMEOUT),
    )
    proc, url = start_server(env=env)
    host, port = url.removeprefix("http://").split(":")
    try:
        yield host, int(port)
    finally:
        stop_server(proc)


def connect(address: tuple[str, int]) -> socket.socket:
    sock = socket.create_connection(address, timeout=10)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def read_all(sock: socket.socket, until: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes (or ``until``); when it closed."""
    got = b""
    while time.monotonic() < until:
        sock.settimeout(max(0.01, until - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        except ConnectionResetError:
            return got, time.monotonic()
        if not chunk:
            return got, time.monotonic()
        got += chunk
    raise AssertionError(f"still open after the deadline; got {got[:200]!r}")


@pytest.mark.slow
def test_half_sent_headers_are_cut_off(address: tuple[str, int]) -> None:
    socks = [connect(address) for _ in range(40)]
    start = time.monotonic()
    for s in socks:
        s.sendall(b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: applic")
    for s in socks:
        got, closed = read_all(s, start + TIMEOUT + SLACK + 2)
        assert got.startswith(b"HTTP/1.1 408 "), got
        assert closed - start < TIMEOUT + SLACK
        s.close()


@pytest.mark.slow
def test_a_connection_that_sends_nothing_is_closed(address: tuple[str, int]) -> None:
    with connect(address) as s:
        start = time.monotonic()
        got, closed = read_all(s, start + TIMEOUT + SLACK + 2)
    assert got == b"" and closed - start < TIMEOUT + SLACK


@pytest.mark.slow
def test_a_trickled_body_is_cut_off(address: tuple[str, int]) -> None:
    body = b'{"deck": "' + b"x" * 10_000 + b'"}'
    with connect(address) as s:
        s.sendall(
            b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)
        )
        start = time.monotonic()
        s.settimeout(0.3)
        answer = b""
        for i in range(60):  # 1 byte every 0.3 s: far under 1,000 bytes/s
            try:
                s.sendall(body[i : i + 1])
                answer = s.recv(65536)
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
            if answer:
                break
        took = time.monotonic() - start
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert TIMEOUT <= took < TIMEOUT + SLACK


@pytest.mark.slow
def test_a_body_at_a_normal_rate_is_read(address: tuple[str, int]) -> None:
    import json

    body = json.dumps({"deck": LEGAL, "date": "2025-06-01"}).encode()
    with connect(address) as s:
        s.sendall(
            b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)
        )
        for i in range(0, len(body), 200):  # about 4 KB/s for 0.7 s: over the grace's rate
            s.sendall(body[i : i + 200])
            time.sleep(0.05)
        s.settimeout(10)
        head = s.recv(65536)
    assert head.startswith(b"HTTP/1.1 200 "), head[:200]


@pytest.mark.slow
@pytest.mark.parametrize(
    "headers",
    [b"X-Big: " + b"a" * 200_000 + b"\r\n", b"".join(b"X-%d: 1\r\n" % i for i in range(5000))],
    ids=["200KB-header", "5000-headers"],
)
def test_oversized_header_blocks_get_431(address: tuple[str, int], headers: bytes) -> None:
    with connect(address) as s:
        start = time.monotonic()
        # the server may answer and close while we are still sending
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + headers + b"\r\n")
        got, closed = read_all(s, start + 5)
    assert got.startswith(b"HTTP/1.1 431 "), got[:200]
    assert closed - start < SLACK


@pytest.mark.slow
def test_usual_headers_pass_and_idle_keep_alive_closes(address: tuple[str, int]) -> None:
    many = b"".join(b"X-%d: %s\r\n" % (i, b"v" * 50) for i in range(60))  # 60 lines, ~3.5 KB
    with connect(address) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")
        s.settimeout(10)
        head = b""
        while b"\r\n\r\n" not in head:
            head += s.recv(65536)
        assert head.startswith(b"HTTP/1.1 200 "), head[:200]
        top, body = head.split(b"\r\n\r\n", 1)
        length = int(top.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        while len(body) < length:
            body += s.recv(65536)
        start = time.monotonic()
        rest, closed = read_all(s, start + TIMEOUT + SLACK + 2)
    assert rest == b"" and TIMEOUT - 0.5 < closed - start < TIMEOUT + SLACK
