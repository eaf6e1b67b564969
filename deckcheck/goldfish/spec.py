"""Goldfish specs: categories of Main Deck cards, named conditions, and card effects.

A spec is a TOML file (see ``docs/goldfish.md``)::

    [categories]
    starter = { names = ["Snake-Eye Ash"], archetypes = ["Snake-Eye"] }
    brick = { kinds = ["Trap"] }
    [conditions]
    good = "starter >= 1 and brick == 0"
    [[effects]]
    card = "Pot of Desires"
    kind = "desires"

:func:`load_spec` reads a file, :func:`parse_spec` a decoded mapping; both raise
:class:`SpecError` naming the file, the key and (for conditions) the position.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from deckcheck.boundary import parse_toml, read_capped
from deckcheck.card import Card, CardIndex, CardKind
from deckcheck.deck.model import DeckCard
from deckcheck.error import AmbiguousCardError, ConditionError, SpecError, UnknownCardError
from deckcheck.goldfish.condition import Condition, parse_condition

MAX_SPEC_BYTES = 1 << 20
"""Largest spec file read: 1 MiB, as a deck file (checked before anything is parsed)."""


if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset


class EffectKind(enum.StrEnum):
    """What a card does when the goldfish plays it."""

    DRAW = "draw"
    """Draw ``count`` cards (Pot of Greed 2, Upstart Goblin 1)."""
    DESIRES = "desires"
    """Banish the top ``count`` cards face-down (10), then draw 2; once per turn."""
    EXCAVATE = "excavate"
    """Excavate the top ``count`` cards (3 or 6), add 1, the rest go to the bottom; once per
    turn; no more effect draws this turn (Pot of Prosperity)."""
    SEARCH = "search"
    """Add one card of the ``target`` category from the deck to the hand, then shuffle the deck;
    once per turn."""
    DRAW_LOCK = "draw-lock"
    """Draw ``count`` cards, then no more draws by card effects this turn; played first in the
    turn (Pot of Extravagance: "at the start of your Main Phase 1"); once per turn."""


_PRESETS: dict[int, tuple[EffectKind, int]] = {
    55144522: (EffectKind.DRAW, 2),  # Pot of Greed
    70368879: (EffectKind.DRAW, 1),  # Upstart Goblin
    35261759: (EffectKind.DESIRES, 10),  # Pot of Desires
    84211599: (EffectKind.EXCAVATE, 6),  # Pot of Prosperity
    49238328: (EffectKind.DRAW_LOCK, 2),  # Pot of Extravagance (6 banished: draw 2)
}
_DEFAULT_COUNT = {
    EffectKind.DRAW: 1,
    EffectKind.DESIRES: 10,
    EffectKind.EXCAVATE: 6,
    EffectKind.SEARCH: 1,
    EffectKind.DRAW_LOCK: 2,
}


class Category(Struct, frozen=True):
    """A named set of Main Deck cards: a card belongs if any listed criterion matches it.

    ``passcodes`` holds the canonical passcodes of the ``names`` and passcodes the spec listed;
    ``archetypes`` match a card's archetypes, ``kinds`` its kind (Monster/Spell/Trap), ``types``
    words of its type line (``"Tuner"``, ``"Quick-Play"``, ``"Dragon"``, ``"Effect / Tuner"``:
    every word must be present). Alternate artworks count as their original card.
    """

    name: str
    passcodes: frozenset[int] = frozenset()
    archetypes: tuple[str, ...] = ()
    kinds: tuple[CardKind, ...] = ()
    types: tuple[tuple[str, ...], ...] = ()
    treated_as: bool = True
    """Whether a card *always treated as* a listed card (Harpie Lady 1) belongs too."""

    def matches(self, card: DeckCard) -> bool:
        """True if the deck card belongs to this category."""
        if card.passcode in self.passcodes:
            return True
        c: Card | None = card.card
        if c is None:
            return False
        if c.canonical in self.passcodes or c.passcode in self.passcodes:
            return True
        if self.treated_as and c.treated_as_passcode in self.passcodes:
            return True
        if self.archetypes:
            mine = {a.casefold() for a in c.archetypes}
            if any(a.casefold() in mine for a in self.archetypes):
                return True
        if c.kind in self.kinds:
            return True
        if self.types:
            words = {w.strip().casefold() for w in c.type_line.split("/")}
            if any(all(w in words for w in t) for t in self.types):
                return True
        return False


class Effect(Struct, frozen=True):
    """A card's effect as the goldfish simulation plays it (see :class:`EffectKind`).

    ``prefer`` (excavate) lists categories in order of preference for the card to add;
    ``target`` (search) is the category searched.
    """

    card: str
    passcode: int
    kind: EffectKind
    count: int
    target: str | None = None
    prefer: tuple[str, ...] = ()
    once_per_turn: bool = True


class Spec(Struct, frozen=True):
    """Categories, named conditions (in file order) and effects."""

    categories: tuple[Category, ...]
    conditions: tuple[tuple[str, Condition], ...]
    effects: tuple[Effect, ...] = ()
    source: str | None = None
    is_default: bool = False
    vary: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """The ``[vary]`` table: cards or categories and the copies a ratio sweep tries."""

    def category(self, name: str) -> Category:
        """The category of that name (KeyError if absent)."""
        for c in self.categories:
            if c.name == name:
                return c
        raise KeyError(name)


def _strings(value: Any, where: str) -> list[str]:
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
        raise SpecError(f"{where}: expected a string or a list of strings")
    return [str(v) for v in value]


def _resolve(index: CardIndex, query: str, where: str, rush: bool = False) -> tuple[int, str]:
    try:
        found = index.lookup(query, rush=rush)
    except UnknownCardError as exc:
        hint = f"; did you mean: {', '.join(exc.suggestions[:5])}?" if exc.suggestions else ""
        raise SpecError(f"{where}: unknown card {query!r}{hint}") from None
    except AmbiguousCardError as exc:
        listed = ", ".join(f"{n} ({p})" for p, n in exc.candidates[:6])
        raise SpecError(
            f"{where}: ambiguous card name {query!r}: {listed}; use a passcode"
        ) from None
    return found.card.canonical, found.card.name


_CATEGORY_KEYS = {"names", "passcodes", "archetypes", "kinds", "types", "cards"}
_KINDS = {k.value.casefold(): k for k in (CardKind.MONSTER, CardKind.SPELL, CardKind.TRAP)}


def _category(name: str, raw: Any, index: CardIndex, where: str, rush: bool = False) -> Category:
    if not isinstance(raw, Mapping):
        raise SpecError(f"{where}: expected a table such as {{ names = [...] }}")
    unknown = set(raw) - _CATEGORY_KEYS
    if unknown:
        raise SpecError(
            f"{where}: unknown key(s) {', '.join(sorted(unknown))}; "
            f"valid: {', '.join(sorted(_CATEGORY_KEYS))}"
        )
    codes: set[int] = set()
    for key in ("names", "cards", "passcodes"):
        for i, q in enumerate(_strings(raw.get(key, []), f"{where}.{key}")):
            codes.add(_resolve(index, q, f"{where}.{key}[{i}]", rush)[0])
    kinds = []
    for i, k in enumerate(_strings(raw.get("kinds", []), f"{where}.kinds")):
        if k.casefold() not in _KINDS:
            raise SpecError(f"{where}.kinds[{i}]: {k!r} is not one of Monster, Spell, Trap")
        kinds.append(_KINDS[k.casefold()])
    types = tuple(
        tuple(w.strip().casefold() for w in t.split("/") if w.strip())
        for t in _strings(raw.get("types", []), f"{where}.types")
    )
    archetypes = tuple(_strings(raw.get("archetypes", []), f"{where}.archetypes"))
    cat = Category(name, frozenset(codes), archetypes, tuple(kinds), tuple(t for t in types if t))
    if not (cat.passcodes or cat.archetypes or cat.kinds or cat.types):
        raise SpecError(
            f"{where}: empty category (give names, passcodes, archetypes, kinds or types)"
        )
    return cat


_EFFECT_KEYS = frozenset({"card", "kind", "count", "target", "prefer", "once_per_turn"})


def _effect(
    i: int, raw: Any, index: CardIndex, categories: set[str], where: str, rush: bool = False
) -> Effect:
    if not isinstance(raw, Mapping):
        raise SpecError(f"{where}: expected a table with card = ... and kind = ...")
    unknown = set(raw) - _EFFECT_KEYS
    if unknown:
        raise SpecError(
            f"{where}: unknown key(s) {', '.join(sorted(unknown))}; "
            "valid: card, count, kind, once_per_turn, prefer, target"
        )
    card = raw.get("card")
    if not isinstance(card, str | int):
        raise SpecError(f"{where}.card: expected a card name or passcode")
    passcode, name = _resolve(index, str(card), f"{where}.card", rush)
    preset = _PRESETS.get(passcode)
    kind = _effect_kind(raw.get("kind"), preset, name, where)
    default = preset[1] if preset is not None and preset[0] is kind else _DEFAULT_COUNT[kind]
    count = raw.get("count", default)
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 60:
        raise SpecError(f"{where}.count: expected an integer from 1 to 60")
    target = _effect_target(raw.get("target"), kind, categories, where)
    prefer = tuple(_strings(raw.get("prefer", []), f"{where}.prefer"))
    for p in prefer:
        if p not in categories:
            raise SpecError(f"{where}.prefer: unknown category {p!r}")
    opt = raw.get("once_per_turn", kind is not EffectKind.DRAW)
    if not isinstance(opt, bool):
        raise SpecError(f"{where}.once_per_turn: expected true or false")
    if kind in (EffectKind.DESIRES, EffectKind.EXCAVATE, EffectKind.DRAW_LOCK):
        opt = True  # hard once per turn
    return Effect(name, passcode, kind, count, target, prefer, opt)


def _effect_kind(
    kind_text: Any, preset: tuple[EffectKind, int] | None, name: str, where: str
) -> EffectKind:
    """An effect's ``kind``: given, else the card's preset (required without one)."""
    if kind_text is None:
        if preset is None:
            raise SpecError(
                f"{where}.kind: required for {name} "
                f"(one of {', '.join(k.value for k in EffectKind)})"
            )
        return preset[0]
    try:
        return EffectKind(str(kind_text).casefold())
    except ValueError:
        raise SpecError(
            f"{where}.kind: {kind_text!r} is not one of {', '.join(k.value for k in EffectKind)}"
        ) from None


def _effect_target(target: Any, kind: EffectKind, categories: set[str], where: str) -> str | None:
    """A search's ``target`` category (required); no other kind has one."""
    if kind is EffectKind.SEARCH:
        if not isinstance(target, str):
            raise SpecError(f'{where}.target: a search needs target = "<category>"')
        if target not in categories:
            raise SpecError(f"{where}.target: unknown category {target!r}")
        return target
    if target is not None:
        raise SpecError(f"{where}.target: only a search has a target")
    return None


def parse_spec(
    raw: Mapping[str, Any],
    *,
    source: str | None = None,
    index: CardIndex | None = None,
    data: Dataset | None = None,
    rush: bool = False,
) -> Spec:
    """Build a :class:`Spec` from decoded TOML (a mapping); :class:`SpecError` on any problem.

    Card names resolve through ``index``, else the card index of ``data`` (default: active);
    ``rush`` prefers Rush Duel cards for names shared with OCG/TCG cards (Rush formats).
    """
    if index is None:
        from deckcheck.data.dataset import resolve_data

        index = resolve_data(data).cards
    prefix = f"{source}: " if source else ""
    try:
        unknown = set(raw) - {"categories", "conditions", "effects", "vary"}
        if unknown:
            raise SpecError(
                f"unknown table(s) {', '.join(sorted(unknown))}; "
                "valid: categories, conditions, effects, vary"
            )
        cats = _categories(raw.get("categories"), index, rush)
        names = {c.name for c in cats}
        conds = _conditions(raw.get("conditions", {}), names)
    except SpecError as exc:
        raise SpecError(prefix + str(exc)) from None
    if not conds:
        conds = [(c.name, parse_condition(f"`{c.name}` >= 1")) for c in cats]
    try:
        effects = _effects(raw.get("effects", []), index, names, rush)
        vary = _vary(raw.get("vary", {}))
    except SpecError as exc:
        raise SpecError(prefix + str(exc)) from None
    return Spec(cats, tuple(conds), effects, source, vary=vary)


def _categories(raw_cats: Any, index: CardIndex, rush: bool) -> tuple[Category, ...]:
    """The ``[categories]`` table (required, not empty)."""
    if not isinstance(raw_cats, Mapping) or not raw_cats:
        raise SpecError("[categories] is missing or empty")
    return tuple(_category(str(n), v, index, f"categories.{n}", rush) for n, v in raw_cats.items())


def _conditions(raw_conds: Any, names: set[str]) -> list[tuple[str, Condition]]:
    """The ``[conditions]`` table: name = "condition" over the category names."""
    if not isinstance(raw_conds, Mapping):
        raise SpecError('[conditions] must be a table of name = "condition"')
    conds: list[tuple[str, Condition]] = []
    for key, text in raw_conds.items():
        where = f"conditions.{key}"
        if not isinstance(text, str):
            raise SpecError(f'{where}: expected a string such as "starter >= 1"')
        try:
            conds.append((str(key), parse_condition(text, names)))
        except ConditionError as exc:
            raise SpecError(f"{where}: {exc} in {text!r}") from None
    return conds


def _effects(raw_effects: Any, index: CardIndex, names: set[str], rush: bool) -> tuple[Effect, ...]:
    """The ``[[effects]]`` array: one effect per card."""
    if not isinstance(raw_effects, list):
        raise SpecError("effects must be an array of tables: [[effects]]")
    effects = tuple(
        _effect(i, e, index, names, f"effects[{i}]", rush) for i, e in enumerate(raw_effects)
    )
    seen: set[int] = set()
    for e in effects:
        if e.passcode in seen:
            raise SpecError(f"effects: {e.card} is listed twice")
        seen.add(e.passcode)
    return effects


def _vary(raw: Any) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """``[vary]``: ``name = "a..b"`` (or ``"a,b,c"``) or ``name = [a, b, c]``."""
    from deckcheck.error import GoldfishError
    from deckcheck.goldfish.vary import parse_vary, sweep_request

    if not isinstance(raw, Mapping):
        raise SpecError('[vary] must be a table of name = "a..b"')
    out = []
    for name, value in raw.items():
        try:
            if isinstance(value, str):
                v = parse_vary(f"{name}={value}")
            elif isinstance(value, list):
                (v,) = sweep_request({str(name): value})
            else:
                raise GoldfishError('expected "a..b" or a list of copies')
        except GoldfishError as exc:
            raise SpecError(f"vary.{name}: {exc}") from None
        out.append((v.name, v.values))
    return tuple(out)


def load_spec(
    path: str | Path,
    *,
    index: CardIndex | None = None,
    data: Dataset | None = None,
    rush: bool = False,
) -> Spec:
    """Read a TOML spec file (at most :data:`MAX_SPEC_BYTES`); :class:`SpecError` (naming the
    file) when it is unusable. ``rush`` prefers Rush Duel cards for shared names."""
    import tomllib  # here, not at the top: a simulate without a spec file reads no TOML

    path = Path(path)
    try:
        content = read_capped(
            path, MAX_SPEC_BYTES + 1, refuse=lambda why: SpecError(f"{path}: {why}")
        )
        if len(content) > MAX_SPEC_BYTES:
            raise SpecError(f"{path}: larger than {MAX_SPEC_BYTES} bytes")
        doc = parse_toml(content.decode("utf-8"))
    except OSError as exc:
        raise SpecError(f"{path}: cannot read spec: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise SpecError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        raise SpecError(f"{path}: invalid TOML: nested too deeply") from None
    return parse_spec(doc, source=str(path), index=index, data=data, rush=rush)
