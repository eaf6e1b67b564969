"""The date of a source-data folder: its newest snapshot, as the folder's README states it."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from deckcheck.boundary import read_data

_SNAPSHOT = re.compile(r"newest commits of \*\*(\d{4}-\d{2}-\d{2})\*\*")


def snapshot_date(data: Path) -> date | None:
    """The date of the newest source snapshot, as the source data's README states it."""
    try:
        text = read_data(data / "README.md").decode("utf-8")
    except OSError:
        return None
    m = _SNAPSHOT.search(text)
    return date.fromisoformat(m[1]) if m else None
