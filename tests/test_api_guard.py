"""The public API takes any argument and raises only the documented errors (hypothesis)."""

from __future__ import annotations

import contextlib
import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import deckcheck
from deckcheck.error import ArgumentError, DeckcheckError

DECK = deckcheck.read_deck("#main\n" + "89631139\n" * 3 + "14558127\n" * 3)

ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=30),
    st.binary(max_size=30),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.just(object()),
    st.just(Path(".")),
    st.just(datetime.date(1, 1, 1)),
    st.just(datetime.date.max),
    st.just(DECK),
    st.sampled_from(["tcg", "goat", "json", "-", "ydke://", "\0", "\u202e", "../../etc"]),
)

CALLS: dict[str, tuple[str, dict[str, Any], list[str]]] = {
    # entry point -> (argument filled with the value, good arguments, others to try)
    "validate": ("deck", {"deck": DECK}, ["format", "date", "region", "path", "data"]),
    "read_deck": ("content", {"content": "#main\n89631139\n"}, ["fmt", "source", "index"]),
    "read_path": ("path", {"path": "-"}, ["fmt", "rush"]),
    "simulate": (
        "deck",
        {"deck": DECK, "trials": 200},
        ["going", "turns", "seed", "exact", "format", "date", "spec", "rules"],
    ),
    "render": (
        "value",
        {"value": deckcheck.validate(DECK, date=datetime.date(2025, 6, 1))},
        ["output", "options"],
    ),
    "write_deck": ("deck", {"deck": DECK, "fmt": "ydk"}, ["fmt", "index"]),
    "compare_decks": ("registered", {"registered": DECK, "played": DECK}, ["played"]),
    "fingerprint_deck": ("deck", {"deck": DECK}, []),
    "get_format": ("name", {"name": "tcg"}, ["data"]),
    "parse_condition": ("text", {"text": "Ash Blossom"}, ["categories"]),
    "detect_format": ("data", {"data": "#main\n"}, []),
    "read_lflist": ("text", {"text": "!2025.1 x\n"}, ["source", "family", "effective"]),
}


def _call(name: str, kwargs: dict[str, Any]) -> None:
    result = getattr(deckcheck, name)(**kwargs)
    if hasattr(result, "__next__"):
        list(result)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CALLS))
@settings(max_examples=40, deadline=5000, suppress_health_check=[HealthCheck.too_slow])
@given(value=ANYTHING, which=st.integers(min_value=0, max_value=20))
def test_any_argument_gives_a_result_or_a_documented_error(
    name: str, value: object, which: int
) -> None:
    first, good, others = CALLS[name]
    keys = [first, *others]
    kwargs = {**good, keys[which % len(keys)]: value}
    with contextlib.suppress(DeckcheckError):  # anything else (AttributeError...) fails the test
        _call(name, kwargs)


@given(paths=st.lists(ANYTHING, max_size=3), exclude=st.lists(st.text(max_size=20), max_size=2))
@settings(max_examples=60, deadline=5000)
def test_sources_and_check_take_anything(paths: list[object], exclude: list[str]) -> None:
    try:
        batch = deckcheck.check(deckcheck.sources(paths, exclude=exclude))  # type: ignore[arg-type]
        assert batch.exit_code in (0, 1, 2)
    except DeckcheckError:
        pass


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: deckcheck.validate(123), "deck"),  # type: ignore[arg-type]
        (lambda: deckcheck.validate(DECK, format=5), "format"),  # type: ignore[arg-type]
        (lambda: deckcheck.validate(DECK, date="2025-01-01"), "date"),  # type: ignore[arg-type]
        (lambda: deckcheck.read_deck(None), "content"),  # type: ignore[arg-type]
        (lambda: deckcheck.read_path(5), "path"),  # type: ignore[arg-type]
        (lambda: list(deckcheck.sources("decks/")), "paths"),  # a string, not a list
        (lambda: deckcheck.simulate(DECK, trials="many"), "trials"),  # type: ignore[arg-type]
        (lambda: deckcheck.simulate(DECK, turns=True), "turns"),
    ],
)
def test_wrong_types_name_the_argument(call: Any, argument: str) -> None:
    with pytest.raises(ArgumentError) as info:
        call()
    assert info.value.argument == argument and argument in str(info.value)
    assert isinstance(info.value, TypeError)  # what Python code expects of a wrong type


def test_guarded_functions_keep_their_names_and_documentation() -> None:
    from deckcheck.validation import engine

    assert deckcheck.validate.__wrapped__ is engine.validate  # type: ignore[attr-defined]
    assert deckcheck.validate.__doc__ == engine.validate.__doc__
