"""The README stays true: quick start, violation-code table, command list."""

from __future__ import annotations

import re
import shlex

from deckcheck.report import Code

from .conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_quick_start_runs_the_main_job(cli) -> None:  # type: ignore[no-untyped-def]
    block = README.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.strip() for line in block.strip().splitlines()]
    assert commands[0].startswith("python3 -m pip install")
    args = shlex.split(commands[1])
    assert args[0] == "deckcheck"
    res = cli(*args[1:])
    assert res.code == 0, res.stdout + res.stderr
    assert res.stdout.startswith("LEGAL")


def test_test_command_is_the_one_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pytest" in README and "python -m pytest" in ci


def test_every_violation_code_is_documented() -> None:
    table = {m.group(1) for m in re.finditer(r"^\| `([a-z-]+)` \|", README, re.MULTILINE)}
    assert {c.value for c in Code} <= table


def test_every_documented_command_exists(cli) -> None:  # type: ignore[no-untyped-def]
    for group in ("validate", "convert", "simulate", "formats", "cards show", "cards search",
                  "banlist show", "banlist diff", "banlist export", "formats show",
                  "data status", "data update", "data export", "data reset"):  # fmt: skip
        assert f"deckcheck {group}" in README
        res = cli(*group.split(), "--help")
        assert res.code == 0, group
