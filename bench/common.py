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
import sysconfig
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


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
_INSTALLED: Path | None = None
PIP_LOCAL = ("--no-build-isolation", "--no-index")
"""pip builds the checkout with this environment's setuptools, offline."""

ROOT = Path(__file__).resolve().parent.parent


def installed_env() -> dict[str, str]:
    """The environment (``os.environ`` now) of a command run as on an installed copy: with
    compiled bytecode.

    ``pip install`` compiles every module of a wheel, but a source checkout run with
    ``PYTHONDONTWRITEBYTECODE=1`` compiles the whole package from source on every start, which
    is no user's cold start. Commands timed here write and reuse their bytecode in a temporary
    folder (``PYTHONPYCACHEPREFIX``, removed at exit), so the checkout is left untouched, and
    their output is buffered as a user's is (without ``PYTHONUNBUFFERED``); the baseline
    (``python -c pass``) runs with the same environment.
    """
    global _CACHE
    if _CACHE is None:
        _CACHE = tempfile.mkdtemp(prefix="deckcheck-bench-pycache-")
        atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONPATH", None)
    env.pop("PYTHONUNBUFFERED", None)  # (a user's output is buffered: one write per block)
    env["PYTHONPYCACHEPREFIX"] = _CACHE
    return env


def installed() -> Path:
    """The ``bin`` folder of a temporary environment holding this checkout as a user installs
    it: a regular (not editable) install of the package, its bytecode compiled, its
    dependencies those of the running interpreter (one plain path line in a ``.pth`` file).

    An editable install (``pip install -e``) adds an import hook to every start of its
    interpreter, ``python -c pass`` included (about 20 ms), which no user's installed copy pays;
    cold starts are timed here instead, and their baseline runs with the same interpreter.
    Built once per run (a few seconds), removed at exit.
    """
    global _INSTALLED
    if _INSTALLED is not None:
        return _INSTALLED
    tmp = Path(tempfile.mkdtemp(prefix="deckcheck-bench-install-"))
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    tree = tmp / "src"  # a copy, so that the build leaves no build/ or egg-info in the checkout
    shutil.copytree(
        ROOT,
        tree,
        ignore=shutil.ignore_patterns(".git", ".venv", "*.egg-info", "build", "__pycache__"),
    )
    env_dir = tmp / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    py = env_dir / "bin" / "python"
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    deps = sysconfig.get_path("purelib")  # this interpreter's packages (a path, not its hooks)
    Path(site, "deckcheck-bench-deps.pth").write_text(deps + "\n", encoding="utf-8")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(py),
            "install",
            "-q",
            "--no-deps",
            *PIP_LOCAL,
            str(tree),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    _INSTALLED = env_dir / "bin"
    return _INSTALLED


def outside() -> Path:
    """A folder outside the checkout (``python -c`` there cannot import the checkout itself)."""
    return installed().parent.parent


def deckcheck_exe() -> str:
    """The ``deckcheck`` command of the installed copy (:func:`installed`)."""
    return str(installed() / "deckcheck")


def installed_python() -> str:
    """The interpreter of the installed copy (:func:`installed`)."""
    return str(installed() / "python")


def command_time(argv: list[str], repeat: int = 15, cwd: str | Path | None = None) -> float:
    """Median wall time in seconds of running a command (output discarded) in ``cwd``, after
    one untimed run that compiles its bytecode (:func:`installed_env`)."""
    env = installed_env()
    run = [*argv]
    quiet = subprocess.DEVNULL
    subprocess.run(run, stdout=quiet, stderr=quiet, check=False, env=env, cwd=cwd)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(run, stdout=quiet, stderr=quiet, check=False, env=env, cwd=cwd)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def python_pass_time(repeat: int = 15) -> float:
    """Median wall time of ``python -c pass`` with the installed copy's interpreter
    (:func:`installed`): the cold-start baseline."""
    return command_time([installed_python(), "-c", "pass"], repeat)
