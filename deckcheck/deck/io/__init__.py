"""Reading and writing deck files: ydk, ydke URLs, text lists, Omega codes, deckcheck JSON.

::

    from deckcheck.deck.io import read_path, write_deck
    deck = read_path("deck.ydk")            # format detected by content
    for finding in deck.findings:           # unknown cards, ambiguous names, unreadable lines
        print(finding.line, finding.message, finding.suggestions)
    print(write_deck(deck, "ydke"))

Every reader returns a :class:`~deckcheck.deck.model.Deck` whose cards remember their section and
source line. Input that cannot be read at all (binary junk, over :data:`MAX_INPUT_BYTES`, more
than :data:`MAX_CARDS` cards, bad base64/JSON) raises :class:`~deckcheck.error.DeckReadError`
(or a subclass); nothing else escapes a reader. Lines that can be read but not resolved become
:class:`~deckcheck.deck.model.ReadFinding` entries of the deck.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.boundary import read_capped, read_stdin
from deckcheck.card import CardIndex
from deckcheck.deck.io.builder import MAX_CARDS, MAX_INPUT_BYTES, MAX_PASSCODE, decode_input
from deckcheck.deck.io.detect import DeckFormat, detect_format, detect_text
from deckcheck.deck.model import Deck, ReadFinding
from deckcheck.error import (
    DeckEncodingError,
    DeckReadError,
    DeckSyntaxError,
    DeckTooLargeError,
    DeckWriteError,
    UnknownDeckFormatError,
)

_TOO_BIG = f"input is over the {MAX_INPUT_BYTES} byte limit"

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.deck.io.jsonform import JSON_VERSION, dump_json, parse_json
    from deckcheck.deck.io.omega import dump_omega, parse_omega
    from deckcheck.deck.io.text import dump_text, parse_text
    from deckcheck.deck.io.ydk import dump_ydk, parse_ydk
    from deckcheck.deck.io.ydke import dump_ydke, parse_ydke

_MODULE = {
    DeckFormat.YDK: "ydk",
    DeckFormat.YDKE: "ydke",
    DeckFormat.OMEGA: "omega",
    DeckFormat.JSON: "jsonform",
    DeckFormat.TEXT: "text",
}
"""Each deck format's module (``deckcheck.deck.io.<name>``, with ``parse_<fmt>`` and
``dump_<fmt>``), imported when a deck in that format is first read or written: a ``.ydk``
check loads no text-list reader (its patterns are most of this package's start-up)."""

_LAZY = {f"{verb}_{fmt.value}": _MODULE[fmt] for fmt in _MODULE for verb in ("parse", "dump")}
_LAZY["JSON_VERSION"] = "jsonform"


def __getattr__(name: str) -> Any:
    """The readers and writers of :data:`__all__`, from their format's module."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)


def _codec(kind: DeckFormat, verb: str) -> Any:
    """The ``parse`` or ``dump`` function of format ``kind``."""
    return getattr(importlib.import_module(f"{__name__}.{_MODULE[kind]}"), f"{verb}_{kind.value}")


__all__ = [
    "JSON_VERSION",
    "MAX_CARDS",
    "MAX_INPUT_BYTES",
    "MAX_PASSCODE",
    "DeckEncodingError",
    "DeckFormat",
    "DeckSyntaxError",
    "DeckTooLargeError",
    "DeckWriteError",
    "UnknownDeckFormatError",
    "detect_format",
    "dump_json",
    "dump_omega",
    "dump_text",
    "dump_ydk",
    "dump_ydke",
    "lost_lines",
    "parse_json",
    "parse_omega",
    "parse_text",
    "parse_ydk",
    "parse_ydke",
    "read_deck",
    "read_path",
    "write_deck",
]


def to_format(fmt: DeckFormat | str) -> DeckFormat:
    """The :class:`DeckFormat` named ``fmt``; raises :class:`UnknownDeckFormatError`."""
    try:
        return DeckFormat(str(fmt).lower())
    except ValueError:
        valid = ", ".join(f.value for f in DeckFormat)
        raise UnknownDeckFormatError(f"unknown deck format {fmt!r}; valid: {valid}") from None


def read_deck(
    content: str | bytes,
    *,
    fmt: DeckFormat | str | None = None,
    source: str | None = None,
    index: CardIndex | None = None,
    rush: bool = False,
    data: Dataset | None = None,
) -> Deck:
    """Read a deck from text or bytes, in format ``fmt`` or the one detected from the content.

    ``source`` names the input in messages; ``rush`` prefers Rush Duel cards for names shared
    with OCG/TCG cards (text lists only). Cards resolve through ``index``, else the card index of
    ``data`` (default: the active dataset). Raises :class:`~deckcheck.error.DeckReadError`.
    """
    index = _index(index, data)
    text = decode_input(content, source)
    kind = detect_text(text) if fmt is None else to_format(fmt)
    parse = _codec(kind, "parse")
    if kind is DeckFormat.TEXT:
        return parse(text, source=source, index=index, rush=rush)  # type: ignore[no-any-return]
    return parse(text, source=source, index=index)  # type: ignore[no-any-return]


def read_path(
    path: str | Path,
    *,
    fmt: DeckFormat | str | None = None,
    index: CardIndex | None = None,
    rush: bool = False,
    data: Dataset | None = None,
) -> Deck:
    """Read a deck file; ``"-"`` reads stdin and a ``ydke://`` string is read as a URL.

    Cards resolve through ``index``, else the card index of ``data`` (default: the active
    dataset). Raises :class:`~deckcheck.error.DeckReadError` naming the file if it cannot be read.
    """
    index = _index(index, data)
    if isinstance(path, str) and path.strip()[:7].lower() == "ydke://":
        return read_deck(path, fmt=fmt or DeckFormat.YDKE, source="<ydke URL>", index=index)
    if str(path) == "-":
        source = "<stdin>"
        raw = read_stdin(
            MAX_INPUT_BYTES,
            refuse=lambda why: DeckReadError(why, source),
            over=lambda _: DeckTooLargeError(_TOO_BIG, source),
        )
    else:
        source = str(path)
        try:
            raw = read_capped(
                path,
                MAX_INPUT_BYTES,
                refuse=lambda why: DeckReadError(why, source),
                over=lambda _: DeckTooLargeError(_TOO_BIG, source),
            )
        except OSError as exc:
            raise DeckReadError(f"cannot read: {exc.strerror or exc}", source) from exc
    return read_deck(raw, fmt=fmt, source=source, index=index, rush=rush)


def write_deck(
    deck: Deck,
    fmt: DeckFormat | str,
    *,
    index: CardIndex | None = None,
    data: Dataset | None = None,
    lang: str = "en",
) -> str:
    """The deck written in format ``fmt``; raises :class:`DeckWriteError` if it cannot be.

    Text lists name cards through ``index``, else the card index of ``data`` (default: active),
    in ``lang`` (``en``, ``ja``, ``zh``, ``ko``: headings and card names; other formats have no
    names).
    """
    kind = to_format(fmt)
    dump = _codec(kind, "dump")
    if kind is DeckFormat.TEXT:
        return dump(deck, index=_index(index, data), lang=lang)  # type: ignore[no-any-return]
    line: str = dump(deck)
    return line + "\n" if kind in (DeckFormat.YDKE, DeckFormat.OMEGA) else line


def lost_lines(deck: Deck, fmt: DeckFormat | str) -> list[ReadFinding]:
    """The lines of ``deck`` naming no card (:attr:`Deck.unread`) the output format
    ``fmt`` cannot hold: every one in ydk, ydke and Omega; in text and JSON, which keep the
    lines naming unknown or ambiguous cards as written, the lines that are not cards at all."""
    from deckcheck.deck.io.text import unresolved_lines

    kind = to_format(fmt)
    keeps = kind in (DeckFormat.TEXT, DeckFormat.JSON)
    kept = {id(f) for f in unresolved_lines(deck)} if keeps else set()
    return [f for f in deck.unread if id(f) not in kept]


def _index(index: CardIndex | None, data: Dataset | None) -> CardIndex:
    """``index``, else the card index of ``data`` (the active dataset when None)."""
    if index is not None:
        return index
    from deckcheck.data.dataset import resolve_data

    return resolve_data(data).cards
