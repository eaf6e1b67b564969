"""The seams every front end stands on: Dataset, batch, render, the error tree, the CLI shell."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from datetime import date
from pathlib import Path
from typing import Any

import pytest

import deckcheck
from deckcheck.data.dataset import BUNDLE_FILES, BUNDLED_DIR, MANIFEST, OPTIONAL_FILES, Dataset
from deckcheck.deck.io import read_path
from deckcheck.error import (
    ERRORS,
    DataError,
    DeckcheckError,
    DeckReadError,
    GoldfishError,
    InputError,
    NotFoundError,
    UnknownFormatError,
)
from deckcheck.goldfish import DrawRules, draw_rules_for, simulate
from deckcheck.reporter import render
from deckcheck.reporter.document import DOCUMENTS, ValidationDocument
from deckcheck.run.batch import ExitCode, Source, SourceKind, check, sources

from .conftest import ROOT, TEST_DATA

DECKS = TEST_DATA / "decks"
EXAMPLES = ROOT / "examples"
EXPECTED: dict[str, dict[str, Any]] = tomllib.loads(
    (DECKS / "expected.toml").read_text(encoding="utf-8")
)


# -- Dataset ------------------------------------------------------------------------------------


def test_bundled_dataset_reads_its_date_and_fingerprint_from_the_manifest() -> None:
    data = Dataset.bundled()
    assert isinstance(data.as_of, date)
    raw = (BUNDLED_DIR / MANIFEST).read_bytes()
    assert data.as_of.isoformat() == json.loads(raw)["as_of"]
    assert data.fingerprint == hashlib.sha256(raw).hexdigest()
    data.verify()  # every file matches its sha256 in the manifest


def test_committed_manifest_is_up_to_date() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_dataset.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _copy_bundle(tmp_path: Path) -> Path:
    folder = tmp_path / "bundle"
    folder.mkdir()
    for name in (*BUNDLE_FILES, *OPTIONAL_FILES, MANIFEST):
        shutil.copy(BUNDLED_DIR / name, folder / name)
    return folder


def test_a_dataset_is_passed_not_loaded_behind_the_callers_back(tmp_path: Path) -> None:
    folder = _copy_bundle(tmp_path)
    manifest = json.loads((folder / MANIFEST).read_text())
    manifest["as_of"] = "2030-01-01"
    (folder / MANIFEST).write_text(json.dumps(manifest))
    other = Dataset.open(folder)
    assert other.as_of == date(2030, 1, 1) and other.fingerprint != Dataset.bundled().fingerprint
    deck = read_path(EXAMPLES / "tcg-legal.ydk", data=other)
    # after the bundled data ends: a warning; within the other dataset's range: none
    bundled = deckcheck.validate(deck, "tcg", date(2029, 1, 1))
    mine = deckcheck.validate(deck, "tcg", date(2029, 1, 1), data=other)
    assert "date-out-of-range" in bundled.codes
    assert "date-out-of-range" not in mine.codes
    assert mine.data_fingerprint == other.fingerprint
    assert bundled.data_fingerprint == Dataset.active().fingerprint


def test_a_broken_bundle_is_a_data_error(tmp_path: Path) -> None:
    folder = _copy_bundle(tmp_path)
    with open(folder / "names.json", "ab") as handle:
        handle.write(b" ")
    with pytest.raises(DataError, match="does not match"):
        Dataset.open(folder).verify()
    (folder / MANIFEST).write_text("{")
    with pytest.raises(DataError, match="not JSON"):
        Dataset.open(folder)


def test_rulesets_are_cached_on_the_dataset() -> None:
    data = Dataset.bundled()
    deck = read_path(EXAMPLES / "tcg-legal.ydk")
    deckcheck.validate(deck, "tcg", date(2025, 6, 1), data=data)
    keys = [k for k in data.ruleset_cache() if k[1] == date(2025, 6, 1)]
    assert any(k[0].id == "tcg" for k in keys)


# -- rule facts once ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("on", "draws"),
    [(date(2014, 7, 13), True), (date(2014, 7, 14), False), (date(2014, 5, 1), True)],
)
def test_draw_rules_follow_the_tcg_era_at_the_mr3_boundary(on: date, draws: bool) -> None:
    era = Dataset.bundled().format("tcg").era_at(on)
    assert era.id == ("mr2-2011" if draws else "mr3-2014")
    assert draw_rules_for("tcg", on).first_player_draws is draws
    assert draw_rules_for(None, on) == draw_rules_for("tcg", on) == DrawRules.from_era(era)


@pytest.mark.slow
def test_simulate_defaults_to_tcg_like_validate(cli: Any) -> None:
    args = [
        "simulate",
        str(EXAMPLES / "tcg-legal.ydk"),
        "-s",
        str(EXAMPLES / "spec-starters.toml"),
        "--date",
        "2014-05-01",
        "-o",
        "json",
    ]
    plain = cli(*args)
    tcg = cli(*args, "--format", "tcg")
    assert plain.code == tcg.code == 0, plain.stderr
    a, b = json.loads(plain.stdout), json.loads(tcg.stdout)
    assert a["rules"] == b["rules"] and a["rules"]["first_player_draws"] is True


def test_library_simulate_rejects_bad_options_with_goldfish_errors() -> None:
    deck = read_path(EXAMPLES / "tcg-legal.ydk")
    for kw in ({"seed": -1}, {"seed": 1.5}, {"exact": "x"}, {"going": []}):
        with pytest.raises(GoldfishError):
            simulate(deck, **kw)  # type: ignore[arg-type]


# -- errors --------------------------------------------------------------------------------------


def test_error_tree_has_one_root_and_maps_to_exit_codes_and_http() -> None:
    for cls in ERRORS:
        assert issubclass(cls, DeckcheckError)
        assert cls.exit_code == 2
        assert 400 <= cls.http_status < 600
    assert issubclass(DeckReadError, InputError) and DeckReadError.http_status == 422
    assert issubclass(UnknownFormatError, NotFoundError) and UnknownFormatError.http_status == 404
    assert DataError.http_status == 500
    assert all(
        getattr(deckcheck, cls.__name__, None) is cls
        for cls in ERRORS
        if cls.__name__ in deckcheck.__all__
    )
    for name in (
        "DeckcheckError",
        "DataError",
        "InputError",
        "NotFoundError",
        "GoldfishError",
        "DeckWriteError",
    ):
        assert name in deckcheck.__all__
        assert f"`{name}`" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_unexpected_exception_is_one_error_line_and_exit_2(tmp_path: Path) -> None:
    # a deck file that is a folder's symlink loop makes the OS raise; the guard must hold
    script = (
        "import sys, deckcheck.cli as c\n"
        "def boom(*a, **k):\n    raise RuntimeError('boom')\n"
        "import deckcheck.run.batch as b\nb.check = boom\n"
        "sys.argv = ['deckcheck'] + sys.argv[1:]\nc.main()\n"
    )
    args = [sys.executable, "-c", script, "validate", str(EXAMPLES / "tcg-legal.ydk")]
    proc = subprocess.run(args, capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: unexpected RuntimeError: boom")
    assert "Traceback" not in proc.stderr
    debug = subprocess.run(
        [*args[:3], "--debug", *args[3:]], capture_output=True, text=True, check=False
    )
    assert "Traceback" in debug.stderr


def test_stdout_write_error_is_exit_2_not_a_traceback() -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "deckcheck", "formats"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and proc.stderr.startswith("error:")


def _buffered() -> dict[str, str]:
    """This environment without ``PYTHONUNBUFFERED``: a command's standard streams buffered as
    a user's are (whatever this process's are)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def _run_script(script: str) -> subprocess.CompletedProcess[str]:
    """``validate examples/problems.ydk`` run by ``script`` (which ends calling ``main()``),
    with buffered streams."""
    deck = EXAMPLES / "problems.ydk"
    return subprocess.run(
        [sys.executable, "-c", script, "validate", str(deck), "--date", "2025-06-01"],
        capture_output=True,
        text=True,
        check=False,
        env=_buffered(),
    )


MAIN = "sys.argv = ['deckcheck'] + sys.argv[1:]\nimport deckcheck.cli as c\nc.main()\n"


def test_the_command_ends_after_its_exit_functions_and_every_buffer() -> None:
    # the command skips the interpreter's teardown, never what a normal exit does before it:
    # the exit functions run, every standard stream's buffer is written out, the status stays
    script = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write('EXIT FUNCTIONS RAN\\n'))\n"
        "sys.__stdout__.write('WRITTEN EARLY\\n')\n"  # (left in the first stdout's buffer)
        f"{MAIN}"
    )
    proc = _run_script(script)
    assert proc.returncode == 1, proc.stderr  # the deck is illegal
    assert "EXIT FUNCTIONS RAN" in proc.stderr
    assert "problems.ydk" in proc.stdout and "WRITTEN EARLY" in proc.stdout


def test_the_command_waits_for_a_thread_that_is_no_daemon(tmp_path: Path) -> None:
    marker = tmp_path / "thread.txt"
    script = (
        "import sys, threading, time\n"
        "def late():\n"
        "    time.sleep(1.5)\n"  # (still running when the command is done)
        f"    open({str(marker)!r}, 'w').write('finished')\n"
        "threading.Thread(target=late).start()\n"
        f"{MAIN}"
    )
    proc = _run_script(script)
    assert proc.returncode == 1, proc.stderr
    assert marker.read_text(encoding="utf-8") == "finished"


def test_a_long_output_through_a_pipe_arrives_whole() -> None:
    # far more than a pipe holds: every byte is written before the process ends
    decks = sorted(str(p) for p in (TEST_DATA / "decks").rglob("*.ydk")) * 4
    proc = subprocess.run(
        [sys.executable, "-m", "deckcheck", "validate", *decks, "-o", "json", "-d", "2025-06-01"],
        capture_output=True,
        text=True,
        check=False,
        env=_buffered(),
    )
    assert len(proc.stdout) > 256 * 1024, len(proc.stdout)
    doc = json.loads(proc.stdout)
    assert doc["summary"]["decks"] + doc["summary"]["unreadable"] == len(decks)
    assert proc.returncode in (0, 1), proc.stderr


# -- batch --------------------------------------------------------------------------------------


def test_batch_check_on_examples_and_render_json() -> None:
    batch = deckcheck.check(["examples"], "tcg")
    assert batch.exit_code is ExitCode.ILLEGAL  # examples/problems.* are illegal
    doc = json.loads(deckcheck.render(batch, "json"))
    assert doc["summary"]["decks"] == len(batch.reports) == batch.summary.decks
    assert doc["data"]["fingerprint"] == Dataset.active().fingerprint
    ValidationDocument.model_validate(doc)


def test_missing_path_is_an_unreadable_source_not_an_abort(cli: Any, tmp_path: Path) -> None:
    missing = tmp_path / "nope.ydk"
    res = cli(
        "validate", str(EXAMPLES / "problems.ydk"), str(missing), "-o", "json", "-d", "2025-06-01"
    )
    assert res.code == 2  # unreadable wins over illegal; both are listed
    doc = json.loads(res.stdout)
    assert doc["summary"] == {
        "decks": 1,
        "legal": 0,
        "illegal": 1,
        "errors": doc["summary"]["errors"],
        "warnings": 0,
        "notes": 0,
        "unreadable": 1,
        "skipped": 0,
        "duplicates": 0,
    }
    assert doc["unreadable"][0]["path"] == str(missing)
    assert "errors" not in doc  # the deprecated alias of "unreadable" is gone
    assert "no such file" in res.stderr


def test_sources_never_stop_and_read_stdin_once(tmp_path: Path) -> None:
    (tmp_path / "a.ydk").write_text("#main\n89631139\n")
    got = list(sources(["-", "-", str(tmp_path), "YDKE://abc!!!", str(tmp_path / "missing")]))
    assert [s.kind for s in got] == [
        SourceKind.STDIN,
        SourceKind.FILE,
        SourceKind.URL,
        SourceKind.FILE,
    ]
    assert got[-1].error == "no such file or folder"
    assert next(iter(sources([str(tmp_path)], exclude=["a.*"]))).error is not None


def test_batch_exit_codes(tmp_path: Path) -> None:
    legal = str(EXAMPLES / "tcg-legal.ydk")
    assert check([legal], "tcg", date(2025, 6, 1)).exit_code is ExitCode.OK
    assert check([str(EXAMPLES / "problems.ydk")], "tcg", date(2025, 6, 1)).exit_code == 1
    broken = tmp_path / "broken.ydke"
    broken.write_text("ydke://%%%!")
    batch = check([legal, Source(SourceKind.FILE, str(broken))], "tcg", date(2025, 6, 1))
    assert batch.exit_code is ExitCode.ERROR and batch.summary.decks == 1
    assert batch.unreadable[0].path == str(broken)


@pytest.mark.parametrize("rel", sorted(EXPECTED), ids=lambda r: r)
def test_golden_decks_through_the_cli(cli: Any, rel: str) -> None:
    spec = EXPECTED[rel]
    args = ["validate", str(DECKS / rel), "-f", spec["format"], "-d", spec["date"], "-o", "json"]
    if spec.get("allow_prerelease"):
        args.append("--allow-prerelease")
    res = cli(*args)
    assert res.code == (0 if rel.startswith("legal/") else 1), res.stdout + res.stderr
    (result,) = json.loads(res.stdout)["results"]
    found = {v["code"] for v in result["violations"] if v["severity"] != "note"}
    assert found == set(spec["codes"])


# -- render -------------------------------------------------------------------------------------


def test_text_output_is_unchanged(cli: Any) -> None:
    res = cli("validate", str(EXAMPLES / "problems.ydk"), "--date", "2025-06-01")
    lines = res.stdout.splitlines()
    assert (
        lines[0].startswith("ILLEGAL  ")
        and "[tcg, era mr2020, 2025-06-01, list 2025-04-07" in lines[0]
    )
    # violations in file-line order, deck-wide ones first (the Hardening issue's documented order)
    assert lines[1].startswith("  error   main-size         [main] Main Deck has 9 cards")
    assert (
        "  error   unknown-card      [main] unknown passcode 12345678: check the code, or "
        "remove the line (line 9)" in lines
    )


def test_render_rejects_an_unknown_output() -> None:
    batch = check([str(EXAMPLES / "tcg-legal.ydk")], "tcg", date(2025, 6, 1))
    with pytest.raises(InputError):
        render(batch, "yaml")


def test_schema_command_prints_every_document(cli: Any) -> None:
    res = cli("schema")
    assert res.code == 0
    schemas = json.loads(res.stdout)
    assert set(schemas) == set(DOCUMENTS)
    one = json.loads(cli("schema", "validation").stdout)
    assert one["title"] == "ValidationDocument" and "unreadable" in one["properties"]
    assert cli("schema", "nope").code == 2


def test_the_document_package_exports_each_name_of_its_modules() -> None:
    # every name the package exports is its module's own object, and the names type checkers
    # see (the TYPE_CHECKING imports) are the ones it exports
    import importlib

    import deckcheck.reporter.document as package

    path = Path(package.__file__)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    checked = next(
        n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"
    )
    typed = {
        (str(node.module).rsplit(".", 1)[-1], alias.name)
        for node in checked.body
        if isinstance(node, ast.ImportFrom) and str(node.module).startswith(package.__name__ + ".")
        for alias in node.names
    }
    exported = {(m, n) for m, names in package._EXPORTS.items() for n in names}
    assert typed == exported and len(exported) > 70
    for module, name in sorted(exported):
        home = importlib.import_module(f"{package.__name__}.{module}")
        assert getattr(package, name) is getattr(home, name), name
    from deckcheck.reporter.document.shape import shape

    assert package.shape is shape  # the function, not its module
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        _ = package.Nope
    assert set(package.DOCUMENTS) == set(package.DOCUMENT_NAMES)
    star: dict[str, Any] = {}
    exec(f"from {package.__name__} import *", star)
    assert {n for _, n in exported} | {"shape", "DOCUMENTS", "document_model"} <= set(star)
    assert all(isinstance(m, type) for m in package.DOCUMENTS.values())


def test_a_document_imports_only_its_own_family() -> None:
    # printing a validation document builds its models, not the goldfish, reference or event
    # ones (each costs its pydantic classes at start)
    script = (
        "import sys\n"
        "from deckcheck.reporter.document import ValidationDocument, shape\n"
        "assert ValidationDocument.model_fields\n"
        "print(sorted(m.rsplit('.', 1)[-1] for m in sys.modules"
        " if m.startswith('deckcheck.reporter.document.')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    loaded = set(ast.literal_eval(out))
    assert "validation" in loaded and "shape" in loaded
    assert not loaded & {"goldfish", "reference", "event"}, loaded


@pytest.mark.parametrize(
    "args",
    [
        ["formats", "-o", "json"],
        ["formats", "show", "genesys", "-d", "2026-01-01", "-o", "json"],
        ["banlist", "show", "tcg", "-d", "2025-06-01", "-o", "json"],
        ["banlist", "diff", "tcg", "2024-01-01", "2025-06-01", "-o", "json"],
        ["cards", "show", "Dark Magician", "-o", "json"],
        ["cards", "search", "blue-eyes", "-o", "json"],
    ],
)
def test_json_documents_validate_against_their_models(cli: Any, args: list[str]) -> None:
    res = cli(*args)
    assert res.code == 0, res.stderr
    json.loads(res.stdout)  # printed through the model; must be JSON


def test_version_prints_data_date_and_fingerprint(cli: Any) -> None:
    res = cli("--version")
    data = Dataset.active()
    assert res.code == 0
    assert deckcheck.__version__ in res.stdout
    assert data.as_of.isoformat() in res.stdout and data.fingerprint[:16] in res.stdout


def test_date_today_is_accepted_everywhere(cli: Any) -> None:
    assert cli("formats", "show", "tcg", "--date", "today").code == 0
    assert cli("validate", str(EXAMPLES / "tcg-legal.ydk"), "-d", "today").code == 0
    res = cli("simulate", str(EXAMPLES / "tcg-legal.ydk"), "-d", "today", "-o", "json")
    assert res.code == 0


# -- exports ------------------------------------------------------------------------------------


def test_export_list_and_type_checking_imports_are_in_step() -> None:
    tree = ast.parse((ROOT / "deckcheck" / "__init__.py").read_text(encoding="utf-8"))
    imported: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom)
                for alias in stmt.names:
                    imported[alias.name] = str(stmt.module)
    exports = deckcheck._EXPORTS
    assert imported == exports
    assert deckcheck.__all__ == sorted(exports)  # the literal list type checkers read
    for name in deckcheck.__all__:
        assert getattr(deckcheck, name) is not None


def test_the_top_level_stays_small() -> None:
    package = ROOT / "deckcheck"
    entries = [p.name for p in package.iterdir() if p.name != "__pycache__"]
    # 17: event/, the stage of events between the reporters and the front ends (issue 37)
    # 18: version.py, the version defined below every stage, so that no module imports the
    # package root for it (the root imports every stage for type checkers: a cycle) (issue 32)
    assert len(entries) <= 18, sorted(entries)


def test_import_adds_no_import_hook_and_exports_name_their_public_module() -> None:
    code = (
        "import sys\n"
        "before = list(sys.meta_path)\n"
        "import deckcheck\n"
        "assert sys.meta_path == before, sys.meta_path\n"
        "for name in deckcheck.__all__:\n"
        "    assert getattr(deckcheck, name).__module__ == 'deckcheck', name\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
