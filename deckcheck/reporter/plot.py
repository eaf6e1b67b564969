"""Plots of goldfish results (needs the optional ``plot`` extra: ``pip install 'deckcheck[plot]'``).

Left: P(condition) by turn, going first (solid) and second (dashed), with 95% error bars for
simulated figures, ten conditions to a panel (more panels below for more conditions). Right: the
Monster/Spell/Trap distribution of the cards seen on turn 1. With distributions, one panel per
category below: P(exactly k) by turn 1 and by the last turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from deckcheck.error import GoldfishError, PlotUnavailableError
from deckcheck.goldfish.compare import Comparison
from deckcheck.goldfish.result import ConditionStats, DistributionStats, HandStats
from deckcheck.goldfish.rule import Going
from deckcheck.goldfish.sweep import SweepStats

INSTALL_HINT = "install with: pip install 'deckcheck[plot]'"
"""How to get matplotlib."""
LINES_PER_PANEL = 10
"""Conditions drawn in one panel (one colour each); more conditions get more panels."""
MAX_PANELS = 10
"""Most condition panels; conditions past them are named in a note under the figure."""


def _condition_panel(
    ax: Any, stats: HandStats, conds: Sequence[ConditionStats], title: str
) -> None:
    """P(condition) by turn for up to :data:`LINES_PER_PANEL` conditions."""
    import matplotlib.pyplot as plt

    turns = list(range(1, stats.turns + 1))
    styles = {Going.FIRST: "-", Going.SECOND: "--"}
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, cond in enumerate(conds):
        color = colors[i % len(colors)]
        for n, (going, ests) in enumerate(cond.by_going.items()):
            ys = [e.probability for e in ests]
            err: Any = None
            if ests and ests[0].low is not None:
                err = [
                    [e.probability - (e.low or 0.0) for e in ests],
                    [(e.high or 0.0) - e.probability for e in ests],
                ]
            ax.errorbar(
                turns,
                ys,
                yerr=err,
                fmt=styles[going],
                marker="o",
                color=color,
                capsize=3,
                label=cond.name if n == 0 else None,
            )
    ax.set_xlabel("by the player's turn")
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1)
    ax.set_xticks(turns)
    ax.set_title(title, fontsize="medium")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="x-small", loc="lower right")


def _composition_panel(ax: Any, stats: HandStats) -> None:
    """The Monster/Spell/Trap distribution of the turn-1 hand, first going asked."""
    going = stats.goings[0]
    kinds = stats.composition.get(going, {})
    width = 0.8 / max(1, len(kinds))
    for j, (kind, ests) in enumerate(kinds.items()):
        xs = [k + (j - (len(kinds) - 1) / 2) * width for k in range(len(ests))]
        ax.bar(xs, [e.probability for e in ests], width=width, label=kind)
    ax.set_xlabel(f"cards of the kind among the {stats.seen[going][0]} seen on turn 1")
    ax.set_ylabel("probability")
    ax.set_title(f"Opening hand composition (going {going.value})")
    if kinds:
        ax.legend()
    ax.grid(alpha=0.3, axis="y")


def _distribution_panel(ax: Any, stats: HandStats, dist: DistributionStats) -> None:
    """P(exactly k) of one category: turn 1 and the last turn, first going asked."""
    going = stats.goings[0]
    turns = dist.by_going[going]
    shown = sorted({0, len(turns) - 1})
    width = 0.8 / len(shown)
    for j, t in enumerate(shown):
        ests = turns[t]
        xs = [k + (j - (len(shown) - 1) / 2) * width for k in range(len(ests))]
        ax.bar(
            xs,
            [e.probability for e in ests],
            width=width,
            label=f"by turn {t + 1} ({stats.seen[going][t]} seen)",
        )
    ax.set_xlabel(f"cards of {dist.name} ({dist.copies} in the deck)")
    ax.set_ylabel("P(exactly k)")
    ax.set_title(f"{dist.name}: distribution (going {going.value})", fontsize="medium")
    ax.legend(fontsize="x-small")
    ax.grid(alpha=0.3, axis="y")


def _pyplot(path: Path) -> tuple[str, Any]:
    """The file's format (png/svg) and matplotlib's pyplot; a clear error otherwise."""
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in ("png", "svg"):
        raise GoldfishError(f"{path}: the plot file must end in .png or .svg")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailableError(f"plotting needs matplotlib; {INSTALL_HINT}") from None
    return suffix, plt


def _save(plt: Any, fig: Any, path: Path, suffix: str) -> None:
    """Lay the figure out, write it to ``path`` and close it; raises :class:`GoldfishError`
    when the file cannot be written."""
    fig.tight_layout()
    try:
        fig.savefig(path, format=suffix)
    except OSError as exc:
        raise GoldfishError(f"{path}: cannot write the plot: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)


def _line_styles(goings: Sequence[Going]) -> str:
    """The legend of the line styles: ``first: solid / second: dashed``."""
    return " / ".join(f"{g.value}: {'solid' if g is Going.FIRST else 'dashed'}" for g in goings)


def _panels(stats: HandStats) -> list[list[ConditionStats]]:
    """The conditions, :data:`LINES_PER_PANEL` to a panel."""
    conds = list(stats.conditions)
    return [conds[i : i + LINES_PER_PANEL] for i in range(0, len(conds), LINES_PER_PANEL)]


def plot_compare(cmp: Comparison, path: str | Path) -> None:
    """Write a PNG or SVG of a comparison (``--vs``, a side plan): A's conditions by turn on
    the left, B's on the right, on the same axes, ten conditions to a panel."""
    path = Path(path)
    suffix, plt = _pyplot(path)
    sides = ((cmp.a_label, cmp.a), (cmp.b_label, cmp.b))
    chunked = [_panels(st)[:MAX_PANELS] for _, st in sides]
    rows = max(1, *(len(c) for c in chunked))
    fig, axes = plt.subplots(rows, 2, figsize=(12, 5 * rows), squeeze=False)
    for col, ((label, st), chunks) in enumerate(zip(sides, chunked, strict=True)):
        goings = _line_styles(st.goings)
        for r in range(rows):
            if r < len(chunks):
                title = f"{'AB'[col]} {label}: {st.method.value} ({goings})"
                _condition_panel(axes[r][col], st, chunks[r], title)
            else:
                axes[r][col].axis("off")
    _save(plt, fig, path, suffix)


def plot_stats(stats: HandStats, path: str | Path) -> None:
    """Write a PNG or SVG (by the file's suffix) of ``stats`` to ``path``.

    Conditions are drawn :data:`LINES_PER_PANEL` to a panel; past :data:`MAX_PANELS` panels,
    a note under the figure says how many were left out.
    """
    path = Path(path)
    suffix, plt = _pyplot(path)

    chunks = _panels(stats)
    shown, dropped = chunks[:MAX_PANELS], sum(len(c) for c in chunks[MAX_PANELS:])
    dists = list(stats.distributions)
    has_kinds = any(stats.composition.get(g) for g in stats.goings)
    rows = max(1, len(shown))
    free = rows - (1 if has_kinds else 0)  # right-hand panels beside the condition panels
    extra = (max(0, len(dists) - free) + 1) // 2  # then two panels to a row, below
    fig, axes = plt.subplots(rows + extra, 2, figsize=(12, 5 * (rows + extra)), squeeze=False)
    slots = [axes[r][1] for r in range(rows - free, rows)]
    slots += [axes[r][c] for r in range(rows, rows + extra) for c in (0, 1)]
    goings = _line_styles(stats.goings)
    for r, chunk in enumerate(shown):
        part = f" ({r + 1}/{len(chunks)})" if len(chunks) > 1 else ""
        title = f"P(condition) by turn, {stats.method.value} ({goings}){part}"
        _condition_panel(axes[r][0], stats, chunk, title)
    if has_kinds:
        _composition_panel(axes[0][1], stats)
    for i, ax in enumerate(slots):
        if i < len(dists):
            _distribution_panel(ax, stats, dists[i])
        else:
            ax.axis("off")
    if dropped:
        fig.text(
            0.01,
            0.005,
            f"{dropped} more conditions not drawn (at most {MAX_PANELS * LINES_PER_PANEL})",
            fontsize="small",
        )
    _save(plt, fig, path, suffix)


MAX_SWEEP_ROWS = 40
"""Most combinations drawn in a sweep plot (the best ones; a note says how many are left out)."""


def plot_sweep(stats: SweepStats, path: str | Path) -> None:
    """Write a PNG or SVG of a ratio sweep: the ranking condition per combination, best first,
    one bar per going (with 95% error bars when simulated)."""
    path = Path(path)
    suffix, plt = _pyplot(path)
    rows = list(stats.rows[:MAX_SWEEP_ROWS])
    fig, ax = plt.subplots(figsize=(10, 1.5 + 0.35 * max(1, len(rows))))
    labels = [", ".join(f"{n}={v}" for n, v in r.values) for r in rows]
    height = 0.8 / len(stats.goings)
    for j, g in enumerate(stats.goings):
        ests = [r.figures[stats.by][g] for r in rows]
        ys = [i + (j - (len(stats.goings) - 1) / 2) * height for i in range(len(rows))]
        err: Any = None
        if ests and ests[0].low is not None:
            err = [
                [e.probability - (e.low or 0.0) for e in ests],
                [(e.high or 0.0) - e.probability for e in ests],
            ]
        ax.barh(
            ys,
            [e.probability for e in ests],
            height=height,
            xerr=err,
            label=f"going {g.value} ({stats.seen[g]} seen)",
        )
    ax.set_yticks(range(len(rows)), labels, fontsize="small")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"P({stats.by}) by turn {stats.turn}")
    ax.set_title(f"Ratio sweep, ranked by {stats.by} ({stats.method.value})", fontsize="medium")
    ax.legend(fontsize="x-small", loc="lower right")
    ax.grid(alpha=0.3, axis="x")
    if len(stats.rows) > len(rows):
        fig.text(
            0.01,
            0.005,
            f"{len(stats.rows) - len(rows)} lower-ranked combinations not drawn",
            fontsize="small",
        )
    _save(plt, fig, path, suffix)
