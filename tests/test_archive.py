"""Hostile zip archives: slips, absolute paths, symlinks, bombs, odd names. Nothing is ever
written outside the output folder, and the good entries are still checked."""

from __future__ import annotations

import csv
import stat
import zipfile
from pathlib import Path

import pytest

from deckcheck.run.batch import ExitCode, check
from deckcheck.source import archive
from deckcheck.source.archive import ArchiveError, list_entries

ROOT = Path(__file__).resolve().parent.parent
LEGAL = (ROOT / "examples" / "tcg-legal.ydk").read_bytes()


def _tree(folder: Path) -> set[Path]:
    return {p.relative_to(folder) for p in folder.rglob("*")}


def _hostile(path: Path) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("good/legal.ydk", LEGAL)
        zf.writestr("../slip.ydk", LEGAL)
        zf.writestr("good/../../deep-slip.ydk", LEGAL)
        zf.writestr("..\\windows-slip.ydk", LEGAL)
        zf.writestr("/absolute.ydk", LEGAL)
        zf.writestr("C:/drive.ydk", LEGAL)
        link = zipfile.ZipInfo("symlink.ydk")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
        zf.writestr("bomb.ydk", b"89631139\n" * 400_000)  # 3.6 MB from a few KB
        zf.writestr("ratio.txt", b"0" * 900_000)  # under the size cap, over the ratio cap
        zf.writestr("cafX-latin1.ydk", LEGAL)
    # a name that is not UTF-8 (Latin-1 é), without the UTF-8 flag: patch the name's bytes
    path.write_bytes(path.read_bytes().replace(b"cafX-latin1", b"caf\xe9-latin1"))


def test_hostile_entries_are_per_entry_errors_and_nothing_lands_outside(
    tmp_path: Path, cli
) -> None:  # type: ignore[no-untyped-def]
    work = tmp_path / "work"
    work.mkdir()
    bad = work / "hostile.zip"
    _hostile(bad)
    before = _tree(tmp_path)
    out = work / "out"
    res = cli("batch", str(bad), "-d", "2025-06-01", "--out", str(out))
    assert res.code == int(ExitCode.ERROR)
    after = _tree(tmp_path)
    # the only new files are the reports, inside the output folder
    assert after - before == {Path("work/out")} | {
        Path("work/out") / n for n in ("report.csv", "report.json", "report.html", "junit.xml")
    }
    assert not list(tmp_path.rglob("*slip*")) and not Path("/absolute.ydk").exists()
    with open(out / "report.csv", encoding="utf-8", newline="") as handle:
        rows = {r["source"].split("!/", 1)[1]: r for r in csv.DictReader(handle)}
    assert rows["good/legal.ydk"]["status"] == "legal"
    for name in ("../slip.ydk", "good/../../deep-slip.ydk", "..\\windows-slip.ydk"):
        assert rows[name]["status"] == "unreadable" and "climbs out" in rows[name]["messages"]
    for name in ("/absolute.ydk", "C:/drive.ydk"):
        assert "absolute" in rows[name]["messages"]
    assert "symbolic link" in rows["symlink.ydk"]["messages"]
    assert "byte limit" in rows["bomb.ydk"]["messages"]
    assert "ratio" in rows["ratio.txt"]["messages"]
    (latin,) = [k for k in rows if k.startswith("caf")]
    assert rows[latin]["status"] == "legal"
    # the undecodable byte is shown escaped on the terminal, never raw
    assert "\udce9" not in res.stderr


def test_entry_count_and_total_size_caps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "many.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for i in range(12):
            zf.writestr(f"d{i}.ydk", LEGAL)
    monkeypatch.setattr(archive, "MAX_ENTRIES", 10)
    with pytest.raises(ArchiveError, match="12 entries"):
        list_entries(str(path))
    batch = check([str(path)], "tcg")
    assert batch.exit_code is ExitCode.ERROR and not batch.reports
    monkeypatch.setattr(archive, "MAX_ENTRIES", 100)
    monkeypatch.setattr(archive, "MAX_TOTAL_BYTES", 5 * len(LEGAL))
    with pytest.raises(ArchiveError, match="zip bomb"):
        list_entries(str(path))


def test_a_lying_header_never_reads_past_the_declared_size(tmp_path: Path) -> None:
    path = tmp_path / "liar.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("deck.ydk", b"#main\n" + b"89631139\n" * 50_000)
    data = bytearray(path.read_bytes())
    # shrink the declared uncompressed size (local header and central directory) to 100 bytes
    real = (6 + 9 * 50_000).to_bytes(4, "little")
    data = bytearray(bytes(data).replace(real, (100).to_bytes(4, "little")))
    path.write_bytes(bytes(data))
    batch = check([str(path)], "tcg")
    assert batch.exit_code is ExitCode.ERROR
    (bad,) = batch.unreadable
    assert "damaged" in bad.error or "CRC" in bad.error or "Bad" in bad.error


@pytest.mark.parametrize("content", [b"not a zip at all", b"PK\x03\x04" + b"\0" * 40])
def test_a_file_that_is_not_a_zip_is_one_clear_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "fake.zip"
    path.write_bytes(content)
    batch = check([str(path)], "tcg")
    (bad,) = batch.unreadable
    assert "not a readable zip" in bad.error


def test_an_archive_without_decks_says_so(tmp_path: Path) -> None:
    path = tmp_path / "empty.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("readme.md", "hello")
    (bad,) = check([str(path)], "tcg").unreadable
    assert "no deck files" in bad.error


def test_a_zip_with_a_registrations_csv(tmp_path: Path) -> None:
    from deckcheck.source.registration import status_of

    path = tmp_path / "event.zip"
    problems = (ROOT / "examples" / "problems.ydk").read_bytes()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(
            "event/registrations.csv",
            "player_id,player,deck\n"
            "1,Ada,decks/ada.ydk\n"
            "2,Bob,decks\\bob.ydk\n"
            "3,Eve,../outside.ydk\n"
            "4,Mal,decks/../../outside.ydk\n"
            "5,Nobody,decks/missing.ydk\n"
            "6,Zed,/event/decks/ada.ydk\n"
            "7,Roundabout,decks/../decks/ada.ydk\n"
            '1,Ada again,"1 Pot of Greed\n39 Raigeki"\n',
        )
        zf.writestr("event/decks/ada.ydk", LEGAL)
        zf.writestr("event/decks/bob.ydk", problems)
        zf.writestr("outside.ydk", LEGAL)
        zf.writestr("event/decks/unregistered.ydk", LEGAL)
    batch = check([str(path)], "tcg", __import__("datetime").date(2025, 6, 1))
    got = [
        (r.registration.player if r.registration else None, status_of(r).value) for r in batch.rows
    ]
    assert got == [
        ("Ada", "legal"),
        ("Bob", "illegal"),
        ("Eve", "unreadable"),
        ("Mal", "unreadable"),
        ("Nobody", "unreadable"),
        ("Zed", "unreadable"),
        ("Roundabout", "legal"),
        ("Ada again", "duplicate"),
    ]
    errors = [getattr(r, "error", "") for r in batch.rows]
    assert "outside the CSV's folder" in errors[2] and "outside" in errors[3]
    assert "no such deck file in the archive" in errors[4] and "absolute" in errors[5]
    assert batch.rows[0].path == f"{path}!/event/decks/ada.ydk"
    assert {k.path.split("!/")[1] for k in batch.skipped} == {
        "outside.ydk",
        "event/decks/unregistered.ydk",
    }
    assert batch.rows[0].registration.file == f"{path}!/event/registrations.csv"  # type: ignore[union-attr]
