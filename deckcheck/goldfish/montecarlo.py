"""The Monte Carlo engine: vectorised, seeded goldfish hands, with card effects.

Hands are dealt in batches with numpy: a partial Fisher-Yates shuffle of the deck for every
trial at once (only as deep as the cards seen when no effect can dig further). Category counts
come from a membership lookup; conditions evaluate on whole arrays of counts.

With effects, each trial also keeps the deck order, how many cards left its top and the hand,
and plays effects turn by turn with a fixed policy (see :func:`simulate_effects`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from deckcheck.goldfish.condition import Condition, deck_key
from deckcheck.goldfish.rule import Going
from deckcheck.goldfish.spec import Effect, EffectKind

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


class _Table:
    """The state of a batch of goldfish games with effects (one row per trial).

    ``deck`` holds each trial's deck order; the cards that left it (drawn, added, banished)
    are always its first ``top`` positions, so the deck is ``deck[top:]``. The order is dealt
    lazily (a Fisher-Yates shuffle done only as deep as the game looks): positions
    ``top..front`` are in their final random order, ``front..pool_end`` hold the other cards in
    no particular order (each one is equally likely to come next), and ``pool_end..`` are the
    cards put on the bottom, in order. A shuffle (after a search) just makes every card of the
    deck part of that pool again.
    """

    def __init__(self, deal: Deal, effects: Mapping[int, Effect], t: int, rng: Any) -> None:
        self.deal = deal
        self.t = t
        self.rng = rng
        n_cards = len(deal.kind)
        self.k = n_cards
        self.n = len(deal.cards)
        small = np.int8 if n_cards < 128 else np.int16
        self.deck = np.tile(deal.cards.astype(small), (t, 1))
        self.top = np.zeros(t, dtype=np.int64)
        self.front = np.zeros(t, dtype=np.int64)
        self.pool_end = np.full(t, self.n, dtype=np.int64)
        self.hand = np.zeros((t, n_cards), dtype=np.int16)
        self.unused = np.zeros((t, n_cards), dtype=np.int16)
        self.is_effect = np.zeros(n_cards, dtype=np.int16)
        for k in effects:
            self.is_effect[k] = 1
        self.lock = np.zeros(t, dtype=bool)
        """No more draws by card effects this turn (Prosperity, Extravagance)."""
        self.drew = np.zeros(t, dtype=bool)
        """A card effect drew this turn (Prosperity can then not be activated)."""
        self.acted = np.zeros(t, dtype=bool)
        """An effect was played this turn (Extravagance only starts a turn)."""
        self.used = {k: np.zeros(t, dtype=bool) for k in effects}

    def _deal(self, rows: Any, upto: Any) -> None:
        """Fix the random order of the deck of each trial in ``rows`` down to ``upto``."""
        upto = np.minimum(upto, self.pool_end[rows])
        flat = self.deck.reshape(-1)  # a view: flat indices are cheaper than pairs
        while len(rows):
            need = self.front[rows] < upto
            if not need.all():
                rows, upto = rows[need], upto[need]
                if not len(rows):
                    return
            q = self.front[rows]
            j = q + (self.rng.random(len(rows)) * (self.pool_end[rows] - q)).astype(np.int64)
            base = rows * self.n
            card = flat[base + j]
            flat[base + j] = flat[base + q]
            flat[base + q] = card
            self.front[rows] = q + 1

    def open_hand(self, size: int) -> None:
        """Deal every trial's opening hand (the first Fisher-Yates steps, on whole columns)."""
        size = min(size, self.n)
        flat = self.deck.reshape(-1)
        base = np.arange(self.t) * self.n
        for i in range(size):
            at = base + i + (self.rng.random(self.t) * (self.n - i)).astype(np.int64)
            card = flat[at]
            flat[at] = self.deck[:, i]
            self.deck[:, i] = card
        self.top[:] = size
        self.front[:] = size
        hand = self.hand.reshape(-1)
        base = np.arange(self.t) * self.k
        for i in range(size):  # one card per trial at a time: no index repeats
            hand[base + self.deck[:, i]] += 1
        self.unused = self.hand * self.is_effect  # hands start empty

    def new_turn(self) -> None:
        """Reset the once-per-turn marks and the turn's draw lock."""
        self.lock[:] = False
        self.drew[:] = False
        self.acted[:] = False
        for used in self.used.values():
            used[:] = False

    def remaining(self) -> Any:
        """Cards left in the deck of each trial."""
        return self.n - self.top

    def take_top(self, rows: Any, n: int) -> tuple[Any, Any]:
        """Remove the top ``n`` cards of each trial in ``rows`` (fewer if the deck runs out):
        their positions ``(len(rows), n)`` and which of them are real."""
        start = self.top[rows]
        end = np.minimum(start + n, self.n)
        self._deal(rows, end)
        pos = start[:, None] + np.arange(n)[None, :]
        self.top[rows] = end
        self.front[rows] = np.maximum(self.front[rows], end)
        return np.minimum(pos, self.n - 1), pos < self.n

    def add(self, rows: Any, pos: Any, valid: Any) -> None:
        """Put the cards at positions ``pos`` (where ``valid``) of ``rows`` into the hands."""
        ids = self.deck.reshape(-1)[rows[:, None] * self.n + pos].astype(np.int64)
        hand, unused = self.hand.reshape(-1), self.unused.reshape(-1)
        base = rows * self.k
        effects = self.is_effect.any()
        for c in range(ids.shape[1]):  # one card per trial at a time: no index repeats
            ok = valid[:, c]
            card = ids[:, c] if ok.all() else ids[ok, c]
            idx = base + card if ok.all() else base[ok] + card
            hand[idx] += 1
            if effects:
                unused[idx] += self.is_effect[card]

    def draw(self, rows: Any, n: int) -> None:
        """Draw ``n`` cards for each trial in ``rows``."""
        if n > 0 and len(rows):
            self.add(rows, *self.take_top(rows, n))

    def _reorder(self, rows: Any, key: Any) -> None:
        order = np.argsort(key, axis=1, kind="stable")
        self.deck[rows] = np.take_along_axis(self.deck[rows], order, axis=1)

    def in_deck(self, rows: Any) -> Any:
        """(len(rows), N) bool: the positions still in the deck."""
        return np.arange(self.n)[None, :] >= self.top[rows][:, None]

    def take_at(self, rows: Any, pos: Any) -> None:
        """Add the card at position ``pos`` (one per row, in the deck) to the hand."""
        start = self.top[rows]
        card = self.deck[rows, pos]
        self.deck[rows, pos] = self.deck[rows, start]  # the top card takes its place
        self.deck[rows, start] = card
        self.top[rows] = start + 1
        self.add(rows, start[:, None], np.ones((len(rows), 1), dtype=bool))

    def to_bottom(self, rows: Any, put: Any) -> None:
        """Move the deck's cards at positions ``put`` (bool (len(rows), N), dealt already) to
        the bottom, in their order."""
        pos = np.arange(self.n)
        self.front[rows] -= (put & (pos[None, :] < self.front[rows][:, None])).sum(axis=1)
        self.pool_end[rows] -= (put & (pos[None, :] < self.pool_end[rows][:, None])).sum(axis=1)
        self._reorder(rows, np.where(put, self.n + pos, pos))

    def shuffle(self, rows: Any) -> None:
        """Shuffle the deck of each trial in ``rows`` (after a search, as the game does): every
        card left becomes part of the pool again."""
        self.front[rows] = self.top[rows]
        self.pool_end[rows] = self.n

    def left(self) -> Any:
        """(t, C) copies of every category still in the deck (bottom cards included)."""
        inside = self.in_deck(np.arange(self.t)).astype(np.int16)
        return np.einsum("tn,tnc->tc", inside, self.deal.member[self.deck].astype(np.int16))

    def counts(self) -> Any:
        """(t, C + kinds) counts of every category and kind among the cards reached so far.

        Cards of no known kind (unknown passcodes) count in no kind.
        """
        kinds = np.eye(KINDS + 1, dtype=np.int16)[self.deal.kind][:, :KINDS]
        member = np.concatenate([self.deal.member.astype(np.int16), kinds], axis=1)
        return self.hand @ member


_ORDER = {
    EffectKind.DRAW_LOCK: -1,
    EffectKind.DRAW: 0,
    EffectKind.DESIRES: 1,
    EffectKind.SEARCH: 2,
    EffectKind.EXCAVATE: 3,
}
"""Priority of the effect kinds in the play policy (lowest first)."""
_DRAWS = (EffectKind.DRAW, EffectKind.DESIRES)
"""Kinds that draw cards by a card effect."""


def _playable(table: _Table, k: int, effect: Effect, names: Mapping[str, int]) -> Any:
    """(t,) bool: the trials where effect card ``k`` can be played now."""
    ok = table.unused[:, k] > 0
    if effect.once_per_turn:
        ok &= ~table.used[k]
    if effect.kind in _DRAWS:
        ok &= ~table.lock
    if effect.kind is EffectKind.EXCAVATE:  # Prosperity: not in a turn with effect draws
        ok &= ~table.drew
    if effect.kind is EffectKind.DRAW_LOCK:  # Extravagance: at the start of Main Phase 1 only
        ok &= ~table.acted & ~table.lock
    if effect.kind in (EffectKind.DESIRES, EffectKind.EXCAVATE):
        ok &= table.remaining() >= effect.count
    if effect.kind is EffectKind.SEARCH and ok.any():
        assert effect.target is not None
        rows = np.flatnonzero(ok)
        target = table.deal.member[:, names[effect.target]]
        ok[rows] = (table.in_deck(rows) & target[table.deck[rows]]).any(axis=1)
    return ok


def _search(table: _Table, rows: Any, category: int) -> None:
    """Add the first card of the category left in each deck, then shuffle the deck."""
    cand = table.in_deck(rows) & table.deal.member[:, category][table.deck[rows]]
    # which card of the category: any one, at random (the deck is shuffled next)
    key = np.where(cand, table.rng.random(cand.shape), -1.0)
    table.take_at(rows, np.argmax(key, axis=1))
    table.shuffle(rows)


def _excavate(table: _Table, rows: Any, effect: Effect, names: Mapping[str, int]) -> None:
    """Excavate ``count`` (the deck holds them: see :func:`_playable`), add the best card by
    ``prefer``, put the rest on the bottom in their order; no more effect draws this turn."""
    start = table.top[rows]
    table._deal(rows, start + effect.count)
    pos = start[:, None] + np.arange(effect.count)[None, :]
    rank = np.full(table.k, len(effect.prefer), dtype=np.int64)
    for r_i, cat in reversed(list(enumerate(effect.prefer))):
        rank[table.deal.member[:, names[cat]]] = r_i
    pick = np.argmin(rank[table.deck[rows[:, None], pos]], axis=1)
    table.take_at(rows, start + pick)  # the others are now at start + 1 .. start + count - 1
    index = np.arange(table.n)[None, :]
    table.to_bottom(rows, (index > start[:, None]) & (index < (start + effect.count)[:, None]))
    table.lock[rows] = True


def _play(table: _Table, rows: Any, effect: Effect, names: Mapping[str, int]) -> None:
    """Resolve ``effect`` in the trials ``rows``."""
    if effect.kind is EffectKind.DRAW:
        table.draw(rows, effect.count)
        table.drew[rows] = True
    elif effect.kind is EffectKind.DESIRES:
        table.take_top(rows, effect.count)
        table.draw(rows, 2)
        table.drew[rows] = True
    elif effect.kind is EffectKind.DRAW_LOCK:
        table.draw(rows, effect.count)
        table.drew[rows] = True
        table.lock[rows] = True
    elif effect.kind is EffectKind.SEARCH:
        assert effect.target is not None
        _search(table, rows, names[effect.target])
    else:
        _excavate(table, rows, effect, names)


def _resolve(table: _Table, effects: Mapping[int, Effect], deal: Deal) -> None:
    """Play effects in every trial until none can be played (the documented policy).

    At each step every trial plays the first playable effect in priority order: draw spells (in
    spec order), Desires-like, searchers, excavators.
    """
    names = {n: i for i, n in enumerate(deal.names)}
    ranked = sorted(effects.items(), key=lambda kv: _ORDER[kv[1].kind])
    for _ in range(4 * len(deal.cards) + 4):
        played = False
        pending = np.ones(table.t, dtype=bool)  # one effect per trial and step: the first playable
        for k, effect in ranked:
            rows = np.flatnonzero(pending & _playable(table, k, effect, names))
            if not len(rows):
                continue
            played = True
            pending[rows] = False
            table.unused[rows, k] -= 1
            table.used[k][rows] = True
            table.acted[rows] = True
            _play(table, rows, effect, names)
        if not played:
            return


def simulate_effects(
    deal: Deal,
    conditions: Sequence[Condition],
    effects: Mapping[int, Effect],
    hand_size: int,
    draws: Mapping[Going, list[int]],
    trials: int,
    rngs: Mapping[Going, np.random.Generator],
    keep: bool = False,
) -> dict[Going, Tally]:
    """Goldfish games with effects, turn by turn, for each going separately (each going has
    its own random stream, so its figures do not depend on which other goings are asked).

    Each turn: the Draw Phase draw, then effects are played until none can be. Policy: plain
    draw spells first (in spec order), then Pot of Desires-like effects, then searchers, and
    excavators last (they stop effect draws for the rest of the turn). Once-per-turn effects play
    once per turn; the others play every copy. Every card that reached the hand counts, played
    or not; banished and excavated-but-not-added cards do not (the latter go to the bottom of the
    deck and are treated as out of reach).
    """
    turns = len(next(iter(draws.values())))
    n_cat = len(deal.names)
    reads_deck = any(c.reads_deck for c in conditions)
    out: dict[Going, Tally] = {}
    for going, per_turn in draws.items():
        depth = len(deal.cards)
        tally = Tally(
            np.zeros((len(conditions), turns), dtype=np.int64),
            np.zeros((KINDS, depth + 1), dtype=np.int64),
            0,
            np.zeros((len(conditions), turns, trials), dtype=bool) if keep else None,
        )
        size = _batch(trials, 6 * len(deal.cards) + 2 * len(deal.kind))
        done = 0
        while done < trials:
            t = min(size, trials - done)
            table = _Table(deal, effects, t, rngs[going])
            table.open_hand(hand_size)
            for turn, n in enumerate(per_turn):
                table.new_turn()
                table.draw(np.arange(t), n)
                _resolve(table, effects, deal)
                row = table.counts()
                env = _env(deal.names, row, table.left() if reads_deck else None)
                for i, cond in enumerate(conditions):
                    hit = np.broadcast_to(cond.evaluate(env), (t,))
                    tally.hits[i, turn] += int(np.count_nonzero(hit))
                    if tally.outcomes is not None:
                        tally.outcomes[i, turn, done : done + t] = hit
                if turn == 0:
                    for k in range(KINDS):
                        tally.composition[k] += np.bincount(
                            np.minimum(row[:, n_cat + k], depth), minlength=depth + 1
                        )
            tally.trials += t
            done += t
        out[going] = tally
    return out
