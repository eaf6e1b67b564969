"""Goldfish games with card effects, turn by turn, on whole batches of trials.

Each trial keeps its deck order, how many cards left its top and the hand, and plays effects
turn by turn with a fixed policy (see :func:`simulate_effects`); the dealing, tallies and
condition environment are the plain engine's (:mod:`deckcheck.goldfish.montecarlo`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from deckcheck.goldfish.condition import Condition
from deckcheck.goldfish.montecarlo import KINDS, Deal, Tally, _batch, _env
from deckcheck.goldfish.rule import Going
from deckcheck.goldfish.spec import Effect, EffectKind


class _Table:
    """The state of a batch of goldfish games with effects (one row per trial).

    ``deck`` holds each trial's deck order; the cards that left it (drawn, added, banished)
    are always its first ``top`` positions, so the deck is ``deck[top:]``. The order is dealt
    lazily (a Fisher-Yates shuffle done only as deep as the game looks): positions
    ``top..front`` are in their final random order, ``front..pool_end`` hold the other cards in
    no particular order (each one is equally likely to come next), and ``pool_end..`` are the
    cards put on the bottom, in order. A shuffle (after a search) just makes every card of the
    deck part of that pool again.

    ``hand`` is card-major, (K, t): each card's copies in every trial's hand, so a card's column
    of the batch is one contiguous row; ``played`` counts each effect card's copies played.
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
        self.hand = np.zeros((n_cards, t), dtype=np.int16)
        self.played = {k: np.zeros(t, dtype=np.int16) for k in effects}
        self.lock = np.zeros(t, dtype=bool)
        """No more draws by card effects this turn (Prosperity, Extravagance)."""
        self.drew = np.zeros(t, dtype=bool)
        """A card effect drew this turn (Prosperity can then not be activated)."""
        self.acted = np.zeros(t, dtype=bool)
        """An effect was played this turn (Extravagance only starts a turn)."""
        self.used = {k: np.zeros(t, dtype=bool) for k in effects}

    def _deal(self, rows: Any, upto: Any) -> None:
        """Fix the random order of the deck of each trial in ``rows`` down to ``upto``.

        One Fisher-Yates step per position, on every row that still needs one (the rows drop
        out in order as they reach ``upto``); positions are flat indices into the deck.
        """
        q = self.front[rows]
        end = np.minimum(upto, self.pool_end[rows])
        steps = end - q
        live = steps > 0
        if not live.all():
            rows, q, end, steps = rows[live], q[live], end[live], steps[live]
        if not len(rows):
            return
        flat = self.deck.reshape(-1)  # a view: flat indices are cheaper than pairs
        at = rows * self.n + q
        span = self.pool_end[rows] - q
        for i in range(int(steps.max())):
            if i and not (live := steps > i).all():
                at, span, steps = at[live], span[live], steps[live]
            j = at + (self.rng.random(len(at)) * span).astype(np.int64)
            card = flat[j]
            flat[j] = flat[at]
            flat[at] = card
            at += 1
            span -= 1
        self.front[rows] = end

    def open_hand(self, size: int) -> None:
        """Deal every trial's opening hand (the first Fisher-Yates steps, on whole columns)."""
        size = min(size, self.n)
        flat = self.deck.reshape(-1)
        trial = np.arange(self.t)
        base = trial * self.n
        hand = self.hand.reshape(-1)
        draws = self.rng.random((size, self.t))  # the same stream as one call per step
        for i in range(size):
            at = base + i + (draws[i] * (self.n - i)).astype(np.int64)
            card = flat[at]
            flat[at] = self.deck[:, i]
            self.deck[:, i] = card
            hand[card.astype(np.int64) * self.t + trial] += 1  # one card per trial: no repeats
        self.top[:] = size
        self.front[:] = size

    def new_turn(self) -> None:
        """Reset the once-per-turn marks and the turn's draw lock."""
        self.lock[:] = False
        self.drew[:] = False
        self.acted[:] = False
        for used in self.used.values():
            used[:] = False

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
        hand = self.hand.reshape(-1)
        for c in range(ids.shape[1]):  # one card per trial at a time: no index repeats
            ok = valid[:, c]
            if ok.all():
                hand[ids[:, c] * self.t + rows] += 1
            else:
                hand[ids[ok, c] * self.t + rows[ok]] += 1

    def draw(self, rows: Any, n: int) -> None:
        """Draw ``n`` cards for each trial in ``rows``."""
        if n > 0 and len(rows):
            self.add(rows, *self.take_top(rows, n))

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
        self.hand.reshape(-1)[card.astype(np.int64) * self.t + rows] += 1

    def to_bottom(self, rows: Any, m: int) -> None:
        """Move the top ``m`` cards of each deck in ``rows`` (dealt already, and in the deck)
        to its bottom, in their order: the deck's other cards move up ``m`` places."""
        top = self.top[rows][:, None]
        pos = np.arange(self.n)[None, :]
        src = pos + m * (pos >= top)
        src = np.where(src >= self.n, src - (self.n - top), src)
        self.deck[rows] = np.take_along_axis(self.deck[rows], src, axis=1)
        top = top[:, 0]  # the moved positions before each mark leave the dealt part, the pool
        self.front[rows] -= np.clip(self.front[rows] - top, 0, m)
        self.pool_end[rows] -= np.clip(self.pool_end[rows] - top, 0, m)

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

        Cards of no known kind (unknown passcodes) count in no kind. Each column is a sum of
        whole rows of the card-major hand (integer matrix products are slow in numpy).
        """
        kinds = np.eye(KINDS + 1, dtype=bool)[self.deal.kind][:, :KINDS]
        member = np.concatenate([self.deal.member.astype(bool), kinds], axis=1)
        out = np.zeros((member.shape[1], self.t), dtype=np.int16)
        for c, cards in enumerate(member.T):
            for k in np.flatnonzero(cards):
                out[c] += self.hand[k]
        return out.T


GAMES_PER_BATCH = 20_000
"""Most games played together: enough for each numpy step to pay for itself, few enough that a
batch's tables (a 40-card deck and hand per game, the marks, the step's temporaries: a few MB)
stay in the processor's cache. 200,000 games of the pots deck, 8 interleaved rounds: 16,000 and
24,000 a batch took 96-103 ms at best, 85,714 (the memory bound alone) 119-153 ms."""


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


def _playable(table: _Table, rows: Any, k: int, effect: Effect, names: Mapping[str, int]) -> Any:
    """(len(rows),) bool: which of the trials ``rows`` can play effect card ``k`` now."""
    ok = table.hand[k][rows] > table.played[k][rows]
    if effect.once_per_turn:
        ok &= ~table.used[k][rows]
    if effect.kind in _DRAWS:
        ok &= ~table.lock[rows]
    if effect.kind is EffectKind.EXCAVATE:  # Prosperity: not in a turn with effect draws
        ok &= ~table.drew[rows]
    if effect.kind is EffectKind.DRAW_LOCK:  # Extravagance: at the start of Main Phase 1 only
        ok &= ~table.acted[rows] & ~table.lock[rows]
    if effect.kind in (EffectKind.DESIRES, EffectKind.EXCAVATE):
        ok &= table.top[rows] <= table.n - effect.count
    if effect.kind is EffectKind.SEARCH and ok.any():
        assert effect.target is not None
        some = rows[ok]
        target = table.deal.member[:, names[effect.target]]
        ok[ok] = (table.in_deck(some) & target[table.deck[some]]).any(axis=1)
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
    table.take_at(rows, start + pick)  # the others are now the top count - 1 cards
    table.to_bottom(rows, effect.count - 1)
    table.lock[rows] = True


def _play(table: _Table, rows: Any, effect: Effect, names: Mapping[str, int]) -> None:
    """Resolve ``effect`` in the trials ``rows``."""
    if effect.kind is EffectKind.DRAW:
        table.draw(rows, effect.count)
        table.drew[rows] = True
    elif effect.kind is EffectKind.DESIRES:  # banish the top count, draw the next 2
        pos, valid = table.take_top(rows, effect.count + 2)
        table.add(rows, pos[:, effect.count :], valid[:, effect.count :])
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
    spec order), Desires-like, searchers, excavators. A trial that played nothing in a step
    cannot play later in the turn (its state did not change), so each step looks only at the
    trials that played in the one before.
    """
    names = {n: i for i, n in enumerate(deal.names)}
    ranked = sorted(effects.items(), key=lambda kv: _ORDER[kv[1].kind])
    active = np.arange(table.t)
    for _ in range(4 * len(deal.cards) + 4):
        pending = np.ones(len(active), dtype=bool)  # one effect per trial and step
        for k, effect in ranked:
            ok = _playable(table, active, k, effect, names)
            ok &= pending
            if not ok.any():
                continue
            rows = active[ok]
            pending &= ~ok
            table.played[k][rows] += 1
            table.used[k][rows] = True
            table.acted[rows] = True
            _play(table, rows, effect, names)
        active = active[~pending]
        if not len(active):
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
        size = min(GAMES_PER_BATCH, _batch(trials, 6 * len(deal.cards) + 2 * len(deal.kind)))
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
