"""What the rules read about one deck, and how they write a violation.

A :class:`Context` holds the deck, its :class:`~deckcheck.validation.ruleset.Ruleset`, the
section sizes and what the counting pass found (unknown passcodes, the cards that need a look,
the names over a limit, the copies per name). The rules that look at the cards of a few names
read them through :meth:`Context.groups_of`; most decks need no more than the counting pass.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from operator import attrgetter
from typing import TYPE_CHECKING

from msgspec import Struct, field

from deckcheck.deck.model import Deck, DeckCard, Section
from deckcheck.validation.fact import CardFacts
from deckcheck.validation.report import Code, Severity, Violation
from deckcheck.validation.ruleset import Ruleset

if TYPE_CHECKING:
    from deckcheck.rule.format import Era

SECTIONS = (Section.MAIN, Section.EXTRA, Section.SIDE)
"""The deck's sections, in the order of :attr:`Ruleset.keys`."""
PASSCODE = attrgetter("passcode")
_SECTION_NAME = {section: section.value for section in Section}

Group = tuple[DeckCard, list[CardFacts]]
"""A limit name's first copy in deck order and the facts of its distinct cards, in deck order
(see :meth:`Context.groups_of`; the copies are :attr:`Context.copies`)."""


class Context(Struct):
    """What the rules read: the deck, the ruleset, section sizes, the cards that need a look."""

    deck: Deck
    rules: Ruleset
    sizes: dict[Section, int]
    """Cards counted toward each section's size."""
    copies: dict[str, int] = field(default_factory=dict)
    """Copies per limit name over Main + Extra + Side, deck cards only (the counting pass's
    tally: rules read their numbers here rather than count again)."""
    codes: tuple[list[int], ...] = ([], [], [])
    """The passcodes of the Main, Extra and Side cards, in deck order (read once per deck)."""
    unknown: list[DeckCard] = field(default_factory=list)
    """The first copy of each unknown passcode per section."""
    flagged: list[tuple[DeckCard, CardFacts]] = field(default_factory=list)
    """The first copy (with its facts) of each card whose facts ask for attention in its
    section (:attr:`CardFacts.attention`): the per-card rules read only these."""
    listed: set[str] = field(default_factory=set)
    """Limit names that a card on the list in force counts toward, with more copies than the
    list may allow (in no order; rules read them through :meth:`groups_of`, which keeps deck
    order and tells the listed cards)."""
    crowded: list[str] = field(default_factory=list)
    """Limit names with more copies than the copy limit (in no order, as :attr:`listed`)."""
    changing: set[str] = field(default_factory=set)
    """Limit names whose copies an upcoming list may cut (in no order, as :attr:`listed`)."""
    skills: int = 0
    """Skill cards (copies) over Main + Extra + Side."""
    points: int | None = None
    """The deck's point total (formats with a point cap), else None."""

    @property
    def era(self) -> Era:
        """The era in force."""
        return self.rules.era

    @property
    def distinct(self) -> list[tuple[DeckCard, CardFacts]]:
        """The first copy of each known card per section, with its facts, in deck order."""
        facts_of = self.rules.facts
        got = []
        for cards in (self.deck.main, self.deck.extra, self.deck.side):
            backwards = cards[::-1]
            firsts = dict(zip(map(PASSCODE, backwards), backwards, strict=True))
            for code in dict.fromkeys(map(PASSCODE, cards)):
                if code in facts_of:
                    got.append((firsts[code], facts_of[code]))
        return got

    def groups_of(self, names: Iterable[str]) -> dict[str, Group]:
        """The first copy and the distinct cards' facts of each limit name of ``names`` (deck
        cards over Main + Extra + Side), in deck order; their copies are :attr:`copies`."""
        facts_of, names_of = self.rules.facts, self.rules.names
        by_name = self.rules.codes_by_name
        targets = {code for name in names for code in by_name.get(name, ())}
        entries = []
        for index, codes in enumerate(self.codes):
            # the passcodes of a wanted name in this section, found in C
            entries += [(index, codes.index(code), code) for code in targets.intersection(codes)]
        entries.sort()
        decks = (self.deck.main, self.deck.extra, self.deck.side)
        groups: dict[str, Group] = {}
        for index, pos, code in entries:
            name = names_of[code]
            got = groups.get(name)
            if got is None:
                groups[name] = (decks[index][pos], [facts_of[code]])
            else:
                got[1].append(facts_of[code])
        return groups


Check = Callable[[Context], Iterator[Violation]]
"""One rule's check: every violation it finds in a deck."""


def violation(
    code: Code,
    message: str,
    dc: DeckCard | None = None,
    *,
    severity: Severity = Severity.ERROR,
    found: int | None = None,
    allowed: int | None = None,
    name: str | None = None,
    facts: tuple[tuple[str, object], ...] = (),
) -> Violation:
    """A violation; where it is (section, passcode, card name, line) comes from ``dc``;
    ``facts``: the message's other named facts (translations say them too)."""
    if dc is None:
        return Violation(
            code, severity, message, None, None, name, found, allowed, None, None, facts
        )
    if name is None and dc.card is not None:
        name = dc.card.name
    section = _SECTION_NAME[dc.section]
    return Violation(
        code, severity, message, section, dc.passcode, name, found, allowed, dc.line, None, facts
    )


def cards(n: int, word: str = "card") -> str:
    """``1 card``, ``2 cards``: counts in messages read as sentences."""
    return f"{n} {word if n == 1 else word + 's'}"
