"""Organiser batches: a generated registration set (legal, illegal in several ways, unreadable,
duplicates) read as a folder, a zip and a registrations CSV; every report checked."""

from __future__ import annotations

import csv
import io
import json
import tomllib
import zipfile
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest

import deckcheck
from deckcheck.deck.io import read_path, write_deck
from deckcheck.deck.model import fingerprint_deck
from deckcheck.reporter.csv import HEADER
from deckcheck.reporter.document import ValidationDocument
from deckcheck.run.batch import ExitCode, check, sources
from deckcheck.source.registration import RegistrationError, Status, read_registrations

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "tests" / "data" / "decks"
ON = date(2025, 6, 1)


def _golden() -> list[tuple[str, list[str]]]:
    """Golden decks checked in TCG on 2025-06-01, with their expected codes."""
    doc = tomllib.loads((DECKS / "expected.toml").read_text(encoding="utf-8"))
    return sorted(
        (path, list(spec["codes"]))
        for path, spec in doc.items()
        if spec["format"] == "tcg" and spec["date"] == ON.isoformat() and len(spec) == 3
    )


@dataclass
class RegSet:
    """A generated registration set: deck files, and what each registration should give."""

    folder: Path
    files: list[str]
    """Deck files (relative to ``folder``), in registration order."""
    expected: dict[str, str]
    """File -> expected status when read from a folder or zip (legal/illegal/unreadable)."""
    codes: dict[str, set[str]]
    """File -> expected violation codes."""


@pytest.fixture()
def regset(tmp_path: Path) -> RegSet:
    folder = tmp_path / "decks"
    folder.mkdir()
    files: list[str] = []
    expected: dict[str, str] = {}
    codes: dict[str, set[str]] = {}
    for path, want in _golden():
        name = path.replace("/", "-")
        (folder / name).write_bytes((DECKS / path).read_bytes())
        files.append(name)
        report = deckcheck.validate(read_path(DECKS / path), "tcg", ON)
        expected[name] = "legal" if report.legal else "illegal"
        assert set(want) <= report.codes  # the golden expectations hold for one deck
        codes[name] = report.codes
    # the same legal deck in every other file format
    legal = read_path(ROOT / "examples" / "tcg-legal.ydk")
    for fmt, suffix in (
        ("ydke", ".ydke"),
        ("text", ".txt"),
        ("json", ".json"),
        ("omega", ".omega"),
    ):
        name = f"legal-as-{fmt}{suffix}"
        (folder / name).write_text(write_deck(legal, fmt), encoding="utf-8")
        files.append(name)
        expected[name], codes[name] = "legal", set()
    # unreadable: binary junk, and a text file with a NUL byte
    (folder / "zz-binary.ydk").write_bytes(bytes(range(256)) * 4)
    (folder / "zz-nul.txt").write_bytes(b"3 Pot of Greed\n\0\n")
    for name in ("zz-binary.ydk", "zz-nul.txt"):
        files.append(name)
        expected[name], codes[name] = "unreadable", set()
    assert {"legal", "illegal", "unreadable"} <= set(expected.values())
    assert sum(s == "illegal" for s in expected.values()) >= 5  # illegal in several ways
    return RegSet(folder, files, expected, codes)


def _csv_for(regset: RegSet, duplicate_every: int = 0) -> Path:
    """A registrations CSV over the set (player ids P001...), with extra columns."""
    path = regset.folder.parent / "registrations.csv"
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["Player ID", "Player Name", "Deck", "Table", "Country"])
    for i, name in enumerate(regset.files):
        w.writerow([f"P{i:03d}", f"Player {i}", f"decks/{name}", str(i + 1), "DE"])
    # a duplicate of the first player, with an inline list and a ydke URL
    legal = read_path(ROOT / "examples" / "tcg-legal.ydk")
    w.writerow(["p000 ", "Player 0 again", write_deck(legal, "text"), "99", "DE"])
    w.writerow(["P900", "Url Player", write_deck(legal, "ydke").strip(), "100", "FR"])
    w.writerow(["P901", "Escaper", "../outside.ydk", "101", "FR"])
    w.writerow(["P902", "No Deck", "", "102", "FR"])
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


def _zip_for(regset: RegSet) -> Path:
    path = regset.folder.parent / "registrations.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in regset.files:
            zf.write(regset.folder / name, f"round1/{name}")
        zf.writestr("round1/notes.md", "not a deck")
        zf.writestr("__MACOSX/round1/._x.ydk", b"\0\1")
    return path


def _status(row: deckcheck.Report | deckcheck.Unreadable) -> str:
    from deckcheck.source.registration import status_of

    return status_of(row).value


def _by_name(batch: deckcheck.Batch) -> dict[str, deckcheck.Checked | deckcheck.Unreadable]:
    return {Path(r.path.split("!/")[-1]).name: r for r in batch.rows if r.path}


@pytest.mark.parametrize("kind", ["folder", "zip"])
def test_folder_and_zip_give_every_deck_its_verdict(regset: RegSet, kind: str) -> None:
    source = regset.folder if kind == "folder" else _zip_for(regset)
    batch = check(sources([str(source)]), "tcg", ON)
    rows = _by_name(batch)
    assert set(rows) == set(regset.files)
    for name, want in regset.expected.items():
        row = rows[name]
        assert _status(row) == want, name
        if isinstance(row, deckcheck.Checked):
            assert row.report.codes == regset.codes[name], name
            assert row.fingerprint == fingerprint_deck(read_path(regset.folder / name))
    assert batch.exit_code is ExitCode.ERROR  # two unreadable decks
    assert batch.summary.unreadable == 2
    if kind == "zip":
        assert all("!/round1/" in r.path for r in batch.rows)


def test_registrations_csv(regset: RegSet) -> None:
    path = _csv_for(regset)
    batch = check(sources([str(path)]), "tcg", ON)
    assert len(batch.rows) == len(regset.files) + 4  # one row per registration, in order
    regs = [r.registration for r in batch.rows]
    assert all(reg is not None for reg in regs)
    assert [reg.player_id for reg in regs if reg] == [
        *(f"P{i:03d}" for i in range(len(regset.files))),
        "p000",
        "P900",
        "P901",
        "P902",
    ]
    for i, name in enumerate(regset.files):
        row = batch.rows[i]
        assert _status(row) == regset.expected[name], name
        assert row.registration is not None
        assert dict(row.registration.fields) == {"Table": str(i + 1), "Country": "DE"}
        assert row.registration.row == i + 2
    dup, url, escaper, empty = batch.rows[-4:]
    assert _status(dup) == "duplicate" and dup.registration is not None
    assert dup.registration.duplicate_of == 2  # the first registration of P000 (line 2)
    assert isinstance(dup, deckcheck.Checked) and dup.legal  # still checked
    assert dup.name == "deckcheck example: Cyber Dragon"  # the text list's own name line
    assert isinstance(url, deckcheck.Checked) and url.legal
    assert url.fingerprint == dup.fingerprint  # same deck, as a URL and as a text list
    assert _status(escaper) == "unreadable" and "outside" in escaper.error  # type: ignore[union-attr]
    assert _status(empty) == "unreadable" and "no deck" in empty.error  # type: ignore[union-attr]
    assert batch.summary.duplicates == 1
    assert batch.exit_code is ExitCode.ERROR


def test_parallel_gives_the_same_batch_as_one_process(regset: RegSet) -> None:
    path = _csv_for(regset)
    srcs = list(sources([str(path)])) * 6  # enough for the pool
    one = check(srcs, "tcg", ON, jobs=1)
    seen: list[int] = []
    many = check(srcs, "tcg", ON, jobs=2, progress=lambda done, label: seen.append(done))
    assert many.rows == one.rows
    assert many.summary == one.summary
    assert seen and seen[-1] == len(srcs) and seen == sorted(seen)


def _read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_batch_command_writes_the_reports(regset: RegSet, cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = _csv_for(regset)
    out = tmp_path / "reports"
    res = cli("batch", str(path), "--format", "tcg", "--date", "2025-06-01", "--out", str(out))
    assert res.code == 2, res.stderr  # unreadable decks
    assert "player id p000 is already registered on row 2" in res.stderr
    assert sorted(p.name for p in out.iterdir()) == [
        "junit.xml",
        "report.csv",
        "report.html",
        "report.json",
    ]
    # CSV: the documented header, then the CSV's own extra columns; one row per registration
    with open(out / "report.csv", encoding="utf-8", newline="") as handle:
        header = next(csv.reader(handle))
    assert header == [*HEADER, "Table", "Country"]
    rows = _read_csv(out / "report.csv")
    assert len(rows) == len(regset.files) + 4
    for i, name in enumerate(regset.files):
        row = rows[i]
        want = regset.expected[name]
        assert row["status"] == want and row["player_id"] == f"P{i:03d}", name
        assert row["player"] == f"Player {i}" and row["Table"] == str(i + 1)
        if want != "unreadable":
            deck = read_path(regset.folder / name)
            assert row["fingerprint"] == fingerprint_deck(deck)
            assert row["legal"] == ("true" if want == "legal" else "false")
            assert set(filter(None, row["codes"].split(";"))) == regset.codes[name]
            counts = deckcheck.validate(deck, "tcg", ON).counts
            assert (int(row["main"]), int(row["extra"]), int(row["side"])) == (
                counts["main"],
                counts["extra"],
                counts["side"],
            )
            assert row["deck_name"] == (deck.name or "")
        else:
            assert row["legal"] == "" and row["messages"]
    assert [r["status"] for r in rows[-4:]] == ["duplicate", "legal", "unreadable", "unreadable"]
    assert rows[-4]["duplicate_of"] == "2"
    # JSON: the validation document, with the registration of each deck
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    ValidationDocument.model_validate(doc)
    assert doc["summary"]["duplicates"] == 1
    assert doc["summary"]["unreadable"] == 4
    first = doc["results"][0]
    assert first["registration"]["player_id"] == "P000"
    assert first["registration"]["fields"] == {"Table": "1", "Country": "DE"}
    assert first["registration"]["status"] in ("legal", "illegal")
    assert all(
        u["registration"]["status"] in ("unreadable", "duplicate") for u in doc["unreadable"]
    )
    # HTML: one page, no external assets, problems first
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "src=" not in page and "href=" not in page and "@import" not in page
    first_illegal = page.index("ILLEGAL</span>")
    assert page.index("UNREADABLE</span>") < first_illegal < page.index("DUPLICATE</span>")
    assert 'class="sortable"' in page
    # each finding of an illegal deck is shown with its fix
    from deckcheck.reporter.html import fix_for

    for name, want in regset.expected.items():
        if want == "illegal":
            for code in regset.codes[name] - {"treated-as"}:
                assert f'<div class="fix">{fix_for(deckcheck.Code(code))}' in page.replace(
                    "&#x27;", "'"
                )


@pytest.mark.slow
def test_batch_command_on_a_folder_is_quiet_when_piped(
    regset: RegSet, cli_proc, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    res = cli_proc("batch", str(regset.folder), "-d", "2025-06-01", "--out", str(out))
    assert res.returncode == 2
    assert "\x1b[" not in res.stderr and "checking" not in res.stderr  # no progress bar
    assert f"{len(regset.files)} registrations" in res.stdout
    rows = _read_csv(out / "report.csv")
    assert [Path(r["source"]).name for r in rows] == sorted(regset.files)
    assert all(r["player_id"] == "" for r in rows)
    res = cli_proc("batch", str(regset.folder), "-d", "2025-06-01", "--out", str(out), "-q")
    assert res.stdout == ""


def test_batch_exit_codes(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    legal = tmp_path / "legal"
    legal.mkdir()
    (legal / "a.ydk").write_bytes((ROOT / "examples" / "tcg-legal.ydk").read_bytes())
    assert cli("batch", str(legal), "-d", "2025-06-01", "--out", str(tmp_path / "o1")).code == 0
    (legal / "b.ydk").write_bytes((ROOT / "examples" / "problems.ydk").read_bytes())
    assert cli("batch", str(legal), "-d", "2025-06-01", "--out", str(tmp_path / "o2")).code == 1
    # bad arguments
    res = cli("batch", str(legal), "--out", str(legal / "a.ydk"))
    assert res.code == 2 and "not a folder" in res.stderr
    res = cli("batch", str(legal), "--out", str(tmp_path / "o3"), "--region", "mars")
    assert res.code == 2 and "mars" in res.stderr
    # --region picks the TCG list's regional date, as validate's does
    res = cli(
        "batch", str(legal), "--region", "eu", "-d", "2025-06-01", "--out", str(tmp_path / "o4")
    )
    assert res.code == 1


def test_reports_replace_old_ones_and_leave_nothing_else(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.csv").write_text("old", encoding="utf-8")
    (out / "keep.txt").write_text("mine", encoding="utf-8")
    res = cli(
        "batch", str(ROOT / "examples" / "tcg-legal.ydk"), "-d", "2025-06-01", "--out", str(out)
    )
    assert res.code == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "junit.xml",
        "keep.txt",
        "report.csv",
        "report.html",
        "report.json",
    ]
    assert (out / "report.csv").read_text(encoding="utf-8").startswith("row,")
    assert (out / "keep.txt").read_text(encoding="utf-8") == "mine"


def test_validate_json_has_names_fingerprints_and_registrations(regset: RegSet, cli) -> None:  # type: ignore[no-untyped-def]
    path = _csv_for(regset)
    res = cli("validate", str(path), "-d", "2025-06-01", "-o", "json")
    doc = json.loads(res.stdout)
    ValidationDocument.model_validate(doc)
    names = {r["registration"]["player"]: r for r in doc["results"]}
    assert names["Player 0 again"]["name"] == "deckcheck example: Cyber Dragon"
    assert all(len(r["fingerprint"]) == 16 for r in doc["results"])


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("#created by Someone\n#main\n89631139\n#extra\n!side\n", "Someone"),
        ("!name My Deck\n#created by Someone\n#main\n89631139\n#extra\n!side\n", "My Deck"),
        ("#created by Someone\n!name My Deck\n#main\n89631139\n#extra\n!side\n", "My Deck"),
        ('{"deckcheck": 1, "name": "Json Deck", "main": [89631139]}', "Json Deck"),
        ("!name Listed\n3 Blue-Eyes White Dragon\n", "Listed"),
        ("Name: Form Deck\n3 Blue-Eyes White Dragon\n", "Form Deck"),
    ],
)
def test_readers_fill_the_deck_name(text: str, name: str) -> None:
    deck = deckcheck.read_deck(text)
    assert deck.name == name
    assert not deck.findings


def test_csv_columns_separators_and_encodings(tmp_path: Path) -> None:
    (tmp_path / "a.ydk").write_bytes((ROOT / "examples" / "tcg-legal.ydk").read_bytes())
    path = tmp_path / "regs.csv"
    path.write_bytes("\ufeffKonami ID;Name;Deck File;Größe\n7;Zoë;a.ydk;x\n".encode())
    (src,) = read_registrations(path)
    assert src.registration is not None
    reg = src.registration
    assert (reg.player_id, reg.player, reg.deck) == ("7", "Zoë", "a.ydk")
    assert reg.fields == (("Größe", "x"),)
    assert src.error is None and Path(src.path) == tmp_path / "a.ydk"
    path.write_bytes("player_id,deck\n7,a.ydk\n".encode("utf-16"))
    assert read_registrations(path)[0].error is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"player,table\nAda,1\n", "no deck column"),
        (b"", "empty file"),
        (b"deck\n\xff\xfe\xfa.ydk\n", "not UTF-8"),
        (b"deck\n" + b'"' + b"x" * 200_000 + b'"\n', "field larger"),
    ],
)
def test_unusable_csvs_are_refused_with_the_place(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "regs.csv"
    path.write_bytes(content)
    with pytest.raises(RegistrationError, match=message):
        read_registrations(path)
    batch = check([str(path)], "tcg", ON)
    assert batch.exit_code is ExitCode.ERROR and message in batch.unreadable[0].error


def test_csv_deck_paths_stay_in_the_csv_folder(tmp_path: Path) -> None:
    inner = tmp_path / "inner"
    inner.mkdir()
    (tmp_path / "secret.ydk").write_text("#main\n89631139\n", encoding="utf-8")
    (inner / "link.ydk").symlink_to(tmp_path / "secret.ydk")
    (inner / "regs.csv").write_text(
        f"deck\n../secret.ydk\n{tmp_path / 'secret.ydk'}\nlink.ydk\nmissing.ydk\n",
        encoding="utf-8",
    )
    got = read_registrations(inner / "regs.csv")
    assert [s.error is not None for s in got] == [True, True, True, True]
    assert "outside" in (got[0].error or "") and "absolute" in (got[1].error or "")
    assert "outside" in (got[2].error or "") and "no such" in (got[3].error or "")


def test_status_values_are_the_documented_ones() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for status in Status:
        assert f"`{status.value}`" in readme
    for column in HEADER:
        assert f"`{column}`" in readme


def test_validate_prints_csv_and_html_too(cli, cli_proc) -> None:  # type: ignore[no-untyped-def]
    deck = str(ROOT / "examples" / "problems.ydk")
    res = cli("validate", deck, "-d", "2025-06-01", "-o", "csv")
    assert res.code == 1
    (row,) = list(csv.DictReader(io.StringIO(res.stdout)))
    assert row["status"] == "illegal" and "forbidden" in row["codes"].split(";")
    res = cli("validate", deck, "-d", "2025-06-01", "-o", "html")
    assert res.code == 1 and res.stdout.startswith("<!DOCTYPE html>")
    proc = cli_proc("simulate", str(ROOT / "examples" / "tcg-legal.ydk"), "-o", "csv")
    assert proc.returncode == 2 and "text or json" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
def test_progress_bar_on_a_terminal(regset: RegSet, tmp_path: Path) -> None:
    import os
    import pty
    import subprocess
    import sys

    master, slave = pty.openpty()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "deckcheck",
            "batch",
            str(regset.folder),
            "--out",
            str(tmp_path / "out"),
            "-j",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=slave,
        check=False,
        env={**os.environ, "COLUMNS": "100"},
    )
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    assert proc.returncode == 2
    text = shown.decode("utf-8", "replace")
    assert "checking" in text and f"{len(regset.files)}/{len(regset.files)}" in text


def test_reports_rendered_on_a_second_core_are_the_same(
    regset: RegSet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deckcheck.cli import batch as command
    from deckcheck.run.meta import from_batch

    batch = check([str(_csv_for(regset))], "tcg", ON)
    command.write_reports(batch, tmp_path / "one", from_batch(batch), lang="ja")
    monkeypatch.setattr(command, "RENDER_FORK_MIN", 1)
    command.write_reports(batch, tmp_path / "two", lambda: from_batch(batch), lang="ja")
    assert b'"meta"' in (tmp_path / "two" / "report.json").read_bytes()
    for name in command.REPORTS:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    assert sorted(p.name for p in (tmp_path / "two").iterdir()) == sorted(command.REPORTS)


def test_jobs_1_renders_every_report_in_its_own_process(
    regset: RegSet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import multiprocessing

    from deckcheck.cli import batch as command
    from deckcheck.run.meta import from_batch

    batch = check([str(_csv_for(regset))], "tcg", ON)
    command.write_reports(batch, tmp_path / "forked", lambda: from_batch(batch))
    forks: list[str] = []
    real = multiprocessing.get_context

    def counting(method: str | None = None) -> object:
        forks.append(str(method))
        return real(method)

    monkeypatch.setattr(command, "RENDER_FORK_MIN", 1)
    monkeypatch.setattr(multiprocessing, "get_context", counting)
    command.write_reports(batch, tmp_path / "one", lambda: from_batch(batch), jobs=1)
    assert forks == []
    command.write_reports(batch, tmp_path / "two", lambda: from_batch(batch), jobs=2)
    assert forks == ["fork", "fork"]
    for name in command.REPORTS:
        forked = (tmp_path / "forked" / name).read_bytes()
        assert (tmp_path / "one" / name).read_bytes() == forked
        assert (tmp_path / "two" / name).read_bytes() == forked


def test_enormous_csvs_are_refused_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from deckcheck.source import registration

    path = tmp_path / "regs.csv"
    path.write_text("deck\n" + "".join(f"d{i}.ydk\n" for i in range(50)), encoding="utf-8")
    monkeypatch.setattr(registration, "MAX_ROWS", 20)
    with pytest.raises(RegistrationError, match="more than 20 registrations"):
        read_registrations(path)
    monkeypatch.setattr(registration, "MAX_ROWS", 100)
    monkeypatch.setattr(registration, "MAX_CSV_BYTES", 100)
    with pytest.raises(RegistrationError, match="byte limit"):
        read_registrations(path)
    monkeypatch.setattr(registration, "MAX_CSV_BYTES", 10_000)
    assert len(read_registrations(path)) == 50


def test_readme_library_example_for_organisers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("For organisers and judges:", 1)[1].split("```python", 1)[1]
    code = block.split("```", 1)[0]
    (tmp_path / "examples").mkdir()
    for name in ("problems.ydk", "tcg-legal.ydk"):
        (tmp_path / "examples" / name).write_bytes((ROOT / "examples" / name).read_bytes())
    (tmp_path / "registrations.csv").write_text(
        "player_id,player,deck\n1,Ada,examples/tcg-legal.ydk\n1,Ada,examples/problems.ydk\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    printed: list[str] = []
    namespace = {
        "deckcheck": deckcheck,
        "deck": read_path("examples/problems.ydk"),
        "print": lambda *a: printed.append(" ".join(map(str, a))),
    }
    exec(compile(code, "README.md", "exec"), namespace)
    assert printed[0] == "1 examples/tcg-legal.ydk"
    assert "duplicate" in printed[-1] and printed[-1].rstrip().endswith("1")
    assert fingerprint_deck(namespace["deck"]) == "886e6edffbfa2834"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("header", "want"),
    [
        ("Player ID,Player Name,Deck", ("7", "Zoë")),
        ("KID,Full Name,Deck List", ("7", "Zoë")),
        ("Registration ID,Player (Last; First),Deck Path", ("7", "Zoë")),
        ("id,name,ydke", ("7", "Zoë")),
    ],
)
def test_csv_column_names_people_write(tmp_path: Path, header: str, want: tuple[str, str]) -> None:
    (tmp_path / "a.ydk").write_bytes((ROOT / "examples" / "tcg-legal.ydk").read_bytes())
    path = tmp_path / "regs.csv"
    path.write_text(f"{header}\n7,Zoë,a.ydk\n", encoding="utf-8")
    (src,) = read_registrations(path)
    assert src.registration is not None
    assert (src.registration.player_id, src.registration.player) == want
    assert src.error is None and src.registration.deck == "a.ydk"


def test_hostile_file_names_never_reach_a_terminal_raw(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    import os

    folder = tmp_path / "decks"
    folder.mkdir()
    legal = (ROOT / "examples" / "tcg-legal.ydk").read_bytes()
    (folder / os.fsdecode(b"caf\xe9.ydk")).write_bytes(legal)
    (folder / "bad\x1b[2J\u202e.ydk").write_bytes(b"\0junk")
    out = tmp_path / "out"
    res = cli("batch", str(folder), "-d", "2025-06-01", "--out", str(out))
    assert res.code == 2
    assert "\x1b" not in res.stderr and "\u202e" not in res.stderr and "\\x1b" in res.stderr
    text = (out / "report.csv").read_text(encoding="utf-8")
    assert "\x1b" not in text and "\u202e" not in text
    assert "caf\\xe9.ydk" in text and "bad\\x1b[2J" in text
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "\x1b" not in page and "caf\\xe9.ydk" in page
    json.loads((out / "report.json").read_text(encoding="utf-8"))  # valid UTF-8 JSON


@pytest.mark.parametrize(
    ("body", "line"),
    [
        (b"player,deck\nann,a.ydk\nbob," + b"A" * 200_000 + b"\n", 3),  # over csv's field limit
        (b"player,deck\nann,a.ydk\n\nbob,\x00.ydk\n", 4),
        (b"player,deck\nann,\xff.ydk\n", 2),
    ],
)
def test_an_unreadable_csv_names_its_line_in_every_report(
    tmp_path: Path, cli: Any, body: bytes, line: int
) -> None:
    """The line a registrations CSV fails on is a field of its unreadable record, not only
    words of its message: JSON gives it, and a GitHub annotation points at it."""
    regs = tmp_path / "regs.csv"
    regs.write_bytes(body)
    res = cli("validate", str(regs), "--output", "json")
    assert res.code == 2, res.stderr
    (bad,) = json.loads(res.stdout)["unreadable"]
    assert bad["code"] == "bad-registrations" and bad["line"] == line, bad
    assert f"regs.csv:{line}:" in bad["error"]
    with pytest.raises(RegistrationError) as err:
        read_registrations(regs)
    assert err.value.line == line
    annotations = cli("validate", str(regs), "--output", "github").stdout
    assert f",line={line},title=unreadable::" in annotations, annotations
