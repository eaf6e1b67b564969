"""What a service process answers from, one dataset per request, and reloads without loss.

* :class:`State` is one dataset with what is derived from it (card search, cached card
  documents, the ETag prefix), built and warmed before it is put in service.
* :class:`Pin` (ASGI middleware) captures the state once when a request arrives: everything the
  request reads (``svc.data``, ``svc.finder``...) comes from it, even in worker threads, so a
  reload in between never mixes two datasets in one answer. Every answer says which data it
  came from in ``X-Deckcheck-Data`` (the first 16 digits of the fingerprint, as in ETags).
* :class:`Reloader` loads the active data again on SIGHUP in a thread, warms it, then swaps it
  in: requests keep being answered from the old data meanwhile, and none is dropped. Every reload
  is logged with the old and new fingerprints; a failed one is logged, keeps the old data, and
  shows on ``/healthz`` (``reload``).
* :class:`Supervisor` is uvicorn's process manager with one change: SIGHUP is passed to every
  worker (which reloads in place) instead of replacing the workers (which drops requests on
  keep-alive connections and gives up when a new worker is slow to start).
* :class:`Siblings`: the workers of one ``deckcheck serve --workers N`` each record the data
  they serve in a folder of the server's (``DECKCHECK_WORKERS_DIR``, made by ``serve``), so
  ``/healthz`` lists every live worker's fingerprint and says when they differ
  (``workers.consistent``). A worker that starts (the first ones, or one restarted after a
  crash) and finds a sibling serving other data asks the supervisor to reload every worker
  (SIGHUP), so all answer from the active data again.

A failed reload shows on ``/healthz`` only as its error code and a fixed sentence: the full
error (which names the server's files) goes to the server log.
"""

from __future__ import annotations

import contextvars
import logging
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deckcheck.card.finder import CardFinder
    from deckcheck.data.dataset import Dataset
    from deckcheck.rule.format import Format

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

DATA_HEADER = "x-deckcheck-data"
"""Response header: the first 16 digits of the fingerprint of the data the answer came from."""

log = logging.getLogger("uvicorn.error")
"""Reloads are logged with the server's own messages."""


@dataclass(eq=False)
class State:
    """One dataset and what the service derives from it (read-only once in service)."""

    data: Dataset
    cards: dict[int, str] = field(default_factory=dict)
    """Card documents as JSON, by passcode (filled as cards are asked for)."""
    formats: dict[tuple[str | None, str | None, str | None], Format] = field(default_factory=dict)
    """Formats asked by name, by (name, timeline, TCG region) (filled as they are asked for)."""
    _finder: CardFinder | None = None

    @property
    def tag(self) -> str:
        """The first 16 digits of the data's fingerprint (ETags, ``X-Deckcheck-Data``)."""
        return self.data.fingerprint[:16]

    @property
    def finder(self) -> CardFinder:
        """The as-you-type card search of this data (built by :meth:`warm` or on first use)."""
        if self._finder is None:
            from deckcheck.card.finder import CardFinder

            self._finder = CardFinder(self.data.cards)
        return self._finder

    def warm(self) -> None:
        """Load every part of the data now, so that no request pays for it."""
        ds = self.data
        ds.cards.get(ds.cards.passcodes()[0])
        ds.cards.name_table()
        _ = ds.banlists, ds.formats
        self.finder.search("a")


_pinned: contextvars.ContextVar[State | None] = contextvars.ContextVar(
    "deckcheck_state", default=None
)


@dataclass
class ReloadStatus:
    """The last reload of a process: ``/healthz`` shows it."""

    status: str = "none"
    """``none`` (never reloaded), ``ok`` or ``failed``."""
    at: str | None = None
    error: str | None = None


class Holder:
    """The state in service, swapped whole by a reload; a request reads the one it pinned."""

    def __init__(self, data: Dataset) -> None:
        self.live = State(data)
        self.reload = ReloadStatus()

    @property
    def state(self) -> State:
        """The request's pinned state, else (outside a request) the live one."""
        return _pinned.get() or self.live

    def swap(self, new: State) -> State:
        """Put ``new`` in service; the previous state (requests pinned to it finish on it)."""
        old, self.live = self.live, new
        return old


class Pin:
    """ASGI middleware: pin the live state for the whole request; say which in a header."""

    def __init__(self, app: ASGIApp, holder: Holder) -> None:
        self.app = app
        self.holder = holder

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = self.holder.live
        token = _pinned.set(state)
        tag = (DATA_HEADER.encode(), state.tag.encode())

        async def send_tagged(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message, headers=[*message.get("headers", ()), tag])
            await send(message)

        try:
            await self.app(scope, receive, send_tagged)
        finally:
            _pinned.reset(token)


class Reloader:
    """Reload the active data in a thread, warm it, swap it in; one reload at a time."""

    def __init__(
        self, holder: Holder, load: Callable[[], Dataset], siblings: Siblings | None = None
    ) -> None:
        self.holder = holder
        self.load = load
        self.lock = threading.Lock()
        self.siblings = siblings

    def start(self) -> None:
        """Reload in the background (a SIGHUP handler calls this; it returns at once)."""
        threading.Thread(target=self.run, name="deckcheck-reload", daemon=True).start()

    def run(self) -> None:
        """Reload now (in the calling thread); the outcome is logged and kept for /healthz."""
        with self.lock:
            old = self.holder.live.data.fingerprint
            now = datetime.now(UTC).isoformat(timespec="seconds")
            t0 = time.monotonic()
            try:
                new = State(self.load())
                new.warm()
            except Exception as exc:  # any unusable data: keep answering from the old
                self.holder.reload = ReloadStatus("failed", now, public_reason(exc))
                log.error(
                    "deckcheck: data reload failed, still serving %s: %s: %s",
                    old[:16],
                    type(exc).__name__,
                    exc,
                )
                return
            self.holder.swap(new)
            self.holder.reload = ReloadStatus("ok", now)
            if self.siblings is not None:
                self.siblings.record(new)
            log.info(
                "deckcheck: data reloaded in %.1f s: %s -> %s",
                time.monotonic() - t0,
                old[:16],
                new.data.fingerprint[:16],
            )


def public_reason(exc: BaseException) -> str:
    """What ``/healthz`` says of a failed reload: the error's code and a fixed sentence, never
    its message (which names the server's data folder and files)."""
    code = getattr(exc, "code", None)
    kind = code if isinstance(code, str) else "internal-error"
    return f"{kind}: the new data could not be used; the server log has the details"


WORKERS_ENV = "DECKCHECK_WORKERS_DIR"
"""The folder where the workers of one ``deckcheck serve`` record the data they serve."""
SUPERVISOR_ENV = "DECKCHECK_SUPERVISOR_PID"
"""The process id of the supervisor of those workers (the one a worker may send SIGHUP)."""
MAX_RECORD_BYTES = 4096
"""Size cap of one worker's record."""


class Siblings:
    """The records of the workers of one server: which data each serves."""

    def __init__(self, folder: str, supervisor: int | None) -> None:
        from pathlib import Path

        self.folder = Path(folder)
        self.supervisor = supervisor

    @classmethod
    def from_env(cls) -> Siblings | None:
        """The workers' folder ``deckcheck serve`` made (None: a single process)."""
        import os

        from deckcheck.boundary import read_number

        folder = os.environ.get(WORKERS_ENV)
        if not folder:
            return None
        pid = os.environ.get(SUPERVISOR_ENV, "")
        return cls(folder, read_number(pid, 1 << 62))

    def record(self, state: State) -> None:
        """Record (atomically) the data this worker serves now."""
        import json
        import os

        doc = {
            "pid": os.getpid(),
            "fingerprint": state.data.fingerprint,
            "as_of": state.data.as_of.isoformat(),
        }
        path = self.folder / f"{os.getpid()}.json"
        tmp = path.with_suffix(".tmp")
        try:
            tmp.write_text(json.dumps(doc), encoding="utf-8")  # a private server folder
            os.replace(tmp, path)
        except OSError as exc:
            log.warning("deckcheck: cannot record this worker's data in %s: %s", self.folder, exc)

    def workers(self) -> list[dict[str, Any]]:
        """Every live worker's record (pid, fingerprint, as_of), by pid."""
        import json
        import os

        from deckcheck.boundary import read_data, read_number

        found: list[dict[str, Any]] = []
        try:
            names = sorted(os.listdir(self.folder))
        except OSError:
            return found
        for name in names:
            pid = read_number(name.removesuffix(".json"), 1 << 62)
            if not name.endswith(".json") or pid is None or not _alive(pid):
                continue
            try:
                doc = json.loads(read_data(self.folder / name, MAX_RECORD_BYTES))
            except (OSError, ValueError):
                continue
            if isinstance(doc, dict) and isinstance(doc.get("fingerprint"), str):
                found.append(
                    {
                        "pid": pid,
                        "fingerprint": doc["fingerprint"],
                        "as_of": str(doc.get("as_of")),
                    }
                )
        return found

    def started(self, state: State) -> None:
        """A worker starts: record its data; if a live sibling serves other data, ask the
        supervisor to reload every worker (the active data then serves everywhere)."""
        import os
        import signal

        self.record(state)
        others = {w["fingerprint"] for w in self.workers() if w["pid"] != os.getpid()}
        if not others or others == {state.data.fingerprint}:
            return
        log.warning(
            "deckcheck: this worker serves %s, a sibling serves %s: reloading every worker",
            state.tag,
            ", ".join(sorted(f[:16] for f in others)),
        )
        if self.supervisor is not None and self.supervisor == os.getppid():
            os.kill(self.supervisor, signal.SIGHUP)

    def health(self, state: State) -> dict[str, Any]:
        """The ``workers`` object of ``/healthz``."""
        found = self.workers()
        prints = {w["fingerprint"] for w in found} | {state.data.fingerprint}
        return {"count": len(found), "consistent": len(prints) == 1, "fingerprints": sorted(prints)}


def single_health(state: State) -> dict[str, Any]:
    """The ``workers`` object of ``/healthz`` for a server of one process."""
    return {"count": 1, "consistent": True, "fingerprints": [state.data.fingerprint]}


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def load_active() -> Dataset:
    """The active data resolved again; :class:`~deckcheck.error.DataError` when an installed
    bundle cannot be used (the library would fall back to the bundled data: a reload keeps
    what it serves instead, and says why)."""
    from deckcheck.data.dataset import DataOrigin, Dataset
    from deckcheck.data.store import open_installed
    from deckcheck.error import DataError

    data = Dataset.reload_active()
    origin, why = Dataset.active_origin()
    if origin is DataOrigin.BUNDLED and why is not None:
        installed, problem = open_installed()
        if installed is None and problem is not None:
            raise DataError(problem)
    return data


def on_sighup(reloader: Reloader) -> None:
    """Reload on SIGHUP (Unix, in the process's main thread; elsewhere only a restart)."""
    import asyncio
    import contextlib
    import signal

    hup = getattr(signal, "SIGHUP", None)
    if hup is None:
        return
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        asyncio.get_running_loop().add_signal_handler(hup, reloader.start)


def _supervisor() -> type:
    from uvicorn.supervisors import Multiprocess

    class Supervisor(Multiprocess):
        """uvicorn's worker manager; SIGHUP goes to every worker, which reloads in place."""

        def handle_hup(self) -> None:
            import os
            import signal

            log.info("deckcheck: SIGHUP: every worker reloads its data")
            for process in self.processes:
                if process.pid is not None:
                    os.kill(process.pid, signal.SIGHUP)

    return Supervisor


def __getattr__(name: str) -> Any:
    if name == "Supervisor":  # uvicorn is imported only when serving with workers
        return _supervisor()
    raise AttributeError(name)
