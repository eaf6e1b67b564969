"""The lists: statuses of the list in force, Speed Duel limit groups, upcoming changes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from deckcheck.rule.banlist.model import status_word
from deckcheck.validation.context import Context, violation
from deckcheck.validation.report import Code, Severity, Violation

if TYPE_CHECKING:
    from deckcheck.deck.model import DeckCard
    from deckcheck.rule.banlist import Banlist
    from deckcheck.validation.fact import CardFacts


def check_banlist(ctx: Context) -> Iterator[Violation]:
    """Forbidden, Limited and Semi-Limited statuses of the list in force (whitelists too)."""
    bl = ctx.rules.banlist
    if bl is None or bl.points or not ctx.listed:
        return
    for name, (first, facts) in ctx.groups_of(ctx.listed).items():
        found = _status_finding(bl, name, ctx.copies[name], first, facts)
        if found is not None:
            yield found


def _status_finding(
    bl: Banlist, name: str, n: int, first: DeckCard, facts: list[CardFacts]
) -> Violation | None:
    """What the list says about the ``n`` copies of one name, if anything."""
    if len(facts) == 1:
        one = facts[0].status
        if one is None and not bl.whitelist:
            return None
        listed = [] if one is None else [one]
    else:
        listed = [f.status for f in facts if f.status is not None]

    def finding(code: Code, message: str, allowed: int, *more: tuple[str, object]) -> Violation:
        return violation(
            code,
            message,
            first,
            found=n,
            allowed=allowed,
            name=name,
            facts=(("list", bl.name), *more),
        )

    if not listed:
        if not bl.whitelist:
            return None
        return finding(Code.NOT_IN_POOL, f"{name} is not on the {bl.name} card list: remove it", 0)
    status = min(listed)
    if status <= 0:
        message = f"{name} is Forbidden on the {bl.name} list: remove all {n}"
        return finding(Code.FORBIDDEN, message, 0)
    if n > status and facts[0].group is None:  # a group's rule counts those
        message = (
            f"{name} is {status_word(status)} ({status}) on the {bl.name} "
            f"list; the deck has {n}: remove {n - status}"
        )
        return finding(Code.OVER_LIMIT, message, status, ("status", status))
    return None


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
        yield violation(
            Code.LIMIT_GROUP,
            f"{total} cards from the Limited {group} group of the {bl.name} list ({listed}); "
            f"at most {group} in total from that group: remove {total - group}",
            first,
            found=total,
            allowed=group,
            name=f"Limited {group}",
            facts=(("list", bl.name), ("cards", listed)),
        )


def check_upcoming(ctx: Context) -> Iterator[Violation]:
    """Warn about cards whose status changes in a list announced for after the date."""
    rs = ctx.rules
    if not ctx.changing:
        return
    groups = ctx.groups_of(ctx.changing)
    for index, future in enumerate(rs.upcoming):
        if future.points:
            continue
        when = future.effective_in(rs.format.tcg_region)
        for name, (first, facts) in groups.items():
            n = ctx.copies[name]
            now = facts[0].status
            now = 3 if now is None else now
            later_vals = [v for v in (f.later[index] for f in facts) if v is not None]
            later = min(later_vals) if later_vals else (0 if future.whitelist else 3)
            if later < now and n > later:
                yield violation(
                    Code.UPCOMING_CHANGE,
                    f"{name} becomes {status_word(later)} on {when} ({future.name}); the deck "
                    f"has {n}",
                    first,
                    severity=Severity.WARNING,
                    found=n,
                    allowed=later,
                    name=name,
                    facts=(("status", later), ("list", future.name), ("date", when)),
                )
