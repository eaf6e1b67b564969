"""The HTTP/1.1 connection handler ``deckcheck serve`` runs: uvicorn's, with slow clients cut off.

uvicorn times out an idle keep-alive connection, but nothing else: a client that sends half a
header block, or trickles a body a byte at a time, holds its connection (and a worker's memory)
for as long as it likes, and header blocks of any size are accepted. :class:`Protocol` adds:

* a **header timeout**: a connection must deliver a request's whole header block within
  ``header_timeout`` seconds of its first byte (or of the connection being opened): else 408
  and the connection is closed;
* a **body rate**: after ``body_timeout`` seconds, a body still arriving must have averaged
  ``min_body_rate`` bytes per second: else 408 and close;
* **header caps**: more than ``max_header_bytes`` (request line included) or ``max_headers``
  lines: 431 and close;
* the keep-alive timeout is ``keep_alive_timeout`` (uvicorn's ``timeout_keep_alive``).

The settings are read from the ``DECKCHECK_*`` variables, as the app reads them. In production,
put a reverse proxy in front as well (README "Running in production").
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from deckcheck.service.config import Settings

HEAD, BODY, IDLE = "head", "body", "idle"
"""Where a connection is: reading a header block, reading a body, between requests."""
TICK = 0.5
"""Seconds between two looks at a body's rate."""
REASONS = {408: b"Request Timeout", 431: b"Request Header Fields Too Large"}

_settings: Settings | None = None


def settings() -> Settings:
    """The service settings of this process (read once from the environment)."""
    global _settings
    if _settings is None:
        _settings = Settings.from_env()
    return _settings


class Protocol(HttpToolsProtocol):
    """uvicorn's httptools connection handler with the timeouts and caps above."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits = settings()
        self.phase = HEAD
        self.head_bytes = 0
        self.head_lines = 0
        self.body_start = 0.0
        self.body_bytes = 0
        self.timer: asyncio.TimerHandle | None = None
        self.reject: int | None = None

    # -- the connection ----------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A new connection: its first header block is due within the header timeout."""
        super().connection_made(transport)
        self._arm(self.limits.header_timeout, self._head_late)

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone: no timer of it may fire."""
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Bytes from the client: counted against the header cap while in a header block."""
        if self.phase == IDLE:
            self._start_head()
        if self.phase == HEAD:
            self.head_bytes += len(data)
        super().data_received(data)
        if self.transport.is_closing():
            return
        if self.phase == HEAD and self.head_bytes > self.limits.max_header_bytes:
            self._refuse(431, "the request's headers are too large")

    def send_400_response(self, msg: str) -> None:
        """A parse error, or a header cap met inside the parser (then 431)."""
        if self.reject is not None:
            self._refuse(self.reject, "the request's headers are too large")
            return
        super().send_400_response(msg)

    # -- parser callbacks ------------------------------------------------------------------

    def on_message_begin(self) -> None:
        """A request starts."""
        if self.phase == IDLE:
            self._start_head()
        super().on_message_begin()

    def on_header(self, name: bytes, value: bytes) -> None:
        """One header line, counted against ``max_headers``."""
        self.head_lines += 1
        if self.head_lines > self.limits.max_headers:
            self.reject = 431
            raise ValueError("too many header lines")
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        """The header block is whole: now the body (if any) must keep its rate."""
        self._disarm()
        self.phase = BODY
        self.body_start = time.monotonic()
        self.body_bytes = 0
        super().on_headers_complete()
        if self.phase == BODY:
            self._arm(TICK, self._body_check)

    def on_body(self, body: bytes) -> None:
        """Part of the body."""
        self.body_bytes += len(body)
        super().on_body(body)

    def on_message_complete(self) -> None:
        """The request is whole: no more timers until the next one begins."""
        self._disarm()
        self.phase = IDLE
        super().on_message_complete()

    # -- timers ----------------------------------------------------------------------------

    def _start_head(self) -> None:
        self.phase = HEAD
        self.head_bytes = 0
        self.head_lines = 0
        self.reject = None
        self._arm(self.limits.header_timeout, self._head_late)

    def _arm(self, delay: float, callback: Any) -> None:
        self._disarm()
        self.timer = self.loop.call_later(delay, callback)

    def _disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _head_late(self) -> None:
        self.timer = None
        if self.phase == HEAD and not self.transport.is_closing():
            if self.head_bytes == 0:
                self.transport.close()  # a connection that never sent a byte: nothing to answer
                return
            self._refuse(408, f"the request's headers took over {self.limits.header_timeout:g} s")

    def _body_check(self) -> None:
        self.timer = None
        if self.phase != BODY or self.transport.is_closing():
            return
        took = time.monotonic() - self.body_start
        s = self.limits
        if took > s.body_timeout and self.body_bytes < s.min_body_rate * took:
            self._refuse(408, f"the request body came slower than {s.min_body_rate} bytes/s")
            return
        self._arm(TICK, self._body_check)

    def _refuse(self, status: int, message: str) -> None:
        """Answer ``status`` (unless an answer has started) and close the connection."""
        self._disarm()
        started = self.cycle is not None and self.cycle.response_started
        if not started:
            body = message.encode()
            self.transport.write(
                b"HTTP/1.1 %d %s\r\ncontent-type: text/plain; charset=utf-8\r\n"
                b"content-length: %d\r\nconnection: close\r\n\r\n%s"
                % (status, REASONS[status], len(body), body)
            )
        if self.cycle is not None:
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.close()
