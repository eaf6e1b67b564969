"""The message catalogs (``reporter/locale/LANG.po``): read, looked up, fields filled in; dates
and numbers as each language writes them."""

from __future__ import annotations

from datetime import date
from functools import cache
from pathlib import Path

from deckcheck.boundary import read_data
from deckcheck.reporter.i18n.lang import Lang
from deckcheck.reporter.i18n.message import MESSAGES

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the message catalogs are (one ``LANG.po`` per language but English)."""


def _unquote(text: str) -> str:
    import ast

    value = ast.literal_eval(text)
    if not isinstance(value, str):
        raise ValueError(text)
    return value


def parse_po(text: str) -> dict[str, tuple[str, str]]:
    """A gettext ``.po`` catalog as ``{msgctxt: (msgid, msgstr)}`` (entries without context
    are keyed by their ``msgid``; the header entry is left out)."""
    entries: dict[str, tuple[str, str]] = {}
    current: dict[str, str] = {}
    key: str | None = None

    def flush() -> None:
        if current.get("msgid"):
            ctx = current.get("msgctxt", current["msgid"])
            entries[ctx] = (current["msgid"], current.get("msgstr", ""))
        current.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word in ("msgctxt", "msgid", "msgstr"):
            if word in current or (word == "msgctxt" and current):
                flush()
            key = word
            current[key] = _unquote(rest)
        elif line.startswith('"') and key is not None:
            current[key] = current.get(key, "") + _unquote(line)
    flush()
    return entries


@cache
def catalog(lang: Lang) -> dict[str, str]:
    """The translations of ``lang`` by message id (empty for English); entries whose English
    text is no longer the current one are left out (they fall back to English)."""
    if lang is Lang.EN:
        return {}
    path = LOCALE_DIR / f"{lang.value}.po"
    entries = parse_po(read_data(path).decode("utf-8"))
    return {
        key: text for key, (msgid, text) in entries.items() if text and MESSAGES.get(key) == msgid
    }


def t(lang: Lang | str, key: str, **values: object) -> str:
    """Message ``key`` in ``lang`` (English where it has no translation), fields filled in."""
    text = catalog(Lang(lang)).get(key) or MESSAGES[key]
    return text.format(**values) if values else text


def error_message(lang: Lang | str, code: str, message: str) -> str:
    """An error in ``lang``: what its code means, then the English ``message`` (which names the
    place); just the message for a code without a translation."""
    key = f"error.{code}"
    if key not in MESSAGES:
        return message
    return t(lang, "error.with_detail", reason=t(lang, key), detail=message)


def format_date(value: date, lang: Lang | str) -> str:
    """``value`` as the language writes a date: ISO ``2025-06-01`` in English, ``2025年6月1日``
    in Japanese and Chinese, ``2025년 6월 1일`` in Korean."""
    if Lang(lang) is Lang.EN:
        return value.isoformat()
    return t(lang, "date.long", year=value.year, month=value.month, day=value.day)


def format_number(value: int, lang: Lang | str) -> str:
    """``value`` with the language's digit grouping (``12,345`` in all four)."""
    return f"{value:,}"
