"""The README stays true: quick start, violation-code table, command list."""

from __future__ import annotations

import re
import shlex

from deckcheck.validation.report import Code

from .conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_quick_start_runs_the_main_job(cli) -> None:  # type: ignore[no-untyped-def]
    block = README.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.strip() for line in block.strip().splitlines()]
    assert commands[0].startswith("python3 -m venv .venv")
    assert commands[1] == "pip install ."
    args = shlex.split(commands[2])
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
    for group in (
        "validate",
        "upcoming",
        "convert",
        "simulate",
        "formats",
        "cards show",
        "cards search",
        "banlist show",
        "banlist diff",
        "banlist export",
        "formats show",
        "data status",
        "data update",
        "data export",
        "data reset",
    ):
        assert f"deckcheck {group}" in README
        res = cli(*group.split(), "--help")
        assert res.code == 0, group


def test_library_ci_example_runs(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    section = README.split("## Library", 1)[1].split("\n## ", 1)[0]
    block = next(
        b.split("```", 1)[0] for b in section.split("```python")[1:] if "check_with_config" in b
    )
    monkeypatch.chdir(ROOT)
    scope: dict[str, object] = {}
    exec(compile(block, "README.md", "exec"), scope)
    assert int(scope["batch"].verdict()) == 0  # type: ignore[attr-defined]
    assert '"version": "2.1.0"' in str(scope["sarif"])


def test_use_in_ci_config_example_is_valid(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from deckcheck.run.config import load_config

    section = README.split("## Use in CI", 1)[1].split("\n## ", 1)[0]
    block = section.split("```toml", 1)[1].split("```", 1)[0]
    path = tmp_path / "deckcheck.toml"
    path.write_text(block, encoding="utf-8")
    cfg = load_config(path)
    assert cfg.folder_format("goat/a.ydk") == "goat"
    assert not cfg.selects("drafts/x.ydk") and not cfg.selects("other/x.ydk")
    assert cfg.ignored("casual/x.ydk") == {"not-in-pool"}


def test_the_readme_lists_every_public_name() -> None:
    import deckcheck

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### The public API: `deckcheck.__all__`", 1)[1].split("\n### ", 1)[0]
    missing = [n for n in deckcheck.__all__ if f"`{n}`" not in section]
    assert not missing, missing
