"""Error lines on the terminal: a value of thousands of characters echoed back is shortened to
its start and end around a count of what was left out; ordinary messages are written whole."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.reporter.text import shorten

ROOT = Path(__file__).resolve().parent.parent
DECK = str(ROOT / "examples" / "tcg-legal.ydk")
LONG = "7" * 5000 + "END"


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deckcheck", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (["validate", DECK, "--format", LONG], "error: unknown format '7777"),
        (["validate", DECK, "--date", "2025-06-" + LONG], "error: bad date '2025-06-7777"),
        (["cards", "show", LONG], "error: unknown card '7777"),
    ],
)
def test_an_overlong_value_is_shortened_in_the_error_line(
    tmp_path: Path, args: list[str], start: str
) -> None:
    res = _run(args, tmp_path)
    assert res.returncode == 2
    first = res.stderr.splitlines()[0]
    assert first.startswith(start)
    assert len(first) <= 520  # "error: " and a message of at most 500 characters
    left_out = int(first.split("...[")[1].split(" characters left out]")[0].replace(",", ""))
    assert left_out > 4000
    assert "END'" in first  # the end of the value (and of the message) is kept


def test_a_message_within_the_bound_is_written_whole(tmp_path: Path) -> None:
    value = "x" * 300
    res = _run(["validate", DECK, "--format", value], tmp_path)
    assert res.returncode == 2
    assert f"unknown format '{value}'" in res.stderr
    assert "left out" not in res.stderr


def test_shorten_keeps_both_ends_and_counts_the_middle() -> None:
    text = "".join(chr(0x4E00 + i % 500) for i in range(2000))
    out = shorten(text, 200)
    assert len(out) <= 200
    head, rest = out.split("...[")
    count, tail = rest.split(" characters left out]...")
    assert text.startswith(head) and text.endswith(tail)
    assert len(head) + int(count.replace(",", "")) + len(tail) == len(text)
    assert shorten(text[:200], 200) == text[:200]


def test_a_search_for_nothing_shortens_what_it_echoes(tmp_path: Path) -> None:
    """``cards search`` with no match says so on stderr (exit 1) without echoing 100,000
    characters back."""
    res = _run(["cards", "search", "A" * 100_000 + "Z"], tmp_path)
    assert res.returncode == 1
    line = res.stderr.strip()
    assert line.startswith("no card matches 'AAAA") and line.endswith("AZ'")
    assert len(line) <= 520 and "characters left out" in line
