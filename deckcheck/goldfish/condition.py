"""Conditions over category counts: a tokenizer and a recursive-descent parser.

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
integer arrays (one count per simulated hand) alike. The syntax tree is
:mod:`deckcheck.goldfish.node`'s (its names are re-exported here).
"""

from __future__ import annotations

import enum
import re

from msgspec import Struct

from deckcheck.error import ConditionError
from deckcheck.goldfish.node import CARD_PREFIX as CARD_PREFIX
from deckcheck.goldfish.node import KEYWORDS
from deckcheck.goldfish.node import And as And
from deckcheck.goldfish.node import AtLeastOne as AtLeastOne
from deckcheck.goldfish.node import Compare as Compare
from deckcheck.goldfish.node import Condition as Condition
from deckcheck.goldfish.node import Distinct as Distinct
from deckcheck.goldfish.node import InDeck as InDeck
from deckcheck.goldfish.node import Node as Node
from deckcheck.goldfish.node import Not as Not
from deckcheck.goldfish.node import Number as Number
from deckcheck.goldfish.node import Or as Or
from deckcheck.goldfish.node import Ref as Ref
from deckcheck.goldfish.node import Sum as Sum
from deckcheck.goldfish.node import Value as Value
from deckcheck.goldfish.node import deck_key as deck_key
from deckcheck.goldfish.node import map_nodes as map_nodes

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


class Token(Struct, frozen=True):
    """One token and its 0-based offset in the text."""

    kind: TokenKind
    text: str
    position: int


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
            raise _unexpected(text, pos)
        token = _token(m, text, pos)
        if token is not None:
            out.append(token)
        pos = m.end()
    out.append(Token(TokenKind.END, "", len(text)))
    return out


def _token(m: re.Match[str], text: str, pos: int) -> Token | None:
    """The token of one match of :data:`_TOKEN` at ``pos`` (None for blanks)."""
    group = m.lastgroup
    if group == "int":
        return Token(TokenKind.INT, m.group(), pos)
    if group == "name":
        word = m.group()
        if word.casefold() in KEYWORDS:
            return Token(TokenKind.KEYWORD, word.casefold(), pos)
        return Token(TokenKind.NAME, word, pos)
    if group == "quoted":
        name = m.group("quoted").strip()
        if not name:
            raise ConditionError("empty `quoted name`", text, pos)
        return Token(TokenKind.NAME, name, pos)
    if group in _PLAIN:
        return Token(_PLAIN[group], m.group(), pos)
    return None


def _unexpected(text: str, pos: int) -> ConditionError:
    """The error for a character no token starts with, with a hint for the usual slips."""
    ch = text[pos]
    hint = ""
    if ch == "=":
        hint = " (use == to compare)"
    elif ch in "&|!":
        hint = " (use and, or, not)"
    elif ch == "`":
        hint = " (unclosed `quoted name`)"
    return ConditionError(f"unexpected character {ch!r}{hint}", text, pos)


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
