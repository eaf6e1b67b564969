"""The goldfish documents: odds by condition, sweeps, comparisons and side plans."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from deckcheck.reporter.document.base import Doc


class EstimateDoc(Doc):
    """A probability: exact (ci null) or simulated with a 95% Wilson interval."""

    p: float
    ci: list[float] | None
    fraction: str | None = Field(None, description="Exact value 'n/d' (with --fractions).")


class TurnEstimateDoc(EstimateDoc):
    """A condition's probability by one turn."""

    turn: int
    seen: int


class CountEstimateDoc(EstimateDoc):
    """Probability of exactly ``count`` cards of a kind in the turn-1 hand."""

    count: int


class DeckInfoDoc(Doc):
    """The deck goldfished."""

    name: str | None
    main: int


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

    name: str
    expression: str
    method: Literal["exact", "simulation"] = Field(
        "exact", description="Exact or simulated (decided per condition)."
    )
    results: dict[str, list[TurnEstimateDoc]]


class MeanDoc(Doc):
    """An expected count: exact (ci null) or simulated with a 95% interval."""

    mean: float
    ci: list[float] | None
    fraction: str | None = Field(None, description="Exact value 'n/d' (with --fractions).")


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

    deck: DeckInfoDoc
    method: Literal["exact", "simulation"]
    note: str | None
    trials: int | None
    seed: int | None
    confidence: float
    rules: DrawRulesDoc
    turns: int
    going: list[str]
    seen: dict[str, list[int]]
    report: Literal["default", "spec"]
    categories: list[CategoryDoc]
    effects: list[EffectDoc]
    conditions: list[ConditionDoc]
    composition: dict[str, dict[str, list[CountEstimateDoc]]]
    distributions: list[DistributionDoc] = Field(
        default_factory=list, description="Per category, P(exactly k) by turn (when asked for)."
    )
    samples: SamplesDoc | None = Field(None, description="Sample hands (with --sample N).")
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
    results: dict[str, dict[str, EstimateDoc]]


class SweepDocument(Doc):
    """``deckcheck simulate --vary ... --output json`` and ``POST /v1/simulate/sweep``."""

    vary: list[VaryDoc]
    filler: str
    deck: dict[str, int]
    by: str
    going: str
    turn: int
    seen: dict[str, int]
    method: Literal["exact", "simulation"]
    note: str | None
    trials: int | None
    seed: int | None
    conditions: list[dict[str, str]]
    rows: list[SweepRowDoc]
    skipped: list[dict[str, int]]
    data_fingerprint: str | None = None


class DifferenceDoc(Doc):
    """One condition at one going and turn in both runs of a comparison."""

    name: str
    going: str
    turn: int
    a: float
    b: float
    diff: float = Field(description="B - A.")
    ci: list[float] | None = Field(description="95% interval of B - A when simulated.")
    interval: Literal["exact", "paired", "independent"] = Field(
        "independent",
        description="How B - A was found: exact (both exact), paired (both simulated on one "
        "seed: the games' differences), independent (the two intervals combined).",
    )
    fraction: str | None = Field(None, description="B - A exactly (with --fractions).")


class CategorySizesDoc(Doc):
    """A category's copies in A and in B (null: not in that run)."""

    name: str
    a: int | None
    b: int | None


class CompareDocument(Doc):
    """``deckcheck simulate A --vs B --output json``: both runs and their differences."""

    labels: dict[str, str]
    a: GoldfishDocument
    b: GoldfishDocument
    categories: list[CategorySizesDoc]
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


class SideGoldfishDocument(Doc):
    """``deckcheck simulate DECK --side PLAN --output json``: game 1 (A) and the sided deck
    (B, games 2 and 3) side by side, and P(at least 1) of each card sided in."""

    plan: SidePlanDoc
    comparison: CompareDocument
    side_cards: GoldfishDocument | None = Field(
        description="P(at least 1) of each Main Deck card sided in, and of any of them."
    )
    warnings: list[str] = Field(default_factory=list)
    data_fingerprint: str | None = None
