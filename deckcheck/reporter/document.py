"""The JSON documents deckcheck prints, as pydantic models: one definition for the CLI's JSON,
the published JSON Schema (``deckcheck schema``) and the service's OpenAPI.

Each document is built from the library's values with :func:`document` and written with
``model_dump_json``. Models forbid unknown fields, so a value whose JSON form drifts from its
model fails loudly (and the tests print every document through its model).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from deckcheck.reporter.metadoc import MetaDocument as MetaDocument
from deckcheck.source.record import SkipReason, UnreadableReason


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


# -- validation ---------------------------------------------------------------------------------


class ViolationDoc(_Doc):
    """One finding in a deck."""

    code: str = Field(description="Stable kebab-case violation code (README table).")
    severity: Literal["error", "warning", "note"]
    section: Literal["main", "extra", "side"] | None = None
    passcode: int | None = None
    name: str | None = None
    found: int | None = None
    allowed: int | None = None
    line: int | None = Field(None, description="Line of the deck file, where known.")
    text: str | None = Field(
        None, description="The line as written, for lines that name no card (unknown, parse)."
    )
    message: str
    name_local: str | None = Field(
        None,
        description="With --lang ja or zh: the card's name in that language (English "
        "when it has none).",
    )
    message_local: str | None = Field(
        None, description="With --lang ja or zh: the message in that language."
    )


class BanlistRefDoc(_Doc):
    """The ban list a deck was checked against."""

    name: str
    effective: str


class CountsDoc(_Doc):
    """Cards counted in each section."""

    main: int
    extra: int
    side: int


class PointCardDoc(_Doc):
    """A card that adds points: copies x points of one copy."""

    name: str
    passcode: int
    copies: int
    each: int
    points: int


class PointsDoc(_Doc):
    """Point total and cap (point formats only)."""

    total: int | None
    cap: int
    cards: list[PointCardDoc] = Field(
        default_factory=list, description="The cards that make the total, largest first."
    )


class RegistrationDoc(_Doc):
    """The registration (row of a registrations CSV) a deck belongs to."""

    file: str = Field(description="The registrations CSV.")
    row: int = Field(
        description="The row as a spreadsheet shows it (the header is row 1; a multi-line cell "
        "is one row)."
    )
    line: int | None = Field(None, description="The line of the CSV file the row starts on.")
    player_id: str
    player: str
    deck: str = Field(description="The deck cell as written: a path, a ydke:// URL or a list.")
    fields: dict[str, str] = Field(description="The CSV's other columns, by header.")
    duplicate_of: int | None = Field(
        None, description="Row of the first registration with the same player id."
    )
    status: Literal["legal", "illegal", "unreadable", "duplicate"]


class ResultDoc(_Doc):
    """The verdict on one deck."""

    path: str | None
    format: str
    era: str
    banlist: BanlistRefDoc | None
    date: str
    legal: bool
    counts: CountsDoc
    violations: list[ViolationDoc]
    points: PointsDoc | None = Field(None, description="Only for point formats (Genesys).")
    name: str | None = Field(None, description="The deck's own name, if the file gives one.")
    data_fingerprint: str | None = Field(None, description="Dataset the deck was checked against.")
    fingerprint: str | None = Field(
        None, description="Short hash of the deck's contents (order and artwork do not count)."
    )
    registration: RegistrationDoc | None = Field(
        None, description="Only for decks from a registrations CSV."
    )


class SummaryDoc(_Doc):
    """Totals of a run."""

    decks: int
    legal: int
    illegal: int
    errors: int
    warnings: int
    notes: int
    unreadable: int
    skipped: int = 0
    duplicates: int = Field(0, description="Registrations whose player id was already used.")


class UnreadableDoc(_Doc):
    """A source that could not be read."""

    path: str
    code: UnreadableReason = Field(description="Why, as a stable code (README table).")
    error: str = Field(description="The message, naming the source and the line where known.")
    line: int | None = None
    registration: RegistrationDoc | None = None


class SkippedDoc(_Doc):
    """A file a folder scan did not take for a deck."""

    path: str
    code: SkipReason = Field(description="Why, as a stable code (README table).")
    reason: str = Field(description="The code's meaning in words.")


class DataDoc(_Doc):
    """The dataset a run used."""

    as_of: str | None
    fingerprint: str | None


class ValidationDocument(_Doc):
    """``deckcheck validate --output json``: every deck's verdict, unreadable sources, totals."""

    results: list[ResultDoc]
    summary: SummaryDoc
    unreadable: list[UnreadableDoc] = Field(description="Sources that could not be read.")
    skipped: list[SkippedDoc] = Field(default_factory=list)
    format: str | None = None
    date: str | None = None
    data: DataDoc | None = None
    meta: MetaDocument | None = Field(
        None, description="deckcheck batch's report.json: the metagame of the decks read."
    )


# -- upcoming -----------------------------------------------------------------------------------


class NextListDoc(_Doc):
    """The next list of a deck's format."""

    name: str
    effective: str = Field(
        description="First day in force where the deck is checked (the format's TCG region: "
        "na or eu, as --region)."
    )
    announced: str | None


class CardChangeDoc(_Doc):
    """A card of the deck whose status (or points) changes on the next list."""

    name: str
    passcode: int
    copies: int = Field(description="Copies of the card name in the deck.")
    before: int | None = Field(description="Copies allowed (or points) now; null: not listed.")
    after: int | None = Field(description="Copies allowed (or points) on the next list.")
    points: bool
    line: int | None
    message: str


class DeckForecastDoc(_Doc):
    """One deck on the date and under the next list."""

    path: str
    format: str
    outlook: Literal["becomes-illegal", "new-errors", "changes", "unaffected", "no-list"]
    legal_now: bool
    legal_then: bool | None
    next_list: NextListDoc | None
    new_errors: list[ViolationDoc]
    changes: list[CardChangeDoc]


class UpcomingSummaryDoc(_Doc):
    """Decks by outlook."""

    decks: int
    becomes_illegal: int = Field(alias="becomes-illegal")
    new_errors: int = Field(alias="new-errors")
    changes: int
    unaffected: int
    no_list: int = Field(alias="no-list")
    unreadable: int
    skipped: int


class UpcomingDocument(_Doc):
    """``deckcheck upcoming --output json``: what the next announced list does to each deck."""

    date: str
    decks: list[DeckForecastDoc]
    summary: UpcomingSummaryDoc
    unreadable: list[UnreadableDoc]
    skipped: list[SkippedDoc] = Field(default_factory=list)
    data_as_of: str | None


# -- goldfish -----------------------------------------------------------------------------------


class EstimateDoc(_Doc):
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


class DeckInfoDoc(_Doc):
    """The deck goldfished."""

    name: str | None
    main: int


class DrawRulesDoc(_Doc):
    """Hand size and draws."""

    hand_size: int
    first_player_draws: bool
    draw_per_turn: int
    draw_up_to: int | None
    plays_whole_hand: bool


class CardCountDoc(_Doc):
    """A card of a category."""

    name: str
    passcode: int
    copies: int


class CategoryDoc(_Doc):
    """A spec category and the deck's cards in it."""

    name: str
    copies: int
    cards: list[CardCountDoc]


class EffectDoc(_Doc):
    """A card effect the simulation plays."""

    card: str
    passcode: int
    kind: str
    count: int
    target: str | None
    prefer: list[str]
    once_per_turn: bool


class ConditionDoc(_Doc):
    """A condition and its probability by going and turn."""

    name: str
    expression: str
    method: Literal["exact", "simulation"] = Field(
        "exact", description="Exact or simulated (decided per condition)."
    )
    results: dict[str, list[TurnEstimateDoc]]


class MeanDoc(_Doc):
    """An expected count: exact (ci null) or simulated with a 95% interval."""

    mean: float
    ci: list[float] | None
    fraction: str | None = Field(None, description="Exact value 'n/d' (with --fractions).")


class DistributionTurnDoc(_Doc):
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


class DistributionDoc(_Doc):
    """A category's P(exactly k) by going and turn (``--distribution``)."""

    name: str
    copies: int
    results: dict[str, list[DistributionTurnDoc]]


class SampleHandDoc(_Doc):
    """A sample hand: the opening hand, each turn's Draw Phase cards, the conditions met."""

    going: str
    hand: list[str]
    draws: list[list[str]]
    met: dict[str, list[bool]] = Field(description="Per condition, whether it holds by turn.")


class SamplesDoc(_Doc):
    """Seeded sample hands (``--sample N``)."""

    seed: int
    hands: list[SampleHandDoc]


class GoldfishDocument(_Doc):
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


class VaryDoc(_Doc):
    """A varied card or category and the copies tried."""

    name: str
    values: list[int]


class SweepRowDoc(_Doc):
    """One combination of a sweep, ranked: copies, filler, every condition's figure by going."""

    rank: int
    values: dict[str, int]
    filler: int
    method: Literal["exact", "simulation"]
    results: dict[str, dict[str, EstimateDoc]]


class SweepDocument(_Doc):
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


class DifferenceDoc(_Doc):
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


class CategorySizesDoc(_Doc):
    """A category's copies in A and in B (null: not in that run)."""

    name: str
    a: int | None
    b: int | None


class CompareDocument(_Doc):
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


class SidePlanCardDoc(_Doc):
    """A card a side plan moves."""

    name: str
    passcode: int
    copies: int


class SidePlanDoc(_Doc):
    """The cards sided in and out."""

    in_: list[SidePlanCardDoc] = Field(alias="in")
    out: list[SidePlanCardDoc]


class SideGoldfishDocument(_Doc):
    """``deckcheck simulate DECK --side PLAN --output json``: game 1 (A) and the sided deck
    (B, games 2 and 3) side by side, and P(at least 1) of each card sided in."""

    plan: SidePlanDoc
    comparison: CompareDocument
    side_cards: GoldfishDocument | None = Field(
        description="P(at least 1) of each Main Deck card sided in, and of any of them."
    )
    warnings: list[str] = Field(default_factory=list)
    data_fingerprint: str | None = None


# -- formats ------------------------------------------------------------------------------------


class SizeRuleDoc(_Doc):
    """A section's size rule."""

    min: int
    max: int | None
    zero_or_exact: int | None
    text: str


class EraDoc(_Doc):
    """An era's deck-construction and turn rules."""

    id: str
    name: str
    main: SizeRuleDoc
    extra: SizeRuleDoc
    side: SizeRuleDoc
    hand_size: int
    first_player_draws: bool
    draw_per_turn: int
    draw_up_to: int | None
    hand_limit: int | None
    life_points: int
    confidence: str
    note: str
    provenance: str
    ocg_from: str | None
    tcg_from: str | None
    house: bool


class BanlistAtDateDoc(_Doc):
    """The list in force on the date asked."""

    name: str
    key: str
    effective: str
    entries: int
    approximate: bool = Field(False, description="True when no source gives the effective day.")


class UpcomingDoc(_Doc):
    """A known list taking effect after the date."""

    name: str
    effective: str


class FormatDoc(_Doc):
    """A format's rules (with a date: the era and list in force then)."""

    id: str
    name: str
    aliases: list[str]
    kind: Literal["format", "era"]
    pool: str
    copy_limit: int
    point_cap: int | None
    forbidden_types: list[str]
    skill_cards: int | None
    legend_rule: bool
    limit_groups: dict[str, int] | None
    pool_date: str | None
    era: str
    region: str
    tcg_region: str = Field("na", description="Whose dates pick a TCG list: na or eu.")
    banlist_family: str | None
    derivation: str
    confidence: str
    note: str
    provenance: str = ""
    era_rules: EraDoc | None = None
    date: str | None = None
    era_at_date: EraDoc | None = None
    banlist_at_date: BanlistAtDateDoc | None = None
    upcoming: list[UpcomingDoc] | None = None
    legend_limits: dict[str, int] | None = None


class FormatsDocument(_Doc):
    """``deckcheck formats --output json``: every format and era."""

    formats: list[FormatDoc]
    eras: list[EraDoc]


# -- ban lists ----------------------------------------------------------------------------------


class EntryDoc(_Doc):
    """One entry of a list."""

    passcode: int
    name: str | None
    limit: int | None = None
    status: str | None = None
    points: int | None = None
    group: int | None = Field(
        None, description="Speed Duel: the Limited N group (N cards in total from the group)."
    )


class BanlistDocument(_Doc):
    """``deckcheck banlist show --output json``: a list with its provenance and entries."""

    family: str
    name: str
    label: str | None
    effective: str
    effective_eu: str | None = Field(
        None, description="TCG: the European effective date where it differs from 'effective'."
    )
    approximate: bool = Field(
        False,
        description="True when no source gives the effective day ('effective' is a "
        "snapshot date or a month label).",
    )
    announced: str | None
    whitelist: bool
    points: bool
    point_cap: int | None
    sources: list[str]
    note: str
    entries: list[EntryDoc]


class ChangeDoc(_Doc):
    """One card whose value differs between two lists."""

    passcode: int
    name: str | None
    from_: int | None = Field(alias="from")
    to: int | None
    from_text: str
    to_text: str


class BanlistDiffDocument(_Doc):
    """``deckcheck banlist diff --output json``: the changes between two lists."""

    from_: UpcomingDoc = Field(alias="from")
    to: UpcomingDoc
    changes: list[ChangeDoc]


# -- cards --------------------------------------------------------------------------------------


class NamesDoc(_Doc):
    """A card's names by language (null where the data has none in it)."""

    en: str
    ja: str | None
    zh_CN: str | None = Field(alias="zh-CN")
    ko: str | None = None
    fr: str | None = None
    de: str | None = None
    it: str | None = None
    es: str | None = None
    pt: str | None = None
    zh_TW: str | None = Field(None, alias="zh-TW")


class ReleaseDoc(_Doc):
    """A card's first release in one region, and how sure the data is."""

    date: str | None = Field(description="The first release, or the earliest possible day.")
    kind: str = Field(description="dated (a dated print), window, bound (no dated print), assumed")
    confidence: str = Field(description="H, M or L")
    source: str
    upper: str | None = Field(None, description="For a window: the day it was certainly out by.")


class CardDocument(_Doc):
    """``deckcheck cards show --output json``: one card's facts (and how the query matched)."""

    passcode: int
    canonical: int
    name: str
    names: NamesDoc
    treated_as: str | None
    alternate_artwork: bool
    kind: str
    subtypes: list[str]
    type_line: str
    race: str | None
    attribute: str | None
    level: int | None
    pendulum_scale: int | None
    zone: str
    extra_kind: str | None
    pendulum: bool
    token: bool
    skill: bool
    rush: bool
    legend: bool
    unofficial: bool
    prerelease: bool
    goat_variant: bool
    ocg: bool
    tcg: bool
    ocg_date: str | None
    tcg_date: str | None
    rush_date: str | None = Field(
        None,
        description="Rush Duel cards: the first day a Rush list names the card (its entry into "
        "the Rush pool); null for other cards.",
    )
    konami_id: int | None
    archetypes: list[str]
    releases: dict[str, ReleaseDoc] = Field(
        default_factory=dict,
        description="First release per region (ocg, na, eu, md) with its source and confidence.",
    )
    query: str | None = None
    match: str | None = None
    requested_passcode: int | None = None
    score: float | None = None


class CardSearchDocument(_Doc):
    """``deckcheck cards search --output json``: ranked matches."""

    query: str
    results: list[CardDocument]


# -- data -----------------------------------------------------------------------------------------


class BundleDoc(_Doc):
    """A dataset bundle."""

    folder: str
    as_of: str = Field(description="Date of the newest source data behind the bundle.")
    fingerprint: str = Field(description="sha256 of the bundle's manifest.")
    sources: list[str] = Field(description="Source repositories with their versions.")


class InstalledDataDoc(_Doc):
    """The bundle installed in the data folder."""

    folder: str
    fingerprint: str
    as_of: str | None = Field(description="Null when the bundle fails its checks.")
    source: str
    installed_at: str
    valid: bool = Field(description="Every file matches its sha256 and the manifest loads.")


class FreshnessDoc(_Doc):
    """How old the active data is (``deckcheck data status``)."""

    as_of: str
    age_days: int = Field(description="Days from the data's as-of date to today.")
    max_age_days: int = Field(description="Days after which an update is due (--max-age).")
    newest_announced: str | None = Field(
        description="The newest list date a source announced at the last upstream fetch."
    )
    due: bool = Field(description="True when an update is due.")
    reason: str | None = Field(description="Why an update is due.")


class DataStatusDocument(_Doc):
    """``deckcheck data status --output json``: which data is active, and why."""

    origin: Literal["activated", "environment", "installed", "bundled"] = Field(
        description="Where the active data comes from: installed (by 'deckcheck data update'), "
        "bundled (shipped with deckcheck), environment (DECKCHECK_DATA) or activated (by a "
        "program)."
    )
    as_of: str = Field(description="Date of the newest source data behind the active data.")
    fingerprint: str = Field(description="sha256 of the active bundle's manifest.")
    source: str | None = Field(
        description="Where the active data came from: the URL or folder it was installed from "
        "('upstream:' and the source list for --from-upstream), 'bundled', or the "
        "DECKCHECK_DATA folder."
    )
    folder: str = Field(description="The active bundle's folder.")
    installed_at: str | None = Field(description="When the active bundle was installed (UTC).")
    sources: list[str] = Field(description="Source repositories of the active data, versioned.")
    bundled: BundleDoc
    installed: InstalledDataDoc | None
    problem: str | None = Field(description="Why the installed bundle is not in use, if so.")
    data_home: str = Field(description="The folder updates are installed into.")
    offline: bool = Field(description="Network access disabled (--offline, DECKCHECK_OFFLINE).")
    freshness: FreshnessDoc | None = Field(
        default=None, description="How old the active data is, and whether an update is due."
    )


def _config_model() -> type[BaseModel]:
    from deckcheck.run.configfile import ConfigModel

    return ConfigModel


DOCUMENTS: dict[str, type[BaseModel]] = {
    "validation": ValidationDocument,
    "upcoming": UpcomingDocument,
    "goldfish": GoldfishDocument,
    "goldfish-sweep": SweepDocument,
    "goldfish-compare": CompareDocument,
    "goldfish-side": SideGoldfishDocument,
    "formats": FormatsDocument,
    "format": FormatDoc,
    "banlist": BanlistDocument,
    "banlist-diff": BanlistDiffDocument,
    "card": CardDocument,
    "card-search": CardSearchDocument,
    "config": _config_model(),
    "data-status": DataStatusDocument,
    "meta": MetaDocument,
}
"""Every JSON document by the name ``deckcheck schema NAME`` takes (``config``: the repository
configuration file, ``deckcheck.toml``, read as TOML)."""


def dump(model: BaseModel) -> str:
    """A document as indented UTF-8 JSON (fields left unset are left out)."""
    return model.model_dump_json(indent=2, by_alias=True, exclude_unset=True) + "\n"


def schema(name: str | None = None) -> dict[str, Any]:
    """The JSON Schema of one document (by name) or of all (``{"name": schema}``)."""
    if name is not None:
        return DOCUMENTS[name].model_json_schema(by_alias=True)
    return {n: m.model_json_schema(by_alias=True) for n, m in DOCUMENTS.items()}
