"""Conditions over category counts: a tokenizer, a recursive-descent parser and an AST.

The grammar (keywords are case-insensitive; never ``eval``)::

    condition  := or_expr
    or_expr    := and_expr ("or" and_expr)*
    and_expr   := not_expr ("and" not_expr)*
    not_expr   := "not" not_expr | comparison
    comparison := sum (("==" | "!=" | "<" | "<=" | ">" | ">=") sum)*
    sum        := atom (("+" | "-") atom)*
    atom       := INTEGER | NAME | "deck" "(" NAME ")" | "distinct" "(" NAME ("," NAME)* ")"
                | "(" or_expr ")"
    NAME       := [A-Za-z_][A-Za-z0-9_]*  |  `any text but a backtick`

``deck(starter)`` is the number of ``starter`` cards still in the deck ("a starter left to
search"). ``distinct(combo)`` is the number of *different* cards of the category seen (2
copies of one card count 1): ``distinct(combo) >= 2`` is "2 different combo pieces";
``distinct(a, b, c)`` counts the different cards of any of the categories (in quick mode, where
a category is one card's copies, the categories seen).

A comparison chain means what it does in Python (``1 <= a <= 2``). A count used where a
condition is expected means "at least one": ``starter and not brick`` is
``starter >= 1 and brick == 0``. Conditions evaluate over plain ``int`` counts or over numpy
integer arrays (one count per simulated hand) alike.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from deckcheck.error import ConditionError

MAX_LENGTH = 2000
"""Longest condition text accepted."""
MAX_DEPTH = 40
"""Deepest nesting of parentheses and ``not`` accepted."""
MAX_INTEGER = 1_000_000
"""Largest integer literal accepted."""


class TokenKind(enum.Enum):
    """Kinds of condition tokens."""

    INT = "integer"
    NAME = "name"
    OP = "operator"
    KEYWORD = "keyword"
    LPAREN = "("
    RPAREN = ")"
    COMMA = ","
    END = "end of condition"


@dataclass(frozen=True, slots=True)
class Token:
    """One token and its 0-based offset in the text."""

    kind: TokenKind
    text: str
    position: int


_KEYWORDS = {"and", "or", "not"}
_COMPARE = ("==", "!=", "<=", ">=", "<", ">")
_TOKEN = re.compile(
    r"(?P<ws>[ \t\r\n]+)|(?P<int>[0-9]+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|`(?P<quoted>[^`\n]*)`"
    r"|(?P<op>==|!=|<=|>=|<|>|\+|-)|(?P<lp>\()|(?P<rp>\))|(?P<comma>,)"
)


_PLAIN = {
    "op": TokenKind.OP,
    "lp": TokenKind.LPAREN,
    "rp": TokenKind.RPAREN,
    "comma": TokenKind.COMMA,
}
"""Token groups taken as they are."""


def tokenize(text: str) -> list[Token]:
    """Split a condition into tokens; :class:`ConditionError` on any other character."""
    if len(text) > MAX_LENGTH:
        raise ConditionError(f"condition longer than {MAX_LENGTH} characters", text, MAX_LENGTH)
    out: list[Token] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            ch = text[pos]
            hint = ""
            if ch == "=":
                hint = " (use == to compare)"
            elif ch in "&|!":
                hint = " (use and, or, not)"
            elif ch == "`":
                hint = " (unclosed `quoted name`)"
            raise ConditionError(f"unexpected character {ch!r}{hint}", text, pos)
        group = m.lastgroup
        if group == "int":
            out.append(Token(TokenKind.INT, m.group(), pos))
        elif group == "name":
            word = m.group()
            if word.casefold() in _KEYWORDS:
                out.append(Token(TokenKind.KEYWORD, word.casefold(), pos))
            else:
                out.append(Token(TokenKind.NAME, word, pos))
        elif group == "quoted":
            name = m.group("quoted").strip()
            if not name:
                raise ConditionError("empty `quoted name`", text, pos)
            out.append(Token(TokenKind.NAME, name, pos))
        elif group in _PLAIN:
            out.append(Token(_PLAIN[group], m.group(), pos))
        pos = m.end()
    out.append(Token(TokenKind.END, "", len(text)))
    return out


# --- AST -------------------------------------------------------------------------------------

Value = Any
"""An ``int``/``bool`` or a numpy array of them (one per simulated hand)."""


class Node:
    """A node of a condition's syntax tree."""

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
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and (name.casefold() not in _KEYWORDS)
        else f"`{name}`"
    )


@dataclass(frozen=True, slots=True)
class Number(Node):
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


@dataclass(frozen=True, slots=True)
class Ref(Node):
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


@dataclass(frozen=True, slots=True)
class InDeck(Node):
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


@dataclass(frozen=True, slots=True)
class Distinct(Node):
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


@dataclass(frozen=True, slots=True)
class _Chain(Node):
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


@dataclass(frozen=True, slots=True)
class Sum(_Chain):
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


@dataclass(frozen=True, slots=True)
class Compare(_Chain):
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


@dataclass(frozen=True, slots=True)
class AtLeastOne(Node):
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


@dataclass(frozen=True, slots=True)
class Not(Node):
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


@dataclass(frozen=True, slots=True)
class And(Node):
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


@dataclass(frozen=True, slots=True)
class Or(Node):
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


@dataclass(frozen=True, slots=True)
class Condition:
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


# --- parser ----------------------------------------------------------------------------------


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0
        self.depth = 0

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def error(self, message: str, token: Token | None = None) -> ConditionError:
        token = token or self.tok
        return ConditionError(message, self.text, token.position)

    def found(self, token: Token) -> str:
        return token.kind.value if token.kind is TokenKind.END else repr(token.text)

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"nested deeper than {MAX_DEPTH} levels")

    def keyword(self, word: str) -> bool:
        return self.tok.kind is TokenKind.KEYWORD and self.tok.text == word

    def as_bool(self, node: Node) -> Node:
        return node if node.is_bool else AtLeastOne(node)

    def parse(self) -> Node:
        node = self.or_expr()
        if self.tok.kind is not TokenKind.END:
            raise self.error(
                f"expected an operator, and, or, or the end; found {self.found(self.tok)}"
            )
        return self.as_bool(node)

    def or_expr(self) -> Node:
        items = [self.and_expr()]
        while self.keyword("or"):
            self.i += 1
            items.append(self.and_expr())
        if len(items) == 1:
            return items[0]
        return Or(tuple(self.as_bool(n) for n in items))

    def and_expr(self) -> Node:
        items = [self.not_expr()]
        while self.keyword("and"):
            self.i += 1
            items.append(self.not_expr())
        if len(items) == 1:
            return items[0]
        return And(tuple(self.as_bool(n) for n in items))

    def not_expr(self) -> Node:
        if self.keyword("not"):
            self.i += 1
            self.enter()
            node = Not(self.as_bool(self.not_expr()))
            self.depth -= 1
            return node
        return self.comparison()

    def comparison(self) -> Node:
        start = self.tok
        first = self.sum()
        rest: list[tuple[str, Node]] = []
        while self.tok.kind is TokenKind.OP and self.tok.text in _COMPARE:
            op = self.tok
            self.i += 1
            right_tok = self.tok
            right = self.sum()
            for node, tok in ((first if not rest else rest[-1][1], start), (right, right_tok)):
                if node.is_bool:
                    raise self.error(f"cannot compare a condition with {op.text}", tok)
            rest.append((op.text, right))
        if not rest:
            return first
        return Compare(first, tuple(rest))

    def sum(self) -> Node:
        start = self.tok
        first = self.atom()
        rest: list[tuple[str, Node]] = []
        while self.tok.kind is TokenKind.OP and self.tok.text in "+-":
            op = self.tok.text
            self.i += 1
            tok = self.tok
            node = self.atom()
            if node.is_bool:
                raise self.error(f"expected a count after {op}, found a condition", tok)
            rest.append((op, node))
        if rest and first.is_bool:
            raise self.error("cannot add or subtract a condition", start)
        return Sum(first, tuple(rest)) if rest else first

    def atom(self) -> Node:
        tok = self.tok
        if tok.kind is TokenKind.INT:
            digits = tok.text.lstrip("0") or "0"
            value = int(digits) if len(digits) <= len(str(MAX_INTEGER)) else MAX_INTEGER + 1
            if value > MAX_INTEGER:
                raise self.error(f"integer larger than {MAX_INTEGER}")
            self.i += 1
            return Number(value)
        if tok.kind is TokenKind.NAME:
            self.i += 1
            if _is_deck_call(self.tokens, self.i - 1):
                name = self.tokens[self.i + 1]
                if name.kind is not TokenKind.NAME or self.tokens[self.i + 2].kind is not (
                    TokenKind.RPAREN
                ):
                    raise self.error("expected deck(category)", name)
                self.i += 3
                return InDeck(name.text)
            if _is_call(self.tokens, self.i - 1, "distinct"):
                return self.distinct()
            return Ref(tok.text)
        if tok.kind is TokenKind.LPAREN:
            self.i += 1
            self.enter()
            node = self.or_expr()
            self.depth -= 1
            if self.tok.kind is not TokenKind.RPAREN:
                raise self.error(
                    f"expected ')' to close the '(' at position {tok.position + 1}; "
                    f"found {self.found(self.tok)}"
                )
            self.i += 1
            return node
        raise self.error(f"expected a category name, an integer or '('; found {self.found(tok)}")

    def distinct(self) -> Node:
        """``distinct(a, b, ...)`` after its name (the ``(`` is the current token)."""
        self.i += 1
        names: list[str] = []
        while True:
            tok = self.tok
            if tok.kind is not TokenKind.NAME:
                raise self.error(
                    f"expected a category name in distinct(...); found {self.found(tok)}"
                )
            if tok.text not in names:
                names.append(tok.text)
            self.i += 1
            if self.tok.kind is TokenKind.COMMA:
                self.i += 1
                continue
            if self.tok.kind is not TokenKind.RPAREN:
                raise self.error(f"expected , or ) in distinct(...); found {self.found(self.tok)}")
            self.i += 1
            return Distinct(tuple(names))


def _is_call(tokens: list[Token], i: int, word: str) -> bool:
    """Whether token ``i`` is the name of the call ``word(...)``."""
    tok = tokens[i]
    return (
        tok.kind is TokenKind.NAME
        and tok.text.casefold() == word
        and i + 1 < len(tokens)
        and tokens[i + 1].kind is TokenKind.LPAREN
    )


def _is_deck_call(tokens: list[Token], i: int) -> bool:
    """Whether token ``i`` is the ``deck`` of ``deck(name)`` (a bare ``deck`` is a category)."""
    tok = tokens[i]
    return (
        tok.kind is TokenKind.NAME
        and tok.text.casefold() == "deck"
        and i + 1 < len(tokens)
        and tokens[i + 1].kind is TokenKind.LPAREN
    )


def parse_condition(text: str, categories: frozenset[str] | set[str] | None = None) -> Condition:
    """Parse a condition (see the module docstring for the grammar).

    Raises :class:`ConditionError` (a :class:`SpecError`) with the 1-based position of the
    problem; with ``categories`` given, names outside it are errors too.
    """
    if not isinstance(text, str):
        raise ConditionError("a condition must be a string", str(text), 0)
    root = _Parser(text).parse()
    cond = Condition(text, root)
    if categories is not None:
        tokens = tokenize(text)
        for i, tok in enumerate(tokens):
            if _is_deck_call(tokens, i) or _is_call(tokens, i, "distinct"):
                continue
            if tok.kind is TokenKind.NAME and tok.text not in categories:
                known = ", ".join(sorted(categories)) or "none"
                raise ConditionError(
                    f"unknown category {tok.text!r} (categories: {known})", text, tok.position
                )
    return cond
