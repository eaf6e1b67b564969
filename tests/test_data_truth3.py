"""Data truth 3 (issue 31): dates from the earliest print of a known product, Speed Duel pool from
products, consistency checks, names in every official language, old names, pre-release codes.

Each test checks one fact with its public evidence (set code, product, date) through the public
API or the CLI.
"""

from __future__ import annotations

import json
from datetime import date

import pytest

import deckcheck
from deckcheck.card import CardIndex, Match
from deckcheck.card.release import Region

from .conftest import ROOT
from .test_data_truth import deck, pool_codes

REPORT = ROOT / "docs" / "card-index-report.md"


# --- 1. North American dates: the earliest English print's product, never a later reprint ------


@pytest.mark.parametrize(
    ("name", "first", "released"),
    [
        # AGOV-EN006, Age of Overlord: TCG 2023-10-19 (a later reprint is dated 2025-08-30)
        ("Diabellstar the Black Witch", date(2023, 10, 1), date(2023, 10, 19)),
        # KICO-EN001, King's Court: TCG 2021-07-08 (KICO was mapped to another product)
        ("Arcana Triumph Joker", date(2021, 7, 1), date(2021, 7, 8)),
        # BACH-EN070, Battle of Chaos: TCG 2022-02-10 (BACH-JP is also its +1 Bonus Pack's code)
        ("Dinomorphia Brute", date(2022, 2, 1), date(2022, 2, 10)),
        # ALIN-EN007, Alliance Insight: TCG 2025-05-01 (YGOJSON has no English prefix for it)
        ("Spore the Fairy Seed", date(2025, 4, 20), date(2025, 5, 1)),
    ],
)
def test_north_america_takes_the_first_english_product(
    index: CardIndex, name: str, first: date, released: date
) -> None:
    assert pool_codes(name, "tcg", first) == {"not-in-pool"}
    assert pool_codes(name, "tcg", released) == set()
    na = index.lookup_name(name).card.release(Region.NA)
    assert na is not None and na.date == released and na.confidence == "H"


def test_pre_2012_european_date_only_closes_a_window(index: CardIndex) -> None:
    # Gravekeeper's Stele, ABPF-EN056 (Absolute Powerforce): European release 2010-02-11; the
    # data has no North American date, and North America was never later: out by that day
    rel = index.lookup_name("Gravekeeper's Stele").card.release(Region.NA)
    assert rel is not None and rel.kind.value == "w" and str(rel.upper) == "2010-02-11"
    assert rel.confidence != "H"


# --- 3. windows narrowed to the evidence ------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fmt", "before"),
    [
        # Poisonous Viper: first English print BLGG-EN030 (a 2026 product the data does not
        # date); first print anywhere 26PP-JP005, Premium Pack 2026 (OCG 2025-12-20)
        ("Poisonous Viper", "tcg", date(2022, 6, 1)),
        ("Poisonous Viper", "tcg", date(2025, 12, 1)),
        # The Crimson King: BLZD-JP, Blazing Dominion (OCG 2026-01-24; YGOJSON has the product
        # without a prefix, linked by name)
        ("The Crimson King", "ocg", date(2025, 12, 1)),
        ("The Crimson King", "tcg", date(2025, 12, 1)),
    ],
)
def test_undated_prints_are_bounded_by_their_product(name: str, fmt: str, before: date) -> None:
    assert pool_codes(name, fmt, before) == {"not-in-pool"}


def test_crimson_king_is_dated_by_blazing_dominion(index: CardIndex) -> None:
    ocg = index.lookup_name("The Crimson King").card.release(Region.OCG)
    assert ocg is not None and str(ocg.date) == "2026-01-24" and ocg.confidence == "H"


# --- 4. consistency checks in the build -------------------------------------------------------


def test_report_has_each_consistency_rule_with_counts() -> None:
    text = REPORT.read_text(encoding="utf-8")
    section = text[text.index("## Consistency checks") :]
    for rule in ("tcg-before-ocg", "na-eu-apart", "before-product", "prefix-no-product"):
        row = next(line for line in section.splitlines() if line.startswith(f"| `{rule}` |"))
        count, new = (int(x) for x in row.split("|")[2:4])
        assert count >= 0 and new == 0, row
    baseline = ROOT / "deckcheck" / "data" / "builders" / "consistency_baseline.json"
    doc = json.loads(baseline.read_text(encoding="utf-8"))
    assert set(doc) == {"tcg-before-ocg", "na-eu-apart", "before-product", "prefix-no-product"}


def test_consistency_rules_flag_impossible_dates() -> None:
    from deckcheck.data.builders.consistency import check, new_violations
    from deckcheck.data.builders.release_dates import SetDates

    sets = SetDates(
        [
            {
                "name_en": "Some Pack",
                "locales": {
                    "jp": {"prefix": "SOME-JP", "date": "2020-01-01"},
                    "en": {"prefix": "SOME-EN", "date": None},
                    "de": {"prefix": "SOME-DE", "date": "2020-05-01"},
                },
            }
        ]
    )
    rows = [
        {
            "passcode": 1,
            "name": "Early",
            "prints": {"en": "SOME-EN001", "ja": "SOME-JP001"},
            "release": {
                "ocg": ["2020-06-01", "e", "ygojson", None],
                "na": ["2020-05-01", "e", "eu-same", None],
            },
        },
        {
            "passcode": 2,
            "name": "Apart",
            "prints": {"en": "SOME-EN002", "de": "SOME-DE002"},
            "release": {
                "na": ["2020-05-01", "e", "print", None],
                "eu": ["2020-09-01", "e", "ygojson", None],
            },
        },
        {
            "passcode": 3,
            "name": "Before",
            "prints": {"en": "SOME-EN003"},
            "release": {"na": ["2001-01-01", "e", "ygojson", None]},
        },
        {"passcode": 4, "name": "Orphan", "prints": {"en": "NONE-EN004"}, "release": {}},
    ]
    found = check(rows, sets)
    assert [v[0] for v in found["tcg-before-ocg"]] == ["1"]
    assert [v[0] for v in found["na-eu-apart"]] == ["2"]
    assert [v[0] for v in found["before-product"]] == ["3"]
    assert [v[0] for v in found["prefix-no-product"]] == ["NONE"]
    assert new_violations(found, {"tcg-before-ocg": {"1"}})["tcg-before-ocg"] == []


# --- 2. Speed Duel pool from products -----------------------------------------------------------

SPEED_FILLER = "\n".join(
    [
        "3 Dark Magician",
        "3 Blue-Eyes White Dragon",
        "3 Summoned Skull",
        "3 Celtic Guardian",
        "3 Mystical Elf",
        "3 Feral Imp",
        "2 Baby Dragon",
    ]
)


def speed_codes(extra: str, on: date) -> set[str]:
    text = SPEED_FILLER + "\n" + extra + "\n"
    report = deckcheck.validate(deckcheck.read_deck(text), "speed", on)
    return {v.code.value for v in report.violations if v.severity.value == "error"}


def test_skill_of_battle_city_finals_is_legal_from_its_product() -> None:
    # Sky God Revelation: Speed Duel: Battle City Finals (SBC2-EN), 2024-12-13, after EDOPro's
    # last Speed list (2024-07-09)
    assert "not-in-pool" in speed_codes("1 Sky God Revelation", date(2024, 12, 1))
    assert "not-in-pool" not in speed_codes("1 Sky God Revelation", date(2024, 12, 20))


def test_card_printed_in_a_speed_product_is_in_the_pool_from_its_date(index: CardIndex) -> None:
    # first printed in a Speed Duel product (yaml-yugi print code, e.g. SGX3-EN, Speed Duel GX:
    # Duelists of Shadows, 2023-03-30): in the pool from that product's date, listed or not
    found = []
    for card in index:
        rel = card.release(Region.SPEED)
        dated = rel is not None and rel.source == "speed-print" and str(rel.date) == "2023-03-30"
        if dated and card.zone.value == "main" and card.canonical == card.passcode:
            found.append(card)
    assert found
    line = f"1 {found[0].name}\n1 Sky God Revelation"
    assert "not-in-pool" in speed_codes(line, date(2023, 3, 1))
    assert "not-in-pool" not in speed_codes(line, date(2025, 1, 1))


def test_a_card_in_no_speed_product_is_not_in_the_speed_pool() -> None:
    # Accesscode Talker was never printed in a Speed Duel product
    assert "not-in-pool" in speed_codes("#extra\n1 Accesscode Talker\n#main", date(2025, 1, 1))


# --- 5. names: every language, old names, pre-release codes -------------------------------------


@pytest.mark.parametrize(
    ("written", "match"),
    [
        # Diabellstar the Black Witch (72270339): names printed in each language (AGOV-xx006)
        ("흑마녀 디아벨스타", Match.NAME_KO),
        ("Diabellstar la Sorcière Sombre", Match.NAME_FR),
        ("Diabellstar die schwarze Hexe", Match.NAME_DE),
        ("Diabellstar la Strega Nera", Match.NAME_IT),
        ("Diabellstar la Bruja Negra", Match.NAME_ES),
        ("Diabellstar, a Bruxa Negra", Match.NAME_PT),
        ("黑魔女 迪亞貝爾斯塔", Match.NAME_ZH_TW),
    ],
)
def test_names_in_every_official_language(index: CardIndex, written: str, match: Match) -> None:
    got = index.lookup_name(written)
    assert got.card.passcode == 72270339 and got.match is match
    report = deckcheck.validate(deckcheck.read_deck(deck(f"1 {written}")), "tcg", date(2024, 1, 1))
    assert not [v for v in report.violations if v.code.value == "unknown-card"]


@pytest.mark.parametrize(
    ("typo", "suggested"),
    [
        ("흑마녀 디아벨스", "흑마녀 디아벨스타 (Diabellstar the Black Witch)"),
        ("Magicien Sombr", "Magicien Sombre (Dark Magician)"),
        (
            "Diabellstar die schwarze Hex",
            "Diabellstar die schwarze Hexe (Diabellstar the Black Witch)",
        ),
    ],
)
def test_typo_suggestions_stay_in_the_language(index: CardIndex, typo: str, suggested: str) -> None:
    assert suggested in index.suggest(typo)


@pytest.mark.parametrize(
    ("old", "passcode"),
    # the names printed on Legend of Blue Eyes White Dragon (LOB-070) and Metal Raiders-era
    # cards: "Red-Eyes B. Dragon" (now Red-Eyes Black Dragon), "B. Skull Dragon"
    [("Red-Eyes B. Dragon", 74677422), ("B. Skull Dragon", 11901678)],
)
def test_old_printed_names_resolve(index: CardIndex, old: str, passcode: int) -> None:
    assert index.lookup_name(old).card.passcode == passcode


def test_cli_cards_show_reads_other_languages(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli("cards", "show", "Magicien Sombre", "--output", "json")
    assert res.code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["passcode"] == 46986414 and doc["match"] == "name-fr"


def test_prerelease_code_in_a_ydk_reads_as_the_released_card() -> None:
    # EDOPro's mappings.json: 101204083 -> 1607603 (Double Dai)
    text = "#main\n101204083\n" + "46986414\n" * 3 + "#extra\n!side\n"
    d = deckcheck.read_deck(text, fmt="ydk")
    assert [c.passcode for c in d.main][:1] == [1607603]
    report = deckcheck.validate(d, "tcg", date(2025, 1, 1))
    (v,) = [v for v in report.violations if v.code.value == "prerelease-code"]
    assert v.severity.value == "warning" and "1607603" in v.message and v.line == 2
