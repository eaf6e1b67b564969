"""Output languages: ``--lang en|ja|zh|ko`` (and ``DECKCHECK_LANG``, the locale) for validate's
reports, batch's CSV and HTML, ``convert --to text``; the message catalogs complete, every
translation saying exactly the facts of its English template."""

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
HANGUL = re.compile(r"[\uac00-\ud7a3]")
POT_OF_GREED = 55144522
CYBER_DRAGON = 70095154


BUNDLED = ROOT / "deckcheck" / "data" / "bundled"


def _intl_names(lang: str) -> dict[int, str]:
    """Every card's name in ``lang`` (ko, fr, ... zh-TW), read straight from the data file."""
    lines = (BUNDLED / "names-intl.jsonl").read_text(encoding="utf-8").splitlines()
    column = json.loads(lines[0])["langs"].index(lang) + 2
    rows = [json.loads(line) for line in lines[1:]]
    return {row[0]: row[column] for row in rows if row[column]}


def _names(index: CardIndex, lang: str) -> list[str]:
    if lang == "ko":
        korean = _intl_names("ko")
        return [korean[p] for p in (POT_OF_GREED, CYBER_DRAGON)]
    pick = {"ja": "name_ja", "zh": "name_zh"}[lang]
    return [getattr(index.get(p), pick) for p in (POT_OF_GREED, CYBER_DRAGON)]


@pytest.mark.parametrize("lang", ["ja", "zh", "ko"])
def test_validate_prints_names_and_messages_in_the_language(
    cli: Callable[..., Any], index: CardIndex, lang: str
) -> None:
    english = cli("validate", str(PROBLEMS), "--date", ON)
    res = cli("validate", str(PROBLEMS), "--date", ON, "--lang", lang)
    assert res.code == english.code == 1
    for name in _names(index, lang):
        assert name in res.stdout
    assert "Pot of Greed" not in res.stdout and "Forbidden" not in res.stdout
    verdict = {"ja": "使用不可", "zh": "不合规", "ko": "사용 불가"}[lang]
    assert res.stdout.startswith(verdict)
    lines = res.stdout.splitlines()[1:]
    assert len(lines) == len(english.stdout.splitlines()) - 1
    for line, before in zip(lines, english.stdout.splitlines()[1:], strict=True):
        # the codes never change, and every message is translated
        assert line.split()[1] == before.split()[1]
        assert (CJK if lang != "ko" else HANGUL).search(line.split(maxsplit=2)[2])


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
    local = json.loads(
        cli("validate", str(PROBLEMS), "--date", ON, "-o", "json", "--lang", "ja").stdout
    )
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
    res = cli(
        "batch",
        str(tmp_path / "problems.ydk"),
        "--out",
        str(out),
        "--date",
        ON,
        "--lang",
        "ja",
        "-q",
    )
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


UI_LANGS = ("ja", "zh", "ko")


def _words(template: str) -> bool:
    """Whether a template has words of its own (not only fields and punctuation)."""
    return bool(re.search(r"[A-Za-z]", re.sub(r"\{\w+\}", "", template)))


def test_every_message_is_translated_in_every_catalog() -> None:
    for lang in UI_LANGS:
        entries = parse_po((LOCALE_DIR / f"{lang}.po").read_text(encoding="utf-8"))
        assert set(entries) == set(MESSAGES), lang  # nothing missing, nothing stale
        for key, english in MESSAGES.items():
            msgid, text = entries[key]
            assert msgid == english, (lang, key)  # translated from the current English
            assert text.strip(), (lang, key)
            assert fields_of(text) == fields_of(english), (lang, key)
            assert text != english or not _words(english), (lang, key)  # translated, not copied
    assert {f"violation.{c.value}" for c in Code} <= set(MESSAGES)
    assert {f"fix.{c.value}" for c in Code} <= set(MESSAGES)
    from deckcheck.source.record import SkipReason, UnreadableReason

    assert {f"skip.{c.value}" for c in SkipReason} <= set(MESSAGES)  # translated by code
    assert {f"unreadable.{c.value}" for c in UnreadableReason} <= set(MESSAGES)


def test_catalogs_are_valid_gettext() -> None:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("msgfmt is missing (apt-get install gettext)")
    for lang in UI_LANGS:
        subprocess.run(
            [msgfmt, "--check", "-o", "/dev/null", str(LOCALE_DIR / f"{lang}.po")],
            check=True,
            capture_output=True,
        )


@pytest.mark.parametrize("lang", [Lang.JA, Lang.ZH, Lang.KO])
def test_every_violation_code_translates_with_its_values(index: CardIndex, lang: Lang) -> None:
    loc = Localizer(lang, index)
    local = _names(index, lang.value)[0]
    for code in Code:
        v = Violation(
            code,
            Severity.ERROR,
            "english message",
            "main",
            POT_OF_GREED,
            "Pot of Greed",
            4,
            3,
            7,
            "4 Pot of Greed",
        )
        text = loc.violation(v)
        assert CJK.search(text) or HANGUL.search(text), (code, text)
        assert "english message" not in text
        if "{name}" in MESSAGES[f"violation.{code.value}"]:
            assert local in text, (code, text)
        # without the values a template needs: the code's fix, still translated
        bare = loc.violation(Violation(code, Severity.ERROR, "english message"))
        assert CJK.search(bare) or HANGUL.search(bare), (code, bare)
        assert "english message" not in bare, (code, bare)


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


def _sample(field: str) -> object:
    return {"n": 7, "min": 40, "max": 60}.get(field, f"<{field}>")


@pytest.mark.parametrize("lang", UI_LANGS)
def test_every_message_id_renders_in_every_language_with_the_same_fields(lang: str) -> None:
    # the check that fails the build when a translation drops or adds a fact: every message id,
    # rendered in the language, carries every field value of its English template, and no other
    from deckcheck.reporter.i18n import t

    for key, english in MESSAGES.items():
        values = {f: _sample(f) for f in fields_of(english)}
        text = t(lang, key, **values)
        assert text != t("en", key, **values) or not _words(english), (lang, key)  # translated
        for field, value in values.items():
            assert str(value) in text, (lang, key, field, text)
        assert "{" not in text and "}" not in text, (lang, key, text)


def test_a_translation_that_drops_or_adds_a_field_is_caught(tmp_path: Path) -> None:
    # the parity check reads the catalogs as gettext writes them: a dropped field is found
    good = (LOCALE_DIR / "ja.po").read_text(encoding="utf-8")
    dropped = good.replace(
        'msgstr "{name}は{list}のリストで禁止カードです', 'msgstr "{name}は禁止カードです'
    )
    added = good.replace('msgstr "要確認（{n}）"', 'msgstr "要確認（{n}、{date}）"')
    for text in (dropped, added):
        assert text != good
        entries = parse_po(text)
        bad = [k for k, (_, local) in entries.items() if fields_of(local) != fields_of(MESSAGES[k])]
        assert len(bad) == 1


FACT_DECKS = {
    # a deck breaking many rules (sizes, Forbidden on a named list, copies, placement, unknown)
    "problems": (PROBLEMS.read_text(encoding="utf-8"), "tcg", "2025-06-01"),
    # a typo: the unknown-card error suggests names
    "typo": ("Main Deck\n3 Ash Blosom\n3 Pot of Greed\n3 Cyber Dragon\n", "tcg", "2025-06-01"),
    # Limited and Semi-Limited on a named list; a list announced for after the date
    "limits": (
        'Main Deck\n3 Maxx "C"\n3 Ash Blossom & Joyous Spring\n3 Pot of Desires\n',
        "tcg",
        "2024-12-01",
    ),
    # Rush Duel Legend cards; Speed Duel skills
    "goat": (
        "Main Deck\n3 Sangan\n3 Black Luster Soldier - Envoy of the Beginning\n",
        "goat",
        "2005-06-01",
    ),
}


def _fact_violations(index: CardIndex) -> list[Violation]:
    from datetime import date

    from deckcheck.deck.io import read_deck
    from deckcheck.validation.engine import validate

    found: list[Violation] = []
    for text, fmt, when in FACT_DECKS.values():
        deck = read_deck(text, index=index)
        found += validate(deck, fmt, date.fromisoformat(when)).violations
    return found


@pytest.mark.parametrize("lang", [Lang.JA, Lang.ZH, Lang.KO])
def test_no_translated_violation_drops_a_fact_of_the_english_one(
    index: CardIndex, lang: Lang
) -> None:
    # real violations of real decks: every fact the engine's English message states (the list's
    # name, dates, suggested names, counts, the era) is in the translated message too
    from deckcheck.reporter.i18n import format_date

    loc = Localizer(lang, index)
    violations = _fact_violations(index)
    with_facts = [v for v in violations if v.facts]
    kinds = {k for v in with_facts for k, _ in v.facts}
    assert {"list", "suggestions", "era"} <= kinds, kinds
    for v in violations:
        text = loc.violation(v)
        assert CJK.search(text) or HANGUL.search(text), text
        for key, fact in v.facts:
            if key in ("fix", "status", "kind") or fact is None:
                continue  # words: translated (checked below), not copied
            shown = format_date(fact, lang) if hasattr(fact, "isoformat") else str(fact)
            assert shown in text, (v.code, key, shown, text)
            if key != "detail":
                assert str(fact) in v.message or hasattr(fact, "isoformat"), (key, v.message)
        for number in (v.found, v.allowed):
            if number is not None and str(number) in v.message:
                assert str(number) in text, (v.code, number, text)
    unknown = next(v for v in violations if v.code is Code.UNKNOWN_CARD and v.facts)
    assert "Ash Blossom & Joyous Spring" in loc.violation(unknown)  # the suggestions say it


MOOYAN_CURRY = 58074572  # a card the data has no Korean name for


def test_korean_reports_print_korean_names_and_say_once_where_english_stands_in(
    cli: Callable[..., Any], tmp_path: Path
) -> None:
    korean = _intl_names("ko")
    assert MOOYAN_CURRY not in korean and POT_OF_GREED in korean
    deck = tmp_path / "deck.ydk"
    deck.write_text(
        "#main\n" + f"{POT_OF_GREED}\n" * 2 + f"{MOOYAN_CURRY}\n" * 4 + "#extra\n!side\n",
        encoding="utf-8",
    )
    res = cli("validate", str(deck), "--date", ON, "--lang", "ko")
    assert res.code == 1
    assert res.stdout.startswith("사용 불가")
    assert korean[POT_OF_GREED] in res.stdout and "Pot of Greed" not in res.stdout
    assert "Mooyan Curry" in res.stdout  # no Korean name in the data: English stands in
    assert res.stdout.count("한국어 이름 없음") == 1
    assert "2025년 6월 1일" in res.stdout  # dates as Korean writes them
    text = cli("convert", str(deck), "--to", "text", "--lang", "ko")
    assert text.code == 0 and "메인 덱 (6)" in text.stdout
    assert f"2 {korean[POT_OF_GREED]}" in text.stdout and "4 Mooyan Curry" in text.stdout
    assert text.stderr.count("한국어 이름이 없습니다") == 1
    listed = tmp_path / "deck-ko.txt"
    listed.write_text(text.stdout, encoding="utf-8")
    again = tmp_path / "again.ydk"
    assert cli("convert", str(listed), "--to", "ydk", "--out", str(again)).code == 0
    assert sorted(again.read_text().split()) == sorted(deck.read_text().split())  # reads back


def test_accepted_language_names() -> None:
    from deckcheck.error import InputError
    from deckcheck.reporter.i18n import accept_language, parse_lang

    assert parse_lang("zh-Hans") is Lang.ZH and parse_lang("ko-KR") is Lang.KO
    assert parse_lang("KO") is Lang.KO and Lang.ZH.tag == "zh-Hans"
    with pytest.raises(InputError):
        parse_lang("zh-TW")
    assert accept_language("ko-KR,ko;q=0.9,en;q=0.5") is Lang.KO
    assert accept_language("fr-FR, ja;q=0.8, zh;q=0.9") is Lang.ZH
    assert accept_language("zh-TW, zh-Hant;q=0.9, ja;q=0.2") is Lang.JA
    assert accept_language("de, fr") is Lang.EN
    assert accept_language("") is Lang.EN and accept_language(None) is Lang.EN
    assert accept_language("ja;q=oops, ko;q=0") is Lang.EN
    assert resolve_lang(None, {"LANG": "ko_KR.UTF-8"}) is Lang.KO


def test_the_service_answers_in_the_accepted_language() -> None:
    from fastapi.testclient import TestClient

    from deckcheck.service.app import create_app

    client = TestClient(create_app())
    body = {"deck": PROBLEMS.read_text(encoding="utf-8"), "deck_format": "ydk", "date": ON}
    plain = client.post("/v1/validate", json=body).json()
    assert all("message_local" not in v for v in plain["violations"])
    korean = client.post("/v1/validate", json=body, headers={"Accept-Language": "ko-KR,ko"})
    assert korean.status_code == 200
    local = [v["message_local"] for v in korean.json()["violations"]]
    assert all(HANGUL.search(m) for m in local)
    # the body's lang wins over the header
    ja = client.post(
        "/v1/validate", json={**body, "lang": "ja"}, headers={"Accept-Language": "ko"}
    ).json()
    assert all(CJK.search(v["message_local"]) for v in ja["violations"])
    # errors: the code's meaning in the language, then the English message
    bad = client.post(
        "/v1/validate",
        json={**body, "format": "no-such-format"},
        headers={"Accept-Language": "zh-Hans"},
    )
    assert bad.status_code == 404
    error = bad.json()["error"]
    assert error["code"] == "unknown-format" and error["message_local"].startswith("未知赛制")
    assert error["message"] in error["message_local"]
    english = client.post("/v1/validate", json={**body, "format": "no-such-format"}).json()
    assert "message_local" not in english["error"]


def test_batch_html_in_korean_is_translated_through(
    cli: Callable[..., Any], tmp_path: Path
) -> None:
    shutil.copy(PROBLEMS, tmp_path / "problems.ydk")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / "notes.md").write_text("# not a deck\n\nsome words here\n", encoding="utf-8")
    out = tmp_path / "out"
    res = cli("batch", str(tmp_path), "--out", str(out), "--date", ON, "--lang", "ko", "-q")
    assert res.code == 1, res.stderr
    page = (out / "report.html").read_text(encoding="utf-8")
    assert '<html lang="ko">' in page
    for english in (
        "Needs attention",
        "All registrations",
        "Metagame",
        "Most played cards",
        "Share of decks",
        "Fix:",
        " points: ",
    ):
        assert english not in page, english
    assert "메타게임" in page and "확인 필요" in page and "2025년 6월 1일" in page


AUDIT = """
import sys
read = []
sys.addaudithook(lambda event, args: read.append(str(args[0]))
                 if event == "open" and str(args[0]).endswith(".po") else None)
sys.argv = ["deckcheck", *sys.argv[1:]]
import atexit
atexit.register(lambda: sys.stderr.write(
    "CATALOGS " + ",".join(sorted({p.rsplit("/", 1)[-1] for p in read})) + "\\n"))
from deckcheck.cli import main
main()
"""


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "read"), [("en", ""), ("ko", "ko.po")])
def test_a_catalog_is_read_only_for_its_language(lang: str, read: str) -> None:
    # English (the default) never opens a catalog: cold start stays as it was
    import sys

    res = subprocess.run(
        [sys.executable, "-c", AUDIT, "validate", str(PROBLEMS), "--date", ON, "--lang", lang],
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 1, res.stderr  # (the deck has problems: the command's own status)
    assert f"CATALOGS {read}\n" in res.stderr


NAME_CODES = ("ko", "fr", "de", "it", "es", "pt", "zh-TW")
DARK_MAGICIAN = 46986414


@pytest.mark.slow
def test_card_json_has_every_language_the_data_holds(cli: Callable[..., Any]) -> None:
    from fastapi.testclient import TestClient

    from deckcheck.service.app import create_app

    shown = json.loads(cli("cards", "show", str(DARK_MAGICIAN), "--output", "json").stdout)
    found = json.loads(cli("cards", "search", "Dark Magician", "-n", "3", "-o", "json").stdout)
    client = TestClient(create_app())
    served = client.get(f"/v1/cards/{DARK_MAGICIAN}").json()
    searched = client.get("/v1/cards", params={"q": "Dark Magician", "limit": 3}).json()
    for names in (
        shown["names"],
        served["names"],
        next(r["names"] for r in found["results"] if r["passcode"] == DARK_MAGICIAN),
        next(r["names"] for r in searched["results"] if r["passcode"] == DARK_MAGICIAN),
    ):
        assert names["en"] == "Dark Magician" and names["ja"] and names["zh-CN"]
        for code in NAME_CODES:
            assert names[code] == _intl_names(code)[DARK_MAGICIAN], code
    # a card without a Korean name says null, never another language's name
    curry = client.get(f"/v1/cards/{MOOYAN_CURRY}").json()["names"]
    assert curry["ko"] is None and curry["en"] == "Mooyan Curry"


def test_cards_show_lists_the_names_in_every_language(cli: Callable[..., Any]) -> None:
    res = cli("cards", "show", str(DARK_MAGICIAN))
    assert res.code == 0
    for code, label in (("ko", "Korean:"), ("fr", "French:"), ("zh-TW", "Chinese TW:")):
        line = next(x for x in res.stdout.splitlines() if x.strip().startswith(label))
        assert line.split(":", 1)[1].strip() == _intl_names(code)[DARK_MAGICIAN]


INTL_AUDIT = """
import sys
read = []
sys.addaudithook(lambda event, args: read.append(str(args[0]))
                 if event == "open" and str(args[0]).endswith("names-intl.jsonl") else None)
sys.argv = ["deckcheck", *sys.argv[1:]]
import atexit
atexit.register(lambda: sys.stderr.write(f"INTL {len(read)}\\n"))
from deckcheck.cli import main
main()
"""


@pytest.mark.parametrize(("lang", "reads"), [("en", 0), ("ja", 0), ("zh", 0), ("ko", 1)])
def test_other_languages_names_are_read_only_for_them(
    lang: str, reads: int, tmp_path: Path
) -> None:
    # a report in English, Japanese or Chinese never opens the other languages' names; one in
    # Korean reads them once (for the names it prints)
    import sys

    deck = tmp_path / "deck.ydk"
    deck.write_text(f"#main\n{POT_OF_GREED}\n{CYBER_DRAGON}\n#extra\n!side\n", encoding="utf-8")
    res = subprocess.run(
        [sys.executable, "-c", INTL_AUDIT, "validate", str(deck), "--date", ON, "--lang", lang],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "Traceback" not in res.stderr, res.stderr
    assert f"INTL {reads}\n" in res.stderr
    assert (_intl_names("ko")[POT_OF_GREED] in res.stdout) is (lang == "ko")


ASH = "Ash Blossom & Joyous Spring"
ASH_TCG = "2017-05-04"  # its first TCG release, per the data


def _one(code: Code, deck: str, fmt: str, when: str) -> Violation:
    from datetime import date

    import deckcheck

    report = deckcheck.validate(deckcheck.read_deck(deck), fmt, date.fromisoformat(when))
    return next(v for v in report.violations if v.code is code)


REASON_CASES = {
    # a card not yet out in the TCG: its region, date and source
    "pool": (Code.NOT_IN_POOL, f"Main Deck\n3 {ASH}\n", "tcg", "2017-02-01"),
    # a date after the ban-list data: the date and the data's end
    "date": (Code.DATE_OUT_OF_RANGE, f"Main Deck\n3 {ASH}\n", "tcg", "2031-02-01"),
    # a Rush Duel card in an OCG format
    "rush": (Code.NOT_IN_POOL, "Main Deck\n3 Sevens Road Magician\n", "ocg", "2025-06-01"),
}


@pytest.mark.parametrize("case", sorted(REASON_CASES))
@pytest.mark.parametrize("lang", [Lang.JA, Lang.ZH, Lang.KO])
def test_reasons_are_translated_with_every_fact(index: CardIndex, lang: Lang, case: str) -> None:
    # the detail of a pool, release-date or date message is a template with named values:
    # the translation says the same dates (as the language writes them), the same region and
    # the same source, and no English phrase is left inside it
    from datetime import date

    from deckcheck.rule.reason import REASONS, Reason

    code, deck, fmt, when = REASON_CASES[case]
    v = _one(code, deck, fmt, when)
    reason = dict(v.facts)["detail"]
    assert isinstance(reason, Reason) and reason.key in REASONS
    assert str(reason) in v.message  # the English message is the engine's own, as before
    loc = Localizer(lang, index)
    text = loc.violation(v)
    from deckcheck.card.release import Region

    for value in reason.fields.values():
        if isinstance(value, Region):
            assert loc.t(f"region.{value.value}") in text, (value, text)
        elif isinstance(value, date):
            assert loc.date(value) in text, (value, text)
        elif isinstance(value, str) and value.isascii():
            assert value in text, (value, text)  # a source key, a list or format name
    english = re.sub(r"\{\w+\}", " ", REASONS[reason.key])
    words = {w for w in re.findall(r"[a-z]{4,}", english)} - {"confidence"}
    assert not {w for w in words if re.search(rf"\b{w}\b", text)}, text
    assert (CJK if lang is not Lang.KO else HANGUL).search(text)


def test_a_reason_survives_pickling_for_worker_processes() -> None:
    import pickle

    v = _one(*REASON_CASES["pool"])
    back = pickle.loads(pickle.dumps(v))
    assert back == v and dict(back.facts)["detail"].fields == dict(v.facts)["detail"].fields
    assert str(dict(back.facts)["detail"]) == str(dict(v.facts)["detail"])


def test_a_reason_translation_that_drops_a_field_is_caught() -> None:
    good = (LOCALE_DIR / "ko.po").read_text(encoding="utf-8")
    dropped = good.replace(
        'msgstr "{region}에서 {date}까지 미발매 (출처 {source})"', 'msgstr "{region}에서 미발매"'
    )
    assert dropped != good
    entries = parse_po(dropped)
    bad = [k for k, (_, local) in entries.items() if fields_of(local) != fields_of(MESSAGES[k])]
    assert bad == ["reason.released-after"]


@pytest.mark.parametrize("lang", UI_LANGS)
def test_cli_errors_say_what_went_wrong_in_the_language(
    cli: Callable[..., Any], lang: str, tmp_path: Path
) -> None:
    from deckcheck.reporter.i18n import t

    english = cli("validate", str(LEGAL), "--format", "no-such-format")
    assert english.code == 2 and english.stderr.startswith("error: unknown format")
    # the option's error, whether --lang comes before or after it, and an error of the run
    for args in (
        ("validate", str(LEGAL), "--format", "no-such-format", "--lang", lang),
        ("validate", str(LEGAL), "--lang", lang, "--format", "no-such-format"),
    ):
        res = cli(*args)
        assert res.code == 2
        assert res.stderr.startswith(f"error: {t(lang, 'error.unknown-format')}"), res.stderr
        assert "'no-such-format'" in res.stderr  # the English message still names the place
    early = cli("validate", str(LEGAL), "--date", "1990-01-01", "--lang", lang)
    assert early.code == 2
    assert early.stderr.startswith(f"error: {t(lang, 'error.date-before-lists')}"), early.stderr
    from datetime import date

    from deckcheck.reporter.i18n import format_date

    # the error's own facts too: the dates as the language writes them, no English phrase
    assert format_date(date(1990, 1, 1), lang) in early.stderr, early.stderr
    assert "is before the first" not in early.stderr
    missing = cli("convert", str(tmp_path / "none.ydk"), "--to", "text", "--lang", lang)
    assert missing.code == 2
    assert missing.stderr.startswith(f"error: {t(lang, 'error.unreadable-deck')}"), missing.stderr


def test_a_korean_sheet_prints_korean_names_and_marks_the_english_ones(index: CardIndex) -> None:
    import deckcheck
    from deckcheck.reporter.sheet import build_sheet, sheets_pdf

    korean = _intl_names("ko")
    deck = deckcheck.read_deck(
        "#main\n" + f"{POT_OF_GREED}\n" * 2 + f"{MOOYAN_CURRY}\n" * 3 + "#extra\n!side\n"
    )
    report = deckcheck.validate(deck, "tcg")
    sheet = build_sheet(deck, report, lang="ko", index=index)
    rows = {row.passcode: row for _, block in sheet.groups for row in block}
    assert rows[POT_OF_GREED].name == korean[POT_OF_GREED] and not rows[POT_OF_GREED].fallback
    assert rows[MOOYAN_CURRY].name == "Mooyan Curry" and rows[MOOYAN_CURRY].fallback
    assert sheets_pdf([sheet]).startswith(b"%PDF")
