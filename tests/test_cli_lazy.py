"""The root's command table: each command's one-line help matches its real help, and a
command's module is imported only when that command runs."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer._click.utils import make_default_short_help

from deckcheck.cli import COMMANDS, load_command


@pytest.mark.parametrize("name", list(COMMANDS))
def test_table_help_is_the_command_help(name: str) -> None:
    command = load_command(name)
    assert command.name == name
    assert command.callback is None or command.callback.__module__ == (
        f"deckcheck.cli.{COMMANDS[name].module}"
    )
    for limit in (45, 80, 10_000):
        assert command.get_short_help_str(limit) == make_default_short_help(
            COMMANDS[name].help, limit
        )


def _loaded(*argv: str) -> set[str]:
    code = (
        "import sys\nfrom deckcheck.cli import app\n"
        f"try:\n    app({list(argv)!r})\nexcept SystemExit:\n    pass\n"
        "print(' '.join(m for m in sys.modules if m.startswith('deckcheck.cli.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(done.stdout.split("\n")[-2].split())


def test_help_imports_no_command_module() -> None:
    modules = {f"deckcheck.cli.{e.module}" for e in COMMANDS.values()}
    assert not _loaded("--help") & modules


def test_a_command_imports_its_module_only() -> None:
    modules = {f"deckcheck.cli.{e.module}" for e in COMMANDS.values()}
    assert _loaded("formats") & modules == {"deckcheck.cli.format"}
