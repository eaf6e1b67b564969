"""Fresh data without a release: the built-in source list against a mirror on 127.0.0.1.

The mirror is the shared data laid out as the upstream repositories serve it; the tests then
change it as upstream publishes (a new list, a new card, a changed date) or break it (a dropped
connection, a slow server, a truncated or corrupt file, a list that no longer parses, a card
file half the size, a file gone, a process killed mid-way). Nothing touches the internet.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from deckcheck.data.dataset import Dataset
from deckcheck.data.fetch import CACHE, STATE, load_state
from deckcheck.data.source_list import load
from deckcheck.data.store import read_pointer

from .bundle_server import BundleServer, serve
from .conftest import SHARED_DATA
from .fresh_mirror import (
    CDB,
    DATED_CARD,
    NEW_CARD,
    NEW_CARD_NAME,
    NEW_LIST_DATE,
    NEW_TCG_DATE,
    RAW,
    VECTORS,
    make_mirror,
    publish_changes,
)
from .wheel_support import wheel_venv

# every test here builds mirrors, bundles or a wheel of the project (tens of seconds each)
pytestmark = [
    pytest.mark.skipif(
        not (SHARED_DATA / "cards").is_dir(), reason="needs the shared source data (../shared/data)"
    ),
    pytest.mark.slow,
]


@pytest.fixture(scope="module")
def mirrors(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The mirror of the shared data, and a copy changed as upstream publishes."""
    root = tmp_path_factory.mktemp("mirror")
    plain = make_mirror(SHARED_DATA, root / "plain")
    changed = root / "changed"
    shutil.copytree(plain, changed, copy_function=os.link)
    publish_changes(changed)
    return plain, changed


@pytest.fixture(scope="module")
def server(mirrors: tuple[Path, Path]) -> Iterator[BundleServer]:
    """The plain mirror served on 127.0.0.1 (a test may point ``root`` at the changed one)."""
    with serve(mirrors[0]) as srv:
        yield srv


@pytest.fixture(scope="module")
def first_home(tmp_path_factory: pytest.TempPathFactory, server: BundleServer) -> Path:
    """A data folder after one update from the plain mirror (the upstream files fetched once)."""
    from deckcheck.data.rebuild import update_builtin

    home = tmp_path_factory.mktemp("first") / "home"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DECKCHECK_HOME", str(home))
        mp.delenv("DECKCHECK_OFFLINE", raising=False)
        Dataset.reload_active()
        update_builtin(server.url + "/", home=home)
    Dataset.reload_active()
    return home


@pytest.fixture()
def home(
    first_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: BundleServer
) -> Iterator[Path]:
    """A copy of the data folder after the first update (hard links: nothing is changed in
    place), as this test's DECKCHECK_HOME; the server back on the plain mirror after."""
    folder = tmp_path / "home"
    shutil.copytree(first_home, folder, copy_function=os.link)
    monkeypatch.setenv("DECKCHECK_HOME", str(folder))
    monkeypatch.delenv("DECKCHECK_OFFLINE", raising=False)
    root = server.root
    server.requests.clear()
    server.answers.clear()
    Dataset.reload_active()
    yield folder
    server.root = root
    server.faults.clear()
    server.files.clear()
    monkeypatch.undo()
    Dataset.reload_active()


def _fingerprint(home: Path) -> str:
    rec = read_pointer(home)
    assert rec is not None
    return rec.fingerprint


@pytest.mark.slow
def test_first_fetch_builds_the_same_data_as_a_local_build(
    first_home: Path, server: BundleServer, tmp_path_factory: pytest.TempPathFactory
) -> None:
    from deckcheck.data.bundle import build
    from deckcheck.data.dataset import file_sha256

    rec = read_pointer(first_home)
    assert rec is not None and rec.source == "upstream:" + server.url + "/"
    installed = Dataset.open(rec.folder)
    assert installed.as_of.isoformat() == "2026-11-15"  # the mirror's Last-Modified
    # the same as a local build of the same sources on the same date (release windows that
    # Konami's current status closes end on the data's date)
    local = build(SHARED_DATA, tmp_path_factory.mktemp("local") / "b", installed.as_of)
    for name in ("cards.jsonl", "names.json", "banlists.json"):
        assert installed.manifest["files"][name] == file_sha256(local / name), name
    state = load_state(first_home)
    assert len(state["files"]) == len(load().entries)  # each follow target is listed too


@pytest.mark.slow
def test_second_run_fetches_nothing(
    cli: Callable[..., Any], home: Path, server: BundleServer
) -> None:
    before = _fingerprint(home)
    res = cli("data", "update", "--from-upstream", "--source", server.url + "/")
    assert res.code == 0, res.stderr
    assert "up to date" in res.stdout
    statuses = {code for _, code in server.answers}
    assert statuses == {304}, statuses
    sources = load()
    asked = {path for path, _ in server.answers}
    pinned = sum(e.pinned for e in sources.entries)
    assert len(asked) == len(sources.entries) - pinned  # every file on a default branch
    assert _fingerprint(home) == before
    assert all(h.get("if-none-match") for _, h in server.requests)


@pytest.mark.slow
def test_same_bytes_again_are_no_change(
    cli: Callable[..., Any], home: Path, server: BundleServer
) -> None:
    """A server that ignores the conditional request sends the same bytes: nothing to build."""
    before = _fingerprint(home)
    server.faults["/" + CDB] = ["unconditional"]
    res = cli("data", "update", "--from-upstream", "--source", server.url + "/")
    assert res.code == 0, res.stderr
    assert "up to date" in res.stdout and "0 files changed" in res.stderr
    assert ("/" + CDB, 200) in server.answers
    assert _fingerprint(home) == before


@pytest.mark.slow
def test_published_changes_are_installed_and_named(
    cli: Callable[..., Any],
    home: Path,
    server: BundleServer,
    mirrors: tuple[Path, Path],
    tmp_path: Path,
) -> None:
    server.root = mirrors[1]
    res = cli("data", "update", "--from-upstream", "--source", server.url + "/")
    assert res.code == 0, res.stderr
    assert "updated:" in res.stdout
    fetched = sorted(p for p, code in server.answers if code == 200)
    assert fetched == sorted(
        "/" + p
        for p in (
            CDB,
            RAW,
            f"{VECTORS}/current.vector.json",
            f"{VECTORS}/{NEW_LIST_DATE}.vector.json",
            "deckcheck/deckcheck/releases/download/sources/ygojson-cards.min.jsonl",
        )
    )
    # the summary printed after the update names the changes
    assert "new list tcg 2026-11-01" in res.stdout and NEW_CARD_NAME in res.stdout
    # data diff (the bundle the update replaced against the data in use): exactly the changes
    out = json.loads(cli("data", "diff", "--last", "-o", "json").stdout)
    assert [(c["family"], c["effective"], c["new"]) for c in out["lists"]] == [
        ("tcg", NEW_LIST_DATE, True)
    ]
    change = out["lists"][0]["changes"]
    assert [(c["passcode"], c["old"], c["new"]) for c in change] == [
        (80181649, "Limited", "Forbidden")
    ]
    assert out["new_cards"] == {
        "ocg": [{"passcode": NEW_CARD, "name": NEW_CARD_NAME}],
        "tcg": [{"passcode": NEW_CARD, "name": NEW_CARD_NAME}],
    }
    assert [(d["passcode"], d["region"], d["old"], d["new"]) for d in out["release_dates"]] == [
        (DATED_CARD, "tcg", "2017-05-04", NEW_TCG_DATE)
    ]
    md = cli("data", "diff", "--last", "-o", "markdown").stdout
    assert "### New list: tcg 2026-11-01" in md and "| Limited | Forbidden |" in md
    # a deck checked against the new list: the card is Limited until it takes effect
    deck = tmp_path / "k9.ydk"
    legal = (Path(__file__).parent.parent / "examples" / "tcg-legal.ydk").read_text()
    deck.write_text(legal.replace("#main\n", "#main\n80181649\n", 1))
    for day, severity in (("2026-10-15", "warning"), ("2026-11-02", "error")):
        got = json.loads(cli("validate", str(deck), "-f", "tcg", "-d", day, "-o", "json").stdout)
        found = [v for v in _violations(got) if v.get("passcode") == 80181649]
        assert [v["severity"] for v in found] == [severity], (day, found)
    assert found[0]["code"] != "upcoming-change"


def _violations(doc: Any) -> list[Any]:
    """Every violation object anywhere in a validate document."""
    if isinstance(doc, dict):
        here = [doc] if "code" in doc and "message" in doc else []
        return here + [v for x in doc.values() for v in _violations(x)]
    if isinstance(doc, list):
        return [v for x in doc for v in _violations(x)]
    return []


def _install_changed(server: BundleServer, mirrors: tuple[Path, Path]) -> None:
    server.root = mirrors[1]


def _unchanged(home: Path, before: str, state: dict[str, Any]) -> None:
    assert _fingerprint(home) == before
    assert load_state(home) == state
    assert not list(home.glob("upstream-work-*"))
    assert not list(home.glob("staging-*"))


def _half_cdb(mirror: Path, out: Path) -> bytes:
    shutil.copyfile(mirror / CDB, out)
    con = sqlite3.connect(out)
    con.execute("DELETE FROM datas WHERE id % 2 = 0")
    con.execute("DELETE FROM texts WHERE id % 2 = 0")
    con.commit()
    con.execute("VACUUM")
    con.close()
    return out.read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("fault", "path", "why"),
    [
        ("drop", RAW, "the connection broke off"),
        # --timeout is both the wait for an answer and the whole file's deadline: either ends it
        ("slow", RAW, "no answer within 1 s|slower than the 1 s deadline"),
        ("truncate", CDB, "without sending complete message body"),
        ("corrupt", CDB, "does not parse: not a card database"),
        ("unparsable", RAW, "0TCG.lflist.conf: does not parse"),
        ("half", CDB, "under 75% of the"),
        ("404", RAW, "ProjectIgnis/LFLists: 0TCG.lflist.conf"),
    ],
)
def test_faults_leave_the_data_in_use(
    cli: Callable[..., Any],
    home: Path,
    server: BundleServer,
    mirrors: tuple[Path, Path],
    tmp_path: Path,
    fault: str,
    path: str,
    why: str,
) -> None:
    before, state = _fingerprint(home), load_state(home)
    _install_changed(server, mirrors)
    if fault == "unparsable":
        server.files["/" + path] = b"#[2026.11 TCG]\nnot a list at all\n"
    elif fault == "half":
        server.files["/" + path] = _half_cdb(mirrors[1], tmp_path / "half.cdb")
    else:
        server.faults["/" + path] = [fault] * 4
    server.slow_seconds = 3.0
    res = cli(
        "data",
        "update",
        "--from-upstream",
        "--source",
        server.url + "/",
        "--retries",
        "0",
        "--timeout",
        "1" if fault == "slow" else "30",
    )
    assert res.code == 2, res.stdout
    assert "update failed" in res.stderr, res.stderr
    assert any(w in res.stderr for w in why.split("|")), res.stderr
    assert "the data in use is unchanged" in res.stderr
    if fault == "404":
        assert "the repository moved or the file vanished" in res.stderr
    _unchanged(home, before, state)
    assert Dataset.reload_active().fingerprint == before


@pytest.mark.slow
def test_killed_mid_way(home: Path, server: BundleServer, mirrors: tuple[Path, Path]) -> None:
    before, state = _fingerprint(home), load_state(home)
    _install_changed(server, mirrors)
    server.faults["/" + CDB] = ["trickle"]
    server.slow_seconds = 0.5
    env = dict(os.environ, DECKCHECK_HOME=str(home))
    argv = [sys.executable, "-m", "deckcheck", "data", "update", "--from-upstream"]
    proc = subprocess.Popen(
        [*argv, "--source", server.url + "/"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while ("/" + CDB, 200) not in server.answers and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ("/" + CDB, 200) in server.answers
        time.sleep(0.3)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(30)
    assert proc.returncode == -signal.SIGKILL
    assert _fingerprint(home) == before and load_state(home) == state
    assert list(home.glob("upstream-work-*"))  # left behind by the killed process
    # the next run cleans up after it, and finds the plain mirror unchanged
    server.root = mirrors[0]
    server.faults.clear()
    done = subprocess.run(
        [*argv, "--source", server.url + "/"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "up to date" in done.stdout
    _unchanged(home, before, state)


@pytest.mark.slow
def test_status_says_when_an_update_is_due(
    cli: Callable[..., Any], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = json.loads(cli("data", "status", "-o", "json").stdout)["freshness"]
    assert doc["as_of"] == "2026-11-15" and doc["newest_announced"] == "2026-08-14"
    from datetime import date

    age = (date.today() - date(2026, 11, 15)).days
    assert doc["age_days"] == age and doc["max_age_days"] == 30
    assert doc["due"] is (age > 30)
    res = cli("data", "status", "--max-age", "1")
    assert f"age          {age} days" in res.stdout
    assert ("update due: the data is" in res.stdout) is (age > 1)
    (home / "announced.json").write_text('{"newest_list": "2026-12-01"}')
    res = cli("data", "status")
    assert "update due: a list dated 2026-12-01 was announced" in res.stdout
    monkeypatch.setenv("DECKCHECK_MAX_AGE_DAYS", "soon")
    res = cli("data", "status")
    assert res.code == 2 and "DECKCHECK_MAX_AGE_DAYS='soon'" in res.stderr


@pytest.mark.slow
def test_default_channel_falls_back_to_upstream(
    cli: Callable[..., Any], home: Path, server: BundleServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No source: the published bundle first (gone here), then the upstream sources."""
    monkeypatch.setenv("DECKCHECK_BUNDLE_URL", server.url + "/releases/deckcheck-data.zip")
    monkeypatch.setenv("DECKCHECK_UPSTREAM_URL", server.url + "/")
    rec = read_pointer(home)
    assert rec is not None and rec.source.startswith("upstream:")
    res = cli("data", "update")
    assert res.code == 0, res.stderr
    assert "trying the published bundle" in res.stderr and "building from upstream" in res.stderr
    assert "up to date" in res.stdout
    assert server.paths_requested()[0] == "/releases/deckcheck-data.zip"


@pytest.mark.slow
def test_default_channel_installs_the_published_bundle(
    cli: Callable[..., Any],
    home: Path,
    server: BundleServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from datetime import date

    from deckcheck.data.bundle import write_manifest

    folder = tmp_path / "bundle"
    Dataset.bundled().export(folder)
    write_manifest(folder, date(2026, 11, 30))
    Dataset.open(folder).export(tmp_path / "deckcheck-data.zip")
    server.files["/releases/deckcheck-data.zip"] = (tmp_path / "deckcheck-data.zip").read_bytes()
    monkeypatch.setenv("DECKCHECK_BUNDLE_URL", server.url + "/releases/deckcheck-data.zip")
    res = cli("data", "update")
    assert res.code == 0, res.stderr
    assert "updated: data as of 2026-11-30" in res.stdout
    assert server.paths_requested() == ["/releases/deckcheck-data.zip"]


def test_state_file_is_where_the_docs_say(first_home: Path) -> None:
    assert (first_home / CACHE / STATE).is_file()
    assert (first_home / CACHE / "files" / "lflists" / "projectignis" / "current").is_dir()


WORKFLOW = Path(__file__).resolve().parent.parent / ".github" / "workflows" / "data-release.yml"


def _workflow() -> dict[Any, Any]:
    import yaml

    doc = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def test_workflow_is_weekly_on_demand_and_publishes_the_bundle() -> None:
    doc = _workflow()
    triggers = doc[True]  # YAML 1.1 reads the key "on" as true
    assert "workflow_dispatch" in triggers
    (cron,) = [t["cron"] for t in triggers["schedule"]]
    minute, hour, day, month, weekday = cron.split()
    assert minute.isdigit() and hour.isdigit()
    assert day == month == "*" and weekday.isdigit()  # once a week
    assert doc["permissions"] == {"contents": "write"}
    steps = doc["jobs"]["publish"]["steps"]
    names = [s.get("name") for s in steps]
    build = steps[names.index("Build the bundle from upstream")]["run"]
    assert build.startswith("python scripts/publish_data.py --out dist")
    release = steps[names.index("Publish the release")]["run"]
    for part in (
        "gh release create",
        "dist/deckcheck-data.zip",
        "dist/manifest.json",
        "--notes-file dist/notes.md",
        "--latest",
    ):
        assert part in release
    cache = steps[names.index("Cache of the last upstream fetch")]["with"]["path"]
    assert cache == ".deckcheck-home/upstream"
    # the sources release is refreshed first: clone, project, upload (never as the latest)
    clone, project, upload = (
        names.index(n)
        for n in (
            "Clone the per-card repositories",
            "Project the source files",
            "Upload the source files",
        )
    )
    assert clone < project < upload < names.index("Build the bundle from upstream")
    cloning = steps[clone]["run"]
    assert "git clone --quiet --depth 1 https://github.com/DawnbrandBots/yaml-yugi.git" in cloning
    assert "--depth 1 --single-branch --branch v1/individual" in cloning
    assert "iconmaster5326/YGOJSON.git upstream/ygojson" in cloning
    assert "Fluorohydride/ygopro/47d118575d239471a525bc718d6367d6c86229d6/lflist.conf" in cloning
    assert steps[project]["run"].startswith("python scripts/project_sources.py --out sources")
    uploading = steps[upload]["run"]
    assert "gh release view sources" in uploading
    assert "gh release create sources --latest=false" in uploading
    assert "gh release upload sources sources/* --clobber" in uploading


@pytest.mark.slow
def test_workflow_build_step_runs_here(
    home: Path, server: BundleServer, mirrors: tuple[Path, Path], tmp_path: Path
) -> None:
    """The workflow's build step, as written, against the mirror (the changed one)."""
    steps = _workflow()["jobs"]["publish"]["steps"]
    (build,) = [s["run"] for s in steps if s.get("name") == "Build the bundle from upstream"]
    server.root = mirrors[1]
    work = tmp_path / "checkout"
    work.mkdir()
    (work / "scripts").symlink_to(Path(__file__).resolve().parent.parent / "scripts")
    env = dict(os.environ, DECKCHECK_HOME=str(home), DECKCHECK_UPSTREAM_URL=server.url + "/")
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env["PATH"]
    done = subprocess.run(
        ["bash", "-c", build], cwd=work, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr + done.stdout
    dist = work / "dist"
    assert sorted(p.name for p in dist.iterdir()) == [
        "deckcheck-data.zip",
        "manifest.json",
        "notes.md",
        "tag",
    ]
    manifest = json.loads((dist / "manifest.json").read_text())
    assert (dist / "tag").read_text().strip() == manifest["as_of"]
    notes = (dist / "notes.md").read_text()
    assert "### New list: tcg 2026-11-01" in notes and NEW_CARD_NAME in notes
    # the bundle published installs like any: what `data update` gets by default
    other = tmp_path / "other-home"
    from deckcheck.data.update import update

    got = update(str(dist / "deckcheck-data.zip"), home=other)
    assert got.data.fingerprint == hashlib.sha256((dist / "manifest.json").read_bytes()).hexdigest()
    # run again with that bundle as the previous one: nothing new, nothing written
    shutil.move(dist / "deckcheck-data.zip", work / "previous.zip")
    shutil.rmtree(dist)
    again = subprocess.run(
        ["bash", "-c", build.replace("previous/deckcheck-data.zip", "previous.zip")],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert again.returncode == 0 and "nothing new" in again.stdout, again.stderr
    assert not dist.exists()


@pytest.mark.slow
def test_installed_wheel_builds_from_upstream(
    server: BundleServer, mirrors: tuple[Path, Path], tmp_path: Path
) -> None:
    """An installed wheel (no scripts/ beside it) fetches, builds in-process, installs."""
    venv = wheel_venv(tmp_path)
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DECKCHECK_", "PYTHON"))}
    env |= {"DECKCHECK_HOME": str(home), "PATH": f"{venv / 'bin'}{os.pathsep}{env['PATH']}"}

    def deckcheck(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(venv / "bin" / "deckcheck"), *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import deckcheck; print(deckcheck.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(str(venv)), where
    server.root = mirrors[1]
    try:
        first = deckcheck("data", "update", "--from-upstream", "--source", server.url + "/")
        assert first.returncode == 0, first.stderr
        assert "building the card index" in first.stderr  # progress, from this process
        assert "updated:" in first.stdout
        server.answers.clear()
        second = deckcheck("data", "update", "--from-upstream", "--source", server.url + "/")
        assert second.returncode == 0 and "up to date" in second.stdout, second.stderr
        assert {code for _, code in server.answers} == {304}
    finally:
        server.root = mirrors[0]
    # data diff: the bundled data (what the plain mirror builds) against the data in use
    out = json.loads(deckcheck("data", "diff", "--last", "-o", "json").stdout)
    assert [(c["family"], c["effective"]) for c in out["lists"]] == [("tcg", NEW_LIST_DATE)]
    assert [(c["passcode"], c["old"], c["new"]) for c in out["lists"][0]["changes"]] == [
        (80181649, "Limited", "Forbidden")
    ]
    assert out["new_cards"] == {
        region: [{"passcode": NEW_CARD, "name": NEW_CARD_NAME}] for region in ("ocg", "tcg")
    }
    assert [(d["passcode"], d["new"]) for d in out["release_dates"]] == [(DATED_CARD, NEW_TCG_DATE)]
    # a deck checked against the new list
    deck = tmp_path / "deck.ydk"
    legal = (Path(__file__).parent.parent / "examples" / "tcg-legal.ydk").read_text()
    deck.write_text(legal.replace("#main\n", "#main\n80181649\n", 1))
    res = deckcheck("validate", str(deck), "-f", "tcg", "-d", "2026-11-02", "-o", "json")
    found = [v for v in _violations(json.loads(res.stdout)) if v.get("passcode") == 80181649]
    assert [v["severity"] for v in found] == ["error"], found


def test_built_in_source_list_is_the_one_the_shared_data_gives() -> None:
    from deckcheck.data.source_list import BUILTIN_FILE, generate, generate_text

    assert BUILTIN_FILE.read_text(encoding="utf-8") == generate_text(generate(SHARED_DATA))
    sources = load()
    for e in sources.entries:
        url = e.url(sources)
        if e.kind.value == "asset":
            assert url.startswith("https://github.com/deckcheck/deckcheck/releases/download/")
        else:
            assert url.startswith(f"https://raw.githubusercontent.com/{e.repo}/{e.ref}/"), url
        on_mirror = "http://m.example/up/" + url.split("/", 3)[3]
        assert e.url(sources, "http://m.example/up/") == on_mirror
    assert {e.repo for e in sources.entries if e.ref == "HEAD"} >= {
        "ProjectIgnis/LFLists",
        "ProjectIgnis/BabelCDB",
        "DawnbrandBots/yaml-yugi-limit-regulation",
        "Fluorohydride/ygopro",
    }


def test_a_source_list_url_or_folder_is_not_a_mirror(tmp_path: Path) -> None:
    from deckcheck.data.upstream import _is_mirror

    assert _is_mirror("https://mirror.example.org/up/")
    assert not _is_mirror("https://mirror.example.org/up/sources.json")
    assert not _is_mirror(str(SHARED_DATA))  # a source-data folder: taken whole
    (tmp_path / "sources.json").write_text("{}")
    assert not _is_mirror(str(tmp_path))
    (tmp_path / "sources.json").unlink()
    assert _is_mirror(str(tmp_path))
