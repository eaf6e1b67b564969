"""Budgets of the computing routes: CPU time, memory and how many run at once.

``POST /v1/simulate`` and ``POST /v1/batch`` can cost far more than their size suggests (an
exact goldfish run over many categories, a thousand decks). :class:`ComputeLimit` runs each
such request in a child process forked from the worker, so that:

* its CPU time is capped (``RLIMIT_CPU``); a wall-clock deadline of 3 times the budget stops a
  child that waits without computing (one still computing is left to its CPU budget, up to 10
  times the budget of wall-clock time), so a busy machine does not change the answer;
* the memory it adds is capped (its resident set is watched every 20 ms, and its address
  space is capped with ``RLIMIT_AS`` as a backstop);
* it runs at a lower priority (``nice``), so the worker's event loop keeps answering;
* a request over its budget gets 422 ``limit-exceeded`` and the child is gone with its memory;
* at most ``max_computing`` run at once in a worker: more get 429 with ``Retry-After``.

The child answers from the worker's dataset as it was when it was forked (one dataset per
request). Before the first child is forked the worker imports what the children compute with
(numpy, the goldfish engines, the batch and metagame drivers: :data:`PRELOAD`), so no child
pays for those imports again. A refusal says which budget it met: CPU time
(``detail.clock: "cpu"``) or the wall-clock deadline (``"wall"``); ``detail.limit`` is
``compute_seconds`` for both. A child uses one malloc arena, so the address space it reserves
(capped by ``RLIMIT_AS``) does not depend on how its threads happen to be scheduled: the same
request is decided the same way every time. Where ``fork`` does not exist (Windows) the
request runs in the worker, with the concurrency limit only.
"""

from __future__ import annotations

import asyncio
import math
import os
import pickle
import select
import signal
import time
import warnings
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from deckcheck.service.config import Settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

POLL = 0.02
"""Seconds between two looks at a child's memory."""
WALL_FACTOR = 3.0
"""A child's wall-clock deadline, as a multiple of its CPU budget (it runs at low priority).
Past it, a child that is still computing (its CPU time grew in the last second) goes on, so its
CPU budget decides whatever the machine's load: the same request gets the same answer; a child
that waits without computing is stopped."""
BACKSTOP_FACTOR = 10.0
"""The wall-clock time a child may take in any case, as a multiple of its CPU budget."""
MIN_PROGRESS = 0.01
"""CPU seconds a child must have used in the last second to count as still computing."""
NICE = 10
"""How much lower a child's priority is than its worker's."""
AS_SLACK = 256 << 20
"""Address space a child may reserve beyond its memory budget (thread stacks, malloc arenas)."""
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PRELOAD = (
    "ctypes",
    "numpy",
    "deckcheck.goldfish.engine",
    "deckcheck.goldfish.exact",
    "deckcheck.goldfish.montecarlo",
    "deckcheck.goldfish.sweep",
    "deckcheck.run.batch",
    "deckcheck.run.meta",
    "deckcheck.reporter.document",
    "deckcheck.reporter.document.meta",
)
"""Modules the worker imports before its first fork, so that no child imports them again."""
WALL = "compute_wall_seconds"
"""The internal name of the wall-clock deadline (reported as ``compute_seconds``, ``wall``)."""

# Python 3.12+ warns on every fork of a process with threads; the child here only runs the
# request (its imports done beforehand, no lock of another thread needed) and is watched by a
# deadline, so the warning says nothing to an operator.
warnings.filterwarnings(
    "ignore", message=r".*use of fork\(\) may lead to deadlocks", category=DeprecationWarning
)


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
    """ASGI middleware: the budgets above for the POST routes in ``paths``."""

    def __init__(self, app: ASGIApp, settings: Settings, paths: frozenset[str]) -> None:
        self.app = app
        self.settings = settings
        self.paths = paths
        self.deadlines: dict[int, float] = {}
        """Wall-clock deadline of each computing request running, by a serial number."""
        self.serial = 0
        self.preloaded = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
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
                await self.app(scope, _replay(body), send)
                return
            from starlette.concurrency import run_in_threadpool

            messages = await run_in_threadpool(self.in_child, scope, body)
            await _send_all(send, messages)
        finally:
            del self.deadlines[me]

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

    def in_child(self, scope: Scope, body: bytes) -> list[Message]:
        """Run the request in a forked child within the budgets; its answer's messages."""
        if not self.preloaded:
            preload()
            self.preloaded = True
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(read)
            _child(self.app, scope, body, write, self.settings)
        os.close(write)
        try:
            return self._watch(pid, read)
        finally:
            os.close(read)

    def _watch(self, pid: int, fd: int) -> list[Message]:
        """Read the child's answer while watching its memory and its deadline."""
        chunks, over = self._read(pid, fd)
        _, status = os.waitpid(pid, 0)
        if over is None and os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU:
            over = "compute_seconds"
        if over is None and chunks:
            try:
                got: list[Message] = pickle.loads(b"".join(chunks))
                return got
            except Exception:  # a child cut short by its memory cap
                over = "compute_memory_bytes"
        return self.over(over or "compute_memory_bytes")

    def _read(self, pid: int, fd: int) -> tuple[list[bytes], str | None]:
        """The child's answer as read from ``fd`` and the budget it went over (None: it
        closed the pipe); a child over its memory or its deadline is killed."""
        s = self.settings
        base = _resident(pid)
        start = time.monotonic()
        clock = _Deadline(
            start + s.compute_seconds * WALL_FACTOR, start + s.compute_seconds * BACKSTOP_FACTOR
        )
        chunks: list[bytes] = []
        while True:
            ready, _, _ = select.select([fd], [], [], POLL)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return chunks, None
                chunks.append(chunk)
                continue
            now = time.monotonic()
            over: str | None = None
            if base is not None and (_resident(pid) or 0) - base > s.compute_memory_bytes:
                over = "compute_memory_bytes"
            elif clock.passed(pid, now):
                over = WALL
            if over is not None:
                os.kill(pid, signal.SIGKILL)
                return chunks, over

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


@dataclass
class _Deadline:
    """A child's wall-clock deadline, moved a second on at a time while its CPU time still
    grows (never past the backstop)."""

    at: float
    backstop: float
    progress: float = 0.0
    """The child's CPU seconds when the deadline last moved."""

    def passed(self, pid: int, now: float) -> bool:
        """Whether the child is past its deadline (moving it on if it is still computing)."""
        if now <= self.at:
            return False
        used = _cpu(pid)
        if used is not None and used > self.progress + MIN_PROGRESS and now < self.backstop:
            self.progress, self.at = used, now + 1.0  # still computing: its CPU budget decides
            return False
        return True


def preload() -> None:
    """Import :data:`PRELOAD` (what is missing, such as numpy without the goldfish extra, is
    left to the child that needs it)."""
    import importlib

    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            continue


def _child(app: ASGIApp, scope: Scope, body: bytes, fd: int, s: Settings) -> None:
    """In the forked child: the budgets, the request, its messages down the pipe, exit."""
    code = 3  # no whole answer: the parent reports the memory budget
    try:
        _sandbox(s)
        messages = _run(app, scope, body)
        if messages is not None:
            data = pickle.dumps(messages)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            code = 0
    except BaseException:  # out of memory while answering: exit 3
        code = 3
    finally:
        os._exit(code)


def _run(app: ASGIApp, scope: Scope, body: bytes) -> list[Message] | None:
    """The request's answer (None when it ran out of memory; 500 on an unexpected error)."""
    messages: list[Message] = []

    async def send(message: Message) -> None:
        messages.append(message)

    async def main() -> None:
        await app(scope, _replay(body), send)

    try:
        asyncio.run(main())
    except Exception as exc:
        if _out_of_memory(exc):
            return None
        return json_error(500, "internal-error", f"unexpected {type(exc).__name__}")
    if not any(m["type"] == "http.response.body" and not m.get("more_body") for m in messages):
        return None
    return messages


def _out_of_memory(exc: BaseException) -> bool:
    if isinstance(exc, MemoryError):
        return True
    if isinstance(exc, BaseExceptionGroup):
        return any(_out_of_memory(e) for e in exc.exceptions)
    return exc.__cause__ is not None and _out_of_memory(exc.__cause__)


def _sandbox(s: Settings) -> None:
    """The child's budgets, priority and signals (none of the worker's handlers)."""
    import contextlib
    import resource

    _drop_sockets()  # first: the lower priority below marks a child that holds none
    _one_arena()
    with contextlib.suppress(ValueError, OSError):
        signal.set_wakeup_fd(-1)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    with contextlib.suppress(OSError):
        os.nice(NICE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # SIGXCPU would dump a core
    cpu = max(1, math.ceil(s.compute_seconds))
    with contextlib.suppress(ValueError, OSError):
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, hard))
    size = _virtual(os.getpid())
    if size is not None:
        with contextlib.suppress(ValueError, OSError):
            _, hard = resource.getrlimit(resource.RLIMIT_AS)
            resource.setrlimit(resource.RLIMIT_AS, (size + s.compute_memory_bytes + AS_SLACK, hard))


def _one_arena() -> None:
    """One malloc arena for the child (glibc reserves 64 MiB of address space per arena, and
    each thread may take a new one: the address space would vary from run to run)."""
    import contextlib
    import ctypes

    m_arena_max = -8  # glibc's M_ARENA_MAX
    with contextlib.suppress(OSError, AttributeError, TypeError):
        ctypes.CDLL(None).mallopt(m_arena_max, 1)  # the process's own symbols (libc)


def _drop_sockets() -> None:
    """Let go of every socket the child inherited (the listening one, clients' connections):
    a connection the worker closes must close, whatever a child is computing. Each is replaced
    by ``/dev/null`` rather than closed, so that no stale socket object can close a new file."""
    import stat

    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        fds = list(range(3, 1024))
    null = os.open(os.devnull, os.O_RDWR)
    for fd in fds:
        try:
            if fd != null and stat.S_ISSOCK(os.fstat(fd).st_mode):
                os.dup2(null, fd)
        except OSError:
            continue
    os.close(null)


def _statm(pid: int) -> list[int] | None:
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:  # a kernel line of a few numbers
            return [int(x) for x in f.read().split()]
    except (OSError, ValueError):
        return None


def _cpu(pid: int) -> float | None:
    """CPU seconds (user and system) a process has used (None where ``/proc`` does not exist)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:  # a kernel line of a few hundred bytes
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except (OSError, ValueError, IndexError):
        return None


def _resident(pid: int) -> int | None:
    """Bytes of a process's resident set (None where ``/proc`` does not exist)."""
    got = _statm(pid)
    return got[1] * PAGE if got else None


def _virtual(pid: int) -> int | None:
    """Bytes of a process's address space (None where ``/proc`` does not exist)."""
    got = _statm(pid)
    return got[0] * PAGE if got else None


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


def _replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)  # the request is whole: nothing more ever comes
        return {"type": "http.disconnect"}

    return receive


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
