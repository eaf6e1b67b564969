"""deckcheck's own JSON deck form, version 1.

::

    {"deckcheck": 1, "name": "My deck", "main": [14558127, ...], "extra": [...], "side": [...]}

``deckcheck`` is the form's version (required, 1). ``name`` is optional. Each section is a list
whose items are a passcode (an integer, or a string of digits), ``{"passcode": n, "count": k}``,
or ``{"line": "3 Blue-Eyes Whte Dragon"}``: a line of a text list that named no card when the
deck was written, kept so nothing is lost, and read again as a text line (so a card the index
learnt since resolves). Missing sections are empty; other keys are ignored. Cards have no line
(``line`` is None). An item that is none of these becomes a parse finding. See
``docs/deck-formats.md``.
"""

from __future__ import annotations

import json
from typing import Any

from deckcheck.card import CardIndex
from deckcheck.deck.io.builder import MAX_CARDS, MAX_PASSCODE, DeckBuilder, decode_input, is_code
from deckcheck.deck.io.text import MAX_LINE, LineReader
from deckcheck.deck.model import Deck, FindingCode, Section
from deckcheck.error import DeckSyntaxError, DeckTooLargeError

JSON_VERSION = 1
"""Version of the JSON deck form that :func:`dump_json` writes and :func:`parse_json` reads."""


def _passcode(value: Any) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and 0 <= value <= MAX_PASSCODE:
        return str(value)
    if isinstance(value, str) and is_code(value.strip()) and len(value.strip()) <= 12:
        return value.strip()
    return None


_KEYS = frozenset({"deckcheck", "name", *(section.value for section in Section)})
"""The keys of the JSON deck form (any other is reported, never dropped silently)."""


def _short(item: Any) -> str:
    try:
        return json.dumps(item, ensure_ascii=False)[:200]
    except (ValueError, TypeError, RecursionError):
        return "?"


def _document(text: str, source: str | None) -> dict[str, Any]:
    """The JSON document of a deck: an object with the supported ``deckcheck`` version."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DeckSyntaxError(f"not JSON: {exc.msg}", source, exc.lineno) from exc
    except (ValueError, RecursionError) as exc:
        raise DeckSyntaxError("not JSON: nested too deeply or numbers too long", source) from exc
    if not isinstance(doc, dict) or "deckcheck" not in doc:
        raise DeckSyntaxError('not a deckcheck JSON deck (no "deckcheck" version key)', source)
    if doc["deckcheck"] != JSON_VERSION or isinstance(doc["deckcheck"], bool):
        raise DeckSyntaxError(
            f"unsupported deckcheck JSON version {str(doc['deckcheck'])[:20]!r}", source
        )
    return doc


def parse_json(
    data: str | bytes, *, source: str | None = None, index: CardIndex | None = None
) -> Deck:
    """Read the JSON deck form; raises :class:`~deckcheck.error.DeckReadError` if it is not one."""
    doc = _document(decode_input(data, source), source)
    deck = DeckBuilder(index, source, "json")
    name = doc.get("name")
    if isinstance(name, str) and name.strip():
        deck.name = name.strip()
    elif name is not None and not isinstance(name, str):
        deck.finding(FindingCode.PARSE, f'"name" is not text: {_short(name)}', None, None, None)
    for key in doc:
        if key not in _KEYS:  # "Main", "sides"...: its content would be lost without a word
            what = f"unknown key {_short(key)} (known: {', '.join(sorted(_KEYS))}): not read"
            deck.finding(FindingCode.PARSE, what, None, None, None)
    lines: LineReader | None = None
    for section in Section:
        items = doc.get(section.value, [])
        if items is None:
            continue
        if not isinstance(items, list):
            deck.finding(FindingCode.PARSE, f'"{section.value}" is not a list', None, None, section)
            continue
        for pos, item in enumerate(items, 1):
            if (
                isinstance(item, dict)
                and "passcode" not in item
                and isinstance(item.get("line"), str)
                and len(item["line"]) <= MAX_LINE
            ):
                lines = lines or LineReader(deck)
                lines.read(item["line"], section)
            else:
                _item(deck, item, pos, section, source)
    return deck.build()


def _item(deck: DeckBuilder, item: Any, pos: int, section: Section, source: str | None) -> None:
    """One item of a section: a passcode, or ``{"passcode": ..., "count": n}``; anything else
    a parse finding."""
    count: Any = 1
    value = item
    if isinstance(item, dict):
        value, count = item.get("passcode"), item.get("count", 1)
    code = _passcode(value)
    if code is None or isinstance(count, bool) or not isinstance(count, int) or count < 0:
        deck.finding(
            FindingCode.PARSE,
            f"item {pos} of {section.value} is not a passcode",
            None,
            _short(item),
            section,
        )
        return
    if count > MAX_CARDS:
        raise DeckTooLargeError(f"more than {MAX_CARDS} cards", source)
    deck.add_passcode(code, section, None, count)


def dump_json(deck: Deck) -> str:
    """Write a deck in the JSON deck form (one section per line).

    Lines that named no card are kept as ``{"line": "..."}`` items after the passcodes of their
    section (:func:`deckcheck.deck.io.text.unresolved_lines`).
    """
    from deckcheck.deck.io.text import unresolved_lines

    kept = unresolved_lines(deck)
    lines = [f'{{"deckcheck": {JSON_VERSION},']
    if deck.name:
        lines.append(f' "name": {json.dumps(deck.name, ensure_ascii=False)},')
    for section in Section:
        end = "}" if section is Section.SIDE else ","
        items: list[Any] = list(deck.passcodes(section))
        items += [
            {"line": " ".join((f.text or "").split())}
            for f in kept
            if f.section is section or (f.section is None and section is Section.MAIN)
        ]
        lines.append(f' "{section.value}": {json.dumps(items, ensure_ascii=False)}{end}')
    return "\n".join(lines) + "\n"
