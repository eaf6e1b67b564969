"""Validation: in-process decks/s and `deckcheck validate` cold start."""

from __future__ import annotations

import shutil
import sys
import time
from collections import Counter
from datetime import date
from pathlib import Path

from common import Figure, command_time, python_pass_time

from deckcheck.io import read_path
from deckcheck.validation import validate

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "tests" / "data" / "decks"


def run() -> list[Figure]:
    """Validate the golden decks over and over; time a cold CLI run."""
    decks = [read_path(p) for p in sorted(DECKS.rglob("*.ydk"))]
    on = date(2025, 6, 1)
    for d in decks:  # warm the per-format caches, as a long-running process would be
        validate(d, "tcg", on)
    # validation and its baseline interleaved, round by round, so that load from other work on
    # the machine falls on both alike; baseline: the least any validator must do, count copies
    # per passcode per deck
    spent = base_spent = 0.0
    rounds = 0
    while spent + base_spent < 3.0:
        t0 = time.perf_counter()
        for d in decks:
            validate(d, "tcg", on)
        t1 = time.perf_counter()
        for d in decks:
            Counter(c.passcode for c in d)
        spent += t1 - t0
        base_spent += time.perf_counter() - t1
        rounds += 1
    rate = rounds * len(decks) / spent
    base = rounds * len(decks) / base_spent
    figures = [
        Figure("validate (tcg, one core)", rate, "Counter of passcodes per deck", base,
               "decks/s", target=0.25, higher_is_better=True, limit=20_000),
    ]  # fmt: skip
    exe = shutil.which("deckcheck") or str(Path(sys.executable).parent / "deckcheck")
    example = ROOT / "examples" / "tcg-legal.ydk"
    cold = command_time([exe, "validate", str(example)])
    figures.append(Figure("deckcheck validate examples/tcg-legal.ydk (cold)", cold * 1e3,
                          "python -c pass", python_pass_time() * 1e3, "ms", target=12))  # fmt: skip
    return figures
