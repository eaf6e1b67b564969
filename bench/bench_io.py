"""Deck readers: files/s per format beside the raw file-read rate, and 60-card ydk parse time.

The inputs are the sample decks of the shared data folder (or the test copies when it is
absent), written once in every format to a temporary folder. Each reader's rate (read the file,
parse, resolve every card) is printed beside the rate of merely reading the same files' bytes.
The 60-card ydk figures (parse + resolve, index rows loaded; with the readers' passcode cache
warm, and cleared before every parse) have the issue's absolute limit of 0.2 ms.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from common import Figure, best_of

from deckcheck.card import CardIndex
from deckcheck.data.dataset import Dataset
from deckcheck.deck.io import DeckFormat, parse_ydk, read_path, write_deck
from deckcheck.deck.model import Deck

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data" / "decks" / "projectignis-distribution"
FALLBACK = ROOT / "tests" / "data" / "io"


def sample_decks() -> list[Deck]:
    """The sample decks, read from ydk files."""
    folder = SHARED if SHARED.is_dir() else FALLBACK
    return [read_path(p) for p in sorted(folder.glob("*.ydk"))]


def rate(paths: list[Path], read: object, rounds: int = 5) -> float:
    """Files per second of ``read(path)`` over ``paths`` (best round)."""
    fn = read if callable(read) else None
    assert fn is not None
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for p in paths:
            fn(p)
        best = min(best, time.perf_counter() - t0)
    return len(paths) / best


def raw_read(path: Path) -> bytes:
    """The file's bytes (the baseline)."""
    with open(path, "rb") as handle:
        return handle.read()


def sixty_card_ydk(index: CardIndex) -> str:
    """A 60-card ydk (40 Main, 15 Extra, 5 Side) of real cards, some unpadded, some padded."""
    main = [c for c in index if c.in_tcg and c.zone.value == "main" and not c.is_alternate_art]
    extra = [c for c in index if c.in_tcg and c.zone.value == "extra"]
    codes = [str(c.passcode) for c in main[::97][:14] for _ in range(3)][:40]
    codes[0] = "08949584"
    lines = ["#created by bench", "#main", *codes, "#extra"]
    lines += [str(c.passcode) for c in extra[::53][:15]]
    lines += ["!side", *[str(c.passcode) for c in main[5::211][:5]]]
    return "\r\n".join(lines) + "\r\n"


def run() -> list[Figure]:
    """Measure every reader's files/s and the 60-card ydk parse time."""
    index = Dataset.active().cards
    decks = sample_decks()
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for fmt in DeckFormat:
            paths = []
            for i, deck in enumerate(decks):
                if fmt is DeckFormat.OMEGA and (len(deck.main) + len(deck.extra) > 255):
                    continue
                path = folder / f"{i}.{fmt.value}"
                path.write_text(write_deck(deck, fmt), encoding="utf-8")
                paths.append(path)
            for p in paths:  # warm the index (rows, names) and the OS cache
                read_path(p, fmt=fmt)

            def read(p: Path, fmt: DeckFormat = fmt) -> Deck:
                return read_path(p, fmt=fmt)

            baseline = rate(paths, raw_read)
            value = rate(paths, read)
            figures.append(
                Figure(
                    f"{fmt.value} reader ({len(paths)} files)",
                    value,
                    "raw file read",
                    baseline,
                    "files/s",
                    higher_is_better=True,
                )
            )
        text = sixty_card_ydk(index)
        deck = parse_ydk(text)
        assert len(deck) == 60 and not deck.findings, deck.findings
        ydk = folder / "sixty.ydk"
        ydk.write_text(text, encoding="utf-8", newline="")
        parse_ms = best_of(lambda: parse_ydk(text), repeat=7, number=200) * 1000
        cache = index.token_lookups

        def parse_uncached() -> Deck:
            cache.clear()
            return parse_ydk(text)

        cold_ms = best_of(parse_uncached, repeat=7, number=200) * 1000
        read_ms = best_of(lambda: raw_read(ydk), repeat=7, number=200) * 1000
        figures.append(
            Figure(
                "60-card ydk parse+resolve",
                parse_ms,
                "raw read of the file",
                read_ms,
                "ms",
                limit=0.2,
            )
        )
        figures.append(
            Figure(
                "60-card ydk parse+resolve, passcode cache cleared",
                cold_ms,
                "raw read of the file",
                read_ms,
                "ms",
                limit=0.2,
            )
        )
    return figures
