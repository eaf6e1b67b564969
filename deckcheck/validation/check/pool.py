"""The card pool: released in the format's region by the date, official, of an allowed type."""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.validation.context import Context, violation
from deckcheck.validation.report import Code, Violation


def check_pool(ctx: Context) -> Iterator[Violation]:
    """Card pool: released in the format's region by the date; unofficial and pre-release cards.

    What it says about a card is worked out once per ruleset (:attr:`CardFacts.pool_finding`).
    """
    for dc, facts in ctx.flagged:
        found = facts.pool_finding
        if found is not None:
            yield violation(found[0], found[2], dc, severity=found[1], facts=found[3])


def check_forbidden_types(ctx: Context) -> Iterator[Violation]:
    """Card types the format bans outright (Genesys: Link and Pendulum monsters), once per card.

    What it says about a card is worked out once per ruleset (:attr:`CardFacts.forbidden_type`).
    """
    seen: set[int] = set()
    for dc, facts in ctx.flagged:
        message = facts.forbidden_type
        if message is not None and dc.passcode not in seen:
            seen.add(dc.passcode)
            yield violation(
                Code.FORBIDDEN_TYPE, message, dc, facts=(("format", ctx.rules.format.name),)
            )
