"""Typos: text decks with one misspelt name each, against the same decks spelt right.

Each unknown name in a text deck costs a "did you mean" search over ~54,000 names. The figure is
the time to validate 1,000 text decks with one typo each, beside the same 1,000 decks without
the typo, in the same run (target: at most 3x); and the cost of one suggestion (limit 5 ms),
beside an exact name lookup.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from common import Figure

from deckcheck.card import CardKind, DeckZone
from deckcheck.data.dataset import BUNDLED_DIR, Dataset
from deckcheck.run.batch import check

ROOT = Path(__file__).resolve().parent.parent
DECKS = 1000


def _typo(name: str, rng: random.Random) -> str:
    """``name`` with one letter dropped, doubled or swapped (never another card's name)."""
    i = rng.randrange(1, len(name) - 1)
    kind = rng.randrange(3)
    if kind == 0:
        return name[:i] + name[i + 1 :]
    if kind == 1:
        return name[:i] + name[i] + name[i:]
    return name[: i - 1] + name[i] + name[i - 1] + name[i + 1 :]


def _decks(folder: Path, typos: bool, names: list[str], typoed: list[str]) -> None:
    base = (ROOT / "examples" / "decklist.txt").read_text(encoding="utf-8")
    for i in range(DECKS):
        extra = typoed[i] if typos else names[i]
        (folder / f"deck{i:04d}.txt").write_text(base + f"\nSide Deck\n1 {extra}\n", "utf-8")


def _validate_folder(folder: Path) -> float:
    data = Dataset.open(BUNDLED_DIR)  # fresh: each run loads its own name index
    t0 = time.perf_counter()
    batch = check([str(folder)], "tcg", data=data)
    elapsed = time.perf_counter() - t0
    assert batch.summary.decks == DECKS, batch.summary
    return elapsed


def run() -> list[Figure]:
    """Validate 1,000 typo decks and 1,000 clean ones; time single suggestions."""
    index = Dataset.active().cards
    rng = random.Random(7)
    pool = [
        c.name
        for c in index
        if c.zone is DeckZone.MAIN
        and c.kind in (CardKind.MONSTER, CardKind.SPELL, CardKind.TRAP)
        and not (c.is_rush or c.is_unofficial or c.is_skill or c.is_prerelease)
        and c.name.isascii()
        and len(c.name) >= 6
        and c.passcode == c.canonical
    ]
    names = rng.sample(pool, DECKS * 2)
    chosen, typoed = [], []
    for name in names:
        bad = _typo(name, rng)
        if not index.has_name(bad) and index.has_name(name):
            chosen.append(name)
            typoed.append(bad)
        if len(chosen) == DECKS:
            break
    with tempfile.TemporaryDirectory() as tmp:
        clean_dir, typo_dir = Path(tmp) / "clean", Path(tmp) / "typo"
        clean_dir.mkdir()
        typo_dir.mkdir()
        _decks(clean_dir, False, chosen, typoed)
        _decks(typo_dir, True, chosen, typoed)
        clean = _validate_folder(clean_dir)
        typo = _validate_folder(typo_dir)
    fresh = Dataset.open(BUNDLED_DIR).cards
    fresh.suggest("warm up")
    probes = typoed[:300]
    per: list[float] = []
    for q in probes:
        t0 = time.perf_counter()
        fresh.suggest(q)
        per.append(time.perf_counter() - t0)
    exact: list[float] = []
    for q in chosen[:300]:
        t0 = time.perf_counter()
        fresh.lookup_name(q)
        exact.append(time.perf_counter() - t0)
    return [
        Figure(
            f"validate {DECKS} text decks, one typo each",
            typo,
            f"the same {DECKS} decks without the typo",
            clean,
            "s",
            target=3,
        ),
        Figure(
            "one suggestion (median of 300 typos)",
            statistics.median(per) * 1e3,
            "exact name lookup (median)",
            statistics.median(exact) * 1e3,
            "ms",
            limit=5,
        ),
        Figure(
            "one suggestion (95th percentile)",
            sorted(per)[int(len(per) * 0.95)] * 1e3,
            "exact name lookup (95th percentile)",
            sorted(exact)[int(len(exact) * 0.95)] * 1e3,
            "ms",
        ),
    ]
