"""Validation: golden deck folders, every rule, dates across list changes, the CLI."""

from __future__ import annotations

import json
import tomllib
from datetime import date
from pathlib import Path

import pytest

from deckcheck.data.dataset import Dataset
from deckcheck.deck.io import read_path
from deckcheck.deck.model import Deck, DeckCard, Section
from deckcheck.reporter import render
from deckcheck.validation.engine import validate
from deckcheck.validation.report import Code, Severity

from .conftest import TEST_DATA

DECKS = TEST_DATA / "decks"
EXPECTED: dict[str, dict[str, object]] = tomllib.loads(
    (DECKS / "expected.toml").read_text(encoding="utf-8")
)


def _codes(report_codes: list[tuple[str, str]]) -> set[str]:
    return {code for code, sev in report_codes if sev != "note"}


@pytest.mark.parametrize("rel", sorted(EXPECTED), ids=lambda r: r)
def test_golden_deck(rel: str) -> None:
    spec = EXPECTED[rel]
    deck = read_path(DECKS / rel, rush=spec["format"] == "rush")
    report = validate(
        deck,
        str(spec["format"]),
        date.fromisoformat(str(spec["date"])),
        allow_prerelease=bool(spec.get("allow_prerelease", False)),
    )
    found = _codes([(v.code.value, v.severity.value) for v in report.violations])
    assert found == set(spec["codes"]), [v.message for v in report.violations]  # type: ignore[arg-type]
    assert report.legal is rel.startswith("legal/")


def test_golden_folders_cover_every_code() -> None:
    covered = {c for spec in EXPECTED.values() for c in spec["codes"]}  # type: ignore[attr-defined]
    # codes that need a special setting are covered by the unit tests below
    special = {"treated-as"}  # a note: checked in test_treated_as_note_names_the_other_card
    special.add("missing-sections")  # a note on a truncated .ydk: tests/test_data_truth.py
    assert {c.value for c in Code} - special <= covered
    assert len(EXPECTED) >= 40


def test_every_violation_is_reported_at_once() -> None:
    deck = read_path(DECKS / "illegal" / "everything.ydk")
    report = validate(deck, "tcg", date(2025, 6, 1))
    assert len(report.errors) >= 7
    copies = next(v for v in report.violations if v.code is Code.COPIES)
    assert copies.found == 4 and copies.allowed == 3
    assert copies.line is not None and copies.passcode is not None


def test_treated_as_note_names_the_other_card() -> None:
    deck = read_path(DECKS / "illegal" / "harpie-four.ydk")
    report = validate(deck, "tcg", date(2025, 6, 1))
    notes = [v for v in report.violations if v.code is Code.TREATED_AS]
    assert notes and notes[0].severity is Severity.NOTE
    assert "counted as Harpie Lady" in notes[0].message
    copies = next(v for v in report.violations if v.code is Code.COPIES)
    assert copies.name == "Harpie Lady" and copies.found == 4


def test_same_deck_two_dates_two_verdicts() -> None:
    deck = read_path(DECKS / "illegal" / "pot-of-greed-2025.ydk")
    assert validate(deck, "tcg", date(2003, 1, 15)).legal
    late = validate(deck, "tcg", date(2025, 6, 1))
    assert not late.legal and late.codes >= {"forbidden"}
    assert late.banlist is not None and late.banlist.effective <= date(2025, 6, 1)


def _deck(main: list[int], extra: list[int] = (), side: list[int] = ()) -> Deck:  # type: ignore[assignment]

    ix = Dataset.active().cards

    def cards(codes: list[int], section: Section) -> list[DeckCard]:
        return [DeckCard(c, section, ix.get(c), i + 1) for i, c in enumerate(codes)]

    return Deck.from_cards(
        cards(main, Section.MAIN)
        + cards(list(extra), Section.EXTRA)
        + cards(list(side), Section.SIDE)
    )


def _old_vanilla() -> list[int]:
    deck = read_path(DECKS / "legal" / "tcg-2003-no-side.ydk")
    return [c.passcode for c in deck.main]


def test_speed_duel_needs_exactly_one_skill() -> None:

    ix = Dataset.active().cards
    skills = [c.passcode for c in ix if c.is_skill and not c.is_unofficial][:2]
    body = _old_vanilla()[:20]
    none = validate(_deck(body), "speed", date(2024, 1, 1))
    assert "skill-count" in none.codes
    two = validate(_deck(body + skills), "speed", date(2024, 1, 1))
    assert "skill-count" in two.codes
    one = validate(_deck(body + skills[:1]), "speed", date(2024, 1, 1))
    assert "skill-count" not in one.codes
    assert one.counts["main"] == 20  # the Skill sits outside the Main Deck count


def test_genesys_points_over_cap() -> None:
    from deckcheck.data.entry import get_format

    fmt = get_format("genesys")
    on = date(2026, 1, 15)
    bl = fmt.banlist_at(on, Dataset.active())
    assert bl is not None and bl.points
    pricey = sorted(((p, c) for c, p in bl.entries.items() if 0 < p < 100), reverse=True)

    ix = Dataset.active().cards
    picks: list[int] = []
    for _, code in pricey:
        card = ix.get(code) if code in ix else None
        if card is None or card.zone.value != "main" or card.is_pendulum:
            continue
        picks.append(code)
        if sum(bl.points_of(c) for c in picks) > 100:
            break
    deck = _deck(picks + _old_vanilla()[: 40 - len(picks)])
    report = validate(deck, fmt, on)
    v = next(v for v in report.violations if v.code is Code.POINTS_OVER_CAP)
    assert v.found is not None and v.found > 100 and v.allowed == 100
    assert json.loads(render(report, "json"))["points"]["cap"] == 100


def test_date_outside_the_data_warns() -> None:
    deck = _deck(_old_vanilla())
    late = validate(deck, "tcg", date(2027, 3, 1))
    assert late.legal and "date-out-of-range" in late.codes
    assert "date-out-of-range" not in validate(deck, "tcg", date(2024, 3, 1)).codes


def test_upcoming_change_warns_before_a_list_takes_effect() -> None:
    from deckcheck.data.entry import get_format

    fmt = get_format("tcg")
    pog = 55144522
    bl = fmt.banlist_at(date(2005, 9, 20), Dataset.active())
    assert bl is not None and bl.limit(pog) == 1
    deck = _deck([pog, *_old_vanilla()[:39]])
    before = validate(deck, fmt, date(2005, 9, 20))
    up = [v for v in before.violations if v.code is Code.UPCOMING_CHANGE]
    assert before.legal and up and up[0].severity is Severity.WARNING
    assert up[0].allowed == 0 and "2005-10-01" in up[0].message
    # long before the change nothing was announced yet
    assert "upcoming-change" not in validate(deck, fmt, date(2005, 6, 1)).codes
    assert "forbidden" in validate(deck, fmt, date(2005, 10, 1)).codes


def test_unknown_format_is_an_error() -> None:
    from deckcheck.error import UnknownFormatError

    with pytest.raises(UnknownFormatError) as err:
        validate(_deck(_old_vanilla()), "no-such-format")
    assert "tcg" in str(err.value)


# --- CLI -------------------------------------------------------------------------------------


def test_cli_exit_codes_and_json(cli) -> None:  # type: ignore[no-untyped-def]
    legal = str(DECKS / "legal" / "tcg-modern-ash.ydk")
    illegal = str(DECKS / "illegal" / "four-copies.ydk")
    assert cli("validate", legal, "--date", "2025-06-01").code == 0
    res = cli("validate", legal, illegal, "--date", "2025-06-01", "--output", "json")
    assert res.code == 1
    doc = json.loads(res.stdout)
    assert doc["summary"]["decks"] == 2 and doc["summary"]["illegal"] == 1
    bad = next(r for r in doc["results"] if not r["legal"])
    assert bad["counts"] == {"main": 40, "extra": 0, "side": 0}
    v = bad["violations"][0]
    assert set(v) == {
        "code",
        "severity",
        "section",
        "passcode",
        "name",
        "found",
        "allowed",
        "line",
        "text",
        "message",
    }
    assert bad["banlist"]["name"] and bad["banlist"]["effective"] <= "2025-06-01"


def test_cli_folder_recursive(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli("validate", str(DECKS / "illegal"), "--date", "2025-06-01", "--output", "json")
    assert res.code == 1
    assert json.loads(res.stdout)["summary"]["decks"] == len(list((DECKS / "illegal").iterdir()))


def test_cli_stdin_and_ydke(cli) -> None:  # type: ignore[no-untyped-def]
    text = (DECKS / "legal" / "tcg-modern-ash.ydk").read_text()
    assert cli("validate", "-", "--date", "2025-06-01", input=text).code == 0
    url = (DECKS / "legal" / "tcg-ydke.ydke").read_text().strip()
    assert cli("validate", url, "--date", "2024-01-01").code == 0


def test_cli_could_not_run(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    deck = str(DECKS / "legal" / "tcg-modern-ash.ydk")
    assert cli("validate", deck, "--format", "nope").code == 2
    assert cli("validate", deck, "--date", "2025-13-01").code == 2
    assert cli("validate", str(tmp_path / "missing.ydk")).code == 2
    junk = tmp_path / "junk.ydk"
    junk.write_bytes(b"\x00\x01\x02" * 100)
    res = cli("validate", str(junk))
    assert res.code == 2 and "junk.ydk" in res.stderr


def test_cli_text_output_one_glance(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli("validate", str(DECKS / "illegal" / "main-39.ydk"), "--date", "2025-06-01")
    assert res.code == 1
    first = res.stdout.splitlines()[0]
    assert first.startswith("ILLEGAL") and "\033[" not in res.stdout
    assert "main-size" in res.stdout


def test_cli_folder_skips_json_that_is_not_a_deck(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    src = DECKS / "legal" / "tcg-modern-ash.ydk"
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "deck.ydk").write_text(src.read_text())
    (tmp_path / "index.json").write_text('[{"file": "deck.ydk"}]')
    (tmp_path / "notes.md").write_text("not a deck")
    res = cli("validate", str(tmp_path), "--date", "2025-06-01", "--output", "json")
    assert res.code == 0, res.stderr
    assert json.loads(res.stdout)["summary"]["decks"] == 1
    assert "index.json" in res.stderr
    # named explicitly, the same file is an error: it is not a deck
    assert cli("validate", str(tmp_path / "index.json")).code == 2


def test_goat_accepts_the_format_versions_of_errata_cards(tmp_path: Path) -> None:
    # GOAT plays pre-errata Sinister Serpent; by name or by EDOPro's pre-errata code it is the
    # same card, Limited, and never an "unofficial card" there.
    by_code = tmp_path / "code.ydk"
    by_code.write_text("#main\n511000818\n511000818\n")
    by_name = tmp_path / "name.txt"
    by_name.write_text("Main Deck:\n1 Sinister Serpent\n1 Ring of Destruction\n")
    on = date(2005, 8, 1)
    report = validate(read_path(by_code), "goat", on)
    over = [v for v in report.violations if v.code is Code.OVER_LIMIT]
    assert over and over[0].name == "Sinister Serpent" and over[0].allowed == 1
    assert "unofficial-card" not in report.codes
    named = validate(read_path(by_name), "goat", on)
    assert named.codes == {"main-size"}
    # outside GOAT the pre-errata code is an unofficial card
    assert "unofficial-card" in validate(read_path(by_code), "tcg", on).codes


def test_a_misspelt_line_is_one_problem(tmp_path: Path) -> None:
    deck = tmp_path / "typo.txt"
    names = [c.name for c in read_path(DECKS / "legal" / "tcg-2003-no-side.ydk").main]
    body = "".join(f"1 {n}\n" for n in names[:37])
    deck.write_text("Main Deck:\n" + body + "3x Pot of Grid\n", encoding="utf-8")
    report = validate(read_path(deck), "tcg", date(2025, 6, 1))
    assert report.codes == {"unknown-card"}
    assert report.counts["main"] == 40
    v = report.violations[0]
    assert v.line == 39 and "Pot of Greed" in v.message
