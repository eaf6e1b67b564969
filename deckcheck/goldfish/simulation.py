"""``simulate``: goldfish odds of a deck, exact where the maths allows, simulated otherwise."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date as _date
from typing import TYPE_CHECKING

from deckcheck.card import CardKind
from deckcheck.deck.model import Deck, DeckCard, FindingCode, ReadFinding, Section
from deckcheck.error import GoldfishError
from deckcheck.goldfish.condition import Condition, parse_condition
from deckcheck.goldfish.result import (
    CardCount,
    CategoryStats,
    ConditionStats,
    Estimate,
    ExactMode,
    HandStats,
    Method,
)
from deckcheck.goldfish.rule import DrawRules, Going, draw_rules_for
from deckcheck.goldfish.spec import Category, Effect, Spec

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.rule.format import Format

DEFAULT_TRIALS = 100_000
"""Simulated games per going when none is asked for."""
MAX_TRIALS = 50_000_000
"""Most simulated games per going accepted."""
MAX_TURNS = 20
"""Most turns accepted."""
KIND_NAMES = (CardKind.MONSTER.value, CardKind.SPELL.value, CardKind.TRAP.value)
"""Buckets of the hand-composition distribution."""


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


def _goings(going: str | Going | Sequence[Going]) -> tuple[Going, ...]:
    if isinstance(going, Going):
        return (going,)
    if isinstance(going, str):
        if going == "both":
            return (Going.FIRST, Going.SECOND)
        try:
            return (Going(going),)
        except ValueError:
            raise GoldfishError(f"going must be first, second or both, not {going!r}") from None
    try:
        return tuple(Going(g) for g in going)
    except (ValueError, TypeError):
        raise GoldfishError(f"going must be first, second or both, not {going!r}") from None


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
) -> HandStats:
    """Goldfish odds of the Main Deck of ``deck``.

    With a ``spec``, the probability of each of its conditions by each of the player's first
    ``turns`` turns; without, P(at least 1 copy) of every distinct card. Always the Monster/
    Spell/Trap distribution of the cards seen on turn 1. ``exact``: ``auto`` uses the exact
    engine unless effects or a too-large state space need simulation (the result's ``note``
    says so), ``always`` raises :class:`GoldfishError` instead, ``never`` always simulates
    (``trials`` games per going, seeded by ``seed``). The hand size and draws are ``rules``, else
    those of ``format``'s era at ``date`` (default: ``tcg`` today) in ``data`` (default: the
    active dataset), the era :func:`deckcheck.validate` uses.
    """
    rules = rules or draw_rules_for(format, date, data)
    try:
        mode = ExactMode(exact)
    except ValueError:
        valid = ", ".join(m.value for m in ExactMode)
        raise GoldfishError(f"exact must be one of {valid}, not {exact!r}") from None
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise GoldfishError(f"seed must be a whole number >= 0, not {seed!r}")
    if seed is not None and seed >= 1 << 128:
        raise GoldfishError("seed must be below 2**128")
    goings = _goings(going)
    if not goings:
        raise GoldfishError("going must name first, second or both")
    if not 1 <= turns <= MAX_TURNS:
        raise GoldfishError(f"turns must be from 1 to {MAX_TURNS}")
    if not 1 <= trials <= MAX_TRIALS:
        raise GoldfishError(f"trials must be from 1 to {MAX_TRIALS:,}")
    distinct = _distinct(deck)
    if not distinct:
        raise GoldfishError("the deck has no Main Deck cards")
    is_default = spec is None
    spec = spec or default_spec(deck)
    if not spec.conditions:
        raise GoldfishError("no card of the Main Deck is known: there are no odds to report")
    members = [frozenset(c.name for c in spec.categories if c.matches(d.card)) for d in distinct]
    conditions = [cond for _, cond in spec.conditions]
    effects: dict[int, Effect] = {}
    for e in spec.effects:
        for k, d in enumerate(distinct):
            if d.code == e.passcode:
                effects[k] = e
    seen = {g: tuple(rules.seen(g, turns)) for g in goings}
    deck_size = sum(d.copies for d in distinct)
    warnings = _warnings(deck, spec, is_default, distinct, members, effects, seen, deck_size)

    from deckcheck.goldfish.exact import MAX_VECTORS, ExactEngine

    engine = ExactEngine([(d.copies, m) for d, m in zip(distinct, members, strict=True)])
    note = None
    method = Method.EXACT
    if mode is ExactMode.NEVER:
        method = Method.SIMULATION
    elif effects:
        names = ", ".join(sorted({e.card for e in effects.values()}))
        if mode is ExactMode.ALWAYS:
            raise GoldfishError(f"exact odds cannot model card effects ({names})")
        method = Method.SIMULATION
        note = f"simulated: card effects ({names}) make exact odds impractical"
    else:
        biggest = max(engine.size(c, d) for c in conditions for v in seen.values() for d in v)
        if biggest > MAX_VECTORS:
            msg = f"{biggest:,} hand shapes exceed the exact engine's {MAX_VECTORS:,}"
            if mode is ExactMode.ALWAYS:
                raise GoldfishError(f"exact odds impractical: {msg}")
            method = Method.SIMULATION
            note = f"simulated: {msg}"

    by_cond: list[dict[Going, tuple[Estimate, ...]]] = [{} for _ in conditions]
    composition: dict[Going, dict[str, tuple[Estimate, ...]]] = {}
    if method is Method.EXACT:
        kinds = ExactEngine(
            [(d.copies, frozenset(KIND_NAMES[d.kind : d.kind + 1])) for d in distinct]
        )
        for g in goings:
            for i, cond in enumerate(conditions):
                by_cond[i][g] = tuple(Estimate.exact(engine.probability(cond, d)) for d in seen[g])
            composition[g] = {
                kind: tuple(Estimate.exact(p) for p in kinds.distribution(kind, seen[g][0]))
                for kind in KIND_NAMES
            }
        trials_out: int | None = None
        seed_out: int | None = None
    else:
        if seed is None:  # unseeded: pick one, and report it so the run can be repeated
            import secrets

            seed = secrets.randbits(32)
        by_cond, composition = _simulate(
            distinct, members, spec, conditions, effects, rules, goings, turns, trials, seed
        )
        trials_out, seed_out = trials, seed

    cats = tuple(
        CategoryStats(
            c.name,
            sum(d.copies for d, m in zip(distinct, members, strict=True) if c.name in m),
            tuple(
                CardCount(d.card.name, d.code, d.copies)
                for d, m in zip(distinct, members, strict=True)
                if c.name in m
            ),
        )
        for c in spec.categories
    )
    return HandStats(
        method=method,
        note=note,
        rules=rules,
        goings=goings,
        turns=turns,
        seen=seen,
        deck_size=deck_size,
        deck_name=deck.name,
        categories=cats,
        conditions=tuple(
            ConditionStats(name, str(cond) if not is_default else f"at least 1 {name}", by_cond[i])
            for i, (name, cond) in enumerate(spec.conditions)
        ),
        composition=composition,
        effects=tuple(effects.values()),
        trials=trials_out,
        seed=seed_out,
        default=is_default,
        warnings=tuple(warnings),
    )


def plural(n: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word if n == 1 else word + 's'}"


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
    if not is_default:
        for c in spec.categories:
            if not any(c.name in m for m in members):
                out.append(f"category {c.name!r} matches no card in the Main Deck")
        played = {e.passcode for e in effects.values()}
        for e in spec.effects:
            if e.passcode not in played:
                out.append(f"effect card {e.card!r} is not in the Main Deck (ignored)")
    most = max(n for v in seen.values() for n in v)
    if most > deck_size:
        going = next(g for g, v in seen.items() if max(v) == most)
        out.append(
            f"the Main Deck has {plural(deck_size, 'card')}, fewer than the {most} seen going "
            f"{going.value} by turn {seen[going].index(most) + 1}: the odds assume the game "
            "stops drawing when the deck is empty"
        )
    return out


def _simulate(
    distinct: list[_Distinct],
    members: list[frozenset[str]],
    spec: Spec,
    conditions: list[Condition],
    effects: dict[int, Effect],
    rules: DrawRules,
    goings: tuple[Going, ...],
    turns: int,
    trials: int,
    seed: int | None,
) -> tuple[list[dict[Going, tuple[Estimate, ...]]], dict[Going, dict[str, tuple[Estimate, ...]]]]:
    import numpy as np

    from deckcheck.goldfish.montecarlo import Deal, simulate_effects, simulate_plain

    names = tuple(c.name for c in spec.categories)
    member = np.array([[n in m for n in names] for m in members], dtype=bool).reshape(
        len(members), len(names)
    )
    deal = Deal(
        cards=np.repeat(np.arange(len(distinct)), [d.copies for d in distinct]),
        member=member,
        names=names,
        kind=np.array([d.kind for d in distinct], dtype=np.int64),
    )
    rng = np.random.default_rng(seed)
    if effects:
        tallies = simulate_effects(
            deal, conditions, effects, rules.hand_size,
            {g: rules.draws(g, turns) for g in goings}, trials, rng,
        )  # fmt: skip
    else:
        tallies = simulate_plain(
            deal, conditions, {g: rules.seen(g, turns) for g in goings}, trials, rng
        )
    by_cond: list[dict[Going, tuple[Estimate, ...]]] = [{} for _ in conditions]
    composition: dict[Going, dict[str, tuple[Estimate, ...]]] = {}
    for g, tally in tallies.items():
        for i in range(len(conditions)):
            by_cond[i][g] = tuple(Estimate.simulated(int(h), tally.trials) for h in tally.hits[i])
        top = min(rules.seen(g, 1)[0], len(deal.cards))
        if effects:  # effects can bring more cards than were dealt
            top = max([top, *(int(np.flatnonzero(row).max()) for row in tally.composition)])
        composition[g] = {
            kind: tuple(
                Estimate.simulated(int(h), tally.trials) for h in tally.composition[k][: top + 1]
            )
            for k, kind in enumerate(KIND_NAMES)
        }
    return by_cond, composition


__all__ = ["DEFAULT_TRIALS", "default_spec", "simulate"]
