"""What a ruleset knows about one card, worked out once per format and date.

:func:`card_facts` turns a card record into its :class:`CardFacts` under a format, a date and
the lists in force: the name its copies count toward, its list status, its points, and what the
per-card rules (pool, placement, forbidden types) will say about it. The rules then read these
facts instead of asking the card again for every deck.
"""

from __future__ import annotations

import datetime
import re
from typing import TYPE_CHECKING

from msgspec import Struct

from deckcheck.card import (
    FLAG_GOAT,
    FLAG_PRERELEASE,
    FLAG_UNOFFICIAL,
    Card,
    CardKind,
    DeckZone,
    ExtraKind,
)
from deckcheck.card.release import Region
from deckcheck.deck.model import Section
from deckcheck.deck.skills import uses_skills
from deckcheck.rule.format import Pool
from deckcheck.rule.pool import (
    master_duel_problem,
    region_problem,
    region_unknown,
    speed_problem,
    tcg_region,
)
from deckcheck.rule.reason import Reason
from deckcheck.validation.report import Code, Severity

if TYPE_CHECKING:
    from deckcheck.card import CardIndex
    from deckcheck.rule.banlist import Banlist
    from deckcheck.rule.format import Format


class CardFacts(Struct, frozen=True):
    """What the ruleset knows about one card record, computed once per format and date."""

    limit_name: str
    """The name whose copy limit the card counts toward."""
    status: int | None
    """Copies the list allows (0-3); None when the card is not on the list."""
    points: int
    """Genesys points of one copy."""
    zone: DeckZone
    """Main, Extra, or not a deck card."""
    skill: bool
    """Whether the card is a Skill card."""
    legend: bool
    """Whether the card is a Rush Legend card."""
    attention: tuple[bool, bool, bool] = (True, True, True)
    """Per section (Main, Extra, Side): whether a per-card rule (placement, pool, treated-as,
    forbidden types) may have something to say about the card there; False lets validation
    skip it."""
    pool_finding: PoolFinding | None = None
    """What the pool rule says about every copy of the card (code, severity, message)."""
    group: int | None = None
    """The limit group (Speed Duel: Limited 1/2/3) of the list in force the card is in."""
    forbidden_type: str | None = None
    """What the forbidden-types rule says about the card (a type the format bans)."""
    later: tuple[int | None, ...] = ()
    """Copies allowed on each upcoming list of the ruleset (None: not listed there, or a
    points list)."""


class Setting(Struct, frozen=True):
    """What the facts of a card depend on: the format, the date and the lists in force."""

    format: Format
    date: datetime.date
    banlist: Banlist | None
    upcoming: tuple[Banlist, ...]
    allow_prerelease: bool
    variants: dict[str, tuple[int, int]]
    """For whitelists: base name -> (status, passcode) of listed format versions of cards."""

    @property
    def cutoff(self) -> datetime.date:
        """The date the card pool is taken at (a format may freeze its pool earlier)."""
        fixed = self.format.pool_date
        return min(self.date, fixed) if fixed is not None else self.date


_ODD_FLAGS = FLAG_UNOFFICIAL | FLAG_PRERELEASE


def list_status(
    banlist: Banlist | None, card: Card, variants: dict[str, tuple[int, int]] | None = None
) -> tuple[int | None, int]:
    """(copies allowed, passcode whose entry applied) for a card on a list.

    On a whitelist, a card that is not listed itself counts with the entry of its listed
    format version (GOAT lists "Sinister Serpent (Pre-Errata)" for Sinister Serpent).
    """
    if banlist is None:
        return None, card.canonical
    best: int | None = None
    used = card.canonical
    for code in dict.fromkeys((card.canonical, card.passcode, card.treated_as_passcode)):
        if code is None:
            continue
        value = banlist.limit(code)
        if value is not None and (best is None or value < best):
            best, used = value, code
    if best is None and variants:
        variant = variants.get(card.name)
        if variant is not None:
            best, used = variant
    return best, used


_VARIANT_SUFFIX = re.compile(r"\s*\((?:Pre-Errata|GOAT)\)$")


def whitelist_variants(banlist: Banlist, index: CardIndex) -> dict[str, tuple[int, int]]:
    """Base card name -> (status, passcode) of the format versions a whitelist lists."""
    got: dict[str, tuple[int, int]] = {}
    entries = banlist.entries
    for rec in index.flagged(entries, FLAG_UNOFFICIAL | FLAG_GOAT):  # (no record for the rest)
        code, status = rec.passcode, entries[rec.passcode]
        base = _VARIANT_SUFFIX.sub("", rec.name)
        if base not in got or status < got[base][0]:
            got[base] = (status, code)
    return got


def _rush_problem(card: Card, cutoff: datetime.date) -> str | None:
    """Why a card is outside the Rush Duel pool at ``cutoff`` (Rush cards carry an OCG date)."""
    if not card.is_rush:
        return Reason("rush-not")
    released = card.ocg_date
    if released is not None and released > cutoff:
        # dated from Konami's card ids or EDOPro's lists (docs/card-index-report.md)
        return Reason("rush-later", date=released)
    return None


def pool_problem(setting: Setting, card: Card) -> str | None:
    """Why a card is outside the format's pool at the date (None if it is inside)."""
    fmt, cutoff = setting.format, setting.cutoff
    pool = fmt.pool
    if pool is Pool.RUSH:
        return _rush_problem(card, cutoff)
    if card.is_rush:
        return Reason("rush-card")
    if card.is_goat_variant and fmt.id != "goat":
        return Reason("goat-version")
    if pool is Pool.MASTER_DUEL:
        return master_duel_problem(card, cutoff)
    if pool is Pool.SPEED:  # Speed Duel products and lists; the lists in force give limits
        return speed_problem(card, cutoff)
    return _dated_problem(fmt, card, cutoff)


def _dated_problem(fmt: Format, card: Card, cutoff: datetime.date) -> str | None:
    """Why a card is outside a TCG, OCG or Worlds pool at ``cutoff`` (by its release dates)."""
    pool = fmt.pool
    region = tcg_region(fmt.tcg_region)
    if pool is Pool.TCG:
        if not card.in_tcg:
            return Reason("ocg-only")
        return region_problem(card, region, cutoff)
    if pool is Pool.OCG:
        if not card.in_ocg:
            return Reason("tcg-only")
        return region_problem(card, Region.OCG, cutoff)
    if pool is Pool.BOTH:  # Worlds: released in both regions
        if not (card.in_tcg and card.in_ocg):
            return Reason("not-both")
        return region_problem(card, region, cutoff) or region_problem(card, Region.OCG, cutoff)
    return None


def _pool_regions(fmt: Format) -> tuple[Region, ...]:
    """The regions whose release dates decide a dated pool."""
    tcg = tcg_region(fmt.tcg_region)
    return {
        Pool.TCG: (tcg,),
        Pool.OCG: (Region.OCG,),
        Pool.BOTH: (tcg, Region.OCG),
        Pool.MASTER_DUEL: (Region.MD,),
        Pool.SPEED: (Region.SPEED,),
    }.get(fmt.pool, ())


def date_unknown(setting: Setting, card: Card) -> str | None:
    """Why the release date of ``card`` is unsure for a dated pool check, if it is."""
    if card.is_unofficial or card.is_prerelease or card.is_token:
        return None
    if card.is_rush:
        if setting.format.pool is Pool.RUSH and card.ocg_date is None:
            return Reason("rush-undated")
        return None
    for region in _pool_regions(setting.format):
        why = region_unknown(card, region, setting.cutoff)
        if why is not None:
            return why
    return None


def forbidden_type(fmt: Format, card: Card) -> str | None:
    """Why ``fmt`` bans the card for its type (Genesys: Link and Pendulum), if it does."""
    banned = fmt.forbidden_types
    if not banned:
        return None
    kinds = []
    if "link" in banned and card.extra_kind is ExtraKind.LINK:
        kinds.append("Link")
    if "pendulum" in banned and card.is_pendulum:
        kinds.append("Pendulum")
    if not kinds:
        return None
    monsters = " and ".join(k + " Monsters" for k in kinds)
    return f"{card.name} is a {'/'.join(kinds)} Monster; {fmt.name} bans {monsters}: remove it"


def group_of(banlist: Banlist | None, card: Card) -> int | None:
    """The limit group of ``banlist`` the card is in (by original, own or treated-as code)."""
    if banlist is None or not banlist.groups:
        return None
    for code in (card.canonical, card.passcode, card.treated_as_passcode):
        if code is not None:
            group = banlist.group_of(code)
            if group is not None:
                return group
    return None


def placement(fmt: Format, card: Card, zone: DeckZone, section: Section) -> tuple[Code, str] | None:
    """What the placement rule says about the card in ``section``, if anything."""
    if zone is DeckZone.NONE:
        if card.is_skill and uses_skills(fmt):  # Speed Duel, Duel Links
            return None
        what = "a Token" if card.kind is CardKind.TOKEN else "a Skill card"
        where = "" if card.kind is CardKind.TOKEN else " outside Speed Duel and Duel Links"
        return Code.NOT_A_DECK_CARD, f"{card.name} is {what}, never a deck card{where}: remove it"
    if zone is DeckZone.EXTRA and section is Section.MAIN:
        kind = card.extra_kind.value if card.extra_kind else "Extra Deck"
        return Code.WRONG_SECTION, f"{card.name} is a {kind} Monster: move it to the Extra Deck"
    if zone is DeckZone.MAIN and section is Section.EXTRA:
        fix = "move it to the Main or Side Deck"
        return Code.WRONG_SECTION, f"{card.name} is a Main Deck card: {fix}"
    return None


def _whitelisted(banlist: Banlist | None, card: Card) -> bool:
    """Whether the whitelist in force names this very record (format versions of cards)."""
    return banlist is not None and banlist.whitelist and banlist.limit(card.passcode) is not None


PoolFinding = tuple[Code, Severity, str, tuple[tuple[str, object], ...]]
"""What the card pool rule says about a card: code, severity, message, the message's facts."""


def pool_finding(
    setting: Setting, card: Card, problem: str | None, unknown: str | None
) -> PoolFinding | None:
    """What the card pool rule says about a card, if anything."""
    if card.is_unofficial:
        if _whitelisted(setting.banlist, card):
            return None
        why = "not an official card (anime, video game or otherwise illegal)"
        return Code.UNOFFICIAL_CARD, Severity.ERROR, f"{card.name} is {why}: remove it", ()
    if card.is_prerelease:
        facts: tuple[tuple[str, object], ...] = ()
        if card.canonical != card.passcode:
            fix = f"it has been released: use passcode {card.canonical}"
            facts = (("released", card.canonical),)
        else:
            fix = "it is not released yet"
        sev = Severity.WARNING if setting.allow_prerelease else Severity.ERROR
        message = f"{card.name} is written with pre-release code {card.passcode}: {fix}"
        return Code.PRERELEASE, sev, message, facts
    if card.zone is DeckZone.NONE:
        return None  # not a deck card at all: the placement rule says so
    if problem:
        return (
            Code.NOT_IN_POOL,
            Severity.ERROR,
            f"{card.name} is {problem}: remove it",
            (("detail", problem),),
        )
    if unknown is not None:
        return (
            Code.RELEASE_DATE_UNKNOWN,
            Severity.WARNING,
            f"{card.name}: {unknown}: check it",
            (("detail", unknown),),
        )
    return None


def card_facts(setting: Setting, card: Card) -> CardFacts:
    """The facts of one card record under ``setting``."""
    banlist = setting.banlist
    status, _ = list_status(banlist, card, setting.variants)
    problem = None
    if not (card.is_unofficial or card.is_prerelease):
        problem = pool_problem(setting, card)
    points = 0
    if banlist is not None and banlist.points:
        points = max(banlist.points_of(card.canonical), banlist.points_of(card.passcode))
        status = None  # a points list sets points, not copies
    unknown = date_unknown(setting, card) if problem is None else None
    zone = card.zone
    forbidden = forbidden_type(setting.format, card)
    odd = (
        problem is not None
        or unknown is not None
        or bool(card.flags & _ODD_FLAGS)
        or zone is DeckZone.NONE
        or bool(card.treated_as)
        or forbidden is not None
    )
    return CardFacts(
        card.limit_name,
        status,
        points,
        zone,
        card.is_skill,
        card.is_legend,
        attention=(odd or zone is DeckZone.EXTRA, odd or zone is DeckZone.MAIN, odd),
        pool_finding=pool_finding(setting, card, problem, unknown),
        later=tuple(None if b.points else list_status(b, card)[0] for b in setting.upcoming),
        group=group_of(banlist, card),
        forbidden_type=forbidden,
    )
