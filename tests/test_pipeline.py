"""One road from sources to verdicts: every face (validate, batch, upcoming, the service's
/v1/batch) reads the same input the same way; the repros of the pipeline issue, each a test."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import random
import struct
import zipfile
from pathlib import Path
from typing import Any

import httpx
import pytest

from deckcheck.data.dataset import Dataset
from deckcheck.deck.io import read_deck
from deckcheck.deck.io.omega import dump_omega
from deckcheck.deck.io.ydke import dump_ydke
from deckcheck.run.batch import check
from deckcheck.run.forecast import forecast
from deckcheck.service import create_app
from deckcheck.source.archive import ArchiveError, read_archive

ROOT = Path(__file__).resolve().parent.parent
LEGAL = (ROOT / "examples" / "tcg-legal.ydk").read_bytes()
PROBLEMS = (ROOT / "examples" / "problems.ydk").read_bytes()
ON = "2025-03-01"
"""A date with a next TCG list ahead (2025-04-07)."""
NOT_A_DECK = b"Remember to bring sleeves.\nTables open at nine.\n"


def post(app: Any, url: str, **kw: Any) -> httpx.Response:
    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            return await c.post(url, **kw)

    return asyncio.run(go())


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app()


def omega_with_slash() -> str:
    """An Omega code of a legal deck whose base64 holds a ``/`` (most real codes do)."""
    deck = read_deck(LEGAL)
    for cut in range(0, 20):
        smaller = read_deck(b"#main\n" + b"\n".join(LEGAL.split(b"\n")[2 : 45 - cut]))
        code = dump_omega(smaller if cut else deck)
        if "/" in code:
            return code
    raise AssertionError("no Omega code with a '/' found")


def mixed_tree() -> dict[str, bytes]:
    """A tree holding every kind of entry a scan meets: decks, a hidden folder, an AppleDouble
    file, a notes.txt that is not a deck, a JSON file that is not a deck, a resource folder."""
    return {
        "decks/legal.ydk": LEGAL,
        "decks/problems.ydk": PROBLEMS,
        "decks/._legal.ydk": b"\x00\x05\x16\x07junk",
        ".drafts/secret.ydk": PROBLEMS,
        "notes.txt": NOT_A_DECK,
        "meta/info.json": b'{"event": "locals"}',
        "__MACOSX/decks/._problems.ydk": b"junk",
        "decks/list.txt": (ROOT / "examples" / "decklist.txt").read_bytes(),
    }


def zip_of(entries: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


def write_tree(folder: Path, entries: dict[str, bytes]) -> None:
    for name, data in entries.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def strip(label: str) -> str:
    """A label without its archive or folder prefix."""
    return label.split("!/", 1)[-1].split("/tree/", 1)[-1]


EXPECTED_VERDICTS = {"decks/legal.ydk": True, "decks/problems.ydk": False, "decks/list.txt": True}
EXPECTED_SKIPS = {
    "decks/._legal.ydk": "hidden file",
    ".drafts": "hidden folder",
    "notes.txt": "not a deck list",
    "meta/info.json": "not a deckcheck deck JSON file",
    "__MACOSX": "macOS resource folder",
}


@pytest.mark.slow
def test_one_sniff_rule_for_folders_zips_on_disk_and_uploads(tmp_path: Path, app: Any) -> None:
    tree = tmp_path / "tree"
    write_tree(tree, mixed_tree())
    archive = tmp_path / "decks.zip"
    archive.write_bytes(zip_of(mixed_tree()))
    for batch in (check([str(tree)], "tcg", None), check([str(archive)], "tcg", None)):
        assert {strip(r.path or ""): r.legal for r in batch.reports} == EXPECTED_VERDICTS
        assert {strip(k.path): k.reason for k in batch.skipped} == EXPECTED_SKIPS
        assert not batch.unreadable
    doc = post(
        app, "/v1/batch", content=archive.read_bytes(), headers={"Content-Type": "application/zip"}
    ).json()
    assert {r["path"]: r["legal"] for r in doc["results"]} == EXPECTED_VERDICTS
    assert {k["path"]: k["reason"] for k in doc["skipped"]} == EXPECTED_SKIPS


def registrations(folder: Path) -> Path:
    """A registrations CSV with every row kind, its deck files beside it."""
    (folder / "decks").mkdir(parents=True, exist_ok=True)
    (folder / "decks" / "ada.ydk").write_bytes(LEGAL)
    (folder / "decks" / "bob.ydk").write_bytes(PROBLEMS)
    legal = read_deck(LEGAL)
    rows = [
        ["player_id", "player", "deck", "table"],
        ["1", "Ada", "decks/ada.ydk", "1"],
        ["2", "Bob", "decks/bob.ydk", "2"],
        ["3", "Cy", "3 Pot of Greed\n3 Raigeki", "3"],
        ["4", "Di", dump_ydke(legal), "4"],
        ["5", "Ed", omega_with_slash(), "5"],
        ["6", "Flo", "decks/missing.ydk", "6"],
        ["7", "Gus", "", "7"],
        ["1", "Ada again", "decks/ada.ydk", "8"],
    ]
    path = folder / "regs.csv"
    with open(path, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    return path


EXPECTED_ROWS = [
    ("Ada", "legal"),
    ("Bob", "illegal"),
    ("Cy", "illegal"),
    ("Di", "legal"),
    ("Ed", "legal"),
    ("Flo", "unreadable"),
    ("Gus", "unreadable"),
    ("Ada again", "duplicate"),
]


def test_omega_cell_with_a_slash_is_a_deck_not_a_path(tmp_path: Path) -> None:
    code = omega_with_slash()
    assert "/" in code
    path = registrations(tmp_path)
    batch = check([str(path)], "tcg", None)
    (ed,) = [r for r in batch.rows if r.registration and r.registration.player == "Ed"]
    assert not hasattr(ed, "error"), ed
    assert getattr(ed, "legal", None) is True


def test_validate_keeps_registration_order_in_every_report(tmp_path: Path, cli: Any) -> None:
    path = registrations(tmp_path)
    res = cli("validate", str(path), "--date", ON, "-o", "csv", "--no-config")
    assert res.code == 2  # unreadable rows
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    assert [(r["player"], r["status"]) for r in rows] == EXPECTED_ROWS
    out = tmp_path / "out"
    assert cli("batch", str(path), "--date", ON, "--out", str(out)).code == 2
    with open(out / "report.csv", encoding="utf-8", newline="") as handle:
        batch_rows = list(csv.DictReader(handle))
    assert [(r["player"], r["status"]) for r in batch_rows] == EXPECTED_ROWS


def test_upcoming_reads_inline_registrations_and_zips(tmp_path: Path, cli: Any) -> None:
    path = registrations(tmp_path)
    fc = forecast([str(path)], date=__import__("datetime").date.fromisoformat(ON))
    cy = next(d for d in fc.decks if d.path.endswith(":4"))  # the inline list (line 4)
    assert {v.code.value for v in cy.now.errors} >= {"forbidden"}  # Pot of Greed
    assert cy.now.counts["main"] == 6  # the list itself, not the CSV read as a deck
    archive = tmp_path / "decks.zip"
    archive.write_bytes(zip_of(mixed_tree()))
    res = cli("upcoming", str(archive), "--date", ON, "-o", "json", "--no-config")
    doc = json.loads(res.stdout)
    assert res.code in (0, 1), res.stderr
    assert {strip(d["path"]): d["legal_now"] for d in doc["decks"]} == EXPECTED_VERDICTS
    assert not doc["unreadable"]


@pytest.mark.slow
def test_every_face_gives_the_same_decks_verdicts_and_skips(
    tmp_path: Path, cli: Any, app: Any
) -> None:
    archive = tmp_path / "decks.zip"
    archive.write_bytes(zip_of(mixed_tree()))
    regs = registrations(tmp_path / "event")
    bundle = tmp_path / "event.zip"
    event = tmp_path / "event"
    files = [p for p in event.rglob("*") if p.is_file()]
    bundle.write_bytes(zip_of({p.relative_to(event).as_posix(): p.read_bytes() for p in files}))
    common = ("--date", ON, "--no-config")
    for given in (archive, regs, bundle):
        val = json.loads(cli("validate", str(given), *common, "-o", "json").stdout)
        out = tmp_path / f"out-{given.stem}"
        cli("batch", str(given), "--date", ON, "--out", str(out))
        bat = json.loads((out / "report.json").read_text(encoding="utf-8"))
        upc = json.loads(cli("upcoming", str(given), *common, "-o", "json").stdout)
        faces = [
            (
                {strip(r["path"]): r["legal"] for r in val["results"]},
                {strip(u["path"]) for u in val["unreadable"]},
                {strip(k["path"]): k["reason"] for k in val["skipped"]},
            ),
            (
                {strip(r["path"]): r["legal"] for r in bat["results"]},
                {strip(u["path"]) for u in bat["unreadable"]},
                {strip(k["path"]): k["reason"] for k in bat["skipped"]},
            ),
            (
                {strip(d["path"]): d["legal_now"] for d in upc["decks"]},
                {strip(u["path"]) for u in upc["unreadable"]},
                None,
            ),
        ]
        if given.suffix == ".zip":
            web = post(
                app,
                f"/v1/batch?date={ON}",
                content=given.read_bytes(),
                headers={"Content-Type": "application/zip"},
            ).json()
            faces.append(
                (
                    {strip(r["path"]): r["legal"] for r in web["results"]},
                    {strip(u["path"]) for u in web["unreadable"]},
                    {strip(k["path"]): k["reason"] for k in web["skipped"]},
                )
            )
        first = faces[0]
        assert first[0], given
        for face in faces[1:]:
            # the labels of an archive on disk carry its path; the service names entries only
            assert {k.rsplit(":", 1)[-1] if ".csv:" in k else k: v for k, v in face[0].items()} == {
                k.rsplit(":", 1)[-1] if ".csv:" in k else k: v for k, v in first[0].items()
            }
            assert len(face[1]) == len(first[1])
            if face[2] is not None:
                assert face[2] == first[2]


def test_convert_of_a_ydk_without_sections_is_answered(app: Any) -> None:
    resp = post(app, "/v1/convert", json={"deck": "#main\n55144522\n70095154\n", "to": "ydke"})
    assert resp.status_code == 200, resp.text
    codes = {f["code"] for f in resp.json()["findings"]}
    assert "missing-sections" in codes


def test_every_reader_finding_code_is_in_the_service_model() -> None:
    from deckcheck.deck.model import FindingCode
    from deckcheck.service.model import FindingDoc

    for code in FindingCode:  # the enum walked: a code added later is covered too
        doc = FindingDoc.model_validate(
            {
                "code": code.value,
                "message": "m",
                "line": None,
                "text": None,
                "section": None,
                "suggestions": [],
            }
        )
        assert doc.model_dump(mode="json")["code"] == code.value
    schema = FindingDoc.model_json_schema()
    assert set(schema["$defs"]["FindingCode"]["enum"]) == {c.value for c in FindingCode}


# -- hostile zips --------------------------------------------------------------------------------


def test_duplicate_entry_names_refuse_the_archive(tmp_path: Path, app: Any) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z, pytest.warns(UserWarning, match="Duplicate"):
        z.writestr("deck.ydk", PROBLEMS)
        z.writestr("deck.ydk", LEGAL)
    path = tmp_path / "dup.zip"
    path.write_bytes(buf.getvalue())
    with pytest.raises(ArchiveError, match=r"two entries are named 'deck\.ydk'"):
        read_archive(str(path))
    batch = check([str(path)], "tcg", None)
    assert batch.exit_code == 2 and not batch.reports
    (bad,) = batch.unreadable
    assert "two entries" in bad.error
    resp = post(
        app, "/v1/batch", content=buf.getvalue(), headers={"Content-Type": "application/zip"}
    )
    assert resp.status_code == 422 and "two entries" in resp.json()["error"]["message"]


def test_entry_count_is_checked_before_the_directory_is_read(tmp_path: Path) -> None:
    from deckcheck.source.archive import Limits

    raw = zip_of({f"{i}.ydk": LEGAL for i in range(30)})
    with pytest.raises(ArchiveError, match="30 entries; the limit is 10"):
        read_archive(raw, limits=Limits(max_entries=10))
    # an end record that lies about the count: the directory itself is counted, up to the cap
    at = raw.rfind(b"PK\x05\x06")
    liar = bytearray(raw)
    struct.pack_into("<HH", liar, at + 8, 5, 5)
    with pytest.raises(ArchiveError, match="over 10 entries"):
        read_archive(bytes(liar), limits=Limits(max_entries=10))


@pytest.mark.slow
def test_corrupt_entries_are_per_entry_unreadable(tmp_path: Path, app: Any) -> None:
    for method in (zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):
        raw = bytearray(zip_of({"a.ydk": LEGAL * 3, "b.ydk": PROBLEMS}, method))
        at = raw.find(b"a.ydk") + 5 + 40  # inside a.ydk's compressed data
        raw[at : at + 16] = bytes(16)
        path = tmp_path / f"bad{method}.zip"
        path.write_bytes(bytes(raw))
        batch = check([str(path)], "tcg", None)
        assert [strip(r.path or "") for r in batch.reports] == ["b.ydk"]
        (bad,) = batch.unreadable
        assert "damaged archive entry" in bad.error and "unexpected" not in bad.error
        resp = post(
            app, "/v1/batch", content=bytes(raw), headers={"Content-Type": "application/zip"}
        )
        assert resp.status_code == 200
        assert [u["path"] for u in resp.json()["unreadable"]] == ["a.ydk"]


def _mutants(n: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    methods = (zipfile.ZIP_DEFLATED, zipfile.ZIP_LZMA, zipfile.ZIP_BZIP2, zipfile.ZIP_STORED)
    bases = [zip_of(mixed_tree(), m) for m in methods]
    out = []
    for _ in range(n):
        raw = bytearray(rng.choice(bases))
        for _ in range(rng.randint(1, 8)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        out.append(bytes(raw))
    return out


@pytest.mark.slow
def test_500_mutated_zips_never_give_a_5xx_nor_an_unexpected_error(
    tmp_path: Path, app: Any, cli: Any
) -> None:
    ds = Dataset.active()
    statuses: dict[int, int] = {}
    for i, raw in enumerate(_mutants(500, 19)):
        path = tmp_path / f"m{i}.zip"
        path.write_bytes(raw)
        batch = check([str(path)], "tcg", None, data=ds)
        assert not [u for u in batch.unreadable if "unexpected" in u.error]
        if i % 10 == 0:  # and through the command line's own road, every tenth
            res = cli("validate", str(path), "--no-config", "-o", "json")
            assert res.code in (0, 1, 2) and "unexpected" not in res.stderr, res.stderr
        resp = post(app, "/v1/batch", content=raw, headers={"Content-Type": "application/zip"})
        statuses[resp.status_code] = statuses.get(resp.status_code, 0) + 1
        assert resp.status_code < 500, resp.text
        assert "unexpected" not in resp.text
    assert statuses.get(200, 0) > 100  # most mutants still hold readable entries


# -- the validation engine under threads ------------------------------------------------------


def test_threads_learning_card_facts_at_once_agree_with_one_thread() -> None:
    import sys
    from concurrent.futures import ThreadPoolExecutor
    from datetime import date

    from deckcheck.validation.engine import validate

    folder = Dataset.active().folder
    cards = [ln for ln in LEGAL.decode().splitlines() if ln.strip().isdigit()]
    problems = [ln for ln in PROBLEMS.decode().splitlines() if ln.strip().isdigit()]
    rng = random.Random(7)
    decks = []
    for _ in range(60):
        main = rng.sample(cards, 30) + rng.sample(problems, 3) * 2
        decks.append(read_deck(("#main\n" + "\n".join(main) + "\n#extra\n!side\n").encode()))
    when = date(2025, 6, 1)
    alone = Dataset.open(folder)
    expected = [validate(d, "tcg", when, data=alone).violations for d in decks]
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        for _ in range(3):
            fresh = Dataset.open(folder)  # nothing learnt yet: every thread learns at once
            with ThreadPoolExecutor(8) as pool:
                futures = [pool.submit(validate, d, "tcg", when, data=fresh) for d in decks]
            got = [f.result().violations for f in futures]
            assert got == expected
    finally:
        sys.setswitchinterval(old)


def test_a_date_before_the_first_list_stops_every_face_with_one_line(cli: Any) -> None:
    deck = str(ROOT / "examples" / "problems.ydk")
    for command in ("validate", "upcoming"):
        res = cli(command, deck, "--date", "1990-01-01", "--no-config")
        assert res.code == 2
        assert res.stderr.count("error:") == 1 and "before the first" in res.stderr
        assert "unexpected" not in res.stderr


def test_sources_as_a_stream_of_found_skipped_unreadable(tmp_path: Path) -> None:
    from deckcheck.source.record import Skipped, Source, Unreadable
    from deckcheck.source.scan import records

    write_tree(tmp_path / "tree", mixed_tree())
    got = list(records([str(tmp_path / "tree"), str(tmp_path / "missing.ydk")]))
    found = {strip(r.label) for r in got if isinstance(r, Source)}
    skipped = {strip(r.path): r.reason for r in got if isinstance(r, Skipped)}
    (missing,) = [r for r in got if isinstance(r, Unreadable)]
    assert found == set(EXPECTED_VERDICTS) and skipped == EXPECTED_SKIPS
    assert "no such file" in missing.error


@pytest.mark.slow
def test_a_zip64_directory_is_counted_before_it_is_read() -> None:
    from deckcheck.source.archive import Limits

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for i in range(66_000):  # over 65,535 entries: zip64 end records
            z.writestr(f"{i}", b"")
    raw = buf.getvalue()
    assert b"PK\x06\x06" in raw
    with pytest.raises(ArchiveError, match="66000 entries; the limit is 1000"):
        read_archive(raw, limits=Limits(max_entries=1000))
    liar = bytearray(raw)
    struct.pack_into("<QQ", liar, raw.rfind(b"PK\x06\x06") + 24, 5, 5)  # "5 entries"
    with pytest.raises(ArchiveError, match="over 1000 entries"):
        read_archive(bytes(liar), limits=Limits(max_entries=1000))


def test_validate_with_jobs_gives_one_process_answers(tmp_path: Path, cli: Any) -> None:
    repo = tmp_path / "repo"
    for i in range(70):  # over the fewest sources worth worker processes
        folder = repo / ("goat" if i % 2 else "tcg")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"d{i:02}.ydk").write_bytes(LEGAL if i % 3 else PROBLEMS)
    (repo / "deckcheck.toml").write_text(
        '[folders]\n"goat/**" = "goat"\n[ignore]\n"tcg/**" = ["copies"]\n', encoding="utf-8"
    )
    config = str(repo / "deckcheck.toml")
    one = cli("validate", str(repo), "--config", config, "--date", ON, "-o", "json")
    two = cli("validate", str(repo), "--config", config, "--date", ON, "-o", "json", "-j", "2")
    assert one.code == two.code and one.stdout == two.stdout
    doc = json.loads(one.stdout)  # every deck in its folder's format, tcg's copies ignored
    assert {r["format"] for r in doc["results"]} == {"goat", "tcg"}
    assert not [
        v
        for r in doc["results"]
        if r["format"] == "tcg"
        for v in r["violations"]
        if v["code"] == "copies"
    ]


@pytest.mark.slow
def test_batch_upload_takes_tcg_region_and_timeline_as_form_fields(app: Any) -> None:
    raw = zip_of({"a.ydk": LEGAL})
    on = "2024-04-18"  # April 2024: na 2024-04-15, eu 2024-04-22

    def banlist(**fields: str) -> Any:
        resp = post(
            app,
            "/v1/batch",
            data={"date": on, **fields},
            files={"file": ("decks.zip", raw, "application/zip")},
        )
        assert resp.status_code == 200, resp.text
        return resp.json()["results"][0]["banlist"]["effective"]

    assert banlist() == banlist(tcg_region="na") == "2024-04-15"
    assert banlist(tcg_region="eu") == banlist(region="eu") == "2024-01-01"
    ocg = post(
        app,
        "/v1/batch",
        data={"date": on, "timeline": "ocg"},
        files={"file": ("decks.zip", raw, "application/zip")},
    ).json()
    assert ocg["format"] == "ocg"
    bad = post(
        app,
        "/v1/batch",
        data={"date": on, "tcg_region": "mars"},
        files={"file": ("decks.zip", raw, "application/zip")},
    )
    assert bad.status_code == 422 and "unknown TCG region" in bad.json()["error"]["message"]
