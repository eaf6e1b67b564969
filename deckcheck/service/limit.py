"""Budgets of the computing routes: CPU time, memory and how many run at once.

``POST /v1/simulate`` and ``POST /v1/batch`` can cost far more than their size suggests (an
exact goldfish run over many categories, a thousand decks). :class:`ComputeLimit` answers each
such request in a process of the worker's compute pool (:mod:`deckcheck.service.pool`: forked
at the worker's start-up, numpy and the engines already imported), so that:

* its CPU time is capped; a wall-clock deadline of 3 times the budget stops a request that
  waits without computing (one still computing is left to its CPU budget, up to 10 times the
  budget of wall-clock time), so a busy machine does not change the answer;
* the memory it adds is capped (the process's resident set is watched every 20 ms, and its
  address space is capped with ``RLIMIT_AS`` as a backstop);
* it runs at a lower priority (``nice``), so the worker's event loop keeps answering;
* a request over its budget gets 422 ``limit-exceeded``, and its process is killed with its
  memory and replaced by a new one;
* at most ``max_computing`` run at once in a worker: more get 429 with ``Retry-After``.

A request is answered from the dataset it was pinned to (a process holds the data of the
moment it was forked; after a reload, requests go to processes forked since). A refusal says
which budget it met: CPU time (``detail.clock: "cpu"``) or the wall-clock deadline
(``"wall"``); ``detail.limit`` is ``compute_seconds`` for both. Where ``fork`` does not exist
(Windows) the request runs in the worker, with the concurrency limit only.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from deckcheck.service.config import Settings
from deckcheck.service.pool import BACKSTOP_FACTOR, WALL, WALL_FACTOR, Pool, replay_body

__all__ = ["BACKSTOP_FACTOR", "WALL", "WALL_FACTOR", "BodyLimit", "ComputeLimit", "json_error"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def json_error(
    status: int, code: str, message: str, detail: Any = None, headers: dict[str, str] | None = None
) -> list[Message]:
    """The ASGI messages of a JSON error answer ``{"error": {"code", "message", "detail"}}``."""
    import json

    from deckcheck.service.language import REQUESTED

    error: dict[str, Any] = {"code": code, "message": message, "detail": detail}
    if REQUESTED.get() != "en":
        from deckcheck.reporter.i18n import error_message

        error["message_local"] = error_message(REQUESTED.get(), code, message)
    body = json.dumps({"error": error}).encode()
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    head += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    return [
        {"type": "http.response.start", "status": status, "headers": head},
        {"type": "http.response.body", "body": body},
    ]


class ComputeLimit:
    """ASGI middleware: the budgets above for the POST routes in ``paths``.

    ``key`` names the data the calling request is pinned to (the service's data fingerprint):
    a request goes to a pool process holding the same. The pool starts when the app's start-up
    is complete (after the data is warmed), or with the first computing request of an app
    served without a lifespan; it stops with the app's shutdown.
    """

    def __init__(
        self,
        app: ASGIApp,
        settings: Settings,
        paths: frozenset[str],
        key: Callable[[], object] | None = None,
    ) -> None:
        self.app = app
        self.settings = settings
        self.paths = paths
        self.pool = Pool(app, settings, key)
        self.deadlines: dict[int, float] = {}
        """Wall-clock deadline of each computing request running, by a serial number."""
        self.serial = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan" and hasattr(os, "fork"):
            await self.app(scope, receive, self._lifespan(scope, send))
            return
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] not in self.paths:
            await self.app(scope, receive, send)
            return
        s = self.settings
        if len(self.deadlines) >= s.max_computing:
            await _send_all(send, self.busy())
            return
        self.serial += 1
        me = self.serial
        self.deadlines[me] = time.monotonic() + s.compute_seconds * WALL_FACTOR
        try:
            body = await _read_body(receive)
            if body is None:
                return  # the client went away
            if not hasattr(os, "fork"):
                await self.app(scope, replay_body(body), send)
                return
            from starlette.concurrency import run_in_threadpool

            messages = await run_in_threadpool(self.compute, scope, body)
            await _send_all(send, messages)
        finally:
            del self.deadlines[me]

    def _lifespan(self, scope: Scope, send: Send) -> Send:
        """``send`` for the app's lifespan: the pool starts once the app's start-up is complete
        (its data warmed), before the server takes requests, and stops at its shutdown."""
        from starlette.concurrency import run_in_threadpool

        if "app" in scope:
            self.pool.local["app"] = scope["app"]

        async def relay(message: Message) -> None:
            if message["type"] == "lifespan.startup.complete":
                await run_in_threadpool(self.pool.start)
            elif message["type"] == "lifespan.shutdown.complete":
                self.pool.stop()
            await send(message)

        return relay

    def busy(self) -> list[Message]:
        """429: every computing slot of this worker is taken; ``Retry-After`` is when the
        first one is expected to be free (its wall-clock deadline; one still computing may hold
        it up to :data:`BACKSTOP_FACTOR` times its budget)."""
        s = self.settings
        first = min(self.deadlines.values()) - time.monotonic()
        retry = max(1, math.ceil(first))
        return json_error(
            429,
            "too-many-requests",
            f"{s.max_computing} computing requests are running; retry in {retry} s",
            {"limit": "max_computing", "value": s.max_computing},
            {"Retry-After": str(retry)},
        )

    def compute(self, scope: Scope, body: bytes) -> list[Message]:
        """The request answered in a process of the pool within the budgets: its messages."""
        outcome = self.pool.run(scope, body)
        if outcome.messages is not None:
            return outcome.messages
        if outcome.crash is not None:
            return json_error(500, "internal-error", f"unexpected {outcome.crash}")
        return self.over(outcome.over or "compute_memory_bytes")

    def over(self, limit: str) -> list[Message]:
        """422: the request needed more than its budget."""
        s = self.settings
        detail: dict[str, Any]
        if limit == "compute_seconds":
            text = f"the request needs more than its {s.compute_seconds:g} s of CPU time"
            detail = {"limit": limit, "value": s.compute_seconds, "clock": "cpu"}
        elif limit == WALL:
            wall = s.compute_seconds * WALL_FACTOR
            text = (
                f"the request took more than its {wall:g} s of wall-clock time "
                f"({WALL_FACTOR:g} times its {s.compute_seconds:g} s of CPU time)"
            )
            detail = {"limit": "compute_seconds", "value": s.compute_seconds, "clock": "wall"}
        else:
            text = f"the request needs more than its {s.compute_memory_bytes >> 20} MiB of memory"
            detail = {"limit": limit, "value": s.compute_memory_bytes}
        return json_error(422, "limit-exceeded", text, detail)


async def _read_body(receive: Receive) -> bytes | None:
    """The whole request body (None if the client disconnected)."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _send_all(send: Send, messages: list[Message]) -> None:
    for message in messages:
        await send(message)


class BodyLimit:
    """ASGI middleware: a request body over its limit gets 413 before any route reads it.

    The body is read up to the limit (whatever ``Content-Length`` claims, and for chunked
    bodies too) and handed on; ``big_path`` (``POST /v1/batch``) has its own, larger limit.
    """

    def __init__(self, app: ASGIApp, settings: Settings, big_path: str) -> None:
        self.app = app
        self.settings = settings
        self.big_path = big_path
        """The route with the larger limit (``POST /v1/batch``)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        big = scope["path"] == self.big_path
        limit = self.settings.max_batch_bytes if big else self.settings.max_body_bytes
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > limit:
                    await self._refuse(scope, receive, send, limit)
                    return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay_messages([message]), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._refuse(scope, receive, send, limit)
                return
            chunks.append(chunk)
            more = bool(message.get("more_body", False))
        body = b"".join(chunks)
        await self.app(scope, _replay_messages([{"type": "http.request", "body": body}]), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        from deckcheck.service.error import error_response

        resp = error_response(
            413,
            "too-large",
            f"the request body is over {limit} bytes",
            {
                "limit": "max_body_bytes"
                if limit == self.settings.max_body_bytes
                else "max_batch_bytes",
                "value": limit,
            },
        )
        resp.headers["Connection"] = "close"
        await resp(scope, receive, send)


def _replay_messages(messages: list[Message]) -> Receive:
    """A ``receive`` handing out ``messages``, then a disconnect."""
    pending = list(messages)

    async def receive() -> Message:
        if pending:
            return pending.pop(0)
        return {"type": "http.disconnect"}

    return receive
