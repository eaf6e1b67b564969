"""One glob engine for every path pattern deckcheck meets, that cannot backtrack.

Three kinds of pattern share it: a repository configuration's ``include``/``exclude``/
``[folders]``/``[ignore]`` globs (:func:`path_glob`), ``--exclude`` (the same), and the lines of
a ``.gitignore`` file (:class:`GitIgnore`: negation, anchoring, folder-only patterns).

A pattern is compiled to a small automaton (a list of steps) and matched by walking the path
once while keeping the *set* of steps reachable so far, with the sets' transitions cached (a
lazily built DFA). Matching costs at most ``len(path) x len(pattern)`` steps whatever the
pattern: ``*a*a*a*a...b`` against ``aaaa...`` takes as long as ``*b`` would. Patterns longer
than :data:`MAX_PATTERN` characters are refused.

Syntax (as ``.gitignore``): ``*`` any run of characters but ``/``, ``?`` one character but
``/``, ``[abc]``/``[a-z]``/``[!a]`` one character of (or not of) a set, ``**`` as a whole
segment any number of folders (``a/**/b``, ``**/b``, ``a/**``); other ``**`` are ``*``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from deckcheck.error import InputError

MAX_PATTERN = 1024
"""Longest glob accepted, in characters."""
MAX_RULES = 2000
"""Most rules read from one ``.gitignore`` (further lines are left out, see ``skipped``)."""
MAX_RULE_CHARS = 32 << 10
"""Most pattern characters in one ``.gitignore``'s rules (further lines are left out)."""
MAX_CACHE = 4096
"""Cached automaton transitions per glob before the cache is emptied again."""


class Step(enum.Enum):
    """What one step of a compiled glob matches."""

    CHAR = "char"
    """One given character."""
    ONE = "one"
    """Any one character but ``/`` (``?``)."""
    SET = "set"
    """One character of a set, or not of it (``[a-z]``, ``[!a]``), never ``/``."""
    STAR = "star"
    """Any run of characters but ``/`` (``*``)."""
    DEEP = "deep"
    """Nothing, or any run of characters that ends with ``/`` (``**/``: any folders)."""
    REST = "rest"
    """Any run of characters (a trailing ``/**``)."""
    TAIL = "tail"
    """Nothing, or ``/`` and anything after it (a pattern naming a folder covers its content)."""


@dataclass(frozen=True, slots=True)
class _Node:
    step: Step
    char: str = ""
    ranges: tuple[tuple[str, str], ...] = ()
    negated: bool = False

    def takes(self, ch: str) -> bool:
        """Whether this node's step consumes ``ch`` (for SET, ONE, CHAR)."""
        if self.step is Step.CHAR:
            return ch == self.char
        if ch == "/":
            return False
        if self.step is Step.ONE:
            return True
        inside = any(lo <= ch <= hi for lo, hi in self.ranges)
        return inside != self.negated


def _class(text: str, i: int) -> tuple[_Node, int] | None:
    """The character set opening at ``text[i] == '['``: (node, index after ``]``), or None."""
    j = i + 1
    negated = text[j : j + 1] in ("!", "^")
    if negated:
        j += 1
    start = j
    ranges: list[tuple[str, str]] = []
    while j < len(text):
        ch = text[j]
        if ch == "]" and j > start:
            return _Node(Step.SET, ranges=tuple(ranges), negated=negated), j + 1
        if ch == "\\" and j + 1 < len(text):
            j += 1
            ch = text[j]
        if text[j + 1 : j + 2] == "-" and j + 2 < len(text) and text[j + 2] != "]":
            hi = text[j + 2]
            if hi < ch:
                raise ValueError(f"bad range {ch}-{hi} in a character set")
            ranges.append((ch, hi))
            j += 3
            continue
        ranges.append((ch, ch))
        j += 1
    return None


def _segment(part: str, escapes: bool) -> list[_Node]:
    """The steps of one path segment (no ``/`` in it)."""
    out: list[_Node] = []
    i = 0
    while i < len(part):
        ch = part[i]
        if ch == "\\" and escapes and i + 1 < len(part):
            out.append(_Node(Step.CHAR, part[i + 1]))
            i += 2
            continue
        if ch == "*":
            if not out or out[-1].step is not Step.STAR:  # "**" inside a name is "*"
                out.append(_Node(Step.STAR))
        elif ch == "?":
            out.append(_Node(Step.ONE))
        elif ch == "[" and (got := _class(part, i)) is not None:
            out.append(got[0])
            i = got[1]
            continue
        else:
            out.append(_Node(Step.CHAR, ch))
        i += 1
    return out


def _split(pattern: str, escapes: bool) -> list[str]:
    """``pattern`` split at its ``/`` (an escaped ``\\/`` still splits, as in git)."""
    return pattern.split("/") if not escapes else pattern.replace("\\/", "/").split("/")


def compile_steps(
    parts: Sequence[str], *, anywhere: bool, tail: bool, escapes: bool
) -> list[_Node]:
    """The steps of a pattern given as its segments.

    ``anywhere``: it may start at any folder depth; ``tail``: a match also covers everything
    under the path matched.
    """
    nodes: list[_Node] = [_Node(Step.DEEP)] if anywhere else []
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part == "**":
            if last:
                nodes.append(_Node(Step.REST))
            elif not nodes or nodes[-1].step is not Step.DEEP:
                nodes.append(_Node(Step.DEEP))
            continue
        nodes.extend(_segment(part, escapes))
        if not last:
            nodes.append(_Node(Step.CHAR, "/"))
    if tail and (not nodes or nodes[-1].step is not Step.REST):
        nodes.append(_Node(Step.TAIL))
    return nodes


def _eps(nodes: tuple[_Node, ...], s: int) -> tuple[int, ...]:
    """The states reached from ``s`` without a character."""
    if 0 <= s < len(nodes):
        step = nodes[s].step
        if step is Step.TAIL:
            return (len(nodes),)
        if step in (Step.STAR, Step.DEEP, Step.REST):
            return (s + 1,)
    return ()


def _moves(nodes: tuple[_Node, ...], s: int, ch: str) -> tuple[int, ...]:
    """The states reached from ``s`` by ``ch`` (before :func:`_eps`).

    A negative state ``~i`` is "inside the run of folders of the DEEP step ``i``".
    """
    if s < 0:
        return (s, ~s + 1) if ch == "/" else (s,)
    if s == len(nodes):
        return ()
    node = nodes[s]
    step = node.step
    if step is Step.STAR:
        return () if ch == "/" else (s,)
    if step is Step.DEEP:
        return (~s, s + 1) if ch == "/" else (~s,)
    if step is Step.REST:
        return (s,)
    if step is Step.TAIL:
        return ()  # "/" and anything after: Glob.match ends early
    return (s + 1,) if node.takes(ch) else ()


@dataclass(eq=False)
class Glob:
    """A compiled glob: :meth:`match` a POSIX path relative to the pattern's folder."""

    pattern: str
    """The pattern as written."""
    nodes: tuple[_Node, ...]
    _cache: dict[tuple[frozenset[int], str], frozenset[int]] = field(default_factory=dict)
    _start: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        self._start = self._closure({0})

    def _closure(self, states: Iterable[int]) -> frozenset[int]:
        out: set[int] = set()
        todo = list(states)
        while todo:
            s = todo.pop()
            if s not in out:
                out.add(s)
                todo.extend(_eps(self.nodes, s))
        return frozenset(out)

    def _next(self, states: frozenset[int], ch: str) -> frozenset[int]:
        key = (states, ch)
        got = self._cache.get(key)
        if got is not None:
            return got
        got = self._closure(t for s in states for t in _moves(self.nodes, s, ch))
        if len(self._cache) >= MAX_CACHE:
            self._cache.clear()
        self._cache[key] = got
        return got

    def match(self, path: str) -> bool:
        """Whether the whole of ``path`` matches."""
        states = self._start
        end = len(self.nodes)
        tail = end > 0 and self.nodes[-1].step is Step.TAIL
        for ch in path:
            if tail and ch == "/" and (end - 1) in states:
                return True  # matched a folder: everything under it matches too
            states = self._next(states, ch)
            if not states:
                return False
        return end in states


def _check_length(pattern: str) -> None:
    if len(pattern) > MAX_PATTERN:
        raise ValueError(f"glob is {len(pattern):,} characters long, over the {MAX_PATTERN:,} cap")


def path_glob(pattern: str) -> Glob:
    """A repository glob (configuration, ``--exclude``) compiled.

    Matched against a POSIX path relative to the repository root, case-sensitively: ``*`` and
    ``?`` stay within one name, ``**`` spans folders, a pattern naming a folder covers everything
    under it, and a pattern without ``/`` matches at any depth. Raises ValueError for an empty,
    too long or unusable pattern.
    """
    _check_length(pattern)
    pat = pattern.strip().replace("\\", "/")
    if not pat or pat == "/":
        raise ValueError(f"empty glob {pattern!r}")
    anchored = "/" in pat.rstrip("/")
    pat = pat.strip("/")
    while pat.startswith("./"):
        pat = pat[2:]
    parts = [p for p in pat.split("/") if p not in ("", ".")]
    if not parts:
        raise ValueError(f"glob {pattern!r} names no path")
    if any(p == ".." for p in parts):
        raise ValueError(f"glob {pattern!r} leaves the repository ('..')")
    nodes = compile_steps(parts, anywhere=not anchored, tail=True, escapes=False)
    return Glob(pattern, tuple(nodes))


def matches(pattern: str, path: str) -> bool:
    """Whether a POSIX path relative to the repository root matches a glob (:func:`path_glob`)."""
    return path_glob(pattern).match(path)


# -- .gitignore ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IgnoreRule:
    """One usable line of a ``.gitignore``."""

    glob: Glob
    negated: bool
    """A ``!pattern``: the path is *not* ignored."""
    folder_only: bool
    """A ``pattern/``: only folders (and what is under them) match."""

    def hits(self, path: str, is_dir: bool) -> bool:
        """Whether the rule matches ``path`` itself (a folder when ``is_dir``)."""
        if self.folder_only and not is_dir:
            return False
        return self.glob.match(path) or (is_dir and self.glob.match(path + "/"))


def _strip_trailing_spaces(line: str) -> str:
    end = len(line)
    while end > 0 and line[end - 1] == " ":
        backslashes = 0
        k = end - 2
        while k >= 0 and line[k] == "\\":
            backslashes += 1
            k -= 1
        if backslashes % 2:
            break  # "\ " keeps the space
        end -= 1
    return line[:end]


def gitignore_rule(line: str) -> IgnoreRule | None:
    """One ``.gitignore`` line as a rule; None for a blank line or a comment.

    Raises ValueError for a line git would not understand either (a bad range, ``!`` alone,
    a pattern over :data:`MAX_PATTERN`).
    """
    _check_length(line)
    text = _strip_trailing_spaces(line.rstrip("\r\n"))
    if not text or text.startswith("#"):
        return None
    negated = text.startswith("!")
    if negated or text.startswith(("\\!", "\\#")):
        text = text[1:]
    folder_only = text.endswith("/") and not text.endswith("\\/")
    text = text.rstrip("/") if folder_only else text
    if not text or (text.endswith("\\") and not text.endswith("\\\\")):
        raise ValueError(f"unusable .gitignore pattern {line!r}")
    anchored = "/" in text
    parts = _split(text.lstrip("/"), escapes=True)
    if parts[0] == "**":
        anchored = False
    if any(p == "" for p in parts):
        parts = [p for p in parts if p]
        if not parts:
            raise ValueError(f"unusable .gitignore pattern {line!r}")
    nodes = compile_steps(parts, anywhere=not anchored, tail=False, escapes=True)
    return IgnoreRule(Glob(line, tuple(nodes)), negated, folder_only)


def _last_of_each(rules: list[IgnoreRule]) -> tuple[IgnoreRule, ...]:
    """The rules without an earlier copy of a later one (the later always decides instead)."""
    seen: set[tuple[str, bool, bool]] = set()
    kept: list[IgnoreRule] = []
    for rule in reversed(rules):
        key = (rule.glob.pattern.rstrip("\r\n"), rule.negated, rule.folder_only)
        if key not in seen:
            seen.add(key)
            kept.append(rule)
    return tuple(reversed(kept))


@dataclass(frozen=True, slots=True)
class GitIgnore:
    """The rules of one ``.gitignore``: the last rule matching a path decides."""

    rules: tuple[IgnoreRule, ...]
    skipped: tuple[str, ...] = ()
    """Lines left out because git would not understand them either."""

    @classmethod
    def from_lines(cls, lines: Iterable[str]) -> GitIgnore:
        """The rules of a ``.gitignore``'s lines; unusable lines are left out (see ``skipped``)."""
        rules: list[IgnoreRule] = []
        bad: list[str] = []
        size = 0
        for line in lines:
            try:
                rule = gitignore_rule(line)
            except ValueError:
                bad.append(line)
                continue
            if rule is None:
                continue
            size += len(line)
            if len(rules) < MAX_RULES and size <= MAX_RULE_CHARS:
                rules.append(rule)
            else:
                bad.append(line)
        return cls(_last_of_each(rules), tuple(bad))

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """True: ``path`` (relative to the file's folder) is ignored; False: a ``!`` rule keeps it;
        None: no rule matches.

        As git: the last rule matching the path decides, and a path inside an ignored folder is
        ignored whatever the rules say of it (git never looks inside that folder). All the rules
        are matched together in one pass over the path (:class:`_Union`).
        """
        union = self._union()
        states = union.start
        for i, ch in enumerate(path):
            if ch == "/" and i > 0:  # path[:i] is a folder above the path
                after = union.step(states, "/")
                if self._verdict(union.accepting(states) | union.accepting(after), True):
                    return True
                states = after
            else:
                states = union.step(states, ch)
            if not states:
                return None
        accepted = union.accepting(states)
        if is_dir:
            accepted = accepted | union.accepting(union.step(states, "/"))
        return self._verdict(accepted, is_dir)

    def _verdict(self, accepted: frozenset[int], is_dir: bool) -> bool | None:
        for r in sorted(accepted, reverse=True):
            rule = self.rules[r]
            if is_dir or not rule.folder_only:
                return not rule.negated
        return None

    def _union(self) -> _Union:
        got = _UNIONS.get(id(self))
        if got is None or got[0] is not self:
            if len(_UNIONS) > 256:
                _UNIONS.clear()
            got = (self, _Union(tuple(r.glob.nodes for r in self.rules)))
            _UNIONS[id(self)] = got
        return got[1]


class _Union:
    """Every rule's automaton run at once: states are ``(rule, state)`` pairs."""

    def __init__(self, nodes: tuple[tuple[_Node, ...], ...]) -> None:
        self.nodes = nodes
        self.cache: dict[tuple[frozenset[tuple[int, int]], str], frozenset[tuple[int, int]]] = {}
        self.accepts: dict[frozenset[tuple[int, int]], frozenset[int]] = {}
        self.start = self._closure([(r, 0) for r in range(len(nodes))])

    def _closure(self, pairs: Iterable[tuple[int, int]]) -> frozenset[tuple[int, int]]:
        out: set[tuple[int, int]] = set()
        todo = list(pairs)
        while todo:
            pair = todo.pop()
            if pair not in out:
                out.add(pair)
                todo.extend((pair[0], t) for t in _eps(self.nodes[pair[0]], pair[1]))
        return frozenset(out)

    def step(self, states: frozenset[tuple[int, int]], ch: str) -> frozenset[tuple[int, int]]:
        """The states after ``ch``."""
        key = (states, ch)
        got = self.cache.get(key)
        if got is None:
            got = self._closure((r, t) for r, s in states for t in _moves(self.nodes[r], s, ch))
            if len(self.cache) >= MAX_CACHE * 4:
                self.cache.clear()
            self.cache[key] = got
        return got

    def accepting(self, states: frozenset[tuple[int, int]]) -> frozenset[int]:
        """The rules whose automaton accepts in ``states``."""
        got = self.accepts.get(states)
        if got is None:
            got = frozenset(r for r, s in states if s == len(self.nodes[r]))
            if len(self.accepts) >= MAX_CACHE * 4:
                self.accepts.clear()
            self.accepts[states] = got
        return got


_UNIONS: dict[int, tuple[GitIgnore, _Union]] = {}


@lru_cache(maxsize=512)
def cached_glob(pattern: str) -> Glob:
    """:func:`path_glob`, compiled once per pattern."""
    return path_glob(pattern)


def excluded(path: str, patterns: Sequence[str]) -> bool:
    """Whether ``path`` (POSIX, relative to the folder scanned) matches an ``--exclude`` glob.

    The globs are :func:`path_glob` patterns. Raises :class:`~deckcheck.error.InputError` for
    an unusable glob.
    """
    try:
        return any(cached_glob(p).match(path) for p in patterns)
    except ValueError as exc:
        raise InputError(f"bad --exclude glob: {exc}") from None
