"""Data updates against a real HTTP server on 127.0.0.1: good updates, every failure, kills.

The fixture bundles are real: the bundled data exported with ``Dataset.export`` and given a new
manifest (another as-of date, so another fingerprint). Bundle A is installed first; each test
then tries to install bundle B and checks what is active afterwards and that it is whole.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from deckcheck.data.bundle import write_manifest
from deckcheck.data.dataset import DataOrigin, Dataset
from deckcheck.data.pack import PACK_FILE
from deckcheck.data.store import POINTER, open_installed, read_pointer, reset
from deckcheck.data.update import FetchOptions, UpdateStatus, update
from deckcheck.error import OfflineError, UpdateError

from .bundle_server import BundleServer, serve
from .conftest import ROOT

FILES = (
    "manifest.json",
    "cards.jsonl",
    "names.json",
    "names-intl.jsonl",
    "banlists.json",
    "formats.toml",
)
FAST = FetchOptions(timeout=0.5, retries=0, backoff=0.01, deadline=5.0)


def make_bundle(folder: Path, as_of: date) -> Dataset:
    """A real bundle: the bundled data with a manifest of another as-of date."""
    Dataset.bundled().export(folder)
    write_manifest(folder, as_of)
    return Dataset.open(folder)


@pytest.fixture(scope="session")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Bundle A (as of 2026-09-01) and bundle B (as of 2026-11-15)."""
    root = tmp_path_factory.mktemp("bundles")
    return {
        "a": make_bundle(root / "a", date(2026, 9, 1)).folder,
        "b": make_bundle(root / "b", date(2026, 11, 15)).folder,
    }


@pytest.fixture()
def with_a(home: Path, bundles: dict[str, Path]) -> Dataset:
    """Bundle A installed (from its folder) and active."""
    result = update(bundles["a"], home=home)
    assert result.status is UpdateStatus.UPDATED
    return result.data


@pytest.fixture()
def server(bundles: dict[str, Path]) -> Iterator[BundleServer]:
    """A server with bundle B under /b/ (and A under /a/)."""
    with serve() as srv:
        for key in ("a", "b"):
            for name in FILES:
                srv.files[f"/{key}/{name}"] = (bundles[key] / name).read_bytes()
        yield srv


def snapshot(home: Path) -> dict[str, Any]:
    """What is installed and active, checked in full (every sha256)."""
    data, problem = open_installed(home, full=True)
    return {
        "installed": data.fingerprint if data is not None else None,
        "problem": problem,
        "active": Dataset.reload_active().fingerprint,
        "entries": sorted(p.name for p in home.iterdir() if p.name != "http.json"),
    }


def fingerprint_of(folder: Path) -> str:
    """The fingerprint of a bundle folder."""
    return Dataset.open(folder).fingerprint


# -- good updates ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_good_update_becomes_active(
    cli: Callable[..., Any], with_a: Dataset, server: BundleServer, bundles: dict[str, Path]
) -> None:
    res = cli("data", "update", "--source", server.url + "/b/")
    assert res.code == 0, res.stderr
    assert "updated" in res.stdout and "2026-11-15" in res.stdout
    assert fingerprint_of(bundles["b"])[:16] in res.stdout
    status = json.loads(cli("data", "status", "--output", "json").stdout)
    assert status["origin"] == "installed"
    assert status["fingerprint"] == fingerprint_of(bundles["b"])
    assert status["as_of"] == "2026-11-15"
    assert status["source"] == server.url + "/b/"
    assert status["installed"]["valid"] is True
    # every entry point now checks against B
    out = cli("validate", str(ROOT / "examples" / "tcg-legal.ydk"), "--output", "json")
    assert json.loads(out.stdout)["data"]["fingerprint"] == fingerprint_of(bundles["b"])


@pytest.mark.slow
def test_update_keeps_the_previous_bundle_and_prunes_older(
    home: Path, bundles: dict[str, Path], server: BundleServer, tmp_path: Path
) -> None:
    update(bundles["a"], home=home)
    c = make_bundle(tmp_path / "c", date(2026, 12, 1)).folder
    update(server.url + "/b/", home=home, options=FAST)
    first = [p.name for p in home.glob("bundle-*")]
    assert len(first) == 2  # B in use, A kept for processes still reading it
    update(c, home=home)
    rec = read_pointer(home)
    assert rec is not None and rec.fingerprint == fingerprint_of(c)
    left = sorted(p.name for p in home.glob("bundle-*"))
    assert len(left) == 2 and rec.previous in left and rec.folder.name in left


@pytest.mark.slow
def test_manifest_url_works_too(home: Path, server: BundleServer, bundles: dict[str, Path]) -> None:
    result = update(server.url + "/b/manifest.json", home=home, options=FAST)
    assert result.status is UpdateStatus.UPDATED
    assert result.data.fingerprint == fingerprint_of(bundles["b"])


@pytest.mark.slow
def test_conditional_request_answers_not_modified(
    cli: Callable[..., Any], with_a: Dataset, server: BundleServer
) -> None:
    assert cli("data", "update", "--source", server.url + "/b").code == 0
    res = cli("data", "update", "--source", server.url + "/b")
    assert res.code == 0 and "up to date" in res.stdout
    path, headers = server.requests[-1]
    assert path == "/b/manifest.json"
    assert headers.get("if-none-match") and headers.get("if-modified-since")
    assert server.paths_requested().count("/b/cards.jsonl") == 1  # nothing fetched again
    # without a source, the last one is used
    res = cli("data", "update")
    assert res.code == 0 and "up to date" in res.stdout
    assert server.paths_requested()[-1] == "/b/manifest.json"


@pytest.mark.slow
def test_same_data_is_not_fetched_again(home: Path, server: BundleServer) -> None:
    update(server.url + "/b/", home=home, options=FAST)
    n = len(server.requests)
    result = update(server.url + "/b/", home=home, options=FAST, force=False)
    assert result.status in (UpdateStatus.NOT_MODIFIED, UpdateStatus.CURRENT)
    assert len(server.requests) == n + 1  # only the manifest


@pytest.mark.slow
def test_retry_after_a_dropped_connection_succeeds(
    home: Path, server: BundleServer, bundles: dict[str, Path]
) -> None:
    server.faults["/b/cards.jsonl"] = ["drop", "503"]
    opts = FetchOptions(timeout=2.0, retries=2, backoff=0.01)
    result = update(server.url + "/b/", home=home, options=opts)
    assert result.status is UpdateStatus.UPDATED
    assert server.paths_requested().count("/b/cards.jsonl") == 3
    assert snapshot(home)["installed"] == fingerprint_of(bundles["b"])


@pytest.mark.slow
def test_progress_is_reported(home: Path, server: BundleServer) -> None:
    seen: list[tuple[str, int, int | None]] = []
    update(server.url + "/b/", home=home, options=FAST, progress=lambda *a: seen.append(a))
    names = {name for name, _, _ in seen}
    assert {"cards.jsonl", "names.json", "banlists.json", "formats.toml"} <= names
    done = [d for name, d, total in seen if name == "cards.jsonl" and d == total]
    assert done, "the last call for a file reports all its bytes"


# -- failures leave the previous data active and whole --------------------------------------------

FAILURES = [
    # (fault queued on the path, path under /b/, extra CLI options, words expected on stderr)
    # (--timeout is also the deadline of each whole file: either its read timeout or the
    # deadline may fire first, and both name it)
    ("drop", "cards.jsonl", [], "broke off"),
    ("drop", "manifest.json", [], "broke off"),
    ("slow", "names.json", ["--timeout", "0.3"], "0.3 s"),
    ("slow", "manifest.json", ["--timeout", "0.3"], "0.3 s"),
    ("truncate", "banlists.json", [], "broke off"),
    ("unsized-truncate", "banlists.json", [], "does not match the manifest"),
    ("corrupt", "cards.jsonl", [], "does not match the manifest"),
    ("huge", "cards.jsonl", [], "over the"),
    ("unsized", "cards.jsonl", ["--max-size", "1"], "over the 1,048,576-byte cap"),
    ("oversized", "cards.jsonl", ["--max-size", "1"], "over the 1,048,576-byte cap"),
    ("404", "names.json", [], "HTTP 404"),
    ("403", "manifest.json", [], "HTTP 403"),
    ("500", "formats.toml", [], "HTTP 500"),
    ("503", "manifest.json", [], "HTTP 503"),
    ("429", "cards.jsonl", [], "HTTP 429"),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("fault", "name", "extra", "words"), FAILURES, ids=[f"{f}-{n}" for f, n, _, _ in FAILURES]
)
def test_failed_update_leaves_previous_data(
    cli: Callable[..., Any],
    with_a: Dataset,
    server: BundleServer,
    fault: str,
    name: str,
    extra: list[str],
    words: str,
) -> None:
    home = Path(os.environ["DECKCHECK_HOME"])
    before = snapshot(home)
    assert before["installed"] == with_a.fingerprint == before["active"]
    server.slow_seconds = 1.5
    path = f"/b/{name}"
    if fault == "unsized-truncate":  # no Content-Length: a short body is only caught by sha256
        body = server.files[path]
        server.files[path] = body[: len(body) // 2]
        server.faults[path] = ["unsized"]
    elif fault != "oversized":
        server.faults[path] = [fault]
    res = cli("data", "update", "--source", server.url + "/b/", "--retries", "0", *extra)
    assert res.code == 2, res.stdout
    assert "update failed" in res.stderr and words in res.stderr, res.stderr
    assert "unchanged" in res.stderr
    assert "Traceback" not in res.stderr
    assert snapshot(home) == before


@pytest.mark.slow
def test_wrong_checksum_in_manifest(
    cli: Callable[..., Any], with_a: Dataset, server: BundleServer
) -> None:
    home = Path(os.environ["DECKCHECK_HOME"])
    before = snapshot(home)
    doc = json.loads(server.files["/b/manifest.json"])
    doc["files"]["names.json"] = "0" * 64
    server.files["/b/manifest.json"] = json.dumps(doc).encode()
    res = cli("data", "update", "--source", server.url + "/b/", "--retries", "0")
    assert res.code == 2
    assert "names.json" in res.stderr and "does not match the manifest" in res.stderr
    assert snapshot(home) == before


@pytest.mark.slow
@pytest.mark.parametrize(
    ("manifest", "words"),
    [
        (b"<html>not json</html>", "not JSON"),
        (b'{"schema": 99, "as_of": "2026-11-15", "files": {}}', "bundle schema 99"),
        (b'{"schema": 1, "as_of": "2026-11-15", "files": {"cards.jsonl": "00"}}', "must list"),
    ],
    ids=["not-json", "schema", "files-missing"],
)
def test_bad_manifest_is_refused(
    cli: Callable[..., Any], with_a: Dataset, server: BundleServer, manifest: bytes, words: str
) -> None:
    home = Path(os.environ["DECKCHECK_HOME"])
    before = snapshot(home)
    server.files["/b/manifest.json"] = manifest
    res = cli("data", "update", "--source", server.url + "/b/")
    assert res.code == 2 and words in res.stderr, res.stderr
    assert snapshot(home) == before


def test_manifest_cannot_write_outside_the_bundle(
    home: Path, server: BundleServer, tmp_path: Path
) -> None:
    doc = json.loads(server.files["/b/manifest.json"])
    doc["files"]["../../escape.txt"] = "0" * 64
    server.files["/b/manifest.json"] = json.dumps(doc).encode()
    with pytest.raises(UpdateError, match="bad file name"):
        update(server.url + "/b/", home=home, options=FAST)
    assert not (tmp_path / "escape.txt").exists()
    assert not any(path.endswith("escape.txt") for path in server.paths_requested())
    assert read_pointer(home) is None


@pytest.mark.slow
def test_bundle_that_does_not_load_is_refused(
    cli: Callable[..., Any], with_a: Dataset, server: BundleServer, tmp_path: Path
) -> None:
    """Checksums can be right and the data still broken: it must load before it is installed."""
    home = Path(os.environ["DECKCHECK_HOME"])
    before = snapshot(home)
    broken = tmp_path / "broken"
    Dataset.bundled().export(broken)
    (broken / "banlists.json").write_text('{"lists": [{"family": "tcg"}]}', encoding="utf-8")
    write_manifest(broken, date(2026, 11, 20))
    for name in FILES:
        server.files[f"/broken/{name}"] = (broken / name).read_bytes()
    res = cli("data", "update", "--source", server.url + "/broken/")
    assert res.code == 2 and "does not load" in res.stderr, res.stderr
    assert snapshot(home) == before


@pytest.mark.slow
def test_older_bundle_needs_force(
    cli: Callable[..., Any], home: Path, server: BundleServer, bundles: dict[str, Path]
) -> None:
    assert cli("data", "update", "--source", server.url + "/b/").code == 0
    res = cli("data", "update", "--source", server.url + "/a/")
    assert res.code == 2 and "older than the data in use" in res.stderr
    assert snapshot(home)["installed"] == fingerprint_of(bundles["b"])
    res = cli("data", "update", "--source", server.url + "/a/", "--force")
    assert res.code == 0, res.stderr
    assert snapshot(home)["active"] == fingerprint_of(bundles["a"])


@pytest.mark.slow
def test_unreachable_server(cli: Callable[..., Any], with_a: Dataset) -> None:
    home = Path(os.environ["DECKCHECK_HOME"])
    before = snapshot(home)
    with serve() as srv:
        url = srv.url  # a port nobody listens on once the server is gone
    res = cli("data", "update", "--source", url + "/b/", "--retries", "0", "--timeout", "1")
    assert res.code == 2 and "cannot fetch" in res.stderr
    assert snapshot(home) == before


def test_no_source_tries_the_published_bundle(
    cli: Callable[..., Any], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DECKCHECK_OFFLINE", "1")
    res = cli("data", "update")
    assert res.code == 2
    url = "https://github.com/deckcheck/deckcheck/releases/latest/download/deckcheck-data.zip"
    assert url in res.stderr and "network access is disabled" in res.stderr


@pytest.mark.slow
def test_trickling_server_hits_the_deadline(home: Path, server: BundleServer) -> None:
    server.slow_seconds = 0.05
    server.faults["/b/formats.toml"] = ["trickle"]
    opts = FetchOptions(timeout=1.0, retries=0, deadline=0.5)
    with pytest.raises(UpdateError, match="deadline"):
        update(server.url + "/b/", home=home, options=opts)
    assert read_pointer(home) is None
    assert Dataset.reload_active() is Dataset.bundled()


# -- offline --------------------------------------------------------------------------------------


@pytest.mark.slow
def test_offline_makes_no_request(
    cli: Callable[..., Any], with_a: Dataset, server: BundleServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DECKCHECK_OFFLINE", "1")
    res = cli("data", "update", "--source", server.url + "/b/")
    assert res.code == 2 and "network access is disabled" in res.stderr
    monkeypatch.setenv("DECKCHECK_OFFLINE", "0")
    res = cli("--offline", "data", "update", "--source", server.url + "/b/")
    assert res.code == 2 and "network access is disabled" in res.stderr
    assert server.requests == []
    assert json.loads(cli("data", "status", "-o", "json").stdout)["offline"] is True


def test_offline_still_installs_from_a_folder(
    home: Path, bundles: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DECKCHECK_OFFLINE", "1")
    result = update(bundles["b"], home=home)
    assert result.status is UpdateStatus.UPDATED
    with pytest.raises(OfflineError):
        update("https://example.invalid/bundle/", home=home)


# -- status, export, reset ------------------------------------------------------------------------


def test_status_of_the_bundled_data(cli: Callable[..., Any], home: Path) -> None:
    res = cli("data", "status")
    assert res.code == 0
    assert res.stdout.startswith("active data: bundled, as of ")
    assert Dataset.bundled().fingerprint in res.stdout
    doc = json.loads(cli("data", "status", "--output", "json").stdout)
    assert doc["origin"] == "bundled" and doc["source"] == "bundled"
    assert doc["as_of"] == Dataset.bundled().as_of.isoformat()
    assert doc["fingerprint"] == Dataset.bundled().fingerprint
    assert doc["installed"] is None and doc["problem"] is None
    assert doc["data_home"] == str(home)


def test_export_then_update_from_the_folder(
    cli: Callable[..., Any], home: Path, tmp_path: Path
) -> None:
    out = tmp_path / "export"
    res = cli("data", "export", str(out))
    assert res.code == 0, res.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)
    assert fingerprint_of(out) == Dataset.bundled().fingerprint
    Dataset.open(out).verify()
    res = cli("data", "export", str(out))  # not empty any more
    assert res.code == 2 and "not an empty folder" in res.stderr
    res = cli("data", "update", "--source", str(out))
    assert res.code == 0 and "holds the data in use" in res.stdout


@pytest.mark.slow
def test_reset_returns_to_the_bundled_data(
    cli: Callable[..., Any], with_a: Dataset, bundles: dict[str, Path]
) -> None:
    home = Path(os.environ["DECKCHECK_HOME"])
    assert Dataset.active().fingerprint == fingerprint_of(bundles["a"])
    res = cli("data", "reset")
    assert res.code == 0 and "bundled" in res.stdout
    assert Dataset.active() is Dataset.bundled()
    assert not (home / POINTER).exists() and not list(home.glob("bundle-*"))
    res = cli("data", "reset")
    assert res.code == 0 and "nothing installed" in res.stdout


def test_damaged_install_falls_back_to_bundled(cli: Callable[..., Any], with_a: Dataset) -> None:
    home = Path(os.environ["DECKCHECK_HOME"])
    rec = read_pointer(home)
    assert rec is not None
    cards = rec.folder / "cards.jsonl"
    cards.write_bytes(cards.read_bytes()[:-100])
    assert Dataset.reload_active() is Dataset.bundled()
    assert Dataset.active_origin()[0] is DataOrigin.BUNDLED
    res = cli("data", "status")
    assert res.code == 0 and "active data: bundled" in res.stdout
    assert "does not match the manifest" in res.stdout
    doc = json.loads(cli("data", "status", "-o", "json").stdout)
    assert doc["installed"]["valid"] is False and doc["problem"]
    # a deck still validates (on the bundled data)
    assert cli("validate", str(ROOT / "examples" / "tcg-legal.ydk")).code == 0


def test_corrupt_pointer_falls_back_to_bundled(cli: Callable[..., Any], with_a: Dataset) -> None:
    home = Path(os.environ["DECKCHECK_HOME"])
    (home / POINTER).write_text("{not json", encoding="utf-8")
    assert Dataset.reload_active() is Dataset.bundled()
    res = cli("data", "status", "-o", "json")
    assert res.code == 0 and "not a valid record" in json.loads(res.stdout)["problem"]


@pytest.mark.slow
def test_installed_older_than_bundled_is_not_used(home: Path, tmp_path: Path) -> None:
    old = make_bundle(tmp_path / "old", date(2025, 1, 1)).folder
    update(old, home=home, force=True)
    assert open_installed(home)[0] is not None
    assert Dataset.reload_active() is Dataset.bundled()
    origin, note = Dataset.active_origin()
    assert origin is DataOrigin.BUNDLED and note is not None and "older" in note


def test_environment_folder_wins(
    home: Path, bundles: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    update(bundles["b"], home=home)
    monkeypatch.setenv("DECKCHECK_DATA", str(bundles["a"]))
    assert Dataset.reload_active().fingerprint == fingerprint_of(bundles["a"])
    assert Dataset.active_origin()[0] is DataOrigin.ENVIRONMENT
    monkeypatch.delenv("DECKCHECK_DATA")
    assert Dataset.reload_active().fingerprint == fingerprint_of(bundles["b"])


@pytest.mark.slow
def test_reload_sees_an_update_made_by_another_process(
    home: Path, bundles: dict[str, Path]
) -> None:
    """What a long-running service does on SIGHUP: Dataset.reload_active()."""
    assert Dataset.active() is Dataset.bundled()
    proc = subprocess.run(
        [sys.executable, "-m", "deckcheck", "data", "update", "--source", str(bundles["b"])],
        capture_output=True,
        text=True,
        env=os.environ | {"DECKCHECK_HOME": str(home)},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert Dataset.active() is Dataset.bundled()  # resolved once per process...
    assert Dataset.reload_active().fingerprint == fingerprint_of(bundles["b"])  # ...until reload


def test_one_update_at_a_time(home: Path, bundles: dict[str, Path]) -> None:
    from deckcheck.data.store import locked

    with locked(home), pytest.raises(UpdateError, match="another deckcheck"):
        update(bundles["b"], home=home)
    assert read_pointer(home) is None


# -- killed midway --------------------------------------------------------------------------------


def _run_update(home: Path, source: str) -> subprocess.Popen[bytes]:
    """The update in a process of its own (without the summary it prints after installing, so
    the kill points spread over download, verify, load and install)."""
    argv = [sys.executable, "-m", "deckcheck", "data", "update", "--no-summary"]
    return subprocess.Popen(
        [*argv, "--source", source],
        env=os.environ | {"DECKCHECK_HOME": str(home)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_update_killed_midway_leaves_data_whole(
    home: Path, bundles: dict[str, Path], tmp_path: Path, sig: signal.Signals
) -> None:
    """Kill updates at points spread over their whole run (download, verify, load, install)."""
    update(bundles["a"], home=home)
    a, b = fingerprint_of(bundles["a"]), fingerprint_of(bundles["b"])
    start = time.monotonic()
    proc = _run_update(home, str(bundles["b"]))
    assert proc.wait(60) == 0
    took = time.monotonic() - start
    outcomes = set()
    for fraction in (0.2, 0.4, 0.55, 0.65, 0.75, 0.82, 0.88, 0.94, 1.0, 1.1):
        reset(home)
        update(bundles["a"], home=home)
        proc = _run_update(home, str(bundles["b"]))
        time.sleep(took * fraction)
        proc.send_signal(sig)
        proc.wait(60)
        state = snapshot(home)
        assert state["problem"] is None, state
        assert state["installed"] in (a, b), state
        assert state["active"] == state["installed"]
        outcomes.add(state["installed"])
    assert a in outcomes  # at least one kill landed before the switch
    # and the next update completes, clearing what the killed ones left behind
    update(bundles["b"], home=home)
    left = sorted(p.name for p in home.iterdir())
    assert not [n for n in left if n.startswith("staging-")]
    assert snapshot(home)["installed"] == b


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_stopped_update_cleans_up(
    home: Path, server: BundleServer, bundles: dict[str, Path], sig: signal.Signals
) -> None:
    """SIGTERM or Ctrl-C mid-download: exit 130, the staging folder removed, data unchanged."""
    update(bundles["a"], home=home)
    server.slow_seconds = 30
    server.faults["/b/names.json"] = ["slow"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "deckcheck", "data", "update", "--source", server.url + "/b/"],
        env=os.environ | {"DECKCHECK_HOME": str(home)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while "/b/names.json" not in server.paths_requested() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert list(home.glob("staging-*")), "the update is under way"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "unchanged" in err
    assert not list(home.glob("staging-*"))
    assert snapshot(home)["installed"] == fingerprint_of(bundles["a"])


class _Crash(BaseException):
    """Stands for the process dying at one step of the install."""


@pytest.mark.slow
@pytest.mark.parametrize("step", range(5))
def test_crash_at_each_step_of_the_install(
    home: Path, bundles: dict[str, Path], monkeypatch: pytest.MonkeyPatch, step: int
) -> None:
    """Die at each file-system change of the install in turn: data stays A or B, whole."""
    import deckcheck.data.store as store

    update(bundles["a"], home=home)
    a, b = fingerprint_of(bundles["a"]), fingerprint_of(bundles["b"])
    calls = {"n": 0}

    def dying(real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kw: Any) -> Any:
            calls["n"] += 1
            if calls["n"] == step + 1:
                raise _Crash
            return real(*args, **kw)

        return call

    # the install's steps: write the pack into the staging folder (renamed into place), flush
    # the staged files, rename the folder into place, replace the pointer, remove old bundles
    monkeypatch.setattr(store, "_fsync_tree", dying(store._fsync_tree))
    monkeypatch.setattr(store.os, "replace", dying(os.replace))
    monkeypatch.setattr(store, "prune", dying(store.prune))
    with pytest.raises(_Crash):
        update(bundles["b"], home=home)
    monkeypatch.undo()
    monkeypatch.setenv("DECKCHECK_HOME", str(home))
    state = snapshot(home)
    assert state["problem"] is None and state["installed"] in (a, b), state
    assert state["installed"] == (b if step >= 4 else a)
    update(bundles["b"], home=home, force=True)
    assert snapshot(home)["installed"] == b


@pytest.mark.slow
def test_update_says_when_the_installed_data_is_not_in_use(
    cli: Callable[..., Any],
    home: Path,
    bundles: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    old = make_bundle(tmp_path / "old", date(2025, 1, 1)).folder
    res = cli("data", "update", "--source", str(old), "--force")
    assert res.code == 0 and "not in use" in res.stderr and "older" in res.stderr
    monkeypatch.setenv("DECKCHECK_DATA", str(bundles["a"]))
    Dataset.reload_active()
    res = cli("data", "update", "--source", str(bundles["b"]))
    assert res.code == 0 and "DECKCHECK_DATA" in res.stderr
    assert Dataset.active().fingerprint == fingerprint_of(bundles["a"])


def test_broken_name_index_is_refused(home: Path, tmp_path: Path) -> None:
    broken = tmp_path / "names"
    Dataset.bundled().export(broken)
    (broken / "names.json").write_text("{broken", encoding="utf-8")
    write_manifest(broken, date(2026, 11, 20))
    with pytest.raises(UpdateError, match="does not load"):
        update(broken, home=home)
    assert read_pointer(home) is None


def test_a_bad_row_of_a_list_no_check_asks_for_is_refused(home: Path, tmp_path: Path) -> None:
    """Lists are built from their rows when asked for: installing still builds every one."""
    broken = tmp_path / "row"
    Dataset.bundled().export(broken)
    doc = json.loads((broken / "banlists.json").read_text(encoding="utf-8"))
    goat = next(row for row in doc["lists"] if row["family"] == "goat")
    goat["values"] = goat["values"][:-1]  # one value short of its codes
    (broken / "banlists.json").write_text(json.dumps(doc), encoding="utf-8")
    write_manifest(broken, date(2026, 11, 20))
    with pytest.raises(UpdateError, match=r"does not load.*malformed ban-list bundle"):
        update(broken, home=home)
    assert read_pointer(home) is None


# -- single-file bundles (.zip) --------------------------------------------------------------------


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def _members(folder: Path, prefix: str = "") -> dict[str, bytes]:
    return {prefix + name: (folder / name).read_bytes() for name in FILES}


@pytest.mark.slow
def test_zip_bundle_over_http_and_from_a_file(
    cli: Callable[..., Any], home: Path, bundles: dict[str, Path], tmp_path: Path
) -> None:
    archive = tmp_path / "b.zip"
    res = cli("data", "export", str(archive))  # the bundled data, as a zip
    assert res.code == 0 and archive.is_file()
    assert cli("data", "update", "--source", str(archive)).stdout.startswith("up to date")
    b_zip = Dataset.open(bundles["b"]).export(tmp_path / "b2.zip")
    with serve() as srv:
        srv.files["/data/b.zip"] = b_zip.read_bytes()
        res = cli("data", "update", "--source", srv.url + "/data/b.zip")
        assert res.code == 0, res.stderr
        assert snapshot(home)["installed"] == fingerprint_of(bundles["b"])
        res = cli("data", "update", "--source", srv.url + "/data/b.zip")
        assert res.code == 0 and "has not changed" in res.stdout  # 304 to the conditional GET
        assert srv.requests[-1][1].get("if-none-match")


@pytest.mark.slow
def test_zip_with_one_top_folder(home: Path, bundles: dict[str, Path], tmp_path: Path) -> None:
    archive = _zip(tmp_path / "b.zip", _members(bundles["b"], "deckcheck-data-2026-11-15/"))
    assert update(archive, home=home).status is UpdateStatus.UPDATED


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["truncated", "not-a-zip", "wrong-member", "missing-member"])
def test_damaged_zip_changes_nothing(
    cli: Callable[..., Any],
    with_a: Dataset,
    bundles: dict[str, Path],
    tmp_path: Path,
    damage: str,
) -> None:
    home = Path(os.environ["DECKCHECK_HOME"])
    before = snapshot(home)
    members = _members(bundles["b"])
    if damage == "wrong-member":
        members["formats.toml"] += b"\n# changed\n"
    if damage == "missing-member":
        del members["names.json"]
    archive = _zip(tmp_path / "b.zip", members)
    if damage == "truncated":
        archive.write_bytes(archive.read_bytes()[: archive.stat().st_size // 2])
    if damage == "not-a-zip":
        archive.write_bytes(b"<html>502 Bad Gateway</html>")
    res = cli("data", "update", "--source", str(archive))
    assert res.code == 2 and "update failed" in res.stderr, res.stderr
    words = {
        "truncated": "zip",
        "not-a-zip": "zip",
        "wrong-member": "does not match",
        "missing-member": "missing",
    }
    assert words[damage] in res.stderr
    assert snapshot(home) == before


@pytest.mark.slow
def test_zip_cannot_write_outside_the_bundle(
    home: Path, bundles: dict[str, Path], tmp_path: Path
) -> None:
    members = _members(bundles["b"]) | {"../escape.txt": b"x", "/tmp/abs.txt": b"x"}
    archive = _zip(tmp_path / "b.zip", members)
    assert update(archive, home=home).status is UpdateStatus.UPDATED
    assert not (tmp_path / "escape.txt").exists() and not (home / "escape.txt").exists()
    rec = read_pointer(home)
    installed = sorted(p.name for p in rec.folder.iterdir()) if rec is not None else []
    assert installed == sorted([*FILES, PACK_FILE])  # the pack is made by the install


@pytest.mark.slow
def test_zip_bomb_hits_the_size_cap(home: Path, bundles: dict[str, Path], tmp_path: Path) -> None:
    """A member that inflates far past the cap stops at the cap, whatever the archive claims."""
    import hashlib

    members = _members(bundles["b"])
    big = bytes(20 << 20)  # 20 MiB of zeros: a few KiB compressed
    members["cards.jsonl"] = big
    doc = json.loads(members["manifest.json"])
    doc["files"]["cards.jsonl"] = hashlib.sha256(big).hexdigest()
    members["manifest.json"] = json.dumps(doc).encode()
    archive = _zip(tmp_path / "bomb.zip", members)
    opts = FetchOptions(max_bytes=4 << 20)
    assert archive.stat().st_size < opts.max_bytes  # the archive is under the cap; a member is not
    with pytest.raises(UpdateError, match="over the 4,194,304-byte cap"):
        update(archive, home=home, options=opts)
    assert read_pointer(home) is None
