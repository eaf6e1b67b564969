"""Languages of deckcheck's own output: English, Japanese, Simplified Chinese and Korean.

Every string a reporter writes for people (headings, labels, violation messages, fixes) is
declared once here in English (:data:`MESSAGES`, keyed by a stable id) as a template with named
``{fields}``, and translated in gettext message catalogs shipped with the package
(``reporter/locale/ja.po``, ``zh.po``, ``ko.po``; ``msgctxt`` is the id, ``msgid`` the English
text). A translation uses exactly the fields of its English template (``tests/test_i18n.py``
fails the build otherwise), so no fact is dropped or invented. Codes, JSON field names, CSV
headings and exit codes are never translated. A catalog is read only when its language is
asked for; a string it lacks falls back to English.

Violation messages are translated from the violation's code, the values it carries (card name,
passcode, counts, section) and its named :attr:`~deckcheck.validation.report.Violation.facts`
(ban list, dates, suggestions...): of the templates of a code (``violation.CODE`` and its
variants ``violation.CODE+...``) the one using the most facts the violation has is chosen. A
card name is written in the chosen language through :func:`card_name` (the one place that knows
which names the data has), in English (marked by the caller) when the card has no name in it.
English output is the engine's own message, unchanged.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from deckcheck.boundary import read_data

if TYPE_CHECKING:
    from collections.abc import Iterable

    from deckcheck.card import Card, CardIndex
    from deckcheck.source.record import SkipReason, UnreadableReason
    from deckcheck.validation.report import PointCard, Violation

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""Where the message catalogs are (one ``LANG.po`` per language but English)."""


class Lang(enum.StrEnum):
    """Output languages (``--lang``, ``DECKCHECK_LANG``)."""

    EN = "en"
    JA = "ja"
    ZH = "zh"
    """Simplified Chinese (``zh-Hans``; the card data's ``zh-CN`` names)."""
    KO = "ko"
    """Korean."""

    @property
    def tag(self) -> str:
        """The BCP 47 tag (HTML ``lang``, ``Content-Language``): ``en``, ``ja``, ``zh-Hans``,
        ``ko``."""
        return "zh-Hans" if self is Lang.ZH else self.value


LANG_VALUES = "en, ja, zh (zh-Hans), ko"
"""The ``--lang`` values, as the help and the errors list them."""

_ALIASES = {
    "zh-cn": "zh",
    "zh-hans": "zh",
    "zh-sg": "zh",
    "zh-hans-cn": "zh",
    "cn": "zh",
    "ja-jp": "ja",
    "jp": "ja",
    "ko-kr": "ko",
    "kr": "ko",
    "en-us": "en",
    "en-gb": "en",
}


def resolve_lang(value: str | None = None, environ: dict[str, str] | None = None) -> Lang:
    """The language asked for: ``value``, else ``DECKCHECK_LANG``, else the locale
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``ja_JP.UTF-8`` is Japanese, ``zh_CN`` Chinese,
    ``ko_KR`` Korean), else English.

    Raises :class:`~deckcheck.error.InputError` for a value (or ``DECKCHECK_LANG``) that is not
    one of :data:`LANG_VALUES`.
    """
    env = os.environ if environ is None else environ
    if value is None and env.get("DECKCHECK_LANG"):
        value = env["DECKCHECK_LANG"]
    if value is not None:
        return parse_lang(value)
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        loc = env.get(var, "").strip().lower()
        if loc:
            return _LOCALE_LANG.get(loc[:2], Lang.EN)
    return Lang.EN


_LOCALE_LANG = {"ja": Lang.JA, "zh": Lang.ZH, "ko": Lang.KO}


def _lang_of(value: str) -> Lang | None:
    key = value.strip().lower().replace("_", "-")
    key = _ALIASES.get(key, key)
    try:
        return Lang(key)
    except ValueError:
        return None


def parse_lang(value: str) -> Lang:
    """``en``, ``ja``, ``zh`` or ``ko`` (also ``zh-Hans``, ``zh-CN``, ``ja-JP``, ``ko-KR``, any
    case) as a :class:`Lang`; :class:`~deckcheck.error.InputError` for anything else."""
    from deckcheck.error import InputError

    got = _lang_of(value)
    if got is None:
        raise InputError(f"unknown language {value!r}; valid: {LANG_VALUES}")
    return got


def accept_language(header: str | None) -> Lang:
    """The language an HTTP ``Accept-Language`` header prefers among deckcheck's (highest
    ``q`` first, then the header's order; ``zh-TW`` and ``zh-Hant`` are not Simplified
    Chinese); English when it names none of them, or is missing or malformed."""
    best: tuple[float, int, Lang] | None = None
    for order, part in enumerate((header or "")[:1024].split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                continue
        lowered = tag.strip().lower()
        if lowered.startswith(("zh-tw", "zh-hk", "zh-mo", "zh-hant")):
            continue
        got = _lang_of(lowered) or _lang_of(lowered.split("-")[0])
        if got is not None and q > 0 and (best is None or (-q, order) < (-best[0], best[1])):
            best = (q, order, got)
    return best[2] if best else Lang.EN


MESSAGES: dict[str, str] = {
    # language names (the fallback note says which language a name is missing in)
    "lang.en": "English",
    "lang.ja": "Japanese",
    "lang.zh": "Chinese",
    "lang.ko": "Korean",
    # text report
    "report.legal": "LEGAL",
    "report.illegal": "ILLEGAL",
    "report.era": "era {era}",
    "report.list": "list {name} ({date})",
    "report.counts": "main {main} / extra {extra} / side {side}",
    "report.points": "points {points}/{cap}",
    "report.point_cards": "points: {cards}",
    "report.no_point_cards": "no card with points",
    "report.line": "line {line}",
    "report.summary": "{decks} decks: {legal} legal, {illegal} illegal",
    "report.unreadable": "{n} unreadable",
    "report.fallback": "{n} cards have no {language} name: their English name is written",
    "report.skipped": "skipped {n} paths that are not decks ({reasons}; e.g. {example})",
    "html.points": "{points}/{cap} points: {cards}",
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
    # the command line's own lines (the error:/warning:/note: prefixes stay, as codes do)
    "cli.checked": "checked {done}: {source}",
    "cli.nothing": "nothing to check: the configuration excludes every file given",
    "cli.strict": "--strict: {n} warnings count as failures",
    "cli.more_unreadable": "... and {n} more unreadable",
    "cli.duplicate": "{file}: row {row}: player id {player_id} is already registered on row "
    "{first}",
    "cli.skipped_files": "skipped {n} files that are not decks ({reasons}); report.json and "
    "report.html list them",
    "cli.batch_summary": "{n} registrations: {legal} legal, {illegal} illegal, {unreadable} "
    "unreadable",
    "cli.batch_duplicates": "({n} of them duplicates)",
    "cli.wrote": "wrote {files} to {folder}",
    "cli.left_out": "left out {n} lines naming no card:",
    # the metagame (deckcheck meta, the batch HTML's section)
    "meta.title": "Metagame",
    "meta.heading": "Metagame ({decks} decks)",
    "meta.none_read": "No deck could be read.",
    "meta.chart": "Archetypes by share of decks",
    "meta.archetype": "Archetype",
    "meta.kind": "Kind",
    "meta.decks": "Decks",
    "meta.share": "Share",
    "meta.card": "Card",
    "meta.share_of_decks": "Share of decks",
    "meta.average": "Average copies",
    "meta.most_played": "Most played cards",
    "meta.main": "Main Deck staples (Main + Extra)",
    "meta.side": "Side Deck staples",
    "meta.no_cards": "None.",
    "meta.kind.archetype": "archetype",
    "meta.kind.hybrid": "hybrid",
    "meta.kind.rogue": "rogue",
    # why a source could not be read, by its code (why a scan left a path out: skip.CODE, the
    # words of deckcheck.source.record.SKIP_MEANING)
    "unreadable.missing": "no such file or folder",
    "unreadable.special-file": "a special file (FIFO, device or socket)",
    "unreadable.os-error": "the system refused to read it",
    "unreadable.broken-link": "a broken symbolic link",
    "unreadable.no-decks": "nothing to read in it",
    "unreadable.bad-archive": "the zip archive cannot be used",
    "unreadable.bad-registrations": "the registrations CSV cannot be used",
    "unreadable.unsafe-entry": "an unsafe zip entry name",
    "unreadable.bad-entry": "a zip entry refused as stored",
    "unreadable.no-deck-given": "no deck given",
    "unreadable.bad-deck-path": "a deck path that names no deck file inside the CSV's folder",
    "unreadable.too-large": "over a size or card-count limit",
    "unreadable.bad-encoding": "not text in a supported encoding",
    "unreadable.bad-syntax": "broken structure",
    "unreadable.unreadable-deck": "the deck could not be read",
    "unreadable.not-a-deck": "no line names a card",
    "unreadable.check-failed": "read, but it could not be checked",
    "unreadable.internal-error": "an internal error (please report it)",
    "unreadable.with_detail": "{reason} ({detail})",
    # the service's errors, by code (the English message follows as the detail)
    "error.error": "Something went wrong",
    "error.data-error": "The card data cannot be used",
    "error.bad-input": "The input is not valid",
    "error.not-found": "Not found",
    "error.goldfish-error": "The simulation cannot run",
    "error.deck-write-error": "The deck cannot be written in that form",
    "error.update-failed": "The data update failed",
    "error.offline": "The data source cannot be reached",
    "error.unknown-card": "Unknown card",
    "error.ambiguous-card": "The name matches several cards",
    "error.unknown-format": "Unknown format",
    "error.unreadable-deck": "The deck cannot be read",
    "error.too-large": "The input is too large",
    "error.unknown-deck-format": "Unknown deck file format",
    "error.limit-exceeded": "Over a limit of the service",
    "error.bad-argument": "A value is not valid",
    "error.output-failed": "The output cannot be written",
    "error.date-before-lists": "The date is before the format's first list",
    "error.bad-format-file": "The format file is not valid",
    "error.bad-config": "The configuration is not valid",
    "error.bad-spec": "The simulation spec is not valid",
    "error.bad-condition": "The condition is not valid",
    "error.plot-unavailable": "Plots are not available here",
    "error.sheet-unavailable": "Sheets are not available here",
    "error.bad-request": "The request is not valid",
    "error.method-not-allowed": "That method is not allowed here",
    "error.http-error": "The request failed",
    "error.internal-error": "Internal error (please report it)",
    "error.too-many-requests": "The service is busy: try again shortly",
    "error.with_detail": "{reason}: {detail}",
    # words inside violation messages
    "banstatus.0": "Forbidden",
    "banstatus.1": "Limited",
    "banstatus.2": "Semi-Limited",
    "banstatus.3": "Unlimited",
    "kind.monster": "Monster",
    "kind.spell": "Spell",
    "kind.trap": "Trap",
    "rule.range": "{min}–{max}",
    "rule.at_least": "at least {min}",
    "rule.exactly": "exactly {min}",
    "rule.zero_or": "0 or {n}",
    # dates and numbers (English keeps ISO dates)
    "date.long": "{year}-{month}-{day}",
}
"""Every string deckcheck writes for people, in English, by id (``{name}`` fields filled in)."""

_VIOLATIONS: dict[str, str] = {
    "main-size": "Main Deck has {found} cards; the limit is {allowed}",
    "main-size+add": "Main Deck has {found} cards; {era} allows {rule}: add {add}",
    "main-size+remove": "Main Deck has {found} cards; {era} allows {rule}: remove {remove}",
    "main-size+exact": "Main Deck has {found} cards; {era} allows {rule}: use exactly {exact} "
    "or none",
    "extra-size": "Extra Deck has {found} cards; the limit is {allowed}",
    "extra-size+add": "Extra Deck has {found} cards; {era} allows {rule}: add {add}",
    "extra-size+remove": "Extra Deck has {found} cards; {era} allows {rule}: remove {remove}",
    "extra-size+exact": "Extra Deck has {found} cards; {era} allows {rule}: use exactly {exact} "
    "or none",
    "side-size": "Side Deck has {found} cards; allowed: {allowed}",
    "side-size+add": "Side Deck has {found} cards; {era} allows {rule}: add {add}",
    "side-size+remove": "Side Deck has {found} cards; {era} allows {rule}: remove {remove}",
    "side-size+exact": "Side Deck has {found} cards; {era} allows {rule}: use exactly {exact} "
    "or none",
    "copies": "{found} copies of {name}; at most {allowed} of a card name (Main + Extra + Side): "
    "remove {excess}",
    "forbidden": "{name} is Forbidden: remove all {found}",
    "forbidden+list": "{name} is Forbidden on the {list} list: remove all {found}",
    "over-limit": "{name}: the list allows {allowed}, the deck has {found}: remove {excess}",
    "over-limit+list": "{name} is {status} ({allowed}) on the {list} list; the deck has {found}: "
    "remove {excess}",
    "not-in-pool": "{name} is not in this format's card pool on the date: remove it",
    "not-in-pool+list": "{name} is not on the {list} card list: remove it",
    "not-in-pool+detail": "{name} is not in this format's card pool ({detail}): remove it",
    "wrong-section": "{name} cannot be in the {section} deck: move it",
    "not-a-deck-card": "{name} is never a deck card: remove it",
    "unknown-card": "unknown card {name}: check it, or remove the line",
    "unknown-card+suggestions": "unknown card {name}: check it, or remove the line; did you "
    "mean: {suggestions}?",
    "ambiguous-card": "{name} matches several cards: write its passcode",
    "ambiguous-card+suggestions": "{name} matches several cards ({suggestions}): write its "
    "passcode",
    "unofficial-card": "{name} is not an official card: remove it",
    "prerelease": "{name} is written with pre-release code {passcode}: it is not released yet",
    "prerelease+released": "{name} is written with pre-release code {passcode}: it has been "
    "released: use passcode {released}",
    "prerelease-code": "pre-release code {passcode} read as the released card {name}",
    "points-over-cap": "the deck has {found} points; the cap is {allowed}: cut {excess}",
    "forbidden-type": "{name} is of a card type this format bans: remove it",
    "forbidden-type+format": "{name} is of a card type {format} bans: remove it",
    "legend-limit": "{found} Legend cards; at most {allowed}: remove {excess}",
    "legend-limit+date": "{found} Legend cards; at most {allowed} in total on {date}: remove "
    "{excess}",
    "legend-limit+kind": "{found} Legend {kind} cards; at most {allowed}: remove {excess}",
    "limit-group": "{found} cards of the {name} group; at most {allowed}: remove {excess}",
    "limit-group+list": "{found} cards from the Limited {allowed} group of the {list} list "
    "({cards}); at most {allowed} in total from that group: remove {excess}",
    "skill-count": "the deck has {found} Skill cards; it needs exactly {allowed}",
    "skill-count+add": "the deck has {found} Skill cards; {format} needs exactly {allowed}: add "
    "{add}",
    "skill-count+remove": "the deck has {found} Skill cards; {format} needs exactly {allowed}: "
    "keep {allowed}, remove {remove}",
    "parse": "a line could not be read: {text}",
    "upcoming-change": "{name}: its status changes on an announced list; the deck has {found}",
    "upcoming-change+list": "{name} becomes {status} on {date} ({list}); the deck has {found}",
    "treated-as": "{name} counts toward another card name's copy limit",
    "treated-as+other": "{name} is always treated as {other}: counted as {other}",
    "date-out-of-range": "the date is after the ban-list data ends; a newer list may be in force",
    "date-out-of-range+detail": "the date is outside the ban-list data ({detail})",
    "release-date-unknown": "{name}: no source dates its release in the region; it is assumed "
    "released",
    "release-date-unknown+detail": "{name}: its release date is unsure ({detail}): check it",
    "missing-sections": "the file has no Extra or Side Deck header (truncated?)",
}
"""Violation message templates by code (``CODE+FACT``: a variant that says more)."""


def _code_messages() -> None:
    from deckcheck.source.record import SKIP_MEANING
    from deckcheck.validation.report import CODE_FIX, Code

    for key, template in _VIOLATIONS.items():
        MESSAGES[f"violation.{key}"] = template
    for code in Code:
        MESSAGES[f"fix.{code.value}"] = CODE_FIX[code]
    for skip, meaning in SKIP_MEANING.items():
        MESSAGES[f"skip.{skip.value}"] = meaning


_code_messages()


@cache
def templates_of(code: str) -> tuple[str, ...]:
    """The message ids of a violation code, the ones using the most fields first (the plain
    ``violation.CODE`` template last)."""
    keys = [k for k in MESSAGES if k.startswith(f"violation.{code}+")]
    keys.sort(key=lambda k: -len(fields_of(MESSAGES[k])))
    return (*keys, f"violation.{code}")


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


def error_message(lang: Lang | str, code: str, message: str) -> str:
    """An error in ``lang``: what its code means, then the English ``message`` (which names the
    place); just the message for a code without a translation."""
    key = f"error.{code}"
    if key not in MESSAGES:
        return message
    return t(lang, "error.with_detail", reason=t(lang, key), detail=message)


def card_name(card: Card, lang: Lang | str) -> tuple[str, bool]:
    """The card's name in ``lang`` and whether it is the English name standing in for a
    missing one (True: mark it, and say once that English stands in)."""
    local = card.name_in(Lang(lang).value)
    if local:
        return local, False
    return card.name, Lang(lang) is not Lang.EN


def format_date(value: date, lang: Lang | str) -> str:
    """``value`` as the language writes a date: ISO ``2025-06-01`` in English, ``2025年6月1日``
    in Japanese and Chinese, ``2025년 6월 1일`` in Korean."""
    if Lang(lang) is Lang.EN:
        return value.isoformat()
    return t(lang, "date.long", year=value.year, month=value.month, day=value.day)


def format_number(value: int, lang: Lang | str) -> str:
    """``value`` with the language's digit grouping (``12,345`` in all four)."""
    return f"{value:,}"


@dataclass(frozen=True)
class Localizer:
    """Names and messages in one language, card names looked up in ``index``."""

    lang: Lang = Lang.EN
    index: CardIndex | None = field(default=None, compare=False)

    def t(self, key: str, **values: object) -> str:
        """Message ``key`` in this language."""
        return t(self.lang, key, **values)

    def date(self, value: date) -> str:
        """A date as this language writes it."""
        return format_date(value, self.lang)

    def number(self, value: int) -> str:
        """A number as this language writes it."""
        return format_number(value, self.lang)

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

    def point_card(self, card: PointCard) -> str:
        """``3x Name 20 = 60`` with the card's name in this language."""
        if self.lang is Lang.EN:
            return card.label()
        from dataclasses import replace

        return replace(card, name=self.name(card.passcode, card.name) or card.name).label()

    def skip_reason(self, code: SkipReason) -> str:
        """Why a scan left a path out, in this language (by its code)."""
        return code.meaning if self.lang is Lang.EN else self.t(f"skip.{code.value}")

    def unreadable(self, code: UnreadableReason, error: str) -> str:
        """Why a source could not be read: ``error`` (English, naming the place) after the
        reason of ``code`` in this language."""
        if self.lang is Lang.EN:
            return error
        reason = self.t(f"unreadable.{code.value}")
        return self.t("unreadable.with_detail", reason=reason, detail=error)

    def falls_back(self, passcodes: Iterable[int | None]) -> bool:
        """Whether any of these cards has no name in this language (its English name shows:
        say so once)."""
        if self.lang is Lang.EN or self.index is None:
            return False
        from deckcheck.error import UnknownCardError

        for passcode in passcodes:
            if passcode is None:
                continue
            try:
                if card_name(self.index.get(passcode), self.lang)[1]:
                    return True
            except (UnknownCardError, KeyError):
                continue
        return False

    def fallback_note(self) -> str:
        """The one line that says English names stand in for missing ones."""
        return self.t("sheet.fallback", language=self.t(f"lang.{self.lang.value}"))

    def violation(self, v: Violation) -> str:
        """The violation's message in this language (the engine's own message in English)."""
        if self.lang is Lang.EN:
            return v.message
        code = v.code.value
        name = self.name(v.passcode, v.name) or v.text
        values = self.values(v)
        for key in templates_of(code):
            wanted = fields_of(MESSAGES[key])
            if wanted <= values.keys():
                return self.t(key, **{f: values[f] for f in wanted})
        fix = self.t(f"fix.{code}")
        return f"{name}: {fix}" if name else fix

    def values(self, v: Violation) -> dict[str, object]:
        """The fields a violation's templates may use, in this language (missing ones left
        out): its own values, its facts (dates and words translated) and what follows from
        them (how many to remove or add, the allowed size in words)."""
        found, allowed = v.found, v.allowed
        values: dict[str, object] = {
            "name": self.name(v.passcode, v.name) or v.text,
            "found": found,
            "allowed": allowed,
            "passcode": v.passcode,
            "text": v.text,
            "section": self.t(f"section.{v.section}") if v.section else None,
            "excess": abs(found - allowed) if found is not None and allowed is not None else None,
        }
        facts = dict(v.facts)
        for key, fact in facts.items():
            if isinstance(fact, date):
                values[key] = self.date(fact)
            elif key == "status" and isinstance(fact, int):
                values[key] = self.t(f"banstatus.{min(fact, 3)}")
            elif key == "kind":
                values[key] = self.t(f"kind.{fact}")
            elif key not in ("min", "max", "fix"):
                values[key] = fact
        if found is not None and allowed is not None:
            how = facts.get("fix") or ("add" if found < allowed else "remove")
            values[str(how)] = abs(found - allowed) if how != "exact" else allowed
        if "min" in facts:
            low, high = facts["min"], facts.get("max")
            if facts.get("fix") == "exact":
                values["rule"] = self.t("rule.zero_or", n=allowed)
            elif high is None:
                values["rule"] = self.t("rule.at_least", min=low)
            elif high == low:
                values["rule"] = self.t("rule.exactly", min=low)
            else:
                values["rule"] = self.t("rule.range", min=low, max=high)
        return {k: val for k, val in values.items() if val is not None}


def localizer(lang: Lang | str | None) -> Localizer:
    """A :class:`Localizer` for ``lang`` (None: English) over the active dataset's cards."""
    language = parse_lang(lang) if isinstance(lang, str) and lang else Lang(lang or Lang.EN)
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
