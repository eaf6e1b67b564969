"""Languages of deckcheck's own output: English, Japanese, Simplified Chinese and Korean.

Every string a reporter writes for people (headings, labels, violation messages, fixes) is
declared once in English (:data:`MESSAGES` of :mod:`.message`, keyed by a stable id) as a
template with named
``{fields}``, and translated in gettext message catalogs shipped with the package
(``reporter/locale/ja.po``, ``zh.po``, ``ko.po``; ``msgctxt`` is the id, ``msgid`` the English
text). A translation uses exactly the fields of its English template (``tests/test_i18n.py``
fails the build otherwise), so no fact is dropped or invented. Codes, JSON field names, CSV
headings and exit codes are never translated. A catalog is read only when its language is
asked for; a string it lacks falls back to English.

Violation messages are translated from the violation's code, the values it carries (card name,
passcode, counts, section) and its named :attr:`~deckcheck.validation.report.Violation.facts`
(ban list, dates, suggestions, :class:`~deckcheck.rule.reason.Reason` details...): of the
templates of a code (``violation.CODE`` and its variants ``violation.CODE+...``) the one using
the most facts the violation has is chosen; a reason is translated from its own template
(``reason.ID``) and values. A card name is written in the chosen language through
:func:`card_name`, from the card index (the one place that knows which names the data has), in
English (marked by the caller) when the card has no name in it. English output is the engine's
own message, unchanged.

The modules: :mod:`.lang` (the languages, ``--lang``, the locale, ``Accept-Language``),
:mod:`.message` (the English templates), :mod:`.catalog` (the catalogs, dates and numbers),
:mod:`.localizer` (one language's names and messages).
"""

from __future__ import annotations

from deckcheck.reporter.i18n.catalog import (
    LOCALE_DIR,
    catalog,
    error_message,
    format_date,
    format_number,
    parse_po,
    t,
)
from deckcheck.reporter.i18n.lang import (
    LANG_VALUES,
    Lang,
    accept_language,
    parse_lang,
    resolve_lang,
)
from deckcheck.reporter.i18n.localizer import Localizer, card_name, localizer, pad
from deckcheck.reporter.i18n.message import MESSAGES, fields_of, templates_of

__all__ = [
    "LANG_VALUES",
    "LOCALE_DIR",
    "MESSAGES",
    "Lang",
    "Localizer",
    "accept_language",
    "card_name",
    "catalog",
    "error_message",
    "fields_of",
    "format_date",
    "format_number",
    "localizer",
    "pad",
    "parse_lang",
    "parse_po",
    "resolve_lang",
    "t",
    "templates_of",
]
