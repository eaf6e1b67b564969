"""Is the data in use due for an update? (``deckcheck data status``)

The data is **due** when it is older than the newest list a source announced (the newest list
date the last upstream fetch saw, kept in the data folder's ``announced.json``), or older than
a number of days: ``DECKCHECK_MAX_AGE_DAYS``, default :data:`DEFAULT_MAX_AGE_DAYS`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from deckcheck.boundary import read_data, read_number
from deckcheck.error import InputError

MAX_AGE_ENV = "DECKCHECK_MAX_AGE_DAYS"
"""Environment variable: the age in days after which an update is due."""
DEFAULT_MAX_AGE_DAYS = 30
"""Ban lists change every few weeks to months: a month-old copy is worth refreshing."""
ANNOUNCED = "announced.json"


@dataclass(frozen=True, slots=True)
class Freshness:
    """How old the data in use is, and whether an update is due."""

    as_of: date
    age_days: int
    max_age_days: int
    newest_announced: date | None
    """The newest list date a source announced (from the last fetch), if known."""
    due: bool
    reason: str | None
    """Why an update is due (None when it is not)."""


def max_age_days(value: int | None = None) -> int:
    """``value``, else ``DECKCHECK_MAX_AGE_DAYS``, else the default; InputError if not a count."""
    if value is not None:
        return value
    text = os.environ.get(MAX_AGE_ENV, "").strip()
    if not text:
        return DEFAULT_MAX_AGE_DAYS
    days = read_number(text, 10**9)  # (more than 10**9 days reads as 10**9 + 1: never due)
    if days is None or days < 1:
        raise InputError(f"{MAX_AGE_ENV}={text[:40]!r}: not a number of days (1 or more)")
    return days


def newest_announced(home: Path) -> date | None:
    """The newest list date the last upstream fetch saw (None: no fetch, or unreadable)."""
    try:
        doc = json.loads(read_data(home / ANNOUNCED))
        return date.fromisoformat(str(doc["newest_list"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def freshness(
    as_of: date, home: Path, *, today: date | None = None, max_age: int | None = None
) -> Freshness:
    """How old data as of ``as_of`` is on ``today`` (default: today), and whether it is due."""
    today = today or date.today()
    limit = max_age_days(max_age)
    age = (today - as_of).days
    announced = newest_announced(home)
    reason = None
    if announced is not None and announced > as_of:
        reason = f"a list dated {announced.isoformat()} was announced after the data's as-of date"
    elif age > limit:
        reason = f"the data is {age} days old (more than {limit})"
    return Freshness(as_of, age, limit, announced, reason is not None, reason)
