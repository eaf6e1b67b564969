"""Outside strings cannot reach a terminal raw (JSON, SARIF) or a spreadsheet as a formula."""

from __future__ import annotations

import csv
import io
import json
import os
import pty
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from deckcheck.reporter.text import for_terminal

HOSTILE = "\u202e\u2066\x85\x9b\x7f"  # bidi override and isolate, C1 (NEL, CSI), DEL


def _on_a_terminal(args: list[str], cwd: Path) -> tuple[int, str]:
    """Run the CLI with a pseudo-terminal as stdout; exit code and what it wrote."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "deckcheck", *args],
        cwd=cwd,
        stdout=slave,
        stderr=subprocess.PIPE,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            got = os.read(master, 1 << 16)
        except OSError:  # the other side closed
            break
        if not got:
            break
        chunks.append(got)
    os.close(master)
    code = proc.wait(timeout=120)
    return code, b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


def _hostile_deck(folder: Path) -> None:
    name = f"deck{HOSTILE}.ydk"
    (folder / name).write_text(f"#created by {HOSTILE}\n#main\n89631139\nnot a card {HOSTILE}\n")


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_and_sarif_on_a_terminal_escape_bidi_c1_and_del(tmp_path: Path, fmt: str) -> None:
    _hostile_deck(tmp_path)
    code, out = _on_a_terminal(["validate", ".", "-d", "2025-06-01", "-o", fmt], tmp_path)
    assert code == 1
    assert not set(HOSTILE) & set(out), [c for c in out if c in HOSTILE]
    doc = json.loads(out)  # still valid JSON...
    assert HOSTILE in json.dumps(doc, ensure_ascii=False)  # ...with the very same strings
    if fmt == "json":
        assert "\\u202e\\u2066\\u0085\\u009b\\u007f" in out


@pytest.mark.slow
def test_json_to_a_pipe_is_unchanged(tmp_path: Path) -> None:
    _hostile_deck(tmp_path)
    res = subprocess.run(
        [sys.executable, "-m", "deckcheck", "validate", ".", "-d", "2025-06-01", "-o", "json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert HOSTILE in res.stdout  # a program reading the JSON gets it as written


def test_for_terminal_keeps_the_json_value() -> None:
    text = json.dumps({"k": f"a{HOSTILE}\x1b[2Jb", HOSTILE: 1}, ensure_ascii=False)
    safe = for_terminal(text)
    assert safe.isascii() or not set(HOSTILE) & set(safe)
    assert json.loads(safe) == json.loads(text)


def test_report_csv_pass_through_headers_and_cells_are_neutralised(
    cli: Callable[..., Any], tmp_path: Path
) -> None:
    (tmp_path / "d.ydk").write_text("#main\n89631139\n")
    regs = tmp_path / "regs.csv"
    with open(regs, "w", newline="", encoding="utf-8") as handle:
        w = csv.writer(handle)
        w.writerow(["deck", "=notes", "\x1b]0;title\x07", "club"])
        w.writerow(["d.ydk", '=HYPERLINK("http://x")', "\x1b[31mred", "line 1\nline 2"])
    res = cli("batch", str(regs), "-d", "2025-06-01", "--out", str(tmp_path / "out"))
    assert res.code in (0, 1), res.stderr
    text = (tmp_path / "out" / "report.csv").read_text(encoding="utf-8")
    assert "\x1b" not in text and "\x07" not in text
    table = list(csv.reader(io.StringIO(text)))
    header, row = table[0], table[1]
    assert "'=notes" in header and "=notes" not in header
    assert row[header.index("'=notes")] == '\'=HYPERLINK("http://x")'
    assert row[-2] == "\\x1b[31mred"
    assert row[-1] == "line 1\nline 2"  # a multi-line note stays one
