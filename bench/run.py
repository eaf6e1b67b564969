"""Run deckcheck's benchmarks: ``python bench/run.py [NAME ...] [--list]``.

Each benchmark is a module ``bench/bench_<name>.py`` with a docstring and a function
``run() -> list[Figure]``. Every figure is printed beside a baseline measured in the same run,
as a ratio. The exit code is 1 if a figure misses its target, else 0.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import Figure  # noqa: E402


def available() -> list[str]:
    """Names of the benchmarks in this folder."""
    return sorted(p.stem.removeprefix("bench_") for p in HERE.glob("bench_*.py"))


def main(argv: list[str] | None = None) -> int:
    """Run the named benchmarks (all when none is named) and print their figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    ap.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    args = ap.parse_args(argv)
    names = available()
    if args.list:
        for name in names:
            doc = importlib.import_module(f"bench_{name}").__doc__ or ""
            print(f"{name:20} {doc.strip().splitlines()[0] if doc.strip() else ''}")
        return 0
    unknown = [n for n in args.names if n not in names]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(names)}")
        return 2
    missed = 0
    for name in args.names or names:
        module = importlib.import_module(f"bench_{name}")
        print(f"[{name}] {(module.__doc__ or '').strip().splitlines()[0]}", flush=True)
        figures: list[Figure] = module.run()
        for fig in figures:
            print(fig.line(), flush=True)
            missed += fig.ok is False
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
