"""Bring the message catalogs (``deckcheck/reporter/locale/*.po``) in line with the messages.

``python scripts/sync_catalogs.py`` rewrites each catalog in the order of
``deckcheck.reporter.i18n.MESSAGES``: translations of the current English text are kept, entries
whose English changed or that are new get an empty ``msgstr`` (to translate), and entries of ids
that no longer exist are dropped. It prints what needs translating and exits 1 if anything does
(``tests/test_i18n.py`` checks the same, so a build with an untranslated message fails).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckcheck.reporter.i18n import LOCALE_DIR, MESSAGES, fields_of, parse_po  # noqa: E402

_NAMES = {"ja": "Japanese", "zh": "Simplified Chinese", "ko": "Korean"}


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def render(lang: str, translated: dict[str, str]) -> str:
    """The ``.po`` text of ``lang`` with the given translations (id -> text)."""
    out = [
        f"# deckcheck's messages in {_NAMES.get(lang, lang)}.",
        "# msgctxt: the message id (reporter/i18n/message.py MESSAGES); msgid: the English text.",
        "# Regenerate the layout with scripts/sync_catalogs.py.",
        'msgid ""',
        'msgstr ""',
        '"Project-Id-Version: deckcheck\\n"',
        '"PO-Revision-Date: 2026-12-01 22:00+0000\\n"',
        '"Last-Translator: deckcheck maintainers\\n"',
        '"Language-Team: deckcheck\\n"',
        f'"Language: {lang}\\n"',
        '"MIME-Version: 1.0\\n"',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Content-Transfer-Encoding: 8bit\\n"',
        "",
    ]
    for key, english in MESSAGES.items():
        if fields_of(english):
            out.append("#, python-brace-format")
        out += [
            f"msgctxt {_quote(key)}",
            f"msgid {_quote(english)}",
            f"msgstr {_quote(translated.get(key, ''))}",
            "",
        ]
    return "\n".join(out)


def sync(lang: str, extra: dict[str, str] | None = None) -> list[str]:
    """Rewrite ``lang``'s catalog (``extra``: new translations by id); the ids left to translate."""
    path = LOCALE_DIR / f"{lang}.po"
    entries = parse_po(path.read_text(encoding="utf-8")) if path.exists() else {}
    kept = {k: text for k, (msgid, text) in entries.items() if MESSAGES.get(k) == msgid and text}
    kept.update(extra or {})
    path.write_text(render(lang, kept), encoding="utf-8")
    return [k for k in MESSAGES if not kept.get(k)]


def main() -> int:
    """Sync every catalog; 1 when a message lacks a translation."""
    missing = 0
    for path in sorted(LOCALE_DIR.glob("*.po")):
        todo = sync(path.stem)
        for key in todo:
            print(f"{path.name}: {key}: {MESSAGES[key]!r}")
        missing += len(todo)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
