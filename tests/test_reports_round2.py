"""Organisers' reports, round 2: the CSV's own columns everywhere, fixes that fit the problem,
counts that add up, deck names, form headers, and CI annotations of decks written in a CSV."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema

from tests.conftest import ROOT, TEST_DATA

LEGAL = ROOT / "examples" / "tcg-legal.ydk"
ON = "2025-06-01"
SARIF_SCHEMA = json.loads((TEST_DATA / "sarif" / "sarif-schema-2.1.0.json").read_text("utf-8"))


def _event(tmp_path: Path) -> Path:
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "ada.ydk").write_bytes(LEGAL.read_bytes())
    regs = tmp_path / "regs.csv"
    regs.write_text(
        "player_id,player,deck,table,email\n"
        "1,Ada,decks/ada.ydk,12,ada@example.org\n"
        '2,Bob,"3 Ash Blossom & Joyous Spring\n1 Pot of Greed",13,bob@example.org\n'
        "3,Cy,../outside.ydk,14,cy@example.org\n"
        "1,Ada again,decks/ada.ydk,15,ada2@example.org\n",
        encoding="utf-8",
    )
    return regs


def test_extra_columns_reach_html_and_junit(tmp_path: Path, cli: Callable[..., Any]) -> None:
    regs = _event(tmp_path)
    out = tmp_path / "out"
    res = cli("batch", str(regs), "-d", ON, "--out", str(out), "--jobs", "1")
    assert res.code == 2
    page = (out / "report.html").read_text(encoding="utf-8")
    table = page.split("<h2>All registrations</h2>", 1)[1]
    heads = [h.rsplit(">", 1)[1] for h in table.split("</th>")[:-1]]
    assert heads[:5] == ["Row", "Player id", "Player", "table", "email"]
    assert '<td><span class="tok">bob@example.org</span></td>' in table
    assert "<td>13</td>" in table
    suite = ET.parse(out / "junit.xml").getroot().find("testsuite")
    assert suite is not None
    props = {
        case.get("name", "").rsplit("/", 1)[-1]: {
            p.get("name"): p.get("value") for p in case.iter("property")
        }
        for case in suite.iter("testcase")
    }
    assert props["regs.csv:3"]["table"] == "13"
    assert props["regs.csv:3"]["email"] == "bob@example.org"
    assert any(p.get("player") == "Cy" and p["table"] == "14" for p in props.values())


def test_refused_path_fix_says_to_correct_the_csv(tmp_path: Path, cli: Callable[..., Any]) -> None:
    regs = _event(tmp_path)
    res = cli("validate", str(regs), "-d", ON, "-o", "html")
    page = res.stdout
    card = page.split("outside the CSV", 1)[1].split("</li>", 1)[0]
    assert "Correct the deck path on row 4 of" in card and "Ask for a readable" not in card


def test_summary_adds_up_and_names_duplicates(tmp_path: Path, cli: Callable[..., Any]) -> None:
    regs = _event(tmp_path)
    res = cli("batch", str(regs), "-d", ON, "--out", str(tmp_path / "out"), "--jobs", "1")
    first = res.stdout.splitlines()[0]
    assert first == "4 registrations: 2 legal, 1 illegal, 1 unreadable (1 of them duplicate)"
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "<b>1</b>of them duplicates" in page and "add up to the registrations" in page


def test_batch_mentions_skipped_files(tmp_path: Path, cli: Callable[..., Any]) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "a.ydk").write_bytes(LEGAL.read_bytes())
    (decks / "LICENSE.txt").write_text("MIT License\n\nPermission is hereby granted\n")
    res = cli("batch", str(decks), "-d", ON, "--out", str(tmp_path / "out"))
    assert res.code == 0
    assert "note: skipped 1 file that are not decks (1 not a deck list)" in res.stderr
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "Skipped files (1)" in page and "LICENSE.txt" in page


def test_created_by_a_program_is_no_deck_name(cli: Callable[..., Any]) -> None:
    from deckcheck.deck.io import read_deck

    body = "#main\n14558127\n#extra\n!side\n"
    for stamp in ("...", "…", "EDOPro", "YGOPro", ""):
        assert read_deck(f"#created by {stamp}\n{body}").name is None, stamp
    assert read_deck(f"#created by Ada's Labrynth\n{body}").name == "Ada's Labrynth"
    assert read_deck(f"#created by ...\n!name Real name\n{body}").name == "Real name"
    text = read_deck("#created by ...\nMain Deck\n3 Ash Blossom & Joyous Spring\n")
    assert text.name is None


def test_google_forms_headers(tmp_path: Path, cli: Callable[..., Any]) -> None:
    from deckcheck.source.registration import read_registrations

    (tmp_path / "d.ydk").write_bytes(LEGAL.read_bytes())
    for header, row in (
        ("Timestamp,Your name,Konami ID,Deckliste", "2025-01-01 10:00,Ada,0301234567,d.ydk"),
        ("Zeitstempel;Spieler;Konami-ID (10 Ziffern);Deck", "x;Ada;0301234567;d.ydk"),
        (
            "Name (first and last),What is your Konami ID?,Upload your deck list",
            "Ada,0301234567,d.ydk",
        ),
    ):
        csv = tmp_path / "form.csv"
        csv.write_text(f"{header}\n{row}\n", encoding="utf-8")
        (src,) = read_registrations(csv)
        reg = src.registration
        assert reg is not None and (reg.player, reg.player_id) == ("Ada", "0301234567"), header
        assert src.error is None and src.path.endswith("d.ydk")


def test_annotations_of_inline_decks_point_at_the_csv_line(
    tmp_path: Path, cli: Callable[..., Any], monkeypatch: Any
) -> None:
    _event(tmp_path)
    monkeypatch.chdir(tmp_path)
    res = cli("validate", "regs.csv", "-d", ON, "-o", "github", "--no-config")
    lines = [line for line in res.stdout.splitlines() if "title=forbidden" in line]
    # Bob's registration starts on line 3 of the CSV; Pot of Greed is the cell's 2nd line
    assert lines and lines[0].startswith("::error file=regs.csv,line=4,title=forbidden::")
    size = next(line for line in res.stdout.splitlines() if "title=main-size" in line)
    assert size.startswith("::error file=regs.csv,line=3,")
    outside = next(line for line in res.stdout.splitlines() if "title=unreadable" in line)
    assert "outside.ydk" in outside  # a path the CSV names: that path, as before
    junit = ET.fromstring(cli("validate", "regs.csv", "-d", ON, "-o", "junit").stdout)
    case = next(c for c in junit.iter("testcase") if c.get("file") == "regs.csv")
    assert (case.get("name"), case.get("line")) == ("regs.csv:3", "3")
    failure = next(f for f in case.iter("failure") if f.get("type") == "forbidden")
    assert (failure.text or "").startswith("error forbidden regs.csv:4 [main]")


def test_sarif_results_without_a_file_have_a_location(cli: Callable[..., Any]) -> None:
    from deckcheck.deck.io import read_path, write_deck

    url = write_deck(read_path(ROOT / "examples" / "problems.ydk"), "ydke").strip()
    for args, stdin in (([url], None), (["-"], (ROOT / "examples" / "problems.ydk").read_text())):
        res = cli("validate", *args, "-d", ON, "-o", "sarif", "--no-config", input=stdin)
        doc = json.loads(res.stdout)
        jsonschema.validate(doc, SARIF_SCHEMA)
        results = doc["runs"][0]["results"]
        assert results
        for r in results:
            (loc,) = r["locations"]
            assert loc["logicalLocations"][0]["name"] in ("<ydke URL>", "<stdin>")
