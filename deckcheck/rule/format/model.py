"""Eras and formats as values: deck-construction rules, card pools and special rules.

An :class:`Era` is a set of deck-construction and turn rules (section sizes, opening hand, the
first-turn draw, hand limit, Life Points). A :class:`Format` is an era (fixed, or chosen by date
from a region's timeline) plus a ban-list family, a card pool and special rules (Genesys points,
forbidden card types, Skill cards, Rush Legend limits, Duel Links limit groups).

The built-in eras and formats are data (``formats.toml`` of a dataset), read by
:mod:`deckcheck.rule.format.file` with the same schema as organisers' format files.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from datetime import date
from typing import TYPE_CHECKING

from msgspec import Struct
from msgspec.structs import replace

from deckcheck.rule.banlist import Banlist, TcgRegion, derive_traditional, merge_stricter
from deckcheck.rule.reason import Reason

if TYPE_CHECKING:
    from deckcheck.rule.banlist.catalog import ListData


class SizeRule(Struct, frozen=True):
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


class Era(Struct, frozen=True):
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


RUSH_LEGEND_SPLIT = date(2023, 1, 1)
"""Rush Duel: 1 Legend in total until 2022-12-31, then 1 Monster + 1 Spell + 1 Trap (Konami,
announced 2022-11; in force 2023-01-01)."""
"""From this date Rush allows 1 Legend Monster + 1 Legend Spell + 1 Legend Trap (before: 1)."""


class DateCheck(Struct, frozen=True):
    """Whether a format has list data for a date: an error (cannot check) and/or warnings."""

    error: str | None = None
    warnings: tuple[str, ...] = ()


class Format(Struct, frozen=True):
    """A format: era + ban-list family + card pool + special rules.

    Equal formats have the same fields, :attr:`warnings` apart (what reading a format file
    skipped does not change the format)."""

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
    limit_groups: Mapping[str, int] | None = None
    """Duel Links limit groups: group -> shared slots (no list data yet)."""
    pool_date: date | None = None
    """Fixed pool cut-off (cards released on or before), if any. None for the whitelist
    formats (GOAT, Edison, HAT): their whitelist *is* the pool, and it holds cards whose first
    TCG print in the card index is later than the format's date."""
    era: Era | None = None
    """Fixed era; None: the era of :attr:`timeline` in force at the date."""
    timeline: tuple[tuple[date, Era], ...] = ()
    """Official eras of :attr:`region` by first day (used when :attr:`era` is None)."""
    region: str = "tcg"
    """``tcg`` or ``ocg``: whose era dates apply when the era goes by date."""
    family: str | None = None
    """Ban-list family; None: no ban list."""
    derivation: Derivation = Derivation.DIRECT
    confidence: str = "H"
    """H official or several sources agree; M one reputable source; L weak or conflicting."""
    note: str = ""
    provenance: str = ""
    """Where the format's rules come from."""
    is_era: bool = False
    """True for an era used as a format on its own."""
    custom_lists: tuple[Banlist, ...] = ()
    """A custom format's own lists (used instead of ``family``), by effective date."""
    list_date: date | None = None
    """A custom format's fixed date for choosing its list."""
    custom: bool = False
    """True for a format read from an organiser's format file."""
    tcg_region: TcgRegion = TcgRegion.NA
    """Whose effective dates pick a TCG list where North America and Europe differ (April
    2024: 2024-04-15 vs 2024-04-22). Not :attr:`region`, which is the tcg/ocg era timeline."""
    warnings: tuple[str, ...] = ()
    """What reading an organiser's format file skipped (a malformed ``lflist.conf`` line, with
    its file and line): the CLI prints each as a ``warning:``."""

    def __hash__(self) -> int:
        # formats key the ruleset caches: hash what tells formats apart in practice (equal
        # formats share these), not every era and list
        return hash((self.id, self.tcg_region, self.list_date, self.custom))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not Format:
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _COMPARED)

    def in_region(self, region: TcgRegion | str) -> Format:
        """This format with TCG lists taking effect on ``region``'s dates (``na`` or ``eu``).

        Raises :class:`~deckcheck.error.InputError` (a :class:`ValueError`) for another name.
        """
        try:
            tcg_region = TcgRegion(region.strip().lower() if isinstance(region, str) else region)
        except ValueError:
            from deckcheck.error import InputError

            raise InputError(
                f"unknown TCG region {region!r}: use 'na' (North America) or 'eu' (Europe)"
            ) from None
        return self if tcg_region is self.tcg_region else replace(self, tcg_region=tcg_region)

    # -- rules ----------------------------------------------------------------------------

    @property
    def era_id(self) -> str | None:
        """The fixed era's id, or None when the era goes by date."""
        return self.era.id if self.era is not None else None

    def era_at(self, d: date) -> Era:
        """The era whose rules apply on ``d`` (before the timeline's start: its first era)."""
        if self.era is not None:
            return self.era
        if not self.timeline:
            raise ValueError(f"format {self.id!r} has neither an era nor a timeline")
        current = self.timeline[0][1]
        for start, era in self.timeline:
            if start <= d:
                current = era
        return current

    def legend_limits_at(self, d: date) -> dict[str, int]:
        """Rush Legend limits on ``d``: ``{"total": 1}`` before 2023-01-01, else per card kind."""
        if not self.legend_rule:
            return {}
        if d < RUSH_LEGEND_SPLIT:
            return {"total": 1}
        return {"monster": 1, "spell": 1, "trap": 1}

    # -- lists ----------------------------------------------------------------------------

    def has_banlists(self) -> bool:
        """True if the format uses ban lists at all (a family or its own lists)."""
        return bool(self.custom_lists) or self.family is not None

    def _custom_list_at(self, d: date) -> Banlist | None:
        """The format's own list in force on ``d`` (its one list, whatever the date)."""
        when = self.list_date or d
        current = None
        for b in self.custom_lists:
            if b.effective <= when or len(self.custom_lists) == 1:
                current = b
        return current

    def banlist_at(self, d: date, data: ListData) -> Banlist | None:
        """The list in force on ``d`` (None if the format has none, or none is in force yet)."""
        if self.custom_lists:
            return self._custom_list_at(d)
        if self.family is None:
            return None
        cat = data.banlists
        match self.derivation:
            case Derivation.FIXED:
                return cat.last(self.family)
            case Derivation.TRADITIONAL:
                base = cat.in_force("tcg", self.list_date or d, self.tcg_region)
                if base is None:
                    return None
                return cat.derived(("traditional", base.key), lambda: derive_traditional(base))
            case Derivation.WORLDS:
                when = self.list_date or d
                tcg = cat.in_force("tcg", when, self.tcg_region)
                ocg = cat.in_force("ocg", when)
                if tcg is None or ocg is None:
                    return tcg or ocg
                both = (tcg, ocg)
                return cat.derived(
                    ("worlds", tcg.key, ocg.key), lambda: merge_stricter("worlds", both)
                )
            case Derivation.DIRECT:
                return cat.in_force(self.family, self.list_date or d, self.tcg_region)

    def upcoming(self, d: date, data: ListData) -> list[Banlist]:
        """Known lists that take effect after ``d``, soonest first."""
        if self.custom_lists:
            return [b for b in self.custom_lists if b.effective > d]
        if self.family is None or self.derivation is Derivation.FIXED or self.list_date:
            return []
        ds = data
        cat = ds.banlists
        if self.derivation in (Derivation.TRADITIONAL, Derivation.WORLDS):
            fams = ("tcg",) if self.derivation is Derivation.TRADITIONAL else ("tcg", "ocg")
            region = self.tcg_region
            dates = sorted(
                {b.effective_in(region) for f in fams for b in cat.upcoming(f, d, region)}
            )
            out = []
            for when in dates:
                got = self.banlist_at(when, ds)
                if got is not None:
                    out.append(got)
            return out
        return cat.upcoming(self.family, d, self.tcg_region)

    def first_date(self, data: ListData) -> date | None:
        """The first day the format has a list for (None if it has no list or no start)."""
        if self.custom_lists:
            return self.custom_lists[0].effective if len(self.custom_lists) > 1 else None
        if self.family is None or self.derivation is Derivation.FIXED:
            return None
        cat = data.banlists
        if self.derivation is Derivation.WORLDS:
            firsts = [cat.first(f) for f in ("tcg", "ocg")]
            return max(b.effective for b in firsts if b is not None)
        fam = "tcg" if self.derivation is Derivation.TRADITIONAL else self.family
        first = cat.first(fam)
        return first.effective if first else None

    def check_date(self, d: date, data: ListData) -> DateCheck:
        """Error if ``d`` is before the format's first list; warning if after the data's end.

        This is the one rule for every command (``validate``, ``formats show``, ``banlist
        show``): :meth:`require_date` turns the error into a :class:`DateRangeError`.
        """
        ds = data
        warnings: list[str] = []
        first = self.first_date(ds)
        if first is not None and d < first:
            return DateCheck(Reason("before-lists", date=d, format=self.name, first=first))
        fixed = self.derivation is Derivation.FIXED or self.list_date is not None
        if d > ds.as_of and self.family is not None and not self.custom_lists and not fixed:
            warnings.append(Reason("after-data", date=d, as_of=ds.as_of))
        return DateCheck(None, tuple(warnings))

    def require_date(self, d: date, data: ListData) -> tuple[str, ...]:
        """The warnings of :meth:`check_date`; raises :class:`DateRangeError` on its error."""
        verdict = self.check_date(d, data)
        if verdict.error is not None:
            from deckcheck.error import DateRangeError

            raise DateRangeError(verdict.error)
        return verdict.warnings


_COMPARED = tuple(f for f in Format.__struct_fields__ if f != "warnings")
"""The fields that make two formats equal (the reading's warnings apart)."""
