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
  ``ratio``, cut-off 75, scaled into 0-70) against the start of every name of its writing
  system (English and the European languages for Latin letters, Korean for Hangul, else
  Japanese and Chinese): a typo in a half-typed name still finds it;
* the other official languages (Korean, French, German, Italian, Spanish, Portuguese,
  Traditional Chinese) are a second index, built on the first query that English, Japanese and
  Chinese names do not answer in full.

Alternate artworks and variants are reported as their original card, once.
"""

from __future__ import annotations

from collections.abc import Mapping

from deckcheck.card.index import CardIndex
from deckcheck.card.model import Card
from deckcheck.card.name import LANG_CODES, normalize_name, same_script, script_of

LANGUAGES = LANG_CODES
"""Name languages of the index, in the order of its language ids."""
MAX_LIMIT = 100
"""Most results one search returns."""
MAX_QUERY = 200
"""Longest query considered (characters after normalising); longer ones match nothing."""
FUZZY_MIN = 4
"""Shortest query that gets fuzzy matches."""


class _Part:
    """The posting lists of one name table (see the module docstring)."""

    def __init__(self, index: CardIndex, table: Mapping[str, list[list[int]]]) -> None:
        rows: list[tuple[int, int, str, int, int]] = []
        for key, entries in table.items():
            best = min(entries)
            mask = 0
            for _, _, lang in entries:
                mask |= 1 << lang
            rows.append((best[0], len(key), key, best[1], mask))
        rows.sort()
        self.keys = [r[2] for r in rows]
        self.masks = [r[4] for r in rows]
        self.canon = [index.get(r[3]).canonical for r in rows]
        pairs: dict[str, list[int]] = {}
        chars: dict[str, list[int]] = {}
        for i, key in enumerate(self.keys):
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
        self.pairs = pairs
        self.chars = chars
        self.heads: dict[tuple[int, int], list[str]] = {}

    def scan(self, key: str, want: int, limit: int) -> list[tuple[int, float]]:
        """Names starting with ``key`` (100 whole, 90), then containing it (80), rank order."""
        if len(key) == 1:
            cands = self.chars.get(key, [])
        else:
            lists = [self.pairs.get(key[j : j + 2]) for j in range(len(key) - 1)]
            if any(lst is None for lst in lists):
                return []
            cands = min((lst for lst in lists if lst is not None), key=len)
        keys, masks, canon = self.keys, self.masks, self.canon
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

    def fuzzy(self, key: str, want: int, limit: int) -> list[tuple[int, float]]:
        """Typos: ``key`` against the first ``len(key) + 1`` characters of every name of
        the languages in ``want``."""
        from rapidfuzz import fuzz, process

        size = len(key) + 1
        heads = self.heads.get((want, size))
        if heads is None:
            heads = self.heads[(want, size)] = [
                k[:size] if m & want else "" for k, m in zip(self.keys, self.masks, strict=True)
            ]
        out: dict[int, float] = {}
        hits = process.extract(key, heads, scorer=fuzz.ratio, limit=limit * 2, score_cutoff=75)
        for _, score, j in sorted(hits, key=lambda h: (-h[1], h[2])):
            code = self.canon[j]
            if code not in out:
                out[code] = round(float(score) * 0.7, 1)
            if len(out) >= limit:
                break
        return list(out.items())


_MAIN = 0b111
"""Language bits of the main name table (en, ja, zh-CN); the others' are bits 3-9."""


class CardFinder:
    """Fast ranked card search over an index's names (see the module docstring).

    Build one per :class:`~deckcheck.card.CardIndex` (about a second) and reuse it; it is never
    changed after construction (but for the other languages' part, built on first need under
    the GIL) and safe to share between threads.
    """

    def __init__(self, index: CardIndex) -> None:
        self._index = index
        self._main = _Part(index, index.name_table())
        self._intl_part: _Part | None = None

    def _intl(self) -> _Part:
        """The other languages' names (Korean, French, ...), built on the first search that
        needs them."""
        part = self._intl_part
        if part is None:
            part = self._intl_part = _Part(self._index, self._index.intl_name_table())
        return part

    def warm(self) -> None:
        """Build the other languages' part now (a service does, so that no request pays the
        seconds it takes)."""
        self._intl()

    def search(
        self, text: str, limit: int = 10, lang: str | None = None, *, fuzzy: bool = True
    ) -> list[tuple[Card, float]]:
        """The cards whose names best match ``text``, best first, with a 0-100 score.

        ``lang`` (``en``, ``ja``, ``zh-CN``, ``ko``, ``fr``, ``de``, ``it``, ``es``, ``pt``,
        ``zh-TW``) matches only names in that language; None, all (the other languages' names
        are searched when English, Japanese and Chinese give fewer than ``limit`` cards).
        Raises :class:`ValueError` for another ``lang``.
        """
        if lang is not None and lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; valid: {', '.join(LANGUAGES)}")
        limit = max(0, min(limit, MAX_LIMIT))
        key = normalize_name(text)
        if not key or limit == 0 or len(key) > MAX_QUERY:
            return []
        want = (1 << len(LANGUAGES)) - 1 if lang is None else 1 << LANGUAGES.index(lang)
        found = self._main.scan(key, want, limit) if want & _MAIN else []
        if len(found) < limit and want & ~_MAIN:
            seen = {code for code, _ in found}
            more = self._intl().scan(key, want, limit)
            found += [(code, s) for code, s in more if code not in seen][: limit - len(found)]
        if fuzzy and not found and len(key) >= FUZZY_MIN:
            found = self._fuzzy(key, lang, limit)
        get = self._index.get
        return [(get(code), score) for code, score in found]

    def _fuzzy(self, key: str, lang: str | None, limit: int) -> list[tuple[int, float]]:
        """Typos in a language's names; without one, the names of the query's writing system
        (English and the European languages for Latin letters, Korean for Hangul, else
        Japanese and both Chinese)."""
        if lang is not None:
            want = 1 << LANGUAGES.index(lang)
        else:
            script = script_of(key)
            want = sum(1 << i for i in range(len(LANGUAGES)) if same_script(i, script))
        found = self._main.fuzzy(key, want, limit) if want & _MAIN else []
        if len(found) < limit and want & ~_MAIN:
            seen = {code for code, _ in found}
            more = self._intl().fuzzy(key, want, limit)
            found = sorted(found + [(c, s) for c, s in more if c not in seen], key=lambda t: -t[1])
        return found[:limit]
