"""Two goldfish runs side by side (``deckcheck simulate A --vs B``), with the differences.

:func:`compare` pairs the conditions both runs have (by name), for every going and turn both
have, and gives B − A: exact (a fraction) when both figures are, else with a 95% interval of the
difference (the two simulations are independent).
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
        var = 0.0
        for e in (self.a, self.b):
            if e.low is not None and e.high is not None:
                var += ((e.high - e.low) / (2 * Z95)) ** 2
        half = Z95 * math.sqrt(var)
        return self.diff - half, self.diff + half


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

    def to_dict(self, fractions: bool = False) -> dict[str, Any]:
        """JSON-ready form (``deckcheck simulate --vs ... -o json``)."""
        a_cats = {c.name: c.copies for c in self.a.categories}
        b_cats = {c.name: c.copies for c in self.b.categories}
        return {
            "labels": {"a": self.a_label, "b": self.b_label},
            "a": self.a.to_dict(fractions),
            "b": self.b.to_dict(fractions),
            "categories": [
                {"name": n, "a": a_cats.get(n), "b": b_cats.get(n)}
                for n in [*a_cats, *(n for n in b_cats if n not in a_cats)]
            ],
            "differences": [
                {
                    "name": d.name,
                    "going": d.going.value,
                    "turn": d.turn,
                    "a": d.a.probability,
                    "b": d.b.probability,
                    "diff": d.diff,
                    "ci": list(d.interval) if d.interval is not None else None,
                    **({"fraction": _text(d.fraction)} if fractions and d.fraction else {}),
                }
                for d in self.differences
            ],
            "only_a": list(self.only_a),
            "only_b": list(self.only_b),
        }


def _text(f: Fraction | None) -> str | None:
    return None if f is None else f"{f.numerator}/{f.denominator}"


def compare(a: HandStats, b: HandStats, a_label: str = "A", b_label: str = "B") -> Comparison:
    """Pair the conditions of ``a`` and ``b`` by name over the goings and turns both have."""
    b_by = {c.name: c for c in b.conditions}
    diffs = []
    for ca in a.conditions:
        cb = b_by.get(ca.name)
        if cb is None:
            continue
        for g in a.goings:
            if g not in cb.by_going:
                continue
            for t, (ea, eb) in enumerate(zip(ca.by_going[g], cb.by_going[g], strict=False)):
                diffs.append(Difference(ca.name, g, t + 1, ea, eb))
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
