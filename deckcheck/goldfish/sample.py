"""Sample hands: a few seeded deals of the deck, so a player sees what the figures mean.

``--sample N`` deals ``N`` shuffles of the Main Deck (seeded: the same seed gives the same
hands) and shows, for each going asked, the opening hand, the Draw Phase draw of each turn, and
which conditions the cards seen so far meet. Card effects are not played in sample hands: they
show the cards dealt.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from msgspec import Struct

from deckcheck.goldfish.condition import CARD_PREFIX, Condition, deck_key
from deckcheck.goldfish.rule import DrawRules, Going

MAX_SAMPLES = 100
"""Most sample hands one run deals."""


class SampleHand(Struct, frozen=True):
    """One dealt game, going ``going``: the opening hand, the cards drawn in each turn's Draw
    Phase (index 0 = turn 1), and per condition whether it holds by each turn."""

    going: Going
    hand: tuple[str, ...]
    draws: tuple[tuple[str, ...], ...]
    met: tuple[tuple[bool, ...], ...]


class Samples(Struct, frozen=True):
    """The sample hands of a run and the seed that dealt them."""

    seed: int
    hands: tuple[SampleHand, ...]


def deal_samples(
    copies: Sequence[int],
    members: Sequence[frozenset[str]],
    names: Sequence[str],
    conditions: Sequence[Condition],
    rules: DrawRules,
    goings: Sequence[Going],
    turns: int,
    n: int,
    seed: int,
) -> Samples:
    """``n`` seeded shuffles of the deck (one card name per copy in ``names`` order), each
    shown for every going: the same shuffle, so going second sees the same opening hand and
    one card more by turn 1."""
    rng = random.Random(seed)  # a stream of its own: the figures' streams are not touched
    cards = [i for i, c in enumerate(copies) for _ in range(c)]
    totals: dict[str, int] = {}
    for c, m in zip(copies, members, strict=True):
        for name in m:
            totals[name] = totals.get(name, 0) + c
    hands = []
    for _ in range(n):
        order = cards[:]
        rng.shuffle(order)
        for going in goings:
            draws = rules.draws(going, turns)
            seen = rules.seen(going, turns)
            opening = order[: rules.hand_size]
            per_turn = []
            at = rules.hand_size
            for d in draws:
                per_turn.append(tuple(names[i] for i in order[at : at + d]))
                at += d
            met = [
                tuple(bool(c.evaluate(_counts(order[:s], members, totals))) for s in seen)
                for c in conditions
            ]
            hands.append(
                SampleHand(going, tuple(names[i] for i in opening), tuple(per_turn), tuple(met))
            )
    return Samples(seed, tuple(hands))


def _counts(
    seen: Sequence[int], members: Sequence[frozenset[str]], totals: dict[str, int]
) -> dict[str, int]:
    """Counts of every category (and card, for ``distinct``) among ``seen``, and what is left."""
    counts = dict.fromkeys(totals, 0)
    for i in seen:
        for name in members[i]:
            counts[name] += 1
    for name in list(totals):
        if not name.startswith(CARD_PREFIX):
            counts[deck_key(name)] = totals[name] - counts[name]
    return counts
