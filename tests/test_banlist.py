"""Ban lists through the public API and the CLI: lists in force on dates, diff, export."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from deckcheck.data.bundle import write_manifest
from deckcheck.data.dataset import Dataset
from deckcheck.data.entry import get_format
from deckcheck.error import DataError
from deckcheck.rule.banlist import BanlistCatalog, TcgRegion, dump_lflist, read_lflist

from .conftest import ROOT

POT_OF_GREED = 55144522
MAXX_C = 23434538
ASH = 14558127
ASH_ALT = 14558128
GRACEFUL_CHARITY = 79571449


def tcg_limit(code: int, d: date) -> int | None:
    b = get_format("tcg").banlist_at(d, Dataset.active())
    assert b is not None
    return b.limit(code)


@pytest.mark.parametrize(
    ("code", "day", "expected"),
    [
        (POT_OF_GREED, date(2002, 5, 1), 1),  # the first TCG list (TimeWizard 2002-05-01)
        (POT_OF_GREED, date(2004, 10, 1), 1),  # first Forbidden list: Pot of Greed not on it
        (GRACEFUL_CHARITY, date(2004, 10, 1), 0),
        (GRACEFUL_CHARITY, date(2004, 8, 24), 1),
        # rules.md says Forbidden began Oct 2004; TimeWizard + YGOJSON: from 2004-08-25
        (GRACEFUL_CHARITY, date(2004, 8, 25), 0),
        (POT_OF_GREED, date(2005, 9, 30), 1),
        (POT_OF_GREED, date(2005, 10, 1), 0),
        (POT_OF_GREED, date(2026, 6, 1), 0),
        (MAXX_C, date(2017, 12, 1), 1),
        (MAXX_C, date(2018, 2, 5), 0),  # the data: Forbidden from 2018-02-05, not 2020-09
        (MAXX_C, date(2020, 9, 14), 0),
    ],
)
def test_tcg_list_in_force(code: int, day: date, expected: int | None) -> None:
    assert tcg_limit(code, day) == expected


def test_tcg_before_the_first_list_is_the_empty_launch_list() -> None:
    b = get_format("tcg").banlist_at(date(2002, 4, 1), Dataset.active())
    assert b is not None and b.effective == date(2002, 3, 1) and not b.entries
    assert get_format("tcg").banlist_at(date(2001, 1, 1), Dataset.active()) is None


def test_no_tcg_forbidden_entry_before_august_2004() -> None:
    for b in Dataset.active().banlists.lists("tcg"):
        if b.effective < date(2004, 8, 25):
            assert 0 not in b.entries.values(), b.name


def test_ash_blossom_never_forbidden_in_tcg() -> None:
    for b in Dataset.active().banlists.lists("tcg"):
        assert b.limit(ASH) != 0


def test_alternate_artwork_resolves_to_its_original() -> None:
    ocg = get_format("ocg").banlist_at(date(2019, 1, 1), Dataset.active())
    assert ocg is not None
    assert ocg.limit(ASH) == 2 and ocg.limit(ASH_ALT) == 2


def test_real_effective_dates_not_labels() -> None:
    tcg = Dataset.active().banlists.lists("tcg")
    dates = {b.effective for b in tcg}
    assert date(2005, 4, 1) in dates and date(2005, 3, 1) not in dates
    label = Dataset.active().banlists.get("tcg", date(2005, 4, 1))
    assert label is not None and label.label == "March 2005"
    assert date(2024, 12, 9) in dates and date(2026, 5, 18) in dates


def test_a_2025_change_from_the_data() -> None:
    """Whatever changed on 2025-04-07, the diff sees exactly those cards."""
    cat = Dataset.active().banlists
    before, after = cat.in_force("tcg", date(2025, 4, 6)), cat.get("tcg", date(2025, 4, 7))
    assert before is not None and after is not None
    changes = before.diff(after)
    assert changes
    for code, old, new in changes:
        assert before.entries.get(code) == old and after.entries.get(code) == new


def test_upcoming_lists() -> None:
    fmt = get_format("tcg")
    up = fmt.upcoming(date(2026, 3, 1), Dataset.active())
    assert [b.effective for b in up] == [date(2026, 5, 18)]
    assert fmt.upcoming(date(2026, 6, 1), Dataset.active()) == []


def test_traditional_reads_forbidden_as_limited() -> None:
    trad = get_format("traditional").banlist_at(date(2024, 1, 1), Dataset.active())
    tcg = get_format("tcg").banlist_at(date(2024, 1, 1), Dataset.active())
    assert trad is not None and tcg is not None
    assert tcg.limit(POT_OF_GREED) == 0 and trad.limit(POT_OF_GREED) == 1
    assert 0 not in trad.entries.values()
    assert set(trad.entries) == set(tcg.entries)


def test_worlds_is_the_stricter_of_tcg_and_ocg() -> None:
    d = date(2024, 6, 1)
    w, t, o = (get_format(n).banlist_at(d, Dataset.active()) for n in ("worlds", "tcg", "ocg"))
    assert w is not None and t is not None and o is not None
    for code in set(t.entries) | set(o.entries):
        assert w.entries[code] == min(t.entries.get(code, 3), o.entries.get(code, 3))


def test_genesys_is_a_points_list() -> None:
    b = get_format("genesys").banlist_at(date(2026, 1, 1), Dataset.active())
    assert b is not None and b.points and b.point_cap == 100
    assert any(v > 3 for v in b.entries.values())
    code = next(iter(b.entries))
    assert b.points_of(code) == b.entries[code]


def test_read_lflist_directives() -> None:
    text = (
        "\ufeff#[a]\n!2024.04 My List\n$whitelist\n89631139 3 --Blue-Eyes\n46986414 -1\n"
        "!2025.1 Points\n$genesys\n$pointcap 60\n14558127 20\n"
    )
    wl, pts = read_lflist(text)
    assert wl.whitelist and wl.effective == date(2024, 4, 1) and wl.entries[46986414] == 0
    assert pts.points and pts.point_cap == 60 and pts.points_of(14558127) == 20
    again = read_lflist(dump_lflist([wl, pts]))
    assert [dict(b.entries) for b in again] == [dict(wl.entries), dict(pts.entries)]


def test_read_lflist_rejects_junk() -> None:
    with pytest.raises(DataError):
        read_lflist("!2024.1 x\nnot a line\n")
    with pytest.raises(DataError):
        read_lflist("!no date here\n1 1\n")
    problems: list[str] = []
    (b,) = read_lflist("!2024.1 x\n12 --no count\n14558127 1\n", problems=problems)
    assert len(problems) == 1 and dict(b.entries) == {14558127: 1}


# ---- CLI


def test_cli_show_json_across_dates(cli: Callable[..., Any]) -> None:
    for day, expected in (("2003-01-01", 1), ("2005-10-01", 0), ("2024-06-01", 0)):
        res = cli("banlist", "show", "tcg", "--date", day, "--output", "json")
        assert res.code == 0, res.stderr
        data = json.loads(res.stdout)
        pot = [e for e in data["entries"] if e["passcode"] == POT_OF_GREED]
        assert pot and pot[0]["limit"] == expected and pot[0]["name"] == "Pot of Greed"
        assert data["effective"] <= day


def test_cli_show_text(cli: Callable[..., Any]) -> None:
    res = cli("banlist", "show", "advanced", "--date", "2004-10-01")
    assert res.code == 0
    assert "Forbidden (13):" in res.stdout and "Graceful Charity" in res.stdout


def test_cli_diff(cli: Callable[..., Any]) -> None:
    res = cli("banlist", "diff", "tcg", "2017-12-01", "2018-03-01", "--output", "json")
    assert res.code == 0
    data = json.loads(res.stdout)
    maxx = [c for c in data["changes"] if c["passcode"] == MAXX_C]
    assert maxx == [
        {
            "passcode": MAXX_C,
            "name": 'Maxx "C"',
            "from": 1,
            "to": 0,
            "from_text": "Limited",
            "to_text": "Forbidden",
        }
    ]
    text = cli("banlist", "diff", "tcg", "2017-12-01", "2018-03-01")
    assert 'Maxx "C": Limited -> Forbidden' in text.stdout


def test_cli_export_round_trips(cli: Callable[..., Any]) -> None:
    res = cli("banlist", "export", "tcg", "--date", "2020-10-01", "--to", "lflist")
    assert res.code == 0
    (b,) = read_lflist(res.stdout)
    ref = get_format("tcg").banlist_at(date(2020, 10, 1), Dataset.active())
    assert ref is not None and dict(b.entries) == dict(ref.entries)


@pytest.mark.slow
def test_cli_errors_exit_2(cli: Callable[..., Any]) -> None:
    res = cli("banlist", "show", "no-such-format")
    assert res.code == 2 and "tcg" in res.stderr and "goat" in res.stderr
    res = cli("banlist", "show", "tcg", "--date", "2024-13-45")
    assert res.code == 2 and "bad date" in res.stderr
    res = cli("banlist", "show", "tcg", "--date", "1998-01-01")
    assert res.code == 2 and "before the first" in res.stderr
    res = cli("banlist", "show", "lp4000")
    assert res.code == 2 and "no ban list" in res.stderr


def test_cli_warns_after_the_data(cli: Callable[..., Any]) -> None:
    res = cli("banlist", "show", "tcg", "--date", "2030-01-01", "--output", "json")
    assert res.code == 0 and "warning" in res.stderr
    assert json.loads(res.stdout)["effective"] == "2026-05-18"


def test_lists_are_built_when_asked_for(
    tmp_path: Path, cli: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dataset builds a list from its bundle row when a check asks for it: a bad row of
    another family does not stop a TCG check, and is an error naming the file when asked for."""
    folder = tmp_path / "data"
    Dataset.bundled().export(folder)
    doc = json.loads((folder / "banlists.json").read_text(encoding="utf-8"))
    goat = next(row for row in doc["lists"] if row["family"] == "goat")
    goat["codes"] = "not a list of passcodes"
    (folder / "banlists.json").write_text(json.dumps(doc), encoding="utf-8")
    write_manifest(folder, date(2026, 11, 20))
    data = Dataset.open(folder)
    tcg = data.banlists.in_force("tcg", date(2025, 6, 1))
    assert tcg is not None and tcg.limit(ASH) == Dataset.bundled().banlists.in_force(
        "tcg", date(2025, 6, 1)
    ).limit(ASH)
    where = str(folder / "banlists.json")
    with pytest.raises(DataError, match=f"{re.escape(where)}: malformed ban-list bundle"):
        data.banlists.in_force("goat", date(2005, 6, 1))
    with pytest.raises(DataError, match="malformed ban-list bundle"):
        data.banlists.lists()
    deck = str(ROOT / "examples" / "tcg-legal.ydk")
    monkeypatch.setenv("DECKCHECK_DATA", str(folder))
    Dataset.reload_active()
    try:
        ok = cli("validate", deck, "--date", "2025-06-01")
        bad = cli("validate", deck, "--format", "goat")
    finally:
        monkeypatch.delenv("DECKCHECK_DATA")
        Dataset.reload_active()
    assert ok.code == 0, ok.stderr
    assert bad.code == 2 and "malformed ban-list bundle" in bad.stderr, bad.stderr
    assert "Traceback" not in bad.stderr


def test_the_bundle_catalog_answers_as_one_built_from_its_lists() -> None:
    """The lazily built catalog of the bundle and one made from every list, built first."""
    lazy = Dataset.bundled().banlists
    eager = BanlistCatalog(lazy.lists())
    assert lazy.families() == eager.families()
    days = [date(y, m, d) for y in range(2002, 2027) for m in (1, 4, 7, 10) for d in (1, 15)]
    for family in lazy.families():
        assert lazy.first(family) == eager.first(family)
        assert lazy.last(family) == eager.last(family)
        for region in TcgRegion:
            for day in days:
                assert lazy.in_force(family, day, region) == eager.in_force(family, day, region)
                assert lazy.upcoming(family, day, region) == eager.upcoming(family, day, region)
