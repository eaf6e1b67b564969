"""The command line's own messages: usage errors, help at 80 columns, output choices, format
and date hints, cards search --rush, side --in with partial names."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from deckcheck.cli import app
from tests.conftest import ROOT

LEGAL = str(ROOT / "examples" / "tcg-legal.ydk")


def _commands() -> list[list[str]]:
    """Every command path of the app (groups and their commands)."""
    import typer.main

    root = typer.main.get_command(app)
    found: list[list[str]] = []

    def walk(cmd: Any, path: list[str]) -> None:
        found.append(path)
        if not hasattr(cmd, "list_commands"):
            return
        for name in sorted(cmd.list_commands(None)):  # the root loads its commands on demand
            walk(cmd.get_command(None, name), [*path, name])

    walk(root, [])
    return found


def _proc(*args: str, columns: int = 80) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS=str(columns), TERM="dumb")
    return subprocess.run(
        [sys.executable, "-m", "deckcheck", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["validate", "--bogus"],
        ["validate", "-o", "xml", LEGAL],
        ["side"],
        ["nosuch"],
        ["cards", "show"],
        ["batch", LEGAL],
        ["simulate", LEGAL, "--turns", "x"],
    ],
)
def test_usage_errors_are_one_error_line(args: list[str]) -> None:
    res = _proc(*args)
    assert res.returncode == 2
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert "--help'" in lines[0] and res.stdout == ""


@pytest.mark.slow
def test_every_help_at_80_columns_keeps_option_names_whole() -> None:
    commands = _commands()
    assert len(commands) > 20
    for path in commands:
        res = _proc(*path, "--help")
        assert res.returncode == 0, (path, res.stderr)
        assert "…" not in res.stdout, path
        for line in res.stdout.splitlines():
            assert len(line) <= 80, (path, line)
        # every long option the command has is printed whole
        import typer.main

        cmd: Any = typer.main.get_command(app)
        for name in path:
            cmd = cmd.get_command(None, name)
        for param in cmd.params:
            for opt in param.opts:
                if opt.startswith("--"):
                    assert re.search(rf"(^|[\s,/\[]){re.escape(opt)}\b", res.stdout), (path, opt)


@pytest.mark.slow
@pytest.mark.parametrize(
    "command", [["simulate"], ["side"], ["diff"], ["fingerprint"], ["cards", "search"], ["formats"]]
)
def test_text_json_commands_list_only_text_and_json(command: list[str]) -> None:
    out = _proc(*command, "--help", columns=120).stdout
    line = next(line for line in out.splitlines() if "--output" in line)
    assert "<text|json>" in line and "junit" not in out and "sarif" not in out


@pytest.mark.slow
def test_text_json_commands_refuse_other_outputs(cli: Callable[..., Any]) -> None:
    res = _proc("fingerprint", LEGAL, "-o", "junit")
    assert res.returncode == 2 and "'junit': this command writes text or json" in res.stderr
    assert json.loads(cli("fingerprint", LEGAL, "-o", "json").stdout)["decks"]


@pytest.mark.parametrize(
    ("typo", "meant"), [("tcgg", "tcg"), ("gaot", "goat"), ("Master-Duell", "master-duel")]
)
def test_format_typo_suggests_the_format(cli: Callable[..., Any], typo: str, meant: str) -> None:
    res = cli("validate", LEGAL, "-f", typo)
    assert res.code == 2
    first = res.stderr.splitlines()[0]
    assert first == f"error: unknown format {typo!r}; did you mean {meant!r}?"


def test_far_off_format_suggests_nothing(cli: Callable[..., Any]) -> None:
    res = cli("validate", LEGAL, "-f", "zzzz")
    assert res.stderr.splitlines()[0] == "error: unknown format 'zzzz'"


@pytest.mark.parametrize(
    ("day", "says"),
    [
        ("2025-13-01", "there is no month 13"),
        ("2025-00-10", "there is no month 0"),
        ("2025-02-30", "there is no day 30 in 2025-02 (it has 28 days)"),
        ("2024-02-30", "(it has 29 days)"),
        ("2025-06-31", "there is no day 31 in 2025-06"),
        ("June 1", "use YYYY-MM-DD"),
    ],
)
def test_bad_dates_say_what_is_wrong(cli: Callable[..., Any], day: str, says: str) -> None:
    res = cli("validate", LEGAL, "--date", day)
    assert res.code == 2 and res.stderr.startswith(f"error: bad date {day!r}: ")
    assert says in res.stderr


def test_readme_schema_synopsis_names_every_document() -> None:
    from deckcheck.reporter.document import DOCUMENTS

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    synopsis = readme.split("deckcheck schema [", 1)[1].split("]", 1)[0]
    assert sorted(" ".join(synopsis.split()).replace(" ", "").split("|")) == sorted(DOCUMENTS)


def test_cards_search_rush(cli: Callable[..., Any]) -> None:
    res = cli("cards", "search", "Dragon", "--rush", "-n", "5", "-o", "json")
    assert res.code == 0
    results = json.loads(res.stdout)["results"]
    assert len(results) == 5 and all(r["rush"] for r in results)
    plain = json.loads(cli("cards", "search", "Dragon", "-n", "5", "-o", "json").stdout)
    assert not all(r["rush"] for r in plain["results"])


def _ghost_belle_deck(tmp_path: Any) -> str:
    deck = tmp_path / "deck.txt"
    text = (ROOT / "examples" / "decklist.txt").read_text(encoding="utf-8")
    text = text.replace("Side Deck (5)\n", "Side Deck (7)\n2 Ghost Belle & Haunted Mansion\n")
    deck.write_text(text, encoding="utf-8")
    return str(deck)


def test_side_in_takes_partial_names_and_prints_the_moves(
    cli: Callable[..., Any], tmp_path: Any
) -> None:
    deck = _ghost_belle_deck(tmp_path)
    res = cli(
        "side", deck, "--in", "2 Ghost Belle", "--out-cards", "2 lightning", "--date", "2025-06-01"
    )
    assert res.code == 0, res.stdout + res.stderr
    out = res.stdout.splitlines()
    assert out[1] == "  in:  2 Ghost Belle & Haunted Mansion"
    assert out[2] == "  out: 2 Lightning Storm"
    side = next(line for line in out if line.startswith("  Side (7): "))
    assert "2 Lightning Storm" in side and "Ghost Belle" not in side
    main = next(line for line in out if line.startswith("  Main (40): "))
    assert "2 Ghost Belle & Haunted Mansion" in main and "Lightning Storm" not in main
    doc = json.loads(
        cli(
            "side", deck, "--in", "2 ghost belle", "--out-cards", "2 Lightning Storm", "-o", "json"
        ).stdout
    )
    assert doc["cards_in"] == [
        {"name": "Ghost Belle & Haunted Mansion", "passcode": 73642296, "copies": 2}
    ]
    assert sum(c["copies"] for c in doc["deck"]["main"]) == 40


def test_side_partial_name_shared_by_two_cards_is_ambiguous(
    cli: Callable[..., Any], tmp_path: Any
) -> None:
    deck = _ghost_belle_deck(tmp_path)
    # "Cyber Dragon" is a full name; "Cyber Dragon N" starts Nachster and Nova in the deck
    res = cli("side", deck, "--in", "1 Ghost Belle", "--out-cards", "1 Cyber Dragon N")
    assert res.code == 2
    assert "Cyber Dragon Nachster" in res.stderr and "Cyber Dragon Nova" in res.stderr
