"""The committed ban-list files: schema, passcodes, bundle, lflist round trip, regeneration."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.card import CardIndex
from deckcheck.error import DataError
from deckcheck.rule.banlist import (
    Banlist,
    banlist_files,
    dump_bundle,
    dump_lflist,
    read_banlist_file,
    read_bundle,
    read_lflist,
)

ROOT = Path(__file__).resolve().parent.parent
BANLIST_DIR = ROOT / "banlists"
BUNDLE_PATH = ROOT / "deckcheck" / "data" / "bundled" / "banlists.json"
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="module")
def files() -> list[tuple[Path, Banlist]]:
    """Every project ban-list file, parsed (schema checked by the reader)."""
    return [(p, read_banlist_file(p)) for p in banlist_files(BANLIST_DIR)]


@pytest.mark.slow
def test_there_are_lists_of_every_family(files: list[tuple[Path, Banlist]]) -> None:
    families = {b.family for _, b in files}
    assert {
        "tcg",
        "ocg",
        "master-duel",
        "genesys",
        "ocg-genesys",
        "rush",
        "speed",
        "goat",
        "edison",
        "hat",
    } <= families
    assert len(files) > 250


@pytest.mark.slow
def test_file_path_matches_content(files: list[tuple[Path, Banlist]]) -> None:
    for path, b in files:
        assert path.parent.name == b.family, path
        assert path.stem == b.effective.isoformat(), path
        assert b.sources, path
        assert b.name.startswith(b.effective.isoformat()), path


@pytest.mark.slow
def test_every_passcode_resolves(files: list[tuple[Path, Banlist]], index: CardIndex) -> None:
    missing = [(p.name, c) for p, b in files for c in b.entries if c not in index]
    assert missing == []


@pytest.mark.slow
def test_entries_are_original_cards(files: list[tuple[Path, Banlist]], index: CardIndex) -> None:
    not_original = [(p.name, c) for p, b in files for c in b.entries if index.get(c).canonical != c]
    assert not_original == []


@pytest.mark.slow
def test_bundle_equals_files(files: list[tuple[Path, Banlist]]) -> None:
    assert BUNDLE_PATH.read_text(encoding="utf-8") == dump_bundle(b for _, b in files) + "\n"


@pytest.mark.slow
def test_bundle_reads_back(files: list[tuple[Path, Banlist]]) -> None:
    bundled = read_bundle(BUNDLE_PATH.read_bytes())
    assert bundled == sorted((b for _, b in files), key=lambda b: (b.family, b.effective, b.name))


@pytest.mark.slow
def test_lflist_round_trip_of_every_list(files: list[tuple[Path, Banlist]]) -> None:
    for _, b in files:
        text = dump_lflist(b)
        (back,) = read_lflist(text, "export", family=b.family)
        assert back.name == b.name
        assert back.effective == b.effective
        assert dict(back.entries) == dict(b.entries)
        assert (back.whitelist, back.points, back.point_cap) == (b.whitelist, b.points, b.point_cap)


def test_schema_errors_name_file_and_key(tmp_path: Path) -> None:
    good = (BANLIST_DIR / "tcg" / "2005-10-01.toml").read_text(encoding="utf-8")
    cases = [
        ("55144522 = { status = 0,", "55144522 = { status = 7,", "entries.55144522"),
        ('family = "tcg"', 'family = "tcg"\ncolour = "red"', "colour"),
        ('family = "tcg"', "", "family"),
        ("effective = 2005-10-01", 'effective = "soon"', "effective"),
    ]
    for old, new, key in cases:
        path = tmp_path / "bad.toml"
        assert old in good
        text = good.replace(old, new)
        path.write_text(text, encoding="utf-8")
        with pytest.raises(DataError) as err:
            read_banlist_file(path)
        assert "bad.toml" in str(err.value) and key in str(err.value)


def test_reconciliation_report_exists_and_covers_tcg() -> None:
    text = (BANLIST_DIR / "RECONCILIATION.md").read_text(encoding="utf-8")
    assert "### 2005-10-01 TCG" in text
    assert "disagreement" in text


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED_DATA / "lflists").is_dir(), reason="no ../shared/data here")
def test_regenerating_from_shared_data_gives_the_committed_bundle(tmp_path: Path) -> None:
    out, bundle = tmp_path / "banlists", tmp_path / "banlists.json"
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "build_banlists.py"),
            "--data",
            str(SHARED_DATA),
            "--out",
            str(out),
            "--bundle",
            str(bundle),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert bundle.read_text(encoding="utf-8") == BUNDLE_PATH.read_text(encoding="utf-8")
    assert (out / "RECONCILIATION.md").read_text(encoding="utf-8") == (
        BANLIST_DIR / "RECONCILIATION.md"
    ).read_text(encoding="utf-8")
