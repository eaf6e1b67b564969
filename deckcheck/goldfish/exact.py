"""The exact engine: hypergeometric odds of a condition by dynamic programming, per condition.

For one condition, the deck's cards fall into *atoms*: cards with the same memberships in the
categories the condition reads are interchangeable; every other card is "other". For a set of
atoms ``U`` with ``n_U`` cards, the engine computes the polynomial ``W(s)``: the number of ways to
pick ``s`` cards among the atoms of ``U`` (counted as ``prod C(n_i, x_i)``) such that the
condition holds. Then for every number ``d`` of cards seen, with ``N`` cards in the deck::

    P(condition | d seen) = sum_s W(s) * C(N - n_U, d - s) / C(N, d)

so all turns and goings come from one ``W``. ``W`` is built without enumerating hand vectors:

* every comparison is rewritten as ``F op K``, ``F`` an integer linear form over categories
  (``a + b >= 2`` is ``F = a + b``; ``a < b`` is ``F = b - a > 0``), so the state of the dynamic
  programme is the values of the forms the condition compares (and ``s``), not the counts;
* a form with no negative term is compared only against constants, so it is clipped just above
  its largest constant (``starter >= 1`` keeps ``starter`` in 0..2);
* ``and``/``or``/``not`` parts reading disjoint atoms are computed separately and combined by
  convolution (``P(A or B) = 1 - P(not A and not B)``).

Every count is an exact integer: the probabilities are :class:`~fractions.Fraction`. A hard
:class:`ExactBudget` bounds the rows a step may hold (memory) and the wall time; past it the
engine raises :class:`ExactBudgetExceeded` before allocating.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from msgspec import Struct

from deckcheck.goldfish.condition import (
    CARD_PREFIX,
    And,
    AtLeastOne,
    Compare,
    Condition,
    Distinct,
    InDeck,
    Node,
    Not,
    Number,
    Or,
    Ref,
    Sum,
)

Group = tuple[int, frozenset[str]]
"""Copies of one distinct card and the categories it belongs to."""
Poly = list[int]
"""``W(s)`` for s = 0..n: weighted ways to pick s cards of a set of atoms."""
Form = tuple[tuple[str, int], ...]
"""An integer linear form over categories: sorted (name, coefficient) pairs, none zero."""

MAX_BYTES = 150_000_000
"""Default most memory (bytes, estimated before allocating) one step of the dynamic programme
may use."""


class ExactBudget(Struct, frozen=True):
    """Hard limits of the exact engine: states held by one step (memory) and wall time."""

    max_bytes: int = MAX_BYTES
    seconds: float | None = None


class ExactBudgetExceeded(Exception):
    """The exact engine stopped: the question needs more than its :class:`ExactBudget`."""


def atoms_of(
    groups: Iterable[Group], names: frozenset[str]
) -> tuple[list[int], list[frozenset[str]], int]:
    """Merge groups into atoms over ``names``: (sizes, memberships, copies of the "other" atom)."""
    merged: dict[frozenset[str], int] = {}
    for copies, member in groups:
        key = member & names
        merged[key] = merged.get(key, 0) + copies
    other = merged.pop(frozenset(), 0)
    keys = sorted(merged, key=lambda k: sorted(k))
    return [merged[k] for k in keys], keys, other


# --- conditions as tests on linear forms ----------------------------------------------------

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_CMP = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def _linear(node: Node) -> tuple[dict[str, int], int]:
    """A numeric node as (coefficients, constant)."""
    if isinstance(node, Number):
        return {}, node.value
    if isinstance(node, Ref):
        return {node.name: 1}, 0
    if isinstance(node, Distinct):  # each card's own count, counted once if seen (see _Plan)
        return {p: 1 for p in node.parts}, 0
    if isinstance(node, Sum):
        coefs, const = _linear(node.first)
        coefs = dict(coefs)
        for op, term in node.rest:
            c2, k2 = _linear(term)
            sign = 1 if op == "+" else -1
            const += sign * k2
            for name, c in c2.items():
                coefs[name] = coefs.get(name, 0) + sign * c
        return coefs, const
    raise TypeError(f"not a count: {node}")  # the parser never builds this


class _Test(Struct, frozen=True):
    """``form op constant``."""

    form: Form
    op: str
    constant: int


def _test(coefs: dict[str, int], op: str, constant: int) -> _Test:
    form = tuple(sorted((n, c) for n, c in coefs.items() if c))
    if form and form[0][1] < 0:
        form = tuple((n, -c) for n, c in form)
        op, constant = _FLIP[op], -constant
    return _Test(form, op, constant)


def _tests(node: Node) -> list[_Test]:
    """The tests of a comparison or an "at least 1"."""
    if isinstance(node, AtLeastOne):
        coefs, const = _linear(node.operand)
        return [_test(coefs, ">=", 1 - const)]
    assert isinstance(node, Compare)
    out = []
    left = _linear(node.first)
    for op, right_node in node.rest:
        right = _linear(right_node)
        coefs = dict(left[0])
        for name, c in right[0].items():
            coefs[name] = coefs.get(name, 0) - c
        out.append(_test(coefs, op, right[1] - left[1]))
        left = right
    return out


def _leaf_tests(node: Node) -> list[_Test]:
    """Every test under a boolean node."""
    if isinstance(node, And | Or):
        return [t for n in node.operands for t in _leaf_tests(n)]
    if isinstance(node, Not):
        return _leaf_tests(node.operand)
    return _tests(node)


def _expand(node: Node, totals: dict[str, int]) -> Node:
    """``deck(c)`` rewritten as ``copies(c) - c`` (without effects, what is not seen is left)."""
    if isinstance(node, InDeck):
        return Sum(Number(totals.get(node.name, 0)), (("-", Ref(node.name)),))
    if isinstance(node, Compare | Sum):
        rest = tuple((op, _expand(n, totals)) for op, n in node.rest)
        return type(node)(_expand(node.first, totals), rest)
    if isinstance(node, And | Or):
        return type(node)(tuple(_expand(n, totals) for n in node.operands))
    if isinstance(node, Not | AtLeastOne):
        return type(node)(_expand(node.operand, totals))
    return node


# --- the dynamic programme ------------------------------------------------------------------


def _conv(a: Poly, b: Poly) -> Poly:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


class _Atoms:
    """The atoms of one condition: sizes and memberships; a deadline and a row budget."""

    def __init__(
        self,
        sizes: Sequence[int],
        members: Sequence[frozenset[str]],
        budget: ExactBudget,
        deadline: float | None,
    ) -> None:
        self.sizes = list(sizes)
        self.members = list(members)
        self.budget = budget
        self.deadline = deadline

    def support(self, node: Node) -> frozenset[int]:
        """The atoms whose cards the node reads."""
        names = node.names()
        return frozenset(i for i, m in enumerate(self.members) if m & names)

    def total(self, atoms: frozenset[int]) -> Poly:
        """``C(n_U, s)``: every way to pick s cards of the atoms."""
        n = sum(self.sizes[i] for i in atoms)
        return [math.comb(n, s) for s in range(n + 1)]

    def check_time(self) -> None:
        """:class:`ExactBudgetExceeded` past the deadline."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise ExactBudgetExceeded(f"over the exact engine's {self.budget.seconds:g} s budget")


def _groups(nodes: Sequence[Node], atoms: _Atoms) -> list[tuple[list[Node], frozenset[int]]]:
    """Operands merged into groups that share atoms (union-find over supports)."""
    groups: list[tuple[list[Node], frozenset[int]]] = []
    for node in nodes:
        sup = atoms.support(node)
        merged = [node]
        keep = []
        for g_nodes, g_sup in groups:
            if g_sup & sup:
                merged = g_nodes + merged
                sup = sup | g_sup
            else:
                keep.append((g_nodes, g_sup))
        groups = [*keep, (merged, sup)]
    return groups


def _poly(node: Node, atoms: _Atoms) -> tuple[Poly, frozenset[int]]:
    """``W`` of a boolean node over its support, and the support."""
    if isinstance(node, Not):
        inner, sup = _poly(node.operand, atoms)
        total = atoms.total(sup)
        return [t - w for t, w in zip(total, inner, strict=True)], sup
    if isinstance(node, And | Or):
        groups = _groups(node.operands, atoms)
        if len(groups) > 1 or len(groups[0][0]) == 1:
            out: Poly = [1]
            for g_nodes, g_sup in groups:
                part = type(node)(tuple(g_nodes)) if len(g_nodes) > 1 else g_nodes[0]
                w, _ = _poly(part, atoms)
                if isinstance(node, Or):  # combine the complements: P(no part holds)
                    w = [t - x for t, x in zip(atoms.total(g_sup), w, strict=True)]
                out = _conv(out, w)
            sup = frozenset().union(*(s for _, s in groups))
            if isinstance(node, Or):
                out = [t - x for t, x in zip(atoms.total(sup), out, strict=True)]
            return out, sup
    sup = atoms.support(node)
    return _joint(node, sorted(sup), atoms), sup


def _three(node: Node, known: dict[_Test, Any]) -> tuple[Any, Any]:
    """Three-valued truth of a node: (surely true, surely false) arrays given the known tests
    (tests not in ``known`` are undecided)."""
    if isinstance(node, Not):
        t, f = _three(node.operand, known)
        return f, t
    if isinstance(node, And | Or):
        parts = [_three(n, known) for n in node.operands]
        ts, fs = [p[0] for p in parts], [p[1] for p in parts]
        if isinstance(node, Or):
            ts, fs = fs, ts
        all_t: Any = True
        any_f: Any = False
        for t, f in zip(ts, fs, strict=True):
            all_t = all_t & t
            any_f = any_f | f
        return (any_f, all_t) if isinstance(node, Or) else (all_t, any_f)
    all_t, any_f = True, False
    for test in _tests(node):
        if test not in known:
            all_t = False
        else:
            all_t = all_t & known[test]
            any_f = any_f | (known[test] ^ True)
    return all_t, any_f


class _Plan:
    """How one dynamic programme runs: atom order, forms, their increments, clips and ends."""

    def __init__(self, node: Node, order: Sequence[int], atoms: _Atoms) -> None:
        import numpy as np

        self.node = node
        self.order = list(order)
        self.tests = sorted(set(_leaf_tests(node)), key=lambda t: (t.form, t.op, t.constant))
        self.forms = sorted({t.form for t in self.tests})
        per: list[list[int]] = []
        per_once: list[list[int]] = []
        for a in order:
            member = atoms.members[a]
            per.append(
                [
                    sum(c for n, c in form if n in member and not n.startswith(CARD_PREFIX))
                    for form in self.forms
                ]
            )
            per_once.append(
                [
                    sum(c for n, c in form if n in member and n.startswith(CARD_PREFIX))
                    for form in self.forms
                ]
            )
        shape = (len(order), len(self.forms))
        inc = np.array(per, dtype=np.int64).reshape(shape)
        once = np.array(per_once, dtype=np.int64).reshape(shape)
        self.inc = inc
        self.once = once
        """Per atom and form: added once when at least one card of the atom is picked (a
        card's term in a ``distinct(...)``), on top of ``inc`` per card."""
        sizes = np.array([atoms.sizes[a] for a in order], dtype=np.int64)[:, None]
        # each atom adds f(x) = inc * x + once * (x >= 1), x = 0..size: its lowest and highest
        one, full = inc + once, inc * sizes + once
        live = sizes > 0
        lowest = np.where(live, np.minimum(0, np.minimum(one, full)), 0)
        highest = np.where(live, np.maximum(0, np.maximum(one, full)), 0)
        self.low = [int(v) for v in lowest.sum(axis=0)]
        self.reach = highest - lowest
        """Per atom and form: how far the form's value can move with the atom's picks."""
        self.clip: list[int | None] = []
        self.end: list[int] = []  # after which step each form is final (-1: from the start)
        for f, form in enumerate(self.forms):
            positive = all(c > 0 for _, c in form)  # never decreases: clip past every constant
            cap = max(t.constant for t in self.tests if t.form == form) + 1
            self.clip.append(cap - self.low[f] if positive else None)
            touched = np.flatnonzero(inc[:, f] | once[:, f])
            self.end.append(int(touched.max()) if len(touched) else -1)
        self.n_u = sum(atoms.sizes[a] for a in order)
        self.left = [sum(atoms.sizes[a] for a in order[r + 1 :]) for r in range(len(order))]


class _State:
    """The rows of a dynamic programme: one column per live form (its value, shifted by the
    form's low end) or decided test (0/1), the cards picked ``s`` and the weight ``w``."""

    def __init__(self, plan: _Plan, dtype: Any) -> None:
        import numpy as np

        self.plan = plan
        self.cols: list[Form | _Test] = list(plan.forms)
        self.vals = np.array([[-lo for lo in plan.low]], dtype=np.int32).reshape(1, -1)
        self.span = [-lo + 1 for lo in plan.low]
        self.s = np.zeros(1, dtype=np.int32)
        self.w = np.ones(1, dtype=dtype)
        self.done = [0] * (plan.n_u + 1)
        """W of the rows already known to hold, over every pick of the atoms left."""

    def step(self, r: int, n: int, budget: ExactBudget) -> None:
        """Add the picks of ``x = 0..n`` cards of the plan's ``r``-th atom."""
        import numpy as np

        width = self.vals.shape[1]
        per_row = 4 * width + 28 + (64 if self.w.dtype == object else 0)  # Python ints
        need = len(self.s) * (n + 1) * per_row * 3
        if need > budget.max_bytes:
            raise ExactBudgetExceeded(
                f"{need / 1e6:,.0f} MB of states, over the exact engine's "
                f"{budget.max_bytes / 1e6:,.0f} MB"
            )
        x = np.arange(n + 1, dtype=np.int32)
        inc = np.array(
            [
                self.plan.inc[r, self.plan.forms.index(c)] if not isinstance(c, _Test) else 0
                for c in self.cols
            ],
            dtype=np.int32,
        )
        once = np.array(
            [
                self.plan.once[r, self.plan.forms.index(c)] if not isinstance(c, _Test) else 0
                for c in self.cols
            ],
            dtype=np.int32,
        )
        add = x[:, None] * inc[None, :] + (x[:, None] >= 1) * once[None, :]
        self.vals = (self.vals[None] + add[:, None, :]).reshape(-1, width)
        for j, c in enumerate(self.cols):
            if isinstance(c, _Test):
                continue
            f = self.plan.forms.index(c)
            self.span[j] += int(self.plan.reach[r, f])
            top = self.plan.clip[f]
            if top is not None:
                np.minimum(self.vals[:, j], top, out=self.vals[:, j])
                self.span[j] = min(self.span[j], top + 1)
        self.s = (self.s[None, :] + x[:, None]).reshape(-1)
        ways = np.array([math.comb(n, k) for k in range(n + 1)], dtype=self.w.dtype)
        self.w = (ways[:, None] * self.w[None, :]).reshape(-1)

    def settle(self, r: int, atoms: _Atoms) -> None:
        """Replace the forms final after step ``r`` by their tests' truths, move the rows whose
        condition is decided out (true ones into ``done``), and merge equal rows."""
        import numpy as np

        plan = self.plan
        for j in reversed(range(len(self.cols))):
            c = self.cols[j]
            if isinstance(c, _Test) or plan.end[plan.forms.index(c)] > r:
                continue
            f = plan.forms.index(c)
            value = self.vals[:, j].astype(np.int64) + plan.low[f]
            tests = [t for t in plan.tests if t.form == c]
            bits = [_CMP[t.op](value, t.constant).astype(np.int32) for t in tests]
            self.vals = np.concatenate(
                [np.delete(self.vals, j, axis=1), *(b[:, None] for b in bits)], axis=1
            )
            del self.cols[j], self.span[j]
            self.cols += tests
            self.span += [2] * len(tests)
        known = {
            c: self.vals[:, j].astype(bool) for j, c in enumerate(self.cols) if isinstance(c, _Test)
        }
        true, false = _three(plan.node, known)
        true = np.broadcast_to(np.asarray(true, dtype=bool), self.s.shape)
        false = np.broadcast_to(np.asarray(false, dtype=bool), self.s.shape)
        if true.any():
            part = [0] * (plan.n_u + 1)
            for k, total in _by_s(self.s[true], self.w[true]):
                part[k] = total
            left = plan.left[r] if r >= 0 else plan.n_u
            rest = [math.comb(left, k) for k in range(left + 1)]
            for k, total in enumerate(_conv(part, rest)):
                if total:
                    self.done[k] += total
        keep = ~(true | false)
        self.vals, self.s, self.w = self.vals[keep], self.s[keep], self.w[keep]
        self.vals, self.s, self.w = _merge(self.vals, self.s, self.w, self.span, plan.n_u + 1)


def _by_s(s: Any, w: Any) -> list[tuple[int, int]]:
    """(s, total weight) for each distinct ``s``."""
    import numpy as np

    if not len(s):
        return []
    order = np.argsort(s, kind="stable")
    s, w = s[order], w[order]
    starts = np.flatnonzero(np.concatenate([[True], s[1:] != s[:-1]]))
    sums = np.add.reduceat(w, starts)
    return [(int(k), int(t)) for k, t in zip(s[starts].tolist(), sums, strict=True)]


def _merge(vals: Any, s: Any, w: Any, span: list[int], s_span: int) -> tuple[Any, Any, Any]:
    """Sum the weights of equal rows."""
    import numpy as np

    if len(s) <= 1:
        return vals, s, w
    if math.prod(span) * s_span < 1 << 62:
        radix = 1
        code = np.zeros(len(s), dtype=np.int64)
        for f in range(vals.shape[1]):
            code += vals[:, f].astype(np.int64) * radix
            radix *= span[f]
        code += s.astype(np.int64) * radix
        order = np.argsort(code, kind="stable")
        code = code[order]
        starts = np.flatnonzero(np.concatenate([[True], code[1:] != code[:-1]]))
    else:  # too many states to number: compare whole rows
        rows = np.concatenate([s[:, None], vals], axis=1)
        order = np.lexsort(rows.T[::-1])
        rows = rows[order]
        starts = np.flatnonzero(np.concatenate([[True], (rows[1:] != rows[:-1]).any(axis=1)]))
    vals, s, w = vals[order], s[order], w[order]
    return vals[starts], s[starts], np.add.reduceat(w, starts)


def _joint(node: Node, order: Sequence[int], atoms: _Atoms) -> Poly:
    """``W`` of a node by one dynamic programme over its atoms. States: the values of the live
    forms, the truths of decided tests, and ``s``; rows whose condition is decided leave."""
    import numpy as np

    plan = _Plan(node, order, atoms)
    big = math.comb(plan.n_u, plan.n_u // 2) >= 1 << 62
    state = _State(plan, object if big else np.int64)
    state.settle(-1, atoms)
    for r, a in enumerate(plan.order):
        if not len(state.s):
            break
        atoms.check_time()
        state.step(r, atoms.sizes[a], atoms.budget)
        state.settle(r, atoms)
    return state.done


class ExactEngine:
    """Exact probabilities of conditions over a deck's groups (one polynomial per condition)."""

    def __init__(self, groups: Sequence[Group], budget: ExactBudget | None = None) -> None:
        self.groups = list(groups)
        self.deck_size = sum(c for c, _ in self.groups)
        self.budget = budget or ExactBudget()
        self.deadline = (
            time.monotonic() + self.budget.seconds if self.budget.seconds is not None else None
        )
        self._cache: dict[str, tuple[Poly, int]] = {}

    def _poly(self, condition: Condition) -> tuple[Poly, int]:
        """``W`` of the condition and the cards outside its support."""
        key = str(condition)
        if key not in self._cache:
            sizes, members, _ = atoms_of(self.groups, condition.names)
            atoms = _Atoms(sizes, members, self.budget, self.deadline)
            root = condition.root
            if condition.reads_deck:
                totals = {n: sum(c for c, m in self.groups if n in m) for n in condition.names}
                root = _expand(root, totals)
            poly, sup = _poly(root, atoms)
            outside = self.deck_size - sum(sizes[i] for i in sup)
            self._cache[key] = (poly, outside)
        return self._cache[key]

    def probabilities(self, condition: Condition, seens: Sequence[int]) -> list[Fraction]:
        """P(condition holds over ``d`` cards drawn from the deck) for each ``d``, exactly.

        Raises :class:`ExactBudgetExceeded` when the question is over the budget.
        """
        poly, outside = self._poly(condition)
        out = []
        for d in seens:
            d = min(d, self.deck_size)
            hits = sum(w * math.comb(outside, d - k) for k, w in enumerate(poly) if d - k >= 0)
            out.append(Fraction(hits, math.comb(self.deck_size, d)))
        return out

    def probability(self, condition: Condition, seen: int) -> Fraction:
        """P(condition holds over ``seen`` cards drawn from the deck), exactly."""
        return self.probabilities(condition, [seen])[0]

    def distribution(self, name: str, seen: int) -> list[Fraction]:
        """P(exactly k cards of category ``name`` among ``seen``), for k = 0..seen."""
        seen = min(seen, self.deck_size)
        n = sum(c for c, m in self.groups if name in m)
        total = math.comb(self.deck_size, seen)
        rest = self.deck_size - n
        zero = Fraction(0)  # more than the category holds, or than the rest can fill
        return [
            Fraction(math.comb(n, k) * math.comb(rest, seen - k), total)
            if k <= n and seen - k <= rest
            else zero
            for k in range(seen + 1)
        ]
