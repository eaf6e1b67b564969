"""The goldfish documents: odds by condition, sweeps, comparisons and side plans."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from deckcheck.reporter.document.base import OMIT_NONE, Doc, Src
from deckcheck.reporter.document.shape import Merged

FRACTIONS = frozenset({"fraction"})
"""The fields a goldfish document leaves out without ``--fractions`` (``shape``'s
``leave_out``)."""


def hidden(fractions: bool) -> frozenset[str]:
    """The fields a goldfish document leaves out: the exact fractions unless asked for."""
    return frozenset() if fractions else FRACTIONS


def _ratio(value: Any) -> str | None:
    """An exact value as ``"n/d"`` (None when there is none)."""
    return None if value is None else f"{value.numerator}/{value.denominator}"


def _ci(est: Any) -> list[float] | None:
    low = est.low  # (read once: a merged record looks each name up in its parts)
    return None if low is None else [low, est.high]


def _counts(ests: Any) -> list[Merged]:
    """Estimates by count (0, 1, ...)."""
    return [Merged({"count": k}, e) for k, e in enumerate(ests)]


def _by_turn(seen: Any, ests: Any) -> list[Merged]:
    """Estimates by turn (index 0 = turn 1) with the cards seen by then."""
    return [Merged({"turn": i + 1, "seen": seen[i]}, e) for i, e in enumerate(ests)]


def _conditions(stats: Any) -> list[Merged]:
    """A run's conditions, each with its figures by going and turn."""
    return [
        Merged({"results": {g: _by_turn(stats.seen[g], e) for g, e in c.by_going.items()}}, c)
        for c in stats.conditions
    ]


def _distribution_turn(stats: Any, dist: Any, going: Any, t: int, ks: Any) -> dict[str, Any]:
    return {
        "turn": t + 1,
        "seen": stats.seen[going][t],
        "counts": _counts(ks),
        "at_least": _counts(dist.at_least(going, t)),
        "at_most": _counts(dist.at_most(going, t)),
        "expected": dist.expected(going, t),
    }


def _distributions(stats: Any) -> list[Merged]:
    """A run's distributions, each by going and turn with its cumulative figures."""
    return [
        Merged(
            {
                "results": {
                    g: [_distribution_turn(stats, d, g, t, ks) for t, ks in enumerate(turns)]
                    for g, turns in d.by_going.items()
                }
            },
            d,
        )
        for d in stats.distributions
    ]


def _samples(stats: Any) -> Merged | None:
    """A run's sample hands, each with which conditions it meets by turn."""
    if stats.samples is None:
        return None
    names = [c.name for c in stats.conditions]
    hands = [Merged({"met": dict(zip(names, h.met, strict=True))}, h) for h in stats.samples.hands]
    return Merged({"hands": hands}, stats.samples)


class EstimateDoc(Doc):
    """A probability: exact (ci null) or simulated with a 95% Wilson interval."""

    not_fields = frozenset({"low", "high"})  # (the ci)

    p: Annotated[float, Src("probability")]
    ci: Annotated[list[float] | None, Src(_ci)]
    fraction: Annotated[str | None, Src(lambda e: _ratio(e.fraction)), OMIT_NONE] = Field(
        None, description="Exact value 'n/d' (with --fractions)."
    )


class TurnEstimateDoc(EstimateDoc):
    """A condition's probability by one turn."""

    turn: int
    seen: int


class CountEstimateDoc(EstimateDoc):
    """Probability of exactly ``count`` cards of a kind in the turn-1 hand."""

    count: int


class DeckInfoDoc(Doc):
    """The deck goldfished."""

    name: Annotated[str | None, Src("deck_name")]
    main: Annotated[int, Src("deck_size")]


class DrawRulesDoc(Doc):
    """Hand size and draws."""

    hand_size: int
    first_player_draws: bool
    draw_per_turn: int
    draw_up_to: int | None
    plays_whole_hand: bool


class CardCountDoc(Doc):
    """A card of a category."""

    name: str
    passcode: int
    copies: int


class CategoryDoc(Doc):
    """A spec category and the deck's cards in it."""

    name: str
    copies: int
    cards: list[CardCountDoc]


class EffectDoc(Doc):
    """A card effect the simulation plays."""

    card: str
    passcode: int
    kind: str
    count: int
    target: str | None
    prefer: list[str]
    once_per_turn: bool


class ConditionDoc(Doc):
    """A condition and its probability by going and turn."""

    not_fields = frozenset({"by_going"})  # (the results)

    name: str
    expression: str
    method: Literal["exact", "simulation"] = Field(
        "exact", description="Exact or simulated (decided per condition)."
    )
    results: dict[str, list[TurnEstimateDoc]]


class MeanDoc(Doc):
    """An expected count: exact (ci null) or simulated with a 95% interval."""

    not_fields = frozenset({"low", "high"})  # (the ci)

    mean: Annotated[float, Src("value")]
    ci: Annotated[list[float] | None, Src(_ci)]
    fraction: Annotated[str | None, Src(lambda e: _ratio(e.fraction)), OMIT_NONE] = Field(
        None, description="Exact value 'n/d' (with --fractions)."
    )


class DistributionTurnDoc(Doc):
    """A category's distribution by one turn: P(exactly count) for count = 0, 1, ..."""

    turn: int
    seen: int
    counts: list[CountEstimateDoc]
    at_least: list[CountEstimateDoc] = Field(
        default_factory=list, description="P(at least count) for count = 0, 1, ..."
    )
    at_most: list[CountEstimateDoc] = Field(
        default_factory=list, description="P(at most count) for count = 0, 1, ..."
    )
    expected: MeanDoc | None = Field(None, description="Expected cards of the category seen.")


class DistributionDoc(Doc):
    """A category's P(exactly k) by going and turn (``--distribution``)."""

    not_fields = frozenset({"by_going", "trials"})  # (the results; their intervals' games)

    name: str
    copies: int
    results: dict[str, list[DistributionTurnDoc]]


class SampleHandDoc(Doc):
    """A sample hand: the opening hand, each turn's Draw Phase cards, the conditions met."""

    going: str
    hand: list[str]
    draws: list[list[str]]
    met: dict[str, list[bool]] = Field(description="Per condition, whether it holds by turn.")


class SamplesDoc(Doc):
    """Seeded sample hands (``--sample N``)."""

    seed: int
    hands: list[SampleHandDoc]


class GoldfishDocument(Doc):
    """``deckcheck simulate --output json``: odds by condition, going and turn."""

    not_fields = frozenset({"default", "outcomes"})  # (the report; the paired games)

    deck: Annotated[DeckInfoDoc, Src(lambda s: s)]
    method: Literal["exact", "simulation"]
    note: str | None
    trials: int | None
    seed: int | None
    confidence: Annotated[float, Src(lambda s: 0.95)]
    rules: DrawRulesDoc
    turns: int
    going: Annotated[list[str], Src("goings")]
    seen: dict[str, list[int]]
    report: Annotated[Literal["default", "spec"], Src(lambda s: "default" if s.default else "spec")]
    categories: list[CategoryDoc]
    effects: list[EffectDoc]
    conditions: Annotated[list[ConditionDoc], Src(_conditions)]
    composition: Annotated[
        dict[str, dict[str, list[CountEstimateDoc]]],
        Src(
            lambda s: {g: {k: _counts(e) for k, e in ks.items()} for g, ks in s.composition.items()}
        ),
    ]
    distributions: Annotated[list[DistributionDoc], Src(_distributions)] = Field(
        default_factory=list, description="Per category, P(exactly k) by turn (when asked for)."
    )
    samples: Annotated[SamplesDoc | None, Src(_samples)] = Field(
        None, description="Sample hands (with --sample N)."
    )
    warnings: list[str] = Field(default_factory=list)
    data_fingerprint: str | None = None


class VaryDoc(Doc):
    """A varied card or category and the copies tried."""

    name: str
    values: list[int]


class SweepRowDoc(Doc):
    """One combination of a sweep, ranked: copies, filler, every condition's figure by going."""

    rank: int
    values: dict[str, int]
    filler: int
    method: Literal["exact", "simulation"]
    results: Annotated[dict[str, dict[str, EstimateDoc]], Src("figures")]


def _simulated(name: str) -> Any:
    """A sweep's trials or seed: set only when some combination was simulated."""
    return Src(lambda s: getattr(s, name) if s.method == "simulation" else None)


class SweepDocument(Doc):
    """``deckcheck simulate --vary ... --output json`` and ``POST /v1/simulate/sweep``."""

    not_fields = frozenset({"deck_size", "goings"})  # (the deck; the goings run)

    vary: list[VaryDoc]
    filler: str
    deck: Annotated[dict[str, int], Src(lambda s: {"main": s.deck_size})]
    by: str
    going: str
    turn: int
    seen: dict[str, int]
    method: Literal["exact", "simulation"]
    note: str | None
    trials: Annotated[int | None, _simulated("trials")]
    seed: Annotated[int | None, _simulated("seed")]
    conditions: Annotated[
        list[dict[str, str]],
        Src(lambda s: [{"name": n, "expression": e} for n, e in s.conditions]),
    ]
    rows: Annotated[
        list[SweepRowDoc],
        Src(lambda s: [Merged({"rank": i + 1}, r) for i, r in enumerate(s.rows)]),
    ]
    skipped: list[dict[str, int]]
    data_fingerprint: str | None = None


class DifferenceDoc(Doc):
    """One condition at one going and turn in both runs of a comparison."""

    not_fields = frozenset({"discordant"})  # (the paired games: the interval)

    name: str
    going: str
    turn: int
    a: Annotated[float, Src(lambda d: d.a.probability)]
    b: Annotated[float, Src(lambda d: d.b.probability)]
    diff: float = Field(description="B - A.")
    ci: Annotated[list[float] | None, Src("interval")] = Field(
        description="95% interval of B - A when simulated."
    )
    interval: Annotated[Literal["exact", "paired", "independent"], Src("method")] = Field(
        "independent",
        description="How B - A was found: exact (both exact), paired (both simulated on one "
        "seed: the games' differences), independent (the two intervals combined).",
    )
    fraction: Annotated[
        str | None, Src(lambda d: _ratio(d.fraction) if d.fraction else None), OMIT_NONE
    ] = Field(None, description="B - A exactly (with --fractions).")


class CategorySizesDoc(Doc):
    """A category's copies in A and in B (null: not in that run)."""

    name: str
    a: int | None
    b: int | None


def _sizes(cmp: Any) -> list[dict[str, Any]]:
    """Each category's copies in A and in B (A's order, then B's others)."""
    a_cats = {c.name: c.copies for c in cmp.a.categories}
    b_cats = {c.name: c.copies for c in cmp.b.categories}
    names = [*a_cats, *(n for n in b_cats if n not in a_cats)]
    return [{"name": n, "a": a_cats.get(n), "b": b_cats.get(n)} for n in names]


class CompareDocument(Doc):
    """``deckcheck simulate A --vs B --output json``: both runs and their differences."""

    not_fields = frozenset({"a_label", "b_label"})  # (the labels)

    labels: Annotated[dict[str, str], Src(lambda c: {"a": c.a_label, "b": c.b_label})]
    a: GoldfishDocument
    b: GoldfishDocument
    categories: Annotated[list[CategorySizesDoc], Src(_sizes)]
    differences: list[DifferenceDoc]
    only_a: list[str]
    only_b: list[str]
    paired: bool = Field(
        False, description="Whether simulated differences are paired (common random numbers)."
    )
    data_fingerprint: str | None = None


class SidePlanCardDoc(Doc):
    """A card a side plan moves."""

    name: str
    passcode: int
    copies: int


class SidePlanDoc(Doc):
    """The cards sided in and out."""

    in_: list[SidePlanCardDoc] = Field(alias="in")
    out: list[SidePlanCardDoc]


def _moved(cards: Any) -> list[dict[str, Any]]:
    return [{"name": n, "passcode": c, "copies": k} for n, c, k in cards]


class SideGoldfishDocument(Doc):
    """``deckcheck simulate DECK --side PLAN --output json``: game 1 (A) and the sided deck
    (B, games 2 and 3) side by side, and P(at least 1) of each card sided in."""

    not_fields = frozenset({"cards_in", "cards_out"})  # (the plan)

    plan: Annotated[
        SidePlanDoc,
        Src(lambda s: {"in_": _moved(s.cards_in), "out": _moved(s.cards_out)}),
    ]
    comparison: CompareDocument
    side_cards: GoldfishDocument | None = Field(
        description="P(at least 1) of each Main Deck card sided in, and of any of them."
    )
    warnings: list[str] = Field(default_factory=list)
    data_fingerprint: str | None = None
