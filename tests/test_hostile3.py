# ruff: noqa: F811  (the fixtures of test_update, imported)
"""Hostile input 3: updates, outputs, standard input, metagame signatures, manifests.

Each test is the repro of one problem, through the public API or the CLI with real files and
real servers on 127.0.0.1.
"""

from __future__ import annotations

import gzip
import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from deckcheck.data.dataset import Dataset
from deckcheck.data.http import Inflater
from deckcheck.data.update import UpdateStatus, update
from deckcheck.error import UpdateError

from .bundle_server import BundleServer
from .test_update import FAST, bundles, server, snapshot, with_a  # noqa: F401

DECK = Path(__file__).resolve().parent / "data" / "decks" / "legal"


def _a_deck() -> Path:
    return sorted(DECK.glob("*.ydk"))[0]


# -- updates ---------------------------------------------------------------------------------


def _decode(header: str, body: bytes, cap: int, step: int) -> bytes:
    inflater = Inflater(header, cap, "u")
    out = [b"".join(inflater.feed(body[i : i + step])) for i in range(0, len(body), step)]
    return b"".join(out) + b"".join(inflater.finish())


@pytest.mark.slow
@pytest.mark.parametrize("step", [1, 7, 4096, 1 << 20])
def test_multi_member_gzip_decodes_to_the_members_joined(step: int) -> None:
    a, b = os.urandom(70_000) * 3, b"world " * 50_000
    body = gzip.compress(a) + gzip.compress(b) + gzip.compress(b"")
    assert _decode("gzip", body, 1 << 30, step) == a + b
    twice = gzip.compress(body[:100]) + gzip.compress(body[100:])
    assert _decode("gzip, gzip", twice, 1 << 30, step) == a + b


def test_multi_member_bomb_is_refused_at_the_cap_with_bounded_memory() -> None:
    import tracemalloc

    member = gzip.compress(bytes(8 << 20), 9)  # 8 MiB of zeros in ~8 KB
    body = member * 256  # 2 GiB once decoded, ~2 MB on the wire
    inflater = Inflater("gzip", 64 << 20, "u")
    seen = 0
    tracemalloc.start()
    with pytest.raises(UpdateError, match="cap as it inflates"):
        for i in range(0, len(body), 1 << 16):
            for piece in inflater.feed(body[i : i + (1 << 16)]):
                seen += len(piece)  # decoded blocks are dropped, as the download writes them
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 4 << 20, peak
    assert 60 << 20 < seen <= 64 << 20


@pytest.mark.slow
def test_honest_two_member_gzip_answer_installs(
    home: Path, with_a: Dataset, server: BundleServer, bundles: dict[str, Path]
) -> None:
    raw = server.files["/b/names.json"]
    server.files["/b/names.json"] = gzip.compress(raw[: len(raw) // 2]) + gzip.compress(
        raw[len(raw) // 2 :]
    )
    server.faults["/b/names.json"] = ["enc:gzip"]
    result = update(server.url + "/b/", home=home, options=FAST)
    assert result.status is UpdateStatus.UPDATED
    assert result.data.fingerprint == Dataset.open(bundles["b"]).fingerprint


@pytest.mark.slow
@pytest.mark.parametrize("command", [["data", "update", "--source"], ["data", "diff", "--source"]])
def test_cli_timeout_is_the_deadline_of_a_trickling_server(
    cli: Callable[..., Any], home: Path, with_a: Dataset, server: BundleServer, command: list[str]
) -> None:
    server.slow_seconds = 0.05  # 64 bytes every 50 ms: never idle for the timeout
    name = "/b/cards.jsonl" if command[1] == "update" else "/b/manifest.json"
    server.faults[name] = ["trickle"]
    before = snapshot(home)
    start = time.monotonic()
    res = cli(*command, server.url + "/b/", "--timeout", "1", "--retries", "0")
    took = time.monotonic() - start
    assert res.code == 2, res.stderr
    assert "deadline" in res.stderr and name in res.stderr
    assert took < 8, took
    assert snapshot(home) == before


# -- outputs ---------------------------------------------------------------------------------


def _run(
    *args: str, stdin: int | None = None, umask: int | None = None, shell: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m deckcheck ARGS`` in a real process (``shell``: a bash line instead)."""
    cmd = ["bash", "-c", shell] if shell else [sys.executable, "-m", "deckcheck", *args]

    def before() -> None:
        if umask is not None:
            os.umask(umask)

    return subprocess.run(
        cmd,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        preexec_fn=before,
        stdin=stdin,
    )


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


OUTPUTS = {
    "validate": lambda out: ["validate", str(_a_deck()), "--out", out],
    "convert": lambda out: ["convert", str(_a_deck()), "--to", "ydke", "--out", out],
    "meta": lambda out: ["meta", str(_a_deck()), "--out", out],
    "banlist export": lambda out: ["banlist", "export", "tcg", "--out", out],
    # the case: a sheet (player names and IDs) went world-readable over a read-only file
    "sheet": lambda out: ["sheet", str(_a_deck()), "--player", "A. Player", "--out", out],
}


@pytest.mark.slow
@pytest.mark.parametrize("command", list(OUTPUTS))
def test_outputs_respect_the_umask_and_keep_an_old_files_mode(tmp_path: Path, command: str) -> None:
    new = tmp_path / "new.out"
    res = _run(*OUTPUTS[command](str(new)), umask=0o077)
    assert res.returncode in (0, 1), res.stderr
    assert _mode(new) == 0o600
    old = tmp_path / "old.out"
    old.write_text("old")
    old.chmod(0o640)
    res = _run(*OUTPUTS[command](str(old)), umask=0o022)
    assert res.returncode in (0, 1), res.stderr
    assert _mode(old) == 0o640 and old.read_bytes() != b"old"


@pytest.mark.slow
@pytest.mark.parametrize("command", list(OUTPUTS))
def test_outputs_refuse_a_read_only_file_naming_it(tmp_path: Path, command: str) -> None:
    target = tmp_path / "keep.out"
    target.write_text("keep me")
    target.chmod(0o444)
    res = _run(*OUTPUTS[command](str(target)))
    assert res.returncode == 2
    assert str(target) in res.stderr and "read-only" in res.stderr
    assert target.read_text() == "keep me" and _mode(target) == 0o444


def test_output_writer_refuses_a_read_only_file_even_as_root(tmp_path: Path) -> None:
    from deckcheck.boundary import write_file
    from deckcheck.error import OutputError

    target = tmp_path / "keep.out"
    target.write_text("keep me")
    target.chmod(0o444)  # no write bit at all: refused whoever runs it
    with pytest.raises(OutputError, match="read-only"):
        write_file(target, "new")
    assert target.read_text() == "keep me"
    with pytest.raises(OutputError, match="empty file name"):
        write_file("", "new")
    with pytest.raises(OutputError, match="folder"):
        write_file(tmp_path, "new")


def test_output_writer_is_atomic_and_writes_devices_in_place(tmp_path: Path) -> None:
    from deckcheck.boundary import write_file

    target = tmp_path / "link-target"
    target.write_text("old")
    link = tmp_path / "link"
    link.symlink_to(target)
    write_file(link, "new \ud800 text")
    assert link.is_symlink() and target.read_text() == "new \\ud800 text"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left
    write_file(os.devnull, b"to the null device")  # a device: written, never replaced
    assert Path(os.devnull).is_char_device()


def test_output_writer_refuses_a_fifo_that_nothing_reads(tmp_path: Path) -> None:
    from deckcheck.boundary import write_file
    from deckcheck.error import OutputError

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(OutputError, match="FIFO"):
        write_file(fifo, "text")
    assert time.monotonic() - start < 5


@pytest.mark.parametrize(
    "args",
    [
        ["batch", str(DECK), "--out", ""],
        ["validate", str(DECK), "--out", ""],
        ["convert", "x.ydk", "--out", ""],
        ["meta", str(DECK), "--out", ""],
        ["sheet", str(DECK), "--out", ""],
        ["validate", str(DECK), "--sarif", ""],
    ],
)
def test_an_empty_output_name_is_refused(
    cli: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    res = cli(*args)
    assert res.code == 2
    assert "empty file name" in res.stderr
    assert list(tmp_path.iterdir()) == []


def test_batch_keeps_the_mode_of_old_reports_and_refuses_a_read_only_one(
    cli: Callable[..., Any], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    assert cli("batch", str(DECK), "--out", str(out), "--quiet").code in (0, 1)
    (out / "report.csv").chmod(0o600)
    assert cli("batch", str(DECK), "--out", str(out), "--quiet").code in (0, 1)
    assert _mode(out / "report.csv") == 0o600
    (out / "report.json").chmod(0o444)
    before = (out / "report.json").read_bytes()
    res = cli("batch", str(DECK), "--out", str(out), "--quiet")
    assert res.code == 2 and "report.json" in res.stderr and "read-only" in res.stderr
    assert (out / "report.json").read_bytes() == before


# -- standard input --------------------------------------------------------------------------

STDIN_COMMANDS = [
    ["validate", "-"],
    ["batch", "-", "--out", "{tmp}/out"],
    ["convert", "-", "--to", "ydke"],
    ["fingerprint", "-"],
    ["sheet", "-", "--out", "{tmp}/s.pdf"],
    ["meta", "-"],
    ["simulate", "-"],
    ["diff", "-", "{deck}"],
    ["upcoming", "-"],
]


@pytest.mark.slow
@pytest.mark.parametrize("args", STDIN_COMMANDS, ids=lambda a: a[0])
def test_closed_standard_input_is_a_clear_error(tmp_path: Path, args: list[str]) -> None:
    words = [a.format(tmp=tmp_path, deck=_a_deck()) for a in args]
    line = " ".join([sys.executable, "-m", "deckcheck", *words]) + " 0<&-"
    res = _run(shell=line)
    assert res.returncode == 2, (res.returncode, res.stderr)
    assert "unexpected" not in res.stderr and "Traceback" not in res.stderr
    if words[0] != "sheet" or "reportlab" not in res.stderr:
        assert "standard input" in res.stderr, res.stderr


# -- lone surrogates -------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("to", ["text", "json", "ydk", "omega", "ydke"])
def test_a_lone_surrogate_is_escaped_by_convert(tmp_path: Path, to: str) -> None:
    deck = tmp_path / "deck.json"
    deck.write_text('{"deckcheck": 1, "name": "Pot \\ud800 Deck", "main": [55144522]}')
    res = _run("convert", str(deck), "--to", to)
    assert res.returncode == 0, res.stderr
    out = tmp_path / f"deck.{to}"
    assert _run("convert", str(deck), "--to", to, "--out", str(out)).returncode == 0
    assert out.read_text(encoding="utf-8") == res.stdout
    if to in ("text", "json", "ydk"):
        assert "Pot \\ud800 Deck" in res.stdout
    if to == "json":
        assert json.loads(res.stdout)["name"] == "Pot \ud800 Deck"  # the same name read back


@pytest.mark.slow
def test_a_lone_surrogate_in_a_card_name_is_escaped_by_data_diff(tmp_path: Path) -> None:
    from datetime import date

    from deckcheck.data.bundle import write_manifest

    old, new = tmp_path / "old", tmp_path / "new"
    Dataset.bundled().export(old)
    Dataset.bundled().export(new)
    lines = (new / "cards.jsonl").read_text(encoding="utf-8").splitlines()
    row = [
        99990003,
        0,
        0,
        "Pot \ud800 of Diffs",
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
    (new / "cards.jsonl").write_text("\n".join([*lines, json.dumps(row)]) + "\n")
    write_manifest(new, date(2026, 12, 1))
    for output in ("json", "text", "markdown"):
        res = _run("data", "diff", str(old), str(new), "-o", output)
        assert res.returncode == 0, res.stderr
        assert "Pot \\ud800 of Diffs" in res.stdout
    res = _run("data", "diff", str(old), str(new), "-o", "json")
    names = [c["name"] for c in json.loads(res.stdout)["new_cards"]["tcg"]]
    assert "Pot \ud800 of Diffs" in names


# -- metagame signatures ---------------------------------------------------------------------


def _signature_cases(tmp_path: Path) -> dict[str, str]:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    big = tmp_path / "big.toml"
    with big.open("wb") as handle:
        handle.truncate(1 << 30)  # 1 GiB (sparse)
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 50_000 + "]" * 50_000 + "\n")
    utf = tmp_path / "bad.toml"
    utf.write_bytes(b'[archetypes."\xff\xfe"]\ncards = ["Pot of Greed"]\n')
    names = {
        "fifo": fifo,
        "zero": Path("/dev/zero"),
        "big": big,
        "deep": deep,
        "utf": utf,
        "folder": tmp_path,
        "missing": tmp_path / "none",
    }
    return {k: str(v) for k, v in names.items()}


@pytest.mark.slow
@pytest.mark.parametrize("case", ["fifo", "zero", "big", "deep", "utf", "folder", "missing"])
def test_meta_signatures_are_read_with_a_bound(tmp_path: Path, case: str) -> None:
    path = _signature_cases(tmp_path)[case]
    start = time.monotonic()
    for command in (["meta", str(_a_deck())], ["batch", str(_a_deck()), "--out", "o"]):
        res = _run(*command, "--signatures", path)
        assert res.returncode == 2, res.stderr
        assert path in res.stderr and "unexpected" not in res.stderr, res.stderr
    assert time.monotonic() - start < 30


def test_meta_signature_reader_memory_is_bounded(tmp_path: Path) -> None:
    import tracemalloc

    from deckcheck.error import InputError
    from deckcheck.run.signature import load_rules

    path = _signature_cases(tmp_path)["big"]
    tracemalloc.start()
    with pytest.raises(InputError, match="limit"):
        load_rules(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 8 << 20


# -- manifests -------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_manifest_listing_too_many_files_is_refused(
    home: Path, with_a: Dataset, server: BundleServer
) -> None:
    from deckcheck.data.dataset import MAX_MANIFEST_FILES

    doc = json.loads(server.files["/b/manifest.json"])
    for i in range(MAX_MANIFEST_FILES):
        doc["files"][f"extra-{i}.json"] = "0" * 64
    server.files["/b/manifest.json"] = json.dumps(doc).encode()
    before = snapshot(home)
    with pytest.raises(UpdateError, match="over the 64 a bundle may hold"):
        update(server.url + "/b/", home=home, options=FAST)
    assert snapshot(home) == before
    assert server.paths_requested() == ["/b/manifest.json"]  # nothing more fetched
