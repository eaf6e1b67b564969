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
    (tmp_path / "notes.txt").write_text("Bring sleeves and a playmat.\n")
    (tmp_path / "broken.ydk").write_bytes(b"\xff\xfe\x00junk")
    res = cli("meta", str(tmp_path), "-o", "json")
    doc = json.loads(res.stdout)
    assert [(Path(k["path"]).name, k["code"]) for k in doc["skipped"]] == [
        ("notes.txt", "not-deck-list")
    ]
    assert [u["code"] for u in doc["unreadable"]] == ["bad-encoding"]
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


@pytest.mark.parametrize("paths", [[""], ["", ""], ["  "]])
def test_an_empty_path_in_a_list_is_refused_not_read_as_the_current_folder(
    paths: list[str], cli_proc: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # '' used to be Path('.'): the whole current folder was scanned (from /tmp, thousands of
    # files) for an argument that names nothing
    (tmp_path / "a.ydk").write_bytes(LEGAL.read_bytes())
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ArgumentError):
        deckcheck.check(paths, "tcg")
    with pytest.raises(ArgumentError):
        list(deckcheck.sources(paths))
    res = cli_proc("validate", *paths)
    assert res.returncode == 2
    assert "empty path" in res.stderr


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
# Russian is no official card language: the data has no such names, so none resolves
RUSSIAN_DECK = "3 Пепел и вишнёвый цвет\n3 Размножение Ж\n2 Зов могилы\n3 Горшок желаний\n"


@pytest.mark.parametrize("content", [TYPO_DECK, RUSSIAN_DECK], ids=["misspelt", "unread-language"])
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
        "my-deck.txt": "not-a-deck",
        "deck.json": "not-a-deck",
    }
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

    web = (
        TestClient(create_app())
        .post(
            "/v1/batch?date=2025-06-01",
            content=archive.read_bytes(),
            headers={"Content-Type": "application/zip"},
        )
        .json()
    )
    assert [r["path"] for r in web["results"]] == names


# -- lenient where the ecosystem is -------------------------------------------------------------


def _omega(main_extra: list[int], side: list[int], cover: int | None) -> str:
    """An Omega code built from its documented layout (independent of the reader)."""
    import base64
    import struct
    import zlib

    codes = main_extra + side
    raw = bytes((len(main_extra), len(side))) + struct.pack(f"<{len(codes)}I", *codes)
    if cover is not None:
        raw += struct.pack("<I", cover)
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.b64encode(packer.compress(raw) + packer.flush()).decode("ascii")


ASH, MAXX, DECODE = 14558127, 23434538, 1861629


def test_an_omega_code_with_its_cover_card_is_read(cli: Callable[..., Any], tmp_path: Path) -> None:
    code = _omega([ASH] * 3 + [MAXX] * 3 + [DECODE], [ASH], cover=MAXX)
    deck = deckcheck.read_deck(code)
    assert deck.source_format == "omega" and deck.cover == MAXX
    assert deck.counts == {"main": 6, "extra": 1, "side": 1}
    src = tmp_path / "deck.omega"
    src.write_text(code + "\n")
    ydke = cli("convert", str(src), "--to", "ydke")
    assert ydke.code == 0 and ydke.stdout.startswith("ydke://") and "ydke://!!!" not in ydke.stdout
    assert f"cover card {MAXX} is left out" in ydke.stderr
    again = cli("convert", str(src), "--to", "omega")
    assert again.code == 0 and again.stdout.strip() == code  # the cover card is kept
    assert f"cover card {MAXX} is kept" in again.stderr
    legal = cli("validate", str(src), "-o", "json", "-d", "2025-06-01")
    counts = json.loads(legal.stdout)["results"][0]["counts"]
    assert counts == {"main": 6, "extra": 1, "side": 1}
    plain = _omega([ASH] * 3, [], cover=None)
    assert deckcheck.read_deck(plain).cover is None


def test_ydke_urls_read_as_ydke_js_reads_them() -> None:
    import base64
    import struct

    def part(codes: list[int]) -> str:
        return base64.b64encode(struct.pack(f"<{len(codes)}I", *codes)).decode("ascii")

    main, extra, side = part([ASH, ASH, MAXX]), part([DECODE]), part([MAXX])
    canonical = f"ydke://{main}!{extra}!{side}!"
    unpadded = "ydke://" + "!".join(p.rstrip("=") for p in (main, extra, side)) + "!"
    urlsafe = "ydke://" + canonical[7:].replace("+", "-").replace("/", "_")
    assert urlsafe != canonical
    blanks = f"ydke://{main[:5]} \n {main[5:]}!{extra}!{side}!"
    fourth = f"ydke://{main}!{extra}!{side}!{part([ASH])}!"
    want = deckcheck.read_deck(canonical)
    assert want.counts == {"main": 3, "extra": 1, "side": 1}
    for url in (unpadded, urlsafe, blanks, fourth):
        got = deckcheck.read_deck(url)
        assert got.multiset() == want.multiset(), url
        assert deckcheck.write_deck(got, "ydke").strip() == canonical  # written canonically
    with pytest.raises(deckcheck.DeckReadError):
        deckcheck.read_deck(f"ydke://{main[:5]}!!!")  # a length of 1 modulo 4: not base64


SPEED_LFLIST = "2023.04 Speed Duel.lflist.conf"
"""ProjectIgnis' list whose line 1128 has no count (EDOPro skips it)."""


def test_an_lflist_with_a_malformed_line_skips_it_with_a_warning(
    cli: Callable[..., Any], tmp_path: Path
) -> None:
    from tests.conftest import SHARED_DATA

    source = SHARED_DATA / "lflists" / "projectignis" / "history" / SPEED_LFLIST
    if not source.exists():
        pytest.skip("the shared ProjectIgnis lists are not here")
    lists = tmp_path / "speed.lflist.conf"
    lists.write_bytes(source.read_bytes())
    fmt = tmp_path / "event.toml"
    fmt.write_text('id = "event"\nbase = "speed"\nbanlist = "speed.lflist.conf"\n')
    deck = tmp_path / "deck.ydk"
    deck.write_bytes(LEGAL.read_bytes())
    res = cli("validate", str(deck), "--format-file", str(fmt), "-d", "2023-05-01")
    assert res.code in (0, 1), res.stderr  # checked, not refused
    (warning,) = [w for w in res.stderr.splitlines() if w.startswith("warning:")]
    assert "speed.lflist.conf:1128" in warning and "553756843 --Summon Cloud" in warning
    loaded = deckcheck.load_format_file(fmt)
    assert len(loaded.warnings) == 1 and loaded.custom_lists
    assert 55375684 not in loaded.custom_lists[0].entries
