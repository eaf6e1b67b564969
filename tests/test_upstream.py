"""``data update --from-upstream``: source files fetched from a local server, built, installed.

The server on 127.0.0.1 serves a mirror of the source data (the shared data folder when it is
present, else a small incomplete one) with its ``sources.json``; nothing touches the internet.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from deckcheck.data.dataset import Dataset
from deckcheck.data.store import open_installed, read_pointer
from deckcheck.data.upstream import parse_source_list, source_list
from deckcheck.error import DataError

from .bundle_server import BundleServer, serve
from .conftest import SHARED_DATA, TEST_DATA


@pytest.fixture()
def small_mirror(tmp_path: Path) -> Path:
    """A source-data folder that holds ban lists but no card data: a build cannot succeed."""
    root = tmp_path / "mirror"
    lf = root / "lflists" / "projectignis" / "current"
    lf.mkdir(parents=True)
    (lf / "0TCG.lflist.conf").write_text("#[2026.11 TCG]\n!2026.11 TCG\n55144522 0 --Pot\n")
    (root / "cards").mkdir()
    (root / "cards" / "note.txt").write_text("no card data\n")
    (root / "sources.json").write_text(json.dumps(source_list(root)), encoding="utf-8")
    return root


def test_source_list_paths_must_stay_inside() -> None:
    for bad in ("../x", "/etc/passwd", "cards/../../x", "other/file", "cards\\..\\x", "cards//x"):
        raw = json.dumps({"files": [{"path": bad}]}).encode()
        with pytest.raises(DataError, match="bad path"):
            parse_source_list(raw, "sources.json")
    with pytest.raises(DataError, match="non-empty"):
        parse_source_list(b'{"files": []}', "sources.json")
    _, files = parse_source_list(b'{"files": [{"path": "cards/a.cdb", "size": 3}]}', "x")
    assert files[0].path == "cards/a.cdb" and files[0].size == 3 and files[0].url is None


def test_incomplete_sources_fail_and_change_nothing(
    cli: Callable[..., Any], home: Path, small_mirror: Path
) -> None:
    with serve(small_mirror) as srv:
        res = cli("data", "update", "--from-upstream", "--source", srv.url + "/sources.json")
        assert res.code == 2, res.stdout
        assert "update failed" in res.stderr and "building the card index from" in res.stderr
        assert "/lflists/projectignis/current/0TCG.lflist.conf" in srv.paths_requested()
    assert read_pointer(home) is None
    assert Dataset.reload_active() is Dataset.bundled()
    assert not list(home.glob("staging-*"))


@pytest.mark.parametrize("fault", ["drop", "corrupt", "404", "truncate"])
def test_source_download_failures(
    cli: Callable[..., Any], home: Path, small_mirror: Path, fault: str
) -> None:
    with serve(small_mirror) as srv:
        srv.faults["/lflists/projectignis/current/0TCG.lflist.conf"] = [fault]
        src = srv.url + "/sources.json"
        res = cli("data", "update", "--from-upstream", "--source", src, "--retries", "0")
    assert res.code == 2 and "update failed" in res.stderr, res.stderr
    assert "0TCG.lflist.conf" in res.stderr
    assert read_pointer(home) is None


def test_source_list_with_a_wrong_size(
    cli: Callable[..., Any], home: Path, small_mirror: Path
) -> None:
    doc = json.loads((small_mirror / "sources.json").read_text(encoding="utf-8"))
    for row in doc["files"]:
        row.pop("sha256")
        row["size"] += 1
    (small_mirror / "sources.json").write_text(json.dumps(doc), encoding="utf-8")
    with serve(small_mirror) as srv:
        res = cli("data", "update", "--from-upstream", "--source", srv.url + "/sources.json")
    assert res.code == 2 and "the source list says" in res.stderr, res.stderr


def test_local_source_folder_without_a_list(
    cli: Callable[..., Any], home: Path, small_mirror: Path
) -> None:
    (small_mirror / "sources.json").unlink()
    res = cli("data", "update", "--from-upstream", "--source", str(small_mirror))
    assert res.code == 2 and "building the card index from" in res.stderr, res.stderr
    assert read_pointer(home) is None
    empty = small_mirror.parent / "empty"
    empty.mkdir()
    res = cli("data", "update", "--from-upstream", "--source", str(empty))
    assert res.code == 2 and "cards.cdb: not in the mirror" in res.stderr, res.stderr


def test_no_upstream_source_means_the_built_in_list(
    cli: Callable[..., Any], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DECKCHECK_OFFLINE", "1")
    res = cli("data", "update", "--from-upstream")
    assert res.code == 2 and "https://raw.githubusercontent.com/" in res.stderr, res.stderr
    assert "network access is disabled" in res.stderr


def test_offline_upstream(
    cli: Callable[..., Any], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DECKCHECK_OFFLINE", "1")
    with serve() as srv:
        res = cli("data", "update", "--from-upstream", "--source", srv.url)
        assert srv.requests == []
    assert res.code == 2 and "network access is disabled" in res.stderr


@pytest.fixture(scope="module")
def shared_mirror() -> Iterator[BundleServer]:
    """The shared source data served with its source list (as of a later date)."""
    doc = source_list(SHARED_DATA)
    doc["as_of"] = "2026-11-15"
    doc["sources"] = ["example/mirror@0123456"]
    with serve(SHARED_DATA) as srv:
        srv.files["/sources.json"] = json.dumps(doc).encode()
        yield srv


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED_DATA / "cards").is_dir(), reason="no ../shared/data here")
def test_build_from_upstream_installs_the_same_data(
    cli: Callable[..., Any], home: Path, shared_mirror: BundleServer
) -> None:
    """The sources the bundled data was built from, fetched and built here: same files."""
    res = cli("data", "update", "--from-upstream", "--source", shared_mirror.url + "/sources.json")
    assert res.code == 0, res.stderr
    assert "updated" in res.stdout and "2026-11-15" in res.stdout
    data, problem = open_installed(home, full=True)
    assert data is not None and problem is None
    # the same files as a local build of the sources on the same date (the mirror's), which is
    # the bundled data's build apart from that date
    from deckcheck.data.bundle import build
    from deckcheck.data.dataset import file_sha256

    local = build(SHARED_DATA, home.parent / "local-build", data.as_of)
    for name in ("cards.jsonl", "names.json", "banlists.json", "formats.toml"):
        assert data.manifest["files"][name] == file_sha256(local / name), name
    bundled = Dataset.bundled()
    for name in ("banlists.json", "formats.toml"):  # these do not depend on the date
        assert data.manifest["files"][name] == bundled.manifest["files"][name], name
    assert "example/mirror@0123456" in data.manifest["sources"]
    status = json.loads(cli("data", "status", "-o", "json").stdout)
    assert status["origin"] == "installed"
    assert status["source"] == "upstream:" + shared_mirror.url + "/sources.json"
    # the installed data works for every entry point
    deck = TEST_DATA.parent.parent / "examples" / "tcg-legal.ydk"
    out = json.loads(cli("validate", str(deck), "-o", "json").stdout)
    assert out["data"]["fingerprint"] == data.fingerprint
    assert os.environ["DECKCHECK_HOME"] == str(home)


def test_the_built_in_list_names_each_file_where_its_repository_keeps_it() -> None:
    """The upstream layouts differ from the shared source-data layout (checked against the
    repositories at the shared data's commits): TimeWizard keeps its lists in ``banlists/``,
    ``lflist/curated/`` and ``static/``; yaml-yugi-limit-regulation under ``data/``."""
    from deckcheck.data.source_list import load

    where = {
        "SantiagoRivera92/TimeWizard": ("banlists/", "lflist/curated/", "static/"),
        "DawnbrandBots/yaml-yugi-limit-regulation": ("data/",),
        "ProjectIgnis/Distribution": ("config/",),
    }
    seen: dict[str, int] = {}
    for entry in load().entries:
        if entry.repo in where:
            assert entry.path.startswith(where[entry.repo]), (entry.repo, entry.path)
            seen[entry.repo] = seen.get(entry.repo, 0) + 1
            if entry.repo == "SantiagoRivera92/TimeWizard" and entry.path.endswith(".json"):
                assert not entry.path.startswith("lflist/")
    assert set(seen) == set(where)
