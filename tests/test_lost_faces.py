"""A property across every face: real decks with injected bad lines (garbage, unknown names,
wrong sections, control characters) are reported line by line, or the run exits non-zero;
never exit 0 and silence."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import deckcheck

ROOT = Path(__file__).resolve().parent.parent


def _round_trips(path: Path) -> bool:
    """Whether a deck written as a text list reads back with every line a card."""
    text = deckcheck.write_deck(deckcheck.read_path(path), "text")
    return not deckcheck.read_deck(text).unread


DECKS = [
    p
    for p in sorted((ROOT / "tests" / "data" / "decks" / "legal").glob("*.ydk"))
    if _round_trips(p)
]
DATE = "2025-06-01"

GARBAGE = ["@@ ## !! %%", "~~~~~~~~~~~~", "<<<>>> ???", "=+=+=+=+=+"]
UNKNOWN = ["3 Zyzzogeton Quibbleflux", "2 Blue-Eyes Whte Dragun", "Ash Blosom x3", "1 Qqqq Wwww"]
CONTROL = ["3 Not\x07A\x1bCard", "\x1b[31m2 Red Herring Dragon\x1b[0m", "1 Bidi\u202eTrick Card"]
WRONG_SECTION = ["1 Decode Talker", "1 Accesscode Talker"]
"""Extra Deck monsters written under the Main Deck heading: read as cards, in the wrong section
(validation reports them; the other faces read them as the cards they are)."""

_KINDS = {"garbage": GARBAGE, "unknown": UNKNOWN, "control": CONTROL, "wrong": WRONG_SECTION}


@st.composite
def injected(draw: st.DrawFn) -> tuple[str, dict[int, str]]:
    """A real deck written as a text list, with bad lines inserted; the bad lines' numbers."""
    source = draw(st.sampled_from(DECKS))
    lines = deckcheck.write_deck(deckcheck.read_path(source), "text").splitlines()
    n = draw(st.integers(1, 4))
    picks = [(draw(st.sampled_from(sorted(_KINDS))), draw(st.integers(0, 3))) for _ in range(n)]
    for kind, i in picks:
        bad = _KINDS[kind][i % len(_KINDS[kind])]
        # a wrong-section line goes under the Main Deck heading, the others anywhere after it
        at = 1 if kind == "wrong" else draw(st.integers(1, len(lines)))
        lines.insert(at, f"\0{kind}\0{bad}")
    kinds: dict[int, str] = {}
    out = []
    for number, line in enumerate(lines, 1):
        if line.startswith("\0"):
            _, kind, line = line.split("\0", 2)
            kinds[number] = kind
        out.append(line)
    return "\n".join(out) + "\n", kinds


def _unread(kinds: dict[int, str]) -> set[int]:
    return {n for n, k in kinds.items() if k != "wrong"}


def _reported(kinds: dict[int, str], text: str, violations: list[dict[str, Any]]) -> bool:
    """Every unread line has a finding at its number; a card written under the wrong heading
    (read as that card) has its violation at one of the lines that wrote it (one violation
    per card and section, as for copies)."""
    at = {v["line"] for v in violations}
    lines = text.splitlines()
    wrong: dict[str, set[int]] = {}
    for n, kind in kinds.items():
        if kind == "wrong":
            wrong.setdefault(lines[n - 1], set()).add(n)
    return _unread(kinds) <= at and all(ns & at for ns in wrong.values())


def _named(text: str, name: str, lines: set[int]) -> bool:
    return all(f"{name}:{n}" in text for n in lines)


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=injected())
def test_every_face_reports_every_injected_line(
    case: tuple[str, dict[int, str]], cli: Callable[..., Any], api: Any
) -> None:
    text, kinds = case
    unread = _unread(kinds)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "decks"
        folder.mkdir()
        deck = folder / "deck.txt"
        deck.write_text(text, encoding="utf-8")
        clean = Path(tmp) / "clean.ydk"
        clean.write_bytes(DECKS[0].read_bytes())

        # validate: every injected line is a finding at its line
        res = cli("validate", str(deck), "-d", DATE, "-o", "json")
        assert res.code != 0
        (result,) = json.loads(res.stdout)["results"]
        assert _reported(kinds, text, result["violations"])

        # batch: the same findings in report.json
        out = Path(tmp) / "reports"
        res = cli("batch", str(folder), "--date", DATE, "--out", str(out), "--quiet")
        assert res.code != 0
        (row,) = json.loads((out / "report.json").read_text())["results"]
        assert _reported(kinds, text, row["violations"])

        # convert: refused naming the lines, or (lenient) written naming them
        for to in ("ydk", "ydke", "omega", "text", "json"):
            res = cli("convert", str(deck), "--to", to)
            assert _named(res.stderr, "deck.txt", unread), to  # each line named on stderr
            if unread and to in ("ydk", "ydke", "omega"):
                assert res.code == 2, to  # no room for them: refused
            # text and json keep a line naming no card as written, or refuse (exit 2)
            assert res.code in (0, 2), to
            lenient = cli("convert", str(deck), "--to", to, "--lenient")
            assert lenient.code == 0 and _named(lenient.stderr, "deck.txt", unread), to

        # fingerprint and diff: refused while a line is unread; never SAME
        res = cli("fingerprint", str(deck))
        if unread:
            assert res.code == 2 and _named(res.stderr, "deck.txt", unread)
        res = cli("diff", str(deck), str(deck))
        assert res.code == (2 if unread else 0)
        assert (res.code != 0) or "SAME" in res.stdout

        # sheet: the page lists the lines (and the run is not a pass)
        from deckcheck.reporter.sheet import build_sheet

        read = deckcheck.read_path(deck)
        sheet = build_sheet(read, deckcheck.validate(read, "tcg"))
        rows = " ".join(r.name for _, group in sheet.groups for r in group)
        assert all(f"line {n}," in rows for n in unread)
        res = cli("sheet", str(deck), "--out", str(Path(tmp) / "s.pdf"), "-d", DATE)
        assert res.code != 0

        # meta: counts them, each by number
        res = cli("meta", str(folder), "-o", "json")
        doc = json.loads(res.stdout)
        assert doc["unread_lines"] == len(unread)
        assert {u["line"] for e in doc["entries"] for u in e["unread"]} == unread

        # the service
        got = api.post("/v1/validate", json={"deck": text, "date": DATE}).json()
        assert _reported(kinds, text, got["violations"])
        got = api.post(
            "/v1/batch", json={"decks": [{"name": "d", "deck": text}], "date": DATE}
        ).json()
        assert _reported(kinds, text, got["results"][0]["violations"])
        got = api.post("/v1/convert", json={"deck": text, "to": "ydk"}).json()
        assert set(got["left_out"]) == unread


@pytest.fixture(scope="module")
def api() -> Any:
    from fastapi.testclient import TestClient

    from deckcheck.service import create_app

    return TestClient(create_app())
