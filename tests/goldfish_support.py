"""Test helpers for the goldfish tests: small decks of real cards and brute-force answers."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

from deckcheck.data.dataset import Dataset
from deckcheck.deck.model import Deck, DeckCard, Section
from deckcheck.goldfish import Condition, Spec

# distinct real Main Deck cards (Monsters, Spells, Traps) to build decks from
CODES = [
    70095154,
    23893227,
    56364287,
    1142880,
    5370235,
    63941210,
    10604644,
    46659709,
    14558127,
    42141493,
    37630732,
    60600126,
    86686671,
    64753988,
    63995093,
    84797028,
    35269904,
    25311006,
    64964750,
    12580477,
    14532163,
    24224830,
    24299458,
    34507039,
    10045474,
]
ASH = 14558127
POT_OF_GREED = 55144522
POT_OF_DESIRES = 35261759
UPSTART_GOBLIN = 70368879
POT_OF_PROSPERITY = 84211599


def make_deck(copies: Sequence[int], codes: Sequence[int] = CODES, name: str = "test") -> Deck:
    """A Main Deck with ``copies[i]`` copies of ``codes[i]``."""
    index = Dataset.active().cards
    main = []
    for code, n in zip(codes, copies, strict=False):
        card = index.get(code)
        main.extend([DeckCard(code, Section.MAIN, card)] * n)
    return Deck(tuple(main), name=name)


def brute_force(deck: Deck, spec: Spec, condition: Condition, seen: int) -> Fraction:
    """P(condition) over every ``seen``-card subset of the Main Deck, by enumeration."""
    cards = list(deck.main)
    members = [{c.name for c in spec.categories if c.matches(card)} for card in cards]
    names = [c.name for c in spec.categories]
    hits = total = 0
    for hand in itertools.combinations(range(len(cards)), min(seen, len(cards))):
        counts = {n: sum(n in members[i] for i in hand) for n in names}
        total += 1
        hits += bool(condition.evaluate(counts))
    return Fraction(hits, total)


# --- the previous exact engine, kept as a reference: it enumerates every count vector ---------


def reference_probability(
    groups: Sequence[tuple[int, frozenset[str]]], condition: Condition, seen: int
) -> Fraction:
    """P(condition) by enumerating every count vector over the atoms (the engine deckcheck
    used before its dynamic programme): ``prod C(n_i, x_i) * C(n_other, d - sum x)`` each."""
    import numpy as np

    merged: dict[frozenset[str], int] = {}
    for copies, member in groups:
        key = member & condition.names
        merged[key] = merged.get(key, 0) + copies
    other = merged.pop(frozenset(), 0)
    members = sorted(merged, key=lambda k: sorted(k))
    sizes = [merged[k] for k in members]
    deck = sum(sizes) + other
    seen = min(seen, deck)
    vectors = [
        x
        for x in itertools.product(*(range(min(n, seen) + 1) for n in sizes))
        if 0 <= seen - sum(x) <= other
    ]
    vec = np.array(vectors, dtype=np.int64).reshape(len(vectors), len(sizes))
    counts = {
        name: vec[:, [i for i, m in enumerate(members) if name in m]].sum(axis=1)
        for name in condition.names
    }
    mask = np.broadcast_to(np.asarray(condition.evaluate(counts), dtype=bool), (len(vec),))
    hits = 0
    for x, ok in zip(vectors, mask.tolist(), strict=True):
        if ok:
            w = math.comb(other, seen - sum(x))
            for n, k in zip(sizes, x, strict=True):
                w *= math.comb(n, k)
            hits += w
    return Fraction(hits, math.comb(deck, seen))
