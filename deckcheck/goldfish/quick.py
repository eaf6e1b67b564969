"""Quick mode: goldfish odds without a deck file, from a deck size and category counts.

``simulate_counts(40, {"starter": 9, "brick": 6}, ["starter >= 1 and brick == 0"])`` answers
as the web hypergeometric calculators do: the categories are disjoint groups of interchangeable
cards, the rest of the deck (``size - sum(counts)``) is "other".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date as _date
from typing import TYPE_CHECKING

from deckcheck.error import GoldfishError, SpecError
from deckcheck.goldfish.condition import Condition, parse_condition
from deckcheck.goldfish.engine import (
    DEFAULT_TRIALS,
    Options,
    Pool,
    Question,
    check_options,
    check_samples,
    run,
)
from deckcheck.goldfish.exact import ExactBudget
from deckcheck.goldfish.result import CardCount, ExactMode, HandStats
from deckcheck.goldfish.rule import DrawRules, Going, draw_rules_for

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.rule.format import Format

MAX_SIZE = 200
"""Largest deck size accepted in quick mode."""
MAX_CATEGORIES = 60
"""Most categories accepted in quick mode."""
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_ .'&-]{0,79}")


def quick_pool(size: int, counts: Mapping[str, int]) -> Pool:
    """The pool of a quick-mode deck: one group per category, the rest "other".

    :class:`GoldfishError` for a bad size, count or category name, or counts over the size.
    """
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_SIZE:
        raise GoldfishError(f"size must be a whole number from 1 to {MAX_SIZE}, not {size!r}")
    if not counts:
        raise GoldfishError("quick mode needs at least one category count (name=copies)")
    if len(counts) > MAX_CATEGORIES:
        raise GoldfishError(f"at most {MAX_CATEGORIES} categories")
    for name, n in counts.items():
        if not isinstance(name, str) or not _NAME.fullmatch(name) or name.strip() != name:
            raise GoldfishError(
                f"category name {name!r}: use letters, digits, spaces and _ . ' & - "
                "(starting with a letter)"
            )
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise GoldfishError(f"count of {name!r} must be a whole number >= 0, not {n!r}")
    used = sum(counts.values())
    if used > size:
        raise GoldfishError(f"the counts add up to {used}, more than the deck size {size}")
    names = list(counts)
    copies = [counts[n] for n in names] + [size - used]
    members = [frozenset({n}) for n in names] + [frozenset()]
    cards = [CardCount(n, 0, counts[n]) for n in names] + [CardCount("other", 0, size - used)]
    return Pool(tuple(copies), tuple(members), (3,) * len(copies), tuple(cards), False)


def quick_conditions(
    counts: Mapping[str, int], when: Sequence[str] | Mapping[str, str] | None
) -> tuple[tuple[str, str, Condition], ...]:
    """Named conditions over the quick-mode categories; each named by its text unless named.

    Without any, each category gets "at least 1". :class:`SpecError` on a bad condition.
    """
    names = set(counts)
    items: list[tuple[str, str]]
    if when is None or not when:
        items = [(n, f"`{n}` >= 1") for n in counts]
    elif isinstance(when, Mapping):
        items = [(str(k), v) for k, v in when.items()]
    else:
        items = [(text, text) for text in when]
    out = []
    for name, text in items:
        if not isinstance(text, str):
            raise SpecError(f"condition {name!r}: expected a string such as 'starter >= 1'")
        try:
            cond = parse_condition(text, names)
        except SpecError as exc:
            raise SpecError(f"condition {text!r}: {exc}") from None
        out.append((name, str(cond), cond))
    return tuple(out)


def simulate_counts(
    size: int,
    counts: Mapping[str, int],
    when: Sequence[str] | Mapping[str, str] | None = None,
    *,
    going: str | Going | Sequence[Going] = "both",
    turns: int = 1,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = None,
    rules: DrawRules | None = None,
    exact: str | ExactMode = ExactMode.AUTO,
    format: str | Format = "tcg",
    date: _date | None = None,
    data: Dataset | None = None,
    budget: ExactBudget | None = None,
    distributions: bool = False,
    paired: bool = False,
    sample: int = 0,
    name: str | None = None,
) -> HandStats:
    """Quick mode: odds of ``when`` (condition texts, or a mapping name -> text; default: "at
    least 1" of each category) over a deck of ``size`` cards holding ``counts[c]`` cards of each
    (disjoint) category ``c``, the rest "other". Other arguments as :func:`simulate`; the
    result has no hand composition (the cards' kinds are unknown).
    """
    rules = rules or draw_rules_for(format, date, data)
    goings, mode = check_options(going, turns, trials, seed, exact)
    pool = quick_pool(size, counts)
    question = Question(tuple(counts), quick_conditions(counts, when))
    opts = Options(
        goings,
        turns,
        rules,
        mode,
        trials,
        seed,
        budget or ExactBudget(),
        distributions,
        check_samples(sample),
        paired,
    )
    most = max(n for g in goings for n in rules.seen(g, turns))
    warnings = []
    if most > size:
        warnings.append(
            f"the deck has {size} cards, fewer than the {most} seen: the odds assume the game "
            "stops drawing when the deck is empty"
        )
    return run(pool, question, opts, deck_name=name, default=False, warnings=warnings)
