"""Nothing read is lost: the repros of issue #30, each with its real input, through the CLI,
the library and the service."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import deckcheck
from deckcheck.error import ArgumentError

ROOT = Path(__file__).resolve().parent.parent
LEGAL = ROOT / "examples" / "tcg-legal.ydk"

ASH_LIST = 'Main Deck\n3 Maxx "C"\n3 Pot of Desires\n2 Called by the Grave\n'
MISSPELT_ASH = "3 Ash Blosom & Joyus Spring\n"


# -- convert: a line that is not a card is never dropped with exit 0 -----------------------------


def test_convert_refuses_a_line_it_cannot_parse(cli: Callable[..., Any], tmp_path: Path) -> None:
    src = tmp_path / "deck.txt"
    # line 3 is no card at all (a quantity too large to be one): it used to be dropped, exit 0
    src.write_text('Main Deck\n3 Maxx "C"\n' + "9" * 40 + "\n")
    for to in ("ydk", "ydke", "omega", "text", "json"):
        res = cli("convert", str(src), "--to", to)
        assert res.code == 2, (to, res.stderr)
        assert "deck.txt:3" in res.stderr
        lenient = cli("convert", str(src), "--to", to, "--lenient")
        assert lenient.code == 0, (to, lenient.stderr)
        assert "deck.txt:3" in lenient.stderr and "left out 1 line" in lenient.stderr


def test_convert_of_a_one_line_non_deck_is_refused(cli: Callable[..., Any], tmp_path: Path) -> None:
    src = tmp_path / "code.txt"
    src.write_text("this is not a deck at all\n")
    res = cli("convert", str(src), "--to", "ydke")
    assert res.code == 2 and "code.txt:1" in res.stderr
    assert "ydke://" not in res.stdout


# -- fingerprint and diff never call decks the same while a line is unread ------------------------


def test_fingerprint_refuses_a_deck_with_misspelt_names(
    cli: Callable[..., Any], tmp_path: Path
) -> None:
    clean = tmp_path / "clean.txt"
    clean.write_text(ASH_LIST)
    typo = tmp_path / "typo.txt"
    typo.write_text(ASH_LIST + MISSPELT_ASH)
    ok = cli("fingerprint", str(clean))
    assert ok.code == 0 and len(ok.stdout.split()[0]) == 16
    bad = cli("fingerprint", str(clean), str(typo), "-o", "json")
    assert bad.code == 2
    assert "typo.txt:5" in bad.stderr and "Ash Blosom" in bad.stderr
    decks = json.loads(bad.stdout)["decks"]
    assert decks[0]["fingerprint"] is not None and decks[1]["fingerprint"] is None
    assert [(u["line"], u["code"]) for u in decks[1]["unread"]] == [(5, "unknown-card")]


def test_a_notes_file_gets_no_fingerprint(cli: Callable[..., Any], tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("Bring sleeves.\nRound one at ten.\n")
    res = cli("fingerprint", str(notes))
    assert res.code == 2 and res.stdout == ""
    assert "notes.txt:1" in res.stderr and "notes.txt:2" in res.stderr


def test_diff_never_says_same_over_unread_lines(cli: Callable[..., Any], tmp_path: Path) -> None:
    clean = tmp_path / "clean.txt"
    clean.write_text(ASH_LIST)
    typo = tmp_path / "typo.txt"
    typo.write_text(ASH_LIST + MISSPELT_ASH)
    res = cli("diff", str(clean), str(typo))
    assert res.code == 2
    assert "SAME" not in res.stdout and "typo.txt:5" in res.stdout
    as_json = cli("diff", str(typo), str(clean), "-o", "json")
    doc = json.loads(as_json.stdout)
    assert as_json.code == 2 and doc["same"] is False
    assert [u["line"] for u in doc["unread"]["registered"]] == [5] and not doc["unread"]["played"]
    assert cli("diff", str(clean), str(clean)).code == 0
    # the library says the same
    a, b = deckcheck.read_path(clean), deckcheck.read_path(typo)
    result = deckcheck.compare_decks(a, b)
    assert not result.same and result.unread and not result.missing and not result.extra


# -- meta counts the lines; the sheet lists them --------------------------------------------------


def test_meta_counts_and_names_unread_lines(cli: Callable[..., Any], tmp_path: Path) -> None:
    (tmp_path / "a.ydk").write_bytes(LEGAL.read_bytes())
    (tmp_path / "typo.txt").write_text(ASH_LIST + MISSPELT_ASH)
    res = cli("meta", str(tmp_path), "-o", "json")
    doc = json.loads(res.stdout)
    assert doc["unread_lines"] == 1
    (entry,) = [e for e in doc["entries"] if e["source"].endswith("typo.txt")]
    assert [(u["line"], u["code"]) for u in entry["unread"]] == [(5, "unknown-card")]
    assert "typo.txt:5" in res.stderr
    text = cli("meta", str(tmp_path))
    assert "Lines that name no card (1, not counted)" in text.stdout


def test_sheet_lists_every_unread_line(tmp_path: Path) -> None:
    from deckcheck.reporter.sheet import build_sheet

    deck = deckcheck.read_deck(ASH_LIST + MISSPELT_ASH + "9" * 40 + "\n")
    report = deckcheck.validate(deck, "tcg")
    sheet = build_sheet(deck, report)
    names = [row.name for _, rows in sheet.groups for row in rows]
    assert any("Ash Blosom" in n and "line 5" in n for n in names)
    assert any("line 6" in n and "parse" in n for n in names)
    assert "none" in sheet.deck_fingerprint


# -- library arguments ---------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["x/", "", "no/such/dir/", b"decks/"])
def test_a_bare_string_is_refused_not_walked(bad: Any) -> None:
    from deckcheck.run import meta

    with pytest.raises(ArgumentError):
        meta.analyze(bad)
    with pytest.raises(ArgumentError):
        list(deckcheck.sources(bad))
    with pytest.raises(ArgumentError):
        deckcheck.check(bad, "tcg")


def test_a_bare_usable_path_is_one_source(tmp_path: Path) -> None:
    from deckcheck.run import meta

    (tmp_path / "a.ydk").write_bytes(LEGAL.read_bytes())
    assert meta.analyze(str(tmp_path)).decks == 1
    assert meta.analyze(tmp_path).decks == 1
    from deckcheck.source.scan import sources

    assert [s.path for s in sources(str(tmp_path / "a.ydk"))] == [str(tmp_path / "a.ydk")]


# -- the service returns the lines --------------------------------------------------------------


def test_service_convert_says_which_lines_it_left_out() -> None:
    from fastapi.testclient import TestClient

    from deckcheck.service import create_app

    api = TestClient(create_app())
    body = {"deck": ASH_LIST + MISSPELT_ASH + "9" * 40 + "\n", "to": "ydke"}
    doc = api.post("/v1/convert", json=body).json()
    assert doc["left_out"] == [5, 6]
    assert {f["line"] for f in doc["findings"]} == {5, 6}
    doc = api.post("/v1/convert", json={**body, "to": "text"}).json()
    assert doc["left_out"] == [6]


# -- scans miss nothing -------------------------------------------------------------------------

TYPO_DECK = (
    "Main Deck\n3 Ash Blosom & Joyus Spring\n3 Maxx Cee\n2 Calld by the Grave\n3 Pot of Desirez\n"
)
KOREAN_DECK = "3 재와 벚꽃\n3 증식의 G\n2 묘지의 지명자\n3 강욕하고 항아리\n"


@pytest.mark.parametrize("content", [TYPO_DECK, KOREAN_DECK], ids=["misspelt", "korean"])
def test_a_folder_scan_reads_a_list_of_unknown_names(
    cli: Callable[..., Any], tmp_path: Path, content: str
) -> None:
    (tmp_path / "list.txt").write_text(content)
    (tmp_path / "legal.ydk").write_bytes(LEGAL.read_bytes())
    by_name = cli("validate", str(tmp_path / "list.txt"), "-d", "2025-06-01", "-o", "json")
    scan = cli("validate", str(tmp_path), "-d", "2025-06-01", "-o", "json")
    assert by_name.code == scan.code == 1  # the hook and the folder scan agree
    doc = json.loads(scan.stdout)
    (listed,) = [r for r in doc["results"] if r["path"].endswith("list.txt")]
    lines = {v["line"] for v in listed["violations"] if v["code"] == "unknown-card"}
    assert lines == {i for i, text in enumerate(content.splitlines(), 1) if text[0].isdigit()}
    assert not doc["skipped"]


def test_prose_is_still_skipped_and_a_deck_named_file_is_unreadable(
    cli: Callable[..., Any], tmp_path: Path
) -> None:
    (tmp_path / "legal.ydk").write_bytes(LEGAL.read_bytes())
    (tmp_path / "LICENSE.txt").write_text("Permission is granted, free of charge.\nNo warranty.\n")
    (tmp_path / "my-deck.txt").write_text("Permission is granted, free of charge.\nNo warranty.\n")
    (tmp_path / "deck.json").write_text('{"cards": []}')
    res = cli("validate", str(tmp_path), "-d", "2025-06-01", "-o", "json")
    doc = json.loads(res.stdout)
    assert res.code == 2
    assert {Path(u["path"]).name: u["code"] for u in doc["unreadable"]} == {
        "my-deck.txt": "not-a-deck", "deck.json": "not-a-deck"
    }  # fmt: skip
    assert {Path(k["path"]).name: k["code"] for k in doc["skipped"]} == {
        "LICENSE.txt": "not-deck-list"
    }
    text = cli("validate", str(tmp_path), "-d", "2025-06-01")
    assert "LICENSE.txt: not a deck list (not-deck-list)" in text.stderr
    github = cli("validate", str(tmp_path), "-d", "2025-06-01", "-o", "github")
    assert "title=skipped::" in github.stdout and "[not-deck-list]" in github.stdout


def test_zip_entries_with_odd_names_are_checked(cli: Callable[..., Any], tmp_path: Path) -> None:
    import zipfile

    archive = tmp_path / "odd.zip"
    names = ["deck.ydk ", "deck2.\u0443dk", "Deck3.ydk", "deck3.ydk", "deck4.\uff59\uff44\uff4b"]
    with zipfile.ZipFile(archive, "w") as z:
        for name in names:
            z.writestr(name, LEGAL.read_bytes())
    res = cli("validate", str(archive), "-d", "2025-06-01", "-o", "json")
    doc = json.loads(res.stdout)
    assert res.code == 0
    assert [r["path"].split("!/", 1)[1] for r in doc["results"]] == names
    from fastapi.testclient import TestClient

    from deckcheck.service import create_app

    web = TestClient(create_app()).post(
        "/v1/batch?date=2025-06-01", content=archive.read_bytes(),
        headers={"Content-Type": "application/zip"},
    ).json()  # fmt: skip
    assert [r["path"] for r in web["results"]] == names
