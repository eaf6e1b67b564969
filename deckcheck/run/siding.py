"""Side plans: cards sided in from the Side Deck for cards sided out, checked.

A plan is two card lists, *in* (from the Side Deck) and *out* (to the Side Deck). As a file::

    # game 2 against Labrynth
    in:
    3 Cosmic Cyclone
    1 Dark Ruler No More
    out:
    2 Pot of Extravagance
    Droll & Lock Bird x2

Headings are ``in`` / ``side in`` and ``out`` / ``side out`` (a colon is optional), and may
hold their cards on the same line (``in: 3 Card A, 1 Card B``); a line ``+3 Name`` is sided in
and ``-2 Name`` sided out wherever it stands. A TOML plan works too:
``in = ["3 Cosmic Cyclone"]`` and ``out = "2 Pot of Extravagance, 1 Droll & Lock Bird"``.
Cards are written ``3 Name``, ``3x Name``, ``Name x3`` or ``Name`` (one copy), by English,
Japanese or Chinese name or by passcode; ``#`` and ``//`` start comments. On the command line
a list is one string, ``"3 Card A, 1 Card B"`` (``,`` or ``;`` before each count separates
cards).

:func:`apply_side_plan` swaps the cards (out cards leave the Main or Extra Deck, whichever holds
them; in cards go where they belong) and checks that the swaps are one-for-one
(``side-unbalanced``), that every card sided in is in the Side Deck (``side-not-in-side``),
that every card sided out is in the deck (``side-not-in-deck``), that the Main and Extra Deck
sizes do not change (``side-size-changed``), and validates the sided deck in the format.
Cards compare by canonical card, so any artwork of a card matches.
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from deckcheck.deck.model import Deck, DeckCard, Section

if TYPE_CHECKING:
    from deckcheck.card import Card, CardIndex
    from deckcheck.data.dataset import Dataset
    from deckcheck.rule.format import Format
    from deckcheck.validation.report import Report


class PlanCode(enum.StrEnum):
    """Problems of a side plan (public API, like violation codes)."""

    SIDE_UNBALANCED = "side-unbalanced"
    """Not one-for-one: a different number of cards in and out."""
    SIDE_NOT_IN_SIDE = "side-not-in-side"
    """A card sided in is not in the Side Deck (or not that many copies)."""
    SIDE_NOT_IN_DECK = "side-not-in-deck"
    """A card sided out is not in the Main or Extra Deck (or not that many copies)."""
    SIDE_SIZE_CHANGED = "side-size-changed"
    """The Main or Extra Deck would change size (an Extra Deck card for a Main Deck card...)."""


@dataclass(frozen=True, slots=True)
class PlanProblem:
    """One problem of a side plan."""

    code: PlanCode
    message: str
    name: str | None = None
    passcode: int | None = None


@dataclass(frozen=True, slots=True)
class SidePlan:
    """Cards to side in (from the Side Deck) and out (to the Side Deck), with their counts."""

    cards_in: tuple[tuple[Card, int], ...] = ()
    cards_out: tuple[tuple[Card, int], ...] = ()


@dataclass(frozen=True)
class SideResult:
    """The sided deck, the plan's problems and the sided deck's validation report."""

    deck: Deck
    problems: tuple[PlanProblem, ...]
    report: Report
    moved: dict[str, int] = field(default_factory=dict)
    """Cards moved: ``{"in": n, "out": n}``."""
    moved_in: tuple[tuple[str, int, int], ...] = ()
    """The cards sided in: ``(name, passcode, copies)``."""
    moved_out: tuple[tuple[str, int, int], ...] = ()
    """The cards sided out: ``(name, passcode, copies)``."""

    @property
    def ok(self) -> bool:
        """True when the plan has no problem and the sided deck is legal."""
        return not self.problems and self.report.legal

    @property
    def sections(self) -> dict[str, tuple[tuple[str, int, int], ...]]:
        """The sided deck by section: ``(name, passcode, copies)`` in the order cards first
        appear."""
        return {s.value: tuple(_moved(list(self.deck.section(s)))) for s in Section}


_ITEM_FIRST = re.compile(r"(\d{1,3})\s*[xX×*]?\s+(.+)")
_ITEM_LAST = re.compile(r"(.+?)\s*[xX×*]\s*(\d{1,3})")
_SPLIT = re.compile(r"\s*[,;]\s*(?=[+-]?\d{1,3}\s*[xX×*]?\s)")


def _item(text: str, index: CardIndex, among: Sequence[Card] = ()) -> tuple[Card, int]:
    """``3 Name`` / ``3x Name`` / ``Name x3`` / ``Name`` / a passcode -> (card, copies).

    A name that is no card's full name may be part of the name of exactly one card of
    ``among`` (the deck's cards): the start of it first, else any part (``Ghost Belle``)."""
    from deckcheck.error import UnknownCardError

    body = text.strip()
    count, name = 1, body
    m = _ITEM_FIRST.fullmatch(body)
    if m is not None and not body.isdigit():
        count, name = int(m.group(1)), m.group(2)
    else:
        m = _ITEM_LAST.fullmatch(body)
        if m is not None:
            count, name = int(m.group(2)), m.group(1)
    try:
        return index.lookup(name.strip()).card, count
    except UnknownCardError:
        found = partial_match(name, among)
        if found is None:
            raise
        return found, count


def partial_match(name: str, cards: Sequence[Card]) -> Card | None:
    """The one card of ``cards`` whose name (any language) starts with ``name``, else the one
    whose name contains it, ignoring case and punctuation; None when there is none.

    Raises :class:`~deckcheck.error.AmbiguousCardError` when several cards match equally."""
    from deckcheck.card.name import normalize_name
    from deckcheck.error import AmbiguousCardError

    key = normalize_name(name)
    if not key:
        return None
    distinct = {c.canonical: c for c in cards}
    names = {
        code: [normalize_name(n) for n in (c.name, c.name_ja, c.name_zh) if n]
        for code, c in distinct.items()
    }
    for test in (str.startswith, str.__contains__):
        hits = [code for code, ns in names.items() if any(test(n, key) for n in ns)]
        if len(hits) == 1:
            return distinct[hits[0]]
        if hits:
            raise AmbiguousCardError(name, [(code, distinct[code].name) for code in sorted(hits)])
    return None


def parse_card_list(
    text: str, data: Dataset | None = None, *, among: Sequence[Card] = ()
) -> tuple[tuple[Card, int], ...]:
    """Cards and counts from one string: ``"3 Card A, 1 Card B"`` (also ``;`` or new lines).

    ``among`` (the cards of the deck the list is for) lets a name be part of a card's name when
    it names no card in full (:func:`partial_match`). Raises
    :class:`~deckcheck.error.UnknownCardError` or :class:`~deckcheck.error.AmbiguousCardError`
    for a name that names no single card.
    """
    from deckcheck.data.dataset import resolve_data

    index = resolve_data(data).cards
    out: list[tuple[Card, int]] = []
    for line in re.split(r"[\r\n]+", text):
        for part in _SPLIT.split(line.strip()):
            if part.strip():
                body = part.lstrip("+-").strip() if part[:1] in "+-" else part
                out.append(_item(body, index, among))
    return tuple(out)


_IN = {"in", "sidein", "sidingin"}
_OUT = {"out", "sideout", "sidingout"}
_HEADING = re.compile(r"(?:side\s*|siding\s*)?(in|out)\s*[:：=]\s*(.+)", re.IGNORECASE)


def parse_side_plan(text: str, data: Dataset | None = None) -> SidePlan:
    """A side plan file (see the module's documentation).

    Raises :class:`~deckcheck.error.InputError` for a card line before any heading, and the
    lookup errors of :func:`parse_card_list` for unknown names.
    """
    from deckcheck.data.dataset import resolve_data
    from deckcheck.error import DeckcheckError, InputError

    index = resolve_data(data).cards
    toml_plan = _toml_plan(text, data)
    if toml_plan is not None:
        return toml_plan
    cards_in: list[tuple[Card, int]] = []
    cards_out: list[tuple[Card, int]] = []
    where: list[tuple[Card, int]] | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        key = re.sub(r"[\s:_-]+", "", line.casefold())
        if key in _IN or key in _OUT:
            where = cards_in if key in _IN else cards_out
            continue
        head = _HEADING.fullmatch(line)
        if head is not None:  # "in: 3 Card A, 1 Card B" on one line
            where = cards_in if head.group(1).casefold() == "in" else cards_out
            try:
                where.extend(parse_card_list(head.group(2), data))
            except DeckcheckError as exc:
                raise InputError(f"line {number}: {exc}") from exc
            continue
        target = where
        if line[0] in "+-" and line[1:2].isdigit():
            target = cards_in if line[0] == "+" else cards_out
            line = line[1:]
        if target is None:
            raise InputError(f"line {number}: a card before any 'in:' or 'out:' heading")
        try:
            target.append(_item(line, index))
        except DeckcheckError as exc:
            raise InputError(f"line {number}: {exc}") from exc
    return SidePlan(tuple(cards_in), tuple(cards_out))


def _toml_plan(text: str, data: Dataset | None) -> SidePlan | None:
    """A plan written as TOML (``in = ["3 Card A"]``, ``out = "2 Card B, 1 Card C"``), or None
    when the text is not such a TOML document."""
    import tomllib

    from deckcheck.boundary import parse_toml

    try:
        doc = parse_toml(text)
    except tomllib.TOMLDecodeError:
        return None
    keys = _plan_keys(doc)
    if not keys or not set(keys) <= {"in", "out"}:
        return None
    return plan_from_document(doc, data)


def _plan_keys(doc: dict[str, Any]) -> dict[str, Any]:
    """A plan document's keys read as ``in`` / ``out`` (``side_in``, ``Side In``...)."""
    return {k.casefold().replace("_", " ").replace("side ", ""): v for k, v in doc.items()}


def plan_from_document(doc: dict[str, Any], data: Dataset | None = None) -> SidePlan:
    """A plan as an object (the TOML form's table, or JSON): ``{"in": ["3 Card A"], "out":
    "2 Card B, 1 Card C"}``.

    Raises :class:`~deckcheck.error.InputError` for another key or a value that is not a string
    or a list of strings, and the lookup errors of :func:`parse_card_list` for unknown names.
    """
    from deckcheck.error import InputError

    keys = _plan_keys(doc)
    other = sorted(set(keys) - {"in", "out"})
    if other:
        raise InputError(f"a side plan has 'in' and 'out', not {', '.join(map(repr, other))}")
    lists: dict[str, tuple[tuple[Card, int], ...]] = {"in": (), "out": ()}
    for key, value in keys.items():
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            raise InputError(f"'{key}' must be a string or a list of strings")
        lists[key] = tuple(c for item in items for c in parse_card_list(item, data))
    return SidePlan(lists["in"], lists["out"])


def _canon(dc: DeckCard) -> int:
    return dc.card.canonical if dc.card is not None else dc.passcode


def _take(cards: list[DeckCard], code: int, count: int) -> list[DeckCard]:
    """Remove up to ``count`` copies of canonical card ``code`` from ``cards`` (last first)."""
    taken: list[DeckCard] = []
    for i in range(len(cards) - 1, -1, -1):
        if len(taken) == count:
            break
        if _canon(cards[i]) == code:
            taken.append(cards.pop(i))
    return taken


def apply_side_plan(
    deck: Deck,
    plan: SidePlan,
    format: Format | str = "tcg",
    date: date | None = None,
    *,
    data: Dataset | None = None,
) -> SideResult:
    """Apply ``plan`` to ``deck``, report the plan's problems and validate the sided deck."""
    from msgspec.structs import replace

    from deckcheck.card import DeckZone
    from deckcheck.validation.engine import validate

    main, extra, side = list(deck.main), list(deck.extra), list(deck.side)
    problems: list[PlanProblem] = []
    total_in = sum(n for _, n in plan.cards_in)
    total_out = sum(n for _, n in plan.cards_out)
    if total_in != total_out:
        problems.append(
            PlanProblem(
                PlanCode.SIDE_UNBALANCED,
                f"not one-for-one: {total_in} card(s) in, {total_out} out",
            )
        )
    outgoing = _side_out(plan, main, extra, problems)
    incoming = _side_in(plan, side, problems)
    for dc in incoming:
        zone = dc.card.zone if dc.card is not None else DeckZone.MAIN
        if zone is DeckZone.EXTRA:
            extra.append(replace(dc, section=Section.EXTRA))
        else:
            main.append(replace(dc, section=Section.MAIN))
    side += [replace(dc, section=Section.SIDE) for dc in reversed(outgoing)]
    for name, before, after in (("Main", deck.main, main), ("Extra", deck.extra, extra)):
        if len(before) != len(after):
            problems.append(
                PlanProblem(
                    PlanCode.SIDE_SIZE_CHANGED,
                    f"the {name} Deck would go from {len(before)} to {len(after)} cards",
                )
            )
    sided = replace(deck, main=tuple(main), extra=tuple(extra), side=tuple(side))
    report = validate(sided, format, date, data=data, path=deck.source)
    return SideResult(
        sided,
        tuple(problems),
        report,
        {"in": len(incoming), "out": len(outgoing)},
        _moved(incoming),
        _moved(outgoing),
    )


def _side_out(
    plan: SidePlan, main: list[DeckCard], extra: list[DeckCard], problems: list[PlanProblem]
) -> list[DeckCard]:
    """Take the plan's cards out of the Main and Extra Decks (an Extra Deck card from the
    Extra Deck first); what is missing is a problem."""
    from deckcheck.card import DeckZone

    outgoing: list[DeckCard] = []
    for card, n in _merge(plan.cards_out):
        first, second = (extra, main) if card.zone is DeckZone.EXTRA else (main, extra)
        got = _take(first, card.canonical, n)
        got += _take(second, card.canonical, n - len(got))
        if len(got) < n:
            problems.append(
                PlanProblem(
                    PlanCode.SIDE_NOT_IN_DECK,
                    f"{card.name}: {n} to side out, but the Main and Extra Decks hold {len(got)}",
                    card.name,
                    card.passcode,
                )
            )
        outgoing += got
    return outgoing


def _side_in(plan: SidePlan, side: list[DeckCard], problems: list[PlanProblem]) -> list[DeckCard]:
    """Take the plan's cards out of the Side Deck; what is missing is a problem."""
    incoming: list[DeckCard] = []
    for card, n in _merge(plan.cards_in):
        got = _take(side, card.canonical, n)
        if len(got) < n:
            problems.append(
                PlanProblem(
                    PlanCode.SIDE_NOT_IN_SIDE,
                    f"{card.name}: {n} to side in, but the Side Deck holds {len(got)}",
                    card.name,
                    card.passcode,
                )
            )
        incoming += got
    return incoming


def _moved(cards: list[DeckCard]) -> tuple[tuple[str, int, int], ...]:
    """``(name, passcode, copies)`` of moved cards, in the order first moved."""
    counts: Counter[int] = Counter(_canon(dc) for dc in cards)
    names = {_canon(dc): dc.name for dc in cards}
    return tuple((names[code], code, n) for code, n in counts.items())


def _merge(cards: tuple[tuple[Card, int], ...]) -> list[tuple[Card, int]]:
    """The same card named twice (or by two artworks) counted once."""
    counts: Counter[int] = Counter()
    first: dict[int, Card] = {}
    for card, n in cards:
        counts[card.canonical] += n
        first.setdefault(card.canonical, card)
    return [(first[code], n) for code, n in counts.items()]
