"""Every source ends as checked, skipped (a code) or unreadable (a code, a message, a place);
the codes reach every report, and reporters branch on them, never on message text."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from datetime import date
from pathlib import Path

from msgspec.structs import replace

import deckcheck
from deckcheck.reporter import OutputFormat, RenderOptions, render
from deckcheck.reporter.html import unreadable_fix
from deckcheck.source.record import SkipReason, Source, Unreadable, UnreadableReason

ROOT = Path(__file__).resolve().parent.parent
LEGAL = ROOT / "examples" / "tcg-legal.ydk"
DATE = date(2025, 6, 1)


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "decks"
    root.mkdir()
    (root / "legal.ydk").write_bytes(LEGAL.read_bytes())
    (root / "junk.ydk").write_bytes(b"\xff\xfe\x00garbage\x00")
    (root / "notes.txt").write_text("Bring sleeves and a playmat.\nRound one starts at ten.\n")
    (root / ".hidden.ydk").write_bytes(LEGAL.read_bytes())
    return root


def test_each_source_ends_as_one_typed_outcome(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    batch = deckcheck.check([str(root), str(tmp_path / "gone.ydk")], "tcg", DATE)
    assert [Path(r.path or "").name for r in batch.checked] == ["legal.ydk"]
    codes = {Path(u.path).name: u.code for u in batch.unreadable}
    assert codes == {
        "junk.ydk": UnreadableReason.BAD_ENCODING,
        "gone.ydk": UnreadableReason.MISSING,
    }
    skips = {Path(k.path).name: k.code for k in batch.skipped}
    assert skips == {".hidden.ydk": SkipReason.HIDDEN_FILE, "notes.txt": SkipReason.NOT_DECK_LIST}
    # every source is in exactly one of the three lists
    assert batch.summary.decks + len(batch.unreadable) + len(batch.skipped) == 5


def test_codes_reach_json_sarif_and_junit(tmp_path: Path) -> None:
    batch = deckcheck.check([str(_tree(tmp_path))], "tcg", DATE)
    opts = RenderOptions()
    doc = json.loads(render(batch, OutputFormat.JSON, opts))
    assert {Path(u["path"]).name: u["code"] for u in doc["unreadable"]} == {
        "junk.ydk": "bad-encoding"
    }
    assert {Path(k["path"]).name: (k["code"], k["reason"]) for k in doc["skipped"]} == {
        ".hidden.ydk": ("hidden-file", "hidden file"),
        "notes.txt": ("not-deck-list", "not a deck list"),
    }
    sarif = json.loads(render(batch, OutputFormat.SARIF, opts))
    notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert sorted((n["level"], n["properties"]["code"]) for n in notes) == [
        ("error", "bad-encoding"),
        ("note", "hidden-file"),
        ("note", "not-deck-list"),
    ]
    junit = ET.fromstring(render(batch, OutputFormat.JUNIT, opts))
    assert [e.get("type") for e in junit.iter("error")] == ["bad-encoding"]
    assert sorted(e.get("type") or "" for e in junit.iter("skipped")) == [
        "hidden-file",
        "not-deck-list",
    ]
    assert junit.get("skipped") == "2"


def test_csv_lists_each_skipped_file_with_its_code(tmp_path: Path) -> None:
    import csv
    import io

    from deckcheck.reporter.csv import HEADER

    batch = deckcheck.check([str(_tree(tmp_path))], "tcg", DATE)
    table = list(csv.DictReader(io.StringIO(render(batch, OutputFormat.CSV, RenderOptions()))))
    assert tuple(table[0]) == HEADER  # the same columns
    by_name = {Path(r["source"]).name: r for r in table}
    assert {n: r["status"] for n, r in by_name.items()} == {
        "legal.ydk": "legal",
        "junk.ydk": "unreadable",
        ".hidden.ydk": "skipped",
        "notes.txt": "skipped",
    }
    assert (by_name[".hidden.ydk"]["codes"], by_name[".hidden.ydk"]["messages"]) == (
        "hidden-file",
        "hidden file",
    )
    assert by_name["notes.txt"]["codes"] == "not-deck-list"
    assert by_name["notes.txt"]["legal"] == by_name["notes.txt"]["main"] == ""
    # the skipped rows come after the checked and unreadable ones
    assert [r["status"] for r in table][-2:] == ["skipped", "skipped"]


def test_html_advice_follows_the_code_not_the_words(tmp_path: Path) -> None:
    regs = tmp_path / "regs.csv"
    regs.write_text("player,deck\nAda,\nBob,decks/none.ydk\n")
    batch = deckcheck.check([str(regs)], "tcg", DATE)
    by_player = {u.registration.player: u for u in batch.unreadable if u.registration}
    assert by_player["Ada"].code is UnreadableReason.NO_DECK_GIVEN
    assert by_player["Bob"].code is UnreadableReason.BAD_DECK_PATH
    column, path = unreadable_fix(by_player["Ada"]), unreadable_fix(by_player["Bob"])
    assert column != path
    # the same advice whatever the message says: the code decides
    reworded = replace(by_player["Ada"], error="something else entirely")
    assert unreadable_fix(reworded) == column
    coded_as_path = replace(by_player["Ada"], code=UnreadableReason.BAD_DECK_PATH)
    assert unreadable_fix(coded_as_path) != column


def test_every_code_has_words_and_is_documented() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for skip in SkipReason:
        assert skip.meaning and f"| `{skip.value}` | {skip.meaning} |" in readme
    for why in UnreadableReason:
        assert f"| `{why.value}` |" in readme
    assert Unreadable("x", "x: y").code is UnreadableReason.UNREADABLE_DECK


def test_a_sources_repr_leaves_its_deck_out() -> None:
    src = Source.memory("upload.ydk", b"#main\n" + b"89631139\n" * 5000)
    shown = repr(src)
    assert shown.startswith("Source(kind=") and "path='upload.ydk'" in shown
    assert "89631139" not in shown and len(shown) < 400
