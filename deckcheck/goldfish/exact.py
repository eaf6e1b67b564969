"""The exact engine: multivariate hypergeometric sums over groups of interchangeable cards.

For one condition, the cards of the deck fall into *atoms*: cards with the same memberships in
the categories the condition reads are interchangeable. A seen set of ``d`` cards is then a count
vector over the atoms (the rest, "other" cards, fill up to ``d``); its number of hands is
``prod C(n_i, x_i) * C(n_other, d - sum x)``. The engine enumerates every count vector at once
with numpy, evaluates the condition on all of them vectorised, and sums the matching weights as
exact integers: the probability is a :class:`~fractions.Fraction` over ``C(N, d)``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from deckcheck.goldfish.condition import Condition

MAX_VECTORS = 2_000_000
"""Largest number of count vectors the exact engine enumerates for one question."""

Group = tuple[int, frozenset[str]]
"""Copies of one distinct card and the categories it belongs to."""


def atoms_of(
    groups: Iterable[Group], names: frozenset[str]
) -> tuple[list[int], list[frozenset[str]], int]:
    """Merge groups into atoms over ``names``: (sizes, memberships, copies of the "other" atom)."""
    merged: dict[frozenset[str], int] = {}
    for copies, member in groups:
        key = member & names
        merged[key] = merged.get(key, 0) + copies
    other = merged.pop(frozenset(), 0)
    keys = sorted(merged, key=lambda k: sorted(k))
    return [merged[k] for k in keys], keys, other


def vector_count(sizes: Sequence[int], seen: int, other: int) -> int:
    """How many count vectors :func:`enumerate_vectors` would produce (a cheap DP)."""
    ways = [1] + [0] * seen
    for n in sizes:
        nxt = [0] * (seen + 1)
        for s, w in enumerate(ways):
            if w:
                for x in range(min(n, seen - s) + 1):
                    nxt[s + x] += w
        ways = nxt
    return sum(ways[max(0, seen - other) :])


def enumerate_vectors(sizes: Sequence[int], seen: int, other: int) -> tuple[Any, Any]:
    """Every feasible count vector over the atoms, and the number of hands with each.

    Returns ``(vectors, weights)``: an ``(M, len(sizes))`` int array and an ``(M,)`` array of
    exact hand counts (int64, or Python ints in an object array when ``C(N, d)`` is too large).
    """
    vec = np.zeros((1, 0), dtype=np.int64)
    total = np.zeros(1, dtype=np.int64)
    for n in sizes:
        reps = np.minimum(n, seen - total) + 1
        idx = np.repeat(np.arange(len(total)), reps)
        starts = np.cumsum(reps) - reps
        x = np.arange(int(reps.sum()), dtype=np.int64) - np.repeat(starts, reps)
        vec = np.concatenate([vec[idx], x[:, None]], axis=1)
        total = total[idx] + x
    keep = total >= seen - other
    vec, total = vec[keep], total[keep]
    big = math.comb(sum(sizes) + other, seen) >= 2**62
    dtype: Any = object if big else np.int64
    weights = (
        np.array([math.comb(other, seen - int(t)) for t in total], dtype=dtype)
        if big
        else (
            np.array([math.comb(other, k) for k in range(seen + 1)], dtype=np.int64)[seen - total]
        )
    )
    for i, n in enumerate(sizes):
        table = np.array([math.comb(n, k) for k in range(n + 1)], dtype=dtype)
        weights = weights * table[vec[:, i]]
    return vec, weights


class ExactEngine:
    """Exact probabilities of conditions over a deck's groups, with enumeration caches."""

    def __init__(self, groups: Sequence[Group]) -> None:
        self.groups = list(groups)
        self.deck_size = sum(c for c, _ in self.groups)
        self._cache: dict[tuple[tuple[int, ...], int, int], tuple[Any, Any]] = {}

    def size(self, condition: Condition, seen: int) -> int:
        """Count vectors needed for this question (compare with :data:`MAX_VECTORS`)."""
        sizes, _, other = atoms_of(self.groups, condition.names)
        return vector_count(sizes, min(seen, self.deck_size), other)

    def probability(self, condition: Condition, seen: int) -> Fraction:
        """P(condition holds over ``seen`` cards drawn from the deck), exactly."""
        seen = min(seen, self.deck_size)
        sizes, members, other = atoms_of(self.groups, condition.names)
        key = (tuple(sizes), other, seen)
        if key not in self._cache:
            self._cache[key] = enumerate_vectors(sizes, seen, other)
        vec, weights = self._cache[key]
        counts = {
            name: vec[:, [i for i, m in enumerate(members) if name in m]].sum(axis=1)
            for name in condition.names
        }
        mask = np.broadcast_to(np.asarray(condition.evaluate(counts), dtype=bool), weights.shape)
        hits = int(weights[mask].sum()) if mask.any() else 0
        return Fraction(hits, math.comb(self.deck_size, seen))

    def distribution(self, name: str, seen: int) -> list[Fraction]:
        """P(exactly k cards of category ``name`` among ``seen``), for k = 0..seen."""
        seen = min(seen, self.deck_size)
        n = sum(c for c, m in self.groups if name in m)
        total = math.comb(self.deck_size, seen)
        return [
            Fraction(math.comb(n, k) * math.comb(self.deck_size - n, seen - k), total)
            for k in range(seen + 1)
        ]
