"""Output languages: ``--lang en|ja|zh`` (and ``DECKCHECK_LANG``, the locale) for validate's
reports, batch's CSV and HTML, ``convert --to text``; and the message catalogs complete."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from deckcheck.card import CardIndex
from deckcheck.reporter.i18n import (
    LOCALE_DIR,
    MESSAGES,
    Lang,
    Localizer,
    fields_of,
    parse_po,
    resolve_lang,
)
from deckcheck.validation.report import Code, Severity, Violation

ROOT = Path(__file__).resolve().parent.parent
PROBLEMS = ROOT / "examples" / "problems.ydk"
LEGAL = ROOT / "examples" / "tcg-legal.ydk"
ON = "2025-06-01"
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
POT_OF_GREED = 55144522
CYBER_DRAGON = 70095154


def _names(index: CardIndex, lang: str) -> list[str]:
    pick = {"ja": "name_ja", "zh": "name_zh"}[lang]
    return [getattr(index.get(p), pick) for p in (POT_OF_GREED, CYBER_DRAGON)]


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_validate_prints_names_and_messages_in_the_language(
    cli: Callable[..., Any], index: CardIndex, lang: str
) -> None:
    english = cli("validate", str(PROBLEMS), "--date", ON)
    res = cli("validate", str(PROBLEMS), "--date", ON, "--lang", lang)
    assert res.code == english.code == 1
    for name in _names(index, lang):
        assert name in res.stdout
    assert "Pot of Greed" not in res.stdout and "Forbidden" not in res.stdout
    verdict = {"ja": "使用不可", "zh": "不合规"}[lang]
    assert res.stdout.startswith(verdict)
    lines = res.stdout.splitlines()[1:]
    assert len(lines) == len(english.stdout.splitlines()) - 1
    for line, before in zip(lines, english.stdout.splitlines()[1:], strict=True):
        # the codes never change, and every message is translated
        assert line.split()[1] == before.split()[1]
        assert CJK.search(line.split(maxsplit=2)[2])


def test_english_is_unchanged_and_the_default(cli: Callable[..., Any]) -> None:
    default = cli("validate", str(PROBLEMS), "--date", ON)
    assert cli("validate", str(PROBLEMS), "--date", ON, "--lang", "en").stdout == default.stdout
    assert "ILLEGAL" in default.stdout and "Pot of Greed is Forbidden" in default.stdout


def test_deckcheck_lang_and_the_locale_pick_the_language(
    cli: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DECKCHECK_LANG", "zh")
    assert cli("validate", str(PROBLEMS), "--date", ON).stdout.startswith("不合规")
    assert cli("validate", str(PROBLEMS), "--date", ON, "--lang", "ja").stdout.startswith(
        "使用不可"
    )
    monkeypatch.setenv("DECKCHECK_LANG", "klingon")
    assert cli("validate", str(PROBLEMS), "--date", ON).code == 2
    assert resolve_lang(None, {"LANG": "ja_JP.UTF-8"}) is Lang.JA
    assert resolve_lang(None, {"LC_ALL": "zh_CN.UTF-8", "LANG": "ja_JP"}) is Lang.ZH
    assert resolve_lang(None, {"LANG": "C.UTF-8"}) is Lang.EN
    assert resolve_lang(None, {}) is Lang.EN
    assert resolve_lang(None, {"DECKCHECK_LANG": "ja", "LANG": "zh_CN"}) is Lang.JA
    assert resolve_lang("zh-CN", {"DECKCHECK_LANG": "ja"}) is Lang.ZH


def test_json_gains_the_local_name_beside_the_english_one(
    cli: Callable[..., Any], index: CardIndex
) -> None:
    plain = json.loads(cli("validate", str(PROBLEMS), "--date", ON, "-o", "json").stdout)
    local = json.loads(cli("validate", str(PROBLEMS), "--date", ON, "-o", "json",
                           "--lang", "ja").stdout)  # fmt: skip
    before, after = plain["results"][0]["violations"], local["results"][0]["violations"]
    for a, b in zip(before, after, strict=True):
        assert "name_local" not in a and "message_local" not in a
        assert {k: v for k, v in b.items() if not k.endswith("_local")} == a
        assert CJK.search(b["message_local"])
    forbidden = next(v for v in after if v["code"] == "forbidden")
    assert forbidden["name"] == "Pot of Greed"
    assert forbidden["name_local"] == index.get(POT_OF_GREED).name_ja


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_convert_to_text_in_the_language_reads_back_to_the_same_deck(
    cli: Callable[..., Any], index: CardIndex, tmp_path: Path, lang: str
) -> None:
    res = cli("convert", str(LEGAL), "--to", "text", "--lang", lang)
    assert res.code == 0, res.stderr
    assert {"ja": "メインデッキ (40)", "zh": "主卡组 (40)"}[lang] in res.stdout
    assert _names(index, lang)[1] in res.stdout and "\n3 Cyber Dragon\n" not in res.stdout
    listed = tmp_path / f"deck-{lang}.txt"
    listed.write_text(res.stdout, encoding="utf-8")

    def fingerprint(path: Path) -> str:
        doc = json.loads(cli("validate", str(path), "--date", ON, "-o", "json").stdout)
        return str(doc["results"][0]["fingerprint"])

    assert fingerprint(listed) == fingerprint(LEGAL)


def test_batch_csv_and_html_in_the_language(cli: Callable[..., Any], tmp_path: Path) -> None:
    from deckcheck.reporter.csv import HEADER

    shutil.copy(PROBLEMS, tmp_path / "problems.ydk")
    out = tmp_path / "out"
    res = cli("batch", str(tmp_path / "problems.ydk"), "--out", str(out), "--date", ON,
              "--lang", "ja", "-q")  # fmt: skip
    assert res.code == 1
    rows = list(csv.reader(io.StringIO((out / "report.csv").read_text(encoding="utf-8"))))
    assert tuple(rows[0]) == HEADER  # column names are API: never translated
    messages = rows[1][HEADER.index("messages")]
    assert "強欲な壺は2025-04-07 TCGのリストで禁止カードです" in messages  # the list is named
    assert rows[1][HEADER.index("codes")].startswith("main-size;")
    page = (out / "report.html").read_text(encoding="utf-8")
    assert '<html lang="ja">' in page
    assert "要確認（1）" in page and "すべての登録" in page and "強欲な壺" in page
    assert "Needs attention" not in page


def test_every_message_is_translated_in_both_catalogs() -> None:
    for lang in ("ja", "zh"):
        entries = parse_po((LOCALE_DIR / f"{lang}.po").read_text(encoding="utf-8"))
        assert set(entries) == set(MESSAGES), lang  # nothing missing, nothing stale
        for key, english in MESSAGES.items():
            msgid, text = entries[key]
            assert msgid == english, (lang, key)  # translated from the current English
            assert text.strip(), (lang, key)
            assert fields_of(text) == fields_of(english), (lang, key)
            assert text != english, (lang, key)  # translated, not copied
    assert {f"violation.{c.value}" for c in Code} <= set(MESSAGES)
    assert {f"fix.{c.value}" for c in Code} <= set(MESSAGES)


def test_catalogs_are_valid_gettext() -> None:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("msgfmt is missing (apt-get install gettext)")
    for lang in ("ja", "zh"):
        subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(LOCALE_DIR / f"{lang}.po")],
                       check=True, capture_output=True)  # fmt: skip


@pytest.mark.parametrize("lang", [Lang.JA, Lang.ZH])
def test_every_violation_code_translates_with_its_values(index: CardIndex, lang: Lang) -> None:
    loc = Localizer(lang, index)
    local = _names(index, lang.value)[0]
    for code in Code:
        v = Violation(code, Severity.ERROR, "english message", "main", POT_OF_GREED,
                      "Pot of Greed", 4, 3, 7, "4 Pot of Greed")  # fmt: skip
        text = loc.violation(v)
        assert CJK.search(text), (code, text)
        assert "english message" not in text
        if "{name}" in MESSAGES[f"violation.{code.value}"]:
            assert local in text, (code, text)
        # without the values a template needs: the code's fix, still translated
        bare = loc.violation(Violation(code, Severity.ERROR, "english message"))
        assert CJK.search(bare) and "english message" not in bare, (code, bare)


def test_catalogs_read_as_gettext_tools_write_them() -> None:
    # msgmerge and Poedit wrap long strings over several lines and escape quotes
    text = (
        '# comment\nmsgid ""\nmsgstr ""\n"Language: ja\\n"\n\n'
        '#, python-brace-format\nmsgctxt "report.summary"\nmsgid ""\n"{decks} decks: {legal} '
        'legal, "\n"{illegal} illegal"\nmsgstr ""\n"{decks}デッキ："\n"使用可 {legal}、'
        '使用不可 {illegal}"\n\nmsgctxt "html.fix"\nmsgid "Fix:"\nmsgstr "\\"対処\\"："\n'
    )
    entries = parse_po(text)
    wanted = "{decks}デッキ：使用可 {legal}、使用不可 {illegal}"
    assert entries == {
        "report.summary": (MESSAGES["report.summary"], wanted),
        "html.fix": ("Fix:", '"対処"：'),
    }
