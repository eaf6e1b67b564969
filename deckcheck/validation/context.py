"""What the rules read about one deck, and how they write a violation.

A :class:`Context` holds the deck, its :class:`~deckcheck.validation.ruleset.Ruleset`, the
section sizes and what the counting pass found (unknown passcodes, the cards that need a look,
the names over a limit). The rules that look at every card read the deck's cards through
:meth:`Context.groups_of` and :attr:`Context.distinct`, built on first use: most decks need
neither in full.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING

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

Groups = tuple[dict[str, list[DeckCard]], dict[str, list[CardFacts]]]
"""Copies and the distinct cards' facts per limit name (see :meth:`Context.groups_of`)."""


@dataclass(slots=True)
class Context:
    """What the rules read: the deck, the ruleset, section sizes, the cards that need a look."""

    deck: Deck
    rules: Ruleset
    sizes: dict[Section, int]
    """Cards counted toward each section's size."""
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
    _sections: list[tuple[Counter[int], dict[int, DeckCard]]] | None = None
    _distinct: list[tuple[DeckCard, CardFacts]] | None = None
    _groups: Groups | None = None

    @property
    def era(self) -> Era:
        """The era in force."""
        return self.rules.era

    def sections(self) -> list[tuple[Counter[int], dict[int, DeckCard]]]:
        """Per section: copies per passcode (in order of first appearance) and first copies."""
        got = self._sections
        if got is None:
            got = []
            for cards in (self.deck.main, self.deck.extra, self.deck.side):
                backwards = cards[::-1]
                firsts = dict(zip(map(PASSCODE, backwards), backwards, strict=True))
                got.append((Counter(map(PASSCODE, cards)), firsts))
            self._sections = got
        return got

    @property
    def distinct(self) -> list[tuple[DeckCard, CardFacts]]:
        """The first copy of each known card per section, with its facts, in deck order."""
        got = self._distinct
        if got is None:
            facts_of = self.rules.facts
            got = [
                (firsts[c], facts_of[c])
                for counts, firsts in self.sections()
                for c in counts
                if c in facts_of
            ]
            self._distinct = got
        return got

    def groups_of(self, names: Iterable[str] | None = None) -> Groups:
        """Copies (Main + Extra + Side, deck cards only) and the distinct cards' facts per limit
        name, for ``names`` (all when None), in deck order.

        The copies of one record in a section may be one :class:`DeckCard` repeated: read
        their number and the first.
        """
        if names is not None:
            return self._few_groups(set(names))
        if self._groups is None:
            self._groups = self._all_groups()
        return self._groups

    def _all_groups(self) -> Groups:
        """:meth:`groups_of` every name."""
        facts_of, names_of = self.rules.facts, self.rules.names
        groups: dict[str, list[DeckCard]] = {}
        facts_by: dict[str, list[CardFacts]] = {}
        for counts, firsts in self.sections():
            for code, n in counts.items():
                name = names_of.get(code)
                if name is None:
                    continue
                if name in groups:
                    groups[name] += [firsts[code]] * n
                    facts_by[name].append(facts_of[code])
                else:
                    groups[name] = [firsts[code]] * n
                    facts_by[name] = [facts_of[code]]
        return groups, facts_by

    def _few_groups(self, wanted: set[str]) -> Groups:
        """:meth:`groups_of` a few names: their passcodes counted and found in C."""
        facts_of, names_of = self.rules.facts, self.rules.names
        decks = (self.deck.main, self.deck.extra, self.deck.side)
        entries = []
        by_name = self.rules.codes_by_name
        targets = {code for name in wanted for code in by_name.get(name, ())}
        for index, cards in enumerate(decks):
            codes = list(map(PASSCODE, cards))
            # the passcodes of a wanted name in this section, found in C
            for code in targets.intersection(codes):
                pos = codes.index(code)
                entries.append((index, pos, names_of[code], cards[pos], codes.count(code)))
        entries.sort(key=lambda e: (e[0], e[1]))
        groups: dict[str, list[DeckCard]] = {}
        facts_by: dict[str, list[CardFacts]] = {}
        for _, _, name, first, n in entries:
            facts = facts_of[first.passcode]
            if name in groups:
                groups[name] += [first] * n
                facts_by[name].append(facts)
            else:
                groups[name] = [first] * n
                facts_by[name] = [facts]
        return groups, facts_by

    @property
    def groups(self) -> dict[str, list[DeckCard]]:
        """Copies per limit name (Main + Extra + Side), deck cards only."""
        return self.groups_of()[0]

    @property
    def group_facts(self) -> dict[str, list[CardFacts]]:
        """The facts of the distinct cards of each group (same keys as :attr:`groups`)."""
        return self.groups_of()[1]


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
        return Violation(code, severity, message, None, None, name, found, allowed, facts=facts)
    if name is None and dc.card is not None:
        name = dc.card.name
    section = _SECTION_NAME[dc.section]
    return Violation(
        code, severity, message, section, dc.passcode, name, found, allowed, dc.line, facts=facts
    )


def cards(n: int, word: str = "card") -> str:
    """``1 card``, ``2 cards``: counts in messages read as sentences."""
    return f"{n} {word if n == 1 else word + 's'}"
