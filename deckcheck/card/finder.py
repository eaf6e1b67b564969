"""As-you-type card search: every name in every language, answered in well under a millisecond.

:meth:`CardIndex.search <deckcheck.card.CardIndex.search>` ranks fuzzy matches with rapidfuzz and
suits "did you mean" messages; a deck builder asks on every key press and needs an answer in
about a millisecond whatever the query. :class:`CardFinder` answers from names laid out in rank
order, so the first hits found are the best ones and the search stops after ``limit`` cards:

* the normalised names (:func:`~deckcheck.card.normalize_name`: case, punctuation, spaces and
  full-width forms ignored) of one language (``en``, ``ja``, ``zh-CN``) or of all, sorted by
  record priority (official cards before Skills, Rush and unofficial records), then length;
* joined into one string per language, each name behind a newline, so ``str.find`` of
  ``"\\n" + query`` finds prefix matches and of ``query`` any substring, in rank order;
* a query of 4 characters or more with too few substring hits falls back to fuzzy matching
  (rapidfuzz ``ratio``, cut-off 75) against the start of every name of its language (English
  for an ASCII query, else Japanese and Chinese): a typo in a half-typed name still finds it.

Scores: 100 exact name, 90 prefix, 80 substring, the fuzzy ratio scaled into 0-70 otherwise.
Alternate artworks and variants are reported as their original card, once.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class _Table:
    blob: str
    """``"\\n" + "\\n".join(keys)``: every key behind a newline, in rank order."""
    starts: tuple[int, ...]
    """Offset in :attr:`blob` of each key (after its newline)."""
    keys: tuple[str, ...]
    codes: tuple[int, ...]
    """The passcode each key names (the best-ranked record of that name)."""


def _table(items: list[tuple[int, str, int]]) -> _Table:
    items.sort(key=lambda t: (t[0], len(t[1]), t[1]))
    keys = tuple(k for _, k, _ in items)
    starts: list[int] = []
    pos = 1
    for k in keys:
        starts.append(pos)
        pos += len(k) + 1
    return _Table("\n" + "\n".join(keys), tuple(starts), keys, tuple(c for _, _, c in items))


class CardFinder:
    """Fast ranked card search over an index's names (see the module docstring).

    Build one per :class:`~deckcheck.card.CardIndex` (a fraction of a second) and reuse it; it
    is immutable and safe to share between threads.
    """

    def __init__(self, index: CardIndex) -> None:
        self._index = index
        table: Mapping[str, list[list[int]]] = index.name_table()
        per_lang: dict[str | None, list[tuple[int, str, int]]] = {None: []}
        for lang in LANGUAGES:
            per_lang[lang] = []
        for key, entries in table.items():
            best = min(entries)
            per_lang[None].append((best[0], key, best[1]))
            seen: set[int] = set()
            for prio, code, lang_col in sorted(entries):
                if lang_col in seen:
                    continue
                seen.add(lang_col)
                per_lang[LANGUAGES[lang_col]].append((prio, key, code))
        self._tables = {lang: _table(items) for lang, items in per_lang.items()}

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
        table = self._tables[lang]
        found: dict[int, float] = {}
        self._scan(table, "\n" + key, key, found, limit, prefix=True)
        if len(found) < limit:
            self._scan(table, key, key, found, limit, prefix=False)
        if fuzzy and len(found) < limit and len(key) >= FUZZY_MIN:
            self._fuzzy(key, lang, found, limit)
        index = self._index
        ranked = sorted(found.items(), key=lambda kv: -kv[1])  # stable: rank order kept
        return [(index.get(code), score) for code, score in ranked[:limit]]

    def _scan(
        self, table: _Table, needle: str, key: str, found: dict[int, float], limit: int,
        *, prefix: bool,
    ) -> None:  # fmt: skip
        blob, starts, keys, codes = table.blob, table.starts, table.keys, table.codes
        canonical = self._canonical
        pos = blob.find(needle)
        while pos >= 0 and len(found) < limit:
            i = bisect_right(starts, pos + 1 if prefix else pos) - 1
            name = keys[i]
            score = (100.0 if name == key else 90.0) if prefix else 80.0
            code = canonical(codes[i])
            if code not in found:
                found[code] = score
            # next hit after this key (one hit per key is enough)
            nxt = starts[i] + len(name)
            pos = blob.find(needle, nxt)

    def _fuzzy(self, key: str, lang: str | None, found: dict[int, float], limit: int) -> None:
        """Typos: ``key`` against the first ``len(key) + 1`` characters of every name."""
        from rapidfuzz import fuzz, process

        if lang is not None:
            langs: tuple[str, ...] = (lang,)
        else:
            langs = ("en",) if key.isascii() else ("ja", "zh-CN")
        size = len(key) + 1
        for name in langs:
            table = self._tables[name]
            heads = [k[:size] for k in table.keys]
            hits = process.extract(key, heads, scorer=fuzz.ratio, limit=limit * 2,
                                   score_cutoff=75)  # fmt: skip
            for _, score, j in hits:
                code = self._canonical(table.codes[j])
                if code not in found:
                    found[code] = round(float(score) * 0.7, 1)
                if len(found) >= limit:
                    return

    def _canonical(self, code: int) -> int:
        return self._index.get(code).canonical
