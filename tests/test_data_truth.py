"""Data truth (issue 11): card names, release dates, region flags and list entries.

Each test is one fact checked against public histories of the game, through the public API:
a card at a date gives a verdict.
"""

from __future__ import annotations

import re
from datetime import date

import pytest

import deckcheck
from deckcheck.card import CardIndex
from deckcheck.data.dataset import Dataset

from .conftest import ROOT

FILLER = "3 Dark Magician\n3 Blue-Eyes White Dragon\n3 Summoned Skull\n3 Celtic Guardian\n"
FILLER += "3 Mystical Elf\n3 Feral Imp\n3 Giant Soldier of Stone\n3 Gaia the Fierce Knight\n"
FILLER += "3 Curse of Dragon\n3 Baby Dragon\n3 Beaver Warrior\n3 Silver Fang\n3 Koumori Dragon\n"


def codes(text: str, fmt: str, on: date, **kw: object) -> set[str]:
    """Violation codes (errors and warnings) of a text deck in a format at a date."""
    report = deckcheck.validate(deckcheck.read_deck(text), fmt, on, **kw)  # type: ignore[arg-type]
    return {v.code.value for v in report.violations if v.severity.value != "note"}


def deck(*lines: str, filler: int = 40) -> str:
    """A Main Deck of the given lines topped up with old vanilla monsters to ``filler`` cards."""
    n = sum(int(ln.split()[0]) for ln in lines)
    out = list(lines)
    for ln in FILLER.splitlines():
        if n >= filler:
            break
        k = min(3, filler - n)
        out.append(f"{k} {ln.split(' ', 1)[1]}")
        n += k
    return "\n".join(out) + "\n"


# --- cards: official names -------------------------------------------------------------


@pytest.mark.parametrize(
    ("passcode", "name"),
    [
        (11302671, "Adamancipator Analyzer"),
        (31434645, "Cursed Eldland"),
        (60880471, "Hellebore the Rikka Fairy"),
        (66664203, "Cyber Dragon, the Luminous Mech Dragon"),
        (3739500, "Ruler of the End of the World"),
    ],
)
def test_official_english_names(index: CardIndex, passcode: int, name: str) -> None:
    assert index.get(passcode).name == name


def test_text_deck_with_official_name_resolves() -> None:
    assert codes(deck("3 Adamancipator Analyzer"), "tcg", date(2021, 1, 1)) == set()


@pytest.mark.parametrize(
    ("old", "passcode"), [("Adamatia Analyzer", 11302671), ("Cursed El Dorlando", 31434645)]
)
def test_database_names_stay_search_aliases(index: CardIndex, old: str, passcode: int) -> None:
    assert index.lookup_name(old).card.passcode == passcode


# --- cards: region flags vs release dates -----------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "Elder Entity Norden",
        "Adamancipator Analyzer",
        "Cursed Eldland",
        "Eldlixir of Black Awakening",
        "Conquistador of the Golden Land",
        "Huaquero of the Golden Land",
        "El Dorado Adelantado",
        "Mind Master",
    ],
)
def test_cards_with_a_tcg_release_are_in_the_tcg_pool(name: str) -> None:
    extra = name == "Elder Entity Norden"
    text = deck("1 Mind Master" if name == "Mind Master" else f"1 {name}")
    if extra:
        text = deck() + "#extra\n1 Elder Entity Norden\n"
    assert "not-in-pool" not in codes(text, "tcg", date(2024, 1, 1))


# --- cards: unknown TCG dates -------------------------------------------------------------


def test_undated_tcg_card_is_not_in_the_pool_before_its_ocg_release() -> None:
    assert "not-in-pool" in codes(deck("1 Enneacraft - Atori.MAR"), "tcg", date(2013, 6, 15))


def test_undated_tcg_card_after_its_ocg_release_is_warned_not_silent() -> None:
    found = codes(deck("1 Enneacraft - Atori.MAR"), "tcg", date(2026, 1, 10))
    assert found == {"release-date-unknown"}
    report = deckcheck.validate(
        deckcheck.read_deck(deck("1 Enneacraft - Atori.MAR")), "tcg", date(2026, 1, 10)
    )
    assert report.legal


# --- cards: promos -------------------------------------------------------------------------


def test_promo_release_counts_archfiend_of_gilfer_in_goat() -> None:
    assert "not-in-pool" not in codes(deck("1 Archfiend of Gilfer"), "goat", date(2005, 6, 1))


def test_promo_release_date_is_the_earliest_product(index: CardIndex) -> None:
    gilfer = index.lookup_name("Archfiend of Gilfer").card
    assert gilfer.tcg_date is not None and gilfer.tcg_date <= date(2005, 6, 1)


# --- the card-index build report ---------------------------------------------------------

REPORT = ROOT / "docs" / "card-index-report.md"


@pytest.mark.slow
def test_flags_and_dates_disagree_only_with_a_recorded_reason(index: CardIndex) -> None:
    from deckcheck.card.release import Region, ReleaseKind

    recorded: set[tuple[int, str]] = set()
    for line in REPORT.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| (\d+) \| .* \| (OCG|NA|EU) \| (.+) \|$", line)
        if m and m.group(3).strip():
            recorded.add((int(m.group(1)), m.group(2)))
    missing = date_no_flag = 0
    for card in index:
        if card.canonical != card.passcode or card.is_unofficial or card.is_prerelease:
            continue
        if card.is_rush or card.is_skill or card.is_token or card.is_goat_variant:
            continue
        regions = ([Region.OCG] if card.in_ocg else []) + (
            [Region.NA, Region.EU] if card.in_tcg else []
        )
        for region in regions:
            rel = card.release(region)
            unsure = rel is None or rel.kind is not ReleaseKind.EVIDENCE
            if unsure and (card.passcode, region.value.upper()) not in recorded:
                missing += 1
        if (card.tcg_date and not card.in_tcg) or (card.ocg_date and not card.in_ocg):
            date_no_flag += 1
    assert (missing, date_no_flag) == (0, 0)


def test_build_report_counts_what_each_source_decided() -> None:
    text = REPORT.read_text(encoding="utf-8")
    assert "| names: Konami's English name (yaml-yugi) replaced the cdb name | 36 |" in text
    assert "| NA w: TimeWizard TCG pools (between the last pool without it and the first" in text
    assert "| OCG e: yaml-yugi print code's product (matched by name) |" in text
    assert "## North American and European dates that differ" in text
    # every undated card is listed with the bound used
    assert (
        "| 433377 | Blitzclique - Steppleader | NA | Konami status 'Unlimited'; "
        "window 2026-03-20 .. " in text
    )
    assert "## Consistency checks" in text


# --- lists: ties, duplicates, mis-dated lists ---------------------------------------------


@pytest.mark.parametrize(
    "line", ["3 Graceful Charity", "3 Harpie's Feather Duster", "3 Heavy Storm"]
)
def test_tcg_2002_12_01_is_the_published_list(line: str) -> None:
    found = codes(deck(line), "tcg", date(2003, 1, 15))
    if line == "3 Heavy Storm":
        assert "over-limit" in found  # Semi-Limited on the published list
    else:
        assert "over-limit" not in found


def test_dark_magician_of_chaos_unlimited_before_october_2004() -> None:
    found = codes(deck("3 Dark Magician of Chaos"), "tcg", date(2004, 6, 1))
    assert "over-limit" not in found and "forbidden" not in found


def test_imperial_order_forbidden_on_2004_08_25() -> None:
    assert "forbidden" in codes(deck("1 Imperial Order"), "tcg", date(2004, 8, 25))


def test_ocg_2013_11_01_duplicate_is_not_a_list() -> None:
    found = codes(deck("3 Dandylion", "3 Lonefire Blossom"), "ocg", date(2013, 12, 1))
    assert "over-limit" in found


def test_ocg_2021_02_20_keeps_cursed_eldland_semi_limited() -> None:
    assert "over-limit" in codes(deck("3 Cursed Eldland"), "ocg", date(2021, 3, 1))


def test_master_duel_misdated_list_is_dropped() -> None:
    assert "forbidden" not in codes(deck(), "master-duel", date(2025, 1, 8)) | codes(
        deck() + "#extra\n1 Abyss Dweller\n", "master-duel", date(2025, 1, 8)
    )
    found = codes(deck() + "#extra\n1 Abyss Dweller\n", "master-duel", date(2025, 1, 7))
    assert "upcoming-change" not in found


def test_reconciliation_ties_before_2013_are_few() -> None:
    text = (ROOT / "banlists" / "RECONCILIATION.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([a-z-]+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|", text, re.M)
    assert rows, "the summary table is missing"
    before_2013 = sum(int(r[5]) for r in rows)
    # 384 ties before 2013 settled lists before issue 11 (TCG 106, Edison 273, GOAT 5)
    assert before_2013 <= 384 // 4


# --- pools: Edison, Worlds ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["XX-Saber Darksoul", "Infernity Barrier", "Effect Veiler"])
def test_edison_pool_ends_with_absolute_powerforce(name: str) -> None:
    assert "not-in-pool" in codes(deck(f"1 {name}"), "edison", date(2010, 5, 1))


def test_worlds_pool_needs_both_regions() -> None:
    found = codes(deck("1 Wicked Dragon with the Ersatz Head"), "worlds", date(2024, 1, 1))
    assert "not-in-pool" in found


# --- TCG regions, formats output --------------------------------------------------------------


def test_tcg_april_2024_uses_the_north_american_date() -> None:
    from deckcheck.rule.banlist import read_banlist_file

    path = ROOT / "banlists" / "tcg" / "2024-04-15.toml"
    assert path.exists()
    april = read_banlist_file(path)
    assert (april.effective, april.effective_eu) == (date(2024, 4, 15), date(2024, 4, 22))
    may = read_banlist_file(ROOT / "banlists" / "tcg" / "2022-05-17.toml")
    assert (may.effective, may.effective_eu) == (date(2022, 5, 17), date(2022, 5, 23))


def test_formats_show_prints_each_note_once_and_explains_confidence(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli("formats", "show", "tcg-2002")
    notes = [ln for ln in res.stdout.splitlines() if ln.strip().startswith("note:")]
    assert len(notes) == len(set(notes))
    assert "H official or several sources agree" in res.stdout
    assert "M one reputable source" in cli("formats").stdout


@pytest.mark.parametrize(
    ("region", "expected"),
    [(None, {"over-limit"}), ("na", {"over-limit"}), ("eu", {"upcoming-change"})],
)
def test_april_2024_list_in_force_on_2024_04_18_in_north_america_not_europe(
    region: str | None, expected: set[str]
) -> None:
    # Anti-Spell Fragrance became Limited on the April 2024 list: 2024-04-15 in North America,
    # 2024-04-22 in Europe (announced, so Europe gets the upcoming-change warning)
    found = codes(deck("3 Anti-Spell Fragrance"), "tcg", date(2024, 4, 18), region=region)
    assert found == expected


def test_may_2022_list_dates_differ_by_region() -> None:
    from deckcheck.data.entry import get_format

    tcg = get_format("tcg")
    na = tcg.banlist_at(date(2022, 5, 20), Dataset.active())
    eu = tcg.in_region("eu").banlist_at(date(2022, 5, 20), Dataset.active())
    assert na is not None and eu is not None
    assert (na.effective, eu.effective) == (date(2022, 5, 17), date(2022, 2, 7))
    assert tcg.in_region("eu").banlist_at(date(2022, 5, 23), Dataset.active()) == na


def test_region_reaches_traditional_and_batch_check(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "deck.txt"
    path.write_text(deck("1 Chicken Game"), encoding="utf-8")
    # Chicken Game: Forbidden until the April 2024 list made it Limited
    assert deckcheck.check([str(path)], "tcg", date(2024, 4, 18)).exit_code == 0
    assert deckcheck.check([str(path)], "tcg", date(2024, 4, 18), region="eu").exit_code == 1
    trad = deckcheck.get_format("traditional").in_region("eu")
    bl = trad.banlist_at(date(2024, 4, 18), Dataset.active())
    assert bl is not None and bl.effective == date(2024, 1, 1)


def test_unknown_region_is_a_clear_input_error() -> None:
    with pytest.raises(deckcheck.InputError, match="'na'"):
        deckcheck.validate(deckcheck.read_deck(deck()), "tcg", date(2024, 4, 18), region="jp")


@pytest.mark.slow
def test_region_flag_and_format_file_key(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "deck.txt"
    path.write_text(deck("3 Anti-Spell Fragrance"), encoding="utf-8")
    assert cli("validate", str(path), "-d", "2024-04-18").code == 1
    assert cli("validate", str(path), "-d", "2024-04-18", "--region", "eu").code == 0
    assert cli("validate", str(path), "-d", "2024-04-18", "--region", "jp").code == 2
    club = tmp_path / "club.toml"
    club.write_text('base = "tcg"\ntcg_region = "eu"\n', encoding="utf-8")
    assert cli("validate", str(path), "-d", "2024-04-18", "--format-file", str(club)).code == 0
    # --region overrides the file's key
    res = cli(
        "validate", str(path), "-d", "2024-04-18", "--format-file", str(club), "--region", "na"
    )
    assert res.code == 1
    club.write_text('base = "tcg"\ntcg_region = "europe"\n', encoding="utf-8")
    res = cli("validate", str(path), "-d", "2024-04-18", "--format-file", str(club))
    assert res.code == 2 and "tcg_region" in res.stderr


def test_region_in_banlist_and_formats_commands(cli) -> None:  # type: ignore[no-untyped-def]
    import json

    eu = cli("banlist", "show", "tcg", "-d", "2024-04-18", "--region", "eu")
    assert eu.code == 0 and eu.stdout.startswith("2024-01-01 TCG")
    na = json.loads(cli("banlist", "show", "tcg", "-d", "2024-04-18", "-o", "json").stdout)
    assert (na["effective"], na["effective_eu"]) == ("2024-04-15", "2024-04-22")
    shown = json.loads(
        cli("formats", "show", "tcg", "-d", "2024-04-18", "--region", "eu", "-o", "json").stdout
    )
    assert shown["tcg_region"] == "eu"
    assert shown["upcoming"][0] == {"name": "2024-04-15 TCG", "effective": "2024-04-22"}
    diff = cli("banlist", "diff", "tcg", "2024-04-18", "2024-04-25", "--region", "eu")
    assert "2024-01-01 TCG -> 2024-04-15 TCG" in diff.stdout
    export = cli("banlist", "export", "tcg", "-d", "2024-04-18", "--region", "eu", "--to", "toml")
    assert 'name = "2024-01-01 TCG"' in export.stdout


# --- truncated .ydk -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tail", "missing"),
    [("", ["#extra", "!side"]), ("#extra\n", ["!side"]), ("!side\n", ["#extra"])],
)
def test_truncated_ydk_gets_a_missing_sections_note(tail: str, missing: list[str]) -> None:
    main = "".join(f"{c}\n" for c in [89631139, 46986414, 55144522] * 1)
    deck_ = deckcheck.read_deck("#created by x\n#main\n" + main + tail, fmt="ydk")
    report = deckcheck.validate(deck_, "tcg", date(2025, 1, 1))
    notes = [v for v in report.violations if v.code.value == "missing-sections"]
    assert len(notes) == 1
    assert notes[0].severity.value == "note" and notes[0].line == 2
    assert all(h in notes[0].message for h in missing)
    assert len(deck_.main) == 3


def test_complete_ydk_has_no_missing_sections_note(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli("validate", str(ROOT / "examples" / "tcg-legal.ydk"), "-o", "json")
    assert "missing-sections" not in res.stdout
    ydk = "#main\n" + "89631139\n" * 3 + "#extra\n#side\n"
    assert "missing-sections" not in cli("validate", "-", "-o", "json", input=ydk).stdout


def test_truncated_ydk_note_in_cli_output(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli("validate", "-", "-d", "2025-01-01", input="#main\n89631139\n")
    assert "missing-sections" in res.stdout and "no #extra and no !side" in res.stdout


# --- Speed Duel: published dates, limit groups ----------------------------------------------

SPEED_MAIN = [1784619, 3797883, 5053103, 8715625, 13429800, 15025844, 17658803]  # in every pool
SPEED_SKILL = 300101001


def speed_codes(extra: list[int], on: date) -> set[str]:
    """Violation codes of a legal 20-card Speed Duel deck (+ one Skill) plus ``extra`` cards."""
    main = [c for c in SPEED_MAIN for _ in range(3)][:20]
    text = "#main\n" + "".join(f"{c}\n" for c in [*main, *extra, SPEED_SKILL]) + "#extra\n!side\n"
    report = deckcheck.validate(deckcheck.read_deck(text, fmt="ydk"), "speed", on)
    return {v.code.value for v in report.violations if v.severity.value == "error"}


def test_speed_lists_take_the_published_dates() -> None:
    from deckcheck.data.entry import get_format

    speed = get_format("speed")
    got = [
        speed.banlist_at(date.fromisoformat(d), Dataset.active())
        for d in ("2022-09-09", "2022-09-10")
    ]
    assert [b.effective if b else None for b in got] == [date(2022, 3, 1), date(2022, 9, 10)]
    assert got[0] is not None and got[0].approximate  # before the first published list
    assert got[1] is not None and not got[1].approximate
    # EDOPro's "2023.09" list is the one published 2023-09-30, not in force on 2023-09-15
    mid = speed.banlist_at(date(2023, 9, 15), Dataset.active())
    assert mid is not None and mid.effective == date(2023, 4, 22)


# Reinforcement of the Army and Jinzo: both Limited 1 until the list published 2023-09-30 moved
# them to Limited 2 (EDOPro labels that list 2023.09, i.e. 2023-09-01: a month early)
@pytest.mark.parametrize(
    ("on", "expected"),
    [("2023-09-15", {"limit-group"}), ("2023-09-29", {"limit-group"}), ("2023-09-30", set())],
)
def test_speed_limited_1_is_one_card_from_the_whole_group(on: str, expected: set[str]) -> None:
    assert speed_codes([32807846, 77585513], date.fromisoformat(on)) == expected


def test_speed_groups_count_every_card_and_skills() -> None:
    on = date(2024, 2, 1)
    assert speed_codes([81439173, 81439173], on) == set()  # Foolish Burial x2: Limited 2
    # two different Limited 2 cards and one more: three from a group of two
    assert speed_codes([81439173, 81439173, 1475311], on) == {"limit-group"}
    # the Skill Twisted Personality is Limited 1 too (with Golden Ladybug)
    main = [*[c for c in SPEED_MAIN for _ in range(3)][:20], 87102774]
    text = "#main\n" + "".join(f"{c}\n" for c in [*main, 300205004]) + "#extra\n!side\n"
    report = deckcheck.validate(deckcheck.read_deck(text, fmt="ydk"), "speed", on)
    group = [v for v in report.violations if v.code.value == "limit-group"]
    assert len(group) == 1 and group[0].found == 2 and group[0].allowed == 1
    assert "over-limit" not in {v.code.value for v in report.violations}


def test_speed_groups_survive_files_and_lflist_export(cli) -> None:  # type: ignore[no-untyped-def]
    from deckcheck.rule.banlist import dump_lflist, read_banlist_file, read_lflist

    path = ROOT / "banlists" / "speed" / "2025-07-11.toml"
    bl = read_banlist_file(path)
    assert bl.groups[19230407] == 1 and bl.groups[81439173] == 2
    (back,) = read_lflist(dump_lflist(bl), "export", family="speed")
    assert dict(back.groups) == dict(bl.groups) and dict(back.entries) == dict(bl.entries)
    shown = cli("banlist", "show", "speed", "-d", "2025-08-01")
    assert "Limited 1 group: 1 card(s) in total" in shown.stdout


# --- Genesys: announced dates, approximate snapshot dates -----------------------------------


def test_genesys_list_of_june_2026_takes_effect_2026_06_08() -> None:
    # Big Welcome Labrynth went from 20 to 15 points on the list effective 2026-06-08
    report = deckcheck.validate(
        deckcheck.read_deck(deck("1 Big Welcome Labrynth")), "genesys", date(2026, 6, 10)
    )
    assert report.banlist is not None and report.banlist.effective == date(2026, 6, 8)
    assert report.points == 15


@pytest.mark.slow
def test_genesys_snapshot_dates_are_marked_approximate(cli) -> None:  # type: ignore[no-untyped-def]
    import json

    def shown(on: str) -> dict[str, object]:
        res = cli("banlist", "show", "genesys", "-d", on, "-o", "json")
        return json.loads(res.stdout)  # type: ignore[no-any-return]

    assert shown("2026-05-20")["approximate"] is True  # a snapshot date only
    assert shown("2026-06-10")["approximate"] is False  # EDOPro names the day: 2026.06.08
    assert shown("2025-09-23")["approximate"] is False  # YGOJSON confirms 2025-09-22
    text = cli("banlist", "show", "genesys", "-d", "2026-05-20").stdout
    assert "approximate" in text.splitlines()[1]
    fmt = cli("formats", "show", "genesys", "-d", "2026-05-20").stdout
    assert "date approximate" in fmt


# --- Rush Duel: the pool follows release dates ------------------------------------------------


def rush_codes(extra: list[int], on: date) -> dict[str, list[str]]:
    """Codes (errors and warnings) of a Rush deck of launch cards plus ``extra`` passcodes."""
    launch = [160001001 + i for i in range(14)]  # Lizard Soldier ... (Rush Duel's launch set)
    cards = [c for c in launch for _ in range(3)][: 40 - len(extra)] + extra
    text = "#main\n" + "".join(f"{c}\n" for c in cards) + "#extra\n!side\n"
    report = deckcheck.validate(deckcheck.read_deck(text, fmt="ydk", rush=True), "rush", on)
    out: dict[str, list[str]] = {}
    for v in report.violations:
        if v.severity.value != "note":
            out.setdefault(v.code.value, []).append(v.name or "")
    return out


def test_rush_gilford_the_lightning_was_not_out_in_2021() -> None:
    # Gilford the Lightning (Rush, Konami id 18582) came out around the turn of 2023
    assert rush_codes([160012000], date(2021, 6, 1)) == {"not-in-pool": ["Gilford the Lightning"]}
    assert rush_codes([160012000], date(2023, 6, 1)) == {}


def test_rush_pool_is_not_frozen_at_81_cards_over_2020_2022() -> None:
    # Sunny Fairy Spinangel (2021): legal in 2022, when EDOPro's frozen list did not hold it
    assert rush_codes([160006001], date(2022, 6, 1)) == {}
    assert rush_codes([160006001], date(2020, 6, 1)) == {"not-in-pool": ["Sunny Fairy Spinangel"]}
    assert rush_codes([], date(2020, 4, 4)) == {}  # the launch set, on launch day


def test_rush_lists_are_limits_not_the_pool() -> None:
    from deckcheck.rule.banlist import read_banlist_dir

    lists = read_banlist_dir(ROOT / "banlists" / "rush")
    assert lists and not any(b.whitelist for b in lists)
    assert date(2020, 5, 17) not in {b.effective for b in lists}  # EDOPro's frozen 81 cards
    assert all(v < 3 for b in lists for v in b.entries.values())


def test_rush_card_without_a_date_warns(index: CardIndex) -> None:
    undated = index.get(160022200)  # OuTerverSe: no Konami id (no yaml-yugi record), no list
    assert undated.is_rush and undated.ocg_date is None
    assert rush_codes([160022200], date(2026, 8, 1)) == {"release-date-unknown": ["OuTerverSe"]}


def test_rush_dates_are_never_before_the_launch(index: CardIndex) -> None:
    dated = [c.ocg_date for c in index if c.is_rush and c.ocg_date is not None]
    assert len(dated) > 3000 and min(dated) == date(2020, 4, 4)


# --- issue 20: release dates from evidence, per region ------------------------------------------


def pool_codes(name: str, fmt: str, on: date, *, extra: bool = False, **kw: object) -> set[str]:
    """Pool codes (not-in-pool, release-date-unknown) of a deck holding one copy of ``name``."""
    text = deck() + f"#extra\n1 {name}\n" if extra else deck(f"1 {name}")
    found = codes(text, fmt, on, **kw)
    return found & {"not-in-pool", "release-date-unknown"}


@pytest.mark.parametrize(
    ("name", "on"),
    [
        # no dated print in any region; Konami ids 23001 / 22000s: the newest products (CORI,
        # yaml-yugi print codes CORI-EN052, ...); YGOJSON has no date for them
        ("Blitzclique - Steppleader", date(2013, 6, 1)),
        ("Over Tuning", date(2020, 1, 1)),
        ("Darkuriboh", date(2024, 6, 1)),
    ],
)
def test_undated_new_cards_are_not_in_old_pools(name: str, on: date) -> None:
    assert pool_codes(name, "tcg", on) == {"not-in-pool"}
    assert pool_codes(name, "ocg", on) == {"not-in-pool"} or name == "Over Tuning"


def test_undated_card_message_says_why_and_how_sure() -> None:
    report = deckcheck.validate(
        deckcheck.read_deck(deck("1 Blitzclique - Steppleader")), "tcg", date(2013, 6, 1)
    )
    (v,) = [v for v in report.violations if v.code.value == "not-in-pool"]
    assert "no dated release" in v.message and "confidence L" in v.message
    assert "Konami ids" in v.message


@pytest.mark.parametrize(
    "name",
    # OCG 2020-12-05 (Selection 10), TCG 2021-04-15 (Ghosts From the Past: YGOJSON holds the
    # product without a print prefix; yaml-yugi prints GFTP-EN034, GFTP-EN013, GFTP-EN035)
    ["Starry Knight Arrival", "Time Thief Double Barrel", "Starry Knight Balefire"],
)
def test_tcg_card_without_tcg_date_is_not_in_the_pool_from_its_ocg_date(name: str) -> None:
    assert pool_codes(name, "tcg", date(2021, 1, 15)) == {"not-in-pool"}
    assert pool_codes(name, "tcg", date(2021, 4, 20)) == set()
    assert pool_codes(name, "ocg", date(2021, 1, 15)) == set()


@pytest.mark.parametrize(
    ("name", "inside", "before", "extra"),
    [
        # YZ02-EN001 (Yu-Gi-Oh! ZEXAL Volume 2, December 2012; YGOJSON has no English date):
        # TimeWizard's 2012-11-09 pool lacks it, its 2013-05-12 pool holds it
        ("Number 50: Blackship of Corn", date(2013, 1, 15), date(2012, 10, 1), True),
        # JUMP-EN037 (Shonen Jump promo, 2009/10): pools 2009-08-15 without, 2010-02-27 with
        ("Obelisk the Tormentor", date(2010, 1, 20), date(2009, 6, 1), False),
        # a Worldwide Edition game promo: pools 2004-06-26 without, 2005-02-13 with
        ("Archfiend of Gilfer", date(2004, 12, 1), date(2004, 5, 1), False),
    ],
)
def test_promo_first_cards_are_in_their_window_not_refused(
    name: str, inside: date, before: date, extra: bool
) -> None:
    assert pool_codes(name, "tcg", inside, extra=extra) == {"release-date-unknown"}
    assert pool_codes(name, "tcg", before, extra=extra) == {"not-in-pool"}


@pytest.mark.parametrize(
    "name",
    # V Jump promos VJMP-JP289 (Ilios) and the newest VJMP numbers: the series is shared by
    # every V Jump issue; each number came out after every dated lower number (2025-2026)
    ["Ilios the Black Sun Dragon", "Guivre", "Capsule Monster Chess"],
)
def test_promo_series_prefix_does_not_date_new_promos_early(name: str) -> None:
    assert pool_codes(name, "ocg", date(2010, 6, 1)) == {"not-in-pool"}
    assert pool_codes(name, "ocg", date(2025, 6, 1)) == {"not-in-pool"}


@pytest.mark.parametrize(
    ("name", "released"),
    [
        # 307 = Invader of Darkness (2003-07-17), 308 = The Sanctuary in the Sky (2003-11-20):
        # YGOJSON has both products without a prefix, and dated the cards by their Asian-English
        # release (IOC-AE, 2004); yaml-yugi's Japanese print codes 307-010, 307-..., 308-...
        ("Dark Magician of Chaos", date(2003, 7, 17)),
        ("Skull-Mark Ladybug", date(2003, 7, 17)),
        ("Hyper Hammerhead", date(2003, 7, 17)),
        ("Stone Statue of the Aztecs", date(2003, 11, 20)),
        ("Amplifier", date(2003, 11, 20)),
    ],
)
def test_2003_japanese_sets_date_their_cards(name: str, released: date) -> None:
    assert pool_codes(name, "ocg", released) == set()
    assert pool_codes(name, "ocg", date(2003, 7, 1)) == {"not-in-pool"}


@pytest.mark.parametrize(
    ("name", "on", "na", "eu"),
    [
        # Cybernetic Revolution: English (NA) 2005-08-17, German/Portuguese 2005-08-01
        ("Cyber End Dragon", date(2005, 8, 10), {"not-in-pool"}, set()),
        # Starlight Road, Duelist Pack Collection Tin 2009: English 2009-03-10, French 2009-03-03
        ("Starlight Road", date(2009, 3, 5), {"not-in-pool"}, set()),
        # Black Luster Soldier - Envoy of the Beginning: Invasion of Chaos NA 2004-03-01;
        # the first European-language print is dated 2005-10-01
        ("Black Luster Soldier - Envoy of the Beginning", date(2005, 1, 1), set(), {"not-in-pool"}),
    ],
)
def test_region_picks_release_dates(name: str, on: date, na: set[str], eu: set[str]) -> None:
    extra = name == "Cyber End Dragon"
    assert pool_codes(name, "tcg", on, extra=extra, region="na") == na
    assert pool_codes(name, "tcg", on, extra=extra) == na  # North America by default
    assert pool_codes(name, "tcg", on, extra=extra, region="eu") == eu


def test_format_file_region_picks_release_dates(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "deck.txt"
    path.write_text(deck("1 Kuriboh") + "#extra\n1 Cyber End Dragon\n", encoding="utf-8")
    club = tmp_path / "club.toml"
    club.write_text('base = "tcg"\ntcg_region = "eu"\n', encoding="utf-8")
    assert cli("validate", str(path), "-d", "2005-08-10").code == 1
    assert cli("validate", str(path), "-d", "2005-08-10", "--format-file", str(club)).code == 0


def test_card_show_lists_releases_with_sources(cli) -> None:  # type: ignore[no-untyped-def]
    import json

    shown = json.loads(cli("cards", "show", "Number 50: Blackship of Corn", "-o", "json").stdout)
    na = shown["releases"]["na"]
    assert (na["kind"], na["date"], na["upper"]) == ("window", "2012-11-10", "2013-05-12")
    assert (
        shown["releases"]["ocg"]["kind"] == "dated"
        and "YGOJSON" in shown["releases"]["ocg"]["source"]
    )


# --- issue 20: the Master Duel pool -----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "absent", "present"),
    [
        # Fiendsmith Engraver: OCG 2024-04-27; YGOJSON's Master Duel history: 'unreleased' on
        # the 2025-02-06 list, Semi-Limited on 2025-03-06
        ("Fiendsmith Engraver", date(2022, 1, 20), date(2025, 3, 6)),
        # Tearlaments Scheiren: 'unreleased' on 2023-04-10, restricted on 2023-05-01
        ("Tearlaments Scheiren", date(2023, 1, 1), date(2023, 5, 1)),
        # Bystial Druiswurm: 'unreleased' on the 2023-06-08 list, restricted on 2023-07-01
        ("Bystial Druiswurm", date(2023, 6, 1), date(2023, 7, 1)),
    ],
)
def test_master_duel_pool_follows_master_duel_releases(
    name: str, absent: date, present: date
) -> None:
    assert pool_codes(name, "master-duel", absent) == {"not-in-pool"}
    assert pool_codes(name, "master-duel", present) == set()


@pytest.mark.parametrize(
    "name",
    # OCG-only cards of 2025-2026 without a Master Duel rarity, legality or list entry
    ["Ilios the Black Sun Dragon", "Guivre"],
)
def test_cards_not_in_master_duel_are_refused(name: str) -> None:
    found = codes(deck(f"1 {name}"), "master-duel", date(2026, 11, 1))
    assert "not-in-pool" in found


def test_master_duel_holds_older_cards_from_its_launch() -> None:
    # Ash Blossom (paper 2017, Master Duel rarity UR): in the game from its launch, no warning
    assert pool_codes("Ash Blossom & Joyous Spring", "master-duel", date(2022, 1, 19)) == set()


def test_master_duel_unknown_date_is_bounded_and_warned() -> None:
    # Labrynth Cooclock: OCG 2022-03-19, in Master Duel (yaml-yugi rarity R) by 2026-08-22;
    # no source says when it was added
    assert pool_codes("Labrynth Cooclock", "master-duel", date(2022, 2, 1)) == {"not-in-pool"}
    assert pool_codes("Labrynth Cooclock", "master-duel", date(2023, 2, 1)) == {
        "release-date-unknown"
    }
    assert pool_codes("Labrynth Cooclock", "master-duel", date(2026, 9, 1)) == set()


# --- issue 20: text lists -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        "デッキ名:ふわんだりぃず",
        "デッキ名：ふわんだりぃず",
        "Deck Name: ふわんだりぃず",
        "卡组名：ふわんだりぃず",
        "デッキネーム: ふわんだりぃず",
        "Nom du deck: ふわんだりぃず",
        "Nombre del mazo: ふわんだりぃず",
    ],
)
def test_deck_name_headers_name_the_deck(header: str) -> None:
    got = deckcheck.read_deck(f"{header}\n3 Ash Blossom & Joyous Spring\n")
    assert got.name == "ふわんだりぃず"
    assert [c.name for c in got.main] == ["Ash Blossom & Joyous Spring"] * 3
    assert not got.findings


@pytest.mark.parametrize(
    ("line", "name", "count"),
    [
        ("3 Ash Blossom & Joyous Spring [MACR-EN036]", "Ash Blossom & Joyous Spring", 3),
        ("1 Accesscode Talker (RA01-EN008)", "Accesscode Talker", 1),
        ("2x Pot of Greed (LOB-119)", "Pot of Greed", 2),
        ("Effect Veiler x2 [DREV-EN002]", "Effect Veiler", 2),
        ("Effect Veiler [DREV-EN002] x2", "Effect Veiler", 2),
        ("1 Number 50: Blackship of Corn (YZ02-EN001)", "Number 50: Blackship of Corn", 1),
    ],
)
def test_set_codes_after_a_name_are_ignored(line: str, name: str, count: int) -> None:
    got = deckcheck.read_deck(line + "\n")
    cards = got.main + got.extra
    assert [c.name for c in cards] == [name] * count and not got.findings


@pytest.mark.slow
def test_a_name_in_brackets_that_is_not_a_set_code_stays_unknown() -> None:
    got = deckcheck.read_deck("1 Ash Blossom & Joyous Spring [best card]\n")
    assert [f.code.value for f in got.findings] == ["unknown-card"]


# --- issue 20: Genesys point totals show their cards ------------------------------------------

GENESYS = (
    '3 Maxx "C"\n3 Ash Blossom & Joyous Spring\n3 Big Welcome Labrynth\n1 Pot of Extravagance\n'
)


def genesys_deck() -> str:
    """A 40-card Genesys deck: four cards with points (2026-06-08 list) and vanilla filler."""
    return deck(*GENESYS.strip().splitlines())


def test_genesys_points_list_the_cards_largest_first(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    # points on the 2026-06-08 list: Maxx "C" 50, Ash Blossom 20, Big Welcome Labrynth 15,
    # Pot of Extravagance 10 (EDOPro "2026.06.08 Genesys", yaml-yugi-limit-regulation genesys)
    report = deckcheck.validate(deckcheck.read_deck(genesys_deck()), "genesys", date(2026, 6, 10))
    made = [(c.name, c.copies, c.each, c.points) for c in report.point_cards]
    assert made == [
        ('Maxx "C"', 3, 50, 150),
        ("Ash Blossom & Joyous Spring", 3, 20, 60),
        ("Big Welcome Labrynth", 3, 15, 45),
        ("Pot of Extravagance", 1, 10, 10),
    ]
    assert report.points == sum(c.points for c in report.point_cards) == 265
    path = tmp_path / "deck.txt"
    path.write_text(genesys_deck(), encoding="utf-8")
    text = cli("validate", str(path), "-f", "genesys", "-d", "2026-06-10").stdout
    assert 'points: 3x Maxx "C" 50 = 150, 3x Ash Blossom & Joyous Spring 20 = 60' in text
    doc = json.loads(
        cli("validate", str(path), "-f", "genesys", "-d", "2026-06-10", "-o", "json").stdout
    )
    got = doc["results"][0]["points"] if "results" in doc else doc["points"]
    assert got["cards"][0] == {
        "name": 'Maxx "C"',
        "passcode": 23434538,
        "copies": 3,
        "each": 50,
        "points": 150,
    }
    out = tmp_path / "out"
    assert (
        cli("batch", str(path), "--out", str(out), "-f", "genesys", "-d", "2026-06-10", "-q").code
        == 1
    )
    html = next(out.glob("*.html")).read_text(encoding="utf-8")
    assert "265/100 points: 3x Maxx &quot;C&quot; 50 = 150" in html


# --- issue 20: Rush Duel Legend rule, Konami's lists -----------------------------------------


def rush_deck(main: list[int], side: list[int] = (), on: date = date(2023, 6, 1)) -> set[str]:  # type: ignore[assignment]
    """Error codes of a Rush deck of launch cards plus ``main`` (and a Side Deck ``side``)."""
    launch = [160001001 + i for i in range(14)]
    cards = [c for c in launch for _ in range(3)][: 40 - len(main)] + main
    text = "#main\n" + "".join(f"{c}\n" for c in cards) + "#extra\n!side\n"
    text += "".join(f"{c}\n" for c in side)
    report = deckcheck.validate(deckcheck.read_deck(text, fmt="ydk", rush=True), "rush", on)
    return {v.code.value for v in report.violations if v.severity.value == "error"}


# Konami announced in 2022-11 that from 2023-01-01 a Rush deck may hold 1 Legend Monster,
# 1 Legend Spell and 1 Legend Trap (before: 1 Legend card in total).
@pytest.mark.parametrize(
    ("on", "expected"),
    [("2022-12-15", {"legend-limit"}), ("2022-12-31", {"legend-limit"}), ("2023-01-01", set())],
)
def test_rush_legend_rule_changes_on_2023_01_01(on: str, expected: set[str]) -> None:
    # Blue-Eyes White Dragon (Legend Monster) + Shield & Sword (Legend Spell) + Trap Hole (Trap)
    got = rush_deck([160001000, 160201009, 160202019], on=date.fromisoformat(on))
    assert got == expected


def test_rush_side_deck_legends_are_not_counted() -> None:
    # Rush tournament rules: the Side Deck may hold several Legend cards of a kind; the limit
    # is for the Main + Extra Deck (dic.pixiv.net "レジェンドカード", citing the 大会規定)
    assert rush_deck([160001000], side=[160002000, 160003000]) == set()
    assert rush_deck([160001000, 160002000]) == {"legend-limit"}


def test_rush_2024_01_01_list_is_konamis() -> None:
    from deckcheck.rule.banlist import read_banlist_file

    # Konami's list of 2024-01-01 (yaml-yugi-limit-regulation rush/2024-01-01.vector.json):
    # 12 entries; The Magical Grace Spear (EDOPro: "Magical Lance - Grace Spear") Limited 1;
    # Legend Strike and Obsidian Magical Soldier only came on the 2024-04-01 list
    bl = read_banlist_file(ROOT / "banlists" / "rush" / "2024-01-01.toml")
    assert len(bl.entries) == 12
    assert bl.entries[160013055] == 1  # The Magical Grace Spear
    assert 160014057 not in bl.entries and 160209081 not in bl.entries
    assert 160208018 not in bl.entries  # Divinebreath the Orchestral Music Fiend


def test_rush_cards_take_konamis_names(index: CardIndex) -> None:
    # yaml-yugi's Rush names (Konami) for EDOPro's: matched by name and stats
    assert index.get(160013055).name == "The Magical Grace Spear"
    assert index.lookup_name("Magical Lance - Grace Spear", rush=True).card.passcode == 160013055
    assert index.get(160013055).konami_id is not None


# --- issue 20: Speed Duel Skills ------------------------------------------------------------------

SPEED_NAMES = "3 Uraby\n3 Slot Machine\n3 Battle Ox\n3 Bokoichi the Freightening Car\n"
SPEED_NAMES += "3 Great White\n3 Mystical Elf\n2 Luster Dragon #2\n"  # 20 cards, in every list


@pytest.mark.parametrize(
    ("skill", "off", "on"),
    [
        # Sky God Revelation (300309001): first on the 2025-07-11 Speed list; its product came
        # out 2024-12-13 (YGOJSON)
        (300309001, date(2024, 7, 20), date(2025, 7, 11)),
        # Ectoplasmic Fortification! (300101001): listed from the first list on
        (300101001, None, date(2020, 3, 1)),
    ],
)
def test_speed_skills_are_checked_against_the_list_in_force(
    skill: int, off: date | None, on: date
) -> None:
    def skill_deck(on: date) -> set[str]:
        main = [c for c in SPEED_MAIN for _ in range(3)][:20]
        text = "#main\n" + "".join(f"{c}\n" for c in [*main, skill]) + "#extra\n!side\n"
        report = deckcheck.validate(deckcheck.read_deck(text, fmt="ydk"), "speed", on)
        return {v.code.value for v in report.violations if v.severity.value == "error"}

    if off is not None:
        assert skill_deck(off) == {"not-in-pool"}
    assert skill_deck(on) == set()


def test_speed_skill_message_names_the_list() -> None:
    main = [c for c in SPEED_MAIN for _ in range(3)][:20]
    text = "#main\n" + "".join(f"{c}\n" for c in [*main, 300309001]) + "#extra\n!side\n"
    report = deckcheck.validate(deckcheck.read_deck(text, fmt="ydk"), "speed", date(2023, 6, 1))
    (v,) = [v for v in report.violations if v.code.value == "not-in-pool"]
    # the Skill's product, Speed Duel: Battle City Finals (SBC2-EN), 2024-12-13: the lists give
    # limits, not the pool
    assert "Sky God Revelation" in v.message and "2024-12-13" in v.message


@pytest.mark.parametrize("line", ["1 Destiny Draw", "Skill: Destiny Draw", "スキル：Destiny Draw"])
def test_speed_names_resolve_to_skills(line: str) -> None:
    text = SPEED_NAMES + line + "\n"
    report = deckcheck.validate(deckcheck.read_deck(text), "speed", date(2024, 2, 1))
    assert report.legal and report.counts["main"] == 20, report.violations
    # in the OCG/TCG the plain name is still the Spell Card
    assert deckcheck.read_deck("1 Destiny Draw\n").main[0].card.is_skill is False  # type: ignore[union-attr]


def test_simulate_does_not_draw_the_skill(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "speed.txt"
    path.write_text(SPEED_NAMES + "1 Destiny Draw\n", encoding="utf-8")
    res = cli("simulate", str(path), "-f", "speed", "-d", "2024-02-01", "--trials", "500")
    assert res.code == 0, res.stderr
    assert "deck: 20 Main Deck cards" in res.stdout and "Destiny Draw" not in res.stdout
    # Uraby x3 of 20 cards in a 4-card hand: 1 - C(17,4)/C(20,4)
    from math import comb

    assert f"{100 * (1 - comb(17, 4) / comb(20, 4)):.1f}%" in res.stdout


@pytest.mark.parametrize(
    ("passcode", "before", "after"),
    [
        # Totem Dragon, D.D. Scout Plane: on EDOPro's "2022.10" Speed list (last changed
        # 2023-08-03), not on its "2022.10.07 Midterm Paradox Box" snapshot (changed 2022-10-08);
        # first Speed print Speed Duel GX: Duelists of Shadows (SGX3, 2023-03-30)
        (564541, date(2022, 9, 20), date(2023, 3, 30)),
        (3773196, date(2022, 9, 20), date(2023, 3, 30)),
        # Scroll of Bewitchment: Speed Duel GX: Midterm Paradox (SGX2, 2022-10-06)
        (10352095, date(2022, 9, 20), date(2022, 10, 6)),
    ],
)
def test_speed_lists_hold_only_cards_released_in_speed(
    passcode: int, before: date, after: date
) -> None:
    main = [c for c in SPEED_MAIN for _ in range(3)][:19]

    def found(on: date) -> set[str]:
        text = "#main\n" + "".join(f"{c}\n" for c in [*main, passcode, SPEED_SKILL])
        report = deckcheck.validate(
            deckcheck.read_deck(text + "#extra\n!side\n", fmt="ydk"), "speed", on
        )
        return {v.code.value for v in report.violations if v.severity.value != "note"}

    assert found(before) == {"not-in-pool"}
    assert found(after) == set()


@pytest.mark.parametrize(
    "text",
    [
        "メインデッキ（40枚）\n3 灰流うらら\nエクストラデッキ（15枚）\n1 アクセスコード・トーカー\n"
        "サイドデッキ(15枚)\n2 増殖するG\n",
        "主卡组（40张）\n3 灰流丽\n额外卡组(15张)\n1 访问码语者\n副卡组 15张\n2 增殖的Z\n",
    ],
)
def test_headings_with_card_counts_switch_sections(text: str) -> None:
    got = deckcheck.read_deck(text)
    assert not got.findings
    assert [c.name for c in got.extra] == ["Accesscode Talker"]
    assert [c.name for c in got.side] == ['Maxx "C"'] * 2


def test_build_report_lists_na_eu_differences_with_the_reason() -> None:
    text = REPORT.read_text(encoding="utf-8")
    # Cybernetic Revolution: English 2005-08-17 (North America), German 2005-08-01 (YGOJSON)
    assert (
        "| 1546123 | Cyber End Dragon | 2005-08-17 | 2005-08-01 | North America: dated print "
        "confirmed by the TimeWizard TCG pools; Europe: YGOJSON first release of the locale |"
    ) in text
    m = re.search(r"^(\d+) cards, (\d+) of them a week or more apart", text, re.M)
    assert m and int(m.group(1)) >= int(m.group(2)) > 0


def test_duel_links_lists_hold_their_skill() -> None:
    text = SPEED_NAMES + "Skill: Destiny Draw\n"
    report = deckcheck.validate(deckcheck.read_deck(text), "duel-links", date(2024, 2, 1))
    assert report.legal and report.counts["main"] == 20, report.violations
    # outside Speed Duel and Duel Links a Skill is still no deck card
    tcg = deckcheck.validate(deckcheck.read_deck(text), "tcg", date(2024, 2, 1))
    assert "not-a-deck-card" in {v.code.value for v in tcg.violations}
