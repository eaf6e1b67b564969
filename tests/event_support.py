"""What the event tests share: a database of each kind (SQLite in a temp folder; PostgreSQL in
a fresh database of the server named by ``DECKCHECK_TEST_DATABASE_URL``), a clock the tests
move, and decks.

Without a PostgreSQL server the PostgreSQL cases are skipped with the reason printed; in CI
(``CI=true``, where ``.ci/run`` starts one) they fail instead.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
LEGAL = (ROOT / "examples" / "tcg-legal.ydk").read_text(encoding="utf-8")
ILLEGAL = (ROOT / "examples" / "problems.ydk").read_text(encoding="utf-8")
BACKENDS = ("sqlite", "postgresql")
TEST_DATABASE_ENV = "DECKCHECK_TEST_DATABASE_URL"
SIDE_CARDS = (8267140, 54693926, 94145021, 14532163, 10045474, 24224830, 18144506, 12580477)
"""Passcodes (legal in TCG) that make decks differ: a Side Deck of some of them."""


def deck_for(n: int) -> str:
    """The legal example deck with a Side Deck that depends on ``n`` (decks differ)."""
    main = LEGAL.partition("!side")[0]
    side = [str(SIDE_CARDS[i]) for i in range(len(SIDE_CARDS)) if n >> i & 1]
    return f"{main}!side\n" + "".join(f"{code}\n" for code in side)


class Clock:
    """A clock the test sets (aware UTC)."""

    def __init__(self, now: datetime | None = None) -> None:
        self.now = now or datetime(2026, 6, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> None:
        """Move the clock forward."""
        self.now += timedelta(**kw)


def postgres_base() -> str:
    """The PostgreSQL server of the tests; skip (or, in CI, fail) without one."""
    url = os.environ.get(TEST_DATABASE_ENV, "").strip()
    reason = None
    if not url:
        reason = f"{TEST_DATABASE_ENV} is not set (.ci/run starts a PostgreSQL server)"
    else:
        try:
            import psycopg

            psycopg.connect(url, connect_timeout=5).close()
        except Exception as exc:  # any failure to reach it is the reason
            reason = f"cannot reach PostgreSQL at {TEST_DATABASE_ENV}: {exc}"
    if reason is not None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"PostgreSQL is required in CI: {reason}")
        print(f"SKIPPED PostgreSQL test: {reason}")
        pytest.skip(reason)
    return url


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def fresh_database(kind: str, folder: Path) -> Iterator[str]:
    """The URL of an empty database of ``kind``, dropped afterwards."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'events.sqlite3'}"
        return
    import psycopg

    base = postgres_base()
    name = f"deckcheck_test_{secrets.token_hex(6)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _with_database(base, name)
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def raw_rows(url: str) -> list[tuple[object, ...]]:
    """Every row of every event table, read with the database's own driver."""
    tables = ("events", "registrations", "audit", "schema_version")
    if url.startswith("sqlite:"):
        import sqlite3

        conn = sqlite3.connect(url.removeprefix("sqlite:///"))
        try:
            return [row for t in tables for row in conn.execute(f"SELECT * FROM {t}")]
        finally:
            conn.close()
    import psycopg

    with psycopg.connect(url) as pg:
        return [tuple(row) for t in tables for row in pg.execute(f"SELECT * FROM {t}")]
