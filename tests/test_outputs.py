"""Outputs that fail cleanly: closed or broken stdout, read-only --out, all-or-nothing writes."""

from __future__ import annotations

import os
import resource
import signal
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from deckcheck.data.dataset import Dataset

DECK = "#main\n" + "89631139\n" * 3 + "".join(f"{c}\n" for c in range(10000, 10037))


def _run(
    args: list[str], cwd: Path, preexec: Callable[[], None] | None = None, **kw: Any
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deckcheck", *args],
        cwd=cwd,
        capture_output="stdout" not in kw,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=preexec,
        **kw,
    )


def _one_error(stderr: str) -> None:
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, stderr


COMMANDS = [
    ["validate", "d.ydk", "-d", "2025-06-01"],  # an illegal deck: would be exit 1
    ["validate", "d.ydk", "-d", "2025-06-01", "-o", "json"],
    ["formats"],
    ["data", "status"],
]


@pytest.mark.slow
@pytest.mark.parametrize("args", COMMANDS)
def test_closed_stdout_is_exit_2_with_one_error_line(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "d.ydk").write_text(DECK)
    res = subprocess.run(
        [sys.executable, "-m", "deckcheck", *args],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=lambda: os.close(1),
    )
    assert res.returncode == 2, res.stderr
    _one_error(res.stderr)
    assert "standard output is closed" in res.stderr


@pytest.mark.slow
@pytest.mark.parametrize("args", COMMANDS)
def test_broken_pipe_is_exit_2_with_one_error_line(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "d.ydk").write_text(DECK)
    proc = subprocess.Popen(
        [sys.executable, "-m", "deckcheck", *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader goes away before deckcheck writes
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 2, err
    _one_error(err)


@pytest.mark.slow
def test_full_disk_stdout_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "d.ydk").write_text(DECK)
    with open("/dev/full", "w") as full:
        res = _run(
            ["validate", "d.ydk", "-d", "2025-06-01"], tmp_path, stdout=full, stderr=subprocess.PIPE
        )
    assert res.returncode == 2
    _one_error(res.stderr)


def test_out_refuses_a_read_only_file_and_keeps_permissions(
    cli: Callable[..., Any], tmp_path: Path
) -> None:
    deck = tmp_path / "d.ydk"
    deck.write_text(DECK)
    locked = tmp_path / "locked.json"
    locked.write_text("keep me")
    locked.chmod(0o444)
    res = cli("validate", str(deck), "-d", "2025-06-01", "-o", "json", "--out", str(locked))
    assert res.code == 2 and "read-only" in res.stderr
    assert locked.read_text() == "keep me"
    kept = tmp_path / "kept.json"
    kept.write_text("old")
    kept.chmod(0o640)
    res = cli("validate", str(deck), "-d", "2025-06-01", "-o", "json", "--out", str(kept))
    assert res.code == 1, res.stderr
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_text().startswith("{")


def _batch(cli: Callable[..., Any], tmp_path: Path, out: Path) -> Any:
    deck = tmp_path / "d.ydk"
    deck.write_text(DECK)
    return cli("batch", str(deck), "-d", "2025-06-01", "--out", str(out))


def test_batch_out_is_all_or_nothing(cli: Callable[..., Any], tmp_path: Path) -> None:
    out = tmp_path / "reports"
    out.mkdir()
    for name in ("report.csv", "report.json", "report.html"):
        (out / name).write_text("previous run")
    (out / "junit.xml").mkdir()  # in the way
    res = _batch(cli, tmp_path, out)
    assert res.code == 2 and "junit.xml" in res.stderr
    for name in ("report.csv", "report.json", "report.html"):
        assert (out / name).read_text() == "previous run"  # not a mix of two runs
    assert sorted(p.name for p in out.iterdir()) == [
        "junit.xml",
        "report.csv",
        "report.html",
        "report.json",
    ]


def test_batch_out_cleans_stale_staging_folders(cli: Callable[..., Any], tmp_path: Path) -> None:
    out = tmp_path / "reports"
    out.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (out / f".deckcheck-{dead.pid}-abc").mkdir()  # a killed run's
    (out / f".deckcheck-{dead.pid}-abc" / "report.csv").write_text("half")
    old = out / ".deckcheck-xyz"  # an older deckcheck's, a day old
    old.mkdir()
    os.utime(old, (1, 1))
    live = out / f".deckcheck-{os.getpid()}-run"  # a run still going
    live.mkdir()
    res = _batch(cli, tmp_path, out)
    assert res.code == 1, res.stderr
    assert sorted(p.name for p in out.iterdir()) == [
        live.name,
        "junit.xml",
        "report.csv",
        "report.html",
        "report.json",
    ]


def _fsize_limit(limit: int) -> Callable[[], None]:
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write over the limit: EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


@pytest.mark.slow
def test_summary_append_is_whole_or_nothing(tmp_path: Path) -> None:
    (tmp_path / "d.ydk").write_text(DECK)
    summary = tmp_path / "summary.md"
    summary.write_text("x" * 1000)
    res = _run(
        ["validate", "d.ydk", "-d", "2025-06-01", "--summary", "summary.md"],
        tmp_path,
        _fsize_limit(1050),
    )
    assert res.returncode == 2, res.stderr
    _one_error(res.stderr)
    assert summary.read_text() == "x" * 1000  # not torn mid-row
    res = _run(["validate", "d.ydk", "-d", "2025-06-01", "--summary", "summary.md"], tmp_path)
    assert res.returncode == 1 and summary.stat().st_size > 1050


@pytest.mark.slow
def test_data_export_leaves_no_lone_manifest(tmp_path: Path) -> None:
    largest = max(p.stat().st_size for p in Dataset.bundled().folder.iterdir())
    res = _run(["data", "export", "out"], tmp_path, _fsize_limit(largest // 2))
    assert res.returncode == 2, res.stderr
    _one_error(res.stderr)
    assert not (tmp_path / "out").exists()
    (tmp_path / "empty").mkdir()
    res = _run(["data", "export", "empty"], tmp_path, _fsize_limit(largest // 2))
    assert res.returncode == 2 and list((tmp_path / "empty").iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "examples/tcg-legal.ydk"],
        ["validate", "examples/tcg-legal.ydk", "--output", "json"],
        ["upcoming", "examples/tcg-legal.ydk"],
        ["meta", "examples/tcg-legal.ydk"],
        ["banlist", "export", "tcg", "--date", "2025-06-01"],
        ["convert", "examples/tcg-legal.ydk", "--to", "ydke"],
    ],
)
def test_out_dash_is_standard_output(tmp_path: Path, args: list[str]) -> None:
    """``--out -`` writes what no ``--out`` writes, to stdout, and leaves no file named ``-``
    (``-`` names standard input where a deck is read, and standard output here)."""
    root = Path(__file__).resolve().parent.parent
    argv = [str(root / a) if a.startswith("examples/") else a for a in args]
    runs = [
        subprocess.run(
            [sys.executable, "-m", "deckcheck", *argv, *more],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            check=False,
            timeout=120,
        )
        for more in ([], ["--out", "-"])
    ]
    assert [r.returncode for r in runs] == [0, 0], runs[1].stderr
    assert runs[1].stdout == runs[0].stdout and runs[0].stdout
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("command", ["validate", "upcoming"])
def test_summary_dash_follows_the_report_on_standard_output(tmp_path: Path, command: str) -> None:
    """``--summary -`` appends the Markdown table to standard output, after the report, exactly
    as ``--summary FILE`` appends it to FILE; no file named ``-`` is left."""
    root = Path(__file__).resolve().parent.parent
    deck = str(root / "examples" / "tcg-legal.ydk")
    base = [sys.executable, "-m", "deckcheck", command, deck, "--date", "2025-06-01"]
    table = tmp_path / "summary.md"
    runs = [
        subprocess.run(
            [*base, *more],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            check=False,
            timeout=120,
        )
        for more in (["--summary", str(table)], ["--summary", "-"])
    ]
    assert [r.returncode for r in runs] == [0, 0], runs[1].stderr
    written = table.read_text(encoding="utf-8")
    assert "|" in written  # a Markdown table
    assert runs[1].stdout == runs[0].stdout + written
    assert not (tmp_path / "-").exists()
