"""Names and messages in one language: card names from the index, violations from their code
and facts, the reasons of skipped and unreadable sources."""

from __future__ import annotations

from datetime import date
from functools import cache
from typing import TYPE_CHECKING

from msgspec import Struct

from deckcheck.card.release import Region
from deckcheck.reporter.i18n.catalog import format_date, format_number, t
from deckcheck.reporter.i18n.lang import Lang, parse_lang
from deckcheck.reporter.i18n.message import MESSAGES, fields_of, templates_of
from deckcheck.rule.reason import Reason

if TYPE_CHECKING:
    from collections.abc import Iterable

    from deckcheck.card import Card, CardIndex
    from deckcheck.source.record import SkipReason, UnreadableReason
    from deckcheck.validation.report import PointCard, Violation


def card_name(card: Card, lang: Lang | str, index: CardIndex) -> tuple[str, bool]:
    """The card's name in ``lang`` (from ``index``, which knows every language the data holds)
    and whether it is the English name standing in for a missing one (True: mark it, and say
    once that English stands in)."""
    language = Lang(lang)
    if language is Lang.EN:
        return card.name, False
    local = index.name_in(card, language.value)
    if local:
        return local, False
    return card.name, True


class Localizer(Struct, frozen=True):
    """Names and messages in one language, card names looked up in ``index`` (two localizers
    of one language are equal, whatever their index)."""

    lang: Lang = Lang.EN
    index: CardIndex | None = None

    def __eq__(self, other: object) -> bool:
        if type(other) is not Localizer:
            return NotImplemented
        return bool(self.lang == other.lang)

    def __hash__(self) -> int:
        return hash(self.lang)

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
        return card_name(card, self.lang, self.index)[0]

    def point_card(self, card: PointCard) -> str:
        """``3x Name 20 = 60`` with the card's name in this language."""
        if self.lang is Lang.EN:
            return card.label()
        from msgspec.structs import replace

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
                if card_name(self.index.get(passcode), self.lang, self.index)[1]:
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
        values.update(self._facts(facts, self.name(v.passcode, v.name)))
        if found is not None and allowed is not None:
            how = facts.get("fix") or ("add" if found < allowed else "remove")
            values[str(how)] = abs(found - allowed) if how != "exact" else allowed
        if "min" in facts:
            values["rule"] = self._rule(facts, allowed)
        return {k: val for k, val in values.items() if val is not None}

    def _facts(self, facts: dict[str, object], name: str | None) -> dict[str, object]:
        """A violation's facts as its templates write them (dates, list statuses, card kinds
        and reasons in this language, ``name`` the card's; the size rule's own facts left to
        :meth:`_rule`)."""
        out: dict[str, object] = {}
        for key, fact in facts.items():
            if isinstance(fact, Reason):
                out[key] = self.reason(fact, name)
            elif isinstance(fact, date):
                out[key] = self.date(fact)
            elif key == "status" and isinstance(fact, int):
                out[key] = self.t(f"banstatus.{min(fact, 3)}")
            elif key == "kind":
                out[key] = self.t(f"kind.{fact}")
            elif key not in ("min", "max", "fix"):
                out[key] = fact
        return out

    def reason(self, reason: Reason, name: str | None = None) -> str:
        """A reason in this language from its template and values (``name``: the card's name
        in this language, for the card the reason names)."""
        if self.lang is Lang.EN:
            return str(reason)
        values: dict[str, object] = {}
        for key, value in reason.fields.items():
            if isinstance(value, Region):
                values[key] = self.t(f"region.{value.value}")
            elif isinstance(value, date):
                values[key] = self.date(value)
            else:  # card, list and format names as the data writes them; a source by its key
                values[key] = name if key == "name" and name else value
        return self.t(f"reason.{reason.key}", **values)

    def _rule(self, facts: dict[str, object], allowed: int | None) -> str:
        """A size rule in words: ``40–60``, ``at least 40``, ``exactly 40``, ``0 or 15``."""
        low, high = facts["min"], facts.get("max")
        if facts.get("fix") == "exact":
            return self.t("rule.zero_or", n=allowed)
        if high is None:
            return self.t("rule.at_least", min=low)
        if high == low:
            return self.t("rule.exactly", min=low)
        return self.t("rule.range", min=low, max=high)


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
