"""Eras and formats: deck-construction rules as data, in one registry with aliases.

An :class:`Era` is a set of deck-construction and turn rules (section sizes, opening hand, the
first-turn draw, hand limit, Life Points). A :class:`Format` is an era (fixed, or chosen by date)
plus a ban-list family, a card pool and special rules (Genesys points, forbidden card types,
Skill cards, Rush Legend limits, Duel Links limit groups). Every era is also a format of its own.

* :func:`get_format` finds a format or era by id or alias (case-insensitive);
* :func:`list_formats` / :func:`list_eras` list the registry;
* :func:`load_format_file` reads an organiser's TOML format file.

The facts and their confidence come from ``docs/rules.md`` of the shared notes (sections 2–4).
"""

from __future__ import annotations

import enum
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from deckcheck.banlist import (
    Banlist,
    BanlistCatalog,
    derive_traditional,
    load_catalog,
    merge_stricter,
    read_banlist_file,
    read_lflist,
)
from deckcheck.error import DataError, UnknownFormatError

DATA_AS_OF = date(2026, 8, 22)
"""Date of the newest source data behind the bundled lists; later lists are unknown."""


@dataclass(frozen=True)
class SizeRule:
    """The size rule of one deck section: ``min``..``max`` cards, or "0 or exactly N"."""

    min: int
    """Fewest cards allowed (ignored when ``zero_or_exact`` is set)."""
    max: int | None
    """Most cards allowed; None for no maximum."""
    zero_or_exact: int | None = None
    """When set, the section must hold 0 or exactly this many cards (Side Deck "0 or 15")."""

    def allows(self, n: int) -> bool:
        """True if a section of ``n`` cards obeys the rule."""
        if self.zero_or_exact is not None:
            return n in (0, self.zero_or_exact)
        return n >= self.min and (self.max is None or n <= self.max)

    def describe(self) -> str:
        """Readable form: ``40–60``, ``≥40``, ``0 or 15``, ``exactly 1``."""
        if self.zero_or_exact is not None:
            return f"0 or {self.zero_or_exact}"
        if self.max is None:
            return f"≥{self.min}"
        if self.max == self.min:
            return f"exactly {self.min}"
        return f"{self.min}–{self.max}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "min": self.min,
            "max": self.max,
            "zero_or_exact": self.zero_or_exact,
            "text": self.describe(),
        }


def _size(lo: int, hi: int | None) -> SizeRule:
    return SizeRule(lo, hi)


UNLIMITED_EXTRA = SizeRule(0, None)


@dataclass(frozen=True)
class Era:
    """A set of deck-construction and turn rules in force for a period (or a house variant)."""

    id: str
    name: str
    main: SizeRule
    extra: SizeRule
    """Extra Deck (the Fusion Deck before 2008)."""
    side: SizeRule
    hand_size: int
    """Cards in the opening hand."""
    first_player_draws: bool
    """Whether the player going first draws on their first turn."""
    draw_per_turn: int = 1
    draw_up_to: int | None = None
    """Rush Duel: each Draw Phase draws until the hand holds this many cards."""
    hand_limit: int | None = 6
    """Most cards in hand at the end of the turn; None for no limit."""
    life_points: int = 8000
    confidence: str = "H"
    """H official or several sources agree; M one reputable source; L weak or conflicting."""
    note: str = ""
    provenance: str = ""
    ocg_from: date | None = None
    """First day of the era in the OCG (official eras)."""
    tcg_from: date | None = None
    """First day of the era in the TCG (official eras)."""
    banlist: str | None = None
    """Ban-list family the era names when used as a format on its own (usually none)."""
    house: bool = False
    """True for community house rules (not Konami's)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "id": self.id,
            "name": self.name,
            "main": self.main.to_dict(),
            "extra": self.extra.to_dict(),
            "side": self.side.to_dict(),
            "hand_size": self.hand_size,
            "first_player_draws": self.first_player_draws,
            "draw_per_turn": self.draw_per_turn,
            "draw_up_to": self.draw_up_to,
            "hand_limit": self.hand_limit,
            "life_points": self.life_points,
            "confidence": self.confidence,
            "note": self.note,
            "provenance": self.provenance,
            "ocg_from": self.ocg_from.isoformat() if self.ocg_from else None,
            "tcg_from": self.tcg_from.isoformat() if self.tcg_from else None,
            "house": self.house,
        }


_RULES = "shared notes docs/rules.md"


def _master(era_id: str, name: str, first_player_draws: bool, **kw: Any) -> Era:
    """A Master Rule era: Main 40–60, Extra 0–15, Side 0–15, opening hand 5."""
    return Era(era_id, name, _size(40, 60), _size(0, 15), _size(0, 15), 5, first_player_draws, **kw)


ERAS: tuple[Era, ...] = (
    Era("ocg-expert-1999", "OCG Expert Rules (1999)", _size(40, None), UNLIMITED_EXTRA,
        SizeRule(0, 10, zero_or_exact=10), 5, False, hand_limit=None, confidence="M",
        note="Side Deck 10 (some sources say 15); Fusion Deck unlimited; no hand limit.",
        provenance=f"{_RULES} §2 (OCG official rules vol. 1)", ocg_from=date(1999, 2, 4)),
    Era("ocg-new-expert-2000", "OCG New Expert Rules (2000)", _size(40, None), UNLIMITED_EXTRA,
        SizeRule(0, 15, zero_or_exact=15), 5, True, confidence="M",
        note="Start date approximate (≈2000-04). Side Deck 0 or exactly 15.",
        provenance=f"{_RULES} §2 (yugioh-wiki.net 新エキスパートルール)",
        ocg_from=date(2000, 4, 1)),
    Era("tcg-2002", "TCG launch rules (2002)", _size(40, None), UNLIMITED_EXTRA,
        SizeRule(0, 15, zero_or_exact=15), 5, True,
        note="No Main Deck maximum; Fusion Deck unlimited; Side Deck 0 or exactly 15.",
        provenance=f"{_RULES} §2", tcg_from=date(2002, 3, 8)),
    _master("mr1-2008", "Master Rule 1 (2008)", True, confidence="M",
        note="TCG tournament policy kept the Side Deck at '0 or 15' into 2009 (not modelled).",
        provenance=f"{_RULES} §2", ocg_from=date(2008, 3, 1), tcg_from=date(2008, 8, 13)),
    _master("mr2-2011", "Master Rule 2 (Xyz, 2011)", True,
        confidence="M", note="Start dates approximate (Xyz debut: OCG 2011-03, TCG 2011-07).",
        provenance=f"{_RULES} §2", ocg_from=date(2011, 3, 19), tcg_from=date(2011, 7, 19)),
    _master("mr3-2014", "Master Rule 3 (Pendulum, 2014)", False,
        note="The player going first no longer draws on turn 1.",
        provenance=f"{_RULES} §2 (yugioh-card.com/japan/howto/masterrule3)",
        ocg_from=date(2014, 3, 21), tcg_from=date(2014, 7, 14)),
    _master("mr4-2017", "Master Rule 4 (Link, 2017)", False,
        note="TCG start given as 2017-04 (day approximate).", provenance=f"{_RULES} §2",
        ocg_from=date(2017, 3, 25), tcg_from=date(2017, 4, 1)),
    _master("mr2020", "Master Rule (April 2020 revision)", False,
        provenance=f"{_RULES} §2", ocg_from=date(2020, 4, 1), tcg_from=date(2020, 4, 1)),
    Era("lp4000", "LP4000 house rules", _size(40, 80), UNLIMITED_EXTRA,
        SizeRule(0, 15, zero_or_exact=15), 5, True, life_points=4000, confidence="L",
        note="House rules, not Konami's: LP 4000, Main 40–80, Side 0 or exactly 15, Fusion Deck "
        "unlimited, goer draws on turn 1, hand limit 6. The seed applies the official list's "
        "Limited/Semi-Limited; name a list in a format file to use one.",
        provenance="seed 000 (游戏王LP4000未成文规则), community text; " + _RULES + " §3",
        house=True),
    Era("mr4-ex20", "Master Rule 4 with a 20-card Extra Deck (house)", _size(40, 60),
        _size(0, 20), _size(0, 15), 5, False, confidence="L",
        note="House rules: as mr4-2017 but Extra Deck 0–20. Official rulebooks kept 15.",
        provenance="seed 002 (Master Rule 4 forum post), community text; " + _RULES + " §3",
        house=True),
    Era("speed", "Speed Duel", _size(20, 30), _size(0, 5), _size(0, 5), 4, False,
        life_points=4000, confidence="M",
        note="Side Deck 0–5 is weakly sourced (L). Exactly one Skill card (TCG).",
        provenance=f"{_RULES} §4 (ygorganization.com Speed Duel)"),
    Era("duel-links", "Duel Links", _size(20, 30), _size(0, 8), _size(0, 8), 4, False,
        life_points=4000, confidence="L",
        note="Extra/Side sizes weakly sourced; limit groups (Limited 1/2/3 share slots).",
        provenance=f"{_RULES} §4"),
    Era("rush", "Rush Duel", _size(40, 60), _size(0, 15), _size(0, 15), 4, True,
        draw_up_to=5, hand_limit=None, confidence="M",
        note="Each Draw Phase draws until the hand holds 5 (the player going first too); no "
        "hand limit at the end of the turn (M).",
        provenance=f"{_RULES} §4 (konami.com/yugioh/rushduel/howto)"),
)  # fmt: skip

_OFFICIAL = ("ocg-expert-1999", "ocg-new-expert-2000", "tcg-2002", "mr1-2008", "mr2-2011",
             "mr3-2014", "mr4-2017", "mr2020")  # fmt: skip
ERA_BY_ID: dict[str, Era] = {e.id: e for e in ERAS}


def _timeline(region: str) -> list[tuple[date, Era]]:
    out = []
    for era_id in _OFFICIAL:
        era = ERA_BY_ID[era_id]
        start = era.tcg_from if region == "tcg" else era.ocg_from
        if start is not None:
            out.append((start, era))
    return sorted(out, key=lambda t: t[0])


def official_era_at(region: str, on: date) -> Era:
    """The official era in force in ``region`` (``tcg`` or ``ocg``) on a date.

    Before the region's first era, the first era is returned.
    """
    timeline = _timeline(region)
    current = timeline[0][1]
    for start, era in timeline:
        if start <= on:
            current = era
    return current


class Pool(enum.StrEnum):
    """The card pool a format draws from."""

    TCG = "tcg"
    OCG = "ocg"
    BOTH = "ocg+tcg"
    """Either pool (Worlds)."""
    RUSH = "rush"
    SPEED = "speed"
    MASTER_DUEL = "master-duel"
    ANY = "any"
    """No pool check."""


class Derivation(enum.StrEnum):
    """How a format's list is obtained."""

    DIRECT = "direct"
    """The family's list in force on the date."""
    FIXED = "fixed"
    """The family's newest list, whatever the date (GOAT, Edison, HAT)."""
    TRADITIONAL = "traditional"
    """The TCG list with Forbidden read as Limited."""
    WORLDS = "worlds"
    """Per card the stricter of the TCG and OCG lists."""


RUSH_LEGEND_SPLIT = date(2022, 12, 1)
"""From this date Rush allows 1 Legend Monster + 1 Legend Spell + 1 Legend Trap (before: 1)."""


@dataclass(frozen=True)
class DateCheck:
    """Whether a format has list data for a date: an error (cannot check) and/or warnings."""

    error: str | None = None
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Format:
    """A format: era + ban-list family + card pool + special rules."""

    id: str
    name: str
    aliases: tuple[str, ...] = ()
    pool: Pool = Pool.ANY
    copy_limit: int = 3
    point_cap: int | None = None
    """Genesys: most points allowed over Main + Extra + Side."""
    forbidden_types: frozenset[str] = frozenset()
    """Card types not allowed at all, lower case (``link``, ``pendulum``)."""
    skill_cards: int | None = None
    """Exactly this many Skill cards (Speed Duel: 1); None when Skills are not used."""
    legend_rule: bool = False
    """True for Rush Duel's Legend limits (see :meth:`legend_limits_at`)."""
    limit_groups: Mapping[str, int] | None = field(default=None, hash=False)
    """Duel Links limit groups: group -> shared slots (no list data yet)."""
    pool_date: date | None = None
    """Fixed pool cut-off (cards released on or before), if any. None for the whitelist
    formats (GOAT, Edison, HAT): their whitelist *is* the pool, and it holds cards whose first
    TCG print in the card index is later than the format's date."""
    era_id: str | None = None
    """Fixed era; None: the official era of ``region`` at the date."""
    region: str = "tcg"
    """``tcg`` or ``ocg``: whose era dates apply when the era goes by date."""
    family: str | None = None
    """Ban-list family; None: no ban list."""
    derivation: Derivation = Derivation.DIRECT
    confidence: str = "H"
    note: str = ""
    is_era: bool = False
    """True for an era used as a format on its own."""
    era_override: Era | None = None
    """A custom format's own era (overrides ``era_id``)."""
    custom_lists: tuple[Banlist, ...] = ()
    """A custom format's own lists (used instead of ``family``), by effective date."""
    list_date: date | None = None
    """A custom format's fixed date for choosing its list."""

    # -- rules ----------------------------------------------------------------------------

    def era_at(self, d: date) -> Era:
        """The era whose rules apply on ``d``."""
        if self.era_override is not None:
            return self.era_override
        if self.era_id is not None:
            return ERA_BY_ID[self.era_id]
        return official_era_at(self.region, d)

    def legend_limits_at(self, d: date) -> dict[str, int]:
        """Rush Legend limits on ``d``: ``{"total": 1}`` before 2022-12, else per card kind."""
        if not self.legend_rule:
            return {}
        if d < RUSH_LEGEND_SPLIT:
            return {"total": 1}
        return {"monster": 1, "spell": 1, "trap": 1}

    # -- lists ----------------------------------------------------------------------------

    def has_banlists(self) -> bool:
        """True if the format uses ban lists at all (a family or its own lists)."""
        return bool(self.custom_lists) or self.family is not None

    def _catalog(self) -> BanlistCatalog:
        return load_catalog()

    def banlist_at(self, d: date) -> Banlist | None:
        """The list in force on ``d`` (None if the format has none, or none is in force yet)."""
        if self.custom_lists:
            when = self.list_date or d
            current = None
            for b in self.custom_lists:
                if b.effective <= when or len(self.custom_lists) == 1:
                    current = b
            return current
        if self.family is None:
            return None
        cat = self._catalog()
        match self.derivation:
            case Derivation.FIXED:
                return cat.last(self.family)
            case Derivation.TRADITIONAL:
                tcg = cat.in_force("tcg", self.list_date or d)
                return _traditional(tcg) if tcg is not None else None
            case Derivation.WORLDS:
                when = self.list_date or d
                tcg, ocg = cat.in_force("tcg", when), cat.in_force("ocg", when)
                if tcg is None or ocg is None:
                    return tcg or ocg
                return _worlds(tcg, ocg)
            case Derivation.DIRECT:
                return cat.in_force(self.family, self.list_date or d)

    def upcoming(self, d: date) -> list[Banlist]:
        """Known lists that take effect after ``d``, soonest first."""
        if self.custom_lists:
            return [b for b in self.custom_lists if b.effective > d]
        if self.family is None or self.derivation is Derivation.FIXED or self.list_date:
            return []
        cat = self._catalog()
        if self.derivation is Derivation.TRADITIONAL:
            return [_traditional(b) for b in cat.upcoming("tcg", d)]
        if self.derivation is Derivation.WORLDS:
            dates = sorted({b.effective for f in ("tcg", "ocg") for b in cat.upcoming(f, d)})
            out = []
            for when in dates:
                got = self.banlist_at(when)
                if got is not None:
                    out.append(got)
            return out
        return cat.upcoming(self.family, d)

    def first_date(self) -> date | None:
        """The first day the format has a list for (None if it has no list or no start)."""
        if self.custom_lists:
            return self.custom_lists[0].effective if len(self.custom_lists) > 1 else None
        if self.family is None or self.derivation is Derivation.FIXED:
            return None
        cat = self._catalog()
        if self.derivation is Derivation.WORLDS:
            firsts = [cat.first(f) for f in ("tcg", "ocg")]
            return max(b.effective for b in firsts if b is not None)
        fam = "tcg" if self.derivation is Derivation.TRADITIONAL else self.family
        first = cat.first(fam)
        return first.effective if first else None

    def check_date(self, d: date) -> DateCheck:
        """Error if ``d`` is before the format's first list; warning if after the data's end."""
        warnings: list[str] = []
        first = self.first_date()
        if first is not None and d < first:
            return DateCheck(
                f"{d.isoformat()} is before the first {self.name} list ({first.isoformat()})"
            )
        fixed = self.derivation is Derivation.FIXED or self.list_date is not None
        if d > DATA_AS_OF and self.family is not None and not self.custom_lists and not fixed:
            warnings.append(
                f"{d.isoformat()} is after the ban-list data ends ({DATA_AS_OF.isoformat()}); "
                "a newer list may be in force"
            )
        return DateCheck(None, tuple(warnings))

    def to_dict(self, d: date | None = None) -> dict[str, Any]:
        """JSON-ready form; with ``d``, also the era and list in force on that date."""
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "aliases": list(self.aliases),
            "kind": "era" if self.is_era else "format",
            "pool": self.pool.value,
            "copy_limit": self.copy_limit,
            "point_cap": self.point_cap,
            "forbidden_types": sorted(self.forbidden_types),
            "skill_cards": self.skill_cards,
            "legend_rule": self.legend_rule,
            "limit_groups": dict(self.limit_groups) if self.limit_groups is not None else None,
            "pool_date": self.pool_date.isoformat() if self.pool_date else None,
            "era": self.era_override.id if self.era_override else self.era_id or "by date",
            "region": self.region,
            "banlist_family": self.family,
            "derivation": self.derivation.value,
            "confidence": self.confidence,
            "note": self.note,
        }
        if self.era_override is not None:
            out["era_rules"] = self.era_override.to_dict()
        elif self.era_id is not None:
            out["era_rules"] = ERA_BY_ID[self.era_id].to_dict()
        if d is not None:
            out["date"] = d.isoformat()
            out["era_at_date"] = self.era_at(d).to_dict()
            current = self.banlist_at(d)
            out["banlist_at_date"] = (
                None if current is None else {"name": current.name, "key": current.key,
                                              "effective": current.effective.isoformat(),
                                              "entries": len(current.entries)}
            )  # fmt: skip
            out["upcoming"] = [
                {"name": b.name, "effective": b.effective.isoformat()} for b in self.upcoming(d)
            ]
            out["legend_limits"] = self.legend_limits_at(d)
        return out


@lru_cache(maxsize=256)
def _traditional(tcg: Banlist) -> Banlist:
    return derive_traditional(tcg)


@lru_cache(maxsize=256)
def _worlds(tcg: Banlist, ocg: Banlist) -> Banlist:
    return merge_stricter("worlds", (tcg, ocg))


_DL_GROUPS = {"limited-1": 1, "limited-2": 2, "limited-3": 3}

FORMATS: tuple[Format, ...] = (
    Format("tcg", "TCG Advanced", ("advanced", "tcg-advanced"), Pool.TCG, family="tcg",
           region="tcg", note="TCG lists by real effective date; TCG pool at the date."),
    Format("ocg", "OCG", ("ocg-advanced",), Pool.OCG, family="ocg", region="ocg"),
    Format("traditional", "TCG Traditional", ("tcg-traditional",), Pool.TCG, family="tcg",
           derivation=Derivation.TRADITIONAL, region="tcg",
           note="The TCG list with every Forbidden card read as Limited."),
    Format("worlds", "World Championship", ("world", "wcs"), Pool.BOTH, family="tcg+ocg",
           derivation=Derivation.WORLDS, region="tcg",
           note="Per card the stricter of the TCG and OCG lists in force; event-specific extra "
           "bans are not modelled."),
    Format("goat", "GOAT", (), Pool.TCG, family="goat", derivation=Derivation.FIXED,
           era_id="tcg-2002",
           note="April 2005 TCG list + the GOAT whitelist (which is the card pool: cards released "
           "in the TCG before Cybernetic Revolution, The Lost Millennium included; it includes "
           "GOAT-format versions of errata'd cards)."),
    Format("edison", "Edison", (), Pool.TCG, family="edison", derivation=Derivation.FIXED,
           era_id="mr1-2008",
           note="March 2010 TCG list + the Edison whitelist (the card pool)."),
    Format("hat", "HAT", (), Pool.TCG, family="hat", derivation=Derivation.FIXED,
           era_id="mr2-2011", confidence="M", note="The 2014-04 HAT whitelist (the card pool)."),
    Format("time-wizard", "Time Wizard (TCG at any date)", ("timewizard",), Pool.TCG,
           family="tcg", region="tcg",
           note="The TCG era, list and card pool as they were on the chosen date."),
    Format("speed", "Speed Duel", ("speed-duel",), Pool.SPEED, family="speed", era_id="speed",
           skill_cards=1, confidence="M", note="Speed Duel whitelists (the card pool)."),
    Format("duel-links", "Duel Links", ("dl",), Pool.ANY, era_id="duel-links",
           limit_groups=_DL_GROUPS, confidence="L",
           note="No list data yet; limit groups share slots (Limited 1/2/3)."),
    Format("rush", "Rush Duel", ("rush-duel",), Pool.RUSH, family="rush", era_id="rush",
           legend_rule=True, confidence="M",
           note="Rush whitelists (the Rush card pool). Legend cards: 1 in total until 2022-12, "
           "then 1 Monster + 1 Spell + 1 Trap."),
    Format("master-duel", "Master Duel", ("md",), Pool.MASTER_DUEL, family="master-duel",
           era_id="mr2020", confidence="M"),
    Format("genesys", "Genesys", ("tcg-genesys",), Pool.TCG, family="genesys",
           era_id="mr2020", point_cap=100, forbidden_types=frozenset({"link", "pendulum"}),
           note="3 per name; points over Main + Extra + Side <= cap (100; organisers may set "
           "any cap); Link and Pendulum monsters are illegal."),
    Format("ocg-genesys", "OCG Genesys", (), Pool.OCG, family="ocg-genesys", era_id="mr2020",
           point_cap=100, forbidden_types=frozenset({"link", "pendulum"}), confidence="M",
           note="OCG Genesys point lists; rules as Genesys."),
)  # fmt: skip


def _era_format(era: Era) -> Format:
    return Format(
        era.id, era.name, (), Pool.ANY, era_id=era.id, family=era.banlist,
        confidence=era.confidence, note=era.note, is_era=True,
    )  # fmt: skip


@lru_cache(maxsize=1)
def _registry() -> dict[str, Format]:
    reg: dict[str, Format] = {}
    for fmt in list_formats():
        for key in (fmt.id, *fmt.aliases):
            if key.lower() in reg:
                raise DataError(f"format name {key!r} registered twice")
            reg[key.lower()] = fmt
    return reg


def get_format(name: str) -> Format:
    """A format or era by id or alias (case-insensitive); :class:`UnknownFormatError` if none."""
    fmt = _registry().get(name.strip().lower())
    if fmt is None:
        raise UnknownFormatError(name, format_names())
    return fmt


def format_names() -> list[str]:
    """Every format and era id (aliases left out), formats first."""
    return [f.id for f in list_formats()]


def list_formats(include_eras: bool = True) -> list[Format]:
    """Every registered format, then (by default) every era as a format.

    An era whose id is also a format's (``speed``, ``duel-links``, ``rush``) is that format.
    """
    out = list(FORMATS)
    if include_eras:
        taken = {f.id for f in FORMATS}
        out.extend(_era_format(e) for e in ERAS if e.id not in taken)
    return out


def list_eras() -> list[Era]:
    """Every era, official ones by date, then the house and special eras."""
    return list(ERAS)


# ---------------------------------------------------------------------------------------------
# organiser format files

_FORMAT_KEYS = {
    "id", "name", "aliases", "base", "era", "pool", "copy_limit", "point_cap",
    "forbidden_types", "skill_cards", "banlist", "banlist_name", "banlist_family",
    "banlist_date", "pool_date", "note", "region",
}  # fmt: skip
_SIZE_KEYS = ("main", "extra", "side")
_ERA_KEYS = {*_SIZE_KEYS, "hand_size", "first_player_draws", "draw_per_turn", "draw_up_to",
             "hand_limit", "life_points", "name", "note"}  # fmt: skip


def load_format_file(path: str | Path) -> Format:
    """Read an organiser's TOML format file (schema in ``docs/formats.md``).

    Raises :class:`DataError` naming the file and the offending key.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataError(f"{path}: cannot read format file: {exc}") from exc
    return format_from_mapping(data, path)


def format_from_mapping(data: Mapping[str, Any], path: Path) -> Format:
    """Build a :class:`Format` from parsed format-file data (see :func:`load_format_file`)."""

    def bad(key: str, msg: str) -> DataError:
        return DataError(f"{path}: {key}: {msg}")

    for key in data:
        if key not in _FORMAT_KEYS and key != "rules":
            raise bad(key, f"unknown key (known: {', '.join(sorted(_FORMAT_KEYS | {'rules'}))})")

    def typed(key: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
        value = data.get(key, default)
        if value is None:
            return None
        if isinstance(value, bool) and kind is int:
            raise bad(key, "must be an integer")
        if not isinstance(value, kind):
            raise bad(key, f"wrong type {type(value).__name__}")
        return value

    base: Format | None = None
    if "base" in data:
        try:
            base = get_format(str(data["base"]))
        except UnknownFormatError as exc:
            raise bad("base", str(exc)) from None
    fmt_id = typed("id", str) or path.stem
    fields: dict[str, Any] = {"id": fmt_id, "name": typed("name", str) or fmt_id, "is_era": False}
    aliases = typed("aliases", list, [])
    if not all(isinstance(a, str) for a in aliases):
        raise bad("aliases", "must be a list of strings")
    fields["aliases"] = tuple(aliases)
    # era
    era_name = typed("era", str)
    era: Era | None = None
    if era_name is not None:
        era = ERA_BY_ID.get(era_name.lower())
        if era is None:
            raise bad("era", f"unknown era {era_name!r}; eras: {', '.join(ERA_BY_ID)}")
        fields["era_id"] = era.id
    rules = data.get("rules")
    if rules is not None:
        if not isinstance(rules, Mapping):
            raise bad("rules", "must be a table")
        start = era or (base.era_at(DATA_AS_OF) if base else ERA_BY_ID["mr2020"])
        fields["era_override"] = _era_with(start, rules, fmt_id, bad)
    # pool and rules
    if "pool" in data:
        try:
            fields["pool"] = Pool(str(data["pool"]).lower())
        except ValueError:
            raise bad("pool", f"unknown pool; pools: {', '.join(p.value for p in Pool)}") from None
    for key in ("copy_limit", "point_cap", "skill_cards"):
        if key in data:
            value = typed(key, int)
            if value < 0:
                raise bad(key, "must be >= 0")
            fields[key] = value
    if "forbidden_types" in data:
        types = typed("forbidden_types", list)
        if not all(isinstance(t, str) for t in types):
            raise bad("forbidden_types", "must be a list of strings")
        fields["forbidden_types"] = frozenset(t.lower() for t in types)
    for key in ("pool_date", "banlist_date"):
        if key in data:
            value = data[key]
            if not isinstance(value, date):
                raise bad(key, "must be a TOML date (YYYY-MM-DD)")
            fields["pool_date" if key == "pool_date" else "list_date"] = value
    if "note" in data:
        fields["note"] = typed("note", str)
    if "region" in data:
        region = typed("region", str)
        if region not in ("tcg", "ocg"):
            raise bad("region", "must be 'tcg' or 'ocg'")
        fields["region"] = region
    # ban list
    if "banlist_family" in data:
        fam = typed("banlist_family", str)
        if fam not in load_catalog().families() and fam != "none":
            raise bad("banlist_family", f"unknown family; known: {load_catalog().families()}")
        fields["family"] = None if fam == "none" else fam
        fields["derivation"] = Derivation.DIRECT
    if "banlist" in data:
        fields["custom_lists"] = _read_lists(path, typed("banlist", str),
                                             typed("banlist_name", str), bad)  # fmt: skip
    if base is None:
        if "era_id" not in fields and "era_override" not in fields:
            raise bad("era", "give an era (or a base format)")
        return Format(**fields)
    fields.setdefault("aliases", ())
    return replace(base, **fields)


def _era_with(start: Era, rules: Mapping[str, Any], fmt_id: str, bad: Any) -> Era:
    changes: dict[str, Any] = {"id": f"{fmt_id}-rules", "house": True,
                               "provenance": f"organiser format file ({fmt_id})",
                               "name": f"{start.name} (organiser overrides)"}  # fmt: skip
    for key, value in rules.items():
        where = f"rules.{key}"
        if key not in _ERA_KEYS:
            raise bad(where, f"unknown key (known: {', '.join(sorted(_ERA_KEYS))})")
        if key in _SIZE_KEYS:
            if not isinstance(value, Mapping) or set(value) - {"min", "max", "zero_or_exact"}:
                raise bad(where, "must be a table with min / max / zero_or_exact")
            for sub, num in value.items():
                if not isinstance(num, int) or isinstance(num, bool) or num < 0:
                    raise bad(f"{where}.{sub}", "must be an integer >= 0")
            old: SizeRule = getattr(start, key)
            exact = value.get("zero_or_exact")
            lo = value.get("min", 0 if exact is not None else old.min)
            hi = value.get("max", None if "min" in value and "max" not in value else old.max)
            if exact is not None:
                hi = exact
            if hi is not None and hi < lo:
                raise bad(where, f"max {hi} < min {lo}")
            changes[key] = SizeRule(lo, hi, exact)
        elif key == "first_player_draws":
            if not isinstance(value, bool):
                raise bad(where, "must be true or false")
            changes[key] = value
        elif key in ("name", "note"):
            if not isinstance(value, str):
                raise bad(where, "must be a string")
            changes[key] = value
        else:
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise bad(where, "must be an integer")
            changes[key] = value
    return replace(start, **changes)


def _read_lists(path: Path, ref: str, section: str | None, bad: Any) -> tuple[Banlist, ...]:
    target = (path.parent / ref).resolve()
    try:
        if target.suffix == ".toml":
            return (read_banlist_file(target),)
        text = target.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise bad("banlist", f"cannot read {ref}: {exc}") from None
    except DataError as exc:
        raise bad("banlist", str(exc)) from None
    try:
        lists = read_lflist(text, str(target), effective=date(1970, 1, 1))
    except DataError as exc:
        raise bad("banlist", str(exc)) from None
    if section is not None:
        lists = [b for b in lists if b.name == section]
        if not lists:
            raise bad("banlist_name", f"no list named {section!r} in {ref}")
    if not lists:
        raise bad("banlist", f"{ref} holds no list")
    return tuple(sorted(lists, key=lambda b: b.effective))
