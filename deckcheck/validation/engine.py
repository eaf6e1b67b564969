"""The validation engine: every reason a deck is not legal in a format at a date.

:func:`validate` runs each rule (a small named function below) over the deck and collects every
violation into a :class:`~deckcheck.validation.report.Report`; nothing stops at the first problem.
The
rules share a :class:`Context` (deck, era, list in force, format) and a per-format-and-date
:class:`Ruleset` that memoises per-card facts, so validating many decks is fast.
"""

from __future__ import annotations

import collections
import enum
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from itertools import chain, repeat
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple, cast

from deckcheck.card import FLAG_PRERELEASE, FLAG_UNOFFICIAL, Card, CardKind, DeckZone, ExtraKind
from deckcheck.card.release import Region
from deckcheck.data.dataset import Dataset as _Dataset
from deckcheck.deck.io.builder import MAX_CARDS
from deckcheck.deck.model import Deck, DeckCard, FindingCode, Section
from deckcheck.deck.skills import prefer_skills, uses_skills
from deckcheck.rule.banlist.model import DEFAULT_POINT_CAP, status_word
from deckcheck.rule.pool import (
    master_duel_problem,
    region_problem,
    region_unknown,
    skill_problem,
    speed_problem,
    tcg_region,
)
from deckcheck.validation.points import points_by_card
from deckcheck.validation.report import (
    DEFAULT_SEVERITY,
    BanlistRef,
    Code,
    PointCard,
    Report,
    Severity,
    Violation,
)

if TYPE_CHECKING:
    from deckcheck.card import CardIndex
    from deckcheck.data.dataset import Dataset
    from deckcheck.rule.banlist import Banlist, TcgRegion
    from deckcheck.rule.format import Era, Format, SizeRule


@dataclass(frozen=True, slots=True)
class CardFacts:
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
    pool_finding: tuple[Code, Severity, str] | None = None
    """What :func:`check_pool` says about every copy of the card (code, severity, message)."""
    group: int | None = None
    """The limit group (Speed Duel: Limited 1/2/3) of the list in force the card is in."""
    forbidden_type: str | None = None
    """What :func:`check_forbidden_types` says about the card (a type the format bans)."""
    later: tuple[int | None, ...] = ()
    """Copies allowed on each of the ruleset's :attr:`~Ruleset.upcoming` lists (None: not
    listed there, or a points list)."""


class Need(enum.IntEnum):
    """What a deck must have for a rule to find anything (a :class:`Rule` declares one, or
    none when it may always find something). The value is the place of the need in a deck's
    :data:`Has` tuple."""

    FINDINGS = 0
    """Lines the reader could not resolve."""
    UNKNOWN = 1
    """Passcodes that name no card."""
    BAD_SIZE = 2
    """A section of a size the era does not allow."""
    FLAGGED = 3
    """Cards whose facts ask for a look in their section (:attr:`CardFacts.attention`)."""
    CROWDED = 4
    """A name with more copies than the copy limit."""
    LISTED = 5
    """A name the list in force limits, with more copies than it may allow."""
    CHANGING = 6
    """A name an upcoming list may cut."""


Has = tuple[bool, bool, bool, bool, bool, bool, bool]
"""What a deck has, one flag per :class:`Need` in order (the key of :meth:`Ruleset.rules`)."""
HAS_ALL: Has = (True,) * 7
"""A deck that has everything: every rule that applies runs."""


class _Look(NamedTuple):
    """The tally key of a card that needs a look in a section (see :attr:`Ruleset.keys`)."""

    name: str | None
    """The limit name its copies count toward (None: not a deck card, they count toward none)."""
    passcode: int
    section: int
    """0 Main, 1 Extra, 2 Side."""


_Key = str | _Look
"""What :func:`validate` counts a card's copies under: its limit name, or a :class:`_Look`."""


@dataclass
class Ruleset:
    """A format at a date, with the era and list in force and a per-card memo."""

    format: Format
    date: date
    era: Era
    banlist: Banlist | None
    upcoming: list[Banlist]
    allow_prerelease: bool
    facts: dict[int, CardFacts] = field(default_factory=dict)
    date_warning: str | None = None
    variants: dict[str, tuple[int, int]] = field(default_factory=dict)
    """For whitelists: base name -> (status, passcode) of listed format versions of cards."""
    _rules: dict[Has, tuple[Check, ...]] = field(default_factory=dict, repr=False)
    sizes_allowed: tuple[frozenset[int], ...] = ()
    """Per section (Main, Extra, Side): the sizes the era allows, up to the card limit."""
    banlist_ref: BanlistRef | None = None
    """The list in force, as reports name it."""
    point_cap: int | None = None
    """The point cap in force (point formats), else None."""
    names: dict[int, str] = field(default_factory=dict, repr=False)
    """Passcode -> limit name, for the deck cards among :attr:`facts`."""
    codes_by_name: dict[str, list[int]] = field(default_factory=dict, repr=False)
    """Limit name -> the passcodes among :attr:`facts` that count toward it."""
    listed_floor: dict[str, int] = field(default_factory=dict, repr=False)
    """Limit name -> the fewest copies the list in force allows any of the name's deck cards
    among :attr:`facts` (a card missing from a whitelist: 0), for names the list has a word
    on: a deck with no more copies than that is within the list whichever of those cards it
    holds, and names not here are not on the list at all."""
    keys: tuple[dict[int, _Key], dict[int, _Key], dict[int, _Key]] = field(
        default_factory=lambda: ({}, {}, {}), repr=False
    )
    """Per section (Main, Extra, Side): passcode -> what :func:`validate` counts its copies
    under: the limit name, or a :class:`_Look` when :attr:`CardFacts.attention` asks for a
    look in that section (every passcode among :attr:`facts`; set last, so a passcode found
    here has its facts and every other index entry)."""
    looks: set[_Look] = field(default_factory=set, repr=False)
    """Every :class:`_Look` among :attr:`keys`."""
    changing_floor: dict[str, int] = field(default_factory=dict, repr=False)
    """For the deck cards among :attr:`facts` that an :attr:`upcoming` list limits to fewer than
    3 copies: limit name -> the fewest copies it allows any of them (a deck with no more than
    that has nothing to change)."""
    points: dict[int, int] = field(default_factory=dict, repr=False)
    """Passcode -> points of one copy, for the cards among :attr:`facts` with points."""
    size_findings: dict[tuple[int, int], tuple[Code, str, int]] = field(
        default_factory=dict, repr=False
    )
    """(section index, cards) -> what :func:`check_sizes` says (code, message, allowed)."""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    """Held while a card's facts are learnt and indexed: two threads validating at once must
    not interleave the read-compare-write of the floors (one would skip a list check)."""

    def rules(self, has: Has = HAS_ALL) -> tuple[Check, ...]:
        """The checks that can find something under this ruleset, in report order, for a deck
        that ``has`` what each :class:`Rule` needs (every rule's :attr:`Rule.applies` asked
        once per ruleset and deck shape)."""
        got = self._rules.get(has)
        if got is None:
            got = self._rules[has] = tuple(
                r.check for r in RULES
                if (r.needs is None or has[r.needs]) and r.applies(self)
            )  # fmt: skip
        return got

    def card_facts(self, card: Card) -> CardFacts:
        """The memoised facts of one card record (learnt under :attr:`lock`)."""
        got = self.facts.get(card.passcode)
        if got is not None:
            return got
        with self.lock:
            got = self.facts.get(card.passcode)
            if got is not None:
                return got  # another thread learnt it meanwhile
            got = _compute_facts(self, card)
            code = card.passcode
            # the indexes first, then the memo: whoever finds the facts finds them indexed
            deck_card = got.zone is not DeckZone.NONE
            if deck_card:
                self.names[code] = got.limit_name
                self.codes_by_name.setdefault(got.limit_name, []).append(code)
            bl = self.banlist
            if deck_card and bl is not None and not bl.points:
                now = got.status if got.status is not None else (0 if bl.whitelist else None)
                if now is not None:
                    _lower(self.listed_floor, got.limit_name, now)
            for later, future in zip(got.later, self.upcoming, strict=True):
                if deck_card and not future.points:
                    if later is None:
                        later = 0 if future.whitelist else 3
                    if later < 3:  # a list allowing 3 changes nothing
                        _lower(self.changing_floor, got.limit_name, later)
            if got.points:
                self.points[code] = got.points
            self.facts[code] = got
            self.index_keys(code, got)
            return got

    def index_keys(self, code: int, facts: CardFacts) -> None:
        """Enter ``code`` in :attr:`keys` (and :attr:`looks`); doing it twice does no harm."""
        name = facts.limit_name if facts.zone is not DeckZone.NONE else None
        for section, (look, keys) in enumerate(zip(facts.attention, self.keys, strict=True)):
            key: _Key
            if look or name is None:
                key = _Look(name, code, section)
                self.looks.add(key)
            else:
                key = name
            keys[code] = key


def _lower(floor: dict[str, int], name: str, copies: int) -> None:
    """Keep the fewest copies allowed per name in ``floor``."""
    if copies < floor.get(name, copies + 1):
        floor[name] = copies


def _list_status(
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
    for code, status in banlist.entries.items():
        if code not in index:
            continue
        rec = index.get(code)
        if rec.is_unofficial or rec.is_goat_variant:
            base = _VARIANT_SUFFIX.sub("", rec.name)
            if base not in got or status < got[base][0]:
                got[base] = (status, code)
    return got


def _pool_problem(rs: Ruleset, card: Card) -> str | None:
    """Why a card is outside the format's pool at the date (None if it is inside)."""
    from deckcheck.rule.format import Pool

    fmt, when = rs.format, rs.date
    pool = fmt.pool
    cutoff = min(when, fmt.pool_date) if fmt.pool_date is not None else when
    if pool is Pool.RUSH:  # Rush Duel is released in Japan: its cards carry an OCG date
        if not card.is_rush:
            return "not a Rush Duel card"
        released = card.ocg_date
        if released is not None and released > cutoff:
            # dated from Konami's card ids or EDOPro's lists (docs/card-index-report.md)
            return f"not released in Rush Duel until about {released}"
        return None
    if card.is_rush:
        return "a Rush Duel card, not legal in this format"
    if card.is_goat_variant and fmt.id != "goat":
        return "a GOAT-format version of a card, legal only in GOAT"
    if pool is Pool.MASTER_DUEL:
        return master_duel_problem(card, cutoff)
    if pool is Pool.SPEED:  # Speed Duel products and lists; the lists in force give limits
        return speed_problem(card, cutoff)
    region = tcg_region(fmt.tcg_region)
    if pool is Pool.TCG:
        if not card.in_tcg:
            return "not released in the TCG (OCG-only)"
        return region_problem(card, region, cutoff)
    if pool is Pool.OCG:
        if not card.in_ocg:
            return "not released in the OCG (TCG-only)"
        return region_problem(card, Region.OCG, cutoff)
    if pool is Pool.BOTH:  # Worlds: released in both regions
        if not (card.in_tcg and card.in_ocg):
            return "not released in both the OCG and the TCG"
        return region_problem(card, region, cutoff) or region_problem(card, Region.OCG, cutoff)
    return None


def _date_unknown(rs: Ruleset, card: Card) -> str | None:
    """Why the release date of ``card`` is unsure for a dated pool check, if it is."""
    from deckcheck.rule.format import Pool

    pool, fmt = rs.format.pool, rs.format
    if card.is_unofficial or card.is_prerelease or card.is_token:
        return None
    if card.is_rush:
        if pool is Pool.RUSH and card.ocg_date is None:
            return "no source dates its Rush Duel release; it is assumed released by the date"
        return None
    cutoff = min(rs.date, fmt.pool_date) if fmt.pool_date is not None else rs.date
    tcg = tcg_region(fmt.tcg_region)
    regions = {
        Pool.TCG: (tcg,),
        Pool.OCG: (Region.OCG,),
        Pool.BOTH: (tcg, Region.OCG),
        Pool.MASTER_DUEL: (Region.MD,),
        Pool.SPEED: (Region.SPEED,),
    }.get(pool, ())
    for region in regions:
        why = region_unknown(card, region, cutoff)
        if why is not None:
            return why
    return None


def _whitelisted(rs: Ruleset, card: Card) -> bool:
    """Whether the whitelist in force names this very record (format versions of cards)."""
    bl = rs.banlist
    return bl is not None and bl.whitelist and bl.limit(card.passcode) is not None


def _compute_facts(rs: Ruleset, card: Card) -> CardFacts:
    status, _ = _list_status(rs.banlist, card, rs.variants)
    problem = None
    if not (card.is_unofficial or card.is_prerelease):
        problem = _pool_problem(rs, card)
    points = 0
    if rs.banlist is not None and rs.banlist.points:
        points = max(rs.banlist.points_of(card.canonical), rs.banlist.points_of(card.passcode))
        status = None  # a points list sets points, not copies
    unknown = _date_unknown(rs, card) if problem is None else None
    zone = card.zone
    forbidden = _forbidden_type(rs.format, card)
    odd = (
        problem is not None
        or unknown is not None
        or bool(card.flags & _ODD_FLAGS)
        or zone is DeckZone.NONE
        or bool(card.treated_as)
        or forbidden is not None
    )
    attention = (odd or zone is DeckZone.EXTRA, odd or zone is DeckZone.MAIN, odd)
    return CardFacts(
        card.limit_name, status, points, zone, card.is_skill, card.is_legend,
        attention=attention,
        pool_finding=_pool_finding(rs, card, problem, unknown, zone),
        later=tuple(None if b.points else _list_status(b, card)[0] for b in rs.upcoming),
        group=_group_of(rs.banlist, card),
        forbidden_type=forbidden,
    )  # fmt: skip


def _forbidden_type(fmt: Format, card: Card) -> str | None:
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
    return (f"{card.name} is a {'/'.join(kinds)} Monster; {fmt.name} bans "
            f"{' and '.join(k + ' Monsters' for k in kinds)}: remove it")  # fmt: skip


def _group_of(banlist: Banlist | None, card: Card) -> int | None:
    """The limit group of ``banlist`` the card is in (by original, own or treated-as code)."""
    if banlist is None or not banlist.groups:
        return None
    for code in (card.canonical, card.passcode, card.treated_as_passcode):
        if code is not None:
            group = banlist.group_of(code)
            if group is not None:
                return group
    return None


def _placement(
    rs: Ruleset, card: Card, zone: DeckZone, section: Section
) -> tuple[Code, str] | None:
    """What :func:`check_placement` says about the card in ``section``, if anything."""
    if zone is DeckZone.NONE:
        if card.is_skill and uses_skills(rs.format):  # Speed Duel, Duel Links
            return None
        what = "a Token" if card.kind is CardKind.TOKEN else "a Skill card"
        where = "" if card.kind is CardKind.TOKEN else " outside Speed Duel and Duel Links"
        return Code.NOT_A_DECK_CARD, f"{card.name} is {what}, never a deck card{where}: remove it"
    if zone is DeckZone.EXTRA and section is Section.MAIN:
        kind = card.extra_kind.value if card.extra_kind else "Extra Deck"
        return Code.WRONG_SECTION, f"{card.name} is a {kind} Monster: move it to the Extra Deck"
    if zone is DeckZone.MAIN and section is Section.EXTRA:
        return (Code.WRONG_SECTION,
                f"{card.name} is a Main Deck card: move it to the Main or Side Deck")  # fmt: skip
    return None


def _pool_finding(
    rs: Ruleset, card: Card, problem: str | None, unknown: str | None, zone: DeckZone
) -> tuple[Code, Severity, str] | None:
    """What the card pool rule says about a card (see :func:`check_pool`), if anything."""
    if card.is_unofficial:
        if _whitelisted(rs, card):
            return None
        return (Code.UNOFFICIAL_CARD, Severity.ERROR, f"{card.name} is not an official card "
                "(anime, video game or otherwise illegal): remove it")  # fmt: skip
    if card.is_prerelease:
        if card.canonical != card.passcode:
            fix = f"it has been released: use passcode {card.canonical}"
        else:
            fix = "it is not released yet"
        sev = Severity.WARNING if rs.allow_prerelease else Severity.ERROR
        return (Code.PRERELEASE, sev,
                f"{card.name} is written with pre-release code {card.passcode}: {fix}")  # fmt: skip
    if zone is DeckZone.NONE:
        return None  # not a deck card at all: check_placement says so
    if problem:
        return Code.NOT_IN_POOL, Severity.ERROR, f"{card.name} is {problem}: remove it"
    if unknown is not None:
        return Code.RELEASE_DATE_UNKNOWN, Severity.WARNING, f"{card.name}: {unknown}: check it"
    return None


ANNOUNCE_WINDOW_DAYS = 45
"""When a list's announcement date is unknown, it counts as announced this many days ahead."""


def _announced_by(banlist: Banlist, when: date, region: TcgRegion) -> bool:
    """Whether a future list was already announced on ``when``."""
    if banlist.announced is not None:
        return banlist.announced <= when
    return (banlist.effective_in(region) - when).days <= ANNOUNCE_WINDOW_DAYS


MAX_RULESETS = 256
"""Most rulesets a dataset keeps (one per format, date and option), least recently used out."""

MAX_LEARNED = 200_000
"""Most card facts a dataset's rulesets hold together (about 1 kB each): past it, the least
recently used rulesets are dropped, so a service asked about many dates stays bounded."""


RulesetKey = tuple["Format", date, bool]
"""What a ruleset is cached under on its dataset: (format, date, allow_prerelease) (a plain
tuple: a batch of decks in many formats builds one per deck)."""
RulesetCache = dict[RulesetKey, "Ruleset"]
"""A dataset's rulesets, least recently used first (:meth:`Dataset.ruleset_cache`)."""
_CACHE_LOCK = threading.Lock()
"""Held while a ruleset cache is read and reordered (a pop and a put are one step)."""


def _cache(data: Dataset) -> RulesetCache:
    """The typed ruleset cache of a dataset (the data stage keeps it, untyped, for us)."""
    return cast(RulesetCache, data.ruleset_cache())


def ruleset(fmt: Format, when: date, allow_prerelease: bool, data: Dataset) -> Ruleset:
    """The ruleset of a format at a date, cached on the dataset."""
    last = _LAST
    if (
        last is not None
        and last.format is fmt
        and last.data is data
        and last.date == when
        and (last.allow_prerelease is allow_prerelease)
    ):
        return last.rules  # the question of the previous deck (a batch asks it thousands of times)
    cache = _cache(data)
    key: RulesetKey = (fmt, when, allow_prerelease)
    with _CACHE_LOCK:
        got = cache.pop(key, None)
        if got is not None:
            cache[key] = got  # the most recently used last
    if got is None:
        made = _ruleset(fmt, when, allow_prerelease, data)  # outside the lock: it may be slow
        with _CACHE_LOCK:
            got = cache.pop(key, None) or made  # another thread's, if it was first
            while len(cache) >= MAX_RULESETS:
                cache.pop(next(iter(cache)), None)  # the least recently used
            cache[key] = got
    _remember(fmt, when, allow_prerelease, data, got)
    return got


def _trim(data: Dataset, keep: Ruleset) -> None:
    """Drop the least recently used rulesets (never ``keep``) while their card facts together
    are over :data:`MAX_LEARNED`."""
    cache = _cache(data)
    with _CACHE_LOCK:
        learned = sum(len(rs.facts) for rs in cache.values())
        for key, rs in list(cache.items()):
            if learned <= MAX_LEARNED:
                break
            if rs is not keep:
                cache.pop(key, None)
                learned -= len(rs.facts)


class _Answer(NamedTuple):
    format: Format
    date: date
    allow_prerelease: bool
    data: Dataset
    rules: Ruleset


_LAST: _Answer | None = None
"""The question and answer of the last :func:`ruleset` call."""


def _remember(fmt: Format, when: date, allow: bool, data: Dataset, rs: Ruleset) -> None:
    global _LAST
    _LAST = _Answer(fmt, when, allow, data, rs)


def _ruleset(fmt: Format, when: date, allow_prerelease: bool, data: Dataset) -> Ruleset:
    era = fmt.era_at(when)
    banlist = fmt.banlist_at(when, data)
    upcoming = [b for b in fmt.upcoming(when, data)[:1] if _announced_by(b, when, fmt.tcg_region)]
    notes = list(fmt.require_date(when, data))
    if banlist is None and fmt.has_banlists():
        notes.append(f"no {fmt.name} ban list is in force on {when}: none was checked")
    warning = "; ".join(notes) if notes else None
    variants = (
        whitelist_variants(banlist, data.cards) if banlist is not None and banlist.whitelist else {}
    )
    rs = Ruleset(
        fmt, when, era, banlist, upcoming, allow_prerelease, date_warning=warning, variants=variants
    )
    rs.banlist_ref = (
        BanlistRef(banlist.name, banlist.effective_in(fmt.tcg_region))
        if banlist is not None
        else None
    )
    rs.sizes_allowed = tuple(
        frozenset(n for n in range(MAX_CARDS + 1) if rule.allows(n))
        for rule in (era.main, era.extra, era.side)
    )
    rs.point_cap = _point_cap(rs)
    return rs


_SECTIONS = (Section.MAIN, Section.EXTRA, Section.SIDE)


def _count_in_python(tally: dict[_Key | None, int], keys: Iterable[_Key | None]) -> None:
    for key in keys:
        tally[key] = tally.get(key, 0) + 1


_count_elements: Callable[[dict[_Key | None, int], Iterable[_Key | None]], None] = getattr(
    collections, "_count_elements", _count_in_python
)
"""Add one to ``tally[k]`` for each ``k``: the C loop behind :class:`collections.Counter`
(without a Counter's per-call overhead), or the same loop in Python where it is missing."""


def _tally(rs: Ruleset, sections: tuple[tuple[DeckCard, ...], ...]) -> dict[_Key | None, int]:
    """Copies per :attr:`Ruleset.keys` key over the deck's sections (None: passcodes not met)."""
    tally: dict[_Key | None, int] = {}
    main, extra, side = rs.keys  # (three calls written out: a loop costs a tenth more)
    _count_elements(tally, map(main.get, map(_PASSCODE, sections[0])))
    _count_elements(tally, map(extra.get, map(_PASSCODE, sections[1])))
    _count_elements(tally, map(side.get, map(_PASSCODE, sections[2])))
    return tally


def _learn(rs: Ruleset, sections: tuple[tuple[DeckCard, ...], ...]) -> list[DeckCard]:
    """Work out the facts of the deck's cards new to ``rs``; return the first copy per section
    of each passcode that names no card (in deck order)."""
    unknown: list[DeckCard] = []
    facts_of = rs.facts
    for keys, cards in zip(rs.keys, sections, strict=True):
        missing: set[int] = set()
        for dc in cards:
            code = dc.passcode
            if code in keys or code in missing:
                continue
            if dc.card is not None:
                rs.card_facts(dc.card)
            if code in facts_of:
                rs.index_keys(code, facts_of[code])  # met by a thread still indexing it
            else:
                missing.add(code)
                unknown.append(dc)
    return unknown


@dataclass(slots=True)
class Context:
    """What the rules read: the deck, the ruleset, section sizes, the cards that need a look.

    The rules that look at every card (copies, list statuses) read the deck's cards through
    :meth:`groups_of` and :attr:`distinct`, built on first use: most decks need neither in full.
    """

    deck: Deck
    rules: Ruleset
    sizes: dict[Section, int]
    """Cards counted toward each section's size."""
    unknown: list[DeckCard] = field(default_factory=list)
    """The first copy of each unknown passcode per section."""
    flagged: list[tuple[DeckCard, CardFacts]] = field(default_factory=list)
    """The first copy (with its facts) of each card whose facts ask for attention in its
    section (:attr:`CardFacts.attention`): the per-card rules read only these."""
    listed: set[str] = field(default_factory=set)
    """Limit names that a card on the list in force counts toward, with more copies than the
    list may allow (in no order; rules read them through :meth:`groups_of`, which keeps deck
    order and tells the listed cards)."""
    crowded: list[str] = field(default_factory=list)
    """Limit names with more copies than the copy limit (in no order, as :attr:`listed`)."""
    changing: set[str] = field(default_factory=set)
    """Limit names whose copies an upcoming list may cut (in no order, as :attr:`listed`)."""
    skills: int = 0
    """Skill cards (copies) over Main + Extra + Side."""
    points: int | None = None
    """The deck's point total (formats with a point cap), else None."""
    _sections: list[tuple[Counter[int], dict[int, DeckCard]]] | None = None
    _distinct: list[tuple[DeckCard, CardFacts]] | None = None
    _groups: tuple[dict[str, list[DeckCard]], dict[str, list[CardFacts]]] | None = None

    @property
    def era(self) -> Era:
        """The era in force."""
        return self.rules.era

    def sections(self) -> list[tuple[Counter[int], dict[int, DeckCard]]]:
        """Per section: copies per passcode (in order of first appearance) and first copies."""
        got = self._sections
        if got is None:
            got = []
            for cards in (self.deck.main, self.deck.extra, self.deck.side):
                backwards = cards[::-1]
                firsts = dict(zip(map(_PASSCODE, backwards), backwards, strict=True))
                got.append((Counter(map(_PASSCODE, cards)), firsts))
            self._sections = got
        return got

    @property
    def distinct(self) -> list[tuple[DeckCard, CardFacts]]:
        """The first copy of each known card per section, with its facts, in deck order."""
        got = self._distinct
        if got is None:
            facts_of = self.rules.facts
            got = [(firsts[c], facts_of[c]) for counts, firsts in self.sections()
                   for c in counts if c in facts_of]  # fmt: skip
            self._distinct = got
        return got

    def groups_of(
        self, names: Iterable[str] | None = None
    ) -> tuple[dict[str, list[DeckCard]], dict[str, list[CardFacts]]]:
        """Copies (Main + Extra + Side, deck cards only) and the distinct cards' facts per limit
        name, for ``names`` (all when None), in deck order.

        The copies of one record in a section may be one :class:`DeckCard` repeated: read
        their number and the first.
        """
        if names is None and self._groups is not None:
            return self._groups
        wanted = None if names is None else set(names)
        facts_of, names_of = self.rules.facts, self.rules.names
        if wanted is not None:
            return self._few_groups(wanted)
        groups: dict[str, list[DeckCard]] = {}
        facts_by: dict[str, list[CardFacts]] = {}
        for counts, firsts in self.sections():
            for code, n in counts.items():
                name = names_of.get(code)
                if name is None or (wanted is not None and name not in wanted):
                    continue
                if name in groups:
                    groups[name] += [firsts[code]] * n
                    facts_by[name].append(facts_of[code])
                else:
                    groups[name] = [firsts[code]] * n
                    facts_by[name] = [facts_of[code]]
        if names is None:
            self._groups = (groups, facts_by)
        return groups, facts_by

    def _few_groups(
        self, wanted: set[str]
    ) -> tuple[dict[str, list[DeckCard]], dict[str, list[CardFacts]]]:
        """:meth:`groups_of` a few names: their passcodes counted and found in C."""
        facts_of, names_of = self.rules.facts, self.rules.names
        decks = (self.deck.main, self.deck.extra, self.deck.side)
        entries = []
        passcodes = [list(map(_PASSCODE, cards)) for cards in decks]
        by_name = self.rules.codes_by_name
        targets = {code for name in wanted for code in by_name.get(name, ())}
        for index, codes in enumerate(passcodes):
            # the passcodes of a wanted name in this section, found in C
            for code in targets.intersection(codes):
                pos = codes.index(code)
                entries.append((index, pos, names_of[code], decks[index][pos], codes.count(code)))
        entries.sort(key=lambda e: (e[0], e[1]))
        groups: dict[str, list[DeckCard]] = {}
        facts_by: dict[str, list[CardFacts]] = {}
        for _, _, name, first, n in entries:
            facts = facts_of[first.passcode]
            if name in groups:
                groups[name] += [first] * n
                facts_by[name].append(facts)
            else:
                groups[name] = [first] * n
                facts_by[name] = [facts]
        return groups, facts_by

    @property
    def groups(self) -> dict[str, list[DeckCard]]:
        """Copies per limit name (Main + Extra + Side), deck cards only."""
        return self.groups_of()[0]

    @property
    def group_facts(self) -> dict[str, list[CardFacts]]:
        """The facts of the distinct cards of each group (same keys as :attr:`groups`)."""
        return self.groups_of()[1]


Check = Callable[[Context], Iterator[Violation]]
"""One rule's check: every violation it finds in a deck."""


def _v(
    code: Code,
    message: str,
    dc: DeckCard | None = None,
    *,
    severity: Severity = Severity.ERROR,
    section: str | None = None,
    found: int | None = None,
    allowed: int | None = None,
    name: str | None = None,
    passcode: int | None = None,
) -> Violation:
    """A violation; where it is (section, passcode, card name, line) comes from ``dc`` unless
    given."""
    if dc is None:
        return Violation(code, severity, message, section, passcode, name, found, allowed)
    if name is None and dc.card is not None:
        name = dc.card.name
    return Violation(
        code, severity, message, _SECTION_NAME[dc.section] if section is None else section,
        dc.passcode if passcode is None else passcode, name, found, allowed, dc.line,
    )  # fmt: skip


_SECTION_NAME = {section: section.value for section in Section}
_SECTION_INDEX = {section: index for index, section in enumerate(_SECTIONS)}


# --- rules ------------------------------------------------------------------------------


def check_read_findings(ctx: Context) -> Iterator[Violation]:
    """Lines the reader could not resolve: unknown and ambiguous names, unreadable lines."""
    for f in ctx.deck.findings:
        if f.code is FindingCode.UNKNOWN_CARD and f.passcode is not None:
            continue  # reported by check_unknown_cards from the card itself
        code = {
            FindingCode.UNKNOWN_CARD: Code.UNKNOWN_CARD,
            FindingCode.AMBIGUOUS_CARD: Code.AMBIGUOUS_CARD,
            FindingCode.PARSE: Code.PARSE,
            FindingCode.MISSING_SECTIONS: Code.MISSING_SECTIONS,
            FindingCode.PRERELEASE_CODE: Code.PRERELEASE_CODE,
        }[f.code]
        severity = DEFAULT_SEVERITY[code]
        msg = f.message
        if f.suggestions and "did you mean" not in msg:
            msg += "; did you mean: " + ", ".join(f.suggestions[:3]) + "?"
        found = f.count if f.code is not FindingCode.PARSE else None
        yield Violation(
            code, severity, msg, f.section.value if f.section else None,
            f.passcode, f.name, found, None, f.line, f.text,
        )  # fmt: skip


def check_unknown_cards(ctx: Context) -> Iterator[Violation]:
    """Passcodes the card index does not know."""
    for dc in ctx.unknown:
        if dc.card is None:
            copies = sum(1 for c in ctx.deck.section(dc.section) if c.passcode == dc.passcode)
            yield _v(
                Code.UNKNOWN_CARD,
                f"unknown passcode {dc.passcode}: check the code, or remove the line",
                dc,
                name=f"#{dc.passcode}",
                found=copies,
            )


def _cards(n: int, word: str = "card") -> str:
    """``1 card``, ``2 cards``: counts in messages read as sentences."""
    return f"{n} {word if n == 1 else word + 's'}"


def check_sizes(ctx: Context) -> Iterator[Violation]:
    """Main, Extra and Side Deck sizes for the era at the date."""
    rs = ctx.rules
    for index, (section, allowed_sizes) in enumerate(zip(_SECTIONS, rs.sizes_allowed, strict=True)):
        n = ctx.sizes[section]
        if n in allowed_sizes:
            continue
        found = rs.size_findings.get((index, n))
        if found is None:
            found = _size_finding(rs.era, section, n)
            if found is None:
                continue
            if n <= MAX_CARDS:  # what a section of n cards gets is the same for every deck
                rs.size_findings[(index, n)] = found
        code, message, allowed = found
        yield Violation(code, Severity.ERROR, message, section.value, found=n, allowed=allowed)


_SIZE_RULE = {
    Section.MAIN: (Code.MAIN_SIZE, "Main Deck"),
    Section.EXTRA: (Code.EXTRA_SIZE, "Extra Deck"),
    Section.SIDE: (Code.SIDE_SIZE, "Side Deck"),
}


def _size_finding(era: Era, section: Section, n: int) -> tuple[Code, str, int] | None:
    """(code, message, allowed) for a section of ``n`` cards in ``era``; None if it is fine."""
    rule: SizeRule = (era.main, era.extra, era.side)[_SECTION_INDEX[section]]
    if rule.allows(n):
        return None
    if rule.zero_or_exact is not None and n:
        allowed = rule.zero_or_exact
        fix = f"use exactly {_cards(allowed)} or none"
    elif n < rule.min:
        allowed = rule.min
        fix = f"add {rule.min - n}"
    else:
        allowed = rule.max if rule.max is not None else rule.min
        fix = f"remove {n - allowed}"
    code, label = _SIZE_RULE[section]
    return code, f"{label} has {_cards(n)}; {era.name} allows {rule.describe()}: {fix}", allowed


def check_placement(ctx: Context) -> Iterator[Violation]:
    """Extra Deck monsters in the Main Deck, Main Deck cards in the Extra Deck; Tokens; Skills."""
    rs = ctx.rules
    for dc, facts in ctx.flagged:
        zone, section, card = facts.zone, dc.section, dc.card
        if card is None or zone is _RIGHT_ZONE[section]:
            continue  # the usual case: flagged for another rule
        found = _placement(rs, card, zone, section)
        if found is not None:
            yield _v(found[0], found[1], dc)


_RIGHT_ZONE = {Section.MAIN: DeckZone.MAIN, Section.EXTRA: DeckZone.EXTRA, Section.SIDE: None}
"""The zone of the cards that always belong in a section (the Side Deck takes both zones)."""


def check_copies(ctx: Context) -> Iterator[Violation]:
    """At most the copy limit (3) per card name over Main + Extra + Side."""
    limit = ctx.rules.format.copy_limit
    if not ctx.crowded:
        return
    for name, copies in ctx.groups_of(ctx.crowded)[0].items():
        if len(copies) > limit:
            first = copies[0]
            yield _v(
                Code.COPIES,
                f"{len(copies)} copies of {name}; at most {limit} of a card name "
                f"(Main + Extra + Side): remove {len(copies) - limit}",
                first,
                found=len(copies),
                allowed=limit,
                name=name,
            )


def check_treated_as(ctx: Context) -> Iterator[Violation]:
    """Note the cards counted toward another name's limit ("counted as Harpie Lady")."""
    seen: set[int] = set()
    for dc, _ in ctx.flagged:
        card = dc.card
        if card is not None and card.treated_as and card.passcode not in seen:
            seen.add(card.passcode)
            yield _v(
                Code.TREATED_AS,
                f"{card.name} is always treated as {card.treated_as}: counted as {card.treated_as}",
                dc,
                severity=Severity.NOTE,
            )


def check_banlist(ctx: Context) -> Iterator[Violation]:
    """Forbidden, Limited and Semi-Limited statuses of the list in force (whitelists too)."""
    rs = ctx.rules
    bl = rs.banlist
    if bl is None or bl.points:
        return
    whitelist = bl.whitelist
    if not ctx.listed:
        return
    groups, group_facts = ctx.groups_of(ctx.listed)
    for name, copies in groups.items():
        facts = group_facts[name]
        if len(facts) == 1:
            one = facts[0].status
            if one is None and not whitelist:
                continue
            listed = [] if one is None else [one]
        else:
            listed = [f.status for f in facts if f.status is not None]
        first = copies[0]
        if not listed:
            if whitelist:
                yield _v(
                    Code.NOT_IN_POOL,
                    f"{name} is not on the {bl.name} card list: remove it",
                    first,
                    found=len(copies),
                    allowed=0,
                    name=name,
                )
            continue
        status = min(listed)
        if status <= 0:
            yield _v(
                Code.FORBIDDEN,
                f"{name} is Forbidden on the {bl.name} list: remove all {len(copies)}",
                first,
                found=len(copies),
                allowed=0,
                name=name,
            )
        elif len(copies) > status and facts[0].group is None:  # a group's rule counts those
            yield _v(
                Code.OVER_LIMIT,
                f"{name} is {status_word(status)} ({status}) on the {bl.name} "
                f"list; the deck has {len(copies)}: remove {len(copies) - status}",
                first,
                found=len(copies),
                allowed=status,
                name=name,
            )


def check_limit_groups(ctx: Context) -> Iterator[Violation]:
    """Speed Duel limit groups: a deck holds at most N cards from all of Limited N together.

    Every copy counts, over Main + Extra + Side, Skill cards included (Skills are listed too).
    """
    bl = ctx.rules.banlist
    if bl is None or not bl.groups:
        return
    members: dict[int, dict[str, list[DeckCard]]] = {}
    facts_of = ctx.rules.facts
    for dc in ctx.deck:
        facts = facts_of.get(dc.passcode) if dc.card is not None else None
        if facts is not None and facts.group is not None:
            members.setdefault(facts.group, {}).setdefault(facts.limit_name, []).append(dc)
    for group, by_name in sorted(members.items()):
        total = sum(len(copies) for copies in by_name.values())
        if total <= group:
            continue
        listed = ", ".join(f"{name} x{len(copies)}" for name, copies in by_name.items())
        first = next(iter(by_name.values()))[0]
        yield _v(
            Code.LIMIT_GROUP,
            f"{total} cards from the Limited {group} group of the {bl.name} list ({listed}); "
            f"at most {group} in total from that group: remove {total - group}",
            first,
            found=total,
            allowed=group,
            name=f"Limited {group}",
        )


def check_pool(ctx: Context) -> Iterator[Violation]:
    """Card pool: released in the format's region by the date; unofficial and pre-release cards.

    What it says about a card is worked out once per ruleset (:attr:`CardFacts.pool_finding`).
    """
    for dc, facts in ctx.flagged:
        found = facts.pool_finding
        if found is not None:
            yield _v(found[0], found[2], dc, severity=found[1])


def check_points(ctx: Context) -> Iterator[Violation]:
    """Genesys: the point total over Main + Extra + Side must not exceed the cap."""
    rs = ctx.rules
    cap = rs.point_cap  # worked out once per ruleset
    if cap is None:
        return
    total = ctx.points or 0
    if total > cap:
        yield _v(
            Code.POINTS_OVER_CAP,
            f"the deck has {_cards(total, 'point')}; the cap is {cap}: "
            f"cut {_cards(total - cap, 'point')}",
            found=total,
            allowed=cap,
        )


def _point_cap(rs: Ruleset) -> int | None:
    if rs.format.point_cap is not None:
        return rs.format.point_cap
    if rs.banlist is not None and rs.banlist.points:
        cap = rs.banlist.point_cap
        return cap if cap is not None else DEFAULT_POINT_CAP
    return None


def check_forbidden_types(ctx: Context) -> Iterator[Violation]:
    """Card types the format bans outright (Genesys: Link and Pendulum monsters), once per card.

    What it says about a card is worked out once per ruleset (:attr:`CardFacts.forbidden_type`).
    """
    seen: set[int] = set()
    for dc, facts in ctx.flagged:
        message = facts.forbidden_type
        if message is not None and dc.passcode not in seen:
            seen.add(dc.passcode)
            yield _v(Code.FORBIDDEN_TYPE, message, dc)


def check_legends(ctx: Context) -> Iterator[Violation]:
    """Rush Duel: Legend cards in Main + Extra, 1 in total before 2023, then 1 of each kind."""
    fmt = ctx.rules.format
    limits = fmt.legend_limits_at(ctx.rules.date)
    if not limits:
        return
    if not any(f.legend for _, f in ctx.distinct):
        return
    # Main + Extra only: the Side Deck may hold any Legend cards (Rush tournament rules)
    legends = [dc for dc in ctx.deck if dc.card is not None and dc.card.is_legend
               and dc.section is not Section.SIDE]  # fmt: skip
    if "total" in limits:
        if len(legends) > limits["total"]:
            yield _v(
                Code.LEGEND_LIMIT,
                f"{_cards(len(legends), 'Legend card')}; at most {limits['total']} in total on "
                f"{ctx.rules.date}: remove {len(legends) - limits['total']}",
                legends[0],
                found=len(legends),
                allowed=limits["total"],
                name=None,
            )
        return
    for kind in (CardKind.MONSTER, CardKind.SPELL, CardKind.TRAP):
        some = [dc for dc in legends if dc.card is not None and dc.card.kind is kind]
        allowed = limits.get(kind.value.lower(), 1)
        if len(some) > allowed:
            yield _v(
                Code.LEGEND_LIMIT,
                f"{_cards(len(some), f'Legend {kind.value} card')}; at most {allowed}: "
                f"remove {len(some) - allowed}",
                some[0],
                found=len(some),
                allowed=allowed,
                name=None,
            )


def _skill_pool(ctx: Context) -> Iterator[Violation]:
    """Each Skill of a Speed Duel deck: on the list in force, and released by the date."""
    rs = ctx.rules
    seen: set[int] = set()
    for dc, facts in ctx.flagged:  # a Skill (no deck card) always needs a look: all are here
        if not facts.skill or dc.card is None or dc.passcode in seen:
            continue
        seen.add(dc.passcode)
        why = skill_problem(dc.card, rs.banlist, rs.date, tcg_region(rs.format.tcg_region))
        if why is not None:
            yield _v(Code.NOT_IN_POOL, f"{why}: remove it", dc, name=dc.card.name)


def check_skills(ctx: Context) -> Iterator[Violation]:
    """Speed Duel: exactly the format's number of Skill cards (one)."""
    need = ctx.rules.format.skill_cards
    if not need:
        return
    yield from _skill_pool(ctx)
    n = ctx.skills
    if n != need:
        fix = "add one" if n < need else f"keep {need}, remove {n - need}"
        yield _v(
            Code.SKILL_COUNT,
            f"the deck has {_cards(n, 'Skill card')}; {ctx.rules.format.name} needs exactly "
            f"{need}: {fix}",
            found=n,
            allowed=need,
        )


def check_upcoming(ctx: Context) -> Iterator[Violation]:
    """Warn about cards whose status changes in a list announced for after the date."""
    rs = ctx.rules
    if not ctx.changing:
        return
    groups, group_facts = ctx.groups_of(ctx.changing)
    for index, future in enumerate(rs.upcoming):
        if future.points:
            continue
        for name, copies in groups.items():
            facts = group_facts[name]
            now = facts[0].status
            now = 3 if now is None else now
            later_vals = [v for v in (f.later[index] for f in facts) if v is not None]
            later = min(later_vals) if later_vals else (0 if future.whitelist else 3)
            if later < now and len(copies) > later:
                word = status_word(later)
                yield _v(
                    Code.UPCOMING_CHANGE,
                    f"{name} becomes {word} on {future.effective_in(rs.format.tcg_region)} "
                    f"({future.name}); the deck "
                    f"has {len(copies)}",
                    copies[0],
                    severity=Severity.WARNING,
                    found=len(copies),
                    allowed=later,
                    name=name,
                )


def check_date(ctx: Context) -> Iterator[Violation]:
    """Warn when the date is outside the format's list data (before the first, after the end)."""
    if ctx.rules.date_warning:
        yield _v(Code.DATE_OUT_OF_RANGE, ctx.rules.date_warning, severity=Severity.WARNING)


_ODD_FLAGS = FLAG_UNOFFICIAL | FLAG_PRERELEASE
_PASSCODE = attrgetter("passcode")


def _always(rs: Ruleset) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of validation: its check, what a deck must have for it to find anything, and
    when it applies at all (a format and date without a list, say, has no list to check)."""

    check: Check
    needs: Need | None = None
    """None: the check may find something in any deck."""
    applies: Callable[[Ruleset], bool] = _always
    """Asked once per ruleset (its answer is memoised with the rule selection)."""


def _has_list(rs: Ruleset) -> bool:
    return rs.banlist is not None and not rs.banlist.points


RULES: tuple[Rule, ...] = (
    Rule(check_read_findings, Need.FINDINGS),
    Rule(check_unknown_cards, Need.UNKNOWN),
    Rule(check_sizes, Need.BAD_SIZE),
    Rule(check_placement, Need.FLAGGED),
    Rule(check_copies, Need.CROWDED),
    Rule(check_banlist, Need.LISTED, _has_list),
    Rule(check_limit_groups, None, lambda rs: rs.banlist is not None and bool(rs.banlist.groups)),
    Rule(check_pool, Need.FLAGGED),
    Rule(check_forbidden_types, Need.FLAGGED, lambda rs: bool(rs.format.forbidden_types)),
    Rule(check_points, None, lambda rs: rs.point_cap is not None),
    Rule(check_legends, None, lambda rs: bool(rs.format.legend_limits_at(rs.date))),
    Rule(check_skills, None, lambda rs: bool(rs.format.skill_cards)),
    Rule(check_upcoming, Need.CHANGING, lambda rs: bool(rs.upcoming)),
    Rule(check_treated_as, Need.FLAGGED),
    Rule(check_date, None, lambda rs: bool(rs.date_warning)),
)
"""Every rule, in report order."""


def validate(
    deck: Deck,
    format: Format | str = "tcg",
    date: date | None = None,
    *,
    allow_prerelease: bool = False,
    path: str | None = None,
    data: Dataset | None = None,
    region: TcgRegion | str | None = None,
) -> Report:
    """Check ``deck`` against ``format`` at ``date`` (default today) and report every violation.

    ``format`` is a :class:`~deckcheck.rule.format.Format` or a registered name or alias (``tcg``,
    ``goat``, ``lp4000``...) of ``data`` (default: the active dataset). Pre-release codes are
    errors unless ``allow_prerelease``. ``region`` (``na`` or ``eu``) picks whose effective
    dates choose a TCG list where North America and Europe differ; None keeps the format's
    own (:attr:`~deckcheck.rule.format.Format.tcg_region`, North America unless a format file
    says).
    Raises :class:`~deckcheck.error.DateRangeError` for a
    date before the format's first list (nothing could be checked); a date after the data ends
    is a ``date-out-of-range`` warning.

    The steps: the ruleset of the format at the date (:func:`ruleset`), one counting pass over
    the cards (:func:`_count`), the cards that need a look (:func:`_looks`), the names over a
    limit (:func:`_over_limits`), then the rules the deck can trigger (:meth:`Ruleset.rules`).
    """
    ds = data if data is not None else _active()
    when = date if date is not None else _today()
    front = _FRONT
    if (
        front is not None
        and front[0] is ds
        and (front[1] is format or (type(format) is str and front[1] == format))
        and front[2] == when
        and front[3] is allow_prerelease
        and region is None
    ):
        fmt, rs, with_skills = front[4], front[5], front[6]  # a batch asks this 1000s of times
    else:
        fmt = ds.format(format) if isinstance(format, str) else format
        if region is not None:
            fmt = fmt.in_region(region)
        rs = ruleset(fmt, when, allow_prerelease, ds)  # (which keeps its cache's order)
        with_skills = uses_skills(fmt)
        if region is None:
            _remember_front((ds, format, when, allow_prerelease, fmt, rs, with_skills))
    if with_skills:  # Speed Duel, Duel Links: a name that is a Skill's means the Skill
        deck = prefer_skills(deck, ds.cards)
    sections = (deck.main, deck.extra, deck.side)
    tally, unknown = _count(rs, sections, ds)
    sizes = {Section.MAIN: len(deck.main), Section.EXTRA: len(deck.extra),
             Section.SIDE: len(deck.side)}  # fmt: skip
    flagged, skills = _looks(rs, sections, tally, sizes)
    per_name: dict[str, int] = tally  # type: ignore[assignment]  # every key is a name now
    crowded, listed, changing = _over_limits(rs, per_name)
    for f in deck.findings:
        # a line naming no card still asked for copies: count them, so one typo is one problem
        if f.passcode is None and f.section is not None and f.code is not FindingCode.PARSE:
            sizes[f.section] += f.count
    points: int | None = None
    point_cards: tuple[PointCard, ...] = ()
    if rs.point_cap is not None:
        every = map(_PASSCODE, chain(*sections))
        points = sum(map(rs.points.get, every, repeat(0))) if rs.points else 0
        point_cards = points_by_card(chain(*sections), rs.points) if points else ()
    allowed = rs.sizes_allowed
    bad_size = not (sizes[Section.MAIN] in allowed[0] and sizes[Section.EXTRA] in allowed[1]
                    and sizes[Section.SIDE] in allowed[2])  # fmt: skip
    has: Has = (bool(deck.findings), bool(unknown), bad_size, bool(flagged), bool(crowded),
                bool(listed), bool(changing))  # fmt: skip
    checks = rs.rules(has)
    violations: list[Violation] = []
    if checks:  # (a clean deck under a plain list: nothing to ask)
        ctx = Context(deck, rs, sizes, unknown, flagged, listed, crowded, changing, skills,
                      points)  # fmt: skip
        violations = [v for check in checks for v in check(ctx)]
        # deck-wide findings first (sizes, dates), then the rest in file-line order
        if len(violations) > 1:
            violations.sort(key=_file_order)
    return _report(deck, rs, sizes, violations, path, points, ds, point_cards)


_Front = tuple["Dataset", "Format | str", "date", bool, "Format", "Ruleset", bool]
_FRONT: _Front | None = None
"""The last :func:`validate` call's question (data, format as given, date, pre-releases) and
its answer (the format, its ruleset, whether it uses Skills): a batch asks it thousands of
times. (One question only, as :func:`ruleset` remembers one: a ruleset in use stays the most
recent of its dataset's cache, which keeps the cache's memory bound.)"""


def _remember_front(front: _Front) -> None:
    global _FRONT
    _FRONT = front


def _count(
    rs: Ruleset, sections: tuple[tuple[DeckCard, ...], ...], ds: Dataset
) -> tuple[dict[_Key | None, int], list[DeckCard]]:
    """The one pass over the cards: copies counted per limit name (one dict lookup and one
    count per card, in C); a card that needs a look in its section counts under a _Look
    instead. Cards new to the ruleset are learnt first; returns the tally and the first copy
    of each unknown passcode per section."""
    tally = _tally(rs, sections)
    unknown: list[DeckCard] = []
    if None in tally:  # cards new to this ruleset, or unknown passcodes
        unknown = _learn(rs, sections)
        _trim(ds, rs)
        tally = _tally(rs, sections)
        tally.pop(None, None)
    return tally, unknown


def _looks(
    rs: Ruleset,
    sections: tuple[tuple[DeckCard, ...], ...],
    tally: dict[_Key | None, int],
    sizes: dict[Section, int],
) -> tuple[list[tuple[DeckCard, CardFacts]], int]:
    """The first copy (and facts) of each card that needs a look, in deck order, and the Skill
    cards counted; each look's copies go back to its name in ``tally`` (Speed Duel Skills out
    of the section sizes)."""
    flagged: list[tuple[DeckCard, CardFacts]] = []
    skills = 0
    looks = rs.looks.intersection(tally) if rs.looks else None
    if not looks:
        return flagged, skills
    facts_of = rs.facts
    need: tuple[list[int], list[int], list[int]] = ([], [], [])
    for look in looks:
        need[look.section].append(look.passcode)
        copies = tally.pop(look)
        if look.name is not None:  # count it toward its name after all
            tally[look.name] = tally.get(look.name, 0) + copies
        elif facts_of[look.passcode].skill:  # Skill cards are no deck cards: all are looks
            skills += copies
            if uses_skills(rs.format):  # Speed Duel, Duel Links: Skills are not Main Deck cards
                sizes[_SECTIONS[look.section]] -= copies
    for cards, wanted in zip(sections, need, strict=True):
        if wanted:  # the first copy of each, found in C, in deck order
            codes = list(map(_PASSCODE, cards))
            for pos in sorted(map(codes.index, wanted)):
                flagged.append((cards[pos], facts_of[codes[pos]]))
    return flagged, skills


def _over_limits(rs: Ruleset, per_name: dict[str, int]) -> tuple[list[str], set[str], set[str]]:
    """Names over the copy limit, over what the list in force may allow, and that an upcoming
    list may cut."""
    limit = rs.format.copy_limit
    crowded: list[str] = []
    if per_name and max(per_name.values()) > limit:
        crowded = [n for n, k in per_name.items() if k > limit]
    floor = rs.listed_floor
    listed = {n for n in floor.keys() & per_name.keys() if per_name[n] > floor[n]}
    later = rs.changing_floor
    changing = (
        {n for n in later.keys() & per_name.keys() if per_name[n] > later[n]} if later else set()
    )
    return crowded, listed, changing


def _report(
    deck: Deck, rs: Ruleset, sizes: dict[Section, int], violations: list[Violation],
    path: str | None, points: int | None, ds: Dataset, point_cards: tuple[PointCard, ...] = (),
) -> Report:  # fmt: skip
    """The report of a validated deck."""
    counts = {"main": sizes[Section.MAIN], "extra": sizes[Section.EXTRA],
              "side": sizes[Section.SIDE]}  # fmt: skip
    return Report(  # (by position: a keyword call costs more, once per deck)
        rs.format.id, rs.era.id, rs.date, rs.banlist_ref, counts, tuple(violations),
        path if path is not None else deck.source, points, rs.point_cap, deck.name,
        ds.fingerprint, point_cards,
    )  # fmt: skip


def _file_order(v: Violation) -> int:
    """Sort key of violations: deck-wide ones first, then by the line of the deck file."""
    return -1 if v.line is None else v.line


def _active() -> Dataset:
    return _Dataset.active()


def _today() -> date:
    from datetime import date as _date

    return _date.today()
