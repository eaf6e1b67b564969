"""Languages of deckcheck's own output: English, Japanese and Simplified Chinese.

Every string a reporter writes for people (headings, labels, violation messages, fixes) is
declared once here in English (:data:`MESSAGES`, keyed by a stable id) and translated in gettext
message catalogs shipped with the package (``reporter/locale/ja.po``, ``zh.po``; ``msgctxt`` is
the id, ``msgid`` the English text). Codes, JSON field names and exit codes are never
translated. A string a catalog lacks falls back to English.

Violation messages are translated from the violation's code and the values it already carries
(card name, passcode, counts, section); a card name is written in the chosen language through
the card index, in English (marked by the caller) when the card has no name in it. English
output is the engine's own message, unchanged.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from deckcheck.boundary import read_data

if TYPE_CHECKING:
    from deckcheck.card import Card, CardIndex
    from deckcheck.validation.report import Violation

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""Where the message catalogs are (one ``LANG.po`` per language but English)."""


class Lang(enum.StrEnum):
    """Output languages (``--lang``, ``DECKCHECK_LANG``)."""

    EN = "en"
    JA = "ja"
    ZH = "zh"
    """Simplified Chinese (the card data's ``zh-CN`` names)."""


def resolve_lang(value: str | None = None, environ: dict[str, str] | None = None) -> Lang:
    """The language asked for: ``value``, else ``DECKCHECK_LANG``, else the locale
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``ja_JP.UTF-8`` is Japanese, ``zh_CN`` Chinese),
    else English.

    Raises :class:`~deckcheck.error.InputError` for a value (or ``DECKCHECK_LANG``) that is not
    ``en``, ``ja`` or ``zh``.
    """
    env = os.environ if environ is None else environ
    if value is None and env.get("DECKCHECK_LANG"):
        value = env["DECKCHECK_LANG"]
    if value is not None:
        return parse_lang(value)
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        loc = env.get(var, "").strip().lower()
        if loc:
            return {"ja": Lang.JA, "zh": Lang.ZH}.get(loc[:2], Lang.EN)
    return Lang.EN


def parse_lang(value: str) -> Lang:
    """``en``, ``ja`` or ``zh`` (also ``zh-CN``, ``ja-JP``, any case) as a :class:`Lang`."""
    from deckcheck.error import InputError

    key = value.strip().lower().replace("_", "-")
    if key in ("zh-cn", "zh-hans", "cn"):
        key = "zh"
    elif key == "ja-jp" or key == "jp":
        key = "ja"
    try:
        return Lang(key)
    except ValueError:
        raise InputError(f"unknown language {value!r}; valid: en, ja, zh") from None


MESSAGES: dict[str, str] = {
    # language names (the fallback note says which language a name is missing in)
    "lang.en": "English",
    "lang.ja": "Japanese",
    "lang.zh": "Chinese",
    # text report
    "report.legal": "LEGAL",
    "report.illegal": "ILLEGAL",
    "report.era": "era {era}",
    "report.list": "list {name} ({date})",
    "report.counts": "main {main} / extra {extra} / side {side}",
    "report.points": "points {points}/{cap}",
    "report.line": "line {line}",
    "report.summary": "{decks} decks: {legal} legal, {illegal} illegal",
    "report.unreadable": "{n} unreadable",
    "severity.error": "error",
    "severity.warning": "warning",
    "severity.note": "note",
    "section.main": "main",
    "section.extra": "extra",
    "section.side": "side",
    # the HTML report
    "html.title": "deckcheck: {format} on {date}",
    "html.heading": "Deck registrations: {format}, {date}",
    "html.checked": "Checked by deckcheck against data as of {as_of} (fingerprint {fingerprint}).",
    "html.unknown": "unknown",
    "html.attention": "Needs attention ({n})",
    "html.all": "All registrations",
    "html.all_legal": "Every registered deck is legal.",
    "html.fix": "Fix:",
    "html.duplicate": "Player id {player_id} was already registered on row {row}.",
    "html.duplicate_fix": "Keep one registration per player.",
    "html.unreadable_fix": "Ask for a readable deck file (.ydk, ydke:// URL, text list, Omega "
    "code or deckcheck JSON).",
    "html.row_label": "row {row}",
    "count.registrations": "registrations",
    "count.legal": "legal",
    "count.illegal": "illegal",
    "count.unreadable": "unreadable",
    "count.duplicates": "duplicates",
    "count.errors": "errors",
    "count.warnings": "warnings",
    "status.legal": "legal",
    "status.illegal": "illegal",
    "status.unreadable": "unreadable",
    "status.duplicate": "duplicate",
    "col.row": "Row",
    "col.player_id": "Player id",
    "col.player": "Player",
    "col.deck": "Deck",
    "col.source": "Source",
    "col.status": "Status",
    "col.errors": "Errors",
    "col.warnings": "Warnings",
    "col.main": "Main",
    "col.extra": "Extra",
    "col.side": "Side",
    "col.codes": "Codes",
    "col.fingerprint": "Fingerprint",
    "html.fix_path": "Correct the deck path on row {row} of {file}: it must name a deck file "
    "inside the CSV's folder, relative to it.",
    "html.fix_column": "Fill in the deck column on row {row} of {file}.",
    "html.adds_up": "Legal, illegal and unreadable add up to the registrations; duplicates are "
    "counted among them.",
    "html.skipped": "Skipped files ({n})",
    "count.of_duplicates": "of them duplicates",
    "count.skipped": "files skipped",
    "col.cards": "Main/Extra/Side",
    # deck text lists (convert --to text): section headings
    "list.main": "Main Deck",
    "list.extra": "Extra Deck",
    "list.side": "Side Deck",
    # the registration sheet
    "sheet.title": "Deck Registration Sheet",
    "sheet.player": "Player name",
    "sheet.player_id": "Player ID",
    "sheet.event": "Event",
    "sheet.date": "Date",
    "sheet.format": "Format",
    "sheet.deck": "Deck name",
    "sheet.monster": "Monster Cards",
    "sheet.spell": "Spell Cards",
    "sheet.trap": "Trap Cards",
    "sheet.other": "Other / unknown",
    "sheet.main": "Main Deck",
    "sheet.extra": "Extra Deck",
    "sheet.side": "Side Deck",
    "sheet.qty": "Qty",
    "sheet.card": "Card name",
    "sheet.total": "Total",
    "sheet.totals": "Deck totals",
    "sheet.legal": "Legal on {date}, list {list}",
    "sheet.legal_nolist": "Legal on {date}",
    "sheet.illegal": "Not legal on {date}: {n} errors",
    "sheet.more": "... and {n} more",
    "sheet.fallback": "* no {language} name: the English name is shown",
    "sheet.deck_fp": "Deck fingerprint",
    "sheet.data_fp": "Data fingerprint",
    "sheet.qr": "Scan for the deck (ydke:// URL)",
    "sheet.judge": "Judge use",
    "sheet.page": "Page {page} of {pages}",
    "sheet.signature": "Signature",
}
"""Every string deckcheck writes for people, in English, by id (``{name}`` fields filled in)."""

_VIOLATIONS: dict[str, str] = {
    "main-size": "Main Deck has {found} cards; the limit is {allowed}",
    "extra-size": "Extra Deck has {found} cards; the limit is {allowed}",
    "side-size": "Side Deck has {found} cards; allowed: {allowed}",
    "copies": "{found} copies of {name}; at most {allowed} of a card name: remove {excess}",
    "forbidden": "{name} is Forbidden: remove all {found}",
    "over-limit": "{name}: the list allows {allowed}, the deck has {found}: remove {excess}",
    "not-in-pool": "{name} is not in this format's card pool on the date: remove it",
    "wrong-section": "{name} cannot be in the {section} deck: move it",
    "not-a-deck-card": "{name} is never a deck card: remove it",
    "unknown-card": "unknown card {name}: check it, or remove the line",
    "ambiguous-card": "{name} matches several cards: write its passcode",
    "unofficial-card": "{name} is not an official card: remove it",
    "prerelease": "{name} is written with pre-release code {passcode}: use its released passcode",
    "prerelease-code": "pre-release code {passcode} read as the released card {name}",
    "points-over-cap": "the deck has {found} points; the cap is {allowed}",
    "forbidden-type": "{name} is of a card type this format bans: remove it",
    "legend-limit": "{found} Legend cards; at most {allowed}: remove {excess}",
    "limit-group": "{found} cards of the {name} group; at most {allowed}: remove {excess}",
    "skill-count": "the deck has {found} Skill cards; it needs exactly {allowed}",
    "parse": "a line could not be read: {text}",
    "upcoming-change": "{name}: its status changes on an announced list; the deck has {found}",
    "treated-as": "{name} counts toward another card name's copy limit",
    "date-out-of-range": "the date is after the ban-list data ends; a newer list may be in force",
    "release-date-unknown": "{name}: no source dates its release in the region; it is assumed "
    "released",
    "missing-sections": "the file has no Extra or Side Deck header (truncated?)",
}


def _code_messages() -> None:
    from deckcheck.validation.report import CODE_FIX, Code

    for code in Code:
        MESSAGES[f"violation.{code.value}"] = _VIOLATIONS[code.value]
        MESSAGES[f"fix.{code.value}"] = CODE_FIX[code]


_code_messages()


def fields_of(template: str) -> set[str]:
    """The ``{field}`` names a template uses."""
    import string

    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


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


def card_name(card: Card, lang: Lang | str) -> tuple[str, bool]:
    """The card's name in ``lang`` and whether it is the English name standing in for a
    missing one (True: mark it)."""
    lang = Lang(lang)
    if lang is Lang.JA and card.name_ja:
        return card.name_ja, False
    if lang is Lang.ZH and card.name_zh:
        return card.name_zh, False
    return card.name, lang is not Lang.EN


@dataclass(frozen=True)
class Localizer:
    """Names and messages in one language, card names looked up in ``index``."""

    lang: Lang = Lang.EN
    index: CardIndex | None = field(default=None, compare=False)

    def t(self, key: str, **values: object) -> str:
        """Message ``key`` in this language."""
        return t(self.lang, key, **values)

    def name(self, passcode: int | None, english: str | None) -> str | None:
        """A card's name in this language (English when it has none, or is unknown)."""
        if self.lang is Lang.EN or passcode is None or self.index is None:
            return english
        from deckcheck.error import UnknownCardError

        try:
            card = self.index.get(passcode)
        except (UnknownCardError, KeyError):
            return english
        return card_name(card, self.lang)[0]

    def violation(self, v: Violation) -> str:
        """The violation's message in this language (the engine's own message in English)."""
        if self.lang is Lang.EN:
            return v.message
        code = v.code.value
        name = self.name(v.passcode, v.name) or v.text
        values: dict[str, object] = {
            "name": name,
            "found": v.found,
            "allowed": v.allowed,
            "passcode": v.passcode,
            "text": v.text,
            "section": self.t(f"section.{v.section}") if v.section else None,
            "excess": abs(v.found - v.allowed)
            if v.found is not None and v.allowed is not None
            else None,
        }
        template = MESSAGES[f"violation.{code}"]
        if all(values.get(f) is not None for f in fields_of(template)):
            return self.t(f"violation.{code}", **{f: values[f] for f in fields_of(template)})
        fix = self.t(f"fix.{code}")
        return f"{name}: {fix}" if name else fix


def localizer(lang: Lang | str | None) -> Localizer:
    """A :class:`Localizer` for ``lang`` (None: English) over the active dataset's cards."""
    language = Lang(lang) if lang else Lang.EN
    if language is Lang.EN:
        return Localizer()
    return _localizer(language)


@cache
def _localizer(lang: Lang) -> Localizer:
    from deckcheck.data.dataset import resolve_data

    return Localizer(lang, resolve_data(None).cards)


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal columns (wide characters count 2)."""
    import unicodedata

    used = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(0, width - used)
