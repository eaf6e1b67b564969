"""``deckcheck data diff``: two bundles that differ by known changes, made by editing the files."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from deckcheck.data.bundle import write_manifest
from deckcheck.data.dataset import Dataset

from .bundle_server import BundleServer, serve

NEW_CARD = 99990002
DATED = 55144522  # Pot of Greed


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Any]]:
    """The bundled data, and a copy with a new list, a changed list, a new card, a new date."""
    root = tmp_path_factory.mktemp("diff")
    old, new = root / "old", root / "new"
    Dataset.bundled().export(old)
    Dataset.bundled().export(new)
    doc = json.loads((new / "banlists.json").read_text(encoding="utf-8"))
    tcg = max((r for r in doc["lists"] if r["family"] == "tcg"), key=lambda r: r["effective"])
    fresh = json.loads(json.dumps(tcg))
    at = fresh["values"].index(1)
    banned = fresh["codes"][at]
    fresh["values"][at] = 0
    fresh.update(name="2026-12-01 TCG", effective="2026-12-01", label=None)
    doc["lists"].append(fresh)
    ocg = max((r for r in doc["lists"] if r["family"] == "ocg"), key=lambda r: r["effective"])
    changed = ocg["codes"][0]
    was = ocg["values"][0]
    ocg["values"][0] = 2 if was != 2 else 1
    (new / "banlists.json").write_text(json.dumps(doc), encoding="utf-8")
    lines = (new / "cards.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines[1:]]
    for row in rows:
        if row[0] == DATED:
            row[14] = "2001-01-01"
    rows.append(
        [
            NEW_CARD,
            0,
            0,
            "Pot of Diffs",
            None,
            None,
            2,
            0,
            0,
            0,
            0,
            2,
            None,
            None,
            "2026-11-20",
            [],
            {},
        ]
    )
    rows.sort(key=lambda r: r[0])
    body = "\n".join([lines[0], *(json.dumps(r, separators=(",", ":")) for r in rows)]) + "\n"
    (new / "cards.jsonl").write_text(body, encoding="utf-8")
    write_manifest(new, date(2026, 12, 1))
    facts = {"banned": banned, "changed": changed, "was": was, "ocg": ocg["effective"]}
    return old, new, facts


def _status(value: int) -> str:
    return {0: "Forbidden", 1: "Limited", 2: "Semi-Limited", 3: "Unlimited"}[value]


def _check_changes(out: dict[str, Any], facts: dict[str, Any]) -> None:
    """``out`` (a data-diff document) names exactly the changes the fixture made."""
    lists = [(c["family"], c["effective"], c["new"]) for c in out["lists"]]
    assert lists == [("ocg", facts["ocg"], False), ("tcg", "2026-12-01", True)]
    ocg, tcg = out["lists"]
    assert [(c["passcode"], c["old"], c["new"]) for c in tcg["changes"]] == [
        (facts["banned"], "Limited", "Forbidden")
    ]
    now = 2 if facts["was"] != 2 else 1
    assert [(c["passcode"], c["old"], c["new"]) for c in ocg["changes"]] == [
        (facts["changed"], _status(facts["was"]), _status(now))
    ]
    assert out["new_cards"] == {"tcg": [{"passcode": NEW_CARD, "name": "Pot of Diffs"}]}
    assert [(d["passcode"], d["region"], d["new"]) for d in out["release_dates"]] == [
        (DATED, "tcg", "2001-01-01")
    ]
    assert out["new"]["as_of"] == "2026-12-01"


@pytest.mark.slow
def test_diff_names_exactly_the_changes(
    cli: Callable[..., Any], bundles: tuple[Path, Path, dict[str, Any]]
) -> None:
    old, new, facts = bundles
    res = cli("data", "diff", str(old), str(new), "-o", "json")
    assert res.code == 0, res.stderr
    _check_changes(json.loads(res.stdout), facts)


@pytest.mark.slow
def test_diff_text_and_markdown(
    cli: Callable[..., Any], bundles: tuple[Path, Path, dict[str, Any]]
) -> None:
    old, new, _ = bundles
    text = cli("data", "diff", str(old), str(new)).stdout
    assert "1 new lists, 1 changed, 1 new cards, 1 changed release dates" in text
    assert "new list tcg 2026-12-01 2026-12-01 TCG" in text and "Pot of Diffs" in text
    md = cli("data", "diff", str(old), str(new), "-o", "markdown").stdout
    assert md.startswith("## Data as of 2026-12-01")
    assert "### New list: tcg 2026-12-01" in md and "| Limited | Forbidden |" in md
    assert "### New TCG cards (1)" in md and "- Pot of Diffs (99990002)" in md
    same = cli("data", "diff", "bundled", "bundled").stdout
    assert "0 new lists, 0 changed, 0 new cards, 0 changed release dates" in same


def test_diff_of_a_folder_that_is_not_a_bundle(cli: Callable[..., Any], tmp_path: Path) -> None:
    res = cli("data", "diff", str(tmp_path), "bundled")
    assert res.code == 2 and res.stderr.startswith("error: ")


# --- with no arguments: the data in use against the newest available (the published bundle)

ASSET = "/releases/latest/download/deckcheck-data.zip"


@pytest.fixture(scope="module")
def published(
    bundles: tuple[Path, Path, dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[BundleServer]:
    """The changed bundle published on 127.0.0.1, as a .zip and as a folder (``/folder/``)."""
    _, new, _ = bundles
    archive = tmp_path_factory.mktemp("published") / "deckcheck-data.zip"
    Dataset.open(new).export(archive)
    with serve() as srv:
        srv.files[ASSET] = archive.read_bytes()
        for path in new.iterdir():
            srv.files["/folder/" + path.name] = path.read_bytes()
        yield srv


def _in_use(cli: Callable[..., Any]) -> tuple[str, str]:
    doc = json.loads(cli("data", "status", "-o", "json").stdout)
    return doc["origin"], doc["fingerprint"]


@pytest.mark.slow
def test_diff_against_the_published_bundle(
    cli: Callable[..., Any],
    home: Path,
    published: BundleServer,
    bundles: tuple[Path, Path, dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, new, facts = bundles
    monkeypatch.setenv("DECKCHECK_BUNDLE_URL", published.url + ASSET)
    before = _in_use(cli)
    assert before == ("bundled", Dataset.bundled().fingerprint)
    published.answers.clear()
    res = cli("data", "diff", "-o", "json")
    assert res.code == 0, res.stderr
    out = json.loads(res.stdout)
    _check_changes(out, facts)
    assert out["old"]["fingerprint"] == Dataset.bundled().fingerprint
    assert out["new"]["fingerprint"] == Dataset.open(new).fingerprint
    assert published.answers == [(ASSET, 200)]
    assert f"fetching the newest data: {published.url}{ASSET}" in res.stderr
    text = cli("data", "diff")
    assert text.code == 0, text.stderr
    assert "1 new lists, 1 changed, 1 new cards, 1 changed release dates" in text.stdout
    assert "new list tcg 2026-12-01 2026-12-01 TCG" in text.stdout
    assert "Pot of Diffs (99990002)" in text.stdout
    assert "Pot of Greed (55144522) TCG: " in text.stdout and "-> 2001-01-01" in text.stdout
    md = cli("data", "diff", "-o", "markdown").stdout
    assert md.startswith("## Data as of 2026-12-01")
    assert "### New list: tcg 2026-12-01" in md and "| Limited | Forbidden |" in md
    assert "- Pot of Diffs (99990002)" in md and "| TCG |" in md
    # nothing was installed: the data in use, the data folder are as they were
    assert _in_use(cli) == before
    assert not home.exists() or not any(home.glob("bundle-*"))
    assert not (home / "current.json").exists()


@pytest.mark.slow
def test_diff_newest_from_a_mirror_or_named(
    cli: Callable[..., Any],
    home: Path,
    published: BundleServer,
    bundles: tuple[Path, Path, dict[str, Any]],
) -> None:
    old, _, facts = bundles
    res = cli("data", "diff", "--source", published.url + "/folder/", "-o", "json")
    assert res.code == 0, res.stderr
    _check_changes(json.loads(res.stdout), facts)
    # OLD and NEW may be URLs and .zip files too; 'newest' and 'in-use' are names
    res = cli("data", "diff", str(old), published.url + ASSET, "-o", "json")
    assert res.code == 0, res.stderr
    _check_changes(json.loads(res.stdout), facts)
    res = cli("data", "diff", "newest", "in-use", "--source", published.url + ASSET, "-o", "json")
    back = json.loads(res.stdout)
    assert [(c["family"], c["effective"]) for c in back["lists"]] == [("ocg", facts["ocg"])]
    assert back["new_cards"] == {} and back["new"]["fingerprint"] == Dataset.bundled().fingerprint
    assert _in_use(cli) == ("bundled", Dataset.bundled().fingerprint)


@pytest.mark.slow
def test_diff_when_the_newest_cannot_be_had(
    cli: Callable[..., Any], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve() as srv:
        url = srv.url + ASSET
    monkeypatch.setenv("DECKCHECK_BUNDLE_URL", url)  # the server is down now
    res = cli("data", "diff", "--retries", "0")
    assert res.code == 2 and res.stdout == ""
    assert res.stderr.startswith("fetching the newest data: ")
    error = res.stderr.splitlines()[1]
    assert error.startswith(f"error: {url}: cannot fetch: ConnectError"), res.stderr
    assert "Traceback" not in res.stderr and "the data in use is unchanged" in res.stderr
    with serve() as srv:
        monkeypatch.setenv("DECKCHECK_BUNDLE_URL", srv.url + ASSET)
        monkeypatch.setenv("DECKCHECK_OFFLINE", "1")
        res = cli("data", "diff")
        assert srv.requests == []
    assert res.code == 2 and "Traceback" not in res.stderr
    assert f"error: {srv.url}{ASSET}: network access is disabled" in res.stderr
    assert _in_use(cli) == ("bundled", Dataset.bundled().fingerprint)


def test_diff_last_and_its_misuse(cli: Callable[..., Any], home: Path) -> None:
    """``--last``: what the last update changed (nothing installed: bundled against bundled)."""
    res = cli("data", "diff", "--last", "-o", "json")
    assert res.code == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["lists"] == [] and out["old"] == out["new"]
    for args in (["--last", "bundled"], ["bundled", "bundled", "--source", "x.zip"]):
        res = cli("data", "diff", *args)
        assert res.code == 2 and res.stderr.startswith("error: "), args


@pytest.mark.slow
def test_update_prints_the_changes_then_last_shows_them(
    cli: Callable[..., Any],
    home: Path,
    published: BundleServer,
    bundles: tuple[Path, Path, dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, new, facts = bundles
    monkeypatch.setenv("DECKCHECK_BUNDLE_URL", published.url + ASSET)
    res = cli("data", "update")
    assert res.code == 0, res.stderr
    assert "updated:" in res.stdout
    assert "1 new lists, 1 changed, 1 new cards, 1 changed release dates" in res.stdout
    assert _in_use(cli) == ("installed", Dataset.open(new).fingerprint)
    last = cli("data", "diff", "--last", "-o", "json")
    assert last.code == 0, last.stderr
    _check_changes(json.loads(last.stdout), facts)
    # the data in use is now the newest: nothing to tell
    same = cli("data", "diff")
    assert same.code == 0, same.stderr
    assert "0 new lists, 0 changed, 0 new cards, 0 changed release dates" in same.stdout
