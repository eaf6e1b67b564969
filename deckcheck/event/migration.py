"""The event schema, as versioned migrations: one list of steps, the same tables on SQLite and
PostgreSQL.

A database records the migrations applied in ``schema_version`` (one row per version, with
when). :func:`migrate` applies the missing ones in order, each in its own transaction, under
the database's write lock (SQLite's ``BEGIN IMMEDIATE``, a PostgreSQL advisory lock), so
several processes opening a new database at once apply each step once. A database whose
version is newer than this deckcheck knows is refused, never written. A new step is appended
here, never an old one edited.

SQL is written once; ``{serial}`` is the one spelling that differs (an auto-numbered key).
Moments are ISO 8601 text in UTC (they sort as text); ``legal`` is 0 or 1.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Migration:
    """One step of the schema."""

    version: int
    about: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "events, registrations and the audit log",
        (
            """CREATE TABLE events (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                format TEXT NOT NULL,
                event_date TEXT NOT NULL,
                deadline TEXT NOT NULL,
                tcg_region TEXT,
                organiser_hash TEXT NOT NULL UNIQUE,
                judge_hash TEXT NOT NULL UNIQUE,
                created_at TEXT NOT NULL,
                locked_at TEXT,
                published_at TEXT
            )""",
            """CREATE TABLE registrations (
                id TEXT PRIMARY KEY,
                event_id TEXT NOT NULL REFERENCES events (id),
                player TEXT NOT NULL,
                player_id TEXT NOT NULL,
                deck TEXT NOT NULL,
                deck_format TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                legal INTEGER NOT NULL CHECK (legal IN (0, 1)),
                verdict TEXT NOT NULL,
                edit_hash TEXT NOT NULL UNIQUE,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                version INTEGER NOT NULL,
                UNIQUE (event_id, player_id)
            )""",
            """CREATE TABLE audit (
                seq {serial},
                event_id TEXT NOT NULL REFERENCES events (id),
                registration_id TEXT REFERENCES registrations (id),
                action TEXT NOT NULL,
                actor TEXT NOT NULL,
                at TEXT NOT NULL,
                old_fingerprint TEXT,
                new_fingerprint TEXT
            )""",
            "CREATE INDEX audit_by_event ON audit (event_id, seq)",
        ),
    ),
)
"""Every step, in order (the last one's version is the schema's)."""

LATEST = MIGRATIONS[-1].version
"""The schema version this deckcheck writes."""

VERSION_TABLE = """CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    about TEXT NOT NULL,
    applied_at TEXT NOT NULL
)"""
"""The table that records the steps applied."""
