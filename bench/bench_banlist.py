"""Ban lists: first load of all list data, and finding the list in force for a format and date.

* first load: a fresh dataset's ban-list catalogue (file read + parse + index),
  against ``json.loads`` of the same bytes (the floor for any JSON-based loader); limit 150 ms.
* list in force: ``get_format(...).banlist_at(date)`` over dates across 2002-2026 after the first
  load, against a plain dict lookup of the same number of keys; limit 1 ms per lookup.
"""

from __future__ import annotations

import json
from datetime import date, timedelta

from common import Figure, best_of

from deckcheck.data.dataset import BUNDLED_DIR, Dataset
from deckcheck.rule.format import get_format


def run() -> list[Figure]:
    """Measure and return the figures."""
    raw = (BUNDLED_DIR / "banlists.json").read_bytes()

    def first_load() -> object:
        return Dataset.open(BUNDLED_DIR).banlists

    load = best_of(first_load, repeat=5)
    parse = best_of(lambda: json.loads(raw), repeat=5)

    data = Dataset.active()
    data.banlists.families()
    dates = [date(2002, 3, 1) + timedelta(days=37 * i) for i in range(240)]
    fmts = [get_format(n, data) for n in ("tcg", "ocg", "traditional", "worlds", "genesys", "rush")]
    fmts[0].banlist_at(dates[0], data)

    def lookups() -> None:
        for fmt in fmts:
            for d in dates:
                if d >= date(2021, 1, 1) or fmt.family in ("tcg", "ocg", "tcg+ocg"):
                    fmt.banlist_at(d, data)

    count = sum(
        1
        for f in fmts
        for d in dates
        if d >= date(2021, 1, 1) or f.family in ("tcg", "ocg", "tcg+ocg")
    )
    table = {d: d for d in dates}
    keys = [
        d
        for f in fmts
        for d in dates
        if d >= date(2021, 1, 1) or f.family in ("tcg", "ocg", "tcg+ocg")
    ]

    def dict_lookups() -> None:
        for k in keys:
            table.get(k)

    per = best_of(lookups, repeat=5) / count
    base = best_of(dict_lookups, repeat=5) / count
    return [
        Figure(
            "first load of all ban-list data",
            load * 1000,
            "json.loads of the bundle",
            parse * 1000,
            "ms",
            limit=150.0,
        ),
        Figure(
            "list in force (format, date)", per * 1e6, "dict lookup", base * 1e6, "µs", limit=1000.0
        ),
    ]
