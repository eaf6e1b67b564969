"""Ratio sweeps: which numbers of copies are best for a condition?

``--vary "Ash Blossom=1..3" --vary "brick=0..4"`` computes every combination of copies, keeping
the deck size by adjusting a filler (the cards of no category, "other", unless named), and ranks
the combinations by one condition at one going and turn. Each combination is a goldfish run of
its own (exact where possible; :func:`deckcheck.goldfish.engine.run`).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from msgspec import Struct
from msgspec.structs import replace

from deckcheck.error import GoldfishError
from deckcheck.goldfish.engine import (
    DEFAULT_TRIALS,
    Options,
    Pool,
    Question,
    check_options,
    run,
)
from deckcheck.goldfish.exact import ExactBudget
from deckcheck.goldfish.result import CardCount, Estimate, ExactMode, Method
from deckcheck.goldfish.rule import DrawRules, Going
from deckcheck.goldfish.vary import Vary, sweep_request

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.deck.model import Deck
    from deckcheck.goldfish.spec import Spec

MAX_COMBINATIONS = 400
"""Most combinations one sweep computes."""


class SweepRow(Struct, frozen=True):
    """One combination: the copies tried, the filler's copies, and every condition's figure
    at the sweep's turn, per going."""

    values: tuple[tuple[str, int], ...]
    filler: int
    method: Method
    figures: Mapping[str, Mapping[Going, Estimate]]


class SweepStats(Struct, frozen=True):
    """A ratio sweep: combinations ranked best first by condition ``by`` at (``going``,
    ``turn``); ``skipped`` combinations would need a negative filler."""

    vary: tuple[Vary, ...]
    filler: str
    deck_size: int
    by: str
    going: Going
    turn: int
    goings: tuple[Going, ...]
    seen: Mapping[Going, int]
    conditions: tuple[tuple[str, str], ...]
    rows: tuple[SweepRow, ...]
    skipped: tuple[tuple[tuple[str, int], ...], ...] = ()
    trials: int | None = None
    seed: int | None = None
    note: str | None = None

    @property
    def method(self) -> Method:
        """Exact if every combination was."""
        exact = all(r.method is Method.EXACT for r in self.rows)
        return Method.EXACT if exact else Method.SIMULATION


def _find(pool: Pool, q: Question, name: str) -> list[int]:
    """Entries of the pool a name means: a card (by name, case-insensitive), else a category,
    else ``other`` (the cards of no category)."""
    folded = name.casefold()
    cards = [i for i, c in enumerate(pool.cards) if c.name.casefold() == folded and c.copies]
    if len(cards) == 1:
        return cards
    if name in q.categories:
        return [i for i, m in enumerate(pool.members) if name in m and pool.copies[i]]
    if folded == "other":
        return [i for i, m in enumerate(pool.members) if not m and i not in q.effects]
    if cards:
        raise GoldfishError(f"{name!r} names {len(cards)} cards; name a category instead")
    raise GoldfishError(f"{name!r} is neither a card of the deck nor a category")


def _merge(pool: Pool, entries: list[int], label: str) -> tuple[Pool, int]:
    """One entry holding the copies of ``entries`` (they must share their categories)."""
    if not entries:
        raise GoldfishError(f"{label!r}: no card of the deck is in it")
    first = entries[0]
    if any(pool.members[i] != pool.members[first] for i in entries):
        raise GoldfishError(
            f"{label!r}: its cards are in different categories; vary one card, or a category "
            "whose cards are alike"
        )
    if len(entries) == 1:
        return pool, first
    copies = list(pool.copies)
    copies[first] = sum(copies[i] for i in entries)
    for i in entries[1:]:
        copies[i] = 0
    cards = list(pool.cards)
    cards[first] = CardCount(label, 0, copies[first])
    return replace(pool, copies=tuple(copies), cards=tuple(cards)), first


def _targets(
    pool: Pool, q: Question, vary: Sequence[Vary], filler: str | None
) -> tuple[Pool, list[int], int, str]:
    """The pool with each varied name and the filler as one entry, and their indices."""
    pool = replace(pool, composition=False)
    index: list[int] = []
    for v in vary:
        pool, i = _merge(pool, _find(pool, q, v.name), v.name)
        if i in index:
            raise GoldfishError(f"{v.name!r} is varied twice")
        index.append(i)
    label = filler or "other"
    fill_entries = [i for i in _find(pool, q, label) if i not in index]
    if not fill_entries and filler is None:  # no card of no category: a filler of 0 copies
        pool = replace(
            pool,
            copies=(*pool.copies, 0),
            members=(*pool.members, frozenset()),
            kinds=(*pool.kinds, 3),
            cards=(*pool.cards, CardCount("other", 0, 0)),
        )
        fill_entries = [len(pool.copies) - 1]
    pool, f = _merge(pool, fill_entries, label)
    return pool, index, f, label


def _row(
    pool: Pool, q: Question, opts: Options, values: tuple[tuple[str, int], ...], filler: int
) -> tuple[SweepRow, str | None]:
    stats = run(pool, q, opts, deck_name=None, default=False)
    t = opts.turns - 1
    figures = {c.name: {g: ests[t] for g, ests in c.by_going.items()} for c in stats.conditions}
    return SweepRow(values, filler, stats.method, figures), stats.note


def _combinations(
    q: Question, vary: Sequence[Vary], by: str | None
) -> tuple[str, list[tuple[int, ...]]]:
    """The condition to rank by (default: the first) and every combination of ``vary``,
    checked: at least one thing varied, a known condition, at most :data:`MAX_COMBINATIONS`."""
    if not vary:
        raise GoldfishError("a sweep needs at least one NAME=a..b to vary")
    names = [n for n, _, _ in q.conditions]
    by = by or names[0]
    if by not in names:
        raise GoldfishError(f"no condition {by!r} to rank by (conditions: {', '.join(names)})")
    combos = list(itertools.product(*(v.values for v in vary)))
    if len(combos) > MAX_COMBINATIONS:
        raise GoldfishError(f"{len(combos)} combinations; at most {MAX_COMBINATIONS}")
    return by, combos


def sweep_pool(
    pool: Pool,
    q: Question,
    vary: Sequence[Vary],
    opts: Options,
    *,
    filler: str | None = None,
    by: str | None = None,
) -> SweepStats:
    """Every combination of ``vary`` over ``pool``, ranked by condition ``by`` (default: the
    first) at the first going asked and the last turn. ``opts.budget.seconds`` bounds the
    whole sweep."""
    by, combos = _combinations(q, vary, by)
    pool, index, f, label = _targets(pool, q, vary, filler)
    base = sum(pool.copies[i] for i in index) + pool.copies[f]
    deadline = None if opts.budget.seconds is None else time.monotonic() + opts.budget.seconds
    if opts.seed is None:  # one seed for every combination: their games are alike (and repeatable)
        import secrets

        opts = replace(opts, seed=secrets.randbits(32))
    rows: list[SweepRow] = []
    skipped = []
    notes: list[str] = []
    for combo in combos:
        values = tuple((v.name, n) for v, n in zip(vary, combo, strict=True))
        rest = base - sum(combo)
        if rest < 0:
            skipped.append(values)
            continue
        copies = list(pool.copies)
        for i, n in zip(index, combo, strict=True):
            copies[i] = n
        copies[f] = rest
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            raise GoldfishError(f"the sweep is over its {opts.budget.seconds:g} s budget")
        step = replace(opts, budget=ExactBudget(opts.budget.max_bytes, left))
        row, note = _row(replace(pool, copies=tuple(copies)), q, step, values, rest)
        rows.append(row)
        notes += [note] if note and note not in notes else []
    going = opts.goings[0]
    rows.sort(key=lambda r: -r.figures[by][going].probability)
    return SweepStats(
        vary=tuple(vary),
        filler=label,
        deck_size=pool.size,
        by=by,
        going=going,
        turn=opts.turns,
        goings=opts.goings,
        seen={g: opts.rules.seen(g, opts.turns)[-1] for g in opts.goings},
        conditions=tuple((n, shown) for n, shown, _ in q.conditions),
        rows=tuple(rows),
        skipped=tuple(skipped),
        trials=opts.trials,
        seed=opts.seed,
        note="; ".join(notes) or None,
    )


def sweep(
    deck: Deck,
    spec: Spec | None,
    vary: Sequence[str] | Mapping[str, Sequence[int]] | None = None,
    *,
    filler: str | None = None,
    by: str | None = None,
    going: str | Going | Sequence[Going] = "both",
    turns: int = 1,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = None,
    rules: DrawRules | None = None,
    exact: str | ExactMode = ExactMode.AUTO,
    budget: ExactBudget | None = None,
    data: Dataset | None = None,
) -> SweepStats:
    """A ratio sweep of ``deck`` (with ``spec``): ``vary`` names cards of the deck or categories
    (whose cards are alike) with the copies to try (``"Ash Blossom=1..3"`` or ``{"Ash Blossom":
    [1, 2, 3]}``; default: the spec's ``[vary]`` table); ``filler`` (default: the cards of no
    category) absorbs the difference so the deck size holds. Ranked by condition ``by``
    (default: the first) at the first going and the last turn. Other arguments as
    :func:`deckcheck.goldfish.simulate`; ``budget.seconds`` bounds the whole sweep."""
    from deckcheck.goldfish.rule import draw_rules_for
    from deckcheck.goldfish.simulation import prepare

    rules = rules or draw_rules_for(None, None, data)
    goings, mode = check_options(going, turns, trials, seed, exact)
    pool, q, _ = prepare(deck, spec, {g: tuple(rules.seen(g, turns)) for g in goings})
    opts = Options(goings, turns, rules, mode, trials, seed, budget or ExactBudget())
    if vary is None:  # the spec's [vary] table
        vary = {name: list(values) for name, values in (spec.vary if spec else ())}
    return sweep_pool(pool, q, sweep_request(vary), opts, filler=filler, by=by)


def sweep_counts(
    size: int,
    counts: Mapping[str, int],
    vary: Sequence[str] | Mapping[str, Sequence[int]],
    when: Sequence[str] | Mapping[str, str] | None = None,
    *,
    filler: str | None = None,
    by: str | None = None,
    going: str | Going | Sequence[Going] = "both",
    turns: int = 1,
    rules: DrawRules | None = None,
    exact: str | ExactMode = ExactMode.AUTO,
    budget: ExactBudget | None = None,
    data: Dataset | None = None,
) -> SweepStats:
    """A ratio sweep in quick mode: ``vary`` names categories of ``counts`` (or ``other``);
    ``filler`` defaults to ``other`` (the cards of no category). Always exact unless the budget
    is exceeded. See :func:`sweep`."""
    from deckcheck.goldfish.quick import quick_conditions, quick_pool
    from deckcheck.goldfish.rule import draw_rules_for

    rules = rules or draw_rules_for(None, None, data)
    goings, mode = check_options(going, turns, DEFAULT_TRIALS, None, exact)
    q = Question(tuple(counts), quick_conditions(counts, when))
    opts = Options(goings, turns, rules, mode, DEFAULT_TRIALS, None, budget or ExactBudget())
    return sweep_pool(quick_pool(size, counts), q, sweep_request(vary), opts, filler=filler, by=by)
