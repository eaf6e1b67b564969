"""The card names of the other official languages (``names-intl.jsonl``), read only when asked.

The file is a header line (``{"langs": ["ko", "fr", ...]}``) and one row per card
(``[passcode, priority, name...]``, one name per language, sorted by passcode). Nothing is read
until a name is asked for: one card's names are found by a binary search over the bytes (a
Korean sheet or ``cards show`` reads a few rows, never the whole table); the normalised name
table is built only when a name is not found in English, Japanese or Chinese.
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import TYPE_CHECKING, Any

from deckcheck.boundary import read_data
from deckcheck.card.name import INTL_LANGS, build_intl_table, intl_langs_of
from deckcheck.card.row import find_row, line_at
from deckcheck.error import DataError

if TYPE_CHECKING:
    from pathlib import Path


class IntlNames:
    """The other languages' card names of one data folder (``path``: its ``names-intl.jsonl``;
    None or a missing file: no such names)."""

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self._scripts: dict[str, dict[str, list[list[int]]]] = {}

    def _fail(self, exc: Exception) -> DataError:
        return DataError(f"{self._path}: cannot read the card names of other languages: {exc}")

    @cached_property
    def _body(self) -> bytes:
        """The rows (the header checked and left out); empty when the data has no such file."""
        path = self._path
        if path is None or not path.exists():
            return b""
        try:
            text = read_data(path)
            first = text.find(b"\n")
            head = json.loads(text[: first if first >= 0 else len(text)])
        except (OSError, ValueError) as exc:
            raise self._fail(exc) from exc
        if not isinstance(head, dict) or tuple(head.get("langs", ())) != INTL_LANGS:
            raise self._fail(ValueError(f"the header names other languages than {INTL_LANGS}"))
        return text[first + 1 :].rstrip(b"\n") if first >= 0 else b""

    def names(self, passcode: int) -> tuple[str | None, ...] | None:
        """The card's names by language (in :data:`INTL_LANGS` order), None for a card the file
        does not list."""
        body = self._body
        start = find_row(body, passcode) if body else -1
        if start < 0:
            return None
        try:
            row: list[Any] = json.loads(line_at(body, start))
        except ValueError as exc:
            raise self._fail(exc) from exc
        return tuple(row[2:])

    def name(self, passcode: int, lang: str) -> str | None:
        """The card's name in ``lang`` (one of :data:`INTL_LANGS`), None when it has none."""
        names = self.names(passcode)
        i = INTL_LANGS.index(lang)
        return names[i] if names and i < len(names) else None

    @cached_property
    def _rows(self) -> list[list[Any]]:
        """Every row, parsed (on the first name table built)."""
        try:
            return [json.loads(line) for line in self._body.splitlines() if line.strip()]
        except ValueError as exc:
            raise self._fail(exc) from exc

    @cached_property
    def table(self) -> dict[str, list[list[int]]]:
        """Normalised name -> ``[[priority, passcode, language id]]`` over every row (built on
        the first name not found in English, Japanese or Chinese)."""
        return build_intl_table(self._rows)

    def script_table(self, script: str) -> dict[str, list[list[int]]]:
        """The name table of the languages written in ``script`` only (``cjk``: Traditional
        Chinese; ``hangul``: Korean; ``latin``: the five European languages), built on its
        first search: a search answers in the query's own script, so a Chinese search needs
        none of the 70,000 European names."""
        built = self._scripts.get(script)
        if built is None:
            built = self._scripts[script] = build_intl_table(self._rows, intl_langs_of(script))
        return built
