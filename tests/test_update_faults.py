# ruff: noqa: F811  (the fixtures of test_update, imported)
"""Hostile update servers: encoding bombs, redirects, trickled headers, lying manifests.

Each test installs bundle A, points deckcheck at a real server on 127.0.0.1 that misbehaves,
and checks the update fails with an ``UpdateError`` naming the URL and the reason, while the
data in use stays whole.
"""

from __future__ import annotations

import gzip
import json
import time
import zlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from deckcheck.data.dataset import Dataset
from deckcheck.data.update import FetchOptions, UpdateStatus, update
from deckcheck.data.upstream import update_from_upstream
from deckcheck.error import UpdateError

from .bundle_server import BundleServer, serve
from .test_update import FAST, bundles, server, snapshot, with_a  # noqa: F401

SMALL = replace(FAST, max_bytes=8 << 20)


def _zeros_gzip(size: int) -> bytes:
    """gzip of ``size`` zero bytes, made a MiB at a time."""
    comp = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = bytes(1 << 20)
    out = [comp.compress(block) for _ in range(size >> 20)]
    return b"".join(out) + comp.flush()


def _fails(home: Path, url: str, opts: FetchOptions, *words: str) -> UpdateError:
    before = snapshot(home)
    with pytest.raises(UpdateError) as info:
        update(url, home=home, options=opts)
    text = str(info.value)
    for word in words:
        assert word in text, text
    assert snapshot(home) == before
    return info.value


@pytest.mark.slow
def test_gzip_gzip_bomb_stops_at_the_cap_as_it_inflates(
    home: Path, with_a: Dataset, server: BundleServer
) -> None:
    bomb = gzip.compress(_zeros_gzip(256 << 20), 9)  # 256 MiB of zeros in a few KB
    assert len(bomb) < 16_000
    server.files["/b/names.json"] = bomb
    server.faults["/b/names.json"] = ["enc:gzip, gzip"]
    _fails(home, server.url + "/b/", SMALL, server.url + "/b/names.json", "cap", "inflates")
    assert not list(home.glob("staging-*"))


@pytest.mark.slow
def test_manifest_bomb_stops_at_the_manifest_cap(
    home: Path, with_a: Dataset, server: BundleServer
) -> None:
    server.files["/b/manifest.json"] = gzip.compress(_zeros_gzip(64 << 20))
    server.faults["/b/manifest.json"] = ["enc:gzip,gzip"]
    _fails(home, server.url + "/b/", FAST, "manifest.json", "1,048,576-byte cap")


@pytest.mark.slow
def test_honest_gzip_answer_is_decoded(
    home: Path, with_a: Dataset, server: BundleServer, bundles: dict[str, Path]
) -> None:
    server.files["/b/names.json"] = gzip.compress(server.files["/b/names.json"])
    server.faults["/b/names.json"] = ["enc:gzip"]
    result = update(server.url + "/b/", home=home, options=FAST)
    assert result.status is UpdateStatus.UPDATED
    assert result.data.fingerprint == Dataset.open(bundles["b"]).fingerprint


@pytest.mark.slow
@pytest.mark.parametrize(
    ("encoding", "body", "reason"),
    [
        ("gzip", b"\x1f\x8b\x08\x00" + b"junk" * 100, "corrupt gzip body"),
        ("gzip", gzip.compress(b"x" * 1000)[:-30], "corrupt gzip body"),
        ("br", b"anything", "unsupported Content-Encoding 'br'"),
        ("gzip, gzip, gzip, gzip, gzip", b"x", "layers"),
    ],
)
def test_bad_encodings_are_update_errors(
    home: Path, with_a: Dataset, server: BundleServer, encoding: str, body: bytes, reason: str
) -> None:
    server.files["/b/cards.jsonl"] = body
    server.faults["/b/cards.jsonl"] = [f"enc:{encoding}"]
    _fails(home, server.url + "/b/", FAST, server.url + "/b/cards.jsonl", reason)


@pytest.mark.slow
def test_redirect_loop_is_an_update_error(
    home: Path, with_a: Dataset, server: BundleServer
) -> None:
    server.faults["/b/manifest.json"] = ["redirect:/b/manifest.json"] * 50
    _fails(home, server.url + "/b/", FAST, "manifest.json", "redirect loop")


@pytest.mark.slow
def test_redirect_within_the_site_is_followed(
    home: Path, with_a: Dataset, server: BundleServer
) -> None:
    server.files["/moved/manifest.json"] = server.files["/b/manifest.json"]
    server.faults["/b/manifest.json"] = ["redirect:/moved/manifest.json"]
    assert update(server.url + "/b/", home=home, options=FAST).status is UpdateStatus.UPDATED


@pytest.mark.slow
def test_redirect_to_another_site_needs_the_users_leave(
    cli: Callable[..., Any], home: Path, with_a: Dataset, server: BundleServer
) -> None:
    with serve() as other:
        for name in ("manifest.json", "names.json"):
            other.files[f"/b/{name}"] = server.files[f"/b/{name}"]
        server.faults["/b/names.json"] = [f"redirect:{other.url}/b/names.json"] * 3
        _fails(home, server.url + "/b/", FAST, "/b/names.json", "another site", other.url)
        assert other.requests == []
        res = cli("data", "update", "--source", server.url + "/b/", "--retries", "0")
        assert res.code == 2 and "another site" in res.stderr
        res = cli("data", "update", "--source", server.url + "/b/", "--allow-redirects-anywhere")
        assert res.code == 0, res.stderr
        assert other.paths_requested() == ["/b/names.json"]


@pytest.mark.slow
def test_trickled_headers_are_cut_off_at_the_deadline(
    home: Path, with_a: Dataset, server: BundleServer
) -> None:
    server.slow_seconds = 0.05  # a byte every 50 ms: never idle for the 0.5 s timeout
    server.faults["/b/manifest.json"] = ["trickle-headers"]
    start = time.monotonic()
    _fails(home, server.url + "/b/", replace(FAST, deadline=1.0), "manifest.json", "deadline")
    assert time.monotonic() - start < 10


def _manifest(server: BundleServer, as_of: object) -> None:
    doc = json.loads(server.files["/b/manifest.json"])
    doc["as_of"] = as_of
    server.files["/b/manifest.json"] = json.dumps(doc).encode()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("as_of", "force"),
    [
        ("20260928", False),
        (20260928, False),
        ("9999-12-31", False),
        ("9999-12-31", True),
        ("2026-W39-1", False),
        (None, False),
        ("2026-02-30", False),
    ],
)
def test_as_of_is_strict_and_not_far_in_the_future(
    home: Path, with_a: Dataset, server: BundleServer, as_of: object, force: bool
) -> None:
    _manifest(server, as_of)
    before = snapshot(home)
    with pytest.raises(UpdateError, match="as_of"):
        update(server.url + "/b/", home=home, options=FAST, force=force)
    assert snapshot(home) == before


@pytest.mark.parametrize(
    "source", ["http://[::1", "http://", "https://exa mple.org/", "a\0b", "http://x/\0"]
)
def test_unusable_sources_are_update_errors(home: Path, source: str) -> None:
    with pytest.raises(UpdateError):
        update(source, home=home, options=FAST)
    with pytest.raises(UpdateError):
        update_from_upstream(source, home=home, options=FAST)


def test_unusable_source_on_the_cli_is_one_error_line(cli: Callable[..., Any], home: Path) -> None:
    res = cli("data", "update", "--source", "http://[::1")
    assert res.code == 2
    assert res.stderr.startswith("error: ") and "unexpected" not in res.stderr
    assert "http://[::1" in res.stderr


@pytest.mark.parametrize(
    "doc",
    [
        {"as_of": 20260928, "files": [{"path": "cards/x.cdb"}]},
        {"as_of": "9999-12-31", "files": [{"path": "cards/x.cdb"}]},
        {"files": [{"path": "cards/x\u0000.cdb"}]},
        {"files": [{"path": 7}]},
        {"files": [["cards/x.cdb"]]},
        {"files": [{"path": "cards/x.cdb", "size": "big"}]},
    ],
)
def test_hostile_source_lists_are_update_errors(home: Path, tmp_path: Path, doc: object) -> None:
    with serve() as srv:
        srv.files["/sources.json"] = json.dumps(doc).encode()
        srv.files["/cards/x.cdb"] = b"x"
        with pytest.raises(UpdateError) as info:
            update_from_upstream(srv.url + "/sources.json", home=home, options=FAST)
        assert "sources.json" in str(info.value)


@pytest.mark.parametrize("where", ["manifest", "file", "zip", "list"])
def test_fifo_in_a_local_source_does_not_block(home: Path, tmp_path: Path, where: str) -> None:
    import os
    import shutil

    folder = tmp_path / "bundle"
    Dataset.bundled().export(folder)
    if where == "manifest":
        (folder / "manifest.json").unlink()
        os.mkfifo(folder / "manifest.json")
        source: Path = folder
    elif where == "file":
        (folder / "names.json").unlink()
        os.mkfifo(folder / "names.json")
        source = folder
    elif where == "zip":
        shutil.rmtree(folder)
        source = tmp_path / "b.zip"
        os.mkfifo(source)
    else:
        source = tmp_path / "sources.json"
        os.mkfifo(source)
        with pytest.raises(UpdateError, match="regular file"):
            update_from_upstream(source, home=home, options=FAST)
        return
    with pytest.raises(UpdateError, match="regular file"):
        update(source, home=home, options=FAST, force=True)


def test_bundle_zip_with_a_duplicate_name_is_refused(home: Path, tmp_path: Path) -> None:
    import warnings
    import zipfile

    folder = tmp_path / "bundle"
    Dataset.bundled().export(folder)
    archive = tmp_path / "b.zip"
    with warnings.catch_warnings(), zipfile.ZipFile(archive, "w") as zf:
        warnings.simplefilter("ignore")
        for p in sorted(folder.iterdir()):
            zf.write(p, p.name)
        zf.writestr("names.json", b"{}")
    with pytest.raises(UpdateError, match="twice"):
        update(archive, home=home, options=FAST, force=True)
