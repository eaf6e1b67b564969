"""Results of a goldfish run: :class:`HandStats` (its JSON shape is
:class:`deckcheck.reporter.document.GoldfishDocument`; see ``docs/goldfish.md``)."""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from msgspec import Struct

from deckcheck.goldfish.rule import DrawRules, Going
from deckcheck.goldfish.sample import Samples
from deckcheck.goldfish.spec import Effect

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


class Method(enum.StrEnum):
    """How the figures were computed."""

    EXACT = "exact"
    SIMULATION = "simulation"


class ExactMode(enum.StrEnum):
    """Whether to use the exact engine: when possible (auto), always, or never."""

    AUTO = "auto"
    ALWAYS = "always"
    NEVER = "never"


def wilson(hits: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default)."""
    if trials <= 0:
        return 0.0, 1.0
    p = hits / trials
    denom = 1 + z * z / trials
    center = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    low = 0.0 if hits <= 0 else max(0.0, center - half)
    high = 1.0 if hits >= trials else min(1.0, center + half)
    return low, high


class Estimate(Struct, frozen=True):
    """A probability: exact (``fraction`` set, no interval) or simulated (95% interval)."""

    probability: float
    low: float | None = None
    high: float | None = None
    fraction: Fraction | None = None

    @classmethod
    def exact(cls, value: Fraction) -> Estimate:
        """An exact probability."""
        # int / int is correctly rounded: float(value), without Rational.__float__'s dispatch
        return cls(value.numerator / value.denominator, None, None, value)

    @classmethod
    def simulated(cls, hits: int, trials: int) -> Estimate:
        """A simulated proportion with its Wilson 95% interval."""
        low, high = wilson(hits, trials)
        return cls(hits / trials if trials else 0.0, low, high, None)

    def text(self, fractions: bool = False) -> str:
        """``41.2%`` (exact), ``41.2% ±0.3`` (simulated) or the fraction."""
        if fractions and self.fraction is not None:
            return f"{self.fraction.numerator}/{self.fraction.denominator}"
        pct = f"{100 * self.probability:.1f}%"
        if self.low is not None and self.high is not None:
            pct += f" ±{100 * max(self.probability - self.low, self.high - self.probability):.1f}"
        return pct


class CardCount(Struct, frozen=True):
    """A distinct Main Deck card and its copies."""

    name: str
    passcode: int
    copies: int


class CategoryStats(Struct, frozen=True):
    """A category: its copies in the deck and which cards."""

    name: str
    copies: int
    cards: tuple[CardCount, ...]


class ConditionStats(Struct, frozen=True):
    """One condition's probability by turn (index 0 = turn 1), per going."""

    name: str
    expression: str
    by_going: Mapping[Going, tuple[Estimate, ...]]
    method: Method = Method.EXACT
    """Exact or simulated: decided per condition (one over the exact budget is simulated)."""


class DistributionStats(Struct, frozen=True):
    """A category's distribution: per going, per turn (index 0 = turn 1), P(exactly k) for
    k = 0, 1, ... (up to the copies, or the cards seen if fewer)."""

    name: str
    copies: int
    by_going: Mapping[Going, tuple[tuple[Estimate, ...], ...]]
    trials: int | None = None
    """Simulated games per going when simulated (the cumulative figures' intervals)."""

    def _cum(self, going: Going, turn: int, reverse: bool) -> tuple[Estimate, ...]:
        ests = self.by_going[going][turn]
        order = ests[::-1] if reverse else ests
        out: list[Estimate] = []
        fracs = [e.fraction for e in order if e.fraction is not None]
        if len(fracs) == len(order):  # exact: integer sums over one denominator
            dens = [f.denominator for f in fracs]
            den = math.lcm(*dens)
            total = 0
            for f, f_den in zip(fracs, dens, strict=True):
                total += f.numerator * (den // f_den)
                # (int / int is correctly rounded: the float of the reduced fraction too)
                out.append(Estimate(total / den, None, None, Fraction(total, den)))
        else:  # simulated: the games meeting "at least / at most k", a proportion of its own
            hits = 0
            for e in order:
                hits += round(e.probability * (self.trials or 0))
                out.append(Estimate.simulated(hits, self.trials or 0))
        return tuple(reversed(out)) if reverse else tuple(out)

    def at_least(self, going: Going, turn: int) -> tuple[Estimate, ...]:
        """P(at least k) for k = 0, 1, ... by turn ``turn`` (0 = turn 1)."""
        return self._cum(going, turn, reverse=True)

    def at_most(self, going: Going, turn: int) -> tuple[Estimate, ...]:
        """P(at most k) for k = 0, 1, ... by turn ``turn`` (0 = turn 1)."""
        return self._cum(going, turn, reverse=False)

    def expected(self, going: Going, turn: int) -> Mean:
        """The expected number of cards of the category seen by turn ``turn`` (0 = turn 1):
        exact, or simulated with a 95% interval (normal, from the simulated variance)."""
        ests = self.by_going[going][turn]
        fracs = [e.fraction for e in ests if e.fraction is not None]
        if len(fracs) == len(ests):
            dens = [f.denominator for f in fracs]
            den = math.lcm(*dens)
            total = sum(
                k * f.numerator * (den // f_den)
                for k, (f, f_den) in enumerate(zip(fracs, dens, strict=True))
            )
            return Mean(total / den, None, None, Fraction(total, den))
        mean = sum(k * e.probability for k, e in enumerate(ests))
        var = max(0.0, sum(k * k * e.probability for k, e in enumerate(ests)) - mean * mean)
        half = Z95 * math.sqrt(var / self.trials) if self.trials else math.inf
        return Mean(mean, mean - half, mean + half, None)


class Mean(Struct, frozen=True):
    """An expected count: exact (``fraction`` set) or simulated (95% interval)."""

    value: float
    low: float | None = None
    high: float | None = None
    fraction: Fraction | None = None


class HandStats(Struct, frozen=True):
    """Everything one goldfish run found (written as JSON by its document model,
    :class:`~deckcheck.reporter.document.GoldfishDocument`). Two runs' stats are equal when
    their figures are, whatever their :attr:`outcomes`."""

    method: Method
    note: str | None
    rules: DrawRules
    goings: tuple[Going, ...]
    turns: int
    seen: Mapping[Going, tuple[int, ...]]
    deck_size: int
    deck_name: str | None
    categories: tuple[CategoryStats, ...]
    conditions: tuple[ConditionStats, ...]
    composition: Mapping[Going, Mapping[str, tuple[Estimate, ...]]]
    effects: tuple[Effect, ...] = ()
    trials: int | None = None
    seed: int | None = None
    default: bool = False
    warnings: tuple[str, ...] = ()
    """What the run could not take into account as asked: a category matching no card, an
    effect card not in the deck, more cards seen than the deck holds, unknown cards."""
    distributions: tuple[DistributionStats, ...] = ()
    """Per category, P(exactly k) by turn (when asked for)."""
    samples: Samples | None = None
    """Sample hands (when asked for)."""
    outcomes: Any = None
    """With ``paired=True`` and a simulation: per going, per condition (and distribution
    figure), a (turns, trials) bool array of each game's outcome (``None`` for an exact
    figure); :func:`deckcheck.goldfish.compare.compare` pairs two runs on one seed with it."""

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not HandStats:
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _FIGURES)

    __hash__ = None  # type: ignore[assignment]  # (its mappings are not hashable)

    def __repr__(self) -> str:
        shown = ", ".join(f"{f}={getattr(self, f)!r}" for f in _FIGURES)
        return f"HandStats({shown})"

    def condition(self, name: str) -> ConditionStats:
        """The stats of the named condition (KeyError if absent)."""
        for c in self.conditions:
            if c.name == name:
                return c
        raise KeyError(name)


_FIGURES = tuple(f for f in HandStats.__struct_fields__ if f != "outcomes")
"""The fields that make two runs' stats equal (and their repr): every one but the outcomes."""
