"""Eras and formats: registry, aliases, rules by date, organiser format files, CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from deckcheck.data.dataset import Dataset
from deckcheck.data.entry import get_format, list_eras, list_formats, load_format_file
from deckcheck.error import DataError, UnknownFormatError
from deckcheck.rule.banlist import dump_lflist
from deckcheck.rule.format import Pool, SizeRule

RULES_FORMATS = [
    "tcg",
    "ocg",
    "traditional",
    "worlds",
    "goat",
    "edison",
    "hat",
    "time-wizard",
    "speed",
    "duel-links",
    "rush",
    "master-duel",
    "genesys",
]
RULES_ERAS = [
    "ocg-expert-1999",
    "ocg-new-expert-2000",
    "tcg-2002",
    "mr1-2008",
    "mr2-2011",
    "mr3-2014",
    "mr4-2017",
    "mr2020",
    "lp4000",
    "mr4-ex20",
]


def test_size_rule() -> None:
    assert SizeRule(40, 60).allows(40) and not SizeRule(40, 60).allows(61)
    assert SizeRule(40, None).allows(500) and SizeRule(40, None).describe() == "≥40"
    side = SizeRule(0, 15, zero_or_exact=15)
    assert side.allows(0) and side.allows(15) and not side.allows(10)
    assert side.describe() == "0 or 15" and SizeRule(40, 60).describe() == "40–60"


def test_every_rules_format_and_era_is_registered() -> None:
    ids = {f.id for f in list_formats()}
    assert set(RULES_FORMATS) <= ids and set(RULES_ERAS) <= ids
    assert set(RULES_ERAS) <= {e.id for e in list_eras()}


@pytest.mark.parametrize(
    ("alias", "target"),
    [
        ("advanced", "tcg"),
        ("TCG", "tcg"),
        ("World", "worlds"),
        ("md", "master-duel"),
        ("MR4-EX20", "mr4-ex20"),
    ],
)
def test_aliases(alias: str, target: str) -> None:
    assert get_format(alias).id == target


def test_unknown_format_lists_valid_names() -> None:
    with pytest.raises(UnknownFormatError) as err:
        get_format("advaned")
    assert "tcg" in err.value.valid and "lp4000" in err.value.valid


def test_eras_by_date() -> None:
    tcg, ocg = get_format("tcg"), get_format("ocg")
    assert tcg.era_at(date(2005, 1, 1)).id == "tcg-2002"
    assert tcg.era_at(date(2008, 8, 12)).id == "tcg-2002"
    assert tcg.era_at(date(2008, 8, 13)).id == "mr1-2008"
    assert ocg.era_at(date(2008, 3, 1)).id == "mr1-2008"
    assert tcg.era_at(date(2014, 7, 13)).first_player_draws
    assert not tcg.era_at(date(2014, 7, 14)).first_player_draws
    assert ocg.era_at(date(1999, 6, 1)).hand_limit is None
    assert tcg.era_at(date(2024, 1, 1)).id == "mr2020"


def test_house_eras() -> None:
    lp = get_format("lp4000")
    era = lp.era_at(date(2024, 1, 1))
    assert era.main.describe() == "40–80" and era.life_points == 4000 and era.first_player_draws
    assert era.side.allows(15) and not era.side.allows(7)
    assert (
        lp.banlist_at(date(2024, 1, 1), Dataset.active()) is None
        and lp.copy_limit == 3
        and lp.pool is Pool.ANY
    )
    ex20 = get_format("mr4-ex20").era_at(date(2024, 1, 1))
    assert ex20.extra.allows(20) and not ex20.extra.allows(21) and "seed" in ex20.provenance
    assert get_format("mr3-2014").era_at(date(2030, 1, 1)).id == "mr3-2014"


def test_special_rules() -> None:
    gen = get_format("genesys")
    assert gen.point_cap == 100 and gen.forbidden_types == {"link", "pendulum"}
    assert get_format("speed").skill_cards == 1
    rush = get_format("rush")
    assert rush.legend_limits_at(date(2022, 6, 1)) == {"total": 1}
    assert rush.legend_limits_at(date(2023, 1, 1)) == {"monster": 1, "spell": 1, "trap": 1}
    assert rush.era_at(date(2023, 1, 1)).draw_up_to == 5
    assert get_format("duel-links").limit_groups is not None
    assert get_format("duel-links").banlist_at(date(2024, 1, 1), Dataset.active()) is None


def test_fixed_whitelist_formats() -> None:
    for name, when in (
        ("goat", date(2005, 4, 1)),
        ("edison", date(2010, 3, 1)),
        ("hat", date(2014, 4, 1)),
    ):
        b = get_format(name).banlist_at(date(2026, 1, 1), Dataset.active())
        assert b is not None and b.whitelist and b.effective == when and len(b.entries) > 1000
        assert get_format(name).upcoming(date(2000, 1, 1), Dataset.active()) == []


def test_format_file(tmp_path: Path) -> None:
    lf = tmp_path / "club.lflist.conf"
    tcg = get_format("tcg").banlist_at(date(2024, 6, 1), Dataset.active())
    assert tcg is not None
    lf.write_text(dump_lflist(tcg), encoding="utf-8")
    path = tmp_path / "club.toml"
    path.write_text(
        'id = "club"\nname = "Club MR4 EX20"\nbase = "tcg"\nera = "mr4-2017"\n'
        'banlist = "club.lflist.conf"\npoint_cap = 50\n'
        "[rules]\nextra = { max = 20 }\nhand_limit = 7\n",
        encoding="utf-8",
    )
    fmt = load_format_file(path)
    era = fmt.era_at(date(2024, 6, 1))
    assert era.extra.describe() == "0–20" and era.hand_limit == 7 and era.main.describe() == "40–60"
    assert fmt.point_cap == 50 and fmt.pool is Pool.TCG
    b = fmt.banlist_at(date(2024, 6, 1), Dataset.active())
    assert b is not None and dict(b.entries) == dict(tcg.entries)


def test_format_file_with_family(tmp_path: Path) -> None:
    path = tmp_path / "old.toml"
    path.write_text(
        'era = "tcg-2002"\nbanlist_family = "tcg"\nbanlist_date = 2005-04-01\npool = "tcg"\n',
        encoding="utf-8",
    )
    fmt = load_format_file(path)
    assert fmt.id == "old"
    b = fmt.banlist_at(date(2020, 1, 1), Dataset.active())
    assert b is not None and b == Dataset.active().banlists.get("tcg", date(2005, 4, 1))


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('era = "mr9"\n', "era"),
        ('era = "mr2020"\ncolour = 1\n', "colour"),
        ('base = "nope"\n', "base"),
        ('era = "mr2020"\n[rules]\nmain = { min = "x" }\n', "main"),
        ('era = "mr2020"\npool = "moon"\n', "pool"),
        ('era = "mr2020"\nbanlist = "x.conf"\n', "banlist"),
        ("era = [\n", "cannot read"),
    ],
)
def test_format_file_errors(tmp_path: Path, text: str, key: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_format_file(path)
    assert "bad.toml" in str(err.value) and key in str(err.value)


# ---- CLI


def test_cli_formats_json(cli: Callable[..., Any]) -> None:
    res = cli("formats", "--output", "json")
    assert res.code == 0
    data = json.loads(res.stdout)
    ids = {f["id"] for f in data["formats"]}
    assert set(RULES_FORMATS) | set(RULES_ERAS) <= ids
    tcg = next(f for f in data["formats"] if f["id"] == "tcg")
    assert "advanced" in tcg["aliases"]
    eras = {e["id"]: e for e in data["eras"]}
    assert eras["lp4000"]["main"]["text"] == "40–80" and eras["lp4000"]["house"]
    assert eras["tcg-2002"]["side"]["zero_or_exact"] == 15


def test_cli_formats_show(cli: Callable[..., Any], tmp_path: Path) -> None:
    res = cli("formats", "show", "advanced", "--date", "2010-01-01", "--output", "json")
    assert res.code == 0
    data = json.loads(res.stdout)
    assert data["era_at_date"]["id"] == "mr1-2008"
    assert data["banlist_at_date"]["effective"] == "2009-09-01"
    text = cli("formats", "show", "mr4-ex20")
    assert text.code == 0 and "Extra 0–20" in text.stdout
    path = tmp_path / "f.toml"
    path.write_text('era = "lp4000"\n', encoding="utf-8")
    res = cli("formats", "show", "--format-file", str(path), "--output", "json")
    assert res.code == 0 and json.loads(res.stdout)["era_at_date"]["id"] == "lp4000"
    bad = cli("formats", "show", "nope")
    assert bad.code == 2 and "valid formats" in bad.stderr
