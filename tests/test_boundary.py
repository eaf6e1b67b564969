"""Bounded reads: no input deckcheck reads can exhaust memory or block (FIFOs, devices)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.boundary import read_capped
from deckcheck.error import InputError

DECK = "#main\n89631139\n89631139\n89631139\n" + "".join(f"{c}\n" for c in [55144522] * 3)
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """The CLI in a subprocess; a hang fails the test (timeout)."""
    env = {**os.environ, "DECKCHECK_DEBUG": ""}
    return subprocess.run(
        [sys.executable, "-m", "deckcheck", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )


def _error(res: subprocess.CompletedProcess[str], *words: str) -> None:
    assert res.returncode == 2, (res.returncode, res.stderr)
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert lines and lines[0].startswith("error: "), res.stderr
    for word in words:
        assert word in res.stderr


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


@pytest.mark.slow
def test_config_dev_zero_is_refused(tmp_path: Path) -> None:
    (tmp_path / "d.ydk").write_text(DECK)
    _error(_run(["validate", "d.ydk", "--config", "/dev/zero"], tmp_path), "not a regular file")


@pytest.mark.slow
def test_side_plan_dev_zero_is_refused(tmp_path: Path) -> None:
    (tmp_path / "d.ydk").write_text(DECK)
    res = _run(["side", "d.ydk", "--plan", "/dev/zero"], tmp_path)
    _error(res, "not a regular file")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["deckcheck.toml", "pyproject.toml"])
def test_huge_discovered_config_is_refused_without_reading_it(tmp_path: Path, name: str) -> None:
    (tmp_path / "d.ydk").write_text(DECK)
    with open(tmp_path / name, "wb") as handle:  # 1 GiB, sparse: cheap to make, costly to read
        handle.write(b"[tool.deckcheck]\n")
        handle.truncate(1 << 30)
    _error(_run(["validate", "d.ydk"], tmp_path), name, "limit")


@pytest.mark.slow
@needs_fifo
def test_fifo_as_discovered_config_does_not_block(tmp_path: Path) -> None:
    (tmp_path / "d.ydk").write_text(DECK)
    _fifo(tmp_path / "deckcheck.toml")
    _error(_run(["validate", "d.ydk"], tmp_path), "FIFO")


@pytest.mark.slow
@needs_fifo
@pytest.mark.parametrize("name", ["deck.ydk", "regs.csv", "decks.zip"])
def test_fifo_named_as_input_does_not_block(tmp_path: Path, name: str) -> None:
    _fifo(tmp_path / name)
    res = _run(["validate", name, "-d", "2025-06-01"], tmp_path)
    assert res.returncode == 2, res.stderr
    assert "regular file" in res.stderr and "Traceback" not in res.stderr


@needs_fifo
def test_fifo_deck_through_the_library_is_a_deck_read_error(tmp_path: Path) -> None:
    from deckcheck import read_path
    from deckcheck.error import DeckReadError

    with pytest.raises(DeckReadError, match="FIFO"):
        read_path(_fifo(tmp_path / "deck.ydk"))


@pytest.mark.slow
@needs_fifo
def test_fifo_format_file_and_csv_do_not_block(tmp_path: Path) -> None:
    (tmp_path / "d.ydk").write_text(DECK)
    _fifo(tmp_path / "fmt.toml")
    _error(_run(["validate", "d.ydk", "--format-file", "fmt.toml"], tmp_path), "FIFO")
    _fifo(tmp_path / "regs.csv")
    _error(_run(["batch", "regs.csv", "--out", "out"], tmp_path), "regular file")


@pytest.mark.slow
@needs_fifo
def test_fifo_as_spec_and_plan_do_not_block(tmp_path: Path) -> None:
    (tmp_path / "d.ydk").write_text(DECK)
    _fifo(tmp_path / "plan.txt")
    _error(_run(["side", "d.ydk", "--plan", "plan.txt"], tmp_path), "FIFO")


def test_read_capped_caps_and_refuses(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 11)
    assert read_capped(path, 11) == b"x" * 11
    with pytest.raises(InputError, match="limit"):
        read_capped(path, 10)
    with pytest.raises(InputError, match="folder"):
        read_capped(tmp_path, 10)
    with pytest.raises(InputError, match="NUL"):
        read_capped("a\0b", 10)
    with pytest.raises(InputError, match="device"):
        read_capped("/dev/zero", 10)


def test_read_capped_reads_past_a_size_the_file_understates() -> None:
    # a regular file whose stated size is 0 (procfs: its text is made as it is read) is read
    # whole, block after block, and still refused past the cap
    proc = Path("/proc/self/status")
    if not proc.is_file() or proc.stat().st_size != 0:
        pytest.skip("needs a Linux /proc whose files state no size")
    text = read_capped(proc, 1 << 20)
    assert text.startswith(b"Name:") and b"\nPid:" in text and len(text) > 200
    with pytest.raises(InputError, match="limit"):
        read_capped(proc, 100)


def test_read_capped_reads_a_file_larger_than_a_block_whole(tmp_path: Path) -> None:
    path = tmp_path / "big"
    data = os.urandom(3 << 20) + b"end"
    path.write_bytes(data)
    assert read_capped(path, len(data)) == data
    with pytest.raises(InputError, match="limit"):
        read_capped(path, len(data) - 1)
