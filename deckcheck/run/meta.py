"""The metagame of an event: what the field is playing.

Each deck gets an archetype from the archetype (set code) names the card data carries
(:attr:`deckcheck.card.Card.archetypes`), weighted by copies in the Main and Extra Deck:

1. Every copy in the Main or Extra Deck counts once for each archetype its card belongs to;
   the Side Deck never counts. Mechanic tags that are not decks (:data:`GENERIC`: Fusion, Xyz,
   Synchro, Pendulum, Number, Rank-Up-Magic...) are left out.
2. An archetype is **present** when its copies are at least :attr:`Rules.share` (15%) of the
   Main + Extra copies and at least :attr:`Rules.min_copies` (6).
3. A present archetype at least half of whose copies are also copies of a present archetype with
   more copies is **folded** into that one (Chaos cards in a Blue-Eyes deck; with equal copies
   the longer, more specific name stays).
4. One present archetype left, or a top one with at least :attr:`Rules.dominance` (2) times the
   copies of the next: the deck **is** that archetype. Two or more with none dominating: a
   **hybrid**, labelled by the present archetypes in alphabetical order (``"A / B"``). None
   present: **rogue**.

An organiser's signature file (:func:`deckcheck.run.signature.load_rules`) overrides the
rule: a deck playing at least
``min`` of an archetype's signature cards (distinct cards, Main + Extra) is that archetype,
before the card data is looked at; when several match, the one with the most signature copies
wins (a tie is a hybrid of them).

:func:`metagame` sums the field: archetypes by decks and share, the most-played cards (average
copies in the decks that play them, share of decks), and Main/Extra and Side Deck staples.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from deckcheck.deck.model import Deck, ReadFinding, Section
from deckcheck.run.metagame import DEFAULT_RULES as DEFAULT_RULES
from deckcheck.run.metagame import GENERIC as GENERIC
from deckcheck.run.metagame import ROGUE as ROGUE
from deckcheck.run.metagame import TOP as TOP
from deckcheck.run.metagame import ArchetypeKind as ArchetypeKind
from deckcheck.run.metagame import ArchetypeShare as ArchetypeShare
from deckcheck.run.metagame import CardUsage as CardUsage
from deckcheck.run.metagame import DeckArchetype as DeckArchetype
from deckcheck.run.metagame import Entry as Entry
from deckcheck.run.metagame import Metagame as Metagame
from deckcheck.run.metagame import Rules as Rules
from deckcheck.run.metagame import Signature as Signature
from deckcheck.run.row import Contents, deck_contents
from deckcheck.source.record import Skipped, Unreadable

if TYPE_CHECKING:
    from deckcheck.card import CardIndex
    from deckcheck.data.dataset import Dataset
    from deckcheck.run.batch import Batch
    from deckcheck.run.job import Planned, Step
    from deckcheck.source.record import Source
    from deckcheck.source.registration import Registration


# -- one deck -----------------------------------------------------------------------------------

_COUNTED = (Section.MAIN.value, Section.EXTRA.value)


class _Facts:
    """The archetypes and name of each passcode, looked up in the index once per run."""

    __slots__ = ("index", "known")

    def __init__(self, index: CardIndex) -> None:
        self.index = index
        self.known: dict[int, tuple[tuple[str, ...], str] | None] = {}

    def get(self, code: int) -> tuple[tuple[str, ...], str] | None:
        """``(archetypes, name)`` of a passcode, None for one the index does not know."""
        try:
            return self.known[code]
        except KeyError:
            pass
        got = None
        if code in self.index:
            card = self.index.get(code)
            got = (card.archetypes, card.name)
        self.known[code] = got
        return got


def _scores(
    contents: Contents, facts: _Facts, rules: Rules
) -> tuple[Counter[str], dict[str, set[int]], Counter[int]]:
    """Copies per archetype over Main + Extra, each archetype's cards, and copies per card."""
    scores: Counter[str] = Counter()
    cards: dict[str, set[int]] = {}
    counted: Counter[int] = Counter()
    generic = rules.generic
    lookup = facts.get
    for section, code, n in contents:  # (get and set: a Counter's += is much slower)
        if section not in _COUNTED:
            continue
        counted[code] = counted.get(code, 0) + n
        known = lookup(code)
        if known is None:
            continue
        for name in known[0]:
            if name not in generic:
                scores[name] = scores.get(name, 0) + n
                cards.setdefault(name, set()).add(code)
    return scores, cards, counted


def _fold(
    present: list[str], scores: Counter[str], cards: dict[str, set[int]], counted: Counter[int]
) -> list[str]:
    """``present`` (most copies first) without the archetypes folded into a bigger one."""
    kept: list[str] = []
    for name in present:
        for big in kept:
            shared = sum(counted[code] for code in cards[name] & cards[big])
            if 2 * shared >= scores[name]:
                break
        else:
            kept.append(name)
    return kept


def _order(scores: Counter[str]) -> list[str]:
    """Archetypes by copies (most first); equal copies: the longer name, then alphabetical."""
    return sorted(scores, key=lambda a: (-scores[a], -len(a), a))


def _by_signature(counted: Counter[int], rules: Rules) -> DeckArchetype | None:
    hits: dict[str, int] = {}
    for sig in rules.signatures:
        played = [code for code in sig.cards if counted[code]]
        if len(played) >= sig.min:
            hits[sig.archetype] = max(hits.get(sig.archetype, 0), sum(counted[c] for c in played))
    if not hits:
        return None
    best = max(hits.values())
    names = tuple(sorted(a for a, n in hits.items() if n == best))
    kind = ArchetypeKind.ARCHETYPE if len(names) == 1 else ArchetypeKind.HYBRID
    scores = tuple(sorted(hits.items(), key=lambda x: (-x[1], x[0])))[:5]
    total = sum(counted.values())
    return DeckArchetype(" / ".join(names), kind, names, scores, total, signature=True)


def classify(
    deck: Deck | Contents, rules: Rules = DEFAULT_RULES, data: Dataset | None = None
) -> DeckArchetype:
    """The deck's archetype by the rule of this module (signatures first, then the card data).

    ``deck`` is a :class:`Deck` or its :func:`deck_contents`."""
    from deckcheck.data.dataset import resolve_data

    return _classify(deck, rules, _Facts(resolve_data(data).cards))


def _classify(deck: Deck | Contents, rules: Rules, facts: _Facts) -> DeckArchetype:
    contents = deck_contents(deck) if isinstance(deck, Deck) else deck
    scores, cards, counted = _scores(contents, facts, rules)
    copies = sum(counted.values())
    if rules.signatures:
        signed = _by_signature(counted, rules)
        if signed is not None:
            return signed
    top = tuple((a, scores[a]) for a in _order(scores)[:5])
    need = max(rules.min_copies, rules.share * copies)
    present = [a for a in _order(scores) if scores[a] >= need]
    present = _fold(present, scores, cards, counted)
    if not present:
        return DeckArchetype(ROGUE, ArchetypeKind.ROGUE, (), top, copies)
    first = present[0]
    if len(present) == 1 or scores[first] >= rules.dominance * scores[present[1]]:
        return DeckArchetype(first, ArchetypeKind.ARCHETYPE, (first,), top, copies)
    names = tuple(sorted(present))
    return DeckArchetype(" / ".join(names), ArchetypeKind.HYBRID, names, top, copies)


# -- the field ----------------------------------------------------------------------------------


class _Tally:
    """Per card: the decks that play it and its copies over them (one part of the field)."""

    __slots__ = ("copies", "decks")

    def __init__(self) -> None:
        self.decks: Counter[int] = Counter()
        self.copies: dict[int, int] = {}

    def add(self, counts: dict[int, int]) -> None:
        """Count one deck's copies per card."""
        self.decks.update(counts.keys())
        copies = self.copies
        for code, n in counts.items():
            copies[code] = copies.get(code, 0) + n

    def usage(self, facts: _Facts, n: int, top: int) -> tuple[CardUsage, ...]:
        """The ``top`` cards by decks, then copies, then name."""
        decks, copies = self.decks, self.copies
        names = {code: known[1] for code in decks if (known := facts.get(code)) is not None}
        order = sorted(decks, key=lambda code: (-decks[code], -copies[code], names[code]))
        return tuple(
            CardUsage(
                code,
                names[code],
                decks[code],
                decks[code] / n,
                copies[code],
                copies[code] / decks[code],
            )
            for code in order[:top]
        )


def _breakdown(entries: Sequence[Entry]) -> tuple[ArchetypeShare, ...]:
    counts: Counter[str] = Counter(e.archetype.label for e in entries)
    kinds = {e.archetype.label: e.archetype.kind for e in entries}
    n = len(entries)

    def key(label: str) -> tuple[bool, int, str]:
        return (kinds[label] is ArchetypeKind.ROGUE, -counts[label], label.casefold())

    ordered = sorted(counts, key=key)
    return tuple(ArchetypeShare(a, kinds[a], counts[a], counts[a] / n) for a in ordered)


def summarize(
    entries: Sequence[Entry],
    *,
    top: int = TOP,
    unreadable: Sequence[Unreadable] = (),
    skipped: Sequence[Skipped] = (),
    data: Dataset | None = None,
    facts: _Facts | None = None,
) -> Metagame:
    """The breakdown of classified decks (:class:`Entry` values, with their contents)."""
    from deckcheck.data.dataset import resolve_data

    facts = facts if facts is not None else _Facts(resolve_data(data).cards)
    n = len(entries)
    if n == 0:
        return Metagame(0, (), (), (), (), (), tuple(unreadable), tuple(skipped))
    every, main, side = _Tally(), _Tally(), _Tally()
    known = facts.get
    side_name = Section.SIDE.value
    for e in entries:
        all_counts: dict[int, int] = {}
        main_counts: dict[int, int] = {}
        side_counts: dict[int, int] = {}
        for section, code, copies in e.contents:
            if known(code) is None:
                continue
            all_counts[code] = all_counts.get(code, 0) + copies
            part = side_counts if section == side_name else main_counts
            part[code] = part.get(code, 0) + copies
        every.add(all_counts)
        main.add(main_counts)
        side.add(side_counts)
    return Metagame(
        n,
        _breakdown(entries),
        every.usage(facts, n, top),
        main.usage(facts, n, top),
        side.usage(facts, n, top),
        tuple(entries),
        tuple(unreadable),
        tuple(skipped),
    )


def metagame(
    decks: Iterable[Deck | tuple[str, Deck]],
    rules: Rules = DEFAULT_RULES,
    *,
    top: int = TOP,
    data: Dataset | None = None,
) -> Metagame:
    """The breakdown of ``decks`` (decks, or ``(source, deck)`` pairs): archetypes, cards."""
    from deckcheck.data.dataset import resolve_data

    facts = _Facts(resolve_data(data).cards)
    entries = []
    for i, item in enumerate(decks, 1):
        label, deck = item if isinstance(item, tuple) else (item.source or f"deck {i}", item)
        contents = deck_contents(deck)
        entries.append(
            Entry(label, _classify(contents, rules, facts), deck.name, None, contents, deck.unread)
        )
    return summarize(entries, top=top, facts=facts)


def from_batch(
    batch: Batch, rules: Rules = DEFAULT_RULES, *, top: int = TOP, data: Dataset | None = None
) -> Metagame:
    """The metagame of a checked batch, from its rows' card contents
    (:attr:`deckcheck.run.row.Checked.contents`: no deck is read again); its unreadable sources
    are listed."""
    from deckcheck.data.dataset import resolve_data

    facts = _Facts(resolve_data(data).cards)
    entries = [
        Entry(
            c.path or f"deck {i}",
            _classify(c.contents, rules, facts),
            c.name,
            _player(c.registration),
            c.contents,
            c.unread,
        )
        for i, c in enumerate(batch.checked, 1)
    ]
    return summarize(
        entries, top=top, unreadable=batch.unreadable, skipped=batch.skipped, facts=facts
    )


# -- reading sources ----------------------------------------------------------------------------


def _player(reg: Registration | None) -> str | None:
    if reg is None:
        return None
    return reg.player or reg.player_id or None


@dataclass(frozen=True, slots=True)
class Read:
    """What the metagame keeps of one deck read by the job loop (its builder's result)."""

    source: str
    name: str | None
    player: str | None
    contents: Contents
    unread: tuple[ReadFinding, ...]


def read_deck(deck: Deck, one: Planned, step: Step, ds: Dataset) -> Read:
    """The metagame's builder for :func:`deckcheck.run.job.run`: a deck's card contents (the
    metagame needs no verdict)."""
    src = one.source
    return Read(src.label, deck.name, _player(src.registration), deck_contents(deck), deck.unread)


def analyze(
    items: Iterable[Source | str],
    rules: Rules = DEFAULT_RULES,
    *,
    data: Dataset | None = None,
    top: int = TOP,
    rush: bool = False,
) -> Metagame:
    """Read every source (paths, folders, zips, registration CSVs) through the one job loop
    (:func:`deckcheck.run.job.run` with :func:`read_deck`: one read per deck) and sum up the
    field; ``rush`` reads card names as a Rush Duel deck.

    A source that cannot be read is listed in :attr:`Metagame.unreadable`, never fatal, and
    the files a scan skipped in :attr:`Metagame.skipped`, each with its code. A bare string that
    is not a usable path raises :class:`~deckcheck.error.ArgumentError`.
    """
    from deckcheck.data.dataset import resolve_data
    from deckcheck.run.job import Planned, Step, run
    from deckcheck.source.scan import expand_sources
    from deckcheck.validation.engine import today

    ds = resolve_data(data)
    fmt = ds.format("rush" if rush else "tcg")
    plan = [Planned(src, fmt) for src in expand_sources(items, ds)]
    facts = _Facts(ds.cards)
    entries: list[Entry] = []
    bad: list[Unreadable] = []
    skipped: list[Skipped] = []
    for got in run(plan, Step(today(), False, read_deck), ds):
        if isinstance(got, Read):
            kind = _classify(got.contents, rules, facts)
            entries.append(Entry(got.source, kind, got.name, got.player, got.contents, got.unread))
        elif isinstance(got, Skipped):
            skipped.append(got)
        else:
            bad.append(got)
    return summarize(entries, top=top, unreadable=bad, skipped=skipped, facts=facts)
