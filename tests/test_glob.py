"""The one glob engine: no backtracking, gitignore semantics (pathspec as the oracle)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pathspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from deckcheck.error import InputError
from deckcheck.run.batch import sources
from deckcheck.run.config import glob_regex, load_config
from deckcheck.source.glob import MAX_PATTERN, GitIgnore, path_glob

EVIL = "*a" * 30 + "b"  # the audit's repro: 30 stars


def test_thirty_star_glob_against_a_long_name_is_instant() -> None:
    def hang(signum: int, frame: object) -> None:
        raise AssertionError("the glob is still matching after 30 s: it backtracks")

    signal.signal(signal.SIGALRM, hang)
    signal.alarm(30)  # a bound on a hang, not a speed measurement (bench/ measures)
    try:
        glob = path_glob(EVIL)
        assert not glob.match("a" * 400)
        assert glob.match("a" * 60 + "b")
        assert not GitIgnore.from_lines([EVIL] * 100).decide("a" * 400, False)
    finally:
        signal.alarm(0)


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deckcheck", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _repo(tmp_path: Path) -> Path:
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / ("a" * 80 + ".ydk")).write_text("#main\n89631139\n")
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize("where", ["gitignore", "exclude", "folders", "ignore"])
def test_evil_glob_in_gitignore_or_config_does_not_hang_a_scan(tmp_path: Path, where: str) -> None:
    repo = _repo(tmp_path)
    if where == "gitignore":
        (repo / ".gitignore").write_text(EVIL + "\n")
    elif where == "exclude":
        (repo / "deckcheck.toml").write_text(f'exclude = ["{EVIL}"]\n')
    elif where == "folders":
        (repo / "deckcheck.toml").write_text(f'[folders]\n"{EVIL}" = "goat"\n')
    else:
        (repo / "deckcheck.toml").write_text(f'[ignore]\n"{EVIL}" = ["over-limit"]\n')
    res = _run(["validate", "decks", "-d", "2025-06-01", "-o", "json"], repo)  # timeout: a hang
    assert res.returncode in (0, 1), res.stderr
    assert "Traceback" not in res.stderr


def test_evil_glob_as_exclude_option_is_instant(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    got = list(sources([str(repo / "decks")], exclude=[EVIL]))
    assert [s.skip for s in got] == [None]


def test_pattern_length_is_capped(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cap"):
        path_glob("a" * (MAX_PATTERN + 1))
    (tmp_path / "deckcheck.toml").write_text(f'exclude = ["{"*" * (MAX_PATTERN + 5)}"]\n')
    with pytest.raises(InputError, match="cap"):
        load_config(tmp_path / "deckcheck.toml")
    with pytest.raises(InputError, match="--exclude"):
        list(sources([str(_repo(tmp_path) / "decks")], exclude=["[z-a]"]))
    assert GitIgnore.from_lines(["x" * (MAX_PATTERN + 1), "old.ydk"]).decide("old.ydk", False)


# (pattern lines, path, is a folder) -> the answer pathspec's GitIgnoreSpec gives
TABLE = [
    (["*.ydk"], "a/b/deck.ydk", False),
    (["*.ydk"], "deck.txt", False),
    (["build/"], "build", True),
    (["build/"], "build", False),
    (["build/"], "src/build/x.ydk", False),
    (["/build"], "src/build", True),
    (["/build"], "build/x", False),
    (["a/b"], "a/b/c", False),
    (["a/b"], "x/a/b", False),
    (["a/**/b"], "a/b", False),
    (["a/**/b"], "a/x/y/b", False),
    (["**/b"], "x/y/b", False),
    (["a/**"], "a/q", False),
    (["a/**"], "a", True),
    (["*", "!keep.ydk"], "keep.ydk", False),
    (["*", "!keep.ydk"], "other.ydk", False),
    (["*.ydk", "!*.ydk", "old.ydk"], "old.ydk", False),
    (["d?ck.ydk"], "dack.ydk", False),
    (["d?ck.ydk"], "d/ck.ydk", False),
    (["[a-c]x"], "bx", False),
    (["[a-c]x"], "dx", False),
    (["[!a]x"], "bx", False),
    (["foo/*/bar"], "foo/q/bar", False),
    (["foo/*/bar"], "foo/q/r/bar", False),
    (["\\#x"], "#x", False),
    (["# comment"], "# comment", False),
    (["x\\ "], "x ", False),
    (["x  "], "x", False),
    (["\\!important"], "!important", False),
    (["a*b*c"], "aXbYc", False),
    (["**/a/**"], "z/a/k", False),
    (["/a/*.ydk"], "a/s/d.ydk", False),
    (["docs/**/*.txt"], "docs/a/b/t.txt", False),
    (["*/x"], "q/r/x", False),
    (["*/x"], "q/x", False),
    (["x", "!y/x"], "y/x", False),
]


@pytest.mark.parametrize(("lines", "path", "is_dir"), TABLE)
def test_gitignore_semantics_match_pathspec(lines: list[str], path: str, is_dir: bool) -> None:
    expected = (
        pathspec.GitIgnoreSpec.from_lines(lines).check_file(path + ("/" if is_dir else "")).include
    )
    assert GitIgnore.from_lines(lines).decide(path, is_dir) == expected


def test_a_set_never_matches_a_slash_as_in_git() -> None:
    # git's wildmatch never lets [...] match "/" (pathspec's regex does): "a[!x]b" is one name
    assert GitIgnore.from_lines(["a[!x]b"]).decide("a/b", False) is None
    assert GitIgnore.from_lines(["a[!x]b"]).decide("ayb", False) is True


WORDS = st.sampled_from(["a", "b", "x", "ab", "*", "?", "**", "[ab]", "[a-b]"])
NAMES = st.sampled_from(["a", "b", "x", "ab", "ba", "xab"])


@given(
    st.lists(WORDS, min_size=1, max_size=4).map("/".join),
    st.lists(NAMES, min_size=1, max_size=5).map("/".join),
    st.booleans(),
)
def test_gitignore_agrees_with_pathspec_on_files(pattern: str, path: str, neg: bool) -> None:
    lines = ["*", "!" + pattern] if neg else [pattern]
    if neg:  # (inside a folder git first asks of the folder, pathspec does not: see below)
        path = path.rsplit("/", 1)[-1]
    expected = pathspec.GitIgnoreSpec.from_lines(lines).check_file(path).include
    assert GitIgnore.from_lines(lines).decide(path, False) == expected


@pytest.mark.parametrize(
    ("lines", "path", "expected"),
    [
        (["*", "!a"], "a", False),  # git check-ignore: the folder is not ignored...
        (["*", "!a"], "a/x", True),  # ...but what is in it is ("*" matches x)
        (["build/", "!build/keep"], "build/keep", True),  # no re-including inside a folder
        (["drafts", "!drafts/keep"], "drafts/keep", True),  # (pathspec says False)
        (["a/**"], "a", True),
        (["*.ydk/"], "x.ydk", True),
    ],
)
def test_gitignore_folders_as_git(lines: list[str], path: str, expected: bool) -> None:
    assert GitIgnore.from_lines(lines).decide(path, path.count("/") == 0) is expected


@pytest.mark.parametrize(
    ("pattern", "path", "hit"),
    [
        ("decks/**", "decks/a.ydk", True),
        ("drafts", "q/drafts/y.ydk", True),
        ("goat/**", "goat/x/y", True),
        ("a/*/c", "a/b/c/d", True),
        ("a/*/c", "a/b/x/c", False),
        ("*.txt", "b/a.txt", True),
        ("**/x.ydk", "q/x.ydk", True),
        ("x?z", "x/z", False),
        ("[ab]*", "drafts/x", False),
        ("[ab]*", "q/bee", True),
    ],
)
def test_config_globs(pattern: str, path: str, hit: bool) -> None:
    assert glob_regex(pattern).match(path) is hit


def test_bad_exclude_glob_on_the_cli_is_exit_2_before_any_scan(cli: Any, tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    for bad in ("[z-a]", "x" * (MAX_PATTERN + 1)):
        res = cli("validate", str(repo / "decks"), "--exclude", bad)
        assert res.code == 2 and "--exclude" in res.stderr, res.stderr
