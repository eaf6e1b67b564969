"""The core of a goldfish run: a pool of cards, conditions, effects -> :class:`HandStats`.

:func:`deckcheck.goldfish.simulate` (a deck and a spec) and
:func:`deckcheck.goldfish.simulate_counts` (quick mode: a deck size and category counts) both
build a :class:`Pool` and call :func:`run`, which picks the exact engine or the simulation,
enforces the exact engine's budget, and assembles the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from msgspec import Struct, field
from msgspec.structs import replace

from deckcheck.error import GoldfishError
from deckcheck.goldfish.condition import (
    CARD_PREFIX,
    Compare,
    Condition,
    Distinct,
    Node,
    Number,
    Ref,
    map_nodes,
)
from deckcheck.goldfish.exact import ExactBudget, ExactBudgetExceeded
from deckcheck.goldfish.result import (
    CardCount,
    CategoryStats,
    ConditionStats,
    DistributionStats,
    Estimate,
    ExactMode,
    HandStats,
    Method,
)
from deckcheck.goldfish.rule import DrawRules, Going
from deckcheck.goldfish.sample import MAX_SAMPLES, Samples, deal_samples
from deckcheck.goldfish.spec import Effect

DEFAULT_TRIALS = 100_000
"""Simulated games per going when none is asked for."""
MAX_TRIALS = 50_000_000
"""Most simulated games per going accepted."""
MAX_TURNS = 20
"""Most turns accepted."""
KIND_NAMES = ("Monster", "Spell", "Trap")
"""Buckets of the hand-composition distribution."""


class Pool(Struct, frozen=True):
    """The Main Deck as the engines see it: one entry per distinct card (or stand-in).

    ``kinds[i]``: 0 Monster, 1 Spell, 2 Trap, 3 unknown (in no composition bucket).
    ``composition``: whether to report the Monster/Spell/Trap distribution at all.
    """

    copies: tuple[int, ...]
    members: tuple[frozenset[str], ...]
    kinds: tuple[int, ...]
    cards: tuple[CardCount, ...]
    composition: bool = True

    @property
    def size(self) -> int:
        """Cards in the deck."""
        return sum(self.copies)


class Options(Struct, frozen=True):
    """How to run: goings, turns, rules, exact mode and budget, simulation size and seed."""

    goings: tuple[Going, ...]
    turns: int
    rules: DrawRules
    mode: ExactMode = ExactMode.AUTO
    trials: int = DEFAULT_TRIALS
    seed: int | None = None
    budget: ExactBudget = field(default_factory=ExactBudget)
    distributions: bool = False
    samples: int = 0
    """Sample hands to deal (:mod:`deckcheck.goldfish.sample`)."""
    paired: bool = False
    """Keep every simulated game's outcome (:attr:`HandStats.outcomes`), so that
    :func:`deckcheck.goldfish.compare.compare` can pair two runs on one seed."""


def check_options(
    going: str | Going | Sequence[Going],
    turns: int,
    trials: int,
    seed: int | None,
    exact: str | ExactMode,
) -> tuple[tuple[Going, ...], ExactMode]:
    """The goings and exact mode asked for; :class:`GoldfishError` on a bad argument."""
    try:
        mode = ExactMode(exact)
    except ValueError:
        valid = ", ".join(m.value for m in ExactMode)
        raise GoldfishError(f"exact must be one of {valid}, not {exact!r}") from None
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise GoldfishError(f"seed must be a whole number >= 0, not {seed!r}")
    if seed is not None and seed >= 1 << 128:
        raise GoldfishError("seed must be below 2**128")
    goings = goings_of(going)
    if not goings:
        raise GoldfishError("going must name first, second or both")
    if not 1 <= turns <= MAX_TURNS:
        raise GoldfishError(f"turns must be from 1 to {MAX_TURNS}")
    if not 1 <= trials <= MAX_TRIALS:
        raise GoldfishError(f"trials must be from 1 to {MAX_TRIALS:,}")
    return goings, mode


def check_samples(samples: int) -> int:
    """The number of sample hands asked for; :class:`GoldfishError` out of 0..MAX_SAMPLES."""
    if isinstance(samples, bool) or not isinstance(samples, int) or not 0 <= samples <= MAX_SAMPLES:
        raise GoldfishError(f"sample must be a whole number from 0 to {MAX_SAMPLES}")
    return samples


def goings_of(going: str | Going | Sequence[Going]) -> tuple[Going, ...]:
    """``"both"``, ``"first"``, a :class:`Going` or a sequence of them, as a tuple."""
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


class Question(Struct, frozen=True):
    """What to report: category names (in order), named conditions with their shown
    expression, and effects by pool index."""

    categories: tuple[str, ...]
    conditions: tuple[tuple[str, str, Condition], ...]
    effects: Mapping[int, Effect] = field(default_factory=dict)


def _distribution_conditions(pool: Pool, q: Question) -> list[tuple[str, int, Condition]]:
    """``category == k`` for every category and k = 0..copies (distributions by turn)."""
    out = []
    for name in q.categories:
        copies = sum(c for c, m in zip(pool.copies, pool.members, strict=True) if name in m)
        out += [
            (name, k, Condition(f"{name} == {k}", Compare(Ref(name), (("==", Number(k)),))))
            for k in range(copies + 1)
        ]
    return out


def _method(pool: Pool, q: Question, opts: Options) -> tuple[Method, str | None]:
    """Exact or simulated before trying (effects, ``never``), and why."""
    if opts.mode is ExactMode.NEVER:
        return Method.SIMULATION, None
    if q.effects:
        names = ", ".join(sorted({e.card for e in q.effects.values()}))
        if opts.mode is ExactMode.ALWAYS:
            raise GoldfishError(f"exact odds cannot model card effects ({names})")
        return Method.SIMULATION, f"simulated: card effects ({names}) make exact odds impractical"
    return Method.EXACT, None


Figures = list[dict[Going, tuple[Estimate, ...]]]
"""Per condition, per going, the estimates by turn."""


def _exact(
    pool: Pool,
    conds: Sequence[Condition],
    opts: Options,
    dist: Sequence[tuple[str, int, Condition]] = (),
) -> tuple[list[dict[Going, tuple[Estimate, ...]] | None], Any, list[str]]:
    """Exact figures of each condition (None for one over the exact engine's budget, with
    why), and the composition. The last ``len(dist)`` conditions are ``category == k``: their
    figures are the hypergeometric P(exactly k), one formula per category and number seen."""
    from deckcheck.goldfish.exact import ExactEngine

    engine = ExactEngine(list(zip(pool.copies, pool.members, strict=True)), opts.budget)
    seen = {g: opts.rules.seen(g, opts.turns) for g in opts.goings}
    figures: list[dict[Going, tuple[Estimate, ...]] | None] = []
    why: list[str] = []
    plain = conds[: len(conds) - len(dist)]
    hyper: dict[tuple[str, int], list[Estimate]] = {}  # one per category and cards seen
    none = Estimate.exact(Fraction(0))
    dist_figures: list[dict[Going, tuple[Estimate, ...]] | None] = []
    for name, k, _ in dist:
        by_going: dict[Going, tuple[Estimate, ...]] = {}
        for g in seen:
            ests = []
            for d in seen[g]:
                ps = hyper.get((name, d))
                if ps is None:
                    ps = hyper[name, d] = [Estimate.exact(p) for p in engine.distribution(name, d)]
                ests.append(ps[k] if k < len(ps) else none)
            by_going[g] = tuple(ests)
        dist_figures.append(by_going)
    for cond in plain:
        try:
            figures.append(
                {
                    g: tuple(Estimate.exact(p) for p in engine.probabilities(cond, seen[g]))
                    for g in seen
                }
            )
        except ExactBudgetExceeded as exc:
            figures.append(None)
            why.append(str(exc))
    figures += dist_figures
    composition: dict[Going, dict[str, tuple[Estimate, ...]]] = {g: {} for g in seen}
    if pool.composition:
        kinds = ExactEngine(
            [
                (c, frozenset(KIND_NAMES[k : k + 1]))
                for c, k in zip(pool.copies, pool.kinds, strict=True)
            ]
        )
        for g in seen:
            composition[g] = {
                kind: tuple(Estimate.exact(p) for p in kinds.distribution(kind, seen[g][0]))
                for kind in KIND_NAMES
            }
    return figures, composition, why


def run(
    pool: Pool,
    q: Question,
    opts: Options,
    *,
    deck_name: str | None,
    default: bool,
    warnings: Sequence[str] = (),
) -> HandStats:
    """Odds of the question's conditions over the pool, exact or simulated as ``opts`` say.

    Exact or simulated is decided per condition: with ``exact="auto"`` a condition over the
    exact engine's budget is simulated, the others stay exact (``ConditionStats.method``).
    """
    if pool.size == 0:
        raise GoldfishError("the deck has no Main Deck cards")
    dist = _distribution_conditions(pool, q) if opts.distributions else []
    pool, conds = resolve_distinct(pool, [c for _, _, c in q.conditions] + [c for _, _, c in dist])
    method, note = _method(pool, q, opts)
    seed = opts.seed
    methods = [method] * len(conds)
    if method is Method.EXACT:
        method, note, seed, figures, composition, outcomes = _exact_first(
            pool, q, conds, opts, dist, methods, note
        )
    else:
        seed = _seed(seed)
        figures, composition, outcomes = _simulate(pool, q, conds, opts, seed)
    n = len(q.conditions)
    return HandStats(
        method=method,
        note=note,
        rules=opts.rules,
        goings=opts.goings,
        turns=opts.turns,
        seen={g: tuple(opts.rules.seen(g, opts.turns)) for g in opts.goings},
        deck_size=pool.size,
        deck_name=deck_name,
        categories=_categories(pool, q),
        conditions=tuple(
            ConditionStats(name, shown, figures[i], methods[i])
            for i, (name, shown, _) in enumerate(q.conditions)
        ),
        composition=composition,
        effects=tuple(q.effects.values()),
        trials=opts.trials if method is Method.SIMULATION else None,
        seed=seed if method is Method.SIMULATION else None,
        default=default,
        warnings=tuple(warnings),
        distributions=_distributions(pool, q, dist, figures[n:], opts),
        outcomes=outcomes,
        samples=_samples(pool, conds[:n], opts),
    )


def _exact_first(
    pool: Pool,
    q: Question,
    conds: list[Condition],
    opts: Options,
    dist: list[tuple[str, int, Condition]],
    methods: list[Method],
    note: str | None,
) -> tuple[Method, str | None, int | None, Figures, Any, Any]:
    """Exact odds, and the conditions over the exact budget simulated (``methods`` set per
    condition): the method, note, seed, figures, composition and kept games."""
    seed = opts.seed
    outcomes = None
    method = Method.EXACT
    exact, composition, why = _exact(pool, conds, opts, dist)
    over = [i for i, f in enumerate(exact) if f is None]
    if over and opts.mode is ExactMode.ALWAYS:
        raise GoldfishError(f"exact odds impractical: {why[0]}")
    if over:
        seed = _seed(seed)
        sim, _, outcomes = _simulate(pool, q, [conds[i] for i in over], opts, seed)
        for i, f in zip(over, sim, strict=True):
            exact[i] = f
            methods[i] = Method.SIMULATION
        method = Method.SIMULATION
        names = [q.conditions[i][0] if i < len(q.conditions) else "a distribution" for i in over]
        listed = ", ".join(dict.fromkeys(names))
        note = f"simulated: {listed} (exact odds need {why[0]})"
        if len(over) < len(conds):
            note += "; the other figures are exact"
        if outcomes is not None:  # pad the exact ones: their games are not kept
            outcomes = _pad_outcomes(outcomes, over, len(conds))
    return method, note, seed, [f for f in exact if f is not None], composition, outcomes


def _samples(pool: Pool, conds: Sequence[Condition], opts: Options) -> Samples | None:
    """The sample hands asked for (seeded by the run's seed, else one picked and reported)."""
    if not opts.samples:
        return None
    names = [c.name for c in pool.cards]
    return deal_samples(
        pool.copies,
        pool.members,
        names,
        conds,
        opts.rules,
        opts.goings,
        opts.turns,
        opts.samples,
        _seed(opts.seed),
    )


def resolve_distinct(pool: Pool, conds: Sequence[Condition]) -> tuple[Pool, list[Condition]]:
    """Give every card of a category a ``distinct(...)`` reads its own count: the pool's
    entries gain a member name each (``CARD_PREFIX`` + index), and each :class:`Distinct` the
    names of the cards of its categories."""
    wanted = frozenset(n for c in conds for d in c.distinct for n in d.categories)
    if not wanted:
        return pool, list(conds)
    members = tuple(
        m | {f"{CARD_PREFIX}{i}"} if m & wanted else m for i, m in enumerate(pool.members)
    )

    def fill(node: Node) -> Node:
        if not isinstance(node, Distinct):
            return node
        cats = set(node.categories)
        parts = tuple(
            f"{CARD_PREFIX}{i}" for i, m in enumerate(pool.members) if m & cats and pool.copies[i]
        )
        return Distinct(node.categories, parts)

    out = [Condition(c.text, map_nodes(c.root, fill)) if c.distinct else c for c in conds]
    return replace(pool, members=members), out


def _seed(seed: int | None) -> int:
    """The seed given, or (unseeded) one picked at random and reported so the run repeats."""
    if seed is not None:
        return seed
    import secrets

    return secrets.randbits(32)


def _pad_outcomes(outcomes: Any, rows: Sequence[int], n: int) -> Any:
    """Per going, (n, turns, trials) outcomes with the simulated rows in place, the exact
    ones masked out (``None`` rows)."""
    out = {}
    for g, arr in outcomes.items():
        full: list[Any] = [None] * n
        for j, i in enumerate(rows):
            full[i] = arr[j]
        out[g] = full
    return out


def _categories(pool: Pool, q: Question) -> tuple[CategoryStats, ...]:
    return tuple(
        CategoryStats(
            name,
            sum(c for c, m in zip(pool.copies, pool.members, strict=True) if name in m),
            tuple(
                card
                for card, m in zip(pool.cards, pool.members, strict=True)
                if name in m and card.copies
            ),
        )
        for name in q.categories
    )


def _distributions(
    pool: Pool,
    q: Question,
    dist: Sequence[tuple[str, int, Condition]],
    figures: Figures,
    opts: Options,
) -> tuple[DistributionStats, ...]:
    """Per category, per going, per turn: P(exactly k) for k = 0..min(copies, seen) (with
    effects, more cards than seen can be reached: then k = 0..copies)."""
    out = []
    if not opts.distributions:
        return ()
    for name in q.categories:
        rows = [(k, f) for (n, k, _), f in zip(dist, figures, strict=True) if n == name]
        by_going: dict[Going, tuple[tuple[Estimate, ...], ...]] = {}
        for g in opts.goings:
            per_turn = []
            for t, seen in enumerate(opts.rules.seen(g, opts.turns)):
                top = len(rows) - 1 if q.effects else min(len(rows) - 1, seen)
                per_turn.append(tuple(f[g][t] for k, f in rows if k <= top))
            by_going[g] = tuple(per_turn)
        simulated = any(e.fraction is None for f in figures for ests in f.values() for e in ests)
        trials = opts.trials if simulated else None
        out.append(DistributionStats(name, len(rows) - 1, by_going, trials))
    return tuple(out)


MAX_OUTCOME_BYTES = 256 << 20
"""Most memory kept for the games' outcomes of a paired run (one byte per condition, turn,
going and game); past it the run keeps none and a comparison uses independent intervals."""


def _simulate(
    pool: Pool, q: Question, conds: Sequence[Condition], opts: Options, seed: int
) -> tuple[Figures, dict[Going, dict[str, tuple[Estimate, ...]]], Any]:
    import numpy as np

    from deckcheck.goldfish.montecarlo import Deal, simulate_plain
    from deckcheck.goldfish.table import simulate_effects

    cards = sorted({n for m in pool.members for n in m if n.startswith(CARD_PREFIX)})
    names = (*q.categories, *cards)  # and the cards distinct(...) counts one by one
    member = np.array([[n in m for n in names] for m in pool.members], dtype=bool).reshape(
        len(pool.members), len(names)
    )
    deal = Deal(
        cards=np.repeat(np.arange(len(pool.copies)), list(pool.copies)),
        member=member,
        names=names,
        kind=np.array(pool.kinds, dtype=np.int64),
    )
    rules, turns, goings = opts.rules, opts.turns, opts.goings
    keep = opts.paired and (len(conds) * turns * opts.trials * len(goings) <= MAX_OUTCOME_BYTES)
    # one random stream per going, fixed by the seed and the going alone
    rngs = {g: np.random.default_rng([seed, i]) for i, g in enumerate(Going) if g in goings}
    if q.effects:
        tallies = simulate_effects(
            deal,
            conds,
            q.effects,
            rules.hand_size,
            {g: rules.draws(g, turns) for g in goings},
            opts.trials,
            rngs,
            keep=keep,
        )
    else:
        tallies = {
            g: simulate_plain(
                deal, conds, {g: rules.seen(g, turns)}, opts.trials, rngs[g], keep=keep
            )[g]
            for g in goings
        }
    figures: Figures = [{} for _ in conds]
    composition: dict[Going, dict[str, tuple[Estimate, ...]]] = {}
    outcomes = {g: list(t.outcomes) for g, t in tallies.items()} if keep else None
    for g, tally in tallies.items():
        for i in range(len(conds)):
            figures[i][g] = tuple(Estimate.simulated(int(h), tally.trials) for h in tally.hits[i])
        composition[g] = {}
        if not pool.composition:
            continue
        top = min(rules.seen(g, 1)[0], len(deal.cards))
        if q.effects:  # effects can bring more cards than were dealt
            top = max([top, *(int(np.flatnonzero(row).max()) for row in tally.composition)])
        composition[g] = {
            kind: tuple(
                Estimate.simulated(int(h), tally.trials) for h in tally.composition[k][: top + 1]
            )
            for k, kind in enumerate(KIND_NAMES)
        }
    return figures, composition, outcomes
