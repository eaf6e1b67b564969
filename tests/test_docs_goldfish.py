"""Every goldfish example in README.md and docs/goldfish.md runs as written.

Each ``deckcheck simulate`` line of a ``console`` or ``sh`` block (``$`` prompts and ``\\``
continuations included; synopsis lines with placeholders left out) runs in a copy of the
repository's ``examples/`` folder and must exit 0; in a ``console`` block, every output line
shown under a command (but ``...``) must be in its output.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from .conftest import ROOT

SOURCES = ("README.md", "docs/goldfish.md")
_SYNOPSIS = re.compile(r"\[-|\(DECK|\bDECK\b|\bNAME=N\.\.\.|\bOTHER\b|--size \.\.\.")


def _examples() -> list[tuple[str, str, list[str]]]:
    """(source, command, output lines shown) of every goldfish example."""
    out: list[tuple[str, str, list[str]]] = []
    for source in SOURCES:
        text = (ROOT / source).read_text(encoding="utf-8")
        for m in re.finditer(r"```(console|sh)\n(.*?)```", text, re.DOTALL):
            kind, body = m.group(1), m.group(2)
            lines = body.splitlines()
            i = 0
            while i < len(lines):
                line = lines[i].rstrip()
                bare = line[2:] if kind == "console" and line.startswith("$ ") else line
                if kind == "console" and not line.startswith("$ "):
                    i += 1
                    continue
                if not bare.startswith("deckcheck simulate"):
                    i += 1
                    continue
                command = bare
                while command.endswith("\\"):
                    i += 1
                    command = command[:-1] + " " + lines[i].strip()
                i += 1
                shown = []
                while kind == "console" and i < len(lines) and not lines[i].startswith("$ "):
                    shown.append(lines[i].rstrip())
                    i += 1
                if not _SYNOPSIS.search(command):
                    out.append((source, command, shown))
    return out


EXAMPLES = _examples()


def test_the_docs_have_goldfish_examples() -> None:
    sources = {s for s, _, _ in EXAMPLES}
    assert sources == set(SOURCES)
    assert len(EXAMPLES) >= 15
    assert any("--vary" in c for _, c, _ in EXAMPLES)  # the sweep examples are among them


@pytest.mark.slow
@pytest.mark.parametrize(
    ("source", "command", "shown"), EXAMPLES, ids=[f"{s}:{c[19:60]}" for s, c, _ in EXAMPLES]
)
def test_every_goldfish_example_runs(cli, tmp_path, monkeypatch, source, command, shown) -> None:  # type: ignore[no-untyped-def]
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    args = shlex.split(command, comments=True)
    assert args[:2] == ["deckcheck", "simulate"]
    res = cli(*args[1:])
    assert res.code == 0, f"{source}: {command}\n{res.stdout}\n{res.stderr}"
    got = {line.rstrip() for line in res.stdout.splitlines()}
    for line in shown:
        if line.strip() and line.strip() != "...":
            assert line in got, f"{source}: {command}: not in the output: {line!r}"
    for arg in args:
        if arg.endswith((".png", ".svg")):
            assert Path(arg).stat().st_size > 0
