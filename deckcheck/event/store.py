"""The event repository: a thin layer of SQL over the standard ``sqlite3`` module or psycopg 3.

:func:`open_store` picks the database: ``DECKCHECK_DATABASE_URL`` (``postgresql://...`` or
``sqlite:///path``), else ``events.sqlite3`` in the data home (``DECKCHECK_HOME``). Both run
the same schema (:mod:`deckcheck.event.migration`) and the same queries; the only differences
are spelt in :class:`Dialect` (placeholders, the auto-numbered key, how a write transaction
starts and locks its event).

Durability: every write is one transaction, committed before the caller answers. SQLite runs
in WAL mode with ``synchronous=FULL`` and foreign keys on; a write starts ``BEGIN IMMEDIATE``
(one writer at a time, the others wait up to :data:`BUSY_SECONDS`). On PostgreSQL a write takes
the event's row ``FOR SHARE`` (submissions run side by side) and locking or publishing takes it
``FOR UPDATE``, so no submission can commit after a lock that it did not see.

Connections are kept in a small pool per :class:`Store` (thread-safe), opened on demand.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from deckcheck.error import ConflictError, StorageError
from deckcheck.event.migration import LATEST, MIGRATIONS, VERSION_TABLE
from deckcheck.event.model import Action, AuditEntry, Entry, Event, parse_moment, utc_text

DATABASE_ENV = "DECKCHECK_DATABASE_URL"
"""The variable naming the event database."""
SQLITE_NAME = "events.sqlite3"
"""The default database's file name, in the data home."""
BUSY_SECONDS = 30.0
"""How long a write waits for another writer (SQLite) before it fails."""
POOL_SIZE = 8
"""Idle connections a store keeps."""
ADVISORY_KEY = 0x646563_6B6576
"""PostgreSQL advisory lock key of schema migrations."""

Row = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Dialect:
    """What differs between SQLite and PostgreSQL."""

    name: str
    placeholder: str
    serial: str
    begin_write: str
    share_event: str
    """Suffix of the event SELECT that starts a write (row lock, shared)."""
    own_event: str
    """Suffix of the event SELECT of a lock or publish (row lock, exclusive)."""

    def sql(self, text: str) -> str:
        """``text`` (written with ``?``) in this dialect's placeholders."""
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)


SQLITE = Dialect("sqlite", "?", "INTEGER PRIMARY KEY AUTOINCREMENT", "BEGIN IMMEDIATE", "", "")
POSTGRES = Dialect(
    "postgresql",
    "%s",
    "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    "BEGIN",
    " FOR SHARE",
    " FOR UPDATE",
)

EVENT_COLUMNS = (
    "id, name, format, event_date, deadline, tcg_region, created_at, locked_at, "
    "published_at, organiser_hash, judge_hash"
)
ENTRY_COLUMNS = (
    "id, event_id, player, player_id, deck, deck_format, fingerprint, legal, "
    "verdict, created_at, updated_at, version, edit_hash"
)
AUDIT_COLUMNS = (
    "seq, event_id, registration_id, action, actor, at, old_fingerprint, new_fingerprint"
)


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event with the hashes of its organiser and judge tokens."""

    event: Event
    organiser_hash: str
    judge_hash: str


@dataclass(frozen=True, slots=True)
class StoredEntry:
    """A registration with the hash of its edit token."""

    entry: Entry
    edit_hash: str


def _event(row: Row) -> StoredEvent:
    ev = Event(
        id=row[0],
        name=row[1],
        format=row[2],
        date=date.fromisoformat(row[3]),
        deadline=parse_moment(row[4]),
        tcg_region=row[5],
        created_at=parse_moment(row[6]),
        locked_at=parse_moment(row[7]) if row[7] else None,
        published_at=parse_moment(row[8]) if row[8] else None,
    )
    return StoredEvent(ev, row[9], row[10])


def _entry(row: Row) -> StoredEntry:
    e = Entry(
        id=row[0],
        event_id=row[1],
        player=row[2],
        player_id=row[3],
        deck=row[4],
        deck_format=row[5],
        fingerprint=row[6],
        legal=bool(row[7]),
        verdict_json=row[8],
        created_at=parse_moment(row[9]),
        updated_at=parse_moment(row[10]),
        version=int(row[11]),
    )
    return StoredEntry(e, row[12])


def _audit(row: Row) -> AuditEntry:
    return AuditEntry(
        int(row[0]), row[1], row[2], Action(row[3]), row[4], parse_moment(row[5]), row[6], row[7]
    )


class Tx:
    """One open transaction: the queries of the event operations."""

    def __init__(self, conn: Any, dialect: Dialect) -> None:
        self.conn = conn
        self.dialect = dialect

    def run(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Execute one statement (``?`` placeholders); the cursor."""
        cur = self.conn.cursor()
        cur.execute(self.dialect.sql(sql), tuple(params))
        return cur

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query."""
        return [tuple(r) for r in self.run(sql, params).fetchall()]

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, or None."""
        row = self.run(sql, params).fetchone()
        return tuple(row) if row is not None else None

    # -- events -----------------------------------------------------------------------------

    def event(self, event_id: str, lock: str = "") -> StoredEvent | None:
        """The event ``event_id`` (``lock``: a row-lock suffix of the dialect), or None."""
        row = self.one(f"SELECT {EVENT_COLUMNS} FROM events WHERE id = ?{lock}", (event_id,))
        return _event(row) if row is not None else None

    def events(self) -> list[StoredEvent]:
        """Every event, newest first."""
        rows = self.all(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY created_at DESC, id")
        return [_event(r) for r in rows]

    def insert_event(self, stored: StoredEvent) -> None:
        """Add an event."""
        ev = stored.event
        self.run(
            f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                ev.id,
                ev.name,
                ev.format,
                ev.date.isoformat(),
                utc_text(ev.deadline),
                ev.tcg_region,
                utc_text(ev.created_at),
                utc_text(ev.locked_at) if ev.locked_at else None,
                utc_text(ev.published_at) if ev.published_at else None,
                stored.organiser_hash,
                stored.judge_hash,
            ),
        )

    def set_moment(self, event_id: str, column: str, at: datetime) -> None:
        """Set ``locked_at`` or ``published_at`` (kept if already set)."""
        assert column in ("locked_at", "published_at")
        self.run(
            f"UPDATE events SET {column} = COALESCE({column}, ?) WHERE id = ?",
            (utc_text(at), event_id),
        )

    # -- registrations ----------------------------------------------------------------------

    def entries(self, event_id: str) -> list[StoredEntry]:
        """The event's registrations, in the order they were first submitted."""
        rows = self.all(
            f"SELECT {ENTRY_COLUMNS} FROM registrations WHERE event_id = ? ORDER BY created_at, id",
            (event_id,),
        )
        return [_entry(r) for r in rows]

    def entry(self, event_id: str, entry_id: str) -> StoredEntry | None:
        """One registration of the event, or None."""
        row = self.one(
            f"SELECT {ENTRY_COLUMNS} FROM registrations WHERE event_id = ? AND id = ?",
            (event_id, entry_id),
        )
        return _entry(row) if row is not None else None

    def entry_of_player(self, event_id: str, player_id: str) -> StoredEntry | None:
        """The registration of a player id, or None."""
        row = self.one(
            f"SELECT {ENTRY_COLUMNS} FROM registrations WHERE event_id = ? AND player_id = ?",
            (event_id, player_id),
        )
        return _entry(row) if row is not None else None

    def insert_entry(self, stored: StoredEntry) -> None:
        """Add a registration (:class:`ConflictError` if the player id is taken)."""
        e = stored.entry
        if self.entry_of_player(e.event_id, e.player_id) is not None:
            raise ConflictError(f"player id {e.player_id!r} is already registered")
        self.run(
            f"INSERT INTO registrations ({ENTRY_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                e.id,
                e.event_id,
                e.player,
                e.player_id,
                e.deck,
                e.deck_format,
                e.fingerprint,
                int(e.legal),
                e.verdict_json,
                utc_text(e.created_at),
                utc_text(e.updated_at),
                e.version,
                stored.edit_hash,
            ),
        )

    def replace_entry(self, e: Entry) -> None:
        """Replace a registration's player name, deck and verdict (same id and token)."""
        self.run(
            "UPDATE registrations SET player = ?, deck = ?, deck_format = ?, fingerprint = ?, "
            "legal = ?, verdict = ?, updated_at = ?, version = ? WHERE id = ? AND event_id = ?",
            (
                e.player,
                e.deck,
                e.deck_format,
                e.fingerprint,
                int(e.legal),
                e.verdict_json,
                utc_text(e.updated_at),
                e.version,
                e.id,
                e.event_id,
            ),
        )

    # -- audit ------------------------------------------------------------------------------

    def log(
        self,
        event_id: str,
        registration_id: str | None,
        action: Action,
        actor: str,
        at: datetime,
        old: str | None = None,
        new: str | None = None,
    ) -> None:
        """Append one audit entry."""
        self.run(
            "INSERT INTO audit (event_id, registration_id, action, actor, at, old_fingerprint, "
            "new_fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (event_id, registration_id, action.value, actor, utc_text(at), old, new),
        )

    def audit(self, event_id: str) -> list[AuditEntry]:
        """The event's audit log, oldest first."""
        rows = self.all(
            f"SELECT {AUDIT_COLUMNS} FROM audit WHERE event_id = ? ORDER BY seq", (event_id,)
        )
        return [_audit(r) for r in rows]


class Store:
    """The event database: a pool of connections and transactions over them."""

    def __init__(self, url: str, dialect: Dialect, target: str) -> None:
        self.url = url
        """Where the database is (for messages: a PostgreSQL URL without its password)."""
        self.dialect = dialect
        self._target = target
        self._idle: list[Any] = []
        self._lock = threading.Lock()
        self._migrated = False

    # -- connections ------------------------------------------------------------------------

    def _connect(self) -> Any:
        if self.dialect is SQLITE:
            conn = sqlite3.connect(
                self._target, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
            )
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute(f"PRAGMA busy_timeout={int(BUSY_SECONDS * 1000)}")
            return conn
        try:
            import psycopg
        except ImportError:
            raise StorageError(
                "a PostgreSQL event database needs psycopg: pip install 'deckcheck[event]'"
            ) from None
        try:
            return psycopg.connect(self._target, autocommit=True, connect_timeout=10)
        except psycopg.Error as exc:
            raise StorageError(f"cannot connect to {self.url}: {_first_line(exc)}") from None

    def _take(self) -> Any:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        try:
            return self._connect()
        except sqlite3.Error as exc:
            raise StorageError(f"cannot open {self.url}: {exc}") from None

    def _give(self, conn: Any) -> None:
        with self._lock:
            if len(self._idle) < POOL_SIZE:
                self._idle.append(conn)
                return
        conn.close()

    def close(self) -> None:
        """Close every idle connection."""
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    @contextmanager
    def transaction(self, *, write: bool) -> Iterator[Tx]:
        """One transaction, committed when the block ends (rolled back if it raises)."""
        if not self._migrated:
            self.migrate()
        conn = self._take()
        ok = False
        try:
            conn.execute(self.dialect.begin_write if write else "BEGIN")
            yield Tx(conn, self.dialect)
            conn.execute("COMMIT")
            ok = True
        except self._errors() as exc:
            raise self._storage_error(exc) from None
        finally:
            if ok:
                self._give(conn)
            else:
                self._drop(conn)

    def _drop(self, conn: Any) -> None:
        try:
            conn.execute("ROLLBACK")
        except Exception:  # the connection is gone anyway
            conn.close()
            return
        self._give(conn)

    def _errors(self) -> tuple[type[Exception], ...]:
        if self.dialect is SQLITE:
            return (sqlite3.Error,)
        import psycopg

        return (psycopg.Error,)

    def _storage_error(self, exc: Exception) -> Exception:
        text = _first_line(exc)
        integrity = (sqlite3.IntegrityError,)
        if self.dialect is POSTGRES:
            import psycopg

            integrity = (*integrity, psycopg.IntegrityError)  # type: ignore[assignment]
        if isinstance(exc, integrity) and "player_id" in text:
            return ConflictError(
                "this player id is already registered: use the edit link (PUT the registration "
                "with its edit token) to change the deck"
            )
        return StorageError(f"{self.url}: {text}")

    # -- schema -----------------------------------------------------------------------------

    def version(self) -> int:
        """The schema version of the database (0: none yet)."""
        conn = self._take()
        try:
            conn.execute(VERSION_TABLE)
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        except self._errors() as exc:
            self._drop(conn)
            raise StorageError(f"{self.url}: {_first_line(exc)}") from None
        self._give(conn)
        return int(row[0] or 0)

    def migrate(self) -> int:
        """Apply the missing migrations; the schema version. :class:`StorageError` for a
        database newer than this deckcheck."""
        conn = self._take()
        try:
            conn.execute(VERSION_TABLE)
            for step in MIGRATIONS:
                conn.execute(self.dialect.begin_write)
                try:
                    if self.dialect is POSTGRES:
                        conn.execute(f"SELECT pg_advisory_xact_lock({ADVISORY_KEY})")
                    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
                    have = int(row[0] or 0)
                    if have > LATEST:
                        raise StorageError(
                            f"{self.url}: the event database is at schema version {have}; this "
                            f"deckcheck knows up to {LATEST}: upgrade deckcheck"
                        )
                    if have < step.version:
                        for statement in step.statements:
                            conn.execute(statement.format(serial=self.dialect.serial))
                        conn.execute(
                            self.dialect.sql(
                                "INSERT INTO schema_version (version, about, "
                                "applied_at) VALUES (?, ?, ?)"
                            ),
                            (step.version, step.about, utc_text(datetime.now(UTC))),
                        )
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
        except self._errors() as exc:
            self._drop(conn)
            raise StorageError(f"{self.url}: {_first_line(exc)}") from None
        except BaseException:
            self._drop(conn)
            raise
        self._give(conn)
        self._migrated = True
        return LATEST


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def database_url(url: str | None = None, home: Path | None = None) -> str:
    """The database to use: ``url``, else ``DECKCHECK_DATABASE_URL``, else the SQLite file in
    the data home."""
    if url:
        return url
    env = os.environ.get(DATABASE_ENV, "").strip()
    if env:
        return env
    if home is None:
        from deckcheck.data.store import data_home

        home = data_home()
    return f"sqlite:///{home / SQLITE_NAME}"


def open_store(url: str | None = None, *, home: Path | None = None) -> Store:
    """The event store at ``url`` (see :func:`database_url`): ``sqlite:///PATH`` or
    ``postgresql://...``; the schema is brought up to date on first use."""
    got = database_url(url, home)
    scheme, sep, rest = got.partition("://")
    scheme = scheme.lower()
    if sep and scheme in ("postgresql", "postgres"):
        return Store(_hide_password(got), POSTGRES, got)
    if sep and scheme == "sqlite":
        # sqlite:///relative.db, sqlite:////absolute/path.db (as SQLAlchemy spells them)
        path = Path(rest[1:] if rest.startswith("/") else rest)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(f"cannot create {path.parent}: {exc.strerror or exc}") from None
        return Store(f"sqlite:///{path}", SQLITE, str(path))
    raise StorageError(
        f"{DATABASE_ENV}={_hide_password(got)!r}: use postgresql://USER@HOST/DB or sqlite:///PATH"
    )


def _hide_password(url: str) -> str:
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest.split("/", 1)[0]:
        return url
    auth, _, host = rest.partition("@")
    user = auth.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}" if ":" in auth else url
