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

An organiser's signature file (:func:`load_rules`) overrides the rule: a deck playing at least
``min`` of an archetype's signature cards (distinct cards, Main + Extra) is that archetype,
before the card data is looked at; when several match, the one with the most signature copies
wins (a tie is a hybrid of them).

:func:`metagame` sums the field: archetypes by decks and share, the most-played cards (average
copies in the decks that play them, share of decks), and Main/Extra and Side Deck staples.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.deck.model import Deck, ReadFinding, Section
from deckcheck.error import DeckcheckError, DeckReadError, InputError
from deckcheck.run.row import Contents, deck_contents
from deckcheck.source.record import Skipped, Unreadable, UnreadableReason, read_code

if TYPE_CHECKING:
    from deckcheck.card import CardIndex
    from deckcheck.data.dataset import Dataset
    from deckcheck.run.batch import Batch
    from deckcheck.source.record import Source
    from deckcheck.source.registration import Registration

GENERIC: frozenset[str] = frozenset(
    {
        "Polymerization|Fusion",
        "Fusion",
        "Xyz",
        "Synchro",
        "Pendulum",
        "Link",
        "Ritual",
        "Number",
        "Number C",
        "CXyz",
        "Rank-Up-Magic",
        "Rank-Down-Magic",
        "Speed Spell",
        "Pendulum Dragon",
        "Spell Card",
        "Trap Card",
        "Token",
    }
)
"""Archetype tags of the card data that name a mechanic, not a deck (never counted)."""

ROGUE = "rogue"
"""The label of a deck with no archetype present."""
TOP = 20
"""Default length of the card tables."""


class ArchetypeKind(enum.StrEnum):
    """How a deck's archetype was decided."""

    ARCHETYPE = "archetype"
    """One archetype dominates the deck."""
    HYBRID = "hybrid"
    """Two or more archetypes are present and none dominates."""
    ROGUE = "rogue"
    """No archetype is present."""


@dataclass(frozen=True, slots=True)
class Signature:
    """An organiser's signature cards of one archetype (canonical passcodes)."""

    archetype: str
    cards: frozenset[int]
    min: int = 1
    """Distinct signature cards a deck needs to be this archetype."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The thresholds of the archetype rule (module docstring) and the organiser's signatures."""

    share: float = 0.15
    min_copies: int = 6
    dominance: float = 2.0
    generic: frozenset[str] = GENERIC
    signatures: tuple[Signature, ...] = ()


@dataclass(frozen=True, slots=True)
class DeckArchetype:
    """One deck's archetype: its label, how it was decided, and the copies that decided it."""

    label: str
    """``"Cyber Dragon"``, ``"Blue-Eyes / Dark Magician"`` (hybrid) or ``"rogue"``."""
    kind: ArchetypeKind
    archetypes: tuple[str, ...]
    """The archetype(s) the label names (empty for rogue)."""
    scores: tuple[tuple[str, int], ...]
    """Archetypes with their Main + Extra copies (most first, at most five)."""
    copies: int
    """Main + Extra copies of the deck."""
    signature: bool = False
    """True when an organiser's signature cards decided it."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "label": self.label,
            "kind": self.kind.value,
            "archetypes": list(self.archetypes),
            "scores": [{"archetype": a, "copies": n} for a, n in self.scores],
            "copies": self.copies,
            "signature": self.signature,
        }


@dataclass(frozen=True, slots=True)
class Entry:
    """One deck of the field: where it came from and its archetype."""

    source: str
    archetype: DeckArchetype
    name: str | None = None
    player: str | None = None
    contents: tuple[tuple[str, int, int], ...] = field(default=(), repr=False)
    """The deck's cards (:func:`deck_contents`)."""
    unread: tuple[ReadFinding, ...] = ()
    """The deck's lines that name no card (:attr:`~deckcheck.deck.model.Deck.unread`): not
    counted in the breakdown, counted in :attr:`Metagame.unread_lines`."""


@dataclass(frozen=True, slots=True)
class ArchetypeShare:
    """An archetype label of the breakdown: decks playing it and their share of the field."""

    label: str
    kind: ArchetypeKind
    decks: int
    share: float


@dataclass(frozen=True, slots=True)
class CardUsage:
    """A card of the field: decks playing it, their share, copies in total and on average."""

    passcode: int
    name: str
    decks: int
    share: float
    copies: int
    average: float
    """Average copies in the decks that play it."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "passcode": self.passcode,
            "name": self.name,
            "decks": self.decks,
            "share": round(self.share, 4),
            "copies": self.copies,
            "average": round(self.average, 2),
        }


@dataclass(frozen=True, slots=True)
class Metagame:
    """The breakdown of a field of decks."""

    decks: int
    archetypes: tuple[ArchetypeShare, ...]
    most_played: tuple[CardUsage, ...]
    """Cards over every section, by decks playing them."""
    main: tuple[CardUsage, ...]
    """Main + Extra Deck staples, by decks playing them."""
    side: tuple[CardUsage, ...]
    """Side Deck staples, by decks playing them."""
    entries: tuple[Entry, ...] = ()
    unreadable: tuple[Unreadable, ...] = ()
    """The sources that could not be read (each with its code)."""
    skipped: tuple[Skipped, ...] = ()
    """The files a scan left out (each with its code)."""

    @property
    def unread_lines(self) -> int:
        """Lines of the decks read that name no card (not counted in the breakdown)."""
        return sum(len(e.unread) for e in self.entries)

    def to_dict(self) -> dict[str, Any]:
        """JSON form (``deckcheck schema meta``)."""
        return {
            "decks": self.decks,
            "archetypes": [
                {
                    "label": a.label,
                    "kind": a.kind.value,
                    "decks": a.decks,
                    "share": round(a.share, 4),
                }
                for a in self.archetypes
            ],
            "most_played": [c.to_dict() for c in self.most_played],
            "main": [c.to_dict() for c in self.main],
            "side": [c.to_dict() for c in self.side],
            "entries": [
                {
                    "source": e.source,
                    "name": e.name,
                    "player": e.player,
                    **e.archetype.to_dict(),
                    "unread": [
                        {"line": f.line, "code": f.code.value, "text": f.text} for f in e.unread
                    ],
                }
                for e in self.entries
            ],
            "unread_lines": self.unread_lines,
            "unreadable": [
                {"source": u.path, "code": u.code.value, "error": u.error} for u in self.unreadable
            ],
            "skipped": [
                {"path": k.path, "code": k.code.value, "reason": k.reason} for k in self.skipped
            ],
        }


DEFAULT_RULES = Rules()


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


def analyze(
    items: Iterable[Source | str],
    rules: Rules = DEFAULT_RULES,
    *,
    data: Dataset | None = None,
    top: int = TOP,
    rush: bool = False,
) -> Metagame:
    """Read every source (paths, folders, zips, registration CSVs) and sum up the field.

    A source that cannot be read is listed in :attr:`Metagame.unreadable`, never fatal, and
    the files a scan skipped in :attr:`Metagame.skipped`, each with its code. A bare string that
    is not a usable path raises :class:`~deckcheck.error.ArgumentError`.
    """
    from deckcheck.data.dataset import resolve_data
    from deckcheck.source.read import read_source
    from deckcheck.source.scan import expand_sources

    ds = resolve_data(data)
    facts = _Facts(ds.cards)
    entries: list[Entry] = []
    bad: list[Unreadable] = []
    skipped: list[Skipped] = []
    for src in expand_sources(items, ds):
        known = src.outcome()
        if isinstance(known, Skipped):
            skipped.append(known)
            continue
        if known is not None:
            bad.append(known)
            continue
        try:
            deck = read_source(src, rush=rush, data=ds)
        except DeckcheckError as exc:
            text = str(exc)
            why = text if text.startswith(src.label) else f"{src.label}: {text}"
            code = (
                read_code(exc) if isinstance(exc, DeckReadError) else UnreadableReason.CHECK_FAILED
            )
            line = exc.line if isinstance(exc, DeckReadError) else None
            bad.append(Unreadable(src.label, why, line, src.registration, code))
            continue
        contents = deck_contents(deck)
        entries.append(
            Entry(
                src.label,
                _classify(contents, rules, facts),
                deck.name,
                _player(src.registration),
                contents,
                deck.unread,
            )
        )
    return summarize(entries, top=top, unreadable=bad, skipped=skipped, facts=facts)


# -- the organiser's signature file --------------------------------------------------------------


class MetaFileError(InputError):
    """An organiser's signature file (``meta.toml``) that cannot be used."""


MAX_SIGNATURE_BYTES = 1 << 20
"""Size cap of an organiser's signature file (``meta --signatures``)."""
_RULE_KEYS = {"share": float, "min_copies": int, "dominance": float}


def load_rules(path: str | Path, data: Dataset | None = None) -> Rules:
    """The rules of a signature file (TOML): ``[archetypes.NAME]`` tables with ``cards``
    (names or passcodes) and optional ``min``; optional top-level ``share``, ``min_copies``,
    ``dominance`` and ``generic`` (more tags never counted). Raises :class:`MetaFileError`."""
    import tomllib

    from deckcheck.boundary import read_capped

    where = str(path)
    try:
        raw = read_capped(
            path, MAX_SIGNATURE_BYTES, refuse=lambda why: MetaFileError(f"{where}: {why}")
        )
        doc = tomllib.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise MetaFileError(f"{where}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise MetaFileError(f"{where}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise MetaFileError(f"{where}: not valid TOML: {exc}") from None
    except RecursionError:
        raise MetaFileError(f"{where}: nested too deeply") from None
    return rules_from_dict(doc, where, data)


def rules_from_dict(doc: Mapping[str, Any], where: str, data: Dataset | None = None) -> Rules:
    """The rules of a signature file already parsed (TOML or JSON of the same shape);
    ``where`` names it in errors. Raises :class:`MetaFileError`."""
    from deckcheck.data.dataset import resolve_data

    ds = resolve_data(data)
    options: dict[str, Any] = {}
    for key, value in doc.items():
        if key == "archetypes":
            continue
        if key == "generic":
            options["generic"] = GENERIC | frozenset(_strings(value, where, key))
        elif key in _RULE_KEYS and isinstance(value, int | float) and not isinstance(value, bool):
            options[key] = _RULE_KEYS[key](value)
        else:
            raise MetaFileError(f"{where}: unknown key or bad value {key!r}")
    tables = doc.get("archetypes", {})
    if not isinstance(tables, dict):
        raise MetaFileError(f"{where}: 'archetypes' must be a table of archetypes")
    sigs = tuple(_signature(name, t, where, ds) for name, t in tables.items())
    return Rules(**options, signatures=sigs)


def _strings(value: object, where: str, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
        raise MetaFileError(f"{where}: {key!r} must be a list of card names or passcodes")
    return [str(v) for v in value]


def _signature(name: str, table: object, where: str, ds: Dataset) -> Signature:
    key = f"archetypes.{name}"
    if not isinstance(table, dict) or set(table) - {"cards", "min"} or "cards" not in table:
        raise MetaFileError(f"{where}: {key!r} must be a table with 'cards' (and 'min')")
    codes = set()
    for query in _strings(table["cards"], where, f"{key}.cards"):
        try:
            codes.add(ds.cards.lookup(query).card.canonical)
        except DeckcheckError as exc:
            raise MetaFileError(f"{where}: {key}.cards: {exc}") from None
    least = table.get("min", 1)
    if not isinstance(least, int) or isinstance(least, bool) or not 1 <= least <= len(codes):
        raise MetaFileError(f"{where}: {key}.min must be between 1 and the number of its cards")
    return Signature(name, frozenset(codes), least)
