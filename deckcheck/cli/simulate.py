"""``deckcheck simulate``: goldfish opening-hand odds, exact or simulated.

A deck file (with an optional spec), or quick mode (``--size 40 --count starter=9 --when ...``)
without one; ``--distribution`` adds P(exactly k) per category.
"""

from __future__ import annotations

import enum
import sys
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import typer
from msgspec import Struct

from deckcheck.cli.common import Output, fail
from deckcheck.cli.goldfish import (
    Job,
    View,
    check_plot,
    quick_of,
    run_compare,
    run_goldfish,
    run_side,
    run_sweep,
    spec_varies,
    warn,
)
from deckcheck.cli.options import DateOpt, FormatFileOpt, OutputOpt, parse_date, resolve_format


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


DeckArg = Annotated[
    str | None,
    typer.Argument(
        metavar="[DECK]", help="Deck file, '-' for stdin, or a ydke:// URL (none in quick mode)."
    ),
]
SpecOpt = Annotated[
    Path | None,
    typer.Option(
        "--spec",
        "-s",
        metavar="FILE",
        help="TOML spec: categories, conditions, effects (default: P(at least 1) of every card).",
    ),
]
SizeOpt = Annotated[
    int | None,
    typer.Option("--size", min=1, max=200, help="Quick mode: cards in the deck (no DECK)."),
]
CountOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--count", metavar="NAME=N", help="Quick mode: N cards of category NAME (repeatable)."
    ),
]
WhenOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--when",
        metavar="CONDITION",
        help="A condition over the categories (repeatable; replaces the spec's conditions).",
    ),
]
DistributionOpt = Annotated[
    bool, typer.Option("--distribution", help="Also P(exactly k) of every category, by turn.")
]
VaryOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--vary",
        metavar="NAME=a..b",
        help="Ratio sweep: try these copies of a card or category (repeatable); every "
        "combination, ranked (deck size held by adjusting --filler).",
    ),
]
FillerOpt = Annotated[
    str | None,
    typer.Option(
        "--filler",
        metavar="NAME",
        help="Sweep: the card or category adjusted to hold the deck size "
        "(default: other, the cards of no category).",
    ),
]
ByOpt = Annotated[
    str | None,
    typer.Option(
        "--by", metavar="CONDITION", help="Sweep: the condition to rank by (default: first)."
    ),
]
VsOpt = Annotated[
    str | None,
    typer.Option(
        "--vs",
        metavar="OTHER",
        help="Compare with OTHER: a deck file (same spec), a .toml spec (same deck), or in "
        "quick mode counts NAME=N,NAME=N (same size).",
    ),
]
SimFormatOpt = Annotated[
    str | None,
    typer.Option(
        "--format",
        "-f",
        help="Format whose era sets hand size and draws (default tcg, as validate).",
    ),
]
GoingOpt = Annotated[GoingChoice, typer.Option("--going", help="Going first, second or both.")]
TurnsOpt = Annotated[
    int, typer.Option("--turns", "-t", min=1, max=20, help="Report by each of N turns.")
]
TrialsOpt = Annotated[
    int, typer.Option("--trials", "-n", min=1, max=50_000_000, help="Simulated games per going.")
]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        min=0,
        max=2**64 - 1,
        help="Seed of the simulation (default: a random one, shown in the report).",
    ),
]
ExactOpt = Annotated[
    ExactChoice,
    typer.Option("--exact", help="auto: exact when possible; always; never (simulate)."),
]
FractionsOpt = Annotated[
    bool,
    typer.Option(
        "--fractions", help="Show exact probabilities as fractions beside the percentages."
    ),
]
PlotOpt = Annotated[
    Path | None,
    typer.Option(
        "--plot",
        metavar="FILE",
        help="Write a .png or .svg plot (needs matplotlib: pip install 'deckcheck[plot]').",
    ),
]
CumulativeOpt = Annotated[
    bool,
    typer.Option(
        "--cumulative",
        help="Also P(at least k), P(at most k) and the expected copies of every category, "
        "by turn (implies --distribution).",
    ),
]
SampleOpt = Annotated[
    int,
    typer.Option(
        "--sample",
        min=0,
        max=100,
        metavar="N",
        help="Show N seeded sample hands (opening hand and draws to --turns; --seed repeats them).",
    ),
]
SideOpt = Annotated[
    Path | None,
    typer.Option(
        "--side",
        metavar="PLAN",
        help="Games 2 and 3: apply this side plan (as deckcheck side --plan) and show the "
        "sided deck beside game 1, and P(at least 1) of each card sided in.",
    ),
]


class _Extra(Struct, frozen=True):
    """The report's extras and the other modes' options (``--vary``, ``--vs``, ``--side``)."""

    distribution: bool
    cumulative: bool
    sample: int
    vary: list[str]
    filler: str | None
    by: str | None
    vs: str | None
    side: Path | None


def simulate_command(
    deck_path: DeckArg = None,
    spec_path: SpecOpt = None,
    size: SizeOpt = None,
    count: CountOpt = None,
    when: WhenOpt = None,
    distribution: DistributionOpt = False,
    vary: VaryOpt = None,
    filler: FillerOpt = None,
    by: ByOpt = None,
    vs: VsOpt = None,
    format_name: SimFormatOpt = None,
    format_file: FormatFileOpt = None,
    on: DateOpt = None,
    going: GoingOpt = GoingChoice.BOTH,
    turns: TurnsOpt = 1,
    trials: TrialsOpt = 100_000,
    seed: SeedOpt = None,
    exact: ExactOpt = ExactChoice.AUTO,
    fractions: FractionsOpt = False,
    output: OutputOpt = Output.TEXT,
    plot: PlotOpt = None,
    cumulative: CumulativeOpt = False,
    sample: SampleOpt = 0,
    side: SideOpt = None,
) -> None:
    """Goldfish odds: how often a hand meets each condition, going first and second, by turn.

    Exact (multivariate hypergeometric) where possible; simulated with 95% intervals when card
    effects or the exact engine's budget need it. Quick mode needs no deck file: --size 40
    --count starter=9 --count brick=6 --when "starter >= 1 and brick == 0". --vary NAME=a..b
    ranks every ratio; --vs OTHER compares two decks or specs (paired intervals with --seed);
    --side PLAN shows games 2 and 3 after a side plan beside game 1; --cumulative adds P(at
    least k), P(at most k) and expected copies; --sample N shows seeded sample hands. Exit 2
    on a bad deck, spec, plan or option.
    """
    from deckcheck.goldfish import DrawRules

    fmt = resolve_format(format_name, format_file)
    day = parse_date(on)
    rules = DrawRules.from_era(fmt.era_at(day))
    check_plot(plot)
    job = Job(deck_path, quick_of(deck_path, size, count or []), spec_path, when or [], fmt)
    kw: dict[str, Any] = dict(
        going=going.value, turns=turns, trials=trials, seed=seed, rules=rules, exact=exact.value
    )
    extra = _Extra(distribution, cumulative, sample, vary or [], filler, by, vs, side)
    _dispatch(job, kw, extra, View(output, fractions, plot), day)


def _dispatch(job: Job, kw: dict[str, Any], extra: _Extra, view: View, day: date) -> None:
    """Run the mode the options ask for: a sweep, a side plan, a comparison or one run."""
    # a sweep: --vary, or a spec with a [vary] table
    if extra.vary or (
        job.quick is None and job.spec_path is not None and spec_varies(job.spec_path, job.fmt)
    ):
        _check_sweep(extra)
        sweep_kw = dict(kw, vary=extra.vary, filler=extra.filler, by=extra.by)
        run_sweep(job, sweep_kw, view)
        return
    if extra.filler is not None or extra.by is not None:
        fail("--filler and --by are for a sweep (--vary NAME=a..b)")
    kw["distributions"] = extra.distribution or extra.cumulative
    kw["sample"] = extra.sample
    if extra.side is not None:
        if extra.vs is not None or job.quick is not None:
            fail("--side needs a DECK (with its Side Deck), and does not combine with --vs")
        side_kw = dict(kw, date=day)  # the sided deck is checked on --date
        run_side(job, side_kw, extra.side, view)
        return
    if extra.vs is not None:
        run_compare(job, kw, extra.vs, view)
        return
    _run_one(job, kw, view, extra.cumulative)


def _check_sweep(extra: _Extra) -> None:
    """Exit 2 when a sweep is combined with a mode it does not go with."""
    if (
        extra.vs is not None
        or extra.distribution
        or extra.cumulative
        or extra.sample
        or extra.side is not None
    ):
        fail(
            "a sweep (--vary, or the spec's [vary]) does not combine with --vs, --side, "
            "--distribution, --cumulative or --sample"
        )


def _run_one(job: Job, kw: dict[str, Any], view: View, cumulative: bool) -> None:
    """One goldfish run: its plot, its warnings and its report."""
    from deckcheck.reporter import render

    stats = run_goldfish(job, kw)
    if view.plot is not None:
        from deckcheck.error import DeckcheckError
        from deckcheck.reporter.plot import plot_stats

        try:
            plot_stats(stats, view.plot)
        except DeckcheckError as exc:
            fail(str(exc))
    warn(stats)
    sys.stdout.write(render(stats, view.output, fractions=view.fractions, cumulative=cumulative))


def register(app: typer.Typer) -> None:
    """Add ``deckcheck simulate`` to the main app."""
    app.command("simulate")(simulate_command)
