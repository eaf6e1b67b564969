"""Card names: the normalised lookup key, name priorities, and the name table of an index."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from deckcheck.card.model import (
    ALIAS_ALT_ART,
    ALIAS_VARIANT,
    FLAG_GOAT,
    FLAG_PRERELEASE,
    FLAG_RUSH,
    FLAG_SKILL,
    FLAG_TOKEN,
    FLAG_UNOFFICIAL,
    Match,
)

_QUOTES = str.maketrans({c: None for c in "\"'`´‘’‚‛“”„‟«»‹›「」『』〈〉《》・･"})
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


def normalize_name(text: str) -> str:
    """The lookup key of a card name.

    Insensitive to case, punctuation, quote style, full-width/half-width forms and spaces:
    ``"Ａｓｈ  Blossom & joyous-spring"`` and ``"ash blossom joyous spring"`` share a key.
    """
    text = unicodedata.normalize("NFKC", text).casefold().translate(_QUOTES)
    text = text.replace("&", "and")
    return _NON_WORD.sub("", text)


PRIORITY_OFFICIAL, PRIORITY_SKILL, PRIORITY_RUSH, PRIORITY_OTHER = 0, 1, 2, 3
"""Ranks of records that share a name (lower wins)."""

LANG_MATCH = (Match.NAME_EN, Match.NAME_JA, Match.NAME_ZH)
"""How a name of each language column (0 en, 1 ja, 2 zh) matched."""


def name_priority(flags: int) -> int:
    """Rank of a record among records of the same name: official 0, skill 1, Rush 2, other 3."""
    if flags & (FLAG_UNOFFICIAL | FLAG_PRERELEASE | FLAG_GOAT | FLAG_TOKEN):
        return PRIORITY_OTHER
    if flags & FLAG_SKILL:
        return PRIORITY_SKILL
    if flags & FLAG_RUSH:
        return PRIORITY_RUSH
    return PRIORITY_OFFICIAL


def build_name_table(rows: Iterable[list[Any]]) -> dict[str, list[list[int]]]:
    """The name index of the given card rows: normalised name -> [[priority, passcode, lang]].

    Alternate artworks and same-name variants are left out (their original carries the name);
    differently named versions ("Sinister Serpent (Pre-Errata)") are kept, ranked last.
    """
    rows = list(rows)
    names = {row[0]: row[3] for row in rows}
    out: dict[str, list[list[int]]] = {}
    for row in rows:
        pid, alias, alias_kind, flags = row[0], row[1], row[2], row[11]
        if alias and alias_kind == ALIAS_ALT_ART:
            continue
        if alias and alias_kind == ALIAS_VARIANT and names.get(alias) == row[3]:
            continue  # a GOAT or pre-release version under the same name
        prio = name_priority(flags)
        for lang, col in enumerate((3, 4, 5)):
            if row[col]:
                key = normalize_name(row[col])
                if key:
                    entries = out.setdefault(key, [])
                    if not any(e[1] == pid for e in entries):
                        entries.append([prio, pid, lang])
    return {k: sorted(v) for k, v in sorted(out.items())}
