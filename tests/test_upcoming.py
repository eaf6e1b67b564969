"""deckcheck upcoming: decks the next announced list makes illegal or changes."""

from __future__ import annotations

import json
import re
import shutil
from datetime import date
from pathlib import Path

import pytest

import deckcheck
from deckcheck.reporter import render
from deckcheck.reporter.document import UpcomingDocument
from deckcheck.run.forecast import Outlook, forecast

from .conftest import ROOT

LEGAL = ROOT / "examples" / "tcg-legal.ydk"
BEFORE = "2025-03-01"
"""A date before the 2025-04-07 TCG list, which made Triple Tactics Talent Limited."""
TTT = 25311006


@pytest.fixture(autouse=True)
def _not_on_a_runner(monkeypatch: pytest.MonkeyPatch) -> None:
    """Paths in CI reports follow $GITHUB_WORKSPACE when set: these tests run without it."""
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)


def _with_three_ttt(path: Path) -> Path:
    """The example deck with 3 Triple Tactics Talent (instead of 2 Cyber Dragon + its 1)."""
    lines = LEGAL.read_text(encoding="utf-8").splitlines()
    swapped = 0
    out = []
    for line in lines:
        if line.strip() == "70095154" and swapped < 2:
            out.append(str(TTT))
            swapped += 1
        else:
            out.append(line)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


@pytest.fixture()
def decks(tmp_path: Path) -> Path:
    folder = tmp_path / "decks"
    folder.mkdir()
    shutil.copy(LEGAL, folder / "one-ttt.ydk")
    _with_three_ttt(folder / "three-ttt.ydk")
    shutil.copy(
        ROOT / "tests" / "data" / "decks" / "legal" / "tcg-alt-art-three.ydk", folder / "other.ydk"
    )
    return folder


def test_the_next_list_and_what_it_does(decks: Path) -> None:
    fc = forecast([str(decks)], format="tcg", date=date(2025, 3, 1))
    by = {Path(d.path).name: d for d in fc.decks}
    three = by["three-ttt.ydk"]
    assert three.now.legal and three.then is not None and not three.then.legal
    assert three.outlook is Outlook.BECOMES_ILLEGAL
    assert three.next_list is not None and three.next_list.effective == date(2025, 4, 7)
    assert [v.code.value for v in three.new_errors] == ["over-limit"]
    assert three.new_errors[0].line is not None
    change = next(c for c in three.changes if c.passcode == TTT)
    assert (change.before, change.after, change.copies) == (None, 1, 3)
    one = by["one-ttt.ydk"]
    assert one.outlook is Outlook.CHANGES and one.then is not None and one.then.legal
    assert by["other.ydk"].outlook in (Outlook.UNAFFECTED, Outlook.CHANGES)
    assert fc.exit_code == 1
    assert fc.verdict(strict=True) == 1


def test_exit_codes_and_text(cli, decks: Path) -> None:  # type: ignore[no-untyped-def]
    res = cli("upcoming", str(decks), "--date", BEFORE, "--no-config")
    assert res.code == 1
    assert re.search(r"BECOMES ILLEGAL\s+\S*three-ttt\.ydk", res.stdout)
    assert "2025-04-07" in res.stdout and "Triple Tactics Talent" in res.stdout
    assert "one-ttt.ydk" in res.stdout  # a change, listed
    assert "next tcg list: 2025-04-07 (2025-04-07 TCG" in res.stdout
    assert "1 becomes illegal" in res.stdout.splitlines()[-1]
    # a deck whose cards only change: 0, or 1 with --strict
    only = decks / "one-ttt.ydk"
    assert cli("upcoming", str(only), "--date", BEFORE, "--no-config").code == 0
    assert cli("upcoming", str(only), "--date", BEFORE, "--no-config", "--strict").code == 1


def test_no_announced_list_after_the_data(cli, decks: Path) -> None:  # type: ignore[no-untyped-def]
    res = cli("upcoming", str(decks), "--date", "2099-01-01", "--no-config")
    assert res.code == 0
    assert "no list is announced after 2099-01-01 for tcg" in res.stdout


def test_json_document(cli, decks: Path) -> None:  # type: ignore[no-untyped-def]
    res = cli("upcoming", str(decks), "--date", BEFORE, "--no-config", "-o", "json")
    doc = json.loads(res.stdout)
    UpcomingDocument.model_validate(doc)
    three = next(d for d in doc["decks"] if d["path"].endswith("three-ttt.ydk"))
    assert three["outlook"] == "becomes-illegal"
    assert three["legal_now"] is True and three["legal_then"] is False
    assert three["next_list"]["effective"] == "2025-04-07"
    assert doc["summary"]["becomes-illegal"] == 1
    schema = json.loads(cli("schema", "upcoming").stdout)
    assert "becomes-illegal" in json.dumps(schema)


def test_github_annotations(cli, decks: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(decks.parent)
    res = cli("upcoming", "decks", "--date", BEFORE, "--no-config", "-o", "github")
    assert res.code == 1
    warn = [ln for ln in res.stdout.splitlines() if ln.startswith("::warning ")]
    assert len(warn) == 1
    assert warn[0].startswith("::warning file=decks/three-ttt.ydk,line=")
    assert ",title=upcoming-change::from 2025-04-07" in warn[0]


def test_unreadable_and_bad_output(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.ydke"
    bad.write_text("ydke://%%%", encoding="utf-8")
    res = cli("upcoming", str(bad), "--no-config")
    assert res.code == 2 and "bad.ydke" in res.stderr
    res = cli("upcoming", str(LEGAL), "--no-config", "-o", "junit")
    assert res.code == 2 and "junit" in res.stderr


def test_folder_formats_from_the_config(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "goat").mkdir()
    (tmp_path / "tcg").mkdir()
    shutil.copy(ROOT / "tests" / "data" / "decks" / "legal" / "goat-2005.ydk", tmp_path / "goat")
    _with_three_ttt(tmp_path / "tcg" / "three.ydk")
    (tmp_path / "deckcheck.toml").write_text(
        f'date = "{BEFORE}"\n[folders]\n"goat/**" = "goat"\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    res = cli("upcoming", "-o", "json")
    assert res.code == 1
    by = {d["path"]: d for d in json.loads(res.stdout)["decks"]}
    assert by["goat/goat-2005.ydk"]["format"] == "goat"
    assert by["goat/goat-2005.ydk"]["outlook"] == "no-list"  # GOAT's list is fixed
    assert by["tcg/three.ydk"]["outlook"] == "becomes-illegal"


def test_forecast_takes_a_format_object() -> None:
    fc = forecast([str(LEGAL)], format=deckcheck.get_format("tcg"), date=date(2025, 3, 1))
    assert json.loads(render(fc, "json"))["decks"][0]["outlook"] == "changes"


def test_summary_table(cli, decks: Path, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(decks.parent)
    summary = tmp_path / "summary.md"
    res = cli("upcoming", "decks", "--date", BEFORE, "--no-config", "--summary", str(summary))
    assert res.code == 1
    rows = [line for line in summary.read_text("utf-8").splitlines() if line.startswith("|")]
    assert rows[0] == "| decks | becomes-illegal | new-errors | changes | unaffected | no-list |"
    assert rows[2].startswith("| 3 | 1 | 0 |")
    assert "| decks/three-ttt.ydk | tcg | becomes-illegal | 2025-04-07 | `over-limit` |" in rows


def _april_2024_deck(path: Path) -> tuple[Path, str]:
    """A legal TCG deck on 2024-04-18 with 3 copies of a card the 2024-04-15 TCG list forbids
    (in force 2024-04-15 in North America, 2024-04-22 in Europe); returns it and the card."""
    from deckcheck.card import DeckZone
    from deckcheck.data.dataset import Dataset
    from deckcheck.rule.banlist import TcgRegion

    ds = Dataset.active()
    fmt = ds.format("tcg")
    now, nxt = fmt.banlist_at(date(2024, 4, 1), ds), fmt.banlist_at(date(2024, 4, 30), ds)
    assert now is not None and nxt is not None and nxt.name == "2024-04-15 TCG"
    assert nxt.effective_in(TcgRegion.EU) == date(2024, 4, 22)
    banned = next(c for c, n in sorted(nxt.entries.items()) if n == 0 and now.limit(c) is None)
    filler = [
        c.passcode
        for c in ds.cards
        if c.zone is DeckZone.MAIN
        and c.tcg_date is not None
        and c.tcg_date < date(2020, 1, 1)
        and not (c.is_alternate_art or c.treated_as)
        and now.limit(c.passcode) is None
        and nxt.limit(c.passcode) is None
    ][:37]
    lines = ["#main", *map(str, filler), *[str(banned)] * 3, "#extra", "!side"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, ds.cards.get(banned).name


def test_the_region_picks_when_the_next_list_starts(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    deck, card = _april_2024_deck(tmp_path / "deck.ydk")
    (tmp_path / "deckcheck.toml").write_text('format = "tcg"\nregion = "eu"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    # 2024-04-18: the April list is in force in North America, not yet in Europe
    assert cli("validate", "deck.ydk", "-d", "2024-04-18").code == 0
    res = cli("upcoming", "deck.ydk", "-d", "2024-04-18", "-o", "json")
    assert res.code == 1, res.stdout
    (one,) = json.loads(res.stdout)["decks"]
    assert one["outlook"] == "becomes-illegal"
    assert one["next_list"] == {
        "name": "2024-04-15 TCG",
        "effective": "2024-04-22",
        "announced": None,
    }
    assert [e["code"] for e in one["new_errors"]] == ["forbidden"]
    text = cli("upcoming", "deck.ydk", "-d", "2024-04-18").stdout
    assert "from 2024-04-22 (2024-04-15 TCG)" in text and card in text
    # --region na overrides the configuration: the April list is already in force there
    res = cli("upcoming", "deck.ydk", "-d", "2024-04-18", "--region", "na", "-o", "json")
    (one,) = json.loads(res.stdout)["decks"]
    assert one["next_list"]["name"] != "2024-04-15 TCG" and one["legal_now"] is False
    # and before its North American date, it starts there on 2024-04-15
    res = cli("upcoming", "deck.ydk", "-d", "2024-04-10", "--region", "na", "-o", "json")
    (one,) = json.loads(res.stdout)["decks"]
    assert (one["outlook"], one["next_list"]["effective"]) == ("becomes-illegal", "2024-04-15")
    fc = forecast([str(deck)], format="tcg", date=date(2024, 4, 18), region="eu")
    assert fc.decks[0].takes_effect == date(2024, 4, 22) and fc.exit_code == 1
    assert cli("upcoming", "deck.ydk", "--region", "mars").code == 2
