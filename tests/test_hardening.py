"""Hostile or mistaken input: no crash, no silent loss, no misleading output.

One regression test per finding of the hardening review, named after what it protects.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import deckcheck
from deckcheck.card import CardIndex
from deckcheck.error import DeckReadError, GoldfishError, UnknownCardError

ROOT = Path(__file__).resolve().parent.parent
LEGAL = ROOT / "examples" / "tcg-legal.ydk"

Cli = Callable[..., object]


def _no_traceback(text: str) -> None:
    assert "Traceback" not in text
    assert "unexpected" not in text


# --------------------------------------------------------------------------------------------
# crashes


def test_deeply_nested_json_deck_is_unreadable_not_a_crash(cli, tmp_path: Path) -> None:
    deck = tmp_path / "nested.json"
    deck.write_text("[" * 1000)
    res = cli("validate", str(deck))
    assert res.code == 2
    assert "nested too deeply" in res.stderr
    _no_traceback(res.stderr)
    with pytest.raises(DeckReadError):
        deckcheck.read_path(deck)


def test_deeply_nested_json_in_a_folder_does_not_stop_the_batch(cli, tmp_path: Path) -> None:
    (tmp_path / "nested.json").write_text("[" * 1000 + "]" * 1000)
    (tmp_path / "deck.ydk").write_bytes(LEGAL.read_bytes())
    res = cli("validate", str(tmp_path), "--date", "2025-06-01")
    assert res.code == 0, res.stderr
    assert "deck.ydk" in res.stdout
    _no_traceback(res.stderr)


@pytest.mark.parametrize("option", ["--format-file", "--spec"])
def test_deeply_nested_toml_is_a_clear_error(cli, tmp_path: Path, option: str) -> None:
    bad = tmp_path / "nested.toml"
    bad.write_text("a = " + "[" * 1000 + "]" * 1000 + "\n")
    command = "validate" if option == "--format-file" else "simulate"
    res = cli(command, str(LEGAL), option, str(bad))
    assert res.code == 2
    assert "nested.toml" in res.stderr
    _no_traceback(res.stderr)


def test_zero_padded_passcode_of_4300_digits_is_read(cli, tmp_path: Path) -> None:
    deck = tmp_path / "long.ydk"
    deck.write_text("#main\n" + "0" * 4300 + "14558127\n")
    parsed = deckcheck.read_path(deck)
    assert [c.passcode for c in parsed] == [14558127]
    res = cli("validate", str(deck))
    assert res.code == 1  # a 1-card Main Deck: illegal, not a crash
    _no_traceback(res.stderr)


@pytest.mark.parametrize("query", ["²", "①", "9" * 4301, "0" * 5000 + "1"])
def test_odd_digits_in_cards_show_are_unknown_cards(cli, query: str) -> None:
    res = cli("cards", "show", query)
    assert res.code == 2
    assert "unknown card" in res.stderr
    _no_traceback(res.stderr)
    with pytest.raises(UnknownCardError):
        CardIndex.load().lookup(query)


def test_condition_with_a_5000_digit_number_is_a_condition_error() -> None:
    from deckcheck.error import ConditionError
    from deckcheck.goldfish.condition import parse_condition

    with pytest.raises(ConditionError):
        parse_condition("x >= " + "9" * 5000, {"x"})


def test_negative_seed_is_exit_2_not_a_crash(cli) -> None:
    res = cli("simulate", str(LEGAL), "--seed", "-1")
    assert res.code == 2
    assert "seed" in res.stderr
    _no_traceback(res.stderr)


@pytest.mark.parametrize(
    "options",
    [{"seed": -1}, {"seed": 1.5}, {"exact": "x"}, {"going": []}, {"seed": True}],
)
def test_simulate_rejects_bad_options_with_goldfish_error(options: dict[str, object]) -> None:
    deck = deckcheck.read_path(LEGAL)
    with pytest.raises(GoldfishError):
        deckcheck.simulate(deck, **options)  # type: ignore[arg-type]


def test_stdout_write_error_is_exit_2_with_a_message() -> None:
    if not Path("/dev/full").exists():  # pragma: no cover - Linux has it
        pytest.fail("/dev/full is needed for this test")
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "deckcheck", "validate", str(LEGAL), "--date", "2025-06-01"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert proc.returncode == 2
    assert "No space left on device" in proc.stderr
    _no_traceback(proc.stderr)


def test_non_utf8_file_name_is_escaped_and_json_stays_valid(tmp_path: Path) -> None:
    folder = os.fsencode(tmp_path)
    name = os.path.join(folder, b"deck-\xff.ydk")
    with open(name, "wb") as handle:
        handle.write(LEGAL.read_bytes())
    base = [sys.executable, "-m", "deckcheck", "validate", str(tmp_path), "--date", "2025-06-01"]
    text = subprocess.run(base, capture_output=True, check=False)
    assert text.returncode == 0, text.stderr
    assert b"deck-\\xff.ydk" in text.stdout
    as_json = subprocess.run([*base, "-o", "json"], capture_output=True, check=False)
    assert as_json.returncode == 0
    doc = __import__("json").loads(as_json.stdout.decode("utf-8"))
    assert doc["results"][0]["path"].endswith("deck-\\xff.ydk")
