"""The syntax tree of a condition (:mod:`deckcheck.goldfish.condition` parses the text into it).

Each node evaluates over plain ``int`` counts or over numpy integer arrays (one count per
simulated hand) alike, names the categories it reads and prints back as condition text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from msgspec import Struct

KEYWORDS = frozenset({"and", "or", "not"})
"""The words of the grammar: a category so named is written `quoted`."""

Value = Any
"""An ``int``/``bool`` or a numpy array of them (one per simulated hand)."""


class Node:
    """A node of a condition's syntax tree."""

    __slots__ = ()

    is_bool: bool = False

    def evaluate(self, counts: Mapping[str, Value]) -> Value:
        """The node's value given each category's count (ints or numpy arrays)."""
        raise NotImplementedError

    def names(self) -> frozenset[str]:
        """The category names this node reads."""
        raise NotImplementedError


def _show(name: str) -> str:
    return (
        name
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and (name.casefold() not in KEYWORDS)
        else f"`{name}`"
    )


class Number(Struct, Node, frozen=True):
    """An integer literal."""

    value: int

    def evaluate(self, counts: Mapping[str, Value]) -> Value:
        """The literal."""
        return self.value

    def names(self) -> frozenset[str]:
        """None."""
        return frozenset()

    def __str__(self) -> str:
        return str(self.value)


class Ref(Struct, Node, frozen=True):
    """The count of one category."""

    name: str

    def evaluate(self, counts: Mapping[str, Value]) -> Value:
        """The category's count."""
        return counts[self.name]

    def names(self) -> frozenset[str]:
        """This category."""
        return frozenset((self.name,))

    def __str__(self) -> str:
        return _show(self.name)


def deck_key(name: str) -> str:
    """The key under which the counts hold the copies of category ``name`` still in the deck."""
    return f"deck`{name}"


class InDeck(Struct, Node, frozen=True):
    """``deck(name)``: the cards of one category still in the deck (not drawn, added,
    banished)."""

    name: str

    def evaluate(self, counts: Mapping[str, Value]) -> Value:
        """The category's copies left in the deck."""
        return counts[deck_key(self.name)]

    def names(self) -> frozenset[str]:
        """This category."""
        return frozenset((self.name,))

    def __str__(self) -> str:
        return f"deck({_show(self.name)})"


CARD_PREFIX = "\x01card"
"""Names of the per-card counts a resolved :class:`Distinct` reads (never a category name:
category names cannot hold control characters)."""


class Distinct(Struct, Node, frozen=True):
    """``distinct(a, b, ...)``: the number of different cards of the categories seen.

    ``parts`` are filled in by the engines (:func:`deckcheck.goldfish.engine.run`): the name
    of each card's own count (``CARD_PREFIX`` + its index); each counts once if seen at all.
    """

    categories: tuple[str, ...]
    parts: tuple[str, ...] = ()

    def evaluate(self, counts: Mapping[str, Value]) -> Value:
        """How many of the parts have a count of at least 1."""
        total: Value = 0
        for p in self.parts:
            total = total + (counts[p] >= 1) * 1
        return total

    def names(self) -> frozenset[str]:
        """The categories and the per-card counts."""
        return frozenset(self.categories) | frozenset(self.parts)

    def __str__(self) -> str:
        return f"distinct({', '.join(_show(n) for n in self.categories)})"


class _Chain(Struct, Node, frozen=True):
    """``first (op operand)*``: the shape shared by sums and comparison chains."""

    first: Node
    rest: tuple[tuple[str, Node], ...]

    def names(self) -> frozenset[str]:
        """Names of the operands."""
        out = self.first.names()
        for _, node in self.rest:
            out |= node.names()
        return out

    def __str__(self) -> str:
        return " ".join([str(self.first), *(f"{op} {node}" for op, node in self.rest)])


class Sum(_Chain, frozen=True):
    """``first (+|- term)*``."""

    def evaluate(self, counts: Mapping[str, Value]) -> Value:
        """The signed sum."""
        total = self.first.evaluate(counts)
        for op, node in self.rest:
            value = node.evaluate(counts)
            total = total + value if op == "+" else total - value
        return total


_OPS: dict[str, Callable[[Value, Value], Value]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


class Compare(_Chain, frozen=True):
    """A comparison chain ``a op b (op c)*`` (each adjacent pair must hold)."""

    is_bool = True

    def evaluate(self, counts: Mapping[str, Value]) -> Value:
        """True where every comparison holds."""
        left = self.first.evaluate(counts)
        result: Value = True
        for op, node in self.rest:
            right = node.evaluate(counts)
            result = result & _OPS[op](left, right)
            left = right
        return result


class AtLeastOne(Struct, Node, frozen=True):
    """A count used as a condition: true when it is at least 1 (``x - 1`` means ``x - 1 >= 1``,
    as the docs say; a negative count is not "at least 1")."""

    operand: Node
    is_bool = True

    def evaluate(self, counts: Mapping[str, Value]) -> Value:
        """``operand >= 1``."""
        return self.operand.evaluate(counts) >= 1

    def names(self) -> frozenset[str]:
        """Names of the operand."""
        return self.operand.names()

    def __str__(self) -> str:
        return str(self.operand)


class Not(Struct, Node, frozen=True):
    """``not operand``."""

    operand: Node
    is_bool = True

    def evaluate(self, counts: Mapping[str, Value]) -> Value:
        """The negation (``^ True`` works on bools and boolean arrays)."""
        return self.operand.evaluate(counts) ^ True

    def names(self) -> frozenset[str]:
        """Names of the operand."""
        return self.operand.names()

    def __str__(self) -> str:
        inner = str(self.operand)
        return f"not ({inner})" if isinstance(self.operand, And | Or) else f"not {inner}"


class And(Struct, Node, frozen=True):
    """``a and b and ...``."""

    operands: tuple[Node, ...]
    is_bool = True

    def evaluate(self, counts: Mapping[str, Value]) -> Value:
        """True where every operand is."""
        result: Value = True
        for node in self.operands:
            result = result & node.evaluate(counts)
        return result

    def names(self) -> frozenset[str]:
        """Names of the operands."""
        return frozenset().union(*(n.names() for n in self.operands))

    def __str__(self) -> str:
        return " and ".join(f"({n})" if isinstance(n, Or) else str(n) for n in self.operands)


class Or(Struct, Node, frozen=True):
    """``a or b or ...``."""

    operands: tuple[Node, ...]
    is_bool = True

    def evaluate(self, counts: Mapping[str, Value]) -> Value:
        """True where any operand is."""
        result: Value = False
        for node in self.operands:
            result = result | node.evaluate(counts)
        return result

    def names(self) -> frozenset[str]:
        """Names of the operands."""
        return frozenset().union(*(n.names() for n in self.operands))

    def __str__(self) -> str:
        return " or ".join(str(n) for n in self.operands)


class Condition(Struct, frozen=True):
    """A parsed condition: its source text, syntax tree and the categories it reads."""

    text: str
    root: Node

    @property
    def names(self) -> frozenset[str]:
        """The category names the condition reads."""
        return self.root.names()

    @property
    def distinct(self) -> tuple[Distinct, ...]:
        """The ``distinct(...)`` counts of the condition."""
        return tuple(_walk(self.root, Distinct))

    @property
    def reads_deck(self) -> bool:
        """Whether the condition counts cards still in the deck (``deck(name)``)."""
        return _has_in_deck(self.root)

    def evaluate(self, counts: Mapping[str, Value]) -> Value:
        """True/False (or a boolean array) given each category's count (ints or arrays)."""
        return self.root.evaluate(counts)

    def __str__(self) -> str:
        return str(self.root)


def _children(node: Node) -> list[Node]:
    if isinstance(node, _Chain):
        return [node.first, *(n for _, n in node.rest)]
    if isinstance(node, And | Or):
        return list(node.operands)
    if isinstance(node, Not | AtLeastOne):
        return [node.operand]
    return []


def _walk(node: Node, kind: type[Distinct]) -> list[Distinct]:
    out = [node] if isinstance(node, kind) else []
    for child in _children(node):
        out += _walk(child, kind)
    return out


def map_nodes(node: Node, fn: Callable[[Node], Node]) -> Node:
    """A copy of the tree with ``fn`` applied to every leaf (counts, numbers, distinct)."""
    if isinstance(node, _Chain):
        rest = tuple((op, map_nodes(n, fn)) for op, n in node.rest)
        return type(node)(map_nodes(node.first, fn), rest)
    if isinstance(node, And | Or):
        return type(node)(tuple(map_nodes(n, fn) for n in node.operands))
    if isinstance(node, Not | AtLeastOne):
        return type(node)(map_nodes(node.operand, fn))
    return fn(node)


def _has_in_deck(node: Node) -> bool:
    if isinstance(node, InDeck):
        return True
    if isinstance(node, _Chain):
        return _has_in_deck(node.first) or any(_has_in_deck(n) for _, n in node.rest)
    if isinstance(node, And | Or):
        return any(_has_in_deck(n) for n in node.operands)
    if isinstance(node, Not | AtLeastOne):
        return _has_in_deck(node.operand)
    return False
