"""``deckcheck data diff``: two bundles that differ by known changes, made by editing the files."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from deckcheck.data.bundle import write_manifest
from deckcheck.data.dataset import Dataset

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
    rows.append([NEW_CARD, 0, 0, "Pot of Diffs", None, None, 2, 0, 0, 0, 0, 2, None, None,
                 "2026-11-20", [], {}])  # fmt: skip
    rows.sort(key=lambda r: r[0])
    body = "\n".join([lines[0], *(json.dumps(r, separators=(",", ":")) for r in rows)]) + "\n"
    (new / "cards.jsonl").write_text(body, encoding="utf-8")
    write_manifest(new, date(2026, 12, 1))
    facts = {"banned": banned, "changed": changed, "was": was, "ocg": ocg["effective"]}
    return old, new, facts


def _status(value: int) -> str:
    return {0: "Forbidden", 1: "Limited", 2: "Semi-Limited", 3: "Unlimited"}[value]


def test_diff_names_exactly_the_changes(
    cli: Callable[..., Any], bundles: tuple[Path, Path, dict[str, Any]]
) -> None:
    old, new, facts = bundles
    res = cli("data", "diff", str(old), str(new), "-o", "json")
    assert res.code == 0, res.stderr
    out = json.loads(res.stdout)
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
