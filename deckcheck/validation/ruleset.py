"""A format at a date as validation needs it: the era and lists in force, and a per-card memo.

:func:`ruleset` builds the :class:`Ruleset` of a format at a date once and keeps it on the
dataset (least recently used out, under a lock), so validating many decks is one counting pass
per deck over what the ruleset has already learnt about each card.
"""

from __future__ import annotations

import datetime
import enum
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from datetime import date
from typing import TYPE_CHECKING, NamedTuple

from msgspec import Struct, field

from deckcheck.card import Card, DeckZone
from deckcheck.deck.io.builder import MAX_CARDS
from deckcheck.deck.skills import uses_skills
from deckcheck.rule.banlist.model import DEFAULT_POINT_CAP
from deckcheck.rule.reason import Reason
from deckcheck.validation.fact import CardFacts, Setting, card_facts, whitelist_variants
from deckcheck.validation.report import BanlistRef, Code, Violation

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.rule.banlist import Banlist, TcgRegion
    from deckcheck.rule.format import Era, Format


class Need(enum.IntEnum):
    """What a deck must have for a rule to find anything (a rule declares one, or none when it
    may always find something). The value is the place of the need in a deck's :data:`Has`."""

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
"""What a deck has, one flag per :class:`Need` in order (the key of :attr:`Ruleset.selected`)."""
HAS_ALL: Has = (True,) * 7
"""A deck that has everything: every rule that applies runs."""


class Look(NamedTuple):
    """The tally key of a card that needs a look in a section (see :attr:`Ruleset.keys`)."""

    name: str | None
    """The limit name its copies count toward (None: not a deck card, they count toward none)."""
    passcode: int
    section: int
    """0 Main, 1 Extra, 2 Side."""


Key = str | Look
"""What validation counts a card's copies under: its limit name, or a :class:`Look`."""

AnyCheck = Callable[..., Iterator[Violation]]
"""A rule's check, as the ruleset memoises the selection (the rules module types it)."""


class Ruleset(Struct):
    """A format at a date, with the era and list in force and a per-card memo."""

    setting: Setting
    """The format, date, lists in force and options the card facts depend on."""
    era: Era
    facts: dict[int, CardFacts] = field(default_factory=dict)
    date_warning: str | None = None
    selected: dict[Has, tuple[AnyCheck, ...]] = field(default_factory=dict)
    """The checks that can find something, per deck shape (filled by validation)."""
    sizes_allowed: tuple[frozenset[int], ...] = ()
    """Per section (Main, Extra, Side): the sizes the era allows, up to the card limit."""
    banlist_ref: BanlistRef | None = None
    """The list in force, as reports name it."""
    point_cap: int | None = None
    """The point cap in force (point formats), else None."""
    skills: bool = False
    """Whether the format's decks hold a Skill (Speed Duel, Duel Links; see
    :func:`~deckcheck.deck.skills.uses_skills`)."""
    names: dict[int, str] = field(default_factory=dict)
    """Passcode -> limit name, for the deck cards among :attr:`facts`."""
    codes_by_name: dict[str, list[int]] = field(default_factory=dict)
    """Limit name -> the passcodes among :attr:`facts` that count toward it."""
    listed_floor: dict[str, int] = field(default_factory=dict)
    """Limit name -> the fewest copies the list in force allows any of the name's deck cards
    among :attr:`facts` (a card missing from a whitelist: 0), for names the list has a word
    on: a deck with no more copies than that is within the list whichever of those cards it
    holds, and names not here are not on the list at all."""
    keys: tuple[dict[int, Key], dict[int, Key], dict[int, Key]] = field(
        default_factory=lambda: ({}, {}, {})
    )
    """Per section (Main, Extra, Side): passcode -> what validation counts its copies under:
    the limit name, or a :class:`Look` when :attr:`CardFacts.attention` asks for a look in
    that section (every passcode among :attr:`facts`; set last, so a passcode found here has
    its facts and every other index entry)."""
    looks: set[Look] = field(default_factory=set)
    """Every :class:`Look` among :attr:`keys`."""
    changing_floor: dict[str, int] = field(default_factory=dict)
    """For the deck cards among :attr:`facts` that an :attr:`upcoming` list limits to fewer than
    3 copies: limit name -> the fewest copies it allows any of them (a deck with no more than
    that has nothing to change)."""
    points: dict[int, int] = field(default_factory=dict)
    """Passcode -> points of one copy, for the cards among :attr:`facts` with points."""
    size_findings: dict[tuple[int, int], tuple[Code, str, int, tuple[tuple[str, object], ...]]] = (
        field(default_factory=dict)
    )
    """(section index, cards) -> what the size rule says (code, message, allowed, facts)."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    """Held while a card's facts are learnt and indexed: two threads validating at once must
    not interleave the read-compare-write of the floors (one would skip a list check)."""

    def __repr__(self) -> str:
        # the memo's tables can hold thousands of cards: a repr names what the ruleset is for
        return (
            f"Ruleset(setting={self.setting!r}, era={self.era!r}, facts=<{len(self.facts)} cards>)"
        )

    @property
    def format(self) -> Format:
        """The format."""
        return self.setting.format

    @property
    def date(self) -> datetime.date:
        """The date."""
        return self.setting.date

    @property
    def banlist(self) -> Banlist | None:
        """The list in force (None: the format has none at the date)."""
        return self.setting.banlist

    @property
    def upcoming(self) -> tuple[Banlist, ...]:
        """The lists announced for after the date (at most one)."""
        return self.setting.upcoming

    @property
    def allow_prerelease(self) -> bool:
        """Whether pre-release codes are warnings rather than errors."""
        return self.setting.allow_prerelease

    def card_facts(self, card: Card) -> CardFacts:
        """The memoised facts of one card record (learnt under :attr:`lock`)."""
        got = self.facts.get(card.passcode)
        if got is not None:
            return got
        with self.lock:
            got = self.facts.get(card.passcode)
            if got is not None:
                return got  # another thread learnt it meanwhile
            got = card_facts(self.setting, card)
            # the indexes first, then the memo: whoever finds the facts finds them indexed
            self._index_limits(card.passcode, got)
            self.facts[card.passcode] = got
            self.index_keys(card.passcode, got)
            return got

    def _index_limits(self, code: int, got: CardFacts) -> None:
        """Enter a card's name, list floors and points in the indexes."""
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

    def index_keys(self, code: int, facts: CardFacts) -> None:
        """Enter ``code`` in :attr:`keys` (and :attr:`looks`); doing it twice does no harm."""
        name = facts.limit_name if facts.zone is not DeckZone.NONE else None
        for section, (look, keys) in enumerate(zip(facts.attention, self.keys, strict=True)):
            key: Key
            if look or name is None:
                key = Look(name, code, section)
                self.looks.add(key)
            else:
                key = name
            keys[code] = key


def _lower(floor: dict[str, int], name: str, copies: int) -> None:
    """Keep the fewest copies allowed per name in ``floor``."""
    if copies < floor.get(name, copies + 1):
        floor[name] = copies


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
"""What a ruleset is cached under on its dataset: (format, date, allow_prerelease)."""
RulesetCache = OrderedDict[RulesetKey, Ruleset]
"""A dataset's rulesets, least recently used first (:meth:`Dataset.ruleset_cache`)."""
_CACHE_LOCK = threading.Lock()
"""Held while a ruleset cache is read and reordered (a pop and a put are one step)."""


def _cache(data: Dataset) -> RulesetCache:
    """The typed ruleset cache of a dataset (the data stage keeps it, untyped, for us)."""
    cache: RulesetCache = data.ruleset_cache()  # (no cast(): a call per deck)
    return cache


def ruleset(fmt: Format, when: date, allow_prerelease: bool, data: Dataset) -> Ruleset:
    """The ruleset of a format at a date, cached on the dataset (least recently used out)."""
    cache: RulesetCache = data.ruleset_cache()  # (typed here: validation asks once per deck)
    key: RulesetKey = (fmt, when, allow_prerelease)
    with _CACHE_LOCK:
        got = cache.get(key)
        if got is not None:
            cache.move_to_end(key)  # the most recently used last
            return got
    made = build(fmt, when, allow_prerelease, data)  # outside the lock: it may be slow
    with _CACHE_LOCK:
        got = cache.pop(key, None) or made  # another thread's, if it was first
        while len(cache) >= MAX_RULESETS:
            cache.pop(next(iter(cache)), None)  # the least recently used
        cache[key] = got
    return got


def trim(data: Dataset, keep: Ruleset) -> None:
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


def build(fmt: Format, when: date, allow_prerelease: bool, data: Dataset) -> Ruleset:
    """A new ruleset of a format at a date (nothing learnt yet): era, lists, sizes, cap."""
    era = fmt.era_at(when)
    banlist = fmt.banlist_at(when, data)
    upcoming = tuple(
        b for b in fmt.upcoming(when, data)[:1] if _announced_by(b, when, fmt.tcg_region)
    )
    notes = list(fmt.require_date(when, data))
    if banlist is None and fmt.has_banlists():
        notes.append(Reason("no-list", format=fmt.name, date=when))
    variants = (
        whitelist_variants(banlist, data.cards) if banlist is not None and banlist.whitelist else {}
    )
    setting = Setting(fmt, when, banlist, upcoming, allow_prerelease, variants)
    # one note keeps its reason (translated from its facts); several are joined in English
    warning = (notes[0] if len(notes) == 1 else "; ".join(notes)) if notes else None
    rs = Ruleset(setting, era, date_warning=warning)
    if banlist is not None:
        rs.banlist_ref = BanlistRef(banlist.name, banlist.effective_in(fmt.tcg_region))
    rs.sizes_allowed = tuple(
        frozenset(n for n in range(MAX_CARDS + 1) if rule.allows(n))
        for rule in (era.main, era.extra, era.side)
    )
    rs.point_cap = _point_cap(fmt, banlist)
    rs.skills = uses_skills(fmt)
    return rs


def _point_cap(fmt: Format, banlist: Banlist | None) -> int | None:
    """The point cap in force: the format's own, else a points list's (or the default)."""
    if fmt.point_cap is not None:
        return fmt.point_cap
    if banlist is not None and banlist.points:
        cap = banlist.point_cap
        return cap if cap is not None else DEFAULT_POINT_CAP
    return None
