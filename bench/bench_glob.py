"""The glob engine against the audit's repro: ``*a*a*a...b`` (n stars) on a long name.

``python bench/bench_glob.py [--stars N]`` times deckcheck's glob (:mod:`deckcheck.source.glob`)
and, as the baseline measured in the same run, the regular-expression translation deckcheck used
before (``[^/]*a[^/]*a...b``, which backtracks: 1 s with 8 stars, 93 s with 12). It prints both
times and their ratio, for n = 4..N stars (the baseline only up to 8, where it still ends), and
the new engine alone up to 30 stars, plus a folder-scan figure: 1,000 names against a
``.gitignore`` of the 30-star line and 300 ordinary rules.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from deckcheck.source.glob import GitIgnore, path_glob

NAME = "a" * 40 + ".ydk"
EVIL = "*a" * 30 + "b"


def _old(pattern: str) -> re.Pattern[str]:
    """The former translation: each ``*`` a ``[^/]*`` (nested backtracking)."""
    body = "".join("[^/]*" if ch == "*" else re.escape(ch) for ch in pattern)
    return re.compile(f"^(?:.*/)?{body}(?:/.*)?$", re.DOTALL)


def _time(fn: object, reps: int = 1) -> float:
    start = time.perf_counter()
    for _ in range(reps):
        fn()  # type: ignore[operator]
    return (time.perf_counter() - start) / reps


def run() -> list[Any]:
    """The figures for ``bench/run.py``: 8 stars beside the former regex, 30 stars beside 1."""
    from common import Figure

    eight = "*a" * 8 + "b"
    old = _time(lambda: _old(eight).match(NAME))
    new8 = _time(lambda: path_glob(eight).match(NAME), 20)
    one = _time(lambda: path_glob("*ab").match(NAME), 20)
    new30 = _time(lambda: path_glob(EVIL).match(NAME), 20)
    return [
        Figure("glob, 8 stars", new8 * 1e3, "the former regex, 8 stars", old * 1e3, "ms"),
        Figure("glob, 30 stars", new30 * 1e3, "glob, 1 star", one * 1e3, "ms", target=100.0),
    ]


def main(argv: list[str] | None = None) -> int:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--stars", type=int, default=30)
    args = ap.parse_args(argv)
    for n in range(4, args.stars + 1, 2):
        pattern = "*a" * n + "b"
        new = _time(lambda p=pattern: path_glob(p).match(NAME), 20)
        if n <= 8:
            old = _time(lambda p=pattern: _old(p).match(NAME))
            print(
                f"{n:2} stars  regex {old * 1e3:10.2f} ms  glob {new * 1e3:7.3f} ms  "
                f"ratio {old / new:,.0f}x"
            )
        else:
            print(f"{n:2} stars  regex  (not run)   glob {new * 1e3:7.3f} ms")
    rules = ["*a" * 30 + "b", *(f"build{i}/" for i in range(300)), "*.tmp"]
    ignore = GitIgnore.from_lines(rules)
    names = [f"decks/sub/{'a' * 30}{i}.ydk" for i in range(1000)]
    scan = _time(lambda: [ignore.decide(n, False) for n in names])
    print(f"scan: 1,000 names x {len(rules)} rules in {scan * 1e3:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
