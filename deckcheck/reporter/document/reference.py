"""The reference documents: formats and eras, ban lists, cards, the data's status."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from deckcheck.reporter.document.base import Doc


class SizeRuleDoc(Doc):
    """A section's size rule."""

    min: int
    max: int | None
    zero_or_exact: int | None
    text: str


class EraDoc(Doc):
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


class BanlistAtDateDoc(Doc):
    """The list in force on the date asked."""

    name: str
    key: str
    effective: str
    entries: int
    approximate: bool = Field(False, description="True when no source gives the effective day.")


class UpcomingDoc(Doc):
    """A known list taking effect after the date."""

    name: str
    effective: str


class FormatDoc(Doc):
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


class FormatsDocument(Doc):
    """``deckcheck formats --output json``: every format and era."""

    formats: list[FormatDoc]
    eras: list[EraDoc]


class EntryDoc(Doc):
    """One entry of a list."""

    passcode: int
    name: str | None
    limit: int | None = None
    status: str | None = None
    points: int | None = None
    group: int | None = Field(
        None, description="Speed Duel: the Limited N group (N cards in total from the group)."
    )


class BanlistDocument(Doc):
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


class ChangeDoc(Doc):
    """One card whose value differs between two lists."""

    passcode: int
    name: str | None
    from_: int | None = Field(alias="from")
    to: int | None
    from_text: str
    to_text: str


class BanlistDiffDocument(Doc):
    """``deckcheck banlist diff --output json``: the changes between two lists."""

    from_: UpcomingDoc = Field(alias="from")
    to: UpcomingDoc
    changes: list[ChangeDoc]


class NamesDoc(Doc):
    """A card's names by language."""

    en: str
    ja: str | None
    zh_CN: str | None = Field(alias="zh-CN")


class ReleaseDoc(Doc):
    """A card's first release in one region, and how sure the data is."""

    date: str | None = Field(description="The first release, or the earliest possible day.")
    kind: str = Field(description="dated (a dated print), window, bound (no dated print), assumed")
    confidence: str = Field(description="H, M or L")
    source: str
    upper: str | None = Field(None, description="For a window: the day it was certainly out by.")


class CardDocument(Doc):
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


class CardSearchDocument(Doc):
    """``deckcheck cards search --output json``: ranked matches."""

    query: str
    results: list[CardDocument]


class BundleDoc(Doc):
    """A dataset bundle."""

    folder: str
    as_of: str = Field(description="Date of the newest source data behind the bundle.")
    fingerprint: str = Field(description="sha256 of the bundle's manifest.")
    sources: list[str] = Field(description="Source repositories with their versions.")


class InstalledDataDoc(Doc):
    """The bundle installed in the data folder."""

    folder: str
    fingerprint: str
    as_of: str | None = Field(description="Null when the bundle fails its checks.")
    source: str
    installed_at: str
    valid: bool = Field(description="Every file matches its sha256 and the manifest loads.")


class FreshnessDoc(Doc):
    """How old the active data is (``deckcheck data status``)."""

    as_of: str
    age_days: int = Field(description="Days from the data's as-of date to today.")
    max_age_days: int = Field(description="Days after which an update is due (--max-age).")
    newest_announced: str | None = Field(
        description="The newest list date a source announced at the last upstream fetch."
    )
    due: bool = Field(description="True when an update is due.")
    reason: str | None = Field(description="Why an update is due.")


class DataStatusDocument(Doc):
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
