"""``deckcheck simulate``: goldfish opening-hand odds, exact or simulated."""

from __future__ import annotations

import enum
import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.common import Output, fail, print_json

if TYPE_CHECKING:
    from deckcheck.goldfish import HandStats
    from deckcheck.goldfish.rule import Going


class GoingChoice(enum.StrEnum):
    """Which goings to report."""

    FIRST = "first"
    SECOND = "second"
    BOTH = "both"


class ExactChoice(enum.StrEnum):
    """Exact engine use."""

    AUTO = "auto"
    ALWAYS = "always"
    NEVER = "never"


def _pct(p: float) -> str:
    return f"{100 * p:5.1f}%"


def render(stats: HandStats) -> str:
    """The text report: a table of conditions by going and turn, then the hand composition."""
    lines: list[str] = []
    name = stats.deck_name or "deck"
    rules = stats.rules
    draw = "draws" if rules.first_player_draws else "does not draw"
    how = "exact" if stats.method.value == "exact" else f"simulated, {stats.trials:,} games/going"
    lines.append(
        f"{name}: {stats.deck_size} Main Deck cards · hand {rules.hand_size}, first player "
        f"{draw} on turn 1"
        + (f", draw up to {rules.draw_up_to}" if rules.draw_up_to else "")
        + f" · {how}"
    )
    if stats.note:
        lines.append(f"note: {stats.note}")
    lines.append("")
    cols: list[tuple[Going, int]] = [(g, t) for g in stats.goings for t in range(stats.turns)]
    head = "P(at least 1)" if stats.default else "condition"
    width = max([len(head)] + [len(c.name) for c in stats.conditions])
    width = min(width, 44)
    cell = 22 if stats.fractions and stats.method.value == "exact" else 7
    top = " " * width
    for going in stats.goings:
        label = f"going {going.value}"
        span = (cell + 1) * stats.turns
        top += " " + label.center(span - 1) + " "
    lines.append(top.rstrip())
    sub = head.ljust(width)
    for g, t in cols:
        sub += " " + (f"T{t + 1} ({stats.seen[g][t]})" if stats.turns > 1 else
                      f"{stats.seen[g][t]} cards").rjust(cell)  # fmt: skip
    lines.append(sub)
    lines.append("-" * len(sub))
    widest = 0.0
    for c in stats.conditions:
        label = c.name if len(c.name) <= width else c.name[: width - 1] + "…"
        row = label.ljust(width)
        for g, t in cols:
            est = c.by_going[g][t]
            if est.low is not None and est.high is not None:
                widest = max(widest, est.high - est.probability, est.probability - est.low)
            text = est.text(True) if stats.fractions else _pct(est.probability)
            row += " " + text.rjust(cell)
        lines.append(row)
    if stats.method.value == "simulation":
        lines.append(f"95% intervals within ±{100 * widest:.2f} points (seed {stats.seed})")
    if not stats.default:
        for c in stats.conditions:
            lines.append(f"  {c.name}: {c.expression}")
    for going in stats.goings:
        kinds = stats.composition[going]
        n = len(next(iter(kinds.values())))
        lines.append("")
        seen = stats.seen[going][0]
        what = f"{seen} cards seen" + (" plus effects" if stats.effects else "")
        lines.append(f"Turn 1 hand composition, going {going.value} ({what}):")
        lines.append("         " + "".join(f"{k:>7}" for k in range(n)))
        for kind, ests in kinds.items():
            lines.append(f"{kind:<9}" + "".join(f"{_pct(e.probability):>7}" for e in ests))
    return "\n".join(lines) + "\n"


def simulate_command(
    deck_path: Annotated[
        str, typer.Argument(metavar="DECK", help="Deck file, '-' for stdin, or a ydke:// URL.")
    ],
    spec_path: Annotated[
        Path | None,
        typer.Option(
            "--spec",
            "-s",
            metavar="FILE",
            help="TOML spec: categories, conditions, "
            "effects (default: P(at least 1) of every card).",
        ),
    ] = None,
    format_name: Annotated[
        str | None,
        typer.Option("--format", "-f", help="Format whose rules set hand size and draws."),
    ] = None,
    on: Annotated[
        str | None, typer.Option("--date", help="Date of the era's rules (YYYY-MM-DD).")
    ] = None,
    going: Annotated[GoingChoice, typer.Option("--going", help="Going first, second or both.")] = (
        GoingChoice.BOTH
    ),
    turns: Annotated[
        int, typer.Option("--turns", "-t", min=1, max=20, help="Report by each of N turns.")
    ] = 1,
    trials: Annotated[
        int,
        typer.Option("--trials", "-n", min=1, max=50_000_000, help="Simulated games per going."),
    ] = 100_000,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the simulation.")] = None,
    exact: Annotated[
        ExactChoice,
        typer.Option("--exact", help="auto: exact when possible; always; never (simulate)."),
    ] = ExactChoice.AUTO,
    fractions: Annotated[
        bool, typer.Option("--fractions", help="Show exact probabilities as fractions.")
    ] = False,
    output: Annotated[Output, typer.Option("--output", "-o", help="Output format.")] = Output.TEXT,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            metavar="FILE",
            help="Write a .png or .svg plot (needs matplotlib: pip install 'deckcheck[plot]').",
        ),
    ] = None,
) -> None:
    """Goldfish odds: how often a hand meets each condition, going first and second, by turn.

    Exact (multivariate hypergeometric) where possible; simulated with 95% intervals when card
    effects or a huge state space need it. Exit 2 on a bad deck, spec or option.
    """
    from deckcheck.error import DeckcheckError
    from deckcheck.goldfish import draw_rules_for, load_spec, simulate
    from deckcheck.io import read_path

    when = None
    if on is not None:
        try:
            when = date.fromisoformat(on)
        except ValueError:
            fail(f"bad date {on!r}: use YYYY-MM-DD, e.g. 2025-04-07")
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        fail(f"{plot}: the plot file must end in .png or .svg")
    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            fail("--plot needs matplotlib", ["install with: pip install 'deckcheck[plot]'"])
    try:
        deck = read_path(deck_path)
    except DeckcheckError as exc:
        fail(str(exc))
    for finding in deck.findings:
        at = f"{deck.source or deck_path}:{finding.line}" if finding.line else deck_path
        sys.stderr.write(f"warning: {at}: {finding.message} (left out)\n")
    try:
        spec = load_spec(spec_path) if spec_path is not None else None
        rules = draw_rules_for(format_name, when)
        stats = simulate(deck, spec, going=going.value, turns=turns, trials=trials, seed=seed,
                         rules=rules, exact=exact.value, fractions=fractions)  # fmt: skip
    except DeckcheckError as exc:
        fail(str(exc))
    if plot is not None:
        from deckcheck.goldfish.plot import plot_stats

        try:
            plot_stats(stats, plot)
        except DeckcheckError as exc:
            fail(str(exc))
    if output is Output.JSON:
        print_json(stats.to_dict())
    else:
        sys.stdout.write(render(stats))


def register(app: typer.Typer) -> None:
    """Add ``deckcheck simulate`` to the main app."""
    app.command("simulate")(simulate_command)
