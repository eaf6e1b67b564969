"""Output languages: the ``--lang`` values, their aliases, the locale and ``Accept-Language``."""

from __future__ import annotations

import enum
import os


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
