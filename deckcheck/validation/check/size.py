"""Sizes and places: Main, Extra and Side Deck sizes; cards in a section they cannot be in."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from deckcheck.card import DeckZone
from deckcheck.deck.io.builder import MAX_CARDS
from deckcheck.deck.model import Section
from deckcheck.validation.context import SECTIONS, Context, cards, violation
from deckcheck.validation.fact import placement
from deckcheck.validation.report import Code, Severity, Violation

if TYPE_CHECKING:
    from deckcheck.rule.format import Era, SizeRule


def check_sizes(ctx: Context) -> Iterator[Violation]:
    """Main, Extra and Side Deck sizes for the era at the date."""
    rs = ctx.rules
    for index, (section, allowed_sizes) in enumerate(zip(SECTIONS, rs.sizes_allowed, strict=True)):
        n = ctx.sizes[section]
        if n in allowed_sizes:
            continue
        found = rs.size_findings.get((index, n))
        if found is None:
            found = size_finding(rs.era, index, n)
            if found is None:
                continue
            if n <= MAX_CARDS:  # what a section of n cards gets is the same for every deck
                rs.size_findings[(index, n)] = found
        code, message, allowed, facts = found
        yield Violation(
            code, Severity.ERROR, message, section.value, found=n, allowed=allowed, facts=facts
        )


_SIZE_RULE = (
    (Code.MAIN_SIZE, "Main Deck"),
    (Code.EXTRA_SIZE, "Extra Deck"),
    (Code.SIDE_SIZE, "Side Deck"),
)


def size_finding(
    era: Era, index: int, n: int
) -> tuple[Code, str, int, tuple[tuple[str, object], ...]] | None:
    """(code, message, allowed, facts) for section ``index`` (Main, Extra, Side) of ``n`` cards
    in ``era``; None if it is fine."""
    rule: SizeRule = (era.main, era.extra, era.side)[index]
    if rule.allows(n):
        return None
    if rule.zero_or_exact is not None and n:
        allowed = rule.zero_or_exact
        fix, how = f"use exactly {cards(allowed)} or none", "exact"
    elif n < rule.min:
        allowed = rule.min
        fix, how = f"add {rule.min - n}", "add"
    else:
        allowed = rule.max if rule.max is not None else rule.min
        fix, how = f"remove {n - allowed}", "remove"
    code, label = _SIZE_RULE[index]
    facts = (("era", era.name), ("min", rule.min), ("max", rule.max), ("fix", how))
    message = f"{label} has {cards(n)}; {era.name} allows {rule.describe()}: {fix}"
    return code, message, allowed, facts


_RIGHT_ZONE = {Section.MAIN: DeckZone.MAIN, Section.EXTRA: DeckZone.EXTRA, Section.SIDE: None}
"""The zone of the cards that always belong in a section (the Side Deck takes both zones)."""


def check_placement(ctx: Context) -> Iterator[Violation]:
    """Extra Deck monsters in the Main Deck, Main Deck cards in the Extra Deck; Tokens; Skills."""
    fmt = ctx.rules.format
    for dc, facts in ctx.flagged:
        zone, section, card = facts.zone, dc.section, dc.card
        if card is None or zone is _RIGHT_ZONE[section]:
            continue  # the usual case: flagged for another rule
        found = placement(fmt, card, zone, section)
        if found is not None:
            yield violation(found[0], found[1], dc)
