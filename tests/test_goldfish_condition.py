"""The condition parser: grammar, evaluation, clear errors, and fuzzing."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck.error import DeckcheckError
from deckcheck.goldfish import Condition, ConditionError, SpecError, parse_condition


@pytest.mark.parametrize(
    ("text", "counts", "expected"),
    [
        ("starter >= 1 and brick == 0", {"starter": 1, "brick": 0}, True),
        ("starter >= 1 and brick == 0", {"starter": 1, "brick": 1}, False),
        ("handtrap >= 2 or (starter + handtrap >= 3)", {"handtrap": 1, "starter": 2}, True),
        ("a and not b", {"a": 2, "b": 0}, True),
        ("not a", {"a": 0}, True),
        ("1 <= a <= 2", {"a": 3}, False),
        ("a - b > 0", {"a": 2, "b": 1}, True),
        ("A >= 1 AND NOT b", {"A": 1, "b": 0}, True),
        ("`Ash Blossom & Joyous Spring` >= 1", {"Ash Blossom & Joyous Spring": 1}, True),
        ("a or b and c", {"a": 0, "b": 1, "c": 0}, False),  # and binds tighter
        ("not not a", {"a": 1}, True),
        ("a != b", {"a": 1, "b": 1}, False),
    ],
)
def test_evaluation(text: str, counts: dict[str, int], expected: bool) -> None:
    assert bool(parse_condition(text).evaluate(counts)) is expected


def test_vectorised_evaluation_matches_scalar() -> None:
    cond = parse_condition("(a >= 1 and not b) or a + b + c >= 4")
    rng = np.random.default_rng(0)
    arrays = {k: rng.integers(0, 4, size=200) for k in "abc"}
    got = cond.evaluate(arrays)
    for i in range(200):
        assert bool(got[i]) == bool(cond.evaluate({k: int(v[i]) for k, v in arrays.items()}))


def test_names_and_round_trip() -> None:
    cond = parse_condition("(a + `b c` >= 2) and not d")
    assert cond.names == {"a", "b c", "d"}
    again = parse_condition(str(cond))
    for counts in ({"a": 1, "b c": 1, "d": 0}, {"a": 0, "b c": 1, "d": 0}):
        assert cond.evaluate(counts) == again.evaluate(counts)


@pytest.mark.parametrize(
    ("text", "fragment", "position"),
    [
        ("a = 1", "use ==", 3),
        ("a && b", "use and, or, not", 3),
        ("a >", "end of condition", 4),
        ("(a >= 1", "expected ')'", 8),
        ("(a > 1) + 1", "cannot add", 1),
        ("a >= 1 2", "expected an operator", 8),
        ("__import__('os')", "unexpected character", 12),
        ("a * 2", "unexpected character '*'", 3),
        ("", "end of condition", 1),
        ("a >= 99999999", "integer larger", 6),
        ("(a > 1) == (b > 1)", "cannot compare", 1),
        ("`unclosed", "unclosed", 1),
    ],
)
def test_errors_name_the_position(text: str, fragment: str, position: int) -> None:
    with pytest.raises(ConditionError) as info:
        parse_condition(text)
    assert fragment in str(info.value)
    assert f"position {position}:" in str(info.value)
    assert isinstance(info.value, SpecError) and isinstance(info.value, DeckcheckError)


def test_unknown_category() -> None:
    with pytest.raises(SpecError, match="unknown category 'brik'"):
        parse_condition("brick == 0 and brik", {"brick"})


def test_depth_and_length_limits() -> None:
    with pytest.raises(SpecError, match="nested deeper"):
        parse_condition("(" * 100 + "a" + ")" * 100)
    with pytest.raises(SpecError, match="nested deeper"):
        parse_condition("not " * 100 + "a")
    with pytest.raises(SpecError, match="longer than"):
        parse_condition("a + " * 1000 + "a")


ALPHABET = st.sampled_from(
    [
        "a",
        "b",
        "c1",
        " ",
        "(",
        ")",
        "and",
        "or",
        "not",
        "+",
        "-",
        "==",
        "!=",
        "<",
        "<=",
        ">",
        ">=",
        "0",
        "1",
        "12",
        "`x y`",
        "=",
        "*",
        "&",
        ";",
        "'",
        "import",
        "\n",
    ]
)


def _check(text: str) -> None:
    try:
        cond = parse_condition(text)
    except SpecError as exc:
        assert str(exc).startswith("position ")
        return
    assert isinstance(cond, Condition)
    counts = {name: 1 for name in cond.names}
    result = cond.evaluate(counts)
    assert isinstance(result, bool | np.bool_)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_fuzz_any_text(text: str) -> None:
    _check(text)


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(st.lists(ALPHABET, max_size=25).map(" ".join))
def test_fuzz_token_soup(text: str) -> None:
    _check(text)


def test_deck_function_counts_cards_left_and_deck_stays_a_name() -> None:
    from deckcheck.goldfish.condition import deck_key

    cond = parse_condition("deck(starter) >= 1 and deck > 0", {"starter", "deck"})
    assert cond.reads_deck and cond.names == {"starter", "deck"}
    assert str(cond) == "deck(starter) >= 1 and deck > 0"
    counts = {"starter": 2, "deck": 1, deck_key("starter"): 0}
    assert not cond.evaluate(counts)
    assert cond.evaluate(counts | {deck_key("starter"): 3})
    assert not parse_condition("deck >= 1", {"deck"}).reads_deck
    for bad, where in (("deck(", 6), ("deck(1)", 6), ("deck(a", 6)):
        with pytest.raises(ConditionError, match=f"position {where}: expected deck"):
            parse_condition(bad, {"a"})
    with pytest.raises(ConditionError, match="unknown category 'x'"):
        parse_condition("deck(x) >= 1", {"a"})
