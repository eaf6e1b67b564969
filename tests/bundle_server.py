"""A real HTTP server on 127.0.0.1 for the update tests, with faults on demand.

It serves files from memory (``files``) or from a folder (``root``), with an ``ETag`` and a
``Last-Modified`` header, answering ``304`` to a matching conditional request. A test queues
faults per path in ``faults``; each request to that path takes the next one:

* ``drop``: close the connection without an answer;
* ``truncate``: promise the whole body, send half, close;
* ``slow``: wait ``slow_seconds`` before answering;
* ``trickle``: send the body in small pieces, ``slow_seconds`` apart;
* ``corrupt``: send the body with some bytes changed (same length);
* ``unsized``: send the body without ``Content-Length`` (framed by closing the connection);
* ``huge``: claim a ``Content-Length`` of 10 GiB;
* ``unconditional``: answer ``200`` with the body even to a matching conditional request;
* a status code such as ``"404"`` or ``"503"``: answer with that status;
* ``enc:VALUE``: send the body as stored with ``Content-Encoding: VALUE`` (the test stores
  bytes already encoded);
* ``redirect:LOCATION``: answer ``302 Found`` to ``LOCATION``;
* ``trickle-headers``: send the status line and headers a byte at a time, ``slow_seconds``
  apart (a server that never reaches the body).

Every request is logged in ``requests`` as ``(path, headers)``, and every answer's status in
``answers`` as ``(path, status)``.
"""

from __future__ import annotations

import hashlib
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

LAST_MODIFIED = "Sun, 15 Nov 2026 10:00:00 GMT"


class BundleServer:
    """State shared with the request handler."""

    def __init__(self, root: Path | None = None) -> None:
        self.files: dict[str, bytes] = {}
        self.root = root
        self.faults: dict[str, list[str]] = {}
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.answers: list[tuple[str, int]] = []
        self.slow_seconds = 2.0
        self.url = ""
        self._lock = threading.Lock()

    def body(self, path: str) -> bytes | None:
        """The bytes served at ``path`` (None: 404)."""
        if path in self.files:
            return self.files[path]
        if self.root is not None:
            target = (self.root / path.lstrip("/")).resolve()
            if target.is_file() and self.root.resolve() in target.parents:
                return target.read_bytes()
        return None

    def next_fault(self, path: str) -> str | None:
        """The next fault queued for ``path``, if any."""
        with self._lock:
            queue = self.faults.get(path)
            return queue.pop(0) if queue else None

    def paths_requested(self) -> list[str]:
        """The paths requested so far, in order."""
        return [p for p, _ in self.requests]


class _Handler(BaseHTTPRequestHandler):
    """The server's answers, from the :class:`BundleServer` it serves (``state``)."""

    state: BundleServer

    def log_message(self, format: str, *args: object) -> None:
        pass

    def send_response(self, code: int, message: str | None = None) -> None:
        self.state.answers.append((unquote(self.path.split("?", 1)[0]), code))
        super().send_response(code, message)

    def do_GET(self) -> None:
        path = unquote(self.path.split("?", 1)[0])
        self.state.requests.append((path, {k.lower(): v for k, v in self.headers.items()}))
        fault = self.state.next_fault(path)
        body = self.state.body(path)
        if fault is not None and self._misbehave(fault):
            return
        if fault == "slow":
            time.sleep(self.state.slow_seconds)
        if body is None:
            self._status(404)
            return
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        if fault != "unconditional" and self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        if fault == "corrupt":
            body = bytes(b ^ 0x20 if i % 997 == 0 else b for i, b in enumerate(body))
        self._headers(etag, len(body), fault)
        with suppress(OSError):
            self._body(body, fault)
        self.close_connection = True

    def _misbehave(self, fault: str) -> bool:
        """Answer a fault that sends no body (a status, a redirect, trickled headers, a
        dropped connection); False for the others."""
        if fault.isdigit():
            self._status(int(fault))
        elif fault.startswith("redirect:"):
            self.send_response(302)
            self.send_header("Location", fault.removeprefix("redirect:"))
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif fault == "trickle-headers":
            head = b"HTTP/1.1 200 OK\r\nX-Slow: " + b"x" * 10_000
            try:
                for i in range(len(head)):
                    self.wfile.write(head[i : i + 1])
                    self.wfile.flush()
                    time.sleep(self.state.slow_seconds)
            except OSError:
                pass
            self.close_connection = True
        elif fault == "drop":
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
        else:
            return False
        return True

    def _headers(self, etag: str, size: int, fault: str | None) -> None:
        self.send_response(200)
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", LAST_MODIFIED)
        self.send_header("Content-Type", "application/octet-stream")
        if fault is not None and fault.startswith("enc:"):
            self.send_header("Content-Encoding", fault.removeprefix("enc:"))
        if fault == "huge":
            self.send_header("Content-Length", str(10 << 30))
        elif fault != "unsized":
            self.send_header("Content-Length", str(size))
        self.send_header("Connection", "close")
        self.end_headers()

    def _body(self, body: bytes, fault: str | None) -> None:
        if fault in ("truncate", "huge"):
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        elif fault == "trickle":
            for i in range(0, len(body), 64):
                self.wfile.write(body[i : i + 64])
                self.wfile.flush()
                time.sleep(self.state.slow_seconds)
        else:
            self.wfile.write(body)

    def _status(self, code: int) -> None:
        text = f"status {code}\n".encode()
        self.send_response(code)
        self.send_header("Content-Length", str(len(text)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(text)
        self.close_connection = True


def _handler(state: BundleServer) -> type[BaseHTTPRequestHandler]:
    return type("Handler", (_Handler,), {"state": state})


@contextmanager
def serve(root: Path | None = None) -> Iterator[BundleServer]:
    """Run a :class:`BundleServer` on 127.0.0.1 (a free port) for the ``with`` block."""
    state = BundleServer(root)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    server.daemon_threads = True
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
