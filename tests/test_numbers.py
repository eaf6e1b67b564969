"""Numbers written by someone else: a digit that is no decimal (``²`` passes ``str.isdigit`` and
fails ``int``) and a run of 5,000 digits (over Python's conversion limit) are each a clear
error naming the value, exit 2 or a 4xx, never an unexpected ``ValueError``; a number too
large for its place is reported as too large.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from deckcheck.boundary import read_number
from deckcheck.error import DataError, SpecError
from deckcheck.goldfish.spec import parse_spec
from deckcheck.rule.banlist import read_banlist_file

from .conftest import CliResult
from .test_service import Api, api, error_of  # noqa: F401  (api is a fixture)

ROOT = Path(__file__).resolve().parent.parent
LONG = "9" * 5000
"""More digits than ``int()`` converts by default (4,300)."""
ODD = ["²", "¹²", "ⅻ"]
"""Superscripts (``str.isdigit``, but no decimals: ``int()`` fails) and a Roman numeral."""
WIDE = {"３": 3, "٣": 3, "１２": 12}
"""Decimal digits of other scripts (full-width, Arabic-Indic): numbers, as in a deck file."""
QUICK = ["simulate", "--size", "40"]


def _refused(res: CliResult, *words: str) -> str:
    """The one error line of a refused command, after checking exit 2 and what it names."""
    assert res.code == 2, (res.code, res.stdout, res.stderr)
    assert "unexpected" not in res.stderr and "Traceback" not in res.stderr, res.stderr
    line = res.stderr.strip()
    assert line.startswith("error:"), line
    for word in words:
        assert word in line, (word, line)
    return line


@pytest.mark.parametrize("value", [*ODD, "", "3.0", "-3"])
def test_a_quick_mode_count_that_is_no_number_is_named(
    cli: Callable[..., CliResult], value: str
) -> None:
    for option in ("--count", "--vs"):
        args = [*QUICK, "--count", "a=3"] if option == "--vs" else QUICK
        _refused(cli(*args, option, f"a={value}"), option, "expected NAME=N")


def test_a_quick_mode_count_over_the_largest_deck_is_too_large(
    cli: Callable[..., CliResult],
) -> None:
    line = _refused(cli(*QUICK, "--count", "a=" + LONG[:30]), "--count", "more than 200")
    assert len(line) < 300  # the 30 digits once, not a conversion of them
    ok = cli(*QUICK, "--count", "a=0003", "--when", "a >= 1", "--turns", "1")
    assert ok.code == 0, ok.stderr  # leading zeros are still the number
    for text, n in WIDE.items():  # the same run as the ASCII number's
        runs = [
            cli(*QUICK, "--count", f"a={t}", "--when", "a >= 1", "--turns", "1", "--output", "json")
            for t in (text, str(n))
        ]
        assert [r.code for r in runs] == [0, 0], runs[0].stderr
        assert runs[0].stdout == runs[1].stdout


@pytest.mark.parametrize("vary", [f"a=1..{LONG}", f"a={LONG}", f"a=1,{LONG}", "a=1..61"])
def test_a_vary_range_past_the_copy_limit_is_refused(
    cli: Callable[..., CliResult], vary: str
) -> None:
    res = cli(*QUICK, "--count", "a=3", "--when", "a >= 1", "--vary", vary)
    _refused(res, "vary", "a <= b <= 60")


def test_a_vary_range_over_http_is_a_422_not_a_500(api: Api) -> None:  # noqa: F811
    quick = {"size": 40, "counts": {"starter": 8}, "when": ["starter >= 1"]}
    for vary in (f"starter=1..{LONG}", f"starter={LONG}", "starter=²"):
        resp = api.post("/v1/simulate/sweep", json={"quick": quick, "vary": [vary]})
        error_of(resp, 422, "goldfish-error")
    good = api.post("/v1/simulate/sweep", json={"quick": quick, "vary": ["starter=7..8"]})
    assert good.status_code == 200, good.text
    assert [r["values"]["starter"] for r in good.json()["rows"]] == [8, 7]


def test_a_spec_files_vary_table_is_a_spec_error() -> None:
    base = {"categories": {"ash": {"passcodes": ["14558127"]}}}
    for text in (f"1..{LONG}", "²..3", LONG):
        with pytest.raises(SpecError, match=r"vary\.ash"):
            parse_spec({**base, "vary": {"ash": text}})
    assert parse_spec({**base, "vary": {"ash": "0..2"}}).vary == (("ash", (0, 1, 2)),)


def test_a_ban_list_files_entry_key_must_be_a_32_bit_passcode(tmp_path: Path) -> None:
    good = (ROOT / "banlists" / "tcg" / "2005-10-01.toml").read_text(encoding="utf-8")
    old = "55144522 = { status = 0,"
    assert old in good
    for key in (LONG, "²", "4294967296"):
        path = tmp_path / "bad.toml"
        path.write_text(good.replace(old, f'"{key}" = {{ status = 0,'), encoding="utf-8")
        with pytest.raises(DataError, match="key must be a passcode") as err:
            read_banlist_file(path)
        assert "bad.toml" in str(err.value) and len(str(err.value)) < 200
    path.write_text(good.replace(old, '"4294967295" = { status = 0,'), encoding="utf-8")
    assert 4294967295 in read_banlist_file(path).entries


def _data_status(tmp_path: Path, days: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DECKCHECK_HOME=str(tmp_path / "home"), DECKCHECK_MAX_AGE_DAYS=days)
    return subprocess.run(
        [sys.executable, "-m", "deckcheck", "data", "status"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )


def test_the_max_age_setting_is_a_number_of_days(tmp_path: Path) -> None:
    for days in ("²", "0", "thirty"):
        done = _data_status(tmp_path, days)
        assert done.returncode == 2, done.stderr
        assert "DECKCHECK_MAX_AGE_DAYS" in done.stderr and "not a number of days" in done.stderr
        assert "unexpected" not in done.stderr
    done = _data_status(tmp_path, LONG)  # more days than any data is old: never due
    assert done.returncode == 0, done.stderr
    assert "no update due" in done.stdout


def test_read_number_agrees_with_int_on_every_short_ascii_number() -> None:
    for text in ("0", "7", "007", " 42 ", "4294967295", "4294967296", "99999999999", *WIDE):
        expected = int(text)
        got = read_number(text, 4294967295)
        assert got == (expected if expected <= 4294967295 else 4294967296), text
    assert read_number(LONG, 60) == 61 and read_number("0" * 5000 + "7", 60) == 7
    for text in (*ODD, "", " ", "-1", "+1", "1_000", "1.0", "0x10", "½"):
        assert read_number(text, 10**9) is None, text


# -- documents: TOML and JSON with a number no decoder converts ------------------------------

UNREADABLE = "cannot be read (such as a number of over 4,300 digits)"


@pytest.mark.parametrize(
    "face",
    [
        ["simulate", "examples/tcg-legal.ydk", "--spec"],
        ["validate", "examples/tcg-legal.ydk", "--format-file"],
        ["validate", "examples/tcg-legal.ydk", "--config"],
        ["meta", "tests/data/decks/legal", "--signatures"],
    ],
)
def test_a_toml_file_with_a_5000_digit_number_is_named(
    cli: Callable[..., CliResult], tmp_path: Path, face: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    for text, what in ((f"a = {LONG}\n", UNREADABLE), ("a = " + "[" * 3000 + "]" * 3000, "deep")):
        path = tmp_path / "file.toml"
        path.write_text(text, encoding="utf-8")
        line = _refused(cli(*face, str(path)), "file.toml", what)
        assert len(line) < 300


def test_a_spec_sent_as_toml_text_is_a_422(api: Api) -> None:  # noqa: F811
    from .test_service import LEGAL

    for spec in (f"x = {LONG}", "a = " + "[" * 3000 + "]" * 3000):
        error_of(api.post("/v1/simulate", json={"deck": LEGAL, "spec": spec}), 422, "bad-spec")
    good = "[categories.ash]\npasscodes = ['14558127']\n"
    assert api.post("/v1/simulate", json={"deck": LEGAL, "spec": good}).status_code == 200


def test_an_event_export_whose_manifest_no_decoder_reads_is_refused(
    cli: Callable[..., CliResult], tmp_path: Path
) -> None:
    import zipfile

    db = f"sqlite:///{tmp_path / 'event.db'}"
    head = '{"kind": "deckcheck-event", '
    bodies = {
        UNREADABLE: head + f'"version": {LONG}}}',
        "nested too deeply": head + '"x": ' + "[" * 100_000 + "]" * 100_000 + "}",
    }
    for what, body in bodies.items():
        archive = tmp_path / "event.zip"
        with zipfile.ZipFile(archive, "w") as z:
            z.writestr("event.manifest", body)
        line = _refused(cli("event", "import", str(archive), "--database", db), "event.manifest")
        assert line.endswith(what), line
