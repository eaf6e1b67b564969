"""The Monte Carlo engine: vectorised, seeded goldfish hands, with card effects.

Hands are dealt in batches with numpy: a partial Fisher-Yates shuffle of the deck for every
trial at once (only as deep as the cards seen when no effect can dig further). Category counts
come from a membership lookup; conditions evaluate on whole arrays of counts.

With effects, each trial also keeps the deck order, how many cards left its top and the hand,
and plays effects turn by turn with a fixed policy (:mod:`deckcheck.goldfish.table`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from deckcheck.goldfish.condition import Condition, deck_key
from deckcheck.goldfish.rule import Going

KINDS = 3
"""Composition buckets: Monster, Spell, Trap."""


@dataclass(frozen=True)
class Deal:
    """The deck as the engine sees it.

    ``cards``: distinct-card index of each copy (N,); ``member``: (K, C) bool, card k in
    category c; ``kind``: (K,) 0 Monster, 1 Spell, 2 Trap.
    """

    cards: Any
    member: Any
    names: tuple[str, ...]
    kind: Any


@dataclass
class Tally:
    """Successes per condition and turn, hand-composition counts at turn 1, and trials run."""

    hits: Any
    composition: Any
    trials: int
    outcomes: Any = None
    """With ``keep``: (conditions, turns, trials) bool, each game's outcome (for pairing)."""


def _env(names: Sequence[str], row: Any, left: Any) -> dict[str, Any]:
    """Counts by category name for the conditions, and by :func:`deck_key` the copies still in
    the deck (``left``: an array (t, C) or (C,) of them)."""
    env = {name: row[:, c] for c, name in enumerate(names)}
    if left is not None:
        env |= {deck_key(name): left[..., c] for c, name in enumerate(names)}
    return env


def _totals(deal: Deal, conditions: Sequence[Condition]) -> Any:
    """Copies of each category in the deck, when a condition counts cards left in it."""
    if not any(c.reads_deck for c in conditions):
        return None
    return deal.member[deal.cards].sum(axis=0).astype(np.int64)


def _shuffle(rng: np.random.Generator, labels: Any, trials: int, depth: int) -> Any:
    """``trials`` shuffles of ``labels``, only the first ``depth`` positions made random."""
    n = len(labels)
    deck = np.tile(labels, (trials, 1))
    rows = np.arange(trials)
    for i in range(min(depth, n - 1)):
        j = rng.integers(i, n, size=trials)
        picked = deck[rows, j]
        deck[rows, j] = deck[:, i]
        deck[:, i] = picked
    return deck


def _batch(trials: int, width: int) -> int:
    return int(max(1000, min(trials, 250_000, 24_000_000 // max(1, width))))


def _atoms(deal: Deal) -> tuple[Any, Any]:
    """Cards merged into atoms (the same categories and kind), so lookups stay small: each
    card's atom, and per atom its category counts then a one-hot kind (atoms, C + kinds)."""
    keys = [(*deal.member[k].tolist(), int(deal.kind[k])) for k in range(len(deal.kind))]
    atom_of: dict[tuple[Any, ...], int] = {}
    card_atom = np.array([atom_of.setdefault(key, len(atom_of)) for key in keys], dtype=np.int64)
    n_cat = len(deal.names)
    look = np.zeros((len(atom_of), n_cat + KINDS), dtype=np.int16)
    for a, key in enumerate(atom_of):
        look[a, :n_cat] = key[:n_cat]
        if key[n_cat] < KINDS:
            look[a, n_cat + key[n_cat]] = 1
    return card_atom, look


def simulate_plain(
    deal: Deal,
    conditions: Sequence[Condition],
    seen: Mapping[Going, list[int]],
    trials: int,
    rng: np.random.Generator,
    keep: bool = False,
) -> dict[Going, Tally]:
    """Hands without effects: each going shares the same shuffles (prefixes of one order).

    ``keep``: also keep each game's outcome of every condition and turn (``Tally.outcomes``).
    """
    card_atom, look = _atoms(deal)
    labels = card_atom[deal.cards].astype(np.int16)
    depth = min(max(max(v) for v in seen.values()), len(labels))
    turns = len(next(iter(seen.values())))
    out = {
        g: Tally(
            np.zeros((len(conditions), turns), dtype=np.int64),
            np.zeros((KINDS, depth + 1), dtype=np.int64),
            0,
            np.zeros((len(conditions), turns, trials), dtype=bool) if keep else None,
        )
        for g in seen
    }
    stops = sorted({min(d, depth) for v in seen.values() for d in v})
    totals = _totals(deal, conditions)
    bases = np.minimum(np.bincount(labels, minlength=len(look)), depth) + 1
    space = int(np.prod(bases.astype(object)))
    hands = _Hands(labels, look, deal.names, conditions, seen, trials, rng, totals)
    if depth <= SPARSE_DEPTH and space * len(stops) <= MAX_CODES:
        _plain_by_codes(out, hands, bases, stops)
    else:
        _plain_by_deals(out, hands, depth)
    return out


@dataclass(frozen=True)
class _Hands:
    """What the plain engines deal from and ask: the deck's atoms and their counts, the
    conditions, the cards seen per going and turn, the trials, and the deck's totals (or
    None)."""

    labels: Any
    look: Any
    names: tuple[str, ...]
    conditions: Sequence[Condition]
    seen: Mapping[Going, list[int]]
    trials: int
    rng: np.random.Generator
    totals: Any


def _plain_by_deals(out: dict[Going, Tally], hands: _Hands, depth: int) -> None:
    """The general path: deal ``depth`` cards of every trial, batch by batch, and evaluate the
    conditions on each hand."""
    n_cat = len(hands.names)
    size = _batch(hands.trials, depth * (n_cat + KINDS))
    done = 0
    while done < hands.trials:
        t = min(size, hands.trials - done)
        hand = _shuffle(hands.rng, hands.labels, t, depth)[:, :depth]
        cum = np.cumsum(hands.look[hand], axis=1, dtype=np.int16)  # (t, depth, C + kinds)
        for going, per_turn in hands.seen.items():
            tally = out[going]
            for turn, d in enumerate(per_turn):
                row = cum[:, min(d, depth) - 1, :] if d > 0 else np.zeros_like(cum[:, 0, :])
                _tally_batch(tally, hands, row, turn, slice(done, done + t))
                if turn == 0:
                    for k in range(KINDS):
                        tally.composition[k] += np.bincount(row[:, n_cat + k], minlength=depth + 1)
            tally.trials += t
        done += t


def _tally_batch(tally: Tally, hands: _Hands, row: Any, turn: int, games: slice) -> None:
    """Count the hits of every condition on a batch of hands (``row``: their counts)."""
    n_cat = len(hands.names)
    left = None if hands.totals is None else hands.totals - row[:, :n_cat]
    env = _env(hands.names, row, left)
    for i, cond in enumerate(hands.conditions):
        hit = np.broadcast_to(cond.evaluate(env), (len(row),))
        tally.hits[i, turn] += int(np.count_nonzero(hit))
        if tally.outcomes is not None:
            tally.outcomes[i, turn, games] = hit


SPARSE_DEPTH = 16
"""Deepest hand dealt by the sparse shuffle (its cost grows with the square of the depth)."""
MAX_CODES = 1 << 23
"""Largest histogram of hand shapes kept by the fast path (shapes times distinct depths)."""


def _sparse_deal(rng: np.random.Generator, labels: Any, t: int, depth: int) -> list[Any]:
    """The atoms of the first ``depth`` cards of ``t`` shuffles, as ``depth`` (t,) arrays.

    A Fisher-Yates shuffle that never builds the deck: step ``i`` swaps position ``i`` with a
    random position ``j >= i``; the swaps done so far are kept as (position, value) overrides.
    """
    n = len(labels)
    pos: list[Any] = []
    over: list[Any] = []
    drawn: list[Any] = []
    for i in range(depth):
        j = rng.integers(i, n, size=t, dtype=np.int16)
        val = labels[j]
        cur: Any = labels[i]
        for p, v in zip(pos, over, strict=True):
            val = np.where(j == p, v, val)
            cur = np.where(p == i, v, cur)
        drawn.append(val)
        pos.append(j)
        over.append(np.broadcast_to(cur, (t,)) if np.ndim(cur) == 0 else cur)
    return drawn


def _plain_by_codes(out: dict[Going, Tally], hands: _Hands, bases: Any, stops: list[int]) -> None:
    """The fast path: histogram each hand's shape (its atom counts, as one mixed-radix integer),
    then evaluate the conditions once per distinct shape."""
    radix = np.cumprod(np.concatenate([[1], bases[:-1]])).astype(np.int64)
    keep = next(iter(out.values())).outcomes is not None
    hist, games = _shape_histograms(hands, radix, int(np.prod(bases)), stops, keep)
    codes = {d: np.flatnonzero(h) for d, h in hist.items()}
    depth = max(stops)
    for going, per_turn in hands.seen.items():
        tally = out[going]
        tally.trials = hands.trials
        for turn, d in enumerate(per_turn):
            d = min(d, depth)
            shapes = codes[d]
            weight = hist[d][shapes]
            counts = ((shapes[:, None] // radix) % bases) @ hands.look.astype(np.int64)
            for i, mask in enumerate(_masks(hands, counts, weight.shape)):
                tally.hits[i, turn] = int(weight[mask].sum())
                if tally.outcomes is not None:  # each game's shape, looked up among the shapes
                    tally.outcomes[i, turn] = (
                        mask[np.searchsorted(shapes, games[d])] if d else mask[0]
                    )
            if turn == 0:
                _composition(tally, counts, weight, len(hands.names))


def _shape_histograms(
    hands: _Hands, radix: Any, space: int, stops: list[int], keep: bool
) -> tuple[dict[int, Any], dict[int, Any]]:
    """Per number of cards seen (``stops``), how many games had each hand shape; with ``keep``
    also each game's shape."""
    step = radix  # drawing a card of atom a adds radix[a] to the hand's code
    hist = {d: np.zeros(space, dtype=np.int64) for d in stops}
    trials = hands.trials
    games = {d: np.zeros(trials, dtype=np.int64) for d in stops} if keep else {}
    depth = max(stops)
    size = int(min(trials, 500_000))
    done = 0
    while done < trials:
        t = min(size, trials - done)
        code: Any = np.zeros(t, dtype=np.int64 if space >= 1 << 31 else np.int32)
        if 0 in hist:
            hist[0][0] += t
        for i, val in enumerate(_sparse_deal(hands.rng, hands.labels, t, depth)):
            code += step[val]
            if i + 1 in hist:
                hist[i + 1] += np.bincount(code, minlength=space)
                if keep:
                    games[i + 1][done : done + t] = code
        done += t
    return hist, games


def _masks(hands: _Hands, counts: Any, shape: tuple[int, ...]) -> list[Any]:
    """Whether each hand shape (``counts``) meets each condition."""
    n_cat = len(hands.names)
    left = None if hands.totals is None else hands.totals - counts[:, :n_cat]
    env = _env(hands.names, counts, left)
    return [
        np.broadcast_to(np.asarray(cond.evaluate(env), dtype=bool), shape)
        for cond in hands.conditions
    ]


def _composition(tally: Tally, counts: Any, weight: Any, n_cat: int) -> None:
    """The turn-1 hands' composition: games by number of Monsters, Spells and Traps."""
    for k in range(KINDS):
        tally.composition[k] = np.bincount(
            counts[:, n_cat + k], weights=weight, minlength=tally.composition.shape[1]
        ).astype(np.int64)
