"""The pack: a bundle's ban lists and formats as they load (``pack.pickle``), made by the build
script and by ``data update``, ignored whenever it is not one for the bundle's files."""

from __future__ import annotations

import json
import pickle
import shutil
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest

from deckcheck.data import pack
from deckcheck.data.bundle import write_manifest
from deckcheck.data.dataset import BUNDLED_DIR, Dataset
from deckcheck.data.store import read_pointer
from deckcheck.data.update import update

from .conftest import ROOT


def _copy(dest: Path, with_pack: bool = False) -> Path:
    """The bundled data's files in ``dest`` (the pack too if ``with_pack``)."""
    dest.mkdir()
    for path in BUNDLED_DIR.iterdir():
        if path.name != pack.PACK_FILE or with_pack:
            shutil.copyfile(path, dest / path.name)
    return dest


def _lists(ds: Dataset) -> list[tuple[str, date, dict[int, int]]]:
    return [(b.family, b.effective, dict(b.entries)) for b in ds.banlists.lists()]


def test_the_bundled_pack_is_the_one_of_the_bundled_files() -> None:
    """A fresh clone reads the committed pack: it is stamped for the committed files (else
    ``python scripts/build_dataset.py`` was not run after changing them)."""
    ds = Dataset.bundled()
    assert pack.read(ds.folder, ds.manifest) is not None
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_dataset.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_without_a_pack_the_same_lists_and_formats_load(tmp_path: Path) -> None:
    bare = Dataset.open(_copy(tmp_path / "bare"))
    assert pack.read(bare.folder, bare.manifest) is None
    packed = Dataset.bundled()
    assert _lists(bare) == _lists(packed)
    assert bare.formats.formats() == packed.formats.formats()
    assert bare.formats.eras() == packed.formats.eras()


def test_a_pack_of_other_files_is_ignored(tmp_path: Path) -> None:
    """A changed ban-list file (and its manifest) wins over the pack left beside it."""
    folder = _copy(tmp_path / "b", with_pack=True)
    doc = json.loads((folder / "banlists.json").read_bytes())
    doc["lists"] = [row for row in doc["lists"] if row["family"] != "goat"]
    (folder / "banlists.json").write_text(json.dumps(doc), encoding="utf-8")
    write_manifest(folder, Dataset.bundled().as_of)
    ds = Dataset.open(folder)
    assert pack.read(folder, ds.manifest) is None
    assert "goat" not in ds.banlists.families()
    assert "goat" in Dataset.bundled().banlists.families()


class _Runs:
    """Unpickled, it would run a command."""

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (print, ("unpickled",))


@pytest.mark.parametrize(
    "content",
    [
        b"not a pickle",
        b"",
        pickle.dumps({"stamp": None}),
        pickle.dumps(["a list"]),
        "runs",
    ],
)
def test_a_bad_pack_is_never_used(
    tmp_path: Path, content: bytes | str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pack that would run code, is corrupt, or is not a pack: the files are parsed."""
    folder = _copy(tmp_path / "b")
    ds = Dataset.open(folder)
    if content == "runs":
        content = pickle.dumps({"stamp": pack.stamp(ds.manifest), "banlists": _Runs()})
    assert isinstance(content, bytes)
    (folder / pack.PACK_FILE).write_bytes(content)
    assert pack.read(folder, ds.manifest) is None
    assert _lists(ds) == _lists(Dataset.bundled())
    assert "unpickled" not in capsys.readouterr().out


def test_data_update_makes_the_pack_of_what_it_installs(tmp_path: Path) -> None:
    source = _copy(tmp_path / "source")
    write_manifest(source, Dataset.bundled().as_of + timedelta(days=1))  # newer: installed
    home = tmp_path / "home"
    update(source, home=home)
    rec = read_pointer(home)
    assert rec is not None
    installed = Dataset.open(rec.folder)
    assert pack.read(rec.folder, installed.manifest) is not None
    assert _lists(installed) == _lists(Dataset.bundled())
    assert pack.PACK_FILE not in installed.manifest["files"]  # made here, never shipped
