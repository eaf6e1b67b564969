"""Validation's per-ruleset memo gives the same answers as a cold start, in any order.

``validate`` counts a deck in one pass against what its ruleset has learnt about each card
(limit names, which cards need a look in which section, list floors, size messages). These
tests check that what it learnt from earlier decks never changes the answer for a later one,
that copies are counted by name exactly as a plain count over the deck would, and that the
report types stay whole immutable values.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import tomllib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path
from typing import Any

import msgspec
import pytest

from deckcheck import Dataset
from deckcheck.card import CardIndex, DeckZone
from deckcheck.deck.io import read_path
from deckcheck.deck.model import Deck, DeckCard, Section
from deckcheck.reporter import render
from deckcheck.validation.engine import validate
from deckcheck.validation.report import Code, Report, Severity

DECKS = Path(__file__).resolve().parent / "data" / "decks"
EXPECTED: dict[str, dict[str, Any]] = tomllib.loads(
    (DECKS / "expected.toml").read_text(encoding="utf-8")
)
SWEEP = ("tcg", "ocg", "goat", "edison", "speed", "rush", "genesys", "worlds", "md")
ON = date(2025, 12, 1)


def _fresh() -> Dataset:
    """A dataset with nothing learnt yet (its own ruleset memo)."""
    return Dataset.open(Dataset.bundled().folder)


def _answer(report: Report) -> list[dict[str, Any]]:
    return json.loads(render(report, "json"))["violations"]  # type: ignore[no-any-return]


def _golden() -> list[tuple[str, Deck, dict[str, Any]]]:
    out = []
    for rel, spec in sorted(EXPECTED.items()):
        deck = read_path(DECKS / rel, rush=spec["format"] == "rush")
        out.append((rel, deck, spec))
    return out


def _check(deck: Deck, spec: dict[str, Any], data: Dataset) -> Report:
    return validate(
        deck,
        str(spec["format"]),
        date.fromisoformat(str(spec["date"])),
        allow_prerelease=bool(spec.get("allow_prerelease", False)),
        data=data,
    )


@pytest.mark.slow
def test_golden_decks_warm_equal_cold() -> None:
    decks = _golden()
    cold = {rel: _answer(_check(deck, spec, _fresh())) for rel, deck, spec in decks}
    forward, backward = _fresh(), _fresh()
    for rel, deck, spec in decks:
        assert _answer(_check(deck, spec, forward)) == cold[rel], rel
    for rel, deck, spec in reversed(decks):
        assert _answer(_check(deck, spec, backward)) == cold[rel], rel
    # and a second time through, with everything learnt
    for rel, deck, spec in decks:
        assert _answer(_check(deck, spec, forward)) == cold[rel], rel


@pytest.mark.slow
@pytest.mark.parametrize("fmt", SWEEP)
def test_every_deck_in_every_format_is_order_free(fmt: str) -> None:
    decks = [deck for _, deck, _ in _golden()]
    forward, backward = _fresh(), _fresh()
    first = [_answer(validate(d, fmt, ON, data=forward)) for d in decks]
    second = [_answer(validate(d, fmt, ON, data=backward)) for d in reversed(decks)]
    assert first == second[::-1]
    assert any(first), "the sweep should find problems somewhere"


@pytest.mark.slow
def test_threads_learning_together_agree_with_one_thread() -> None:
    decks = [deck for _, deck, _ in _golden()] * 4
    serial = [_answer(validate(d, "tcg", ON, data=_fresh())) for d in decks[: len(decks) // 4]]
    shared = _fresh()
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda d: _answer(validate(d, "tcg", ON, data=shared)), decks))
    assert got == serial * 4


# --- copies by name, against a plain count -----------------------------------------------


def _groups(index: CardIndex) -> dict[str, list[int]]:
    """Limit name -> passcodes of deck cards, for names with several (alternate artworks,
    "always treated as" cards)."""
    by: dict[str, list[int]] = {}
    for card in index:
        if card.zone is not DeckZone.NONE and not card.is_rush:
            by.setdefault(card.limit_name, []).append(card.passcode)
    return {name: codes for name, codes in by.items() if len(codes) > 1}


def _random_deck(
    rng: random.Random,
    index: CardIndex,
    shared: dict[str, list[int]],
    plain: list[int],
    tokens: list[int],
) -> Deck:
    names = sorted(shared)
    cards: list[DeckCard] = []
    for _ in range(rng.randint(30, 75)):
        roll = rng.random()
        if roll < 0.45:
            code = rng.choice(plain)
        elif roll < 0.9:
            code = rng.choice(shared[rng.choice(names[:12])])  # few names: copies pile up
        elif roll < 0.95 and tokens:
            code = rng.choice(tokens)  # Tokens and Skill cards
        else:
            code = rng.choice((1, 2, 3, 99_999_999_998))  # no such card
        section = rng.choice((Section.MAIN, Section.MAIN, Section.EXTRA, Section.SIDE))
        card = index.get(code) if code in index else None
        cards.append(DeckCard(code, section, card, len(cards) + 1))
    rng.shuffle(cards)
    return Deck.from_cards(cards, source="random")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("fmt", "on"),
    [("tcg", ON), ("genesys", ON), ("speed", date(2024, 1, 1)), ("goat", date(2005, 6, 1))],
)
def test_copies_match_a_plain_count_by_name(index: CardIndex, fmt: str, on: date) -> None:
    rng = random.Random(20261130)
    shared = _groups(index)
    assert len(shared) > 40
    plain = [c.passcode for c in index if c.zone is not DeckZone.NONE and not c.is_rush]
    tokens = [c.passcode for c in index if c.is_token][:10]
    tokens += [c.passcode for c in index if c.is_skill][:10]
    data = _fresh()
    over = 0
    for _ in range(300):
        deck = _random_deck(rng, index, shared, plain, tokens)
        report = validate(deck, fmt, on, data=data, allow_prerelease=True)
        per_name = Counter(
            dc.card.limit_name
            for dc in deck
            if dc.card is not None and dc.card.zone is not DeckZone.NONE
        )
        expected = {name: n for name, n in per_name.items() if n > 3}
        found = {v.name: v.found for v in report.violations if v.code is Code.COPIES}
        assert found == expected
        over += bool(expected)
        # one wrong-section finding per card per section where it does not belong
        misplaced = {
            (dc.section.value, dc.passcode)
            for dc in deck
            if dc.card is not None
            and (
                (dc.section is Section.MAIN and dc.card.zone is DeckZone.EXTRA)
                or (dc.section is Section.EXTRA and dc.card.zone is DeckZone.MAIN)
            )
        }
        wrong = [(v.section, v.passcode) for v in report.violations if v.code is Code.WRONG_SECTION]
        assert sorted(wrong) == sorted(misplaced)
        unknown = Counter((dc.section.value, dc.passcode) for dc in deck if dc.card is None)
        got = {
            (v.section, v.passcode): v.found
            for v in report.violations
            if v.code is Code.UNKNOWN_CARD
        }
        assert got == dict(unknown)
        skills = sum(1 for dc in deck if dc.card is not None and dc.card.is_skill)
        counted = [v.found for v in report.violations if v.code is Code.SKILL_COUNT]
        assert counted == ([skills] if fmt == "speed" and skills != 1 else [])
        if fmt == "speed":  # Skill cards do not count toward the Main Deck
            main = sum(1 for dc in deck.main if dc.card is None or not dc.card.is_skill)
            assert report.counts["main"] == main
    assert over > 50, "the generator should crowd names often"


# --- the report types ----------------------------------------------------------------------


def test_report_types_take_exactly_their_fields_by_name_and_in_order() -> None:
    report = validate(read_path(DECKS / "illegal" / "everything.ydk"), "tcg", ON)
    for record in (report, report.violations[0]):
        cls = type(record)
        values = [getattr(record, name) for name in cls.__struct_fields__]
        assert cls(*values) == record
        assert cls(**dict(zip(cls.__struct_fields__, values, strict=True))) == record
        with pytest.raises(TypeError):
            cls(*values, None)  # one more than its fields


def test_report_types_are_immutable_values() -> None:
    deck = read_path(DECKS / "illegal" / "everything.ydk")
    report = validate(deck, "tcg", ON)
    assert report.violations
    v = report.violations[0]
    with pytest.raises(AttributeError):
        v.message = "changed"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        report.name = "changed"  # type: ignore[misc]
    assert v == copy.copy(v) and hash(v) == hash(msgspec.structs.replace(v))
    assert msgspec.structs.replace(v, severity=Severity.WARNING).severity is Severity.WARNING
    again = pickle.loads(pickle.dumps(report))
    assert again == report and render(again, "json") == render(report, "json")
    assert msgspec.structs.replace(report, name="abc").name == "abc"


def test_formats_and_lists_compare_as_the_ruleset_caches_need() -> None:
    """Formats and lists key the ruleset caches: equal when their rules are, whatever a format
    file's reading skipped or which names and resolver a list carries; immutable; a format or
    list that differs in a rule is unequal."""
    ds = Dataset.active()
    fmt = ds.format("tcg")
    warned = msgspec.structs.replace(fmt, warnings=("a skipped line",))
    assert warned == fmt and hash(warned) == hash(fmt) and warned.warnings
    assert msgspec.structs.replace(fmt, copy_limit=2) != fmt
    assert msgspec.structs.replace(fmt, pool=msgspec.structs.replace(fmt).pool) == fmt
    assert fmt.in_region("eu") != fmt and fmt.in_region("eu").in_region("na") == fmt
    with pytest.raises(AttributeError):
        fmt.copy_limit = 2  # type: ignore[misc]
    banlist = fmt.banlist_at(ON, ds)
    assert banlist is not None and banlist.entries
    renamed = msgspec.structs.replace(banlist, names={1: "x"}, resolver=lambda code: None)
    assert renamed == banlist and hash(renamed) == hash(banlist)
    fewer = msgspec.structs.replace(banlist, entries={})
    assert fewer != banlist and hash(fewer) == hash(banlist)  # the hash leaves the entries out
    assert msgspec.structs.replace(banlist, name="other") != banlist
    assert "entries" not in repr(banlist) and banlist.name in repr(banlist)
    assert validate(read_path(DECKS / "illegal" / "everything.ydk"), warned, ON, data=ds) == (
        validate(read_path(DECKS / "illegal" / "everything.ydk"), fmt, ON, data=ds)
    )
    other = Dataset.open(ds.folder)
    assert other != ds and other == other and len({ds, other, ds}) == 2  # by identity


def test_memory_stays_bounded_over_many_dates(monkeypatch: pytest.MonkeyPatch) -> None:
    from deckcheck.validation import ruleset as engine

    monkeypatch.setattr(engine, "MAX_LEARNED", 400)
    monkeypatch.setattr(engine, "MAX_RULESETS", 5)
    decks = [deck for _, deck, _ in _golden()]
    data = _fresh()
    cold = _fresh()
    for day in range(1, 29):
        on = date(2025, 2, day)
        for deck in decks[:12]:
            answer = _answer(validate(deck, "tcg", on, data=data))
            cache = data.ruleset_cache()
            assert len(cache) <= 5
            learned = sum(len(rs.facts) for rs in cache.values())
            newest = list(cache.values())[-1]
            assert learned <= 400 or list(cache.values()) == [newest], learned
        # the answers of a trimmed cache are still those of a cold start
        assert answer == _answer(validate(decks[11], "tcg", on, data=cold))
    # the ruleset in use is the most recent, and it survives its own learning
    validate(decks[0], "tcg", date(2025, 2, 1), data=data)
    assert list(data.ruleset_cache())[-1][1] == date(2025, 2, 1)
