"""``deckcheck simulate``: goldfish opening-hand odds, exact or simulated."""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.common import Output, clean, fail
from deckcheck.cli.options import DateOpt, FormatFileOpt, OutputOpt, parse_date, resolve_format

if TYPE_CHECKING:
    pass


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
        typer.Option(
            "--format",
            "-f",
            help="Format whose era sets hand size and draws (default tcg, as validate).",
        ),
    ] = None,
    format_file: FormatFileOpt = None,
    on: DateOpt = None,
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
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            min=0,
            max=2**64 - 1,
            help="Seed of the simulation (default: a random one, shown in the report).",
        ),
    ] = None,
    exact: Annotated[
        ExactChoice,
        typer.Option("--exact", help="auto: exact when possible; always; never (simulate)."),
    ] = ExactChoice.AUTO,
    fractions: Annotated[
        bool,
        typer.Option(
            "--fractions", help="Show exact probabilities as fractions beside the percentages."
        ),
    ] = False,
    output: OutputOpt = Output.TEXT,
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
    from deckcheck.card import CardIndex
    from deckcheck.deck.io import read_path
    from deckcheck.deck.model import FindingCode
    from deckcheck.deck.skills import prefer_skills, uses_skills
    from deckcheck.error import DeckcheckError
    from deckcheck.goldfish import DrawRules, load_spec, simulate
    from deckcheck.reporter import render
    from deckcheck.rule.format import Pool

    fmt = resolve_format(format_name, format_file)
    when = parse_date(on)
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        fail(f"{plot}: the plot file must end in .png or .svg")
    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            fail("--plot needs matplotlib", ["install with: pip install 'deckcheck[plot]'"])
    rush = fmt.pool is Pool.RUSH
    try:
        deck = read_path(deck_path, rush=rush)
    except DeckcheckError as exc:
        fail(str(exc))
    if uses_skills(fmt):  # Speed Duel, Duel Links: a name that is a Skill's means the Skill
        deck = prefer_skills(deck, CardIndex.load())
    for finding in deck.findings:
        at = f"{deck.source or deck_path}:{finding.line}" if finding.line else deck_path
        if finding.code is FindingCode.MISSING_SECTIONS:  # a note about the file, no card
            kept = ""
        else:
            kept = " (counted as a card of no category)" if finding.name else " (left out)"
        sys.stderr.write(f"warning: {clean(at)}: {clean(finding.message)}{kept}\n")
    try:
        spec = load_spec(spec_path, rush=rush) if spec_path is not None else None
        rules = DrawRules.from_era(fmt.era_at(when))
        stats = simulate(deck, spec, going=going.value, turns=turns, trials=trials, seed=seed,
                         rules=rules, exact=exact.value)  # fmt: skip
    except DeckcheckError as exc:
        fail(str(exc))
    if plot is not None:
        from deckcheck.reporter.plot import plot_stats

        try:
            plot_stats(stats, plot)
        except DeckcheckError as exc:
            fail(str(exc))
    for warning in stats.warnings:
        if "match no card" not in warning:  # the lines were named above, one by one
            sys.stderr.write(f"warning: {clean(warning)}\n")
    sys.stdout.write(render(stats, output, fractions=fractions))


def register(app: typer.Typer) -> None:
    """Add ``deckcheck simulate`` to the main app."""
    app.command("simulate")(simulate_command)
