"""The validation engine: every reason a deck is not legal in a format at a date.

:func:`validate` builds a :class:`~deckcheck.validation.report.Report` in named steps: the
:class:`~deckcheck.validation.ruleset.Ruleset` of the format at the date (cached on the
dataset), one counting pass over the cards (:func:`_count`), the cards that need a look
(:func:`_looks`), the names over a limit (:func:`_over_limits`), then the rules the deck can
trigger (:func:`deckcheck.validation.check.select`), each a small function of a
:class:`~deckcheck.validation.context.Context`. Nothing stops at the first problem.
"""

from __future__ import annotations

import collections
import datetime
from collections.abc import Callable, Iterable
from datetime import date
from itertools import chain, repeat
from typing import TYPE_CHECKING

from deckcheck.data.dataset import Dataset
from deckcheck.deck.model import Deck, DeckCard, FindingCode, Section
from deckcheck.deck.skills import prefer_skills
from deckcheck.validation.check import select
from deckcheck.validation.context import SECTIONS, Check, Context
from deckcheck.validation.fact import CardFacts
from deckcheck.validation.points import points_by_card
from deckcheck.validation.report import PointCard, Report, Violation
from deckcheck.validation.ruleset import Has, Key, Ruleset, ruleset, trim

if TYPE_CHECKING:
    from deckcheck.rule.banlist import TcgRegion
    from deckcheck.rule.format import Format

Sections = tuple[tuple[DeckCard, ...], ...]
"""A deck's Main, Extra and Side cards."""
Codes = tuple[list[int], ...]
"""The passcodes of a deck's Main, Extra and Side cards, in deck order."""
_MAIN, _EXTRA, _SIDE = SECTIONS  # (a module's name is read faster than an enum class's member)


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
    ``goat``, ``lp4000``...) of ``data`` (default: the active dataset: this is a public entry
    point, the one place validation picks the data in use). Pre-release codes are errors unless
    ``allow_prerelease``. ``region`` (``na`` or ``eu``) picks whose effective dates choose a TCG
    list where North America and Europe differ; None keeps the format's own
    (:attr:`~deckcheck.rule.format.Format.tcg_region`, North America unless a format file says).
    Raises :class:`~deckcheck.error.DateRangeError` for a date before the format's first list
    (nothing could be checked); a date after the data ends is a ``date-out-of-range`` warning.
    """
    if data is None:
        data = Dataset.active()
    fmt = data.format(format) if isinstance(format, str) else format
    if region is not None:
        fmt = fmt.in_region(region)
    rs = ruleset(fmt, date if date is not None else today(), allow_prerelease, data)
    if rs.skills:  # Speed Duel, Duel Links: a name that is a Skill's means the Skill
        deck = prefer_skills(deck, data.cards)
    sections = (deck.main, deck.extra, deck.side)
    tally, unknown, codes = _count(rs, sections, data)
    sizes = {_MAIN: len(deck.main), _EXTRA: len(deck.extra), _SIDE: len(deck.side)}
    flagged, skills = _looks(rs, sections, codes, tally, sizes)
    per_name: dict[str, int] = tally  # type: ignore[assignment]  # every key is a name now
    crowded, listed, changing = _over_limits(rs, per_name)
    if deck.findings:
        _count_unnamed(deck, sizes)
    points, point_cards = _points(rs, sections, codes) if rs.point_cap is not None else (None, ())
    checks = select(rs, _has(deck, rs, sizes, unknown, flagged, crowded, listed, changing))
    violations: list[Violation] = []
    if checks:  # (a clean deck under a plain list: nothing to ask)
        ctx = Context(
            deck,
            rs,
            sizes,
            per_name,
            codes,
            unknown,
            flagged,
            listed,
            crowded,
            changing,
            skills,
            points,
        )
        violations = _findings(checks, ctx)
    return _report(deck, rs, sizes, violations, path, points, data, point_cards)


def _has(
    deck: Deck,
    rs: Ruleset,
    sizes: dict[Section, int],
    unknown: list[DeckCard],
    flagged: list[tuple[DeckCard, CardFacts]],
    crowded: list[str],
    listed: set[str],
    changing: set[str],
) -> Has:
    """What the deck has of what the rules need (one flag per
    :class:`~deckcheck.validation.ruleset.Need`)."""
    ok = rs.sizes_allowed
    return (
        bool(deck.findings),
        bool(unknown),
        not (sizes[_MAIN] in ok[0] and sizes[_EXTRA] in ok[1] and sizes[_SIDE] in ok[2]),
        bool(flagged),
        bool(crowded),
        bool(listed),
        bool(changing),
    )


def _findings(checks: tuple[Check, ...], ctx: Context) -> list[Violation]:
    """Every violation the checks find: deck-wide ones first (sizes, dates), then the rest in
    file-line order."""
    violations = [v for check in checks for v in check(ctx)]
    if len(violations) > 1:
        violations.sort(key=_file_order)
    return violations


def _count_unnamed(deck: Deck, sizes: dict[Section, int]) -> None:
    """Add to ``sizes`` the copies that lines naming no card asked for (so one typo is one
    problem, not a size problem too)."""
    for f in deck.findings:
        if f.passcode is None and f.section is not None and f.code is not FindingCode.PARSE:
            sizes[f.section] += f.count


def _count_in_python(tally: dict[Key | None, int], keys: Iterable[Key | None]) -> None:
    for key in keys:
        tally[key] = tally.get(key, 0) + 1


_count_elements: Callable[[dict[Key | None, int], Iterable[Key | None]], None] = getattr(
    collections, "_count_elements", _count_in_python
)
"""Add one to ``tally[k]`` for each ``k``: the C loop behind :class:`collections.Counter`
(without a Counter's per-call overhead), or the same loop in Python where it is missing."""


def _tally(rs: Ruleset, codes: Codes) -> dict[Key | None, int]:
    """Copies per :attr:`Ruleset.keys` key over the deck's passcodes per section (None:
    passcodes not met)."""
    tally: dict[Key | None, int] = {}
    main, extra, side = rs.keys  # (three calls written out: a loop costs a tenth more)
    _count_elements(tally, map(main.get, codes[0]))
    _count_elements(tally, map(extra.get, codes[1]))
    _count_elements(tally, map(side.get, codes[2]))
    return tally


def _learn(rs: Ruleset, sections: Sections) -> list[DeckCard]:
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


def _count(
    rs: Ruleset, sections: Sections, ds: Dataset
) -> tuple[dict[Key | None, int], list[DeckCard], Codes]:
    """The one pass over the cards: copies counted per limit name (one dict lookup and one
    count per card, in C); a card that needs a look in its section counts under a Look
    instead. Cards new to the ruleset are learnt first; returns the tally and the first copy
    of each unknown passcode per section, and the passcodes per section (read once: rules
    and looks share them)."""
    # (by comprehension: a third of the cost of attrgetter's attribute reads)
    codes = tuple([dc.passcode for dc in cards] for cards in sections)
    tally = _tally(rs, codes)
    unknown: list[DeckCard] = []
    if None in tally:  # cards new to this ruleset, or unknown passcodes
        learned = len(rs.facts)
        unknown = _learn(rs, sections)
        if len(rs.facts) != learned:  # (a deck whose only new passcodes name no card: no trim)
            trim(ds, rs)
        tally = _tally(rs, codes)
        tally.pop(None, None)
    return tally, unknown, codes


def _looks(
    rs: Ruleset,
    sections: Sections,
    codes: Codes,
    tally: dict[Key | None, int],
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
        name, code, section = look
        need[section].append(code)
        copies = tally.pop(look)
        if name is not None:  # count it toward its name after all
            tally[name] = tally.get(name, 0) + copies
        elif facts_of[code].skill:  # Skill cards are no deck cards: all are looks
            skills += copies
            if rs.skills:  # Speed Duel, Duel Links: Skills are not Main Deck cards
                sizes[SECTIONS[section]] -= copies
    for cards, section_codes, wanted in zip(sections, codes, need, strict=True):
        if wanted:
            _firsts(cards, section_codes, set(wanted), facts_of, flagged)
    return flagged, skills


def _firsts(
    cards: tuple[DeckCard, ...],
    codes: list[int],
    wanted: set[int],
    facts_of: dict[int, CardFacts],
    into: list[tuple[DeckCard, CardFacts]],
) -> None:
    """Append to ``into`` the first copy (and facts) of each passcode of ``wanted`` among
    ``cards`` (whose passcodes are ``codes``), in deck order; ``wanted`` is used up."""
    for pos, code in enumerate(codes):
        if code in wanted:
            wanted.discard(code)
            into.append((cards[pos], facts_of[code]))
            if not wanted:
                return


def _over_limits(rs: Ruleset, per_name: dict[str, int]) -> tuple[list[str], set[str], set[str]]:
    """Names over the copy limit, over what the list in force may allow, and that an upcoming
    list may cut."""
    limit = rs.setting.format.copy_limit
    crowded: list[str] = []
    if max(per_name.values(), default=0) > limit:
        crowded = [n for n, k in per_name.items() if k > limit]
    floor = rs.listed_floor
    listed = floor.keys() & per_name.keys()  # (most decks hold no listed card: done)
    if listed:
        listed = {n for n in listed if per_name[n] > floor[n]}
    later = rs.changing_floor
    changing = later.keys() & per_name.keys() if later else set()
    if changing:
        changing = {n for n in changing if per_name[n] > later[n]}
    return crowded, listed, changing


def _points(
    rs: Ruleset, sections: Sections, codes: Codes
) -> tuple[int | None, tuple[PointCard, ...]]:
    """The deck's point total and the cards that make it (for a format with a point cap)."""
    every = chain(*codes)
    points = sum(map(rs.points.get, every, repeat(0))) if rs.points else 0
    return points, points_by_card(chain(*sections), rs.points) if points else ()


def _report(
    deck: Deck,
    rs: Ruleset,
    sizes: dict[Section, int],
    violations: list[Violation],
    path: str | None,
    points: int | None,
    ds: Dataset,
    point_cards: tuple[PointCard, ...],
) -> Report:
    """The report of a validated deck."""
    counts = {"main": sizes[_MAIN], "extra": sizes[_EXTRA], "side": sizes[_SIDE]}
    setting = rs.setting
    return Report(  # (by position: a keyword call costs more, once per deck)
        setting.format.id,
        rs.era.id,
        setting.date,
        rs.banlist_ref,
        counts,
        tuple(violations),
        path if path is not None else deck.source,
        points,
        rs.point_cap,
        deck.name,
        ds.fingerprint,
        point_cards,
    )


def _file_order(v: Violation) -> int:
    """Sort key of violations: deck-wide ones first, then by the line of the deck file."""
    return -1 if v.line is None else v.line


def today() -> date:
    """Today's date: what validation checks against when given no date."""
    return datetime.date.today()
