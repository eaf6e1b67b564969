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

LANG_MATCH = (
    Match.NAME_EN,
    Match.NAME_JA,
    Match.NAME_ZH,
    Match.NAME_KO,
    Match.NAME_FR,
    Match.NAME_DE,
    Match.NAME_IT,
    Match.NAME_ES,
    Match.NAME_PT,
    Match.NAME_ZH_TW,
)
"""How a name of each language id matched (0 en, 1 ja, 2 zh-CN; 3-9 the other languages of
``names-intl.jsonl``: ko, fr, de, it, es, pt, zh-TW)."""
INTL_LANGS = ("ko", "fr", "de", "it", "es", "pt", "zh-TW")
"""The other official card languages of the data, in the order of ``names-intl.jsonl``
(language ids 3-9 of the name table; 0-2 are English, Japanese, Simplified Chinese)."""
LANG_CODES = ("en", "ja", "zh-CN", *INTL_LANGS)
"""The language code of each language id."""
_SCRIPT_OF_LANG = (
    "latin",
    "cjk",
    "cjk",
    "hangul",
    "latin",
    "latin",
    "latin",
    "latin",
    "latin",
    "cjk",
)


def script_of(text: str) -> str:
    """The writing system of a name: ``hangul``, ``cjk`` (kana or Han) or ``latin``."""
    for ch in text:
        code = ord(ch)
        if 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
            return "hangul"
        if 0x3040 <= code <= 0x30FF or 0x3400 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF:
            return "cjk"
    return "latin"


def same_script(lang: int, script: str) -> bool:
    """Whether names of language id ``lang`` are written in ``script``."""
    return _SCRIPT_OF_LANG[lang] == script


def intl_langs_of(script: str) -> tuple[int, ...]:
    """The ids of the other languages (3-9) whose names are written in ``script``."""
    return tuple(i for i in range(3, len(_SCRIPT_OF_LANG)) if _SCRIPT_OF_LANG[i] == script)


def build_intl_table(
    rows: Iterable[list[Any]], langs: Iterable[int] | None = None
) -> dict[str, list[list[int]]]:
    """The name table of ``names-intl.jsonl`` rows (``[passcode, priority, name...]``, one name
    per language 3-9): normalised name -> ``[[priority, passcode, language id]]``, over the
    language ids ``langs`` (default: all)."""
    wanted = set(range(3, len(_SCRIPT_OF_LANG)) if langs is None else langs)
    table: dict[str, list[list[int]]] = {}
    for row in rows:
        pid, prio, names = row[0], row[1], row[2:]
        for i, name in enumerate(names):
            key = normalize_name(name) if name and i + 3 in wanted else ""
            if key:
                entries = table.setdefault(key, [])
                if not any(e[1] == pid for e in entries):
                    entries.append([prio, pid, i + 3])
    for entries in table.values():
        entries.sort()
    return table


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


class NameIndex:
    """A prepared index over the normalised names of a name table, for fast fuzzy ranking.

    Built once per card index (about 0.15 s), it answers a query in a millisecond or two instead
    of scoring every one of ~54,000 names: exact and substring hits come from one string search
    over all names joined; fuzzy candidates are shortlisted by their first or last character and
    their length (within a fifth of the query's), and by their first two characters (so a
    partial name such as ``ashblosom`` still meets ``ashblossomandjoyousspring``), scored with
    rapidfuzz's fast ``ratio``/``partial_ratio``; only the best few are re-scored with ``WRatio``.
    """

    def __init__(self, table: dict[str, list[list[int]]]) -> None:
        self.keys: list[str] = list(table)
        self.entries: list[list[list[int]]] = [table[k] for k in self.keys]
        self.blob = "\n" + "\n".join(self.keys) + "\n"
        self.starts: list[int] = []
        pos = 1
        for k in self.keys:
            self.starts.append(pos)
            pos += len(k) + 1
        # names grouped by first and by last character, each group sorted by length: a length
        # window of a group is a slice (a typo rarely changes both ends of a name)
        keys = self.keys
        lengths = [len(k) for k in keys]
        groups: dict[tuple[int, str], list[int]] = {}
        heads: dict[str, list[int]] = {}
        for i in sorted(range(len(keys)), key=lengths.__getitem__):  # one sort: groups in order
            k = keys[i]
            groups.setdefault((0, k[0]), []).append(i)
            groups.setdefault((-1, k[-1]), []).append(i)
            heads.setdefault(k[:2], []).append(i)
        self._groups: dict[tuple[int, str], tuple[list[int], list[int], list[str]]] = {
            g: (members, [lengths[i] for i in members], [keys[i] for i in members])
            for g, members in groups.items()
        }
        self._by_head = heads

    def substring_hits(self, key: str, cap: int = 5000) -> list[int]:
        """Indices of the names that contain ``key`` (at most ``cap``)."""
        from bisect import bisect_right

        out: list[int] = []
        blob, starts = self.blob, self.starts
        at = blob.find(key)
        while at >= 0 and len(out) < cap:
            i = bisect_right(starts, at) - 1
            out.append(i)
            at = blob.find(key, starts[i] + len(self.keys[i]) + 1)
        return out

    def window(self, key: str) -> tuple[list[int], list[str]]:
        """The names sharing ``key``'s first or last character, within a fifth of its length
        (at least 2 characters), as (indices, names)."""
        from bisect import bisect_left, bisect_right

        width = max(2, len(key) // 5)
        idx: list[int] = []
        names: list[str] = []
        seen: set[int] = set()
        for g in ((0, key[0]), (-1, key[-1])):
            got = self._groups.get(g)
            if got is None:
                continue
            members, lengths, keys = got
            lo = bisect_left(lengths, len(key) - width)
            hi = bisect_right(lengths, len(key) + width)
            if not seen:
                idx += members[lo:hi]
                names += keys[lo:hi]
                seen.update(members[lo:hi])
                continue
            for i, k in zip(members[lo:hi], keys[lo:hi], strict=True):
                if i not in seen:
                    idx.append(i)
                    names.append(k)
        return idx, names

    def fuzzy(self, key: str, limit: int) -> list[tuple[int, float]]:
        """The ``limit`` best fuzzy matches of ``key`` as (index, WRatio score), best first."""
        from rapidfuzz import fuzz, process

        idx, choices = self.window(key)
        head = self._by_head.get(key[:2], [])
        best: dict[int, float] = {}
        for _, score, j in process.extract(
            key, choices, scorer=fuzz.ratio, limit=limit * 4, score_cutoff=50
        ):
            best[idx[j]] = score
        if len(key) >= 4 and head:
            part = [self.keys[i] for i in head]
            for _, score, j in process.extract(
                key, part, scorer=fuzz.partial_ratio, limit=limit * 4, score_cutoff=75
            ):
                best.setdefault(head[j], score)
        # WRatio rewards a short name found inside a long query ("acc" in "accesscodetalker");
        # a name much shorter than the query is a poor suggestion whatever its partial score
        best = {i: v for i, v in best.items() if 2 * len(self.keys[i]) >= len(key)}
        scored = [(i, float(fuzz.WRatio(key, self.keys[i]))) for i in best]
        scored.sort(key=lambda t: -t[1])
        return scored[:limit]


def edit_rank(query: str, name: str) -> tuple[int, int, int]:
    """Sort key of a whole-name typo: edit distance, then longer common prefix, then closer
    length (``黑魔术师`` is nearer ``黑魔导`` than ``混沌黑魔术师``)."""
    from rapidfuzz.distance import Levenshtein

    prefix = 0
    for a, b in zip(query, name, strict=False):
        if a != b:
            break
        prefix += 1
    return Levenshtein.distance(query, name), -prefix, abs(len(query) - len(name))
