"""Plots of goldfish results (needs the optional ``plot`` extra: ``pip install 'deckcheck[plot]'``).

Left: P(condition) by turn, going first (solid) and second (dashed), with 95% error bars for
simulated figures. Right: the Monster/Spell/Trap distribution of the cards seen on turn 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from deckcheck.error import GoldfishError, PlotUnavailableError
from deckcheck.goldfish.result import HandStats
from deckcheck.goldfish.rule import Going

INSTALL_HINT = "install with: pip install 'deckcheck[plot]'"
"""How to get matplotlib."""
MAX_LINES = 10
"""Most conditions drawn (the first ones, in spec order)."""


def plot_stats(stats: HandStats, path: str | Path) -> None:
    """Write a PNG or SVG (by the file's suffix) of ``stats`` to ``path``."""
    path = Path(path)
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in ("png", "svg"):
        raise GoldfishError(f"{path}: the plot file must end in .png or .svg")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailableError(f"plotting needs matplotlib; {INSTALL_HINT}") from None

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5))
    turns = list(range(1, stats.turns + 1))
    styles = {Going.FIRST: "-", Going.SECOND: "--"}
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, cond in enumerate(stats.conditions[:MAX_LINES]):
        color = colors[i % len(colors)]
        for n, (going, ests) in enumerate(cond.by_going.items()):
            ys = [e.probability for e in ests]
            err: Any = None
            if ests and ests[0].low is not None:
                err = [
                    [e.probability - (e.low or 0.0) for e in ests],
                    [(e.high or 0.0) - e.probability for e in ests],
                ]
            left.errorbar(turns, ys, yerr=err, fmt=styles[going], marker="o", color=color,
                          capsize=3, label=cond.name if n == 0 else None)  # fmt: skip
    left.set_xlabel("by the player's turn")
    left.set_ylabel("probability")
    left.set_ylim(0, 1)
    left.set_xticks(turns)
    goings = " / ".join(f"{g.value}: {'solid' if g is Going.FIRST else 'dashed'}"
                        for g in stats.goings)  # fmt: skip
    left.set_title(f"P(condition) by turn, {stats.method.value} ({goings})", fontsize="medium")
    left.grid(alpha=0.3)
    left.legend(fontsize="x-small", loc="lower right")

    going = stats.goings[0]
    kinds = stats.composition[going]
    width = 0.8 / max(1, len(kinds))
    for j, (kind, ests) in enumerate(kinds.items()):
        xs = [k + (j - (len(kinds) - 1) / 2) * width for k in range(len(ests))]
        right.bar(xs, [e.probability for e in ests], width=width, label=kind)
    right.set_xlabel(f"cards of the kind among the {stats.seen[going][0]} seen on turn 1")
    right.set_ylabel("probability")
    right.set_title(f"Opening hand composition (going {going.value})")
    right.legend()
    right.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    try:
        fig.savefig(path, format=suffix)
    except OSError as exc:
        raise GoldfishError(f"{path}: cannot write the plot: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)
