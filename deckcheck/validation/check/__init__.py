"""The rules of validation, one small module per family, and :data:`RULES` in report order.

A rule is one :class:`Rule`: its check (a function of the deck's
:class:`~deckcheck.validation.context.Context` yielding violations), the
:class:`~deckcheck.validation.ruleset.Need` a deck must have for it to find anything, and when
it applies to a ruleset at all. To add one: write the check in the module of its family (or a
new one), give it a :class:`~deckcheck.validation.report.Code`, and enter it in :data:`RULES`.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec import Struct

from deckcheck.validation.check.banlist import check_banlist, check_limit_groups, check_upcoming
from deckcheck.validation.check.copy import check_copies, check_treated_as
from deckcheck.validation.check.extra import check_date, check_legends, check_points, check_skills
from deckcheck.validation.check.finding import check_read_findings, check_unknown_cards
from deckcheck.validation.check.pool import check_forbidden_types, check_pool
from deckcheck.validation.check.size import check_placement, check_sizes
from deckcheck.validation.context import Check
from deckcheck.validation.ruleset import HAS_ALL, Has, Need, Ruleset


def _always(rs: Ruleset) -> bool:
    return True


class Rule(Struct, frozen=True):
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


def select(rs: Ruleset, has: Has = HAS_ALL) -> tuple[Check, ...]:
    """The checks that can find something under ``rs``, in report order, for a deck that
    ``has`` what each rule needs (every rule's :attr:`Rule.applies` asked once per ruleset and
    deck shape; the answer is kept on the ruleset)."""
    got = rs.selected.get(has)
    if got is None:
        got = rs.selected[has] = tuple(
            r.check for r in RULES if (r.needs is None or has[r.needs]) and r.applies(rs)
        )
    return got


__all__ = ["RULES", "Rule", "select"]
