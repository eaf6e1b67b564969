"""Hostile or mistaken input: no crash, no silent loss, no misleading output.

One regression test per finding of the hardening review, named after what it protects.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import deckcheck
from deckcheck.card import CardIndex
from deckcheck.data.dataset import Dataset
from deckcheck.error import DeckReadError, GoldfishError, UnknownCardError

ROOT = Path(__file__).resolve().parent.parent
LEGAL = ROOT / "examples" / "tcg-legal.ydk"

Cli = Callable[..., object]


def _no_traceback(text: str) -> None:
    assert "Traceback" not in text
    assert "unexpected" not in text


# --------------------------------------------------------------------------------------------
# crashes


def test_deeply_nested_json_deck_is_unreadable_not_a_crash(cli, tmp_path: Path) -> None:
    deck = tmp_path / "nested.json"
    deck.write_text("[" * 1000)
    res = cli("validate", str(deck))
    assert res.code == 2
    assert "nested too deeply" in res.stderr
    _no_traceback(res.stderr)
    with pytest.raises(DeckReadError):
        deckcheck.read_path(deck)


def test_deeply_nested_json_in_a_folder_does_not_stop_the_batch(cli, tmp_path: Path) -> None:
    (tmp_path / "nested.json").write_text("[" * 1000 + "]" * 1000)
    (tmp_path / "deck.ydk").write_bytes(LEGAL.read_bytes())
    res = cli("validate", str(tmp_path), "--date", "2025-06-01")
    assert res.code == 0, res.stderr
    assert "deck.ydk" in res.stdout
    _no_traceback(res.stderr)


@pytest.mark.parametrize("option", ["--format-file", "--spec"])
def test_deeply_nested_toml_is_a_clear_error(cli, tmp_path: Path, option: str) -> None:
    bad = tmp_path / "nested.toml"
    bad.write_text("a = " + "[" * 1000 + "]" * 1000 + "\n")
    command = "validate" if option == "--format-file" else "simulate"
    res = cli(command, str(LEGAL), option, str(bad))
    assert res.code == 2
    assert "nested.toml" in res.stderr
    _no_traceback(res.stderr)


def test_zero_padded_passcode_of_4300_digits_is_read(cli, tmp_path: Path) -> None:
    deck = tmp_path / "long.ydk"
    deck.write_text("#main\n" + "0" * 4300 + "14558127\n")
    parsed = deckcheck.read_path(deck)
    assert [c.passcode for c in parsed] == [14558127]
    res = cli("validate", str(deck))
    assert res.code == 1  # a 1-card Main Deck: illegal, not a crash
    _no_traceback(res.stderr)


@pytest.mark.parametrize("query", ["²", "①", "9" * 4301, "0" * 5000 + "1"])
def test_odd_digits_in_cards_show_are_unknown_cards(cli, query: str) -> None:
    res = cli("cards", "show", query)
    assert res.code == 2
    assert "unknown card" in res.stderr
    _no_traceback(res.stderr)
    with pytest.raises(UnknownCardError):
        Dataset.active().cards.lookup(query)


def test_condition_with_a_5000_digit_number_is_a_condition_error() -> None:
    from deckcheck.error import ConditionError
    from deckcheck.goldfish.condition import parse_condition

    with pytest.raises(ConditionError):
        parse_condition("x >= " + "9" * 5000, {"x"})


def test_negative_seed_is_exit_2_not_a_crash(cli) -> None:
    res = cli("simulate", str(LEGAL), "--seed", "-1")
    assert res.code == 2
    assert "seed" in res.stderr
    _no_traceback(res.stderr)


@pytest.mark.parametrize(
    "options",
    [{"seed": -1}, {"seed": 1.5}, {"exact": "x"}, {"going": []}, {"seed": True}],
)
def test_simulate_rejects_bad_options_with_goldfish_error(options: dict[str, object]) -> None:
    deck = deckcheck.read_path(LEGAL)
    with pytest.raises(GoldfishError):
        deckcheck.simulate(deck, **options)  # type: ignore[arg-type]


@pytest.mark.slow
def test_stdout_write_error_is_exit_2_with_a_message() -> None:
    if not Path("/dev/full").exists():  # pragma: no cover - Linux has it
        pytest.fail("/dev/full is needed for this test")
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "deckcheck", "validate", str(LEGAL), "--date", "2025-06-01"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert proc.returncode == 2
    assert "cannot write the output: No space left on device" in proc.stderr
    _no_traceback(proc.stderr)


@pytest.mark.slow
def test_non_utf8_file_name_is_escaped_and_json_stays_valid(tmp_path: Path) -> None:
    folder = os.fsencode(tmp_path)
    name = os.path.join(folder, b"deck-\xff.ydk")
    with open(name, "wb") as handle:
        handle.write(LEGAL.read_bytes())
    base = [sys.executable, "-m", "deckcheck", "validate", str(tmp_path), "--date", "2025-06-01"]
    text = subprocess.run(base, capture_output=True, check=False)
    assert text.returncode == 0, text.stderr
    assert b"deck-\\xff.ydk" in text.stdout
    as_json = subprocess.run([*base, "-o", "json"], capture_output=True, check=False)
    assert as_json.returncode == 0
    doc = json.loads(as_json.stdout.decode("utf-8"))
    assert doc["results"][0]["path"].endswith("deck-\\xff.ydk")


# --------------------------------------------------------------------------------------------
# folder scans


def _deep_folder(base: Path, depth: int = 18) -> tuple[Path, Path]:
    """A chain of 240-character folder names whose full path passes PATH_MAX (even root cannot
    list its end by path); returns (top folder, deepest folder)."""
    name = "d" * 240
    fd = os.open(base, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir(name, dir_fd=fd)
            new = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = new
        with open(os.open("deck.ydk", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "wb") as f:
            f.write(LEGAL.read_bytes())
    finally:
        os.close(fd)
    return base / name, base.joinpath(*[name] * depth)


def test_unreadable_sub_folder_makes_the_scan_exit_2(cli, tmp_path: Path) -> None:
    (tmp_path / "deck.ydk").write_bytes(LEGAL.read_bytes())
    _deep_folder(tmp_path)
    res = cli("validate", str(tmp_path), "--date", "2025-06-01")
    assert res.code == 2
    assert "cannot list folder" in res.stderr
    assert "LEGAL" in res.stdout  # the readable deck is still checked


def test_unreadable_json_is_unreadable_not_called_not_a_deck(cli, tmp_path: Path) -> None:
    # a folder path just under PATH_MAX, so the file's own path is over it
    parts = [tmp_path]
    while len(str(Path(*parts))) < 3800:
        parts.append(Path("h" * 200))
    fd = os.open(tmp_path, os.O_RDONLY)
    for part in parts[1:]:
        os.mkdir(str(part), dir_fd=fd)
        new = os.open(str(part), os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = new
    name = "x" * 250 + ".json"
    with open(os.open(name, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "w") as f:
        f.write('{"deckcheck": 1, "main": []}')
    os.close(fd)
    (tmp_path / "deck.ydk").write_bytes(LEGAL.read_bytes())
    res = cli("validate", str(tmp_path), "--date", "2025-06-01", "-o", "json")
    assert res.code == 2
    doc = json.loads(res.stdout)
    assert [u["path"].endswith(".json") for u in doc["unreadable"]] == [True]
    assert not any(k["path"].endswith(".json") for k in doc["skipped"])


def test_file_symlink_out_of_the_scanned_folder_is_skipped_with_a_note(cli, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.txt"
    secret.write_text("3 Pot of Greed\nprivate line\n")
    scan = tmp_path / "scan"
    scan.mkdir()
    (scan / "deck.ydk").write_bytes(LEGAL.read_bytes())
    (scan / "leak.txt").symlink_to(secret)
    (scan / "same.ydk").symlink_to(scan / "deck.ydk")
    res = cli("validate", str(scan), "--date", "2025-06-01")
    assert res.code == 0, res.stderr
    assert "private line" not in res.stdout + res.stderr
    assert "leak.txt" not in res.stdout
    assert "symbolic link out of the folder" in res.stderr
    assert "same.ydk" in res.stdout  # a link inside the folder is followed


def test_broken_symlink_named_like_a_deck_is_unreadable(cli, tmp_path: Path) -> None:
    (tmp_path / "deck.ydk").write_bytes(LEGAL.read_bytes())
    (tmp_path / "gone.ydk").symlink_to(tmp_path / "missing.ydk")
    (tmp_path / "loop.ydk").symlink_to(tmp_path / "loop.ydk")
    res = cli("validate", str(tmp_path), "--date", "2025-06-01")
    assert res.code == 2
    assert "gone.ydk" in res.stderr
    assert "loop.ydk" in res.stderr


def test_scan_skips_tool_folders_gitignore_and_non_deck_txt_in_one_line(
    cli, tmp_path: Path
) -> None:
    deck = LEGAL.read_bytes()
    for folder in ("decks", ".venv/lib", "node_modules/pkg", ".cache", "build", "env"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    for path in (
        "decks/a.ydk",
        ".venv/lib/x.ydk",
        "node_modules/pkg/y.ydk",
        ".cache/z.ydk",
        "build/b.ydk",
        "env/e.ydk",
        "decks/old.ydk",
        "decks/.hidden.ydk",
    ):
        (tmp_path / path).write_bytes(deck)
    (tmp_path / ".gitignore").write_text("build/\n*.tmp\nold.ydk\n")
    (tmp_path / "decks" / "list.txt").write_text(
        "Main Deck\n3 Ash Blossom & Joyous Spring\n2x Pot of Desires\nMonster Reborn\n"
    )
    (tmp_path / "LICENSE.txt").write_text(
        "MIT License\n\nPermission is hereby granted, free of charge, to any person\n"
        "obtaining a copy of this software\n"
    )
    (tmp_path / "requirements.txt").write_text("numpy>=1.26\nrequests\ntyper<0.29\n")
    (tmp_path / "decks" / "skip-me.ydk").write_bytes(deck)
    res = cli("validate", str(tmp_path), "--date", "2025-06-01", "--exclude", "skip-*")
    checked = sorted(line.split()[1] for line in res.stdout.splitlines() if "LEGAL" in line)
    assert checked == [str(tmp_path / "decks" / "a.ydk"), str(tmp_path / "decks" / "list.txt")]
    assert res.code == 1  # list.txt is a 6-card deck: illegal, but it was taken for a deck
    notes = [line for line in res.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) == 1
    for reason in ("hidden folder", "tool folder", "ignored by .gitignore", "not a deck list"):
        assert reason in notes[0]
    assert "skip-me" not in res.stdout + res.stderr  # --exclude is silent
    as_json = cli("validate", str(tmp_path), "-d", "2025-06-01", "-o", "json", "--exclude=skip-*")
    doc = json.loads(as_json.stdout)
    skipped = {Path(k["path"]).name: k["reason"] for k in doc["skipped"]}
    assert skipped == {
        ".venv": "hidden folder",
        ".cache": "hidden folder",
        "node_modules": "tool folder",
        "env": "tool folder",
        "build": "ignored by .gitignore",
        "old.ydk": "ignored by .gitignore",
        ".hidden.ydk": "hidden file",
        "LICENSE.txt": "not a deck list",
        "requirements.txt": "not a deck list",
    }
    assert doc["summary"]["skipped"] == len(skipped)


def test_folder_with_only_non_decks_is_an_error_not_a_pass(cli, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("remember to buy milk\nand eggs\n")
    res = cli("validate", str(tmp_path))
    assert res.code == 2
    assert "no deck files" in res.stderr


def test_json_sniff_reads_at_most_the_cap(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.write(b'{"deckcheck": 1, "pad": "')
        handle.truncate(512 << 20)  # sparse: 512 MB that take no disk
    (tmp_path / "deck.ydk").write_bytes(LEGAL.read_bytes())
    code = (
        "import deckcheck.run.batch as b;"
        f"s = list(b.sources([{str(tmp_path)!r}]));"
        "print([x.split()[1] for x in open('/proc/self/status') if x.startswith('VmHWM')][0]);"
        "print([x.skip and x.skip.meaning for x in s])"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    peak_kib, skips = proc.stdout.splitlines()
    assert int(peak_kib) < 200 * 1024, "the sniff read far more than the cap"
    assert "over the 1 MiB limit" in skips


# --------------------------------------------------------------------------------------------
# terminal injection

ESC = "\x1b"


def _safe(text: str) -> None:
    assert ESC not in text
    assert "\x07" not in text


def test_file_name_with_newline_and_escape_cannot_fake_a_verdict(cli, tmp_path: Path) -> None:
    deck = tmp_path / f"a\nLEGAL  fake.ydk{ESC}[2J.ydk"
    deck.write_text("#main\n14558127\n")
    res = cli("validate", str(tmp_path), "--date", "2025-06-01")
    assert res.code == 1
    _safe(res.stdout + res.stderr)
    assert [line for line in res.stdout.splitlines() if line.startswith("LEGAL")] == []
    assert "\\nLEGAL" in res.stdout


def test_deck_and_category_names_are_escaped_in_simulate(cli, tmp_path: Path) -> None:
    deck = tmp_path / "deck.ydk"
    deck.write_text(f"#created by {ESC}[2Jevil\n#main\n" + "14558127\n" * 3 + "55144522\n" * 37)
    spec = tmp_path / "spec.toml"
    spec.write_text(
        '[categories]\n"\\u001b[2Jx" = { names = ["Ash Blossom & Joyous Spring"] }\n'
        '[conditions]\n"\\u001b]0;title\\u0007" = "`\\u001b[2Jx` >= 1"\n'
    )
    res = cli("simulate", str(deck), "--spec", str(spec), "--date", "2025-06-01")
    assert res.code == 0, res.stderr
    _safe(res.stdout + res.stderr)
    assert "\\x1b[2Jevil" in res.stdout


def test_text_deck_name_and_lines_are_escaped_in_convert_warnings(cli, tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(f"Name: {ESC}[2Jevil\n3 Ash Blosom{ESC}[2J\n")
    res = cli("convert", str(deck), "--to", "text")
    _safe(res.stderr)
    assert "\\x1b[2J" in res.stderr


@pytest.mark.parametrize(
    "command",
    [["formats", "show"], ["banlist", "show"], ["validate", str(LEGAL)], ["simulate", str(LEGAL)]],
)
def test_format_file_names_are_escaped(cli, tmp_path: Path, command: list[str]) -> None:
    fmt = tmp_path / "club.toml"
    fmt.write_text('id = "club"\nname = "\\u001b[2Jclub\\nLEGAL"\nbase = "tcg"\n')
    res = cli(*command, "--format-file", str(fmt), "--date", "2025-06-01")
    assert res.code in (0, 1), res.stderr
    _safe(res.stdout + res.stderr)


def test_unknown_query_is_escaped_in_cards_search(cli) -> None:
    res = cli("cards", "search", f"{ESC}[2J{ESC}[2J")
    _safe(res.stdout + res.stderr)


# --------------------------------------------------------------------------------------------
# wrong or silent results: dates, formats, stdin, URLs


@pytest.mark.parametrize(
    "command",
    [
        ["validate", str(LEGAL), "--format", "md"],
        ["formats", "show", "md"],
        ["banlist", "show", "md"],
    ],
)
def test_date_before_the_first_list_is_one_error_everywhere(cli, command: list[str]) -> None:
    res = cli(*command, "--date", "2000-01-01")
    assert res.code == 2
    assert "before the first Master Duel list" in res.stderr
    assert "LEGAL" not in res.stdout


def test_date_before_the_first_list_raises_in_the_library() -> None:
    from deckcheck.error import DateRangeError

    deck = deckcheck.read_path(LEGAL)
    with pytest.raises(DateRangeError):
        deckcheck.validate(deck, "master-duel", __import__("datetime").date(2000, 1, 1))
    with pytest.raises(DateRangeError):
        deckcheck.check([str(LEGAL)], "md", __import__("datetime").date(2000, 1, 1))


def test_date_after_the_data_is_still_a_warning(cli) -> None:
    res = cli("validate", str(LEGAL), "--date", "2099-01-01", "-o", "json")
    assert res.code == 0
    codes = [v["code"] for v in json.loads(res.stdout)["results"][0]["violations"]]
    assert codes == ["date-out-of-range"]


@pytest.mark.parametrize("value", ["", "  "])
def test_empty_format_name_is_an_error_not_tcg(cli, value: str) -> None:
    res = cli("validate", str(LEGAL), "--format", value)
    assert res.code == 2
    assert "--format is empty" in res.stderr


@pytest.mark.slow
def test_stdin_given_twice_is_read_once(cli_proc) -> None:
    proc = cli_proc("validate", "-", "-", "--date", "2025-06-01", input=LEGAL.read_text())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("<stdin>") == 1


def test_ydke_url_in_capitals_is_a_url_not_a_missing_file(cli) -> None:
    from deckcheck.deck.io import write_deck

    url = write_deck(deckcheck.read_path(LEGAL), "ydke").strip()
    res = cli("validate", "YDKE://" + url[len("ydke://") :], "--date", "2025-06-01")
    assert res.code == 0, res.stderr
    assert "<ydke URL>" in res.stdout


# --------------------------------------------------------------------------------------------
# convert: nothing lost, output files treated with care

TYPO_DECK = (
    "Main Deck\n3 Ash Blossom & Joyous Spring\n2 Blue-Eyes Whte Dragon\n"
    "Extra Deck\n1 Accesscode Talkerr\n"
)


@pytest.mark.slow
@pytest.mark.parametrize("to", ["text", "json"])
def test_convert_keeps_lines_naming_unknown_cards(cli, tmp_path: Path, to: str) -> None:
    src = tmp_path / "typo.txt"
    src.write_text(TYPO_DECK)
    out = tmp_path / f"out.{to}"
    res = cli("convert", str(src), "--to", to, "--out", str(out))
    assert res.code == 0, res.stderr
    assert "Blue-Eyes Whte Dragon" in out.read_text()
    before = json.loads(cli("validate", str(src), "-o", "json").stdout)["results"][0]
    after = json.loads(cli("validate", str(out), "-o", "json").stdout)["results"][0]
    assert after["counts"] == before["counts"] == {"main": 5, "extra": 1, "side": 0}
    unknown = [
        (v["section"], v["name"], v["found"], v["text"])
        for v in after["violations"]
        if v["code"] == "unknown-card"
    ]
    assert unknown == [
        ("main", "Blue-Eyes Whte Dragon", 2, "2 Blue-Eyes Whte Dragon"),
        ("extra", "Accesscode Talkerr", 1, "1 Accesscode Talkerr"),
    ]


@pytest.mark.parametrize("to", ["ydk", "ydke", "omega"])
def test_convert_refuses_to_drop_unknown_lines_silently(cli, tmp_path: Path, to: str) -> None:
    src = tmp_path / "typo.txt"
    src.write_text(TYPO_DECK)
    out = tmp_path / "out"
    refused = cli("convert", str(src), "--to", to, "--out", str(out))
    assert refused.code == 2
    assert "--lenient" in refused.stderr
    assert not out.exists()
    dropped = cli("convert", str(src), "--to", to, "--out", str(out), "--drop-unknown")
    assert dropped.code == 1  # the deprecated flag keeps its exit code for one release
    assert "2 Blue-Eyes Whte Dragon" in dropped.stderr
    assert "1 Accesscode Talkerr" in dropped.stderr
    assert len(deckcheck.read_path(out)) == 3
    out.unlink()
    lenient = cli("convert", str(src), "--to", to, "--out", str(out), "--lenient")
    assert lenient.code == 0
    assert "typo.txt:3: 2 Blue-Eyes Whte Dragon" in lenient.stderr
    assert "typo.txt:5: 1 Accesscode Talkerr" in lenient.stderr
    assert len(deckcheck.read_path(out)) == 3


def test_unknown_card_json_has_count_name_and_raw_line(cli, tmp_path: Path) -> None:
    src = tmp_path / "deck.txt"
    src.write_text("Main Deck\n3x  Pot of Grid\n")
    res = cli("validate", str(src), "-o", "json")
    (v,) = [
        v for v in json.loads(res.stdout)["results"][0]["violations"] if v["code"] == "unknown-card"
    ]
    assert (v["found"], v["name"], v["text"], v["line"]) == (3, "Pot of Grid", "3x  Pot of Grid", 2)


def test_convert_out_keeps_the_mode_of_a_replaced_file(cli, tmp_path: Path) -> None:
    out = tmp_path / "deck.ydk"
    out.write_text("old\n")
    out.chmod(0o640)
    assert cli("convert", str(LEGAL), "--out", str(out)).code == 0
    assert out.stat().st_mode & 0o777 == 0o640
    assert out.read_text().startswith("#created by") or "#main" in out.read_text()


def test_convert_out_new_file_follows_the_umask(cli, tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        out = tmp_path / "new.ydk"
        assert cli("convert", str(LEGAL), "--out", str(out)).code == 0
    finally:
        os.umask(old)
    assert out.stat().st_mode & 0o777 == 0o640


def test_convert_out_writes_through_a_symlink(cli, tmp_path: Path) -> None:
    target = tmp_path / "real.ydk"
    target.write_text("old\n")
    link = tmp_path / "link.ydk"
    link.symlink_to(target)
    assert cli("convert", str(LEGAL), "--out", str(link)).code == 0
    assert link.is_symlink()
    assert "#main" in target.read_text()


@pytest.mark.slow
def test_convert_out_writes_into_a_fifo_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [sys.executable, "-m", "deckcheck", "convert", str(LEGAL), "--out", str(fifo)],
        stderr=subprocess.PIPE,
    )
    with open(fifo) as reader:
        received = reader.read()
    assert proc.wait(timeout=60) == 0
    assert "#main" in received
    assert fifo.is_fifo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]  # no temporary left behind


# --------------------------------------------------------------------------------------------
# names and suggestions


def test_raw_exact_name_wins_over_a_normalised_one(index: CardIndex) -> None:
    assert index.lookup("黑魔导").card.name == "Dark Magician"
    assert index.lookup("黑・魔・导").card.name == "Dark Magic Attack"
    assert index.lookup("Raimei").card.passcode == 56260110
    assert index.lookup("Rai-Mei").card.passcode == 63223467
    from deckcheck.error import AmbiguousCardError

    with pytest.raises(AmbiguousCardError):
        index.lookup("Rai mei")  # as near one as the other: never guessed


def test_suggestions_never_propose_unofficial_cards(index: CardIndex) -> None:
    from deckcheck.card.name import normalize_name

    checked = 0
    for card in index:
        entries = index._names.get(normalize_name(card.name), [])
        if not (card.is_unofficial and card.name.isascii() and len(card.name) > 12):
            continue
        if any(e[0] != 3 for e in entries):
            continue  # the name is also an official card's
        typo = card.name[:-1]
        assert card.name not in index.suggest(typo)
        assert card.name in [c.name for c, _ in index.search(typo, 5)]  # search lists them
        checked += 1
        if checked == 5:
            break
    assert checked == 5


def test_search_ranks_the_exact_card_first(index: CardIndex) -> None:
    assert index.search("dark magician", 5)[0][0].name == "Dark Magician"
    raigeki = [c.name for c, _ in index.search("raigeki", 4)]
    assert raigeki[0] == "Raigeki"
    assert raigeki.index("Anti Raigeki") > raigeki.index("Raigeki Break")  # starts-with first
    first = [c.name for c, _ in index.search("blue-eyes", 10)]
    assert all(name.casefold().startswith("blue-eyes") for name in first[:5])


def test_suggestions_come_in_the_language_typed(index: CardIndex) -> None:
    assert index.suggest("黑魔术师")[0] == "黑魔导 (Dark Magician)"
    assert index.suggest("灰流")[0] == "灰流丽 (Ash Blossom & Joyous Spring)"
    assert index.suggest("ブラック・マジシャソ")[0] == "ブラック・マジシャン (Dark Magician)"
    assert index.suggest("Pot of Grid")[0] == "Pot of Greed"


def test_typo_suggestions_are_ranked_and_unique(index: CardIndex) -> None:
    got = index.suggest("Blue-Eyes Whte Dragon")
    assert got[0] == "Blue-Eyes White Dragon"
    assert len(got) == len(set(got))
    assert index.suggest("Accesscode Talkerr")[0] == "Accesscode Talker"
    assert index.suggest("zzqqxxjjvv") == []


# --------------------------------------------------------------------------------------------
# goldfish

SPEC_ASH = '[categories]\nash = { names = ["Ash Blossom & Joyous Spring"] }\n'


def _ash_deck(tmp_path: Path, extra: str = "") -> Path:
    deck = tmp_path / "deck.txt"
    deck.write_text("Main Deck\n3 Ash Blossom & Joyous Spring\n" + "1 Sangan\n" * 37 + extra)
    return deck


def test_bare_expression_means_at_least_one(tmp_path: Path) -> None:
    from deckcheck.goldfish import parse_spec

    deck = deckcheck.read_path(_ash_deck(tmp_path))
    spec = parse_spec(
        {
            "categories": {"ash": {"names": ["Ash Blossom & Joyous Spring"]}},
            "conditions": {"bare": "ash - 1", "spelt": "ash - 1 >= 1", "two": "ash >= 2"},
        }
    )
    stats = deckcheck.simulate(deck, spec, going="first")
    bare, spelt, two = (
        stats.condition(n).by_going[stats.goings[0]][0] for n in ("bare", "spelt", "two")
    )
    assert bare.fraction == spelt.fraction == two.fraction  # not "ash != 1"
    from deckcheck.goldfish.condition import parse_condition

    assert not bool(parse_condition("x - 1").evaluate({"x": 0}))  # -1 is not "at least 1"


def test_unseeded_simulation_picks_and_reports_a_seed(cli, tmp_path: Path) -> None:
    deck = _ash_deck(tmp_path)
    runs = [
        json.loads(
            cli("simulate", str(deck), "--exact", "never", "--trials", "500", "-o", "json").stdout
        )
        for _ in range(2)
    ]
    seeds = [r["seed"] for r in runs]
    assert all(isinstance(s, int) for s in seeds)
    again = cli(
        "simulate",
        str(deck),
        "--exact",
        "never",
        "--trials",
        "500",
        "-o",
        "json",
        "--seed",
        str(seeds[0]),
    )
    assert json.loads(again.stdout)["conditions"] == runs[0]["conditions"]
    text = cli("simulate", str(deck), "--exact", "never", "--trials", "500")
    assert "(seed " in text.stdout


def test_goldfish_warns_about_what_it_cannot_count(cli, tmp_path: Path) -> None:
    deck = _ash_deck(tmp_path)
    spec = tmp_path / "spec.toml"
    spec.write_text(
        SPEC_ASH + 'none = { names = ["Dark Magician"] }\n'
        '[[effects]]\ncard = "Pot of Desires"\nkind = "desires"\n'
    )
    res = cli("simulate", str(deck), "--spec", str(spec), "-o", "json")
    assert res.code == 0, res.stderr
    warnings = json.loads(res.stdout)["warnings"]
    assert any("'none' matches no card" in w for w in warnings)
    assert any("'Pot of Desires' is not in the Main Deck" in w for w in warnings)
    assert "'none' matches no card" in res.stderr
    text = cli("simulate", str(deck), "--spec", str(spec)).stdout
    assert "ash   3 cards" in text and "none  0 cards" in text


def test_goldfish_warns_when_the_deck_is_smaller_than_the_cards_seen(cli, tmp_path: Path) -> None:
    deck = tmp_path / "tiny.ydk"
    deck.write_text("#main\n14558127\n14558127\n14558127\n")
    res = cli("simulate", str(deck), "-o", "json")
    assert res.code == 0, res.stderr
    assert any("fewer than the" in w for w in json.loads(res.stdout)["warnings"])
    assert "fewer than the" in res.stderr


def test_unknown_names_in_a_text_deck_are_cards_of_no_category(cli, tmp_path: Path) -> None:
    deck = _ash_deck(tmp_path, "3 Pot of Grid\n")  # 43 cards, 3 of them unknown
    res = cli("simulate", str(deck), "-o", "json")
    assert res.code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["deck"]["main"] == 43
    ash = next(c for c in doc["conditions"] if c["name"] == "Ash Blossom & Joyous Spring")
    from fractions import Fraction
    from math import comb

    first = ash["results"]["first"][0]
    expected = 1 - Fraction(comb(40, 5), comb(43, 5))
    assert abs(first["p"] - float(expected)) < 1e-12
    assert "counted as a card of no category" in res.stderr


def test_rush_formats_resolve_names_to_rush_cards(cli, tmp_path: Path) -> None:
    deck = tmp_path / "rush.txt"
    deck.write_text("Main Deck\n3 Abyss Soldier\n" + "3 Aitsu\n" * 12 + "1 Abare Ushioni\n")
    spec = tmp_path / "spec.toml"
    spec.write_text('[categories]\nsoldier = { names = ["Abyss Soldier"] }\n')
    res = cli("simulate", str(deck), "--spec", str(spec), "--format", "rush", "-o", "json")
    assert res.code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["categories"][0]["cards"][0]["passcode"] == 160010000  # the Rush card
    assert doc["categories"][0]["copies"] == 3


def test_plot_hint_names_the_plot_extra(cli) -> None:
    res = cli("simulate", "--help")
    assert "deckcheck[plot]" in " ".join(res.stdout.split())


def test_simulate_columns_line_up_and_fractions_show_percentages(cli, tmp_path: Path) -> None:
    deck = _ash_deck(tmp_path)
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC_ASH + '[conditions]\n"a very long condition name" = "ash >= 1"\n')
    out = cli("simulate", str(deck), "--spec", str(spec), "--fractions").stdout.splitlines()
    table = out[2:6]
    assert len({len(line) for line in table[1:]}) == 1, table  # header, rule and row line up
    row = table[3]
    assert "%" in row and "/" in row
    for cell in row.split("  ")[1:]:
        if cell.strip():
            assert cell.strip().endswith(")") and "% (" in cell


def test_spec_and_format_files_over_the_cap_are_refused_unread(cli, tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    with open(big, "wb") as handle:
        handle.truncate(64 << 20)
    for option, command in (("--spec", "simulate"), ("--format-file", "validate")):
        res = cli(command, str(LEGAL), option, str(big))
        assert res.code == 2
        assert "big.toml" in res.stderr


@pytest.mark.slow
@pytest.mark.parametrize("command", [["convert"], ["validate"], ["simulate"]])
def test_long_help_wraps_at_words_not_at_source_lines(command: list[str]) -> None:
    width = 70
    env = dict(os.environ, COLUMNS=str(width), TERM="dumb")
    proc = subprocess.run(
        [sys.executable, "-m", "deckcheck", *command, "--help"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    prose = []
    for line in proc.stdout.splitlines():
        if line.strip()[:1] in ("╭", "│", "╰") or line in ("Arguments:", "Options:"):
            break  # the argument and option lists
        if "Usage:" not in line:
            prose.append(line.rstrip())
    assert len([p for p in prose if p.strip()]) >= 2
    for a, b in itertools.pairwise(prose):
        if a.strip() and b.strip():
            # the next line's first word would not have fitted: a break at a word, not early
            assert len(a) + 1 + len(b.split()[0]) > width - 2, (a, b)


# --------------------------------------------------------------------------------------------
# format files


@pytest.mark.parametrize(
    ("rules", "key"),
    [
        ("hand_size = -1", "hand_size"),
        ("life_points = -8000", "life_points"),
        ("hand_size = 1000000", "hand_size"),
    ],
)
def test_format_file_rule_values_are_range_checked(
    cli, tmp_path: Path, rules: str, key: str
) -> None:
    fmt = tmp_path / "club.toml"
    fmt.write_text(f'base = "tcg"\n[rules]\n{rules}\n')
    res = cli("validate", str(LEGAL), "--format-file", str(fmt))
    assert res.code == 2
    assert key in res.stderr


def test_format_file_banlist_path_is_relative_to_the_file(cli, tmp_path: Path) -> None:
    club = tmp_path / "club"
    club.mkdir()
    (club / "club.lflist.conf").write_text("!2024.01 Club\n55144522 0\n")
    (club / "club.toml").write_text('base = "tcg"\nbanlist = "club.lflist.conf"\n')
    res = cli("banlist", "show", "--format-file", str(club / "club.toml"), "-d", "2025-06-01")
    assert res.code == 0, res.stderr
    assert "55144522" in res.stdout


def test_format_file_banlist_may_not_leave_its_folder(cli, tmp_path: Path) -> None:
    club = tmp_path / "club"
    club.mkdir()
    secret = tmp_path / "secret.conf"
    secret.write_text("!2024.01 Other\n55144522 0\n")
    (club / "club.toml").write_text('base = "tcg"\nbanlist = "../secret.conf"\n')
    res = cli("validate", str(LEGAL), "--format-file", str(club / "club.toml"))
    assert res.code == 2
    assert "outside the format file's folder" in res.stderr
    (club / "abs.toml").write_text(f'base = "tcg"\nbanlist = "{secret}"\n')  # on purpose
    ok = cli("validate", str(LEGAL), "--format-file", str(club / "abs.toml"), "-d", "2025-06-01")
    assert ok.code == 0, ok.stderr


def test_a_file_that_is_not_a_list_is_never_echoed(cli, tmp_path: Path) -> None:
    private = tmp_path / "private.conf"
    private.write_text("!2024.01 X\nuser:hunter2:secret-token\n")
    (tmp_path / "club.toml").write_text('base = "tcg"\nbanlist = "private.conf"\n')
    res = cli("validate", str(LEGAL), "--format-file", str(tmp_path / "club.toml"))
    assert res.code == 2
    assert "private.conf" in res.stderr
    assert "hunter2" not in res.stderr + res.stdout


# --------------------------------------------------------------------------------------------
# text output


def test_counts_read_as_sentences_with_correct_plurals(cli, tmp_path: Path) -> None:
    deck = tmp_path / "one.ydk"
    deck.write_text("#main\n14558127\n")
    res = cli("validate", str(deck), "-d", "2025-06-01")
    assert "Main Deck has 1 card;" in res.stdout
    assert "1 cards" not in res.stdout
    two = tmp_path / "two.ydk"
    two.write_text("#main\n14558127\n14558127\n")
    assert "Main Deck has 2 cards;" in cli("validate", str(two), "-d", "2025-06-01").stdout


def test_violations_are_in_file_line_order_within_a_deck(cli, tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(
        "Main Deck\n1 Pot of Grid\n3 Pot of Greed\n4 Ash Blossom & Joyous Spring\n1 Dark Magicain\n"
    )
    res = cli("validate", str(deck), "-d", "2025-06-01", "-o", "json")
    lines = [v["line"] for v in json.loads(res.stdout)["results"][0]["violations"]]
    known = [n for n in lines if n is not None]
    assert known == sorted(known) and len(set(known)) >= 3
    assert lines[: lines.count(None)] == [None] * lines.count(None)  # deck-wide ones first
    text = cli("validate", str(deck), "-d", "2025-06-01").stdout
    at = [int(m) for m in __import__("re").findall(r"\(line (\d+)\)", text)]
    assert at == sorted(at)


def test_cards_show_rush_shows_the_rush_release_date(cli) -> None:
    res = cli("cards", "show", "Abyss Soldier", "--rush")
    assert res.code == 0
    assert "[160010000]" in res.stdout
    doc = json.loads(cli("cards", "show", "160010000", "-o", "json").stdout)
    from deckcheck.data.dataset import Dataset

    released = Dataset.active().cards.get(160010000).ocg_date
    assert released is not None and doc["rush_date"] == released.isoformat()
    assert f"released:   Rush Duel about {released.isoformat()}" in res.stdout


def test_simulate_a_deck_of_only_unknown_names_is_exit_2(cli, tmp_path: Path) -> None:
    deck = tmp_path / "typos.txt"
    deck.write_text("Main Deck\n3 Ash Blosom\n3 Pot of Grid\n")
    res = cli("simulate", str(deck))
    assert res.code == 2
    assert "no card of the Main Deck is known" in res.stderr


@pytest.mark.slow
def test_cli_fuzz_ends_every_run_with_0_1_or_2_and_no_traceback() -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import fuzz_io
    finally:
        sys.path.remove(str(ROOT / "bench"))
    outcomes, bugs = fuzz_io.fuzz_cli(60, seed=5)
    assert outcomes["BUG"] == 0, bugs
    assert sum(outcomes.values()) == 60


@pytest.mark.slow
def test_long_batch_shows_progress_on_a_terminal_only(tmp_path: Path) -> None:
    import pty
    import select

    deck = (ROOT / "examples" / "decklist.txt").read_text()
    for i in range(800):  # text decks with a typo each: long enough to show progress
        (tmp_path / f"d{i:03d}.txt").write_text(deck + f"Side Deck\n1 Pot of Grid {i}\n")
    argv = [sys.executable, "-m", "deckcheck", "validate", str(tmp_path), "-d", "2025-06-01"]
    master, slave = pty.openpty()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    assert proc.wait(timeout=60) == 1  # every deck has an unknown card
    os.close(master)
    assert b"checked " in seen, seen[:200]
    assert seen.endswith(b"\r\x1b[K")  # the progress line is erased at the end
    piped = subprocess.run(argv, capture_output=True, check=False)
    assert b"checked " not in piped.stderr


def test_unknown_passcode_json_carries_its_copies(cli, tmp_path: Path) -> None:
    deck = tmp_path / "deck.ydk"
    deck.write_text("#main\n99999999\n99999999\n14558127\n")
    res = cli("validate", str(deck), "-o", "json")
    (v,) = [
        v for v in json.loads(res.stdout)["results"][0]["violations"] if v["code"] == "unknown-card"
    ]
    assert (v["found"], v["passcode"], v["line"]) == (2, 99999999, 2)


def test_skipped_summary_is_one_sentence_for_one_path(cli, tmp_path: Path) -> None:
    (tmp_path / "deck.ydk").write_bytes(LEGAL.read_bytes())
    (tmp_path / "index.json").write_text('{"decks": []}')
    res = cli("validate", str(tmp_path), "-d", "2025-06-01")
    assert (
        "note: skipped 1 path that is not a deck (not a deckcheck deck JSON file: 1;" in res.stderr
    )


@pytest.mark.slow
def test_folder_nested_thousands_deep_is_scanned_without_recursion(cli, tmp_path: Path) -> None:
    depth = 1500
    fds = [os.open(tmp_path, os.O_RDONLY)]
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=fds[-1])
            fds.append(os.open("d", os.O_RDONLY, dir_fd=fds[-1]))
        with open(os.open("deep.ydk", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fds[-1]), "wb") as f:
            f.write(LEGAL.read_bytes())
        (tmp_path / "top.ydk").write_bytes(LEGAL.read_bytes())
        res = cli("validate", str(tmp_path), "-d", "2025-06-01", "-o", "json")
        assert res.code == 0, res.stderr[-500:]
        assert json.loads(res.stdout)["summary"]["decks"] == 2
    finally:  # remove the tree bottom-up (shutil.rmtree itself recurses)
        os.unlink("deep.ydk", dir_fd=fds[-1])
        while len(fds) > 1:
            os.close(fds.pop())
            os.rmdir("d", dir_fd=fds[-1])
        os.close(fds[0])


def test_bad_gitignore_patterns_are_left_out_not_a_crash(cli, tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("\\\\\n!\n[z-a]\nold.ydk\n")
    (tmp_path / "deck.ydk").write_bytes(LEGAL.read_bytes())
    (tmp_path / "old.ydk").write_bytes(LEGAL.read_bytes())
    res = cli("validate", str(tmp_path), "-d", "2025-06-01", "-o", "json")
    assert res.code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert [Path(r["path"]).name for r in doc["results"]] == ["deck.ydk"]
    assert [Path(k["path"]).name for k in doc["skipped"]] == ["old.ydk"]


@pytest.mark.slow
def test_convert_escapes_a_deck_written_to_a_terminal_but_not_to_a_pipe(tmp_path: Path) -> None:
    import pty

    deck = tmp_path / "deck.txt"
    deck.write_text("Name: \x1b[2Jevil\nMain Deck\n3 Ash Blossom & Joyous Spring\n")
    argv = [sys.executable, "-m", "deckcheck", "convert", str(deck), "--to", "text"]
    master, slave = pty.openpty()
    proc = subprocess.Popen(argv, stdout=slave, stderr=subprocess.DEVNULL)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    assert proc.wait(timeout=60) == 0
    os.close(master)
    assert b"\x1b" not in seen and b"\\x1b[2Jevil" in seen
    piped = subprocess.run(argv, capture_output=True, check=True)
    assert b"Name: \x1b[2Jevil" in piped.stdout  # a file or pipe gets the deck unchanged
