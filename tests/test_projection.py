"""The projected source files: upstream-shaped per-card folders rebuilt from the shared files'
lines (with the fields the projection drops) are projected back to exactly those lines, through
the workflow's own step; malformed files are errors naming them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from deckcheck.data.builders import projection
from deckcheck.data.builders.projection import ASSETS, cut_section, project
from deckcheck.data.source_list import Kind, load
from deckcheck.error import DataError

from .conftest import ROOT, SHARED_DATA
from .upstream_shapes import write_yaml_yugi, write_ygojson

needs_shared = pytest.mark.skipif(
    not (SHARED_DATA / "cards").is_dir(), reason="needs the shared source data (../shared/data)"
)
WORKFLOW = ROOT / ".github" / "workflows" / "data-release.yml"
FLUORO = SHARED_DATA / "lflists" / "ygopro-fluorohydride" / "2011.3.1.lflist.conf"


def _lines(rel: str) -> list[str]:
    return (SHARED_DATA / "cards" / rel).read_text(encoding="utf-8").splitlines()


def _sample(lines: list[str], head: int, pick: Any = None) -> list[str]:
    """The first ``head`` lines and every later one ``pick`` selects, in file order."""
    return [x for i, x in enumerate(lines) if i < head or (pick is not None and pick(x))]


def _special_yaml_yugi(line: str) -> bool:
    doc = json.loads(line)
    return not doc["printed_in"] or "" in doc["first_print_numbers"].values()


def _special_ygojson(line: str) -> bool:
    doc = json.loads(line)
    return not doc["passwords"] or len(doc["passwords"]) > 1 or "skillType" in doc


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[str]]]:
    """Upstream-shaped clones of a sample of the shared files, and the lines they must give."""
    root = tmp_path_factory.mktemp("upstream") / "upstream"
    want = {
        "yaml-yugi-cards": _sample(_lines("yaml-yugi/cards.min.jsonl"), 150, _special_yaml_yugi),
        "yaml-yugi-rush": _sample(_lines("yaml-yugi/rush.min.jsonl"), 120),
        "ygojson-sets": _lines("ygojson/sets.min.jsonl"),
    }
    cards = _sample(_lines("ygojson/cards.min.jsonl"), 150, _special_ygojson)
    assert len(cards) > 600 and len(want["yaml-yugi-cards"]) > 150  # the special ones are in
    write_yaml_yugi(
        [json.loads(x) for x in want["yaml-yugi-cards"]],
        root / "yaml-yugi" / "data" / "cards",
        with_sets=True,
    )
    write_yaml_yugi(
        [json.loads(x) for x in want["yaml-yugi-rush"]],
        root / "yaml-yugi" / "data" / "rush",
        with_sets=False,
    )
    sets = [json.loads(x) for x in want["ygojson-sets"]]
    kept = write_ygojson([json.loads(x) for x in cards], sets, root / "ygojson")
    assert len(kept) == len(cards)
    want["ygojson-cards"] = cards
    fluoro = FLUORO.read_text(encoding="utf-8").splitlines()
    assert fluoro[0] == "#[2011.3.1]"
    two_lists = ["#[2011.9.1][2011.3.1]", *fluoro[1:], "!2011.9.1", "#forbidden", "20663556 0 --x"]
    (root / "fluorohydride-lflist.conf").write_text("\n".join(two_lists) + "\n", encoding="utf-8")
    return root, want


def _step(name: str) -> str:
    import yaml

    steps = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]["publish"]["steps"]
    (run,) = [s["run"] for s in steps if s.get("name") == name]
    return str(run)


@pytest.mark.slow
@needs_shared
def test_the_workflow_step_projects_the_shared_files_back(
    upstream: tuple[Path, dict[str, list[str]]], tmp_path: Path
) -> None:
    root, want = upstream
    work = tmp_path / "checkout"
    work.mkdir()
    (work / "scripts").symlink_to(ROOT / "scripts")
    (work / "upstream").symlink_to(root)
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    done = subprocess.run(
        ["bash", "-c", _step("Project the source files")],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = work / "sources"
    assert sorted(p.name for p in out.iterdir()) == sorted(ASSETS.values())
    for key, lines in want.items():
        got = (out / ASSETS[key]).read_text(encoding="utf-8").splitlines()
        if key == "ygojson-sets":  # less the sets made for the cards' release dates
            got = [x for x in got if not x.startswith('{"id": "release-')]
        assert got == lines, key
    assert (out / ASSETS["fluorohydride-2011"]).read_bytes() == FLUORO.read_bytes()
    assert f"{ASSETS['ygojson-cards']} ({len(want['ygojson-cards']):,} lines)" in done.stdout
    # what the workflow uploads is what the built-in source list fetches
    assets = {e.path for e in load().entries if e.kind is Kind.ASSET}
    assert assets == set(ASSETS.values())
    upload = _step("Upload the source files")
    assert "gh release upload sources sources/* --clobber" in upload


def test_cut_section_of_a_missing_list(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"no list !2011\.3\.1"):
        cut_section("#[2012.3.1]\n!2012.3.1\n1 0 --x\n", "2011.3.1")
    path = tmp_path / "lflist.conf"
    path.write_text("!2012.3.1\n", encoding="utf-8")
    with pytest.raises(DataError, match="^" + re.escape(f"{path}: no list")):
        project(tmp_path / "out", lflist=path)


def _yaml_yugi_clone(tmp: Path, files: dict[str, bytes]) -> Path:
    clone = tmp / "yaml-yugi"
    for sub in ("cards", "rush"):
        (clone / "data" / sub).mkdir(parents=True)
    for name, raw in files.items():
        (clone / "data" / name).write_bytes(raw)
    return clone


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b'{"konami_id": 1, "name": ', "not valid JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"konami_id": 1, "sets": ["en"]}', "not a card or set file of the expected shape"),
        (b'{"name": "\xff"}', "not valid JSON"),
    ],
)
def test_a_malformed_card_file_is_named(tmp_path: Path, raw: bytes, why: str) -> None:
    good = json.dumps({"konami_id": 2, "sets": {}}).encode()
    clone = _yaml_yugi_clone(tmp_path, {"cards/a.json": good, "cards/b.json": raw})
    with pytest.raises(DataError) as err:
        project(tmp_path / "out", yaml_yugi=clone)
    assert str(err.value).startswith(str(clone / "data" / "cards" / "b.json") + ": " + why)
    assert not any((tmp_path / "out").glob("*.tmp"))


def test_a_malformed_set_file_and_the_size_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "ygojson"
    (root / "cards").mkdir(parents=True)
    (root / "sets").mkdir()
    (root / "sets" / "s1.json").write_text(json.dumps({"id": "s1", "contents": 5}))
    with pytest.raises(DataError, match=r"s1\.json: not a card or set file"):
        project(tmp_path / "out", ygojson=root)
    (root / "sets" / "s1.json").write_text(json.dumps({"id": "s1", "contents": []}))
    (root / "cards" / "c1.json").write_text(json.dumps({"id": "c1", "passwords": ["1"]}) + " " * 99)
    monkeypatch.setattr(projection, "MAX_FILE_BYTES", 64)
    with pytest.raises(DataError, match=r"c1\.json: over the 64-byte cap"):
        project(tmp_path / "out", ygojson=root)
    with pytest.raises(DataError, match="no such folder"):
        project(tmp_path / "out", yaml_yugi=tmp_path / "nowhere")


def test_the_script_fails_cleanly(tmp_path: Path) -> None:
    clone = _yaml_yugi_clone(tmp_path, {"cards/a.json": b"{"})
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "project_sources.py"),
            "--out",
            str(tmp_path / "out"),
            "--yaml-yugi",
            str(clone),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"error: {clone / 'data' / 'cards' / 'a.json'}: not valid JSON")
