"""Format extras: Genesys points, Rush Duel Legends, Speed Duel Skills, the date's coverage."""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.card import CardKind
from deckcheck.deck.model import DeckCard, Section
from deckcheck.rule.pool import skill_problem, tcg_region
from deckcheck.validation.context import Context, cards, violation
from deckcheck.validation.report import Code, Severity, Violation


def check_points(ctx: Context) -> Iterator[Violation]:
    """Genesys: the point total over Main + Extra + Side must not exceed the cap."""
    cap = ctx.rules.point_cap  # worked out once per ruleset
    if cap is None:
        return
    total = ctx.points or 0
    if total > cap:
        yield violation(
            Code.POINTS_OVER_CAP,
            f"the deck has {cards(total, 'point')}; the cap is {cap}: "
            f"cut {cards(total - cap, 'point')}",
            found=total,
            allowed=cap,
        )


def check_legends(ctx: Context) -> Iterator[Violation]:
    """Rush Duel: Legend cards in Main + Extra, 1 in total before 2023, then 1 of each kind."""
    limits = ctx.rules.format.legend_limits_at(ctx.rules.date)
    if not limits or not any(f.legend for _, f in ctx.distinct):
        return
    # Main + Extra only: the Side Deck may hold any Legend cards (Rush tournament rules)
    legends = [
        dc
        for dc in ctx.deck
        if dc.card is not None and dc.card.is_legend and dc.section is not Section.SIDE
    ]
    if "total" in limits:
        when = f" in total on {ctx.rules.date}"
        yield from _too_many(
            legends, limits["total"], "Legend card", when, (("date", ctx.rules.date),)
        )
        return
    for kind in (CardKind.MONSTER, CardKind.SPELL, CardKind.TRAP):
        some = [dc for dc in legends if dc.card is not None and dc.card.kind is kind]
        yield from _too_many(
            some,
            limits.get(kind.value.lower(), 1),
            f"Legend {kind.value} card",
            facts=(("kind", kind.value.lower()),),
        )


def _too_many(
    some: list[DeckCard],
    allowed: int,
    what: str,
    when: str = "",
    facts: tuple[tuple[str, object], ...] = (),
) -> Iterator[Violation]:
    """A Legend limit over: ``some`` holds more than ``allowed`` cards."""
    if len(some) > allowed:
        yield violation(
            Code.LEGEND_LIMIT,
            f"{cards(len(some), what)}; at most {allowed}{when}: remove {len(some) - allowed}",
            some[0],
            found=len(some),
            allowed=allowed,
            name=None,
            facts=facts,
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
            yield violation(
                Code.NOT_IN_POOL,
                f"{why}: remove it",
                dc,
                name=dc.card.name,
                facts=(("detail", why),),
            )


def check_skills(ctx: Context) -> Iterator[Violation]:
    """Speed Duel: exactly the format's number of Skill cards (one)."""
    need = ctx.rules.format.skill_cards
    if not need:
        return
    yield from _skill_pool(ctx)
    n = ctx.skills
    if n != need:
        fix = "add one" if n < need else f"keep {need}, remove {n - need}"
        yield violation(
            Code.SKILL_COUNT,
            f"the deck has {cards(n, 'Skill card')}; {ctx.rules.format.name} needs exactly "
            f"{need}: {fix}",
            found=n,
            allowed=need,
            facts=(("format", ctx.rules.format.name),),
        )


def check_date(ctx: Context) -> Iterator[Violation]:
    """Warn when the date is outside the format's list data (before the first, after the end)."""
    if ctx.rules.date_warning:
        yield violation(
            Code.DATE_OUT_OF_RANGE,
            ctx.rules.date_warning,
            severity=Severity.WARNING,
            facts=(("detail", ctx.rules.date_warning),),
        )
