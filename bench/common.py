"""Shared pieces of the benchmarks: timing and the figure/baseline/ratio report line.

Every benchmark prints each figure beside a baseline measured in the same run, as a ratio, so
that a noisy shared machine does not hide or fake a regression.
"""

from __future__ import annotations

import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """One measured figure beside its baseline.

    ``value`` and ``baseline`` are in ``unit``; ``target`` is the largest allowed
    value/baseline ratio (or the smallest, when ``higher_is_better``), if the issue sets one;
    ``limit`` an absolute bound in ``unit``, if one is set.
    """

    name: str
    value: float
    baseline_name: str
    baseline: float
    unit: str
    target: float | None = None
    higher_is_better: bool = False
    limit: float | None = None

    @property
    def ratio(self) -> float:
        """value / baseline."""
        return self.value / self.baseline if self.baseline else float("inf")

    @property
    def ok(self) -> bool | None:
        """Whether the target ratio and the absolute limit hold (None if neither is set)."""
        checks: list[bool] = []
        if self.target is not None:
            checks.append(
                self.ratio >= self.target if self.higher_is_better else self.ratio <= self.target
            )
        if self.limit is not None:
            hib = self.higher_is_better
            checks.append(self.value >= self.limit if hib else self.value <= self.limit)
        return all(checks) if checks else None

    def line(self) -> str:
        """The report line: figure, baseline, ratio, target and verdict."""
        parts = [
            f"{self.name}: {self.value:,.4g} {self.unit}",
            f"baseline {self.baseline_name}: {self.baseline:,.4g} {self.unit}",
            f"ratio {self.ratio:,.3g}x",
        ]
        if self.target is not None:
            parts.append(f"target {'>=' if self.higher_is_better else '<='} {self.target:g}x")
        if self.limit is not None:
            op = ">=" if self.higher_is_better else "<="
            parts.append(f"limit {op} {self.limit:g} {self.unit}")
        verdict = {True: "OK", False: "MISSED", None: ""}[self.ok]
        return "  " + " | ".join(parts) + (f"  [{verdict}]" if verdict else "")


def best_of(fn: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    """Best wall time in seconds of ``number`` calls of ``fn``, over ``repeat`` rounds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return min(times)


_CACHE: str | None = None


def installed_env() -> dict[str, str]:
    """The environment (``os.environ`` now) of a command run as on an installed copy: with
    compiled bytecode.

    ``pip install`` compiles every module of a wheel, but a source checkout run with
    ``PYTHONDONTWRITEBYTECODE=1`` compiles the whole package from source on every start, which
    is no user's cold start. Commands timed here write and reuse their bytecode in a temporary
    folder (``PYTHONPYCACHEPREFIX``, removed at exit), so the checkout is left untouched; the
    baseline (``python -c pass``) runs with the same environment.
    """
    global _CACHE
    if _CACHE is None:
        _CACHE = tempfile.mkdtemp(prefix="deckcheck-bench-pycache-")
        atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = _CACHE
    return env


def command_time(argv: list[str], repeat: int = 15) -> float:
    """Median wall time in seconds of running a command (output discarded), after one untimed
    run that compiles its bytecode (:func:`installed_env`)."""
    env = installed_env()
    run = [*argv]
    subprocess.run(run, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(
            run, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env
        )
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def python_pass_time(repeat: int = 15) -> float:
    """Median wall time of ``python -c pass`` with this interpreter (the cold-start baseline)."""
    return command_time([sys.executable, "-c", "pass"], repeat)
