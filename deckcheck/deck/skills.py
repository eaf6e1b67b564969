"""Speed Duel and Duel Links: card names that are also Skill names mean the Skill.

A list for those formats writes its Skill as a plain line (``1 Destiny Draw``) or as
``Skill: Destiny Draw``; the text reader resolves plain names to OCG/TCG cards first (as the
other formats want), so a Speed Duel check swaps every card reached by name for the Skill of
the same name, where one exists (as Rush names resolve to Rush cards).
"""

from __future__ import annotations

from itertools import chain
from operator import attrgetter

from msgspec.structs import replace

from deckcheck.card import CardIndex, Match
from deckcheck.deck.model import Deck, DeckCard

_BY_NAME = (Match.NAME_EN, Match.NAME_JA, Match.NAME_ZH)
_BY_NAME_SET = frozenset(_BY_NAME)
_MATCH = attrgetter("match")


def prefer_skills(deck: Deck, index: CardIndex) -> Deck:
    """``deck`` with every card reached by name replaced by the Skill of that name, if any.

    Cards given by passcode are kept as written. Returns ``deck`` itself when nothing changes.
    """
    sections = (deck.main, deck.extra, deck.side)
    if _BY_NAME_SET.isdisjoint(map(_MATCH, chain.from_iterable(sections))):
        return deck  # every card given by passcode (a .ydk, a ydke URL): nothing to swap
    changed = False

    def swap(dc: DeckCard) -> DeckCard:
        nonlocal changed
        card = dc.card
        if card is None or card.is_skill or dc.match not in _BY_NAME:
            return dc
        skill = index.skill_named(card.name)
        if skill is None:
            return dc
        changed = True
        return replace(dc, passcode=skill.passcode, card=skill)

    main = tuple(map(swap, deck.main))
    extra = tuple(map(swap, deck.extra))
    side = tuple(map(swap, deck.side))
    return replace(deck, main=main, extra=extra, side=side) if changed else deck


def uses_skills(fmt: object) -> bool:
    """Whether a format's decks hold a Skill (Speed Duel, Duel Links)."""
    return bool(getattr(fmt, "skill_cards", 0)) or getattr(fmt, "id", "") in ("speed", "duel-links")
