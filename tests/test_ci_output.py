"""CI reporters: JUnit XML read by real JUnit readers, SARIF checked against the official 2.1.0
schema, GitHub workflow commands checked against the documented command syntax."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from datetime import date
from pathlib import Path

import jsonschema
import pytest
from junitparser import Error, Failure, JUnitXml

import deckcheck
from deckcheck.reporter import render
from deckcheck.reporter.github import escape_data, escape_property, summary_markdown
from deckcheck.run.batch import Batch
from deckcheck.validation.report import (
    CODE_HELP,
    DEFAULT_SEVERITY,
    Code,
    Report,
    Severity,
    Violation,
)

from .conftest import ROOT, TEST_DATA

SARIF_SCHEMA = json.loads((TEST_DATA / "sarif" / "sarif-schema-2.1.0.json").read_text("utf-8"))
ON = "2025-06-01"
LEGAL = ROOT / "examples" / "tcg-legal.ydk"
PROBLEMS = ROOT / "examples" / "problems.ydk"


@pytest.fixture(autouse=True)
def _not_on_a_runner(monkeypatch: pytest.MonkeyPatch) -> None:
    """Paths in CI reports follow $GITHUB_WORKSPACE when set: these tests run without it."""
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)


@pytest.fixture()
def decks(tmp_path: Path) -> Path:
    """A folder with one legal deck, one illegal deck and one unreadable file."""
    folder = tmp_path / "decks"
    folder.mkdir()
    shutil.copy(LEGAL, folder / "legal.ydk")
    shutil.copy(PROBLEMS, folder / "problems.ydk")
    (folder / "broken.ydke").write_text("ydke://not base64!!", encoding="utf-8")
    return folder


def _batch(folder: Path) -> Batch:
    return deckcheck.check([str(folder)], "tcg", date(2025, 6, 1))


# -- JUnit --------------------------------------------------------------------------------------


def test_junit_one_case_per_deck_one_failure_per_error(cli, decks: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(decks.parent)
    res = cli("validate", "decks", "--date", ON, "--output", "junit", "--no-config")
    assert res.code == 2  # one source unreadable
    xml = JUnitXml.fromstring(res.stdout)
    suites = list(xml)
    assert len(suites) == 1
    cases = {case.name: case for case in suites[0]}
    assert set(cases) == {"decks/legal.ydk", "decks/problems.ydk", "decks/broken.ydke"}
    assert cases["decks/legal.ydk"].is_passed
    expected = deckcheck.check([str(decks / "problems.ydk")], "tcg", date(2025, 6, 1))
    errors = expected.reports[0].errors
    failures = [r for r in cases["decks/problems.ydk"].result if isinstance(r, Failure)]
    assert len(failures) == len(errors) > 1
    assert sorted(f.type for f in failures) == sorted(v.code.value for v in errors)
    assert any(isinstance(r, Error) for r in cases["decks/broken.ydke"].result)
    # the suite's totals follow the cases
    root = ET.fromstring(res.stdout.encode())
    assert root.tag == "testsuites"
    suite = root.find("testsuite")
    assert suite is not None
    assert suite.get("tests") == "3" and suite.get("failures") == "1" and suite.get("errors") == "1"
    for case in suite.iter("testcase"):
        assert case.get("name") and case.get("classname")


def test_junit_warnings_are_system_out_or_failures_when_strict(tmp_path: Path) -> None:
    deck = tmp_path / "after-data.ydk"
    shutil.copy(LEGAL, deck)
    batch = deckcheck.check([str(deck)], "tcg", date(2099, 1, 1))  # after the data: a warning
    assert batch.reports[0].legal and batch.summary.warnings
    case = ET.fromstring(render(batch, "junit", root=str(tmp_path)).encode()).find(".//testcase")
    assert case is not None
    assert case.find("failure") is None
    out = case.find("system-out")
    assert out is not None and "date-out-of-range" in (out.text or "")
    strict = render(batch, "junit", root=str(tmp_path), strict=True)
    failure = ET.fromstring(strict.encode()).find(".//testcase/failure")
    assert failure is not None and failure.get("type") == "date-out-of-range"


def test_junit_survives_hostile_strings(tmp_path: Path) -> None:
    report = Report(
        "tcg",
        "mr2020",
        date(2025, 6, 1),
        None,
        {"main": 40, "extra": 0, "side": 0},
        (
            Violation(
                Code.UNKNOWN_CARD, Severity.ERROR, "bad \x00\x1b[2J <card> & \ufffe ]]>", line=2
            ),
        ),
        path=str(tmp_path / "we<ird>&\x07.ydk"),
    )
    text = render(report, "junit", root=str(tmp_path))
    root = ET.fromstring(text.encode())  # parses: no raw control characters
    failure = root.find(".//failure")
    assert failure is not None
    assert "<card> & " in (failure.get("message") or "")
    assert "\x1b" not in text and "\x00" not in text and "\x07" not in text


# -- SARIF --------------------------------------------------------------------------------------


def test_sarif_validates_against_the_official_schema(cli, decks: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(decks.parent)
    res = cli("validate", "decks", "--date", ON, "--output", "sarif", "--no-config")
    assert res.code == 2
    doc = json.loads(res.stdout)
    jsonschema.validate(doc, SARIF_SCHEMA)
    run = doc["runs"][0]
    assert doc["version"] == "2.1.0"
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [c.value for c in Code]  # one rule per code
    for rule in rules:
        assert rule["help"]["text"] == CODE_HELP[Code(rule["id"])]
        level = rule["defaultConfiguration"]["level"]
        assert level == DEFAULT_SEVERITY[Code(rule["id"])].value
    expected = deckcheck.check([str(decks / "problems.ydk")], "tcg", date(2025, 6, 1))
    results = run["results"]
    assert len(results) == len(expected.reports[0].violations)
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        loc = result["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"] == {"uri": "decks/problems.ydk", "uriBaseId": "SRCROOT"}
    lines = {r["ruleId"]: r["locations"][0]["physicalLocation"].get("region") for r in results}
    assert lines["forbidden"] == {"startLine": 3}
    assert lines["main-size"] is None  # no line for a size problem
    invocation = run["invocations"][0]
    assert invocation["executionSuccessful"] is False
    notes = invocation["toolExecutionNotifications"]
    assert notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == (
        "decks/broken.ydke"
    )


def test_sarif_percent_encodes_uris_and_validates(tmp_path: Path) -> None:
    odd = tmp_path / "my decks" / "100% #1.ydk"
    odd.parent.mkdir()
    shutil.copy(PROBLEMS, odd)
    batch = deckcheck.check([str(odd)], "tcg", date(2025, 6, 1))
    doc = json.loads(render(batch, "sarif", root=str(tmp_path)))
    jsonschema.validate(doc, SARIF_SCHEMA)
    uri = doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert uri["uri"] == "my%20decks/100%25%20%231.ydk"


def test_sarif_of_a_legal_deck_has_no_results(tmp_path: Path) -> None:
    batch = deckcheck.check([str(LEGAL)], "tcg", date(2025, 6, 1))
    doc = json.loads(render(batch, "sarif"))
    jsonschema.validate(doc, SARIF_SCHEMA)
    assert doc["runs"][0]["results"] == []
    assert doc["runs"][0]["invocations"][0]["exitCode"] == 0


# -- GitHub workflow commands -------------------------------------------------------------------

# ::error file={name},line={line},title={title}::{message}  (docs.github.com, "Workflow commands")
COMMAND = re.compile(
    r"^::(?P<kind>error|warning|notice)"
    r"(?: (?P<props>(?:file=[^,:\r\n]*(?:,line=\d+)?,)?title=[^,:\r\n]*))?"
    r"::(?P<msg>[^\r\n]*)$"
)


def _unescape(text: str, prop: bool = False) -> str:
    pairs = [("%0D", "\r"), ("%0A", "\n")]
    if prop:
        pairs += [("%3A", ":"), ("%2C", ",")]
    for a, b in pairs:
        text = text.replace(a, b)
    return text.replace("%25", "%")


def _commands(text: str) -> list[re.Match[str]]:
    lines = text.splitlines()
    assert lines[-1].startswith("deckcheck: ")  # the plain summary line
    got = [COMMAND.match(line) for line in lines[:-1]]
    assert all(got), [line for line, m in zip(lines, got, strict=False) if not m]
    return [m for m in got if m]


def test_github_lines_match_the_command_syntax(cli, decks: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(decks.parent)
    res = cli("validate", "decks", "--date", ON, "--output", "github", "--no-config")
    assert res.code == 2
    found = _commands(res.stdout)
    props = [dict(p.split("=", 1) for p in m["props"].split(",")) for m in found]
    files = {p["file"] for p in props}
    assert files == {"decks/problems.ydk", "decks/broken.ydke"}  # relative to the root
    by_title = {p["title"]: (m, p) for m, p in zip(found, props, strict=True)}
    m, p = by_title["forbidden"]
    assert m["kind"] == "error" and p["line"] == "3"
    assert "Pot of Greed" in m["msg"]
    assert "line" not in by_title["main-size"][1]
    assert by_title["unreadable"][0]["kind"] == "error"


def test_github_warnings_and_notes(tmp_path: Path) -> None:
    deck = tmp_path / "harpie.ydk"
    shutil.copy(TEST_DATA / "decks" / "legal" / "tcg-harpie-treated-as.ydk", deck)
    batch = deckcheck.check([str(deck)], "tcg", date(2099, 1, 1))
    found = _commands(render(batch, "github", root=str(tmp_path)))
    kinds = {m["kind"] for m in found}
    assert kinds == {"warning", "notice"}
    strict = _commands(render(batch, "github", root=str(tmp_path), strict=True))
    assert {m["kind"] for m in strict} == {"error", "notice"}


@pytest.mark.parametrize(
    "text", ["100%", "a\r\nb", "line\nbreak", "a:b,c", "::error::injected", "%0A", "tab\tx"]
)
def test_github_escaping_round_trips(text: str) -> None:
    data, prop = escape_data(text), escape_property(text)
    assert "\r" not in data and "\n" not in data
    assert not set(",:\r\n") & set(prop)
    assert _unescape(data).replace("\\t", "\t") == text
    assert _unescape(prop, prop=True).replace("\\t", "\t") == text


def test_github_escapes_hostile_paths_and_messages(tmp_path: Path) -> None:
    hostile = "deck,1:100%\n::error::x\r.ydk"
    message = "100% bad\r\n::warning file=x::fake,line: 2"
    report = Report(
        "tcg",
        "mr2020",
        date(2025, 6, 1),
        None,
        {"main": 40, "extra": 0, "side": 0},
        (Violation(Code.FORBIDDEN, Severity.ERROR, message, line=7),),
        path=str(tmp_path / hostile),
    )
    text = render(report, "github", root=str(tmp_path))
    found = _commands(text)
    assert len(found) == 1
    m = found[0]
    props = dict(p.split("=", 1) for p in m["props"].split(","))
    assert _unescape(props["file"], prop=True) == hostile
    assert props["line"] == "7" and props["title"] == "forbidden"
    assert _unescape(m["msg"]) == message


def test_github_paths_relative_to_the_config_root(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    repo = tmp_path / "repo"
    (repo / "tcg" / "sub").mkdir(parents=True)
    (repo / "deckcheck.toml").write_text('date = "2025-06-01"\n', encoding="utf-8")
    shutil.copy(PROBLEMS, repo / "tcg" / "sub" / "bad.ydk")
    monkeypatch.chdir(repo / "tcg")
    res = cli("validate", "sub", "-o", "github")
    assert res.code == 1
    assert all("file=tcg/sub/bad.ydk" in m.group(0) for m in _commands(res.stdout))


def test_paths_relative_to_the_git_root_or_the_workspace(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    decks = repo / "decks"
    (decks / "tcg").mkdir(parents=True)
    (decks / "deckcheck.toml").write_text('date = "2025-06-01"\n', encoding="utf-8")
    shutil.copy(PROBLEMS, decks / "tcg" / "bad.ydk")
    monkeypatch.chdir(decks)
    res = cli("validate", "-o", "github")
    assert res.code == 1
    assert all("file=decks/tcg/bad.ydk," in m.group(0) for m in _commands(res.stdout))
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    res = cli("validate", "-o", "github")
    assert all("file=repo/decks/tcg/bad.ydk," in m.group(0) for m in _commands(res.stdout))


def test_job_summary_is_a_markdown_table(cli, decks: Path, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(decks.parent)
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    res = cli("validate", "decks", "--date", ON, "-o", "github", "--summary", str(summary))
    assert res.code == 2
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("earlier step\n")  # appended, never overwritten
    batch = _batch(decks)
    assert text.endswith(summary_markdown(batch, root=str(decks.parent)))
    rows = [line for line in text.splitlines() if line.startswith("|")]
    assert rows[0] == "| decks | legal | illegal | unreadable | errors | warnings |"
    s = batch.summary
    assert rows[2] == (
        f"| {s.decks} | {s.legal} | {s.illegal} | {s.unreadable} | {s.errors} | {s.warnings} |"
    )
    assert "| top codes | count |" in rows
    assert any(row.startswith("| decks/problems.ydk | tcg | ") for row in rows)


# -- strict and output choices ------------------------------------------------------------------


def test_strict_makes_warnings_fail(cli) -> None:  # type: ignore[no-untyped-def]
    args = ("validate", str(LEGAL), "--date", "2099-01-01", "--no-config")
    assert cli(*args).code == 0  # legal, with a date-out-of-range warning
    res = cli(*args, "--strict")
    assert res.code == 1
    assert "--strict" in res.stderr
    assert cli("validate", str(LEGAL), "--date", ON, "--strict", "--no-config").code == 0


def test_ci_outputs_are_for_validation_results(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli("cards", "show", "Pot of Greed", "--output", "sarif")
    assert res.code == 2
    assert "validate" in res.stderr
    with pytest.raises(deckcheck.InputError):
        render(deckcheck.simulate(deckcheck.read_path(str(LEGAL))), "junit")


def test_out_writes_the_report_to_a_file(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "report.sarif"
    res = cli("validate", str(PROBLEMS), "-d", ON, "-o", "sarif", "--out", str(out), "--no-config")
    assert res.code == 1 and res.stdout == ""
    jsonschema.validate(json.loads(out.read_text("utf-8")), SARIF_SCHEMA)


def test_progress_on_request(cli, decks: Path) -> None:  # type: ignore[no-untyped-def]
    res = cli("validate", str(decks), "-d", ON, "--no-config", "--progress", "-o", "json")
    assert "checked 3: " in res.stderr and res.stderr.count("checked ") == 3
    assert json.loads(res.stdout)["summary"]["decks"] == 2  # the report is untouched
    quiet = cli("validate", str(decks), "-d", ON, "--no-config")  # not a terminal: no progress
    assert "checked " not in quiet.stderr


def test_every_code_has_a_meaning_and_a_fix() -> None:
    from deckcheck.validation.report import CODE_FIX, CODE_MEANING

    assert set(CODE_MEANING) == set(CODE_FIX) == set(CODE_HELP) == set(Code)
    for code in Code:
        assert CODE_HELP[code] == f"{CODE_MEANING[code]} {CODE_FIX[code]}"
        assert CODE_FIX[code].endswith(".") and CODE_MEANING[code].endswith(".")


def test_paths_are_relative_only_inside_the_root(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A deck under the root is named relative to it (``..`` and ``.`` parts resolved); one in
    a sibling folder whose name merely starts with the root's stays absolute."""
    root = tmp_path / "decks"
    inside = root / "sub" / "a.ydk"
    sibling = tmp_path / "decks-old" / "b.ydk"
    for deck in (inside, sibling):
        deck.parent.mkdir(parents=True)
        shutil.copy(LEGAL, deck)
    monkeypatch.chdir(tmp_path)
    named = ["decks/sub/../sub/a.ydk", str(sibling)]
    batch = deckcheck.check(named, "tcg", date(2025, 6, 1))
    for root_given in (str(root), "decks", "decks/"):
        doc = ET.fromstring(render(batch, "junit", root=root_given).encode())
        files = [case.get("file") for case in doc.iter("testcase")]
        assert files == ["sub/a.ydk", sibling.as_posix()], root_given
    doc = ET.fromstring(render(batch, "junit", root=str(tmp_path)).encode())
    assert [c.get("file") for c in doc.iter("testcase")] == ["decks/sub/a.ydk", "decks-old/b.ydk"]
