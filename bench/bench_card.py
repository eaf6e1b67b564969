"""Card index: load + 10,000 random lookups, and `deckcheck cards show` cold start."""

from __future__ import annotations

import json
import random

from common import Figure, best_of, command_time, deckcheck_exe, python_pass_time

from deckcheck.card import CARDS_FILE, CardIndex
from deckcheck.data.dataset import BUNDLED_DIR as DEFAULT_INDEX_DIR


def run() -> list[Figure]:
    """Measure index load, lookups and CLI cold start, each beside a baseline."""
    raw = (DEFAULT_INDEX_DIR / CARDS_FILE).read_bytes()
    figures: list[Figure] = []

    def full_load() -> CardIndex:
        ix = CardIndex.from_dir(DEFAULT_INDEX_DIR)
        len(ix)  # builds the passcode table too
        return ix

    load = best_of(full_load, repeat=7)
    rows = b"[" + raw.split(b"\n", 1)[1].rstrip(b"\n").replace(b"\n", b",") + b"]"
    parse_all = best_of(lambda: json.loads(rows), repeat=3)
    figures.append(
        Figure(
            "index load (read + passcode table)",
            load * 1e3,
            "json.loads of the same rows",
            parse_all * 1e3,
            "ms",
            limit=50,
        )
    )

    ix = full_load()
    rng = random.Random(1)
    codes = rng.choices(ix.passcodes(), k=10_000)
    plain = {c: c for c in codes}

    def lookups() -> None:
        fresh = CardIndex.from_dir(DEFAULT_INDEX_DIR)
        for c in codes:
            fresh.lookup_passcode(c)

    def dict_lookups() -> None:
        for c in codes:
            plain.get(c)

    t = best_of(lookups, repeat=3)
    base = best_of(dict_lookups, repeat=5)
    figures.append(
        Figure(
            "load + 10,000 random passcode lookups",
            t * 1e3,
            "10,000 plain dict gets",
            base * 1e3,
            "ms",
        )
    )

    exe = deckcheck_exe()
    cold = command_time([exe, "cards", "show", "14558127"])
    baseline = python_pass_time()
    figures.append(
        Figure(
            "deckcheck cards show 14558127 (cold)",
            cold * 1e3,
            "python -c pass",
            baseline * 1e3,
            "ms",
            target=10,
        )
    )
    return figures
