"""The metagame: from a checked batch (from_batch) and from the files (analyze) vs the check."""

from __future__ import annotations

import tempfile
from datetime import date
from pathlib import Path

from common import Figure, best_of

from deckcheck.reporter.meta import meta_html
from deckcheck.run.batch import check, sources
from deckcheck.run.meta import analyze, from_batch

ROOT = Path(__file__).resolve().parent.parent
LISTS = sorted((ROOT / "tests" / "data" / "meta").glob("*.txt"))


def run() -> list[Figure]:
    """A 1,000-deck field (the event lists of the metagame test): the metagame of the checked
    batch and its HTML page (baseline: checking the batch), and reading the files again for
    `deckcheck meta` (baseline: the same check)."""
    on = date(2025, 6, 1)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for i in range(1000):
            text = LISTS[i % len(LISTS)].read_text(encoding="utf-8")
            (folder / f"deck-{i:04}.txt").write_text(text, encoding="utf-8")
        srcs = list(sources([str(folder)]))
        check(srcs[:20], "tcg", on, jobs=1)  # warm the ruleset and the index
        checked = best_of(lambda: check(srcs, "tcg", on, jobs=1), repeat=3)
        batch = check(srcs, "tcg", on, jobs=1)
        summed = best_of(lambda: from_batch(batch), repeat=5)
        page = best_of(lambda: meta_html(from_batch(batch)), repeat=5)
        read = best_of(lambda: analyze(srcs), repeat=3)
    return [
        Figure(
            "meta from_batch (1,000 decks)", summed * 1e3, "check (1 process)", checked * 1e3, "ms"
        ),
        Figure(
            "meta from_batch + HTML (1,000 decks)",
            page * 1e3,
            "check (1 process)",
            checked * 1e3,
            "ms",
        ),
        Figure(
            "deckcheck meta: analyze, reading the files (1,000 decks)",
            read * 1e3,
            "check (1 process)",
            checked * 1e3,
            "ms",
        ),
    ]
