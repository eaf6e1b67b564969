"""Repository configuration: deckcheck.toml / [tool.deckcheck], found upwards, validated."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest

from deckcheck.error import ConfigError
from deckcheck.run.config import check_with_config, find_config, load_config, matches

from .conftest import ROOT, TEST_DATA

LEGAL = ROOT / "examples" / "tcg-legal.ydk"
PROBLEMS = ROOT / "examples" / "problems.ydk"
GOAT = TEST_DATA / "decks" / "legal" / "goat-2005.ydk"
HARPIE = TEST_DATA / "decks" / "legal" / "tcg-harpie-treated-as.ydk"


@pytest.fixture(autouse=True)
def _not_on_a_runner(monkeypatch: pytest.MonkeyPatch) -> None:
    """Paths in CI reports follow $GITHUB_WORKSPACE when set: these tests run without it."""
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)


def _repo(tmp_path: Path, config: str, name: str = "deckcheck.toml") -> Path:
    repo = tmp_path / "repo"
    for sub in ("tcg", "goat", "drafts"):
        (repo / sub).mkdir(parents=True)
    shutil.copy(LEGAL, repo / "tcg" / "legal.ydk")
    shutil.copy(GOAT, repo / "goat" / "goat.ydk")
    shutil.copy(PROBLEMS, repo / "drafts" / "wip.ydk")
    (repo / name).write_text(config, encoding="utf-8")
    return repo


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("goat/**", "goat/a.ydk", True),
        ("goat/**", "goat/sub/a.ydk", True),
        ("goat/**", "tcg/goat/a.ydk", False),
        ("goat", "tcg/goat/a.ydk", True),  # no slash: any depth, a folder covers its files
        ("goat/*.ydk", "goat/sub/a.ydk", False),  # * stays within one name
        ("**/*.txt", "a/b/c.txt", True),
        ("**/*.txt", "c.txt", True),
        ("*.txt", "deep/er/c.txt", True),
        ("drafts/", "drafts/x.ydk", True),
        ("d[ra]afts/x.ydk", "drafts/x.ydk", True),
        ("tcg/?.ydk", "tcg/ab.ydk", False),
        ("/tcg/*.ydk", "tcg/a.ydk", True),
    ],
)
def test_globs(pattern: str, path: str, expected: bool) -> None:
    assert matches(pattern, path) is expected


def test_found_from_the_current_folder_upwards(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    repo = _repo(tmp_path, '[folders]\n"goat/**" = "goat"\n')
    monkeypatch.chdir(repo / "goat")
    assert find_config() == repo / "deckcheck.toml"
    res = cli("validate", "goat.ydk", "-o", "json", "--date", "2025-06-01")
    assert res.code == 0, res.stdout + res.stderr
    doc = json.loads(res.stdout)
    assert [r["format"] for r in doc["results"]] == ["goat"]  # the folder's format
    # a modern deck in the GOAT folder is illegal there, legal as TCG (without the config)
    shutil.copy(LEGAL, repo / "goat" / "modern.ydk")
    res = cli("validate", "modern.ydk", "--date", "2025-06-01", "-o", "json")
    assert res.code == 1
    assert "not-in-pool" in {v["code"] for v in json.loads(res.stdout)["results"][0]["violations"]}
    assert cli("validate", "modern.ydk", "--no-config", "--date", "2025-06-01").code == 0


def test_pyproject_tool_table(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    repo = _repo(
        tmp_path,
        '[project]\nname = "decks"\n\n[tool.deckcheck]\nexclude = ["drafts"]\n'
        'date = "2025-06-01"\n[tool.deckcheck.folders]\n"goat/**" = "goat"\n',
        name="pyproject.toml",
    )
    monkeypatch.chdir(repo)
    res = cli("validate", "-o", "json")
    assert res.code == 0, res.stdout + res.stderr
    doc = json.loads(res.stdout)
    assert sorted(r["path"] for r in doc["results"]) == ["goat/goat.ydk", "tcg/legal.ydk"]
    assert doc["date"] == "2025-06-01"


def test_pyproject_without_the_table_is_passed_over(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    inner = outer / "inner"
    inner.mkdir(parents=True)
    (outer / "deckcheck.toml").write_text("strict = true\n", encoding="utf-8")
    (inner / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    assert find_config(inner) == outer / "deckcheck.toml"


def test_exclude_applies_to_explicit_files_too(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    repo = _repo(tmp_path, 'exclude = ["drafts/**"]\n[folders]\n"goat/**" = "goat"\n')
    monkeypatch.chdir(repo)
    assert cli("validate", "drafts/wip.ydk", "tcg/legal.ydk").code == 0
    assert cli("validate", "drafts/wip.ydk", "--no-config").code == 1
    res = cli("validate", "drafts/wip.ydk")
    assert res.code == 0 and "nothing to check" in res.stderr


def test_include_limits_the_files(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    repo = _repo(tmp_path, 'include = ["tcg/**"]\n')
    monkeypatch.chdir(repo)
    res = cli("validate", "-o", "json")
    assert [r["path"] for r in json.loads(res.stdout)["results"]] == ["tcg/legal.ydk"]


def test_ignore_codes_per_path(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    repo = _repo(tmp_path, '[ignore]\n"tcg/**" = ["treated-as"]\n"**" = ["date-out-of-range"]\n')
    shutil.copy(HARPIE, repo / "tcg" / "harpie.ydk")
    shutil.copy(HARPIE, repo / "goat" / "harpie.ydk")
    monkeypatch.chdir(repo)
    res = cli("validate", "tcg", "goat/harpie.ydk", "-o", "json", "--date", "2099-01-01")
    codes = {
        r["path"]: {v["code"] for v in r["violations"]} for r in json.loads(res.stdout)["results"]
    }
    assert codes["tcg/harpie.ydk"] == set()
    assert codes["goat/harpie.ydk"] == {"treated-as"}
    assert not any("date-out-of-range" in c for c in codes.values())


def test_ignored_errors_make_a_deck_legal(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path,
        '[ignore]\n"drafts/**" = ["forbidden", "main-size", "copies", '
        '"unknown-card", "wrong-section"]\n',
    )
    cfg = load_config(repo / "deckcheck.toml")
    batch = check_with_config([str(repo / "drafts")], cfg, date=date(2025, 6, 1))
    assert batch.reports[0].legal and batch.exit_code == 0
    plain = check_with_config([str(repo / "drafts")], None, date=date(2025, 6, 1))
    assert not plain.reports[0].legal


def test_strict_from_the_config_and_overridden(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    repo = _repo(tmp_path, 'strict = true\ndate = "2099-01-01"\n')
    monkeypatch.chdir(repo)
    assert cli("validate", "tcg").code == 1  # the after-the-data warning fails
    assert cli("validate", "tcg", "--no-strict").code == 0


def test_command_line_overrides_format_and_date(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    repo = _repo(tmp_path, 'format = "goat"\ndate = "2005-09-01"\n')
    monkeypatch.chdir(repo)
    doc = json.loads(cli("validate", "goat", "-o", "json").stdout)
    assert doc["results"][0]["format"] == "goat" and doc["date"] == "2005-09-01"
    doc = json.loads(
        cli("validate", "goat", "-o", "json", "-f", "edison", "-d", "2011-01-01").stdout
    )
    assert doc["results"][0]["format"] == "edison" and doc["date"] == "2011-01-01"


def test_date_as_a_toml_date(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "date = 2005-09-01\n")
    batch = check_with_config([str(repo / "goat")], load_config(repo / "deckcheck.toml"))
    assert batch.date == date(2005, 9, 1)
    (repo / "deckcheck.toml").write_text("date = 2005-09-01T10:00:00\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="date"):
        load_config(repo / "deckcheck.toml")


def test_region_picks_the_tcg_list_dates(tmp_path: Path) -> None:
    # April 2024: in force 2024-04-15 in North America, 2024-04-22 in Europe
    on = date(2024, 4, 18)
    na = _repo(tmp_path / "na", 'region = "na"\n')
    eu = _repo(tmp_path / "eu", 'region = "eu"\n')
    got_na = check_with_config([str(na / "tcg")], load_config(na / "deckcheck.toml"), date=on)
    got_eu = check_with_config([str(eu / "tcg")], load_config(eu / "deckcheck.toml"), date=on)
    assert got_na.reports[0].banlist is not None and got_eu.reports[0].banlist is not None
    assert got_na.reports[0].banlist.effective == date(2024, 4, 15)
    assert got_eu.reports[0].banlist.effective < date(2024, 4, 15)
    # the command line's --region wins over the configuration's
    cli_eu = check_with_config(
        [str(na / "tcg")], load_config(na / "deckcheck.toml"), date=on, region="eu"
    )
    assert cli_eu.reports[0].banlist == got_eu.reports[0].banlist


def test_explicit_config_file(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    repo = _repo(tmp_path, "strict = true\n")
    other = tmp_path / "lenient.toml"
    other.write_text('date = "2099-01-01"\n', encoding="utf-8")
    monkeypatch.chdir(repo)
    assert cli("validate", "tcg", "--config", str(other)).code == 0
    assert cli("validate", "tcg", "--config", str(other), "--strict").code == 1


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('formt = "tcg"\n', "'formt'"),
        ('[folders]\n"goat/**" = "goat"\n[tool]\nx = 1\n', "'tool'"),
        ('date = "2025-13-01"\n', "date"),
        ('[ignore]\n"**" = ["forbiden"]\n', "'forbiden'"),
        ('region = "ocg"\n', "region"),
        ('strict = "yes"\n', "strict"),
        ('[folders]\n"goat/**" = "gaot"\n', "gaot"),
        ('format = "goat"\nregion = "north-america"\n', "region"),
        ("format = [\n", "not a valid TOML file"),
        ('exclude = ["../x"]\n', "exclude"),
    ],
)
def test_bad_config_names_the_file_and_key(
    tmp_path: Path, cli, monkeypatch, text: str, named: str
) -> None:  # type: ignore[no-untyped-def]
    repo = _repo(tmp_path, text)
    monkeypatch.chdir(repo)
    res = cli("validate", "tcg")
    assert res.code == 2
    assert "deckcheck.toml" in res.stderr and named in res.stderr
    assert "Traceback" not in res.stderr
    with pytest.raises(ConfigError):
        cfg = load_config(repo / "deckcheck.toml")
        check_with_config([str(repo / "tcg")], cfg)


def test_missing_config_file_is_an_error(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    res = cli("validate", str(LEGAL), "--config", str(tmp_path / "nope.toml"))
    assert res.code == 2 and "nope.toml" in res.stderr
    res = cli("validate", str(LEGAL), "--config", str(tmp_path / "x.toml"), "--no-config")
    assert res.code == 2


def test_schema_config_is_the_model(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli("schema", "config")
    assert res.code == 0
    schema = json.loads(res.stdout)
    assert schema["additionalProperties"] is False
    assert {"format", "date", "region", "include", "exclude", "strict", "folders", "ignore"} <= set(
        schema["properties"]
    )


def test_example_repo_config_is_valid() -> None:
    cfg = load_config(ROOT / "examples" / "deck-repo" / "deckcheck.toml")
    assert cfg.folder_format("goat/goat-control.ydk") == "goat"
    assert not cfg.selects("drafts/pot-of-greed.txt")


def test_folder_format_file_relative_to_the_root(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    repo = _repo(tmp_path, '[folders]\n"club/**" = "formats/club.toml"\n')
    (repo / "formats").mkdir()
    (repo / "formats" / "club.toml").write_text(
        'id = "club"\nname = "Club EX20"\nbase = "tcg"\n[rules]\nextra = { max = 20 }\n',
        encoding="utf-8",
    )
    (repo / "club").mkdir()
    shutil.copy(TEST_DATA / "decks" / "illegal" / "extra-16.ydk", repo / "club" / "big.ydk")
    shutil.copy(TEST_DATA / "decks" / "illegal" / "extra-16.ydk", repo / "tcg" / "big.ydk")
    monkeypatch.chdir(repo / "club")
    res = cli("validate", "..", "-o", "json", "--date", "2025-06-01")
    by = {r["path"]: r for r in json.loads(res.stdout)["results"]}
    assert by["../club/big.ydk"]["format"] == "club"  # JSON keeps paths as given
    assert "extra-size" not in {v["code"] for v in by["../club/big.ydk"]["violations"]}
    assert "extra-size" in {v["code"] for v in by["../tcg/big.ydk"]["violations"]}


def test_explicit_pyproject_needs_the_table(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    project = tmp_path / "pyproject.toml"
    project.write_text('[project]\nname = "x"\n', encoding="utf-8")
    res = cli("validate", str(LEGAL), "--config", str(project))
    assert res.code == 2 and "no [tool.deckcheck] table" in res.stderr
    project.write_text("[tool.deckcheck]\nstrict = 1\n", encoding="utf-8")
    res = cli("validate", str(LEGAL), "--config", str(project))
    assert res.code == 2 and "[tool.deckcheck]" in res.stderr and "strict" in res.stderr
