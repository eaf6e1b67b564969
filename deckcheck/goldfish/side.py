"""Games two and three: the same questions for the deck after a side plan.

:func:`simulate_side` applies a side plan (:mod:`deckcheck.run.siding`, the file ``deckcheck
side`` reads) to the deck, runs the same spec on game one's deck and on the sided deck (going
first and second: in games two and three either can happen), puts them side by side with B − A
(:mod:`deckcheck.goldfish.compare`), and answers "which of my side cards do I see by turn N":
P(at least 1 copy) of each card sided in, and of any of them, exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import date as _date
from typing import TYPE_CHECKING, Any

from deckcheck.error import SidePlanError
from deckcheck.goldfish.compare import Comparison, compare
from deckcheck.goldfish.condition import parse_condition
from deckcheck.goldfish.result import HandStats
from deckcheck.goldfish.simulation import simulate
from deckcheck.goldfish.spec import Category, Spec

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.deck.model import Deck
    from deckcheck.rule.format import Format
    from deckcheck.run.siding import SidePlan

ANY_SIDE_CARD = "any side card"
"""The condition "at least one of the cards sided in"."""


@dataclass(frozen=True, slots=True)
class SideStats:
    """Game one and the sided deck (games two and three) side by side, and the side cards."""

    comparison: Comparison
    """A: game one's deck, B: the sided deck; the same spec and options."""
    side_cards: HandStats | None
    """P(at least 1) of each Main Deck card sided in and of any of them (None: none)."""
    cards_in: tuple[tuple[str, int, int], ...]
    """Cards sided in: ``(name, passcode, copies)``."""
    cards_out: tuple[tuple[str, int, int], ...]
    """Cards sided out: ``(name, passcode, copies)``."""
    warnings: tuple[str, ...] = ()
    """The sided deck's legality problems, as text (the odds are computed anyway)."""

    @property
    def game1(self) -> HandStats:
        """Game one's figures."""
        return self.comparison.a

    @property
    def sided(self) -> HandStats:
        """The sided deck's figures (games two and three)."""
        return self.comparison.b


def side_card_spec(cards_in: Sequence[tuple[str, int, int]]) -> Spec | None:
    """One category per Main Deck card sided in ("at least 1"), and "any side card"."""
    if not cards_in:
        return None
    cats = [Category(name, frozenset({code}), treated_as=False) for name, code, _ in cards_in]
    codes = frozenset(code for _, code, _ in cards_in)
    cats.append(Category(ANY_SIDE_CARD, codes, treated_as=False))
    conds = tuple((c.name, parse_condition(f"`{c.name}` >= 1")) for c in cats)
    return Spec(tuple(cats), conds, (), None, False)


def simulate_side(
    deck: Deck,
    plan: SidePlan,
    spec: Spec | None = None,
    *,
    format: str | Format = "tcg",
    date: _date | None = None,
    data: Dataset | None = None,
    **kw: Any,
) -> SideStats:
    """Goldfish odds of ``deck`` (game one) and of ``deck`` after ``plan`` (games two and
    three), side by side, plus P(at least 1) of each card sided in.

    ``kw`` are :func:`deckcheck.goldfish.simulate`'s options (going, turns, trials, seed,
    rules, exact, budget, distributions); with a seed both runs are paired. Raises
    :class:`~deckcheck.error.SidePlanError` (with the plan's ``problems``) when the plan
    cannot be applied as written (not one-for-one, a card not in the Side Deck or not in the
    deck, a size change).
    """
    from deckcheck.run.siding import apply_side_plan

    result = apply_side_plan(deck, plan, format, date, data=data)
    if result.problems:
        listed = "; ".join(f"{p.code.value}: {p.message}" for p in result.problems)
        problems = [asdict(p) for p in result.problems]  # (its code a str enum: the code)
        raise SidePlanError(f"the side plan cannot be applied: {listed}", problems)
    kw = dict(kw, format=format, date=date, data=data)
    kw.setdefault("paired", kw.get("seed") is not None)
    a = simulate(deck, spec, **kw)
    b = simulate(result.deck, spec, **kw)
    main_in = [
        m
        for m in result.moved_in
        if any(dc.card is not None and dc.card.canonical == m[1] for dc in result.deck.main)
    ]
    side_spec = side_card_spec(main_in)
    side_cards = None
    if side_spec is not None:
        side_kw = {k: v for k, v in kw.items() if k not in ("distributions", "sample", "paired")}
        side_cards = simulate(result.deck, side_spec, **side_kw)
    from deckcheck.validation.report import Severity

    warnings = tuple(
        f"the sided deck: {v.message}"
        for v in result.report.violations
        if v.severity is Severity.ERROR
    )
    return SideStats(
        compare(a, b, "game 1", "games 2 and 3"),
        side_cards,
        result.moved_in,
        result.moved_out,
        warnings,
    )
