"""Fuzz the deck readers: random bytes and mutated real files into every reader.

``python bench/fuzz_io.py [--count N] [--seed S] [--reader NAME ...]`` feeds N inputs (default
100,000) to each reader (ydk, ydke, text, omega, json, and detection + the detected reader).
Inputs are random byte strings and mutations (byte edits, insertions, deletions, splices,
base64-level edits) of real decks written in every format. A reader may return a deck or raise
:class:`~deckcheck.error.DeckReadError`; anything else is a bug: the script prints the input and
traceback of the first few and exits 1. Text is read without name suggestions (``suggest=0``,
each costs a fuzzy search) except for every 1000th input.
"""

from __future__ import annotations

import argparse
import base64
import functools
import random
import sys
import time
import traceback
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckcheck.deck import Deck  # noqa: E402
from deckcheck.error import DeckcheckError, DeckReadError  # noqa: E402
from deckcheck.io import (  # noqa: E402
    DeckFormat,
    detect_format,
    parse_json,
    parse_omega,
    parse_text,
    parse_ydk,
    parse_ydke,
    read_path,
    write_deck,
)

SHARED = ROOT.parent / "shared" / "data" / "decks" / "projectignis-distribution"
TEST_DATA = ROOT / "tests" / "data" / "io"
TOKENS = [
    b"#main\n", b"#extra\n", b"!side\n", b"#created by ", b"ydke://", b"!", b"{", b"}", b"[",
    b'"deckcheck": 1', b'"main": [', b"3x ", b" x3", b"\r\n", b"\xef\xbb\xbf", b"\xff\xfe",
    b"\x00", "主卡组\n".encode(), "灰流うらら ×3\n".encode(), b"Extra Deck (15)\n",
    b"99999999999999\n", b"0\n", b"=", b"==", b"Name: x\n", b"[123]",
]  # fmt: skip

TEXT_CHARS = "0123456789 \t\n\r#!:xX×()[]{},.\"'-/=+abcdeABCDE灰流うらら主卡组ｘ３\u3000"

Reader = Callable[[bytes], Deck]


def text_reader(counter: list[int]) -> Reader:
    """parse_text without suggestions, except on every 1000th call."""

    def read(data: bytes) -> Deck:
        counter[0] += 1
        return parse_text(data, suggest=1 if counter[0] % 1000 == 0 else 0)

    return read


def readers() -> dict[str, Reader]:
    """The readers under test by name."""
    text = text_reader([0])
    by_fmt: dict[str, Reader] = {
        "ydk": parse_ydk,
        "ydke": parse_ydke,
        "text": text,
        "omega": parse_omega,
        "json": parse_json,
    }

    def detected(data: bytes) -> Deck:
        return by_fmt[detect_format(data).value](data)

    by_fmt["detect"] = detected
    return by_fmt


@functools.cache
def corpus() -> dict[str, list[bytes]]:
    """Real decks written in every format, by format (the seeds of the mutations)."""
    files = sorted(SHARED.glob("*.ydk")) if SHARED.is_dir() else []
    files += sorted(TEST_DATA.glob("*"))
    out: dict[str, list[bytes]] = {f.value: [] for f in DeckFormat}
    for path in files:
        data = path.read_bytes()
        try:
            out[detect_format(data).value].append(data)
            deck = read_path(path)
        except DeckReadError:
            continue
        for fmt in DeckFormat:
            try:
                out[fmt.value].append(write_deck(deck, fmt).encode("utf-8"))
            except DeckcheckError:  # decks too large for an Omega code
                continue
    return out


def mutate(rng: random.Random, data: bytes) -> bytes:
    """A few random edits of ``data``."""
    base64_payload = data.startswith(b"ydke://") or b"\n" not in data.strip()
    if base64_payload and rng.random() < 0.6:  # mostly edit beneath the encoding
        return _mutate_base64(rng, data)
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(8)
        pos = rng.randint(0, len(buf))
        if op == 0 and buf:
            buf[min(pos, len(buf) - 1)] = rng.randrange(256)
        elif op == 1:
            buf[pos:pos] = rng.randbytes(rng.randint(1, 8))
        elif op == 7:
            buf[pos:pos] = "".join(
                rng.choice(TEXT_CHARS) for _ in range(rng.randint(1, 8))
            ).encode()
        elif op == 2:
            del buf[pos : pos + rng.randint(1, 32)]
        elif op == 3:
            buf[pos:pos] = rng.choice(TOKENS)
        elif op == 4 and buf:
            start = rng.randrange(len(buf))
            buf[pos:pos] = buf[start : start + rng.randint(1, 64)]
        elif op == 5:
            buf[pos:pos] = str(rng.choice([0, 1, 3, 255, 256, 2**32, 10**12])).encode()
        else:
            buf = bytearray(_mutate_base64(rng, bytes(buf)))
    return bytes(buf)


def _mutate_base64(rng: random.Random, data: bytes) -> bytes:
    """Edit the bytes under a base64 payload (Omega codes, ydke parts) and re-encode them."""
    text = data.strip()
    prefix = b""
    if text.startswith(b"ydke://"):
        prefix, text = b"ydke://", text[7:].split(b"!")[0]
    try:
        raw = bytearray(base64.b64decode(text, validate=True))
    except ValueError:
        return data
    if not prefix and rng.random() < 0.5:  # Omega: edit the inflated bytes and deflate again
        try:
            raw = bytearray(zlib.decompress(bytes(raw), -15))
        except zlib.error:
            pass
        else:
            if raw:
                raw[rng.randrange(len(raw))] = rng.randrange(256)
            comp = zlib.compressobj(9, zlib.DEFLATED, -15)
            return base64.b64encode(comp.compress(bytes(raw)) + comp.flush())
    if raw and rng.random() < 0.7:
        raw[rng.randrange(len(raw))] = rng.randrange(256)
    else:
        raw += rng.randbytes(rng.choice([4, 8, 1, 3]))
    return prefix + base64.b64encode(bytes(raw)) + (b"!!!" if prefix else b"")


def make_input(rng: random.Random, fmt: str) -> bytes:
    """One fuzz input: random bytes (25%) or a mutated real deck, of format ``fmt`` 3 times in 4."""
    if rng.random() < 0.25:
        return rng.randbytes(rng.randint(0, 300))
    seeds = corpus()
    kind = fmt if fmt in seeds and rng.random() < 0.75 else rng.choice(list(seeds))
    return mutate(rng, rng.choice(seeds[kind]))


def fuzz(name: str, read: Reader, count: int, seed: int) -> tuple[Counter[str], list[str]]:
    """Run ``count`` inputs through ``read``; return outcome counts and bug reports."""
    rng = random.Random(f"{seed}:{name}")
    outcomes: Counter[str] = Counter()
    bugs: list[str] = []
    for _ in range(count):
        data = make_input(rng, name)
        try:
            read(data)
        except DeckReadError:
            outcomes["read-error"] += 1
        except Exception:
            outcomes["BUG"] += 1
            if len(bugs) < 5:
                bugs.append(f"input {data[:300]!r}\n{traceback.format_exc()}")
        else:
            outcomes["deck"] += 1
    return outcomes, bugs


def main(argv: list[str] | None = None) -> int:
    """Fuzz every reader; exit 1 if any raised something other than DeckReadError."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--count", type=int, default=100_000, help="inputs per reader")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reader", action="append", help="only these readers")
    args = ap.parse_args(argv)
    all_readers = readers()
    names = args.reader or list(all_readers)
    seeds = sum(map(len, corpus().values()))
    print(f"corpus: {seeds} real deck texts; {args.count:,} inputs per reader")
    total_bugs = 0
    for name in names:
        t0 = time.perf_counter()
        outcomes, bugs = fuzz(name, all_readers[name], args.count, args.seed)
        secs = time.perf_counter() - t0
        total_bugs += outcomes["BUG"]
        print(
            f"{name:7} {sum(outcomes.values()):>9,} inputs  {outcomes['deck']:>9,} decks  "
            f"{outcomes['read-error']:>9,} DeckReadError  {outcomes['BUG']:>4} other  "
            f"({secs:.1f} s)",
            flush=True,
        )
        for bug in bugs:
            print(bug, file=sys.stderr)
    return 1 if total_bugs else 0


if __name__ == "__main__":
    raise SystemExit(main())
