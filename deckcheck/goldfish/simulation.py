"""``simulate``: goldfish odds of a deck, exact where the maths allows, simulated otherwise."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date as _date
from typing import TYPE_CHECKING

from deckcheck.deck.model import Deck, DeckCard, FindingCode, ReadFinding, Section
from deckcheck.error import GoldfishError
from deckcheck.goldfish.condition import parse_condition
from deckcheck.goldfish.engine import (
    DEFAULT_TRIALS,
    KIND_NAMES,
    Options,
    Pool,
    Question,
    check_options,
    check_samples,
    run,
)
from deckcheck.goldfish.exact import ExactBudget
from deckcheck.goldfish.result import CardCount, ExactMode, HandStats
from deckcheck.goldfish.rule import DrawRules, Going, draw_rules_for
from deckcheck.goldfish.spec import Category, Effect, Spec

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.rule.format import Format


class _Distinct:
    """One distinct Main Deck card: a representative copy and how many copies."""

    def __init__(self, first: DeckCard) -> None:
        self.card = first
        self.copies = 0

    @property
    def code(self) -> int:
        return self.card.card.canonical if self.card.card is not None else self.card.passcode

    @property
    def kind(self) -> int:
        c = self.card.card
        if c is None or c.kind.value not in KIND_NAMES:
            return len(KIND_NAMES)
        return KIND_NAMES.index(c.kind.value)


def _distinct(deck: Deck) -> list[_Distinct]:
    by: dict[int, _Distinct] = {}
    for dc in deck.main:
        if dc.card is not None and dc.card.is_skill:
            continue  # a Speed Duel Skill starts face-down on the field: never drawn
        key = dc.card.canonical if dc.card is not None else dc.passcode
        by.setdefault(key, _Distinct(dc)).copies += 1
    # lines naming no card (a typo in a text list) still hold a place in the deck: cards of no
    # category, as the docs promise, so the deck size and the odds stay true
    for n, f in enumerate(unknown_lines(deck), 1):
        placeholder = DeckCard(-n, Section.MAIN, None, f.line)
        by.setdefault(-n, _Distinct(placeholder)).copies += f.count
    return list(by.values())


def unknown_lines(deck: Deck) -> list[ReadFinding]:
    """The Main Deck lines of ``deck`` that name no card (unknown or ambiguous names)."""
    return [
        f
        for f in deck.findings
        if f.passcode is None
        and f.name is not None
        and f.code in (FindingCode.UNKNOWN_CARD, FindingCode.AMBIGUOUS_CARD)
        and f.section in (Section.MAIN, None)
    ]


def default_spec(deck: Deck) -> Spec:
    """One category per distinct Main Deck card and the condition "at least 1 copy"."""
    cats: list[Category] = []
    used: set[str] = set()
    for d in _distinct(deck):
        if d.card.passcode < 0:
            continue  # an unknown line: no category
        name = d.card.name
        if name in used:
            name = f"{name} ({d.code})"
        used.add(name)
        cats.append(Category(name, frozenset({d.code}), treated_as=False))
    conds = tuple((c.name, parse_condition(f"`{c.name}` >= 1")) for c in cats)
    return Spec(tuple(cats), conds, (), None, True)


def simulate(
    deck: Deck,
    spec: Spec | None = None,
    *,
    going: str | Going | Sequence[Going] = "both",
    turns: int = 1,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = None,
    rules: DrawRules | None = None,
    exact: str | ExactMode = ExactMode.AUTO,
    format: str | Format = "tcg",
    date: _date | None = None,
    data: Dataset | None = None,
    budget: ExactBudget | None = None,
    distributions: bool = False,
    paired: bool = False,
    sample: int = 0,
) -> HandStats:
    """Goldfish odds of the Main Deck of ``deck``.

    With a ``spec``, the probability of each of its conditions by each of the player's first
    ``turns`` turns; without, P(at least 1 copy) of every distinct card. Always the Monster/
    Spell/Trap distribution of the cards seen on turn 1; with ``distributions``, P(exactly k)
    of every category by turn too. ``exact``: ``auto`` uses the exact engine unless effects or
    the exact engine's ``budget`` (memory and time, :class:`ExactBudget`) need simulation (the
    result's ``note`` says so), ``always`` raises :class:`GoldfishError` instead, ``never``
    always simulates (``trials`` games per going, seeded by ``seed``). The hand size and draws
    are ``rules``, else those of ``format``'s era at ``date`` (default: ``tcg`` today) in
    ``data`` (default: the active dataset), the era :func:`deckcheck.validate` uses.
    ``sample`` deals that many seeded sample hands (``HandStats.samples``; at most 100).
    ``paired`` keeps each simulated game's outcome (``HandStats.outcomes``), so that
    :func:`deckcheck.goldfish.compare.compare` gives two runs on one seed the paired interval.
    """
    rules = rules or draw_rules_for(format, date, data)
    goings, mode = check_options(going, turns, trials, seed, exact)
    seen = {g: tuple(rules.seen(g, turns)) for g in goings}
    pool, question, warnings = prepare(deck, spec, seen)
    opts = Options(
        goings,
        turns,
        rules,
        mode,
        trials,
        seed,
        budget or ExactBudget(),
        distributions,
        check_samples(sample),
        paired,
    )
    return run(pool, question, opts, deck_name=deck.name, default=spec is None, warnings=warnings)


def prepare(
    deck: Deck, spec: Spec | None, seen: dict[Going, tuple[int, ...]]
) -> tuple[Pool, Question, list[str]]:
    """The pool, the question and the warnings of a deck and a spec (default report: None)."""
    distinct = _distinct(deck)
    if not distinct:
        raise GoldfishError("the deck has no Main Deck cards")
    is_default = spec is None
    spec = spec or default_spec(deck)
    if not spec.conditions:
        raise GoldfishError("no card of the Main Deck is known: there are no odds to report")
    members = [frozenset(c.name for c in spec.categories if c.matches(d.card)) for d in distinct]
    effects: dict[int, Effect] = {}
    for e in spec.effects:
        for k, d in enumerate(distinct):
            if d.code == e.passcode:
                effects[k] = e
    deck_size = sum(d.copies for d in distinct)
    warnings = _warnings(deck, spec, is_default, distinct, members, effects, seen, deck_size)
    pool = Pool(
        copies=tuple(d.copies for d in distinct),
        members=tuple(members),
        kinds=tuple(d.kind for d in distinct),
        cards=tuple(CardCount(d.card.name, d.code, d.copies) for d in distinct),
    )
    question = Question(
        categories=tuple(c.name for c in spec.categories),
        conditions=tuple(
            (name, f"at least 1 {name}" if is_default else str(cond), cond)
            for name, cond in spec.conditions
        ),
        effects=effects,
    )
    return pool, question, warnings


def plural(n: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word if n == 1 else word + 's'}"


def _extra_deck_warnings(deck: Deck, effects: list[Effect]) -> list[str]:
    """Pots that banish face-down Extra Deck cards, in a deck whose Extra Deck is too small."""
    from deckcheck.goldfish.spec import EffectKind

    out = []
    for e in effects:
        need = {EffectKind.EXCAVATE: e.count, EffectKind.DRAW_LOCK: 3 * e.count}.get(e.kind)
        if need is not None and need <= 6 and len(deck.extra) < need:  # banish 3 or 6
            out.append(
                f"{e.card} banishes {need} face-down cards from the Extra Deck, which holds "
                f"{len(deck.extra)}: the simulation plays it anyway"
            )
    return out


def _warnings(
    deck: Deck,
    spec: Spec,
    is_default: bool,
    distinct: list[_Distinct],
    members: list[frozenset[str]],
    effects: dict[int, Effect],
    seen: dict[Going, tuple[int, ...]],
    deck_size: int,
) -> list[str]:
    """What the odds could not take into account as the spec or the deck asked."""
    out: list[str] = []
    lines = unknown_lines(deck)
    if lines:
        copies = sum(f.count for f in lines)
        listed = ", ".join(repr(f.name) for f in lines[:5]) + (", ..." if len(lines) > 5 else "")
        out.append(
            f"{plural(copies, 'card')} named by {plural(len(lines), 'line')} that "
            f"{'matches' if len(lines) == 1 else 'match'} no card ({listed}) "
            f"{'is' if copies == 1 else 'are'} counted as {'a card' if copies == 1 else 'cards'} "
            "of no category"
        )
    unknown = [d for d in distinct if d.card.card is None and d.card.passcode >= 0]
    if unknown:
        copies = sum(d.copies for d in unknown)
        listed = ", ".join(str(d.card.passcode) for d in unknown[:5])
        more = ", ..." if len(unknown) > 5 else ""
        out.append(
            f"{plural(copies, 'Main Deck card')} with unknown passcodes ({listed}{more}) "
            f"{'is' if copies == 1 else 'are'} counted in the deck size, with no card data "
            "(no Monster/Spell/Trap kind, in no spec category)"
        )
    if not is_default:
        for c in spec.categories:
            if not any(c.name in m for m in members):
                out.append(f"category {c.name!r} matches no card in the Main Deck")
        played = {e.passcode for e in effects.values()}
        for e in spec.effects:
            if e.passcode not in played:
                out.append(f"effect card {e.card!r} is not in the Main Deck (ignored)")
        out += _extra_deck_warnings(deck, list(effects.values()))
    most = max(n for v in seen.values() for n in v)
    if most > deck_size:
        going = next(g for g, v in seen.items() if max(v) == most)
        out.append(
            f"the Main Deck has {plural(deck_size, 'card')}, fewer than the {most} seen going "
            f"{going.value} by turn {seen[going].index(most) + 1}: the odds assume the game "
            "stops drawing when the deck is empty"
        )
    return out


__all__ = ["DEFAULT_TRIALS", "default_spec", "simulate"]
