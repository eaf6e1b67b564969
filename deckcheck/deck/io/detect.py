"""Deck file formats and their detection by content."""

from __future__ import annotations

import enum
import re

from deckcheck.deck.io.builder import decode_input, split_lines
from deckcheck.error import DeckReadError

DECK_SUFFIXES = (".ydk", ".ydke", ".txt", ".json", ".omega")
"""File name endings of deck files (what a folder scan reads)."""


class DeckFormat(enum.StrEnum):
    """The deck file formats deckcheck reads and writes."""

    YDK = "ydk"
    YDKE = "ydke"
    TEXT = "text"
    OMEGA = "omega"
    JSON = "json"


_BASE64 = re.compile(r"[A-Za-z0-9+/]{4,}={0,2}")
_YDK_MARKS = ("#main", "#extra", "!side", "#created by")


def _is_omega(body: str) -> bool:
    from deckcheck.deck.io.omega import inflate_counted

    try:
        inflate_counted(body, None)
    except DeckReadError:
        return False
    return True


def _is_json(body: str) -> bool:
    import json

    try:
        json.loads(body)
    except RecursionError:
        return True  # JSON nested too deeply: the JSON reader says so
    except ValueError:
        return False
    return True


def detect_text(text: str) -> DeckFormat:
    """The format of an already decoded deck text (see :func:`detect_format`)."""
    body = text.strip()
    if body[:7].lower() == "ydke://":
        return DeckFormat.YDKE
    if body.startswith("{") or (body.startswith("[") and _is_json(body)):
        return DeckFormat.JSON
    if _BASE64.fullmatch(body) and not body.isdigit() and _is_omega(body):
        return DeckFormat.OMEGA
    digits = 0
    for raw in split_lines(body):
        line = raw.strip().lower()
        if not line:
            continue
        if line.startswith(_YDK_MARKS):
            return DeckFormat.YDK
        if line.startswith("#"):
            continue
        if not (line.isascii() and line.isdigit()):
            return DeckFormat.TEXT
        digits += 1
    return DeckFormat.YDK if digits else DeckFormat.TEXT


def detect_format(data: str | bytes) -> DeckFormat:
    """Guess the format of a deck input from its content.

    ``ydke://`` → ydke; ``{`` → json; one base64 word that inflates to an Omega code → omega;
    ``#main``/``#extra``/``!side``/``#created by`` or only passcode lines → ydk; anything else
    → text. Raises
    :class:`~deckcheck.error.DeckReadError` for input that is not text or is over the size limit.
    """
    return detect_text(decode_input(data))
