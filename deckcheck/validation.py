"""The validation engine: every reason a deck is not legal in a format at a date.

:func:`validate` runs each rule (a small named function below) over the deck and collects every
violation into a :class:`~deckcheck.report.Report`; nothing stops at the first problem. The
rules share a :class:`Context` (deck, era, list in force, format) and a per-format-and-date
:class:`Ruleset` that memoises per-card facts, so validating many decks is fast.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from operator import attrgetter
from typing import TYPE_CHECKING

from deckcheck.banlist.model import status_word
from deckcheck.card import FLAG_PRERELEASE, FLAG_UNOFFICIAL, Card, CardKind, DeckZone, ExtraKind
from deckcheck.deck import Deck, DeckCard, FindingCode, Section
from deckcheck.report import BanlistRef, Code, Report, Severity, Violation

if TYPE_CHECKING:
    from deckcheck.banlist import Banlist
    from deckcheck.card import CardIndex
    from deckcheck.dataset import Dataset
    from deckcheck.format import Era, Format, SizeRule


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What the ruleset knows about one card record, computed once per format and date."""

    limit_name: str
    """The name whose copy limit the card counts toward."""
    status: int | None
    """Copies the list allows (0-3); None when the card is not on the list."""
    status_passcode: int
    """The passcode whose list entry applied."""
    pool_problem: str | None
    """Why the card is outside the format's card pool, if it is."""
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
    _rules: dict[tuple[bool, bool], tuple[Rule, ...]] | None = field(default=None, repr=False)

    def rules(self, findings: bool = True, unknown: bool = True) -> tuple[Rule, ...]:
        """The rules that can find something under this ruleset, in report order (those of
        read findings and unknown cards only when the deck has some)."""
        got = self._rules
        if got is None:
            fmt, bl = self.format, self.banlist
            idle: dict[Rule, bool] = {
                check_banlist: bl is None or bl.points,
                check_forbidden_types: not fmt.forbidden_types,
                check_points: _point_cap(self) is None,
                check_legends: not fmt.legend_limits_at(self.date),
                check_skills: not fmt.skill_cards,
                check_upcoming: not self.upcoming,
                check_date: not self.date_warning,
            }
            got = self._rules = {
                (f, u): tuple(
                    r for r in RULES
                    if not idle.get(r, False)
                    and (f or r is not check_read_findings)
                    and (u or r is not check_unknown_cards)
                )
                for f in (False, True) for u in (False, True)
            }  # fmt: skip
        return got[findings, unknown]

    def card_facts(self, card: Card) -> CardFacts:
        """The memoised facts of one card record."""
        got = self.facts.get(card.passcode)
        if got is None:
            got = self.facts[card.passcode] = _compute_facts(self, card)
        return got


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
    from deckcheck.format import Pool

    fmt, when = rs.format, rs.date
    pool = fmt.pool
    cutoff = min(when, fmt.pool_date) if fmt.pool_date is not None else when
    if pool is Pool.RUSH:
        return None if card.is_rush else "not a Rush Duel card"
    if card.is_rush:
        return "a Rush Duel card, not legal in this format"
    if card.is_goat_variant and fmt.id != "goat":
        return "a GOAT-format version of a card, legal only in GOAT"
    if pool is Pool.TCG:
        if not card.in_tcg:
            return "not released in the TCG (OCG-only)"
        if card.tcg_date is not None and card.tcg_date > cutoff:
            return f"not released in the TCG until {card.tcg_date}"
    elif pool is Pool.OCG:
        if not card.in_ocg:
            return "not released in the OCG (TCG-only)"
        if card.ocg_date is not None and card.ocg_date > cutoff:
            return f"not released in the OCG until {card.ocg_date}"
    elif pool is Pool.BOTH:
        dates = [d for d in (card.tcg_date, card.ocg_date) if d is not None]
        if dates and min(dates) > cutoff:
            return f"not released until {min(dates)}"
    return None


def _whitelisted(rs: Ruleset, card: Card) -> bool:
    """Whether the whitelist in force names this very record (format versions of cards)."""
    bl = rs.banlist
    return bl is not None and bl.whitelist and bl.limit(card.passcode) is not None


def _compute_facts(rs: Ruleset, card: Card) -> CardFacts:
    status, used = _list_status(rs.banlist, card, rs.variants)
    problem = None
    if not (card.is_unofficial or card.is_prerelease):
        problem = _pool_problem(rs, card)
    points = 0
    if rs.banlist is not None and rs.banlist.points:
        points = max(rs.banlist.points_of(card.canonical), rs.banlist.points_of(card.passcode))
        status = None  # a points list sets points, not copies
    zone = card.zone
    odd = (
        problem is not None
        or bool(card.flags & _ODD_FLAGS)
        or zone is DeckZone.NONE
        or bool(card.treated_as)
        or bool(rs.format.forbidden_types)
    )
    attention = (odd or zone is DeckZone.EXTRA, odd or zone is DeckZone.MAIN, odd)
    return CardFacts(
        card.limit_name, status, used, problem, points, zone, card.is_skill, card.is_legend,
        attention,
    )  # fmt: skip


ANNOUNCE_WINDOW_DAYS = 45
"""When a list's announcement date is unknown, it counts as announced this many days ahead."""


def _announced_by(banlist: Banlist, when: date) -> bool:
    """Whether a future list was already announced on ``when``."""
    if banlist.announced is not None:
        return banlist.announced <= when
    return (banlist.effective - when).days <= ANNOUNCE_WINDOW_DAYS


MAX_RULESETS = 256
"""Most rulesets a dataset keeps (one per format, date and option)."""


def ruleset(fmt: Format, when: date, allow_prerelease: bool, data: Dataset) -> Ruleset:
    """The ruleset of a format at a date, cached on the dataset."""
    cache = data.ruleset_cache()
    key = (fmt, when, allow_prerelease)
    got = cache.get(key)
    if got is None:
        if len(cache) >= MAX_RULESETS:
            cache.clear()
        got = cache[key] = _ruleset(fmt, when, allow_prerelease, data)
    assert isinstance(got, Ruleset)
    return got


def _ruleset(fmt: Format, when: date, allow_prerelease: bool, data: Dataset) -> Ruleset:
    era = fmt.era_at(when)
    banlist = fmt.banlist_at(when, data)
    upcoming = [b for b in fmt.upcoming(when, data)[:1] if _announced_by(b, when)]
    check = fmt.check_date(when, data)
    notes = [*([check.error] if check.error else []), *check.warnings]
    if banlist is None and fmt.has_banlists():
        notes.append(f"no {fmt.name} ban list is in force on {when}: none was checked")
    warning = "; ".join(notes) if notes else None
    variants = (
        whitelist_variants(banlist, data.cards) if banlist is not None and banlist.whitelist else {}
    )
    return Ruleset(
        fmt, when, era, banlist, upcoming, allow_prerelease, date_warning=warning, variants=variants
    )


@dataclass
class Context:
    """What the rules read: the deck, the ruleset, distinct cards and groups of copies by name."""

    deck: Deck
    rules: Ruleset
    groups: dict[str, list[DeckCard]]
    """Copies per limit name (Main + Extra + Side), deck cards only."""
    distinct: list[tuple[DeckCard, CardFacts]]
    """The first copy of each known card per section, with its facts; the per-card rules read
    only those whose facts ask for attention in their section (:attr:`CardFacts.attention`)."""
    unknown: list[DeckCard]
    """The first copy of each unknown passcode per section."""
    sizes: dict[Section, int]
    """Cards counted toward each section's size."""
    group_facts: dict[str, list[CardFacts]] = field(default_factory=dict)
    """The facts of the distinct cards of each group (same keys as ``groups``)."""
    flagged: list[tuple[DeckCard, CardFacts]] = field(default_factory=list)
    """The entries of :attr:`distinct` whose facts ask for attention in their section."""
    listed: list[str] | None = None
    """Names of :attr:`groups` with a card on the list in force (None: look at every group)."""
    crowded: list[str] | None = None
    """Names of :attr:`groups` with more copies than the copy limit (None: look at every one)."""

    @property
    def era(self) -> Era:
        """The era in force."""
        return self.rules.era


Rule = Callable[[Context], Iterator[Violation]]


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
    card = dc.card if dc is not None else None
    return Violation(
        code=code,
        severity=severity,
        message=message,
        section=section if section is not None else (dc.section.value if dc else None),
        passcode=passcode if passcode is not None else (dc.passcode if dc else None),
        name=name if name is not None else (card.name if card else None),
        found=found,
        allowed=allowed,
        line=dc.line if dc is not None else None,
    )


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
        }[f.code]
        msg = f.message
        if f.suggestions and "did you mean" not in msg:
            msg += "; did you mean: " + ", ".join(f.suggestions[:3]) + "?"
        yield Violation(
            code, Severity.ERROR, msg, f.section.value if f.section else None,
            f.passcode, f.text, None, None, f.line,
        )  # fmt: skip


def check_unknown_cards(ctx: Context) -> Iterator[Violation]:
    """Passcodes the card index does not know."""
    for dc in ctx.unknown:
        if dc.card is None:
            yield _v(
                Code.UNKNOWN_CARD,
                f"unknown passcode {dc.passcode}: check the code, or remove the line",
                dc,
                name=f"#{dc.passcode}",
            )


def check_sizes(ctx: Context) -> Iterator[Violation]:
    """Main, Extra and Side Deck sizes for the era at the date."""
    era = ctx.era
    rules: tuple[tuple[Section, SizeRule, Code, str], ...] = (
        (Section.MAIN, era.main, Code.MAIN_SIZE, "Main Deck"),
        (Section.EXTRA, era.extra, Code.EXTRA_SIZE, "Extra Deck"),
        (Section.SIDE, era.side, Code.SIDE_SIZE, "Side Deck"),
    )
    for section, rule, code, label in rules:
        n = ctx.sizes[section]
        if rule.allows(n):
            continue
        if rule.zero_or_exact is not None and n:
            allowed = rule.zero_or_exact
            fix = f"use exactly {allowed} cards or none"
        elif n < rule.min:
            allowed = rule.min
            fix = f"add {rule.min - n}"
        else:
            allowed = rule.max if rule.max is not None else rule.min
            fix = f"remove {n - allowed}"
        yield _v(
            code,
            f"{label} has {n} cards; {era.name} allows {rule.describe()}: {fix}",
            section=section.value,
            found=n,
            allowed=allowed,
        )


def check_placement(ctx: Context) -> Iterator[Violation]:
    """Extra Deck monsters in the Main Deck, Main Deck cards in the Extra Deck; Tokens; Skills."""
    speed = bool(ctx.rules.format.skill_cards)
    for dc, facts in ctx.flagged:
        card = dc.card
        assert card is not None
        zone = facts.zone
        if zone is DeckZone.NONE:
            if card.is_skill and speed:
                continue
            what = "a Token" if card.kind is CardKind.TOKEN else "a Skill card"
            where = "" if card.kind is CardKind.TOKEN else " outside Speed Duel"
            yield _v(
                Code.NOT_A_DECK_CARD,
                f"{card.name} is {what}, never a deck card{where}: remove it",
                dc,
            )
        elif dc.section is Section.MAIN and zone is DeckZone.EXTRA:
            kind = card.extra_kind.value if card.extra_kind else "Extra Deck"
            yield _v(
                Code.WRONG_SECTION,
                f"{card.name} is a {kind} Monster: move it to the Extra Deck",
                dc,
            )
        elif dc.section is Section.EXTRA and zone is DeckZone.MAIN:
            yield _v(
                Code.WRONG_SECTION,
                f"{card.name} is a Main Deck card: move it to the Main or Side Deck",
                dc,
            )


def check_copies(ctx: Context) -> Iterator[Violation]:
    """At most the copy limit (3) per card name over Main + Extra + Side."""
    limit = ctx.rules.format.copy_limit
    names = ctx.groups if ctx.crowded is None else ctx.crowded
    for name in names:
        copies = ctx.groups[name]  # (copies of a record may share one DeckCard: use len and [0])
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
    group_facts = ctx.group_facts
    names = ctx.groups if ctx.listed is None or whitelist else ctx.listed
    for name in names:
        copies = ctx.groups[name]
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
            if bl.whitelist:
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
        elif len(copies) > status:
            yield _v(
                Code.OVER_LIMIT,
                f"{name} is {status_word(status)} ({status}) on the {bl.name} "
                f"list; the deck has {len(copies)}: remove {len(copies) - status}",
                first,
                found=len(copies),
                allowed=status,
                name=name,
            )


def check_pool(ctx: Context) -> Iterator[Violation]:
    """Card pool: released in the format's region by the date; unofficial and pre-release cards."""
    rs = ctx.rules
    for dc, facts in ctx.flagged:
        card = dc.card
        assert card is not None
        if facts.pool_problem is None and not (card.flags & _ODD_FLAGS):
            continue
        if card.is_unofficial and _whitelisted(rs, card):
            continue
        if card.is_unofficial and not _whitelisted(rs, card):
            yield _v(
                Code.UNOFFICIAL_CARD,
                f"{card.name} is not an official card (anime, video game or otherwise illegal): "
                "remove it",
                dc,
            )
            continue
        if card.is_prerelease:
            if card.canonical != card.passcode:
                fix = f"it has been released: use passcode {card.canonical}"
            else:
                fix = "it is not released yet"
            sev = Severity.WARNING if rs.allow_prerelease else Severity.ERROR
            yield _v(
                Code.PRERELEASE,
                f"{card.name} is written with pre-release code {card.passcode}: {fix}",
                dc,
                severity=sev,
            )
            continue
        problem = facts.pool_problem
        if problem and facts.zone is not DeckZone.NONE:
            yield _v(Code.NOT_IN_POOL, f"{card.name} is {problem}: remove it", dc)


def check_points(ctx: Context) -> Iterator[Violation]:
    """Genesys: the point total over Main + Extra + Side must not exceed the cap."""
    rs = ctx.rules
    cap = _point_cap(rs)
    if cap is None:
        return
    total = _points_total(ctx)
    if total > cap:
        yield _v(
            Code.POINTS_OVER_CAP,
            f"the deck has {total} points; the cap is {cap}: cut {total - cap} points",
            found=total,
            allowed=cap,
        )


def _point_cap(rs: Ruleset) -> int | None:
    if rs.format.point_cap is not None:
        return rs.format.point_cap
    if rs.banlist is not None and rs.banlist.points:
        return rs.banlist.point_cap if rs.banlist.point_cap is not None else 100
    return None


def _points_total(ctx: Context) -> int:
    rs = ctx.rules
    if rs.banlist is None or not rs.banlist.points:
        return 0
    return sum(rs.card_facts(dc.card).points for dc in ctx.deck if dc.card is not None)


def check_forbidden_types(ctx: Context) -> Iterator[Violation]:
    """Card types the format bans outright (Genesys: Link and Pendulum monsters)."""
    banned = ctx.rules.format.forbidden_types
    if not banned:
        return
    seen: set[int] = set()
    for dc, _ in ctx.flagged:
        card = dc.card
        if card is None or card.passcode in seen:
            continue
        kinds = []
        if "link" in banned and card.extra_kind is ExtraKind.LINK:
            kinds.append("Link")
        if "pendulum" in banned and card.is_pendulum:
            kinds.append("Pendulum")
        if kinds:
            seen.add(card.passcode)
            yield _v(
                Code.FORBIDDEN_TYPE,
                f"{card.name} is a {'/'.join(kinds)} Monster; {ctx.rules.format.name} bans "
                f"{' and '.join(k + ' Monsters' for k in kinds)}: remove it",
                dc,
            )


def check_legends(ctx: Context) -> Iterator[Violation]:
    """Rush Duel: Legend cards, 1 in total before 2022-12, then 1 Monster + 1 Spell + 1 Trap."""
    fmt = ctx.rules.format
    limits = fmt.legend_limits_at(ctx.rules.date)
    if not limits:
        return
    if not any(f.legend for _, f in ctx.distinct):
        return
    legends = [dc for dc in ctx.deck if dc.card is not None and dc.card.is_legend]
    if "total" in limits:
        if len(legends) > limits["total"]:
            yield _v(
                Code.LEGEND_LIMIT,
                f"{len(legends)} Legend cards; at most {limits['total']} in total on "
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
                f"{len(some)} Legend {kind.value} cards; at most {allowed}: "
                f"remove {len(some) - allowed}",
                some[0],
                found=len(some),
                allowed=allowed,
                name=None,
            )


def check_skills(ctx: Context) -> Iterator[Violation]:
    """Speed Duel: exactly the format's number of Skill cards (one)."""
    need = ctx.rules.format.skill_cards
    if not need:
        return
    n = sum(1 for dc in ctx.deck if dc.card is not None and dc.card.is_skill)  # rare: speed only
    if n != need:
        fix = "add one" if n < need else f"keep {need}, remove {n - need}"
        yield _v(
            Code.SKILL_COUNT,
            f"the deck has {n} Skill cards; {ctx.rules.format.name} needs exactly {need}: {fix}",
            found=n,
            allowed=need,
        )


def check_upcoming(ctx: Context) -> Iterator[Violation]:
    """Warn about cards whose status changes in a list announced for after the date."""
    rs = ctx.rules
    for future in rs.upcoming:
        if future.points:
            continue
        for name, copies in ctx.groups.items():
            cards = [dc.card for dc in copies if dc.card is not None]
            if not cards:
                continue
            now = rs.card_facts(cards[0]).status
            now = 3 if now is None else now
            later_vals = [v for v in (_list_status(future, c)[0] for c in cards) if v is not None]
            later = min(later_vals) if later_vals else (0 if future.whitelist else 3)
            if later < now and len(copies) > later:
                word = status_word(later)
                yield _v(
                    Code.UPCOMING_CHANGE,
                    f"{name} becomes {word} on {future.effective} ({future.name}); the deck "
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


RULES: tuple[Rule, ...] = (
    check_read_findings,
    check_unknown_cards,
    check_sizes,
    check_placement,
    check_copies,
    check_banlist,
    check_pool,
    check_forbidden_types,
    check_points,
    check_legends,
    check_skills,
    check_upcoming,
    check_treated_as,
    check_date,
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
) -> Report:
    """Check ``deck`` against ``format`` at ``date`` (default today) and report every violation.

    ``format`` is a :class:`~deckcheck.format.Format` or a registered name or alias (``tcg``,
    ``goat``, ``lp4000``...) of ``data`` (default: the active dataset). Pre-release codes are
    errors unless ``allow_prerelease``.
    """
    from deckcheck.dataset import resolve_data

    ds = resolve_data(data)
    fmt = ds.format(format) if isinstance(format, str) else format
    when = date if date is not None else _today()
    rs = ruleset(fmt, when, allow_prerelease, ds)
    groups: dict[str, list[DeckCard]] = {}
    group_facts: dict[str, list[CardFacts]] = {}
    distinct: list[tuple[DeckCard, CardFacts]] = []
    unknown: list[DeckCard] = []
    sizes = {Section.MAIN: 0, Section.EXTRA: 0, Section.SIDE: 0}
    speed = bool(fmt.skill_cards)
    facts_of = rs.facts
    card_facts = rs.card_facts
    flagged: list[tuple[DeckCard, CardFacts]] = []
    none = DeckZone.NONE
    copy_limit = fmt.copy_limit
    crowded: list[str] = []
    listed: list[str] = []
    for index, section, cards in ((0, Section.MAIN, deck.main), (1, Section.EXTRA, deck.extra),
                                  (2, Section.SIDE, deck.side)):  # fmt: skip
        if not cards:
            continue
        # copies of each passcode in this section, in file order of first appearance, and the
        # first copy of each (counted in C: this loop is the hot path of every batch)
        counts = Counter(map(_PASSCODE, cards))
        backwards = cards[::-1]
        firsts = dict(zip(map(_PASSCODE, backwards), backwards, strict=True))
        size = len(cards)
        for code, n in counts.items():
            first = firsts[code]
            facts = facts_of.get(code)  # a known card's facts are memoised under its passcode
            if facts is None:
                card = first.card
                if card is None:
                    unknown.append(first)
                    continue
                facts = card_facts(card)
            if speed and facts.skill:
                size -= n
            entry = (first, facts)
            distinct.append(entry)
            if facts.attention[index]:
                flagged.append(entry)
            if facts.zone is not none:
                name = facts.limit_name
                group = groups.get(name)
                if group is None:
                    groups[name] = group = [first] * n
                    group_facts[name] = [facts]
                else:
                    group.extend([first] * n)
                    group_facts[name].append(facts)
                if len(group) > copy_limit and name not in crowded:
                    crowded.append(name)
                if facts.status is not None and name not in listed:
                    listed.append(name)
        sizes[section] = size
    for f in deck.findings:
        # a line naming no card still asked for copies: count them, so one typo is one problem
        if f.passcode is None and f.section is not None and f.code is not FindingCode.PARSE:
            sizes[f.section] += f.count
    ctx = Context(deck, rs, groups, distinct, unknown, sizes, group_facts, flagged, listed, crowded)
    violations = [v for rule in rs.rules(bool(deck.findings), bool(unknown)) for v in rule(ctx)]
    cap = _point_cap(rs)
    bl = rs.banlist
    return Report(
        format=fmt.id,
        era=rs.era.id,
        date=when,
        banlist=BanlistRef(bl.name, bl.effective) if bl is not None else None,
        counts={
            "main": sizes[Section.MAIN],
            "extra": sizes[Section.EXTRA],
            "side": sizes[Section.SIDE],
        },
        violations=tuple(violations),
        path=path if path is not None else deck.source,
        points=_points_total(ctx) if cap is not None else None,
        point_cap=cap,
        name=deck.name,
        data_fingerprint=ds.fingerprint,
    )


def _today() -> date:
    from datetime import date as _date

    return _date.today()


def summarize(reports: list[Report]) -> dict[str, int]:
    """Totals over many reports: decks, legal, illegal, errors, warnings, notes.

    (:func:`deckcheck.batch.summarize` gives the typed :class:`~deckcheck.batch.Summary`.)
    """
    from deckcheck.batch import summarize as typed

    got = typed(reports)
    return {k: getattr(got, k) for k in ("decks", "legal", "illegal", "errors", "warnings",
                                         "notes")}  # fmt: skip
