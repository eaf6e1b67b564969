"""Validation: in-process decks/s and `deckcheck validate` cold start."""

from __future__ import annotations

import time
import tomllib
from collections import Counter
from datetime import date
from pathlib import Path

from common import Figure, command_time, deckcheck_exe, installed_python, outside, python_pass_time

from deckcheck.deck.io import read_path
from deckcheck.deck.model import Deck
from deckcheck.validation.engine import validate

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "tests" / "data" / "decks"


def _rates(jobs: list[tuple[Deck, str, date]], seconds: float = 3.0) -> tuple[float, float]:
    """Decks/s of ``validate`` over ``jobs`` and of the baseline, a Counter of passcodes."""
    for deck, fmt, on in jobs:  # warm the per-format caches, as a long-running process would be
        validate(deck, fmt, on)
    # validation and its baseline interleaved, round by round, so that load from other work on
    # the machine falls on both alike; baseline: the least any validator must do, count copies
    # per passcode per deck
    spent = base_spent = 0.0
    rounds = 0
    while spent + base_spent < seconds:
        t0 = time.perf_counter()
        for deck, fmt, on in jobs:
            validate(deck, fmt, on)
        t1 = time.perf_counter()
        for deck, _, _ in jobs:
            Counter(c.passcode for c in deck)
        spent += t1 - t0
        base_spent += time.perf_counter() - t1
        rounds += 1
    return rounds * len(jobs) / spent, rounds * len(jobs) / base_spent


def run() -> list[Figure]:
    """Validate the golden decks over and over; time a cold CLI run."""
    paths = sorted(DECKS.rglob("*.ydk"))
    decks = [read_path(p) for p in paths]
    rate, base = _rates([(d, "tcg", date(2025, 6, 1)) for d in decks])
    figures = [
        Figure(
            "validate (tcg, one core)",
            rate,
            "Counter of passcodes per deck",
            base,
            "decks/s",
            target=0.3,
            higher_is_better=True,
            limit=20_000,
        ),
    ]
    # the same decks each in the format and at the date its test gives (every rule family)
    spec = tomllib.loads((DECKS / "expected.toml").read_text(encoding="utf-8"))
    own = []
    for path, deck in zip(paths, decks, strict=True):
        entry = spec.get(path.relative_to(DECKS).as_posix())
        if entry is not None and entry["format"] != "rush":
            own.append((deck, str(entry["format"]), date.fromisoformat(str(entry["date"]))))
    rate, base = _rates(own)
    figures.append(
        Figure(
            "validate (each deck in its own format, one core)",
            rate,
            "Counter of passcodes per deck",
            base,
            "decks/s",
            target=0.3,
            higher_is_better=True,
        )
    )
    exe = deckcheck_exe()
    example = ROOT / "examples" / "tcg-legal.ydk"
    bare = python_pass_time() * 1e3
    cold = command_time([exe, "validate", str(example)])
    figures.append(
        Figure(
            "deckcheck validate examples/tcg-legal.ydk (cold)",
            cold * 1e3,
            "python -c pass",
            bare,
            "ms",
            target=5,
        )
    )
    # the floor under every command: the CLI framework's own import (no deckcheck code runs)
    framework = command_time([installed_python(), "-c", "import typer"], cwd=outside())
    figures.append(
        Figure(
            'python -c "import typer" (cold; the floor of any Typer command, no target)',
            framework * 1e3,
            "python -c pass",
            bare,
            "ms",
        )
    )
    figures.append(
        Figure(
            "deckcheck validate examples/tcg-legal.ydk (cold)",
            cold * 1e3,
            'python -c "import typer" (the floor)',
            framework * 1e3,
            "ms",
        )
    )
    imported = command_time([installed_python(), "-c", "import deckcheck"], cwd=outside())
    figures.append(
        Figure(
            'python -c "import deckcheck" (cold)',
            imported * 1e3,
            "python -c pass",
            bare,
            "ms",
            target=1.8,
        )
    )
    return figures
