"""Deck fingerprints, deck diffs and side plans: library and CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import deckcheck
from deckcheck.card import CardIndex, DeckZone, Match
from deckcheck.deck.compare import compare_decks
from deckcheck.deck.io import dump_ydk, read_deck, read_path, write_deck
from deckcheck.deck.model import Deck, Section, fingerprint_deck
from deckcheck.run.siding import PlanCode, SidePlan, apply_side_plan, parse_card_list

ROOT = Path(__file__).resolve().parent.parent
LEGAL = ROOT / "examples" / "tcg-legal.ydk"
ON = "2025-06-01"


def _ydk(main: list[int], extra: list[int] = (), side: list[int] = ()) -> str:  # type: ignore[assignment]
    lines = ["#main", *map(str, main), "#extra", *map(str, extra), "!side", *map(str, side)]
    return "\n".join(lines) + "\n"


def _alt_art(index: CardIndex, deck: Deck) -> tuple[int, int]:
    """(original, alternate artwork) for a Main Deck card of ``deck`` that has one."""
    codes = set(deck.passcodes(Section.MAIN))
    for card in index:
        if (
            card.canonical != card.passcode
            and card.canonical in codes
            and index.lookup_passcode(card.passcode).match is Match.ALTERNATE_ART
        ):
            return card.canonical, card.passcode
    raise AssertionError("no alternate artwork for any card of the deck")


def test_same_contents_same_fingerprint(index: CardIndex) -> None:
    deck = read_path(LEGAL)
    fp = fingerprint_deck(deck)
    assert len(fp) == 16 and int(fp, 16) >= 0
    for fmt in ("ydk", "ydke", "text", "json", "omega"):
        again = read_deck(write_deck(deck, fmt))
        assert fingerprint_deck(again) == fp, fmt
    rng = random.Random(7)
    main, extra, side = (deck.passcodes(s) for s in Section)
    for _ in range(5):
        rng.shuffle(main)
        rng.shuffle(extra)
        rng.shuffle(side)
        assert fingerprint_deck(read_deck(_ydk(main, extra, side))) == fp
    original, alt = _alt_art(index, deck)
    swapped = [alt if c == original else c for c in deck.passcodes(Section.MAIN)]
    assert swapped != deck.passcodes(Section.MAIN)
    assert fingerprint_deck(read_deck(_ydk(swapped, extra, side))) == fp
    renamed = read_deck("!name Something Else\n" + dump_ydk(deck))
    assert fingerprint_deck(renamed) == fp


def test_one_change_changes_the_fingerprint() -> None:
    deck = read_path(LEGAL)
    fp = fingerprint_deck(deck)
    main, extra, side = (deck.passcodes(s) for s in Section)
    one_less = read_deck(_ydk(main[1:], extra, side))
    other = read_deck(_ydk([*main[1:], 55144522], extra, side))  # one card swapped
    moved = read_deck(_ydk(main[1:], extra, [*side, main[0]]))  # a card moved to the Side
    fps = {fingerprint_deck(d) for d in (one_less, other, moved)}
    assert fp not in fps and len(fps) == 3


def test_fingerprint_command(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    deck = read_path(LEGAL)
    url = write_deck(deck, "ydke").strip()
    res = cli("fingerprint", str(LEGAL), url)
    assert res.code == 0
    lines = res.stdout.splitlines()
    assert lines[0] == f"{fingerprint_deck(deck)}  {LEGAL}"
    assert lines[1].split()[0] == fingerprint_deck(deck)
    res = cli("fingerprint", str(LEGAL), "-o", "json")
    doc = json.loads(res.stdout)
    assert doc["decks"][0]["fingerprint"] == fingerprint_deck(deck)
    assert doc["decks"][0]["name"] == deck.name
    junk = tmp_path / "junk.ydk"
    junk.write_bytes(b"\0\1\2")
    res = cli("fingerprint", str(junk), str(LEGAL))
    assert res.code == 2 and "junk.ydk" in res.stderr and fingerprint_deck(deck) in res.stdout


def test_diff_by_section_and_name(cli, tmp_path: Path, index: CardIndex) -> None:  # type: ignore[no-untyped-def]
    deck = read_path(LEGAL)
    main, extra, side = (deck.passcodes(s) for s in Section)
    played = read_deck(_ydk([*main[1:], side[0]], extra, [*side[1:], main[0]]))
    diff = compare_decks(deck, played)
    assert not diff.same
    want_missing = {
        (Section.MAIN, index.get(main[0]).canonical),
        (Section.SIDE, index.get(side[0]).canonical),
    }
    assert {(d.section, d.passcode) for d in diff.missing} == want_missing
    assert {(d.section, d.passcode) for d in diff.extra} == {
        (Section.MAIN, index.get(side[0]).canonical),
        (Section.SIDE, index.get(main[0]).canonical),
    }
    assert all(d.count == 1 for d in (*diff.missing, *diff.extra))
    path = tmp_path / "played.txt"
    path.write_text(write_deck(played, "text"), encoding="utf-8")
    res = cli("diff", str(LEGAL), str(path))
    assert res.code == 1
    assert f"missing 1x {index.get(main[0]).name}" in res.stdout
    assert res.stdout.index("Main Deck:") < res.stdout.index("Side Deck:")
    same = tmp_path / "same.ydke"
    same.write_text(write_deck(deck, "ydke"), encoding="utf-8")
    res = cli("diff", str(LEGAL), str(same), "-o", "json")
    assert res.code == 0 and json.loads(res.stdout)["same"] is True
    assert cli("diff", str(LEGAL), str(tmp_path / "nope.ydk")).code == 2


def _side_cards(deck: Deck) -> tuple[deckcheck.Card, deckcheck.Card]:
    """A Side Deck card and a different Main Deck card of ``deck``."""
    side = next(c.card for c in deck.side if c.card and c.card.zone is DeckZone.MAIN)
    main = next(c.card for c in deck.main if c.card and c.card.canonical != side.canonical)
    return side, main


def test_side_plan_swaps_and_checks() -> None:
    deck = read_path(LEGAL)
    s_in, s_out = _side_cards(deck)
    plan = SidePlan(((s_in, 1),), ((s_out, 1),))
    result = apply_side_plan(deck, plan, "tcg", deckcheck.Dataset.active().as_of)
    assert result.ok, result.problems
    assert result.deck.counts == deck.counts
    assert fingerprint_deck(result.deck) != fingerprint_deck(deck)
    back = apply_side_plan(result.deck, SidePlan(((s_out, 1),), ((s_in, 1),)), "tcg")
    assert fingerprint_deck(back.deck) == fingerprint_deck(deck)
    # not one-for-one, a card not in the Side Deck, a card not in the deck
    bad = apply_side_plan(deck, SidePlan(((s_in, 1),), ((s_out, 2),)), "tcg")
    assert PlanCode.SIDE_UNBALANCED in {p.code for p in bad.problems} and not bad.ok
    bad = apply_side_plan(deck, SidePlan(((s_out, 1),), ((s_out, 1),)), "tcg")
    assert PlanCode.SIDE_NOT_IN_SIDE in {p.code for p in bad.problems}
    bad = apply_side_plan(deck, SidePlan(((s_in, 1),), ((s_in, 1),)), "tcg")
    assert {p.code for p in bad.problems} >= {PlanCode.SIDE_NOT_IN_DECK}


def test_side_plan_cannot_change_the_extra_deck_size(index: CardIndex) -> None:
    deck = read_path(LEGAL)
    extra_card = deck.extra[0].card
    assert extra_card is not None
    s_in, _ = _side_cards(deck)
    result = apply_side_plan(deck, SidePlan(((s_in, 1),), ((extra_card, 1),)), "tcg")
    assert {p.code for p in result.problems} == {PlanCode.SIDE_SIZE_CHANGED}


def test_side_plan_result_must_be_legal(tmp_path: Path) -> None:
    deck = read_path(LEGAL)
    forbidden = read_deck("#main\n55144522\n").main[0].card  # Pot of Greed
    assert forbidden is not None
    _, s_out = _side_cards(deck)
    with_pot = read_deck(dump_ydk(deck) + "55144522\n")  # appended to the Side Deck
    result = apply_side_plan(
        with_pot,
        SidePlan(((forbidden, 1),), ((s_out, 1),)),
        "tcg",
        deckcheck.Dataset.active().as_of,
    )
    assert not result.problems and not result.report.legal and not result.ok
    assert "forbidden" in result.report.codes


def test_side_command(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    deck = read_path(LEGAL)
    s_in, s_out = _side_cards(deck)
    res = cli(
        "side",
        str(LEGAL),
        "--in",
        f"1 {s_in.name}",
        "--out-cards",
        f"1 {s_out.name}",
        "-d",
        "today",
    )
    assert res.code == 0, res.stdout + res.stderr
    assert "side plan: 1 in, 1 out" in res.stdout
    plan = tmp_path / "plan.txt"
    plan.write_text(f"# game 2\nin:\n{s_in.name} x1\nout:\n1x {s_out.name}\n", encoding="utf-8")
    res = cli("side", str(LEGAL), "--plan", str(plan), "-o", "json")
    assert res.code == 0 and json.loads(res.stdout)["ok"] is True
    plan.write_text(f"in:\n2 {s_in.name}\nout:\n1 {s_out.name}\n", encoding="utf-8")
    res = cli("side", str(LEGAL), "--plan", str(plan))
    assert res.code == 1 and "side-unbalanced" in res.stdout
    res = cli("side", str(LEGAL), "--in", "1 Pot of Grid", "--out-cards", f"1 {s_out.name}")
    assert res.code == 2 and "Pot of Gre" in res.stderr  # a suggestion
    assert cli("side", str(LEGAL)).code == 2


def test_card_lists_split_on_counts_not_on_commas_in_names() -> None:
    got = parse_card_list("3 Dinomight Knight, the True Dracofighter, 1 Pot of Greed; 2 Raigeki")
    assert [(c.name, n) for c, n in got] == [
        ("Dinomight Knight, the True Dracofighter", 3),
        ("Pot of Greed", 1),
        ("Raigeki", 2),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "in:\n1 Pot of Greed\nout:\n1 Raigeki\n",
        "+1 Pot of Greed\n-1 Raigeki\n",
        "Side in: 1 Pot of Greed\nSide out: 1 Raigeki\n",
        'in = ["1 Pot of Greed"]\nout = "1 Raigeki"\n',
    ],
)
def test_plan_file_forms(text: str) -> None:
    from deckcheck.run.siding import parse_side_plan

    plan = parse_side_plan(text)
    assert [(c.name, n) for c, n in plan.cards_in] == [("Pot of Greed", 1)]
    assert [(c.name, n) for c, n in plan.cards_out] == [("Raigeki", 1)]


def test_judge_commands_and_plan_codes_are_documented(cli) -> None:  # type: ignore[no-untyped-def]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in ("batch", "fingerprint", "diff", "side"):
        assert f"deckcheck {command}" in readme
        assert cli(command, "--help").code == 0
    for code in PlanCode:
        assert f"| `{code.value}` |" in readme
