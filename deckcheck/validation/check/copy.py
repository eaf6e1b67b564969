"""Copies per card name: the copy limit, and cards counted toward another name's limit."""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.validation.context import Context, violation
from deckcheck.validation.report import Code, Severity, Violation


def check_copies(ctx: Context) -> Iterator[Violation]:
    """At most the copy limit (3) per card name over Main + Extra + Side."""
    limit = ctx.rules.format.copy_limit
    if not ctx.crowded:
        return
    for name, (first, _) in ctx.groups_of(ctx.crowded).items():
        n = ctx.copies[name]
        if n > limit:
            yield violation(
                Code.COPIES,
                f"{n} copies of {name}; at most {limit} of a card name "
                f"(Main + Extra + Side): remove {n - limit}",
                first,
                found=n,
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
            yield violation(
                Code.TREATED_AS,
                f"{card.name} is always treated as {card.treated_as}: counted as {card.treated_as}",
                dc,
                severity=Severity.NOTE,
                facts=(("other", card.treated_as),),
            )
