"""The reference documents: formats and eras, ban lists, cards, the data's status."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from deckcheck.reporter.document.base import OMIT_NONE, Doc, Src
from deckcheck.reporter.document.shape import Merged

_RELEASE_KINDS = {"e": "dated", "w": "window", "b": "bound", "a": "assumed"}


def found_card(found: Any) -> Merged:
    """A card lookup read as its card's document: the card reached, and how the query matched
    (an alternate artwork's own passcode, say)."""
    how: dict[str, Any] = {
        "query": found.query,
        "match": found.match,
        "requested_passcode": found.record.passcode,
    }
    if found.record.passcode != found.card.passcode:
        from deckcheck.card.model import Match

        how["is_alternate_art"] = found.match is Match.ALTERNATE_ART
    return Merged(how, found.card)


def format_on(fmt: Any, day: Any, data: Any) -> Merged:
    """A format read as its document on a date: its rules, and the era, the list and the
    lists to come in force then (the lists of ``data``)."""
    region = fmt.tcg_region
    current = fmt.banlist_at(day, data)
    at_date = None
    if current is not None:
        at_date = {
            "name": current.name,
            "key": current.key,
            "effective": current.effective_in(region),
            "entries": len(current.entries),
            "approximate": current.approximate,
        }
    on = {
        "date": day,
        "era_at_date": fmt.era_at(day),
        "banlist_at_date": at_date,
        "upcoming_lists": [
            {"name": b.name, "effective": b.effective_in(region)} for b in fmt.upcoming(day, data)
        ],
        "legend_limits": fmt.legend_limits_at(day),
    }
    return Merged(on, fmt)


class SizeRuleDoc(Doc):
    """A section's size rule."""

    min: int
    max: int | None
    zero_or_exact: int | None
    text: Annotated[str, Src(lambda r: r.describe())]


class EraDoc(Doc):
    """An era's deck-construction and turn rules."""

    not_fields = frozenset({"banlist"})  # (the family an era names as a format: its format's)

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
    """A format's rules (with a date: the era and list in force then; see :func:`format_on`)."""

    not_fields = frozenset(
        {"is_era", "timeline", "custom_lists", "list_date", "custom", "warnings"}
    )  # (the kind; how its eras and lists are found; its file's warnings, on stderr)

    id: str
    name: str
    aliases: list[str]
    kind: Annotated[Literal["format", "era"], Src(lambda f: "era" if f.is_era else "format")]
    pool: str
    copy_limit: int
    point_cap: int | None
    forbidden_types: Annotated[list[str], Src(lambda f: sorted(f.forbidden_types))]
    skill_cards: int | None
    legend_rule: bool
    limit_groups: dict[str, int] | None
    pool_date: str | None
    era: Annotated[str, Src(lambda f: f.era.id if f.era is not None else "by date")]
    region: str
    tcg_region: str = Field("na", description="Whose dates pick a TCG list: na or eu.")
    banlist_family: Annotated[str | None, Src("family")]
    derivation: str
    confidence: str
    note: str
    provenance: str = ""
    era_rules: Annotated[EraDoc | None, Src("era"), OMIT_NONE] = None
    date: str | None = None
    era_at_date: EraDoc | None = None
    banlist_at_date: BanlistAtDateDoc | None = None
    upcoming: Annotated[list[UpcomingDoc] | None, Src("upcoming_lists")] = None
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


def banlist_named(banlist: Any, names: Any) -> Merged:
    """A list read as its document, ``names`` (a function of a passcode) naming the entries
    the list itself names not."""
    return Merged({"card_names": names}, banlist)


def _entries(banlist: Any) -> list[dict[str, Any]]:
    """A list's entries by passcode: copies and status, or points; the group where one is."""
    from deckcheck.rule.banlist import STATUS_NAMES

    names = getattr(banlist, "card_names", None)
    out = []
    for code, value in sorted(banlist.entries.items()):
        name = banlist.names.get(code)
        entry: dict[str, Any] = {
            "passcode": code,
            "name": names(code) if name is None and names is not None else name,
        }
        if banlist.points:
            entry["points"] = value
        else:
            entry |= {"limit": value, "status": STATUS_NAMES.get(value, str(value))}
        if code in banlist.groups:
            entry["group"] = banlist.groups[code]
        out.append(entry)
    return out


class BanlistDocument(Doc):
    """``deckcheck banlist show --output json``: a list with its provenance and entries."""

    not_fields = frozenset({"groups", "names", "resolver"})  # (the entries)

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
    entries: Annotated[list[EntryDoc], Src(_entries)]


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


class ReleaseDoc(Doc):
    """A card's first release in one region, and how sure the data is."""

    not_fields = frozenset({"region", "source"})  # (the key; the source in words: ``why``)

    date: str | None = Field(description="The first release, or the earliest possible day.")
    kind: Annotated[str, Src(lambda r: _RELEASE_KINDS[r.kind.value])] = Field(
        description="dated (a dated print), window, bound (no dated print), assumed"
    )
    confidence: str = Field(description="H, M or L")
    source: Annotated[str, Src("why")]
    upper: str | None = Field(None, description="For a window: the day it was certainly out by.")


class CardDocument(Doc):
    """``deckcheck cards show --output json``: one card's facts (and how the query matched)."""

    not_fields = frozenset(
        {"name_ja", "name_zh", "type", "race", "attribute", "scale", "flags"}  # (as properties)
        | {"treated_as_passcode", "alias_kind", "base_name"}  # (never written)
    )

    passcode: int
    canonical: int
    name: str
    names: Annotated[NamesDoc, Src(lambda c: {"en": c.name, "ja": c.name_ja, "zh_CN": c.name_zh})]
    treated_as: str | None
    alternate_artwork: Annotated[bool, Src("is_alternate_art")]
    kind: str
    subtypes: list[str]
    type_line: str
    race: Annotated[str | None, Src("race_name")]
    attribute: Annotated[str | None, Src("attribute_name")]
    level: Annotated[int | None, Src(lambda c: c.level or None)]
    pendulum_scale: Annotated[int | None, Src(lambda c: c.scale if c.is_pendulum else None)]
    zone: str
    extra_kind: str | None
    pendulum: Annotated[bool, Src("is_pendulum")]
    token: Annotated[bool, Src("is_token")]
    skill: Annotated[bool, Src("is_skill")]
    rush: Annotated[bool, Src("is_rush")]
    legend: Annotated[bool, Src("is_legend")]
    unofficial: Annotated[bool, Src("is_unofficial")]
    prerelease: Annotated[bool, Src("is_prerelease")]
    goat_variant: Annotated[bool, Src("is_goat_variant")]
    ocg: Annotated[bool, Src("in_ocg")]
    tcg: Annotated[bool, Src("in_tcg")]
    ocg_date: str | None
    tcg_date: str | None
    rush_date: str | None = Field(
        None,
        description="Rush Duel cards: the first day a Rush list names the card (its entry into "
        "the Rush pool); null for other cards.",
    )
    konami_id: int | None
    archetypes: list[str]
    releases: Annotated[
        dict[str, ReleaseDoc], Src(lambda c: [(r.region, r) for r in c.releases])
    ] = Field(
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


def _installed(st: Any) -> Merged | None:
    """The installed bundle's record, with the checks' outcome (its data, when they passed)."""
    if st.installed is None:
        return None
    data = st.installed_data
    as_of = None if data is None else data.as_of
    return Merged({"as_of": as_of, "valid": data is not None}, st.installed)


def _origin_source(st: Any) -> str | None:
    """Where the active data came from (by its origin)."""
    origin = st.origin.value
    if origin == "installed":
        return None if st.installed is None else str(st.installed.source)
    if origin == "bundled":
        return "bundled"
    return str(st.active.folder) if origin == "environment" else None


def _installed_at(st: Any) -> str | None:
    if st.origin.value == "installed" and st.installed is not None:
        return str(st.installed.installed_at)
    return None


class DataStatusDocument(Doc):
    """``deckcheck data status --output json``: which data is active, and why."""

    not_fields = frozenset({"active", "installed_data"})  # (read by functions of the status)

    origin: Literal["activated", "environment", "installed", "bundled"] = Field(
        description="Where the active data comes from: installed (by 'deckcheck data update'), "
        "bundled (shipped with deckcheck), environment (DECKCHECK_DATA) or activated (by a "
        "program)."
    )
    as_of: Annotated[str, Src(lambda s: s.active.as_of)] = Field(
        description="Date of the newest source data behind the active data."
    )
    fingerprint: Annotated[str, Src(lambda s: s.active.fingerprint)] = Field(
        description="sha256 of the active bundle's manifest."
    )
    source: Annotated[str | None, Src(_origin_source)] = Field(
        description="Where the active data came from: the URL or folder it was installed from "
        "('upstream:' and the source list for --from-upstream), 'bundled', or the "
        "DECKCHECK_DATA folder."
    )
    folder: Annotated[str, Src(lambda s: str(s.active.folder))] = Field(
        description="The active bundle's folder."
    )
    installed_at: Annotated[str | None, Src(_installed_at)] = Field(
        description="When the active bundle was installed (UTC)."
    )
    sources: Annotated[list[str], Src(lambda s: s.active.describe()["sources"])] = Field(
        description="Source repositories of the active data, versioned."
    )
    bundled: Annotated[BundleDoc, Src(lambda s: s.bundled.describe())]
    installed: Annotated[InstalledDataDoc | None, Src(_installed)]
    problem: str | None = Field(description="Why the installed bundle is not in use, if so.")
    data_home: Annotated[str, Src("home")] = Field(
        description="The folder updates are installed into."
    )
    offline: bool = Field(description="Network access disabled (--offline, DECKCHECK_OFFLINE).")
    freshness: FreshnessDoc | None = Field(
        default=None, description="How old the active data is, and whether an update is due."
    )


class DatasetRefDoc(Doc):
    """A dataset compared: its as-of date and fingerprint."""

    as_of: str
    fingerprint: str


class StatusChangeDoc(Doc):
    """One card's change in one list (its status before and after, in words)."""

    passcode: int
    name: str
    old: str = Field(description="Unlimited, Limited, not in pool, 3 points...")
    new: str


class ListChangeDoc(Doc):
    """A list that is new, or whose entries changed."""

    family: str
    name: str
    effective: str
    new: bool = Field(description="True when the old data has no list of this family and date.")
    changes: list[StatusChangeDoc]


class NewCardDoc(Doc):
    """A card the old data does not have."""

    passcode: Annotated[int, Src(lambda c: c[0])]
    name: Annotated[str, Src(lambda c: c[1])]


class DateChangeDoc(Doc):
    """A card whose first release date in a region changed."""

    passcode: int
    name: str
    region: str = Field(description="tcg or ocg")
    old: str | None
    new: str | None


class DataDiffDocument(Doc):
    """``deckcheck data diff --output json``: what changed between two datasets."""

    old: DatasetRefDoc
    new: DatasetRefDoc
    lists: list[ListChangeDoc]
    new_cards: dict[str, list[NewCardDoc]] = Field(
        description="Region (tcg, ocg, rush, other) -> the new cards."
    )
    release_dates: Annotated[list[DateChangeDoc], Src("dates")]
