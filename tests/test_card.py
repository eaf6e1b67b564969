"""The bundled card index: contents, lookups, names, suggestions, regeneration, CLI."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.card import (
    FLAG_GOAT,
    FLAG_UNOFFICIAL,
    CardIndex,
    CardKind,
    DeckZone,
    ExtraKind,
    Match,
    normalize_name,
)
from deckcheck.data.dataset import Dataset
from deckcheck.error import UnknownCardError

from .conftest import ROOT, SHARED_DATA

MERGED_CDB = SHARED_DATA / "cards" / "derived" / "projectignis-cards.merged.cdb"


@pytest.mark.slow
def test_index_size_and_kinds(index: CardIndex) -> None:
    cards = list(index)
    official = [
        c
        for c in cards
        if (c.in_ocg or c.in_tcg)
        and not (c.is_rush or c.is_skill or c.is_unofficial or c.is_prerelease)
        and not c.is_goat_variant
    ]
    assert len(official) >= 14_000
    assert sum(c.is_skill for c in cards) >= 200
    assert sum(c.is_rush for c in cards) >= 3_000
    assert sum(c.is_legend for c in cards) > 0
    assert sum(c.is_unofficial for c in cards) > 5_000


@pytest.mark.slow
def test_every_alias_target_exists(index: CardIndex) -> None:
    for card in index:
        assert card.canonical in index
        if card.treated_as_passcode is not None:
            assert card.treated_as_passcode in index
            assert index.get(card.treated_as_passcode).name == card.treated_as


@pytest.mark.slow
@pytest.mark.skipif(not MERGED_CDB.exists(), reason="shared card data not present")
def test_extra_deck_counts_agree_with_the_shared_data_readme(index: CardIndex) -> None:
    con = sqlite3.connect(f"file:{MERGED_CDB}?mode=ro", uri=True)
    codes = [r[0] for r in con.execute("SELECT id FROM datas WHERE alias = 0")]
    con.close()
    kinds = {k: 0 for k in ExtraKind}
    tokens = 0
    for code in codes:
        card = index.get(code)
        if card.extra_kind is not None and not card.is_token:
            kinds[card.extra_kind] += 1
        tokens += card.is_token
    # numbers from shared/data/README.md, "Counts in the merged DB"
    assert kinds == {
        ExtraKind.FUSION: 567,
        ExtraKind.SYNCHRO: 532,
        ExtraKind.XYZ: 592,
        ExtraKind.LINK: 462,
    }
    assert tokens == 200


def test_alternate_artwork_resolves_to_original(index: CardIndex) -> None:
    found = index.lookup("14558128")
    assert found.match is Match.ALTERNATE_ART
    assert found.card.passcode == 14558127
    assert found.record.passcode == 14558128
    assert found.card.name == "Ash Blossom & Joyous Spring"
    assert found.card.name_zh == "灰流丽"
    assert found.card.zone is DeckZone.MAIN
    # far-away official reprint
    assert index.lookup(36996508).card.passcode == 46986414


def test_treated_as_is_not_an_alternate_artwork(index: CardIndex) -> None:
    harpie1 = index.lookup("Harpie Lady 1").card
    assert harpie1.passcode == 91932350
    assert harpie1.canonical == 91932350
    assert harpie1.treated_as == "Harpie Lady"
    assert harpie1.limit_name == "Harpie Lady"
    assert not harpie1.is_alternate_art


@pytest.mark.parametrize(
    ("query", "match"),
    [("8949584", Match.UNPADDED), ("08949584", Match.PADDED), ("8949584 ", Match.UNPADDED)],
)
def test_short_and_padded_passcodes(index: CardIndex, query: str, match: Match) -> None:
    found = index.lookup(query)
    assert found.card.passcode == 8949584
    assert found.match is match


@pytest.mark.slow
def test_prerelease_code_maps_to_official_passcode(index: CardIndex) -> None:
    mapped = [c for c in index if c.is_prerelease and c.canonical != c.passcode]
    assert mapped, "expected pre-release codes mapped to released cards"
    found = index.lookup(mapped[0].passcode)
    assert found.match is Match.PRERELEASE
    assert not found.card.is_prerelease


@pytest.mark.parametrize(
    "name",
    [
        "accesscode talker",
        "ACCESSCODE   TALKER",
        "Ａｃｃｅｓｓｃｏｄｅ Ｔａｌｋｅｒ",
        "アクセスコード・トーカー",
        "访问码语者",
    ],
)
def test_name_lookup_is_forgiving_about_form(index: CardIndex, name: str) -> None:
    card = index.lookup(name).card
    assert card.passcode == 86066372
    assert card.extra_kind is ExtraKind.LINK
    assert card.zone is DeckZone.EXTRA


def test_quote_styles_and_punctuation(index: CardIndex) -> None:
    assert index.lookup("Maxx “C”").card.passcode == 23434538
    assert index.lookup('maxx "c"').card.passcode == 23434538
    assert index.lookup("Ash Blossom and Joyous Spring").card.passcode == 14558127
    assert normalize_name("Ｐｏｔ  of-Greed!") == normalize_name("pot of greed")


def test_language_of_the_match_is_reported(index: CardIndex) -> None:
    assert index.lookup("灰流丽").match is Match.NAME_ZH
    assert index.lookup("灰流うらら").match is Match.NAME_JA
    assert index.lookup("Ash Blossom & Joyous Spring").match is Match.NAME_EN


def test_rush_preference(index: CardIndex) -> None:
    ocg = index.lookup("Blue-Eyes White Dragon").card
    rush = index.lookup("Blue-Eyes White Dragon", rush=True).card
    assert ocg.passcode == 89631139 and not ocg.is_rush
    assert rush.is_rush and rush.name == "Blue-Eyes White Dragon"


@pytest.mark.slow
def test_unknown_name_has_ranked_suggestions(index: CardIndex) -> None:
    with pytest.raises(UnknownCardError) as err:
        index.lookup("Ash Blosom")
    assert err.value.suggestions[0] == "Ash Blossom & Joyous Spring"


@pytest.mark.slow
def test_unknown_passcode(index: CardIndex) -> None:
    with pytest.raises(UnknownCardError):
        index.lookup("99999999")


def test_kinds(index: CardIndex) -> None:
    assert index.get(55144522).kind is CardKind.SPELL
    assert index.lookup("Mirror Force").card.kind is CardKind.TRAP
    skill = next(c for c in index if c.is_skill)
    assert skill.kind is CardKind.SKILL and skill.zone is DeckZone.NONE
    token = next(c for c in index if c.is_token)
    assert token.zone is DeckZone.NONE


def test_release_dates_and_ids(index: CardIndex) -> None:
    ash = index.get(14558127)
    assert str(ash.ocg_date) == "2017-01-14"
    assert str(ash.tcg_date) == "2017-05-04"
    assert ash.konami_id == 12950


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED_DATA / "cards").is_dir(), reason="shared card data not present")
def test_regenerated_index_equals_committed(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "build_card_index.py"),
            "--data",
            str(SHARED_DATA),
            "--out",
            str(tmp_path),
            "--report",
            str(tmp_path / "report.md"),
        ],
        check=True,
        capture_output=True,
    )
    for name in ("cards.jsonl", "names.json", "names-intl.jsonl"):
        assert (tmp_path / name).read_bytes() == (
            ROOT / "deckcheck" / "data" / "bundled" / name
        ).read_bytes()
    committed = ROOT / "docs" / "card-index-report.md"
    assert (tmp_path / "report.md").read_bytes() == committed.read_bytes()


def test_index_holds_no_card_text() -> None:
    head = (
        (ROOT / "deckcheck" / "data" / "bundled" / "cards.jsonl")
        .read_text(encoding="utf-8")
        .split("\n")[0]
    )
    fields = json.loads(head)["fields"]
    assert not {"desc", "text", "effect"} & set(fields)


# --- CLI ------------------------------------------------------------------------------


def test_cli_show_json_alternate_art(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli("cards", "show", "14558128", "--output", "json")
    assert res.code == 0
    data = json.loads(res.stdout)
    assert data["canonical"] == 14558127
    assert data["name"] == "Ash Blossom & Joyous Spring"
    assert data["names"]["zh-CN"] == "灰流丽"
    assert data["zone"] == "main"
    assert data["match"] == "alternate-artwork"
    assert data["alternate_artwork"] is True


def test_cli_show_text(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli("cards", "show", "accesscode talker")
    assert res.code == 0
    assert "Link" in res.stdout and "Extra Deck" in res.stdout
    for query in ("灰流丽", "8949584", "08949584"):
        assert cli("cards", "show", query).code == 0


@pytest.mark.slow
def test_cli_unknown_card_exits_2_with_suggestions(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli("cards", "show", "Ash Blosom")
    assert res.code == 2
    assert "Ash Blossom & Joyous Spring" in res.stderr
    assert res.stdout == ""


def test_cli_search(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli("cards", "search", "blossom", "--limit", "3", "--output", "json")
    assert res.code == 0
    results = json.loads(res.stdout)["results"]
    assert 1 <= len(results) <= 3
    assert all("blossom" in r["name"].lower() for r in results)
    assert cli("cards", "search", "zzqqxxjjvv").code == 1


@pytest.mark.slow
def test_cli_subprocess_entry_point(cli_proc) -> None:  # type: ignore[no-untyped-def]
    proc = cli_proc("cards", "show", "55144522", "--output", "json")
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["name"] == "Pot of Greed"


def test_flagged_reads_every_passcode_asked_for_in_order() -> None:
    """``flagged`` gives the GOAT versions and unofficial cards among the passcodes asked
    for, in their order; checked against every card record, built one by one."""
    index = Dataset.active().cards
    every = index.passcodes()
    want = [
        c.passcode for c in (index.get(p) for p in every) if c.is_goat_variant or c.is_unofficial
    ]
    asked = [*reversed(every), 999_999_999_999]  # and a passcode of no card
    got = [c.passcode for c in index.flagged(asked, FLAG_GOAT | FLAG_UNOFFICIAL)]
    assert got == want[::-1] and len(got) > 100
    goat = [c.passcode for c in index.flagged(every, FLAG_GOAT)]
    assert goat == [p for p in want if index.get(p).is_goat_variant] and goat
