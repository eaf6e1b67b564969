"""A worker's compute pool: processes forked ahead of time that answer computing requests.

:class:`Pool` keeps up to ``max_computing`` processes, each forked from the worker once it has
imported what the computing routes use (:data:`PRELOAD`: numpy, the goldfish engines, the
batch and metagame drivers) and warmed its data. A process answers one request at a time, for
as long as it lives: a request costs no import and no fork, and the pages a process copied from
its worker (copy-on-write) stay its own for the next request.

Each request keeps its budgets (see :mod:`deckcheck.service.limit`): the process's CPU time and
resident set are watched by the worker thread that waits for its answer (every 20 ms), and its
CPU time (``RLIMIT_CPU``, a backstop) and address space (``RLIMIT_AS``) are capped afresh before
every request. A process over a budget is killed with its memory and replaced by a new one at
once; so is one that dies, one that keeps more than :data:`RETAIN` of memory after a request,
and one forked before the data it answers from was reloaded (a process serves only requests
pinned to the data it holds: ``key``).

The processes run at a lower priority, hold none of the worker's sockets, ignore the terminal's
SIGINT and SIGHUP (their worker stops them), use one malloc arena (the address space a request
reserves does not depend on its threads' timing) and exit when their worker goes away (the end
of their request pipe closes).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import pickle
import select
import signal
import struct
import threading
import time
import warnings
import weakref
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
"""Seconds between two looks at a process's CPU time and memory during a request."""
WALL_FACTOR = 3.0
"""A request's wall-clock deadline, as a multiple of its CPU budget (it runs at low priority).
Past it, a request that is still computing (its CPU time grew in the last second) goes on, so
its CPU budget decides whatever the machine's load: the same request gets the same answer; one
that waits without computing is stopped."""
BACKSTOP_FACTOR = 10.0
"""The wall-clock time a request may take in any case, as a multiple of its CPU budget."""
MIN_PROGRESS = 0.01
"""CPU seconds a request must have used in the last second to count as still computing."""
NICE = 10
"""How much lower a pool process's priority is than its worker's."""
AS_SLACK = 256 << 20
"""Address space a request may reserve beyond its memory budget (thread stacks, malloc arenas)."""
RETAIN = 32 << 20
"""Memory a process may keep from its requests (beyond what it held after its first one)
before it is replaced: the next request then starts from the same memory, and is decided the
same way."""
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PRELOAD = (
    "ctypes",
    "numpy",
    "deckcheck.goldfish.engine",
    "deckcheck.goldfish.exact",
    "deckcheck.goldfish.montecarlo",
    "deckcheck.goldfish.sweep",
    "deckcheck.goldfish.side",
    "deckcheck.run.siding",
    "deckcheck.run.signature",
    "deckcheck.run.batch",
    "deckcheck.run.meta",
    "deckcheck.reporter.document.validation",
    "deckcheck.reporter.document.goldfish",
    "deckcheck.reporter.document.meta",
)
"""Modules the worker imports before it forks its pool, so that no process imports them."""
WALL = "compute_wall_seconds"
"""The internal name of the wall-clock deadline (reported as ``compute_seconds``, ``wall``)."""
LOCAL = ("app",)
"""Entries of a request's scope a process takes from its own copy of the worker (they are the
same object for every request, and do not pickle)."""
HEAD = struct.Struct(">Q")
"""The length prefix of a message on a pool process's pipes."""

# Python 3.12+ warns on every fork of a process with threads; a pool process only answers
# requests (its imports done beforehand, no lock of another thread needed) and is watched by a
# deadline, so the warning says nothing to an operator.
warnings.filterwarnings(
    "ignore", message=r".*use of fork\(\) may lead to deadlocks", category=DeprecationWarning
)


class Gone(Exception):
    """A pool process was found dead before it took a request up (the system ended it)."""


@dataclass(eq=False)
class Process:
    """One process of the pool, seen from its worker."""

    pid: int
    ask: int
    """The worker's end of the pipe requests go down."""
    answer: int
    """The worker's end of the pipe answers come up."""
    key: object
    """What the data it holds is known by (requests with another key go to another process)."""
    settled: int | None = None
    """Its resident bytes after its first request (what :data:`RETAIN` is counted from)."""


@dataclass
class Outcome:
    """How one request went in a process."""

    messages: list[Message] | None
    """The answer's ASGI messages (None when a budget stopped it, or on a crash)."""
    crash: str | None = None
    """The type of the unexpected exception the request raised, if it did."""
    over: str | None = None
    """The budget it ran over: ``compute_seconds``, :data:`WALL`, ``compute_memory_bytes``."""
    alive: bool = True
    """Whether the process lives on (False: it died or was killed, and is reaped)."""


class Pool:
    """The compute processes of one worker, for ``app`` (the ASGI app they answer with)."""

    def __init__(
        self, app: ASGIApp, settings: Settings, key: Callable[[], object] | None = None
    ) -> None:
        self.app = app
        self.settings = settings
        self.key = key or (lambda: None)
        """The key of the data the calling request is pinned to (see :class:`Process`)."""
        self.local: dict[str, Any] = {}
        """The :data:`LOCAL` entries of the latest scope (processes forked later keep them)."""
        self.idle: list[Process] = []
        self.known: set[Process] = set()
        """Every process alive, idle or busy (a new one closes their pipes)."""
        self.lock = threading.Lock()
        self.preloaded = False
        weakref.finalize(self, _end_all, self.known)

    def start(self) -> None:
        """Fork the processes the pool lacks (at the worker's start-up: from a thread without
        a running event loop)."""
        with self.lock:
            lacking = self.settings.max_computing - len(self.known)
        for _ in range(max(0, lacking)):
            process = self._spawn()
            with self.lock:
                self.idle.append(process)

    def stop(self) -> None:
        """End every process (at the worker's shutdown)."""
        with self.lock:
            self.idle.clear()
        _end_all(self.known)

    def run(self, scope: Scope, body: bytes) -> Outcome:
        """Answer the request in a process of the pool, within its budgets (from a thread
        without a running event loop)."""
        for name in LOCAL:
            if name in scope:
                self.local[name] = scope[name]
        sent = {k: v for k, v in scope.items() if k not in LOCAL}
        process = self._take()
        try:
            outcome = _ask(process, sent, body, self.settings)
        except (BrokenPipeError, Gone):  # it died while idle (the system ended it): again, anew
            self._end(process)
            process = self._spawn()
            outcome = _ask(process, sent, body, self.settings)
        self._give_back(process, outcome)
        return outcome

    def _take(self) -> Process:
        """An idle process holding the request's data, else a new one in place of another."""
        key = self.key()
        with self.lock:
            mine = [p for p in self.idle if p.key == key]
            chosen = mine[0] if mine else (self.idle[0] if self.idle else None)
            if chosen is not None:
                self.idle.remove(chosen)
        if chosen is not None and chosen.key == key:
            return chosen
        if chosen is not None:
            self._end(chosen)  # forked before a reload: replaced by one with today's data
        return self._spawn()

    def _give_back(self, process: Process, outcome: Outcome) -> None:
        """Put the process back, or end it and put a new one in its place."""
        if outcome.alive:
            held = _resident(process.pid) or 0
            if process.settled is None:
                process.settled = held
            if held - process.settled <= RETAIN:
                with self.lock:
                    self.idle.append(process)
                return
        self._end(process)
        fresh = self._spawn()
        with self.lock:
            self.idle.append(fresh)

    def _spawn(self) -> Process:
        """Fork a new process (in the calling thread: it holds the request's context)."""
        if not self.preloaded:
            preload()
            self.preloaded = True
        key = self.key()
        with self.lock:  # no other fork in between: a child holds only its own pipes
            ask_read, ask_write = os.pipe()
            answer_read, answer_write = os.pipe()
            others = [fd for p in self.known for fd in (p.ask, p.answer)]
            pid = os.fork()
            if pid == 0:  # the process: never returns
                for fd in (ask_write, answer_read, *others):
                    os.close(fd)
                _serve(self.app, self.settings, dict(self.local), ask_read, answer_write)
            os.close(ask_read)
            os.close(answer_write)
            process = Process(pid, ask_write, answer_read, key)
            self.known.add(process)
        return process

    def _end(self, process: Process) -> None:
        """Kill and reap a process, and close its pipes."""
        with self.lock:
            self.known.discard(process)
        _end_all({process})


def _end_all(processes: set[Process]) -> None:
    """Kill and reap ``processes`` (taken out of the set), closing their pipes."""
    while processes:
        try:
            process = processes.pop()
        except KeyError:  # another thread took the last one
            return
        for fd in (process.ask, process.answer):
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            os.kill(process.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.waitpid(process.pid, 0)


def preload() -> None:
    """Import :data:`PRELOAD` (what is missing, such as numpy without the goldfish extra, is
    left to the process that needs it), and build the validators of the documents those
    modules define (built on first use otherwise: once in every process of the pool)."""
    import importlib

    from deckcheck.reporter.document.base import Doc

    for name in PRELOAD:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Doc) and value is not Doc:
                value.model_rebuild()


# -- the worker's side of one request ----------------------------------------------------------


EXIT_CPU = 0.25
"""CPU seconds a process ended from outside may add after its last reading without having
taken a request up: tearing down a worker-sized heap is system time its usage counts."""


def _ask(process: Process, scope: Scope, body: bytes, s: Settings) -> Outcome:
    """Send the request to the process and wait for its answer, within the budgets."""
    if os.waitpid(process.pid, os.WNOHANG)[0]:
        raise Gone(process.pid)  # ended (and now reaped) before this request came
    start_cpu = _cpu(process.pid) or 0.0
    idle = start_cpu + EXIT_CPU  # CPU time it ends below, if it never took the request up
    base = _resident(process.pid)
    _write_frame(process.ask, pickle.dumps((scope, body)))
    frame, over = _watch(process, s, start_cpu, base)
    if over is not None:
        with contextlib.suppress(OSError):
            os.kill(process.pid, signal.SIGKILL)
    if frame is not None and over is None:
        try:
            got = pickle.loads(frame)
        except Exception:  # a damaged answer: the process is not to be trusted again
            over = "compute_memory_bytes"
        else:
            return Outcome(None, crash=got) if isinstance(got, str) else Outcome(got)
    _, status, usage = os.wait4(process.pid, 0)
    killed = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    if over is None and killed == signal.SIGXCPU:
        over = "compute_seconds"
    elif over is None and killed is not None and usage.ru_utime + usage.ru_stime < idle:
        raise Gone(process.pid)  # ended from outside before it took the request up
    return Outcome(None, over=over or "compute_memory_bytes", alive=False)


def _watch(
    process: Process, s: Settings, start_cpu: float, base: int | None
) -> tuple[bytes | None, str | None]:
    """Read the process's answer while watching its CPU time, memory and deadline: the
    answer's bytes (None if it died first) and the budget it ran over, if any."""
    start = time.monotonic()
    deadline = start + s.compute_seconds * WALL_FACTOR
    backstop = start + s.compute_seconds * BACKSTOP_FACTOR
    progress = 0.0
    got = bytearray()
    while True:
        ready, _, _ = select.select([process.answer], [], [], POLL)
        if ready:
            chunk = os.read(process.answer, 1 << 16)
            if not chunk:
                return None, None  # it died: its exit status says why
            got += chunk
            if len(got) >= HEAD.size and len(got) - HEAD.size >= HEAD.unpack_from(got)[0]:
                return bytes(got[HEAD.size :]), None
            continue
        used = (_cpu(process.pid) or start_cpu) - start_cpu
        now = time.monotonic()
        if used > s.compute_seconds:
            return None, "compute_seconds"
        if base is not None and (_resident(process.pid) or 0) - base > s.compute_memory_bytes:
            return None, "compute_memory_bytes"
        if now > deadline:
            if used > progress + MIN_PROGRESS and now < backstop:
                progress, deadline = used, now + 1.0  # still computing: its CPU budget decides
            else:
                return None, WALL


def _write_frame(fd: int, data: bytes) -> None:
    """``data`` down a pipe, after its length."""
    view = memoryview(HEAD.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


def _read_frame(fd: int) -> bytes | None:
    """The next message up a pipe (None when its other end is closed)."""
    head = _read_exactly(fd, HEAD.size)
    if head is None:
        return None
    return _read_exactly(fd, HEAD.unpack(head)[0])


def _read_exactly(fd: int, n: int) -> bytes | None:
    got = bytearray()
    while len(got) < n:
        chunk = os.read(fd, min(n - len(got), 1 << 20))
        if not chunk:
            return None
        got += chunk
    return bytes(got)


# -- the process's side ------------------------------------------------------------------------


def _serve(app: ASGIApp, s: Settings, local: dict[str, Any], ask: int, answer: int) -> None:
    """In a pool process: answer requests one by one until the worker goes away; exit."""
    import gc

    code = 3  # out of memory while answering: the worker reports the memory budget
    try:
        _confine()
        gc.freeze()  # what it shares with its worker: never walked, so never copied by the GC
        code = asyncio.new_event_loop().run_until_complete(_answer_all(app, s, local, ask, answer))
    except BaseException:
        code = 3
    finally:
        os._exit(code)


async def _answer_all(
    app: ASGIApp, s: Settings, local: dict[str, Any], ask: int, answer: int
) -> int:
    """Answer the requests that come down ``ask`` (one task, the loop's root, for the process's
    life: the threads a route runs in are kept from one request to the next); the exit code."""
    while (frame := _read_frame(ask)) is not None:  # waits, blocking: nothing else is running
        scope, body = pickle.loads(frame)
        scope.update(local)
        _limit(s)
        messages = await _run(app, scope, body)
        if messages is None:
            return 3
        _write_frame(answer, pickle.dumps(messages))
    return 0


async def _run(app: ASGIApp, scope: Scope, body: bytes) -> list[Message] | str | None:
    """The request's answer: its messages, the type of the unexpected exception it raised, or
    None when it ran out of memory."""
    messages: list[Message] = []

    async def send(message: Message) -> None:
        messages.append(message)

    try:
        await asyncio.ensure_future(app(scope, replay_body(body), send))
    except Exception as exc:
        if _out_of_memory(exc):
            return None
        return type(exc).__name__
    finally:
        await _cancel_the_rest()
    if not any(m["type"] == "http.response.body" and not m.get("more_body") for m in messages):
        return None
    return messages


async def _cancel_the_rest() -> None:
    """Cancel what a request left running (a wait for more of its body)."""
    rest = asyncio.all_tasks() - {asyncio.current_task()}
    for task in rest:
        task.cancel()
    if rest:
        await asyncio.gather(*rest, return_exceptions=True)


def replay_body(body: bytes) -> Receive:
    """``receive`` of a request whose body was read whole: the body once, then nothing more."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)  # the request is whole: nothing more ever comes
        return {"type": "http.disconnect"}

    return receive


def _out_of_memory(exc: BaseException) -> bool:
    if isinstance(exc, MemoryError):
        return True
    if isinstance(exc, BaseExceptionGroup):
        return any(_out_of_memory(e) for e in exc.exceptions)
    return exc.__cause__ is not None and _out_of_memory(exc.__cause__)


def _confine() -> None:
    """The process's priority, signals and allocator (none of the worker's handlers)."""
    import resource

    _drop_sockets()  # first: the lower priority below marks a process that holds none
    _one_arena()
    with contextlib.suppress(ValueError, OSError):
        signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for sig in (signal.SIGINT, signal.SIGHUP):  # the terminal's: the worker stops its pool
        signal.signal(sig, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(NICE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # SIGXCPU would dump a core


def _limit(s: Settings) -> None:
    """Cap the next request: its CPU time (a backstop: the worker stops it at its budget) and
    the address space it may add."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = math.ceil(usage.ru_utime + usage.ru_stime + s.compute_seconds) + 1
    with contextlib.suppress(ValueError, OSError):
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, hard))
    size = _virtual(os.getpid())
    if size is not None:
        with contextlib.suppress(ValueError, OSError):
            _, hard = resource.getrlimit(resource.RLIMIT_AS)
            resource.setrlimit(resource.RLIMIT_AS, (size + s.compute_memory_bytes + AS_SLACK, hard))


def _one_arena() -> None:
    """One malloc arena for the process (glibc reserves 64 MiB of address space per arena, and
    each thread may take a new one: the address space would vary from run to run)."""
    import ctypes

    m_arena_max = -8  # glibc's M_ARENA_MAX
    with contextlib.suppress(OSError, AttributeError, TypeError):
        ctypes.CDLL(None).mallopt(m_arena_max, 1)  # the process's own symbols (libc)


def _drop_sockets() -> None:
    """Let go of every socket the process inherited (the listening one, clients' connections):
    a connection the worker closes must close, whatever the pool computes. Each is replaced by
    ``/dev/null`` rather than closed, so that no stale socket object can close a new file."""
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
