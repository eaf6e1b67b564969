"""``deckcheck simulate``: goldfish opening-hand odds, exact or simulated.

A deck file (with an optional spec), or quick mode (``--size 40 --count starter=9 --when ...``)
without one; ``--distribution`` adds P(exactly k) per category.
"""

from __future__ import annotations

import enum
import sys
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from deckcheck.cli.common import Output, clean, fail
from deckcheck.cli.options import DateOpt, FormatFileOpt, OutputOpt, parse_date, resolve_format

if TYPE_CHECKING:
    from deckcheck.deck.model import Deck
    from deckcheck.goldfish import HandStats, Spec
    from deckcheck.rule.format import Format


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


def parse_count(text: str, option: str = "--count") -> tuple[str, int]:
    """``NAME=N`` -> (name, n); exit 2 on anything else."""
    name, sep, value = text.rpartition("=")
    if not sep or not name.strip() or not value.strip().isdigit():
        fail(f"{option} {text!r}: expected NAME=N, e.g. starter=9")
    return name.strip(), int(value)


def _check_plot(plot: Path | None) -> None:
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        fail(f"{plot}: the plot file must end in .png or .svg")
    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            fail("--plot needs matplotlib", ["install with: pip install 'deckcheck[plot]'"])


def read_deck_warning(deck_path: str, rush: bool, skills: bool = False) -> Deck:
    """Read the deck (exit 2 when unreadable) and warn about each line it could not use.

    ``skills`` (Speed Duel, Duel Links): a name that is also a Skill's means the Skill.
    """
    from deckcheck.data.dataset import Dataset
    from deckcheck.deck.io import read_path
    from deckcheck.deck.model import FindingCode, Section
    from deckcheck.error import DeckcheckError

    try:
        deck = read_path(deck_path, rush=rush)
    except DeckcheckError as exc:
        fail(str(exc))
    if skills:
        from deckcheck.deck.skills import prefer_skills

        deck = prefer_skills(deck, Dataset.active().cards)
    for finding in deck.findings:
        at = f"{deck.source or deck_path}:{finding.line}" if finding.line else deck_path
        if finding.code is FindingCode.MISSING_SECTIONS:  # a note about the file, no card
            kept = ""
        elif finding.name:
            kept = " (counted as a card of no category)"
        elif finding.passcode is not None and finding.section in (Section.MAIN, None):
            kept = " (counted in the deck size, no card data)"
        else:
            kept = " (left out)"
        sys.stderr.write(f"warning: {clean(at)}: {clean(finding.message)}{kept}\n")
    return deck


def load_spec_with(spec_path: Path | None, when: list[str], rush: bool) -> Spec | None:
    """The spec file (if any), its conditions replaced by ``--when`` ones when given."""
    from dataclasses import replace

    from deckcheck.goldfish import load_spec
    from deckcheck.goldfish.quick import quick_conditions

    spec = load_spec(spec_path, rush=rush) if spec_path is not None else None
    if when:
        if spec is None:
            fail("--when needs --spec (its categories), or quick mode (--size and --count)")
        counts = {c.name: 0 for c in spec.categories}
        conds = tuple((name, cond) for name, _, cond in quick_conditions(counts, when))
        spec = replace(spec, conditions=conds)
    return spec


def _warn(stats: HandStats) -> None:
    for warning in stats.warnings:
        if "match no card" not in warning and "unknown passcodes" not in warning:  # named above
            sys.stderr.write(f"warning: {clean(warning)}\n")


def run_goldfish(
    deck_path: str | None,
    quick: tuple[int, dict[str, int]] | None,
    spec_path: Path | None,
    when: list[str],
    fmt: Format,
    kw: dict[str, Any],
) -> HandStats:
    """One goldfish run of a deck (and spec) or a quick-mode deck; exit 2 on bad input."""
    from deckcheck.deck.skills import uses_skills
    from deckcheck.error import DeckcheckError
    from deckcheck.goldfish import simulate, simulate_counts
    from deckcheck.rule.format import Pool

    rush = fmt.pool is Pool.RUSH
    try:
        if quick is not None:
            return simulate_counts(quick[0], quick[1], when or None, **kw)
        assert deck_path is not None
        deck = read_deck_warning(deck_path, rush, uses_skills(fmt))
        return simulate(deck, load_spec_with(spec_path, when, rush), **kw)
    except DeckcheckError as exc:
        fail(str(exc))


def quick_of(deck_path: str | None, size: int | None, count: list[str]) -> Any:
    """(size, counts) in quick mode, None with a deck; exit 2 on a mix or a missing part."""
    if deck_path is not None:
        if size is not None or count:
            fail("give a DECK or quick mode (--size and --count), not both")
        return None
    if size is None or not count:
        fail("give a DECK file, or quick mode: --size N and --count NAME=N (repeatable)")
    counts: dict[str, int] = {}
    for text in count:
        name, n = parse_count(text)
        if name in counts:
            fail(f"--count {name!r} is given twice")
        counts[name] = n
    return size, counts


def run_sweep(
    deck_path: str | None,
    quick: tuple[int, dict[str, int]] | None,
    spec_path: Path | None,
    when: list[str],
    fmt: Format,
    kw: dict[str, Any],
    output: Output,
    fractions: bool,
    plot: Path | None,
) -> None:
    """``--vary``: the ranked sweep as text or JSON (and a plot)."""
    from deckcheck.deck.skills import uses_skills
    from deckcheck.error import DeckcheckError
    from deckcheck.goldfish import sweep, sweep_counts
    from deckcheck.reporter import document as doc
    from deckcheck.reporter import safe
    from deckcheck.reporter.text import sweep_text
    from deckcheck.rule.format import Pool

    try:
        if quick is not None:
            kw = {k: v for k, v in kw.items() if k not in ("trials", "seed")}
            stats = sweep_counts(quick[0], quick[1], kw.pop("vary"), when or None, **kw)
        else:
            assert deck_path is not None
            deck = read_deck_warning(deck_path, fmt.pool is Pool.RUSH, uses_skills(fmt))
            spec = load_spec_with(spec_path, when, fmt.pool is Pool.RUSH)
            stats = sweep(deck, spec, kw.pop("vary") or None, **kw)
        if plot is not None:
            from deckcheck.reporter.plot import plot_sweep

            plot_sweep(stats, plot)
    except DeckcheckError as exc:
        fail(str(exc))
    if output is Output.JSON:
        sys.stdout.write(doc.dump(doc.SweepDocument.model_validate(safe(stats.to_dict(fractions)))))
    else:
        sys.stdout.write(sweep_text(stats, fractions))


def _spec_varies(spec_path: Path, fmt: Format) -> bool:
    """Whether the spec file has a ``[vary]`` table (exit 2 on a bad spec)."""
    from deckcheck.error import DeckcheckError
    from deckcheck.goldfish import load_spec
    from deckcheck.rule.format import Pool

    try:
        return bool(load_spec(spec_path, rush=fmt.pool is Pool.RUSH).vary)
    except DeckcheckError as exc:
        fail(str(exc))


def _other_counts(quick: tuple[int, dict[str, int]], vs: str) -> tuple[int, dict[str, int]]:
    counts = dict(quick[1])
    for part in vs.split(","):
        name, n = parse_count(part.strip(), "--vs")
        counts[name] = n
    return quick[0], counts


def run_compare(
    deck_path: str | None,
    quick: tuple[int, dict[str, int]] | None,
    spec_path: Path | None,
    when: list[str],
    fmt: Format,
    kw: dict[str, Any],
    vs: str,
    output: Output,
    fractions: bool,
    plot: Path | None = None,
) -> None:
    """``--vs``: both runs side by side, as text or JSON (paired intervals on one seed), and
    a plot of both."""
    from deckcheck.goldfish.compare import compare
    from deckcheck.reporter import document as doc
    from deckcheck.reporter import safe
    from deckcheck.reporter.text import compare_text

    kw = dict(kw, paired=kw["seed"] is not None)  # one --seed: both runs' games are paired
    a = run_goldfish(deck_path, quick, spec_path, when, fmt, kw)
    if quick is not None:
        b = run_goldfish(None, _other_counts(quick, vs), None, when, fmt, kw)
        labels = (", ".join(f"{n}={c}" for n, c in quick[1].items()), vs)
    elif vs.lower().endswith(".toml"):
        b = run_goldfish(deck_path, None, Path(vs), when, fmt, kw)
        labels = (str(spec_path or "default report"), vs)
    else:
        b = run_goldfish(vs, None, spec_path, when, fmt, kw)
        labels = (str(deck_path), vs)
    _warn(a)
    _warn(b)
    cmp = compare(a, b, *labels)
    if plot is not None:
        write_compare_plot(cmp, plot)
    if output is Output.JSON:
        sys.stdout.write(doc.dump(doc.CompareDocument.model_validate(safe(cmp.to_dict(fractions)))))
    else:
        sys.stdout.write(compare_text(cmp, fractions))


def run_side(
    deck_path: str | None,
    spec_path: Path | None,
    when: list[str],
    fmt: Format,
    kw: dict[str, Any],
    plan_path: Path,
    output: Output,
    fractions: bool,
    plot: Path | None,
) -> None:
    """``--side PLAN``: game 1 and the sided deck side by side, and the side cards' odds."""
    from deckcheck.boundary import MAX_TEXT_BYTES, read_capped
    from deckcheck.deck.skills import uses_skills
    from deckcheck.error import DeckcheckError
    from deckcheck.goldfish.side import simulate_side
    from deckcheck.reporter import document as doc
    from deckcheck.reporter import safe
    from deckcheck.reporter.text import side_text
    from deckcheck.rule.format import Pool
    from deckcheck.run.siding import parse_side_plan

    assert deck_path is not None
    try:
        text = read_capped(plan_path, MAX_TEXT_BYTES).decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{plan_path}: cannot read the side plan: {exc}")
    except DeckcheckError as exc:
        fail(f"{plan_path}: {exc}")
    rush = fmt.pool is Pool.RUSH
    deck = read_deck_warning(deck_path, rush, uses_skills(fmt))
    try:
        plan = parse_side_plan(text)
    except DeckcheckError as exc:
        fail(f"{plan_path}: {exc}")
    try:
        spec = load_spec_with(spec_path, when, rush)
        rules = kw.pop("rules")
        stats = simulate_side(deck, plan, spec, format=fmt, rules=rules, **kw)
    except DeckcheckError as exc:
        fail(str(exc))
    for warning in stats.warnings:
        sys.stderr.write(f"warning: {clean(warning)}\n")
    _warn(stats.game1)
    if plot is not None:
        write_compare_plot(stats.comparison, plot)
    if output is Output.JSON:
        data = safe(stats.to_dict(fractions))
        sys.stdout.write(doc.dump(doc.SideGoldfishDocument.model_validate(data)))
    else:
        sys.stdout.write(side_text(stats, fractions))


def write_compare_plot(cmp: Any, plot: Path) -> None:
    """Plot both runs of a comparison (exit 2 when it cannot be written)."""
    from deckcheck.error import DeckcheckError
    from deckcheck.reporter.plot import plot_compare

    try:
        plot_compare(cmp, plot)
    except DeckcheckError as exc:
        fail(str(exc))


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


@dataclass(frozen=True)
class _Job:
    """What one ``simulate`` call runs on: the deck (or quick-mode counts), the spec and
    ``--when`` conditions, and the format."""

    deck_path: str | None
    quick: tuple[int, dict[str, int]] | None
    spec_path: Path | None
    when: list[str]
    fmt: Format


@dataclass(frozen=True)
class _Extra:
    """The report's extras and the other modes' options (``--vary``, ``--vs``, ``--side``)."""

    distribution: bool
    cumulative: bool
    sample: int
    vary: list[str]
    filler: str | None
    by: str | None
    vs: str | None
    side: Path | None


@dataclass(frozen=True)
class _View:
    """How the result is shown: ``--output``, ``--fractions`` and ``--plot``."""

    output: Output
    fractions: bool
    plot: Path | None


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
    _check_plot(plot)
    job = _Job(deck_path, quick_of(deck_path, size, count or []), spec_path, when or [], fmt)
    kw: dict[str, Any] = dict(
        going=going.value, turns=turns, trials=trials, seed=seed, rules=rules, exact=exact.value
    )
    extra = _Extra(distribution, cumulative, sample, vary or [], filler, by, vs, side)
    _dispatch(job, kw, extra, _View(output, fractions, plot), day)


def _dispatch(job: _Job, kw: dict[str, Any], extra: _Extra, view: _View, day: date) -> None:
    """Run the mode the options ask for: a sweep, a side plan, a comparison or one run."""
    # a sweep: --vary, or a spec with a [vary] table
    if extra.vary or (
        job.quick is None and job.spec_path is not None and _spec_varies(job.spec_path, job.fmt)
    ):
        _check_sweep(extra)
        sweep_kw = dict(kw, vary=extra.vary, filler=extra.filler, by=extra.by)
        run_sweep(*_job_args(job), sweep_kw, view.output, view.fractions, view.plot)
        return
    if extra.filler is not None or extra.by is not None:
        fail("--filler and --by are for a sweep (--vary NAME=a..b)")
    kw["distributions"] = extra.distribution or extra.cumulative
    kw["sample"] = extra.sample
    if extra.side is not None:
        if extra.vs is not None or job.quick is not None:
            fail("--side needs a DECK (with its Side Deck), and does not combine with --vs")
        side_kw = dict(kw, date=day)  # the sided deck is checked on --date
        run_side(
            job.deck_path, job.spec_path, job.when, job.fmt, side_kw, extra.side, *_view_args(view)
        )
        return
    if extra.vs is not None:
        run_compare(*_job_args(job), kw, extra.vs, *_view_args(view))
        return
    _run_one(job, kw, view, extra.cumulative)


def _job_args(
    job: _Job,
) -> tuple[str | None, tuple[int, dict[str, int]] | None, Path | None, list[str], Format]:
    return job.deck_path, job.quick, job.spec_path, job.when, job.fmt


def _view_args(view: _View) -> tuple[Output, bool, Path | None]:
    return view.output, view.fractions, view.plot


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


def _run_one(job: _Job, kw: dict[str, Any], view: _View, cumulative: bool) -> None:
    """One goldfish run: its plot, its warnings and its report."""
    from deckcheck.reporter import render

    stats = run_goldfish(*_job_args(job), kw)
    if view.plot is not None:
        from deckcheck.error import DeckcheckError
        from deckcheck.reporter.plot import plot_stats

        try:
            plot_stats(stats, view.plot)
        except DeckcheckError as exc:
            fail(str(exc))
    _warn(stats)
    sys.stdout.write(render(stats, view.output, fractions=view.fractions, cumulative=cumulative))


def register(app: typer.Typer) -> None:
    """Add ``deckcheck simulate`` to the main app."""
    app.command("simulate")(simulate_command)
