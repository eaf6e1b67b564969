"""As-you-type card search: every name in every language, answered in well under a millisecond.

:meth:`CardIndex.search <deckcheck.card.CardIndex.search>` ranks fuzzy matches with rapidfuzz and
suits "did you mean" messages; a deck builder asks on every key press and needs an answer in
about a millisecond whatever the query. :class:`CardFinder` answers from an index built once:

* every normalised name (:func:`~deckcheck.card.normalize_name`: case, punctuation, spaces and
  full-width forms ignored) gets an id in *rank order*: official cards before Skills, Rush and
  unofficial records, then shorter names first;
* a posting list per character pair (and per character) holds the ids of the names that contain
  it, in rank order. A query reads the shortest list of its pairs and checks each name in it:
  names that *start* with the query come first (score 90, 100 for the whole name), then names
  that contain it (80); the scan stops as soon as ``limit`` cards start with the query;
* a query of 4 characters or more that matches nothing falls back to fuzzy matching (rapidfuzz
  ``ratio``, cut-off 75, scaled into 0-70) against the start of every name of its language
  (English for an ASCII query, else Japanese and Chinese): a typo in a half-typed name still
  finds it.

Alternate artworks and variants are reported as their original card, once.
"""

from __future__ import annotations

from collections.abc import Mapping

from deckcheck.card.index import CardIndex
from deckcheck.card.model import Card
from deckcheck.card.name import normalize_name

LANGUAGES = ("en", "ja", "zh-CN")
"""Name languages of the index, in the order of its name columns."""
MAX_LIMIT = 100
"""Most results one search returns."""
MAX_QUERY = 200
"""Longest query considered (characters after normalising); longer ones match nothing."""
FUZZY_MIN = 4
"""Shortest query that gets fuzzy matches."""


class CardFinder:
    """Fast ranked card search over an index's names (see the module docstring).

    Build one per :class:`~deckcheck.card.CardIndex` (about a second) and reuse it; it is never
    changed after construction and safe to share between threads.
    """

    def __init__(self, index: CardIndex) -> None:
        self._index = index
        table: Mapping[str, list[list[int]]] = index.name_table()
        rows: list[tuple[int, int, str, int, int]] = []
        for key, entries in table.items():
            best = min(entries)
            mask = 0
            for _, _, lang in entries:
                mask |= 1 << lang
            rows.append((best[0], len(key), key, best[1], mask))
        rows.sort()
        self._keys = [r[2] for r in rows]
        self._masks = [r[4] for r in rows]
        self._canon = [index.get(r[3]).canonical for r in rows]
        pairs: dict[str, list[int]] = {}
        chars: dict[str, list[int]] = {}
        for i, key in enumerate(self._keys):
            for gram in {key[j : j + 2] for j in range(len(key) - 1)}:
                got = pairs.get(gram)
                if got is None:
                    pairs[gram] = [i]
                else:
                    got.append(i)
            for ch in set(key):
                got = chars.get(ch)
                if got is None:
                    chars[ch] = [i]
                else:
                    got.append(i)
        self._pairs = pairs
        self._chars = chars
        self._heads: dict[tuple[int, int], list[str]] = {}

    def search(
        self, text: str, limit: int = 10, lang: str | None = None, *, fuzzy: bool = True
    ) -> list[tuple[Card, float]]:
        """The cards whose names best match ``text``, best first, with a 0-100 score.

        ``lang`` (``en``, ``ja``, ``zh-CN``) matches only names in that language; None, all.
        Raises :class:`ValueError` for another ``lang``.
        """
        if lang is not None and lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; valid: {', '.join(LANGUAGES)}")
        limit = max(0, min(limit, MAX_LIMIT))
        key = normalize_name(text)
        if not key or limit == 0 or len(key) > MAX_QUERY:
            return []
        want = 7 if lang is None else 1 << LANGUAGES.index(lang)
        found = self._scan(key, want, limit)
        if fuzzy and not found and len(key) >= FUZZY_MIN:
            found = self._fuzzy(key, lang, limit)
        get = self._index.get
        return [(get(code), score) for code, score in found]

    def _scan(self, key: str, want: int, limit: int) -> list[tuple[int, float]]:
        if len(key) == 1:
            cands = self._chars.get(key, [])
        else:
            lists = [self._pairs.get(key[j : j + 2]) for j in range(len(key) - 1)]
            if any(lst is None for lst in lists):
                return []
            cands = min((lst for lst in lists if lst is not None), key=len)
        keys, masks, canon = self._keys, self._masks, self._canon
        starts: dict[int, float] = {}
        inside: dict[int, float] = {}
        for i in cands:
            if not masks[i] & want:
                continue
            name = keys[i]
            if name.startswith(key):
                code = canon[i]
                if code not in starts:
                    starts[code] = 100.0 if len(name) == len(key) else 90.0
                    if len(starts) >= limit:
                        break
            elif len(inside) < limit and key in name:
                inside.setdefault(canon[i], 80.0)
        out = sorted(starts.items(), key=lambda kv: -kv[1])  # stable: rank order kept
        out.extend((code, s) for code, s in inside.items() if code not in starts)
        return out[:limit]

    def _fuzzy(self, key: str, lang: str | None, limit: int) -> list[tuple[int, float]]:
        """Typos: ``key`` against the first ``len(key) + 1`` characters of every name."""
        from rapidfuzz import fuzz, process

        # a language's names; without one, English for an ASCII query, else Japanese + Chinese
        want = 1 << LANGUAGES.index(lang) if lang is not None else 1 if key.isascii() else 6
        size = len(key) + 1
        heads = self._heads.get((want, size))
        if heads is None:
            heads = self._heads[(want, size)] = [
                k[:size] if m & want else "" for k, m in zip(self._keys, self._masks, strict=True)
            ]
        out: dict[int, float] = {}
        hits = process.extract(key, heads, scorer=fuzz.ratio, limit=limit * 2, score_cutoff=75)
        for _, score, j in sorted(hits, key=lambda h: (-h[1], h[2])):
            code = self._canon[j]
            if code not in out:
                out[code] = round(float(score) * 0.7, 1)
            if len(out) >= limit:
                break
        return list(out.items())
