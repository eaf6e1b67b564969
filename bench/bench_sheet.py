"""Registration sheets: 100 decks as one PDF vs the same decks rendered as the text report."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

from common import Figure, best_of

from deckcheck.data.dataset import resolve_data
from deckcheck.deck.io import read_path
from deckcheck.reporter import render
from deckcheck.reporter.sheet import build_sheet, sheets_pdf
from deckcheck.run.batch import Batch
from deckcheck.validation import validate

ROOT = Path(__file__).resolve().parent.parent
DECKS = [
    ROOT / "examples" / "tcg-legal.ydk",
    ROOT / "examples" / "problems.ydk",
    *sorted((ROOT / "tests" / "data" / "decks").rglob("*.ydk")),
]
PAGES = 100


def _cpu(fn: Callable[[], object], repeat: int = 3) -> float:
    """Least CPU time (this process) of ``fn`` over ``repeat`` rounds, in seconds."""
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def run() -> list[Figure]:
    """Build and lay out 100 sheets into one PDF, in English and Japanese (baseline: the text
    report of the same 100 decks); goal: at most 5 s for the 100 pages."""
    on = date(2025, 6, 1)
    ds = resolve_data(None)
    decks = [read_path(p) for p in itertools.islice(itertools.cycle(DECKS), PAGES)]
    reports = [validate(d, "tcg", on, path=d.source) for d in decks]
    batch = Batch("tcg", on, tuple(reports), ())
    text = best_of(lambda: render(batch, "text"), repeat=5)
    figures = []
    for lang in ("en", "ja"):

        def pdf(lang: str = lang) -> bytes:
            sheets = [
                build_sheet(d, r, lang=lang, index=ds.cards)
                for d, r in zip(decks, reports, strict=True)
            ]
            return sheets_pdf(sheets)

        pdf()  # fonts registered, caches warm
        t = best_of(pdf, repeat=3)
        figures.append(
            Figure(
                f"{PAGES} sheets in one PDF ({lang})",
                t,
                "text report, same decks",
                text,
                "s",
                limit=5.0,
            )
        )
        cpu = _cpu(pdf)  # on a shared machine the wall time says how much of a core we got
        figures.append(
            Figure(
                f"  the same, CPU time ({lang})",
                cpu,
                "text report, same decks",
                _cpu(lambda: render(batch, "text")),
                "s",
            )
        )
    return figures
