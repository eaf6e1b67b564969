"""Two goldfish runs side by side (``deckcheck simulate A --vs B``), with the differences.

:func:`compare` pairs the conditions both runs have (by name), for every going and turn both
have, and gives B − A: exact (a fraction) when both figures are, else with a 95% interval of the
difference. Two simulations on one seed (and the same games per going) share their random
numbers, so their games are paired: when both runs kept their games' outcomes (``paired=True``)
the interval is that of the mean of the games' differences (common random numbers),
``B − A ± z·sqrt((n10 + n01)/n − (B − A)²)/sqrt(n)``, with ``n10``/``n01`` the games where only A
/ only B met the condition. Otherwise the two intervals are combined as independent ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from deckcheck.goldfish.result import Z95, Estimate, HandStats
from deckcheck.goldfish.rule import Going


@dataclass(frozen=True, slots=True)
class Difference:
    """One condition at one going and turn in both runs: A, B and B − A."""

    name: str
    going: Going
    turn: int
    a: Estimate
    b: Estimate
    discordant: tuple[int, int, int] | None = None
    """Paired games: (only A met it, only B met it, games), else None."""

    @property
    def diff(self) -> float:
        """B − A."""
        return self.b.probability - self.a.probability

    @property
    def fraction(self) -> Fraction | None:
        """B − A exactly, when both are exact."""
        if self.a.fraction is None or self.b.fraction is None:
            return None
        return self.b.fraction - self.a.fraction

    @property
    def interval(self) -> tuple[float, float] | None:
        """A 95% interval of B − A when a figure is simulated (None when both are exact)."""
        if self.fraction is not None:
            return None
        if self.discordant is not None:
            only_a, only_b, n = self.discordant
            mean = (only_b - only_a) / n
            var = max(0.0, (only_a + only_b) / n - mean * mean) / n
            half = Z95 * math.sqrt(var)
            return mean - half, mean + half
        var = 0.0
        for e in (self.a, self.b):
            if e.low is not None and e.high is not None:
                var += ((e.high - e.low) / (2 * Z95)) ** 2
        half = Z95 * math.sqrt(var)
        return self.diff - half, self.diff + half

    @property
    def method(self) -> str:
        """``exact``, ``paired`` or ``independent``: how B − A and its interval were found."""
        if self.fraction is not None:
            return "exact"
        return "paired" if self.discordant is not None else "independent"


@dataclass(frozen=True, slots=True)
class Comparison:
    """Runs A and B, their differences, and what only one of them has."""

    a: HandStats
    b: HandStats
    a_label: str
    b_label: str
    differences: tuple[Difference, ...]
    only_a: tuple[str, ...] = ()
    only_b: tuple[str, ...] = ()

    @property
    def paired(self) -> bool:
        """Whether any simulated difference is paired (both runs on one seed)."""
        return any(d.discordant is not None for d in self.differences)

    @property
    def unpaired_reason(self) -> str | None:
        """Why simulated differences are independent ones, when some are."""
        if not any(d.method == "independent" for d in self.differences):
            return None
        a, b = self.a, self.b
        if a.seed is None or b.seed is None or a.seed != b.seed:
            return "the runs have different seeds: independent intervals"
        if a.trials != b.trials:
            return "the runs have different numbers of games: independent intervals"
        if not any(d.a.fraction is None and d.b.fraction is None for d in self.differences):
            return None  # one side exact: nothing to pair
        return "the games' outcomes were not kept (too many, or not asked): independent intervals"


def _discordant(a: Any, b: Any, turn: int) -> tuple[int, int, int] | None:
    """(games only A met, games only B met, games) of one turn of two paired runs."""
    if a is None or b is None:
        return None
    import numpy as np

    x, y = a[turn], b[turn]
    return int(np.count_nonzero(x & ~y)), int(np.count_nonzero(~x & y)), len(x)


def _text(f: Fraction | None) -> str | None:
    return None if f is None else f"{f.numerator}/{f.denominator}"


def compare(a: HandStats, b: HandStats, a_label: str = "A", b_label: str = "B") -> Comparison:
    """Pair the conditions of ``a`` and ``b`` by name over the goings and turns both have.

    Simulated figures of two runs on one seed with the same games, both run with
    ``paired=True``, get the paired (common random numbers) interval; others independent ones.
    """
    b_by = {c.name: i for i, c in enumerate(b.conditions)}
    pair = (
        a.seed is not None
        and a.seed == b.seed
        and a.trials == b.trials
        and a.outcomes is not None
        and b.outcomes is not None
    )
    diffs = []
    for i, ca in enumerate(a.conditions):
        j = b_by.get(ca.name)
        if j is None:
            continue
        cb = b.conditions[j]
        for g in a.goings:
            if g not in cb.by_going:
                continue
            for t, (ea, eb) in enumerate(zip(ca.by_going[g], cb.by_going[g], strict=False)):
                games = None
                if pair and ea.fraction is None and eb.fraction is None:
                    games = _discordant(a.outcomes[g][i], b.outcomes[g][j], t)
                diffs.append(Difference(ca.name, g, t + 1, ea, eb, games))
    a_names = {c.name for c in a.conditions}
    return Comparison(
        a,
        b,
        a_label,
        b_label,
        tuple(diffs),
        tuple(c.name for c in a.conditions if c.name not in b_by),
        tuple(c.name for c in b.conditions if c.name not in a_names),
    )
