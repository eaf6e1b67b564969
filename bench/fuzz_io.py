"""Fuzz the deck readers and the CLI: random bytes and mutated real files into every reader.

``python bench/fuzz_io.py [--count N] [--seed S] [--reader NAME ...] [--cli M]`` feeds N inputs
(default 100,000) to each reader (ydk, ydke, text, omega, json, and detection + the detected
reader). With ``--cli M`` (``--count 0`` to skip the readers) it also runs M command lines
(``validate``, ``convert``, ``simulate``, ``cards``, ``formats``, ``banlist``) on hostile input:
random and mutated deck files, deeply nested JSON and TOML, passcodes of thousands of digits,
odd digits (``²``, ``①``), and files and folders whose names are not UTF-8 or hold newlines and
escape sequences. Every run must end with exit code 0, 1 or 2, no traceback, no "unexpected"
error, and no raw control character from the input on stdout or stderr.
Inputs are random byte strings and mutations (byte edits, insertions, deletions, splices,
base64-level edits) of real decks written in every format. A reader may return a deck or raise
:class:`~deckcheck.error.DeckReadError`; anything else is a bug: the script prints the input and
traceback of the first few and exits 1. Text is read without name suggestions (``suggest=0``,
each costs a fuzzy search) except for every 1000th input.

``--hostile M`` runs M command lines of the second audit (each under a time bound: a case over
it is a *hang*): backtracking globs (``*a*a*a...b``) in ``.gitignore``, ``deckcheck.toml`` and
``--exclude``; FIFOs and devices named as decks, configurations, format files, CSVs and side
plans; huge sparse configurations; zips with duplicate names; registration CSVs with formula
headers and escape sequences. ``--api M`` calls the library's entry points M times with
values drawn by hypothesis (wrong types, hostile values of the right type): each must return or
raise a ``DeckcheckError`` within its bound. ``--third M`` runs M cases of the third audit:
signature files for ``meta``/``batch`` (FIFOs, devices, 1 GiB, deep nesting, bad UTF-8),
commands reading a closed standard input (``0<&-``), outputs to read-only files, empty names,
FIFOs, folders and devices (a read-only file must stay as it was), lone surrogates in card
names (``convert``), hostile sheet fields, and, one case in five, hostile requests to the
service's compute routes (``/v1/meta``, ``/v1/simulate``, ``/v1/simulate/sweep``,
``/v1/simulate/side``, ``/v1/batch``: below 500, JSON, with ``X-Deckcheck-Data``; answered by
the compute pool, within its budgets). Every run reports the cases tried,
tracebacks, hangs over the bound and escapes from the error tree.
"""

from __future__ import annotations

import argparse
import base64
import functools
import json
import random
import sys
import time
import traceback
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckcheck.deck.io import (  # noqa: E402
    DeckFormat,
    detect_format,
    parse_json,
    parse_omega,
    parse_text,
    parse_ydk,
    parse_ydke,
    read_path,
    write_deck,
)
from deckcheck.deck.model import Deck  # noqa: E402
from deckcheck.error import DeckcheckError, DeckReadError  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "decks" / "projectignis-distribution"
TEST_DATA = ROOT / "tests" / "data" / "io"
TOKENS = [
    b"#main\n",
    b"#extra\n",
    b"!side\n",
    b"#created by ",
    b"ydke://",
    b"!",
    b"{",
    b"}",
    b"[",
    b'"deckcheck": 1',
    b'"main": [',
    b"3x ",
    b" x3",
    b"\r\n",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\x00",
    "主卡组\n".encode(),
    "灰流うらら ×3\n".encode(),
    b"Extra Deck (15)\n",
    b"99999999999999\n",
    b"0\n",
    b"=",
    b"==",
    b"Name: x\n",
    b"[123]",
]

TEXT_CHARS = "0123456789 \t\n\r#!:xX×()[]{},.\"'-/=+abcdeABCDE灰流うらら主卡组ｘ３\u3000"

Reader = Callable[[bytes], Deck]


def text_reader(counter: list[int]) -> Reader:
    """parse_text without suggestions, except on every 1000th call."""

    def read(data: bytes) -> Deck:
        counter[0] += 1
        return parse_text(data, suggest=1 if counter[0] % 1000 == 0 else 0)

    return read


def readers() -> dict[str, Reader]:
    """The readers under test by name."""
    text = text_reader([0])
    by_fmt: dict[str, Reader] = {
        "ydk": parse_ydk,
        "ydke": parse_ydke,
        "text": text,
        "omega": parse_omega,
        "json": parse_json,
    }

    def detected(data: bytes) -> Deck:
        return by_fmt[detect_format(data).value](data)

    by_fmt["detect"] = detected
    return by_fmt


@functools.cache
def corpus() -> dict[str, list[bytes]]:
    """Real decks written in every format, by format (the seeds of the mutations)."""
    files = sorted(SHARED.glob("*.ydk")) if SHARED.is_dir() else []
    files += sorted(TEST_DATA.glob("*"))
    out: dict[str, list[bytes]] = {f.value: [] for f in DeckFormat}
    for path in files:
        data = path.read_bytes()
        try:
            out[detect_format(data).value].append(data)
            deck = read_path(path)
        except DeckReadError:
            continue
        for fmt in DeckFormat:
            try:
                out[fmt.value].append(write_deck(deck, fmt).encode("utf-8"))
            except DeckcheckError:  # decks too large for an Omega code
                continue
    return out


def mutate(rng: random.Random, data: bytes) -> bytes:
    """A few random edits of ``data``."""
    base64_payload = data.startswith(b"ydke://") or b"\n" not in data.strip()
    if base64_payload and rng.random() < 0.6:  # mostly edit beneath the encoding
        return _mutate_base64(rng, data)
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(8)
        pos = rng.randint(0, len(buf))
        if op == 0 and buf:
            buf[min(pos, len(buf) - 1)] = rng.randrange(256)
        elif op == 1:
            buf[pos:pos] = rng.randbytes(rng.randint(1, 8))
        elif op == 7:
            buf[pos:pos] = "".join(
                rng.choice(TEXT_CHARS) for _ in range(rng.randint(1, 8))
            ).encode()
        elif op == 2:
            del buf[pos : pos + rng.randint(1, 32)]
        elif op == 3:
            buf[pos:pos] = rng.choice(TOKENS)
        elif op == 4 and buf:
            start = rng.randrange(len(buf))
            buf[pos:pos] = buf[start : start + rng.randint(1, 64)]
        elif op == 5:
            buf[pos:pos] = str(rng.choice([0, 1, 3, 255, 256, 2**32, 10**12])).encode()
        else:
            buf = bytearray(_mutate_base64(rng, bytes(buf)))
    return bytes(buf)


def _mutate_base64(rng: random.Random, data: bytes) -> bytes:
    """Edit the bytes under a base64 payload (Omega codes, ydke parts) and re-encode them."""
    text = data.strip()
    prefix = b""
    if text.startswith(b"ydke://"):
        prefix, text = b"ydke://", text[7:].split(b"!")[0]
    try:
        raw = bytearray(base64.b64decode(text, validate=True))
    except ValueError:
        return data
    if not prefix and rng.random() < 0.5:  # Omega: edit the inflated bytes and deflate again
        try:
            raw = bytearray(zlib.decompress(bytes(raw), -15))
        except zlib.error:
            pass
        else:
            if raw:
                raw[rng.randrange(len(raw))] = rng.randrange(256)
            comp = zlib.compressobj(9, zlib.DEFLATED, -15)
            return base64.b64encode(comp.compress(bytes(raw)) + comp.flush())
    if raw and rng.random() < 0.7:
        raw[rng.randrange(len(raw))] = rng.randrange(256)
    else:
        raw += rng.randbytes(rng.choice([4, 8, 1, 3]))
    return prefix + base64.b64encode(bytes(raw)) + (b"!!!" if prefix else b"")


def make_input(rng: random.Random, fmt: str) -> bytes:
    """One fuzz input: random bytes (25%) or a mutated real deck, of format ``fmt`` 3 times in 4."""
    if rng.random() < 0.25:
        return rng.randbytes(rng.randint(0, 300))
    seeds = corpus()
    kind = fmt if fmt in seeds and rng.random() < 0.75 else rng.choice(list(seeds))
    return mutate(rng, rng.choice(seeds[kind]))


def fuzz(name: str, read: Reader, count: int, seed: int) -> tuple[Counter[str], list[str]]:
    """Run ``count`` inputs through ``read``; return outcome counts and bug reports."""
    rng = random.Random(f"{seed}:{name}")
    outcomes: Counter[str] = Counter()
    bugs: list[str] = []
    for _ in range(count):
        data = make_input(rng, name)
        try:
            read(data)
        except DeckReadError:
            outcomes["read-error"] += 1
        except Exception:
            outcomes["BUG"] += 1
            if len(bugs) < 5:
                bugs.append(f"input {data[:300]!r}\n{traceback.format_exc()}")
        else:
            outcomes["deck"] += 1
    return outcomes, bugs


HOSTILE_CONTENT: list[Callable[[random.Random], bytes]] = [
    lambda r: b"[" * r.choice([100, 1000, 5000]),
    lambda r: b'{"deckcheck": 1, "main": ' + b"[" * 3000 + b"]" * 3000 + b"}",
    lambda r: b"#main\n" + b"0" * r.choice([4300, 5000]) + b"14558127\n",
    lambda r: b"#main\n" + b"9" * r.choice([4301, 20]) + b"\n",
    lambda r: "#main\n²\n①\n١٢٣\n".encode(),
    lambda r: b"3x " + b"A" * 5000 + b"\n",
    lambda r: b"#created by \x1b[2J\x1b]0;x\x07\n#main\n14558127\n",
    lambda r: b"Name: \x1b[31mred\nMain Deck\n3 Ash Blosom\x1b[2J\n",
    lambda r: b"YDKE://" + base64.b64encode(r.randbytes(r.choice([4, 8, 12]))) + b"!!!",
    lambda r: r.randbytes(r.randint(0, 400)),
]
HOSTILE_TOML: list[bytes] = [
    b"a = " + b"[" * 1000 + b"]" * 1000 + b"\n",
    b'base = "tcg"\n[rules]\nhand_size = -1\n',
    b'base = "tcg"\nbanlist = "../../../etc/passwd"\n',
    b'name = "\\u001b[2Jclub"\nbase = "tcg"\n',
    b'[categories]\n"\\u001b[2Jx" = { names = ["Ash Blossom & Joyous Spring"] }\n',
    b'[categories]\nx = { names = ["' + b"9" * 5000 + b'"] }\n',
    b'[categories]\nx = { kinds = ["Monster"] }\n[conditions]\nc = "x >= ' + b"9" * 5000 + b'"\n',
    b"\xff\xfe not toml",
]
ODD_NAMES: list[bytes] = [
    b"deck-\xff\xfe.ydk",
    b"a\nLEGAL  fake.ydk",
    b"\x1b[2Jclear.txt",
    b"-o.ydk",
    b"ydke:x.ydk",
    b"x" * 200 + b".json",
    b" spaced .txt",
    "名前.ydk".encode(),
    b"nested.json",
]


def _cli_case(rng: random.Random, folder: Path) -> list[str]:
    """One hostile command line; writes the files it names under ``folder``."""
    import os

    name = rng.choice(ODD_NAMES)
    if rng.random() < 0.5:
        content = rng.choice(HOSTILE_CONTENT)(rng)
    else:
        content = make_input(rng, rng.choice(list(corpus())))
    path = os.path.join(os.fsencode(folder), name)
    with open(path, "wb") as handle:
        handle.write(content)
    deck = os.fsdecode(path)
    if rng.random() < 0.3:
        gitignore = [b"!\n", b"[z-a]\n", b"\\\n", b"*\n!*.ydk\n", b"**/\n", rng.randbytes(60)]
        (folder / ".gitignore").write_bytes(rng.choice(gitignore))
    toml = folder / f"x{rng.randrange(1000)}.toml"
    toml.write_bytes(rng.choice(HOSTILE_TOML))
    output = rng.choice(["text", "json"])
    choices = [
        ["validate", deck, "-o", output],
        ["validate", str(folder), "-o", output],
        ["validate", deck, "--format-file", str(toml)],
        ["convert", deck, "--to", rng.choice(["ydk", "ydke", "text", "omega", "json"])],
        ["simulate", deck, "--trials", "200", "--exact", rng.choice(["auto", "never"])],
        ["simulate", deck, "--spec", str(toml), "-o", output],
        ["cards", "show", rng.choice(["²", "①", "9" * 4301, "\x1b[2J", "Ash Blosom", "0" * 99])],
        ["cards", "search", rng.choice(["\x1b[2J", "blue-eyes", "黑魔术师", "9" * 5000])],
        ["formats", "show", "--format-file", str(toml)],
        ["banlist", "show", rng.choice(["tcg", "md", "", "nope"]), "-d", "2000-01-01"],
        ["validate", "-", deck, "-", "--format", rng.choice(["", "md", "rush", "tcg"])],
    ]
    return rng.choice(choices)


def fuzz_cli(count: int, seed: int) -> tuple[Counter[str], list[str]]:
    """Run ``count`` hostile command lines in-process; return exit-code counts and bug reports."""
    import shutil
    import tempfile

    from typer.testing import CliRunner

    from deckcheck.cli import app

    rng = random.Random(f"{seed}:cli")
    runner = CliRunner()
    outcomes: Counter[str] = Counter()
    bugs: list[str] = []
    for _ in range(count):
        folder = Path(tempfile.mkdtemp(prefix="deckcheck-fuzz-"))
        try:
            args = _cli_case(rng, folder)
            stdin = rng.choice([b"", b"#main\n14558127\n", b"[" * 1000])
            res = runner.invoke(app, args, input=stdin, catch_exceptions=True)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        out = res.stdout + res.stderr
        problem = None
        if res.exception is not None and not isinstance(res.exception, SystemExit):
            problem = "".join(traceback.format_exception(res.exception))
        elif res.exit_code not in (0, 1, 2):
            problem = f"exit code {res.exit_code}"
        elif "Traceback" in out or "unexpected" in out:
            problem = "traceback or unexpected error in the output"
        elif any(c in (res.stderr if args[0] == "convert" else out) for c in ("\x1b", "\x07")):
            problem = "raw control character on stdout/stderr"  # convert's stdout is the deck
        if problem is None:
            outcomes[f"exit {res.exit_code}"] += 1
        else:
            outcomes["BUG"] += 1
            if len(bugs) < 5:
                bugs.append(f"args {args!r}\n{problem}\n{out[:500]}")
    return outcomes, bugs


HANG_SECONDS = 20
"""Bound of one hostile case; over it is a hang."""
EVIL_GLOB = "*a" * 30 + "b"


class _Hang(Exception):
    pass


def _alarm(seconds: int) -> Callable[[], object]:
    """Raise :class:`_Hang` in the main thread after ``seconds``; returns the canceller."""
    import signal

    def ring(signum: int, frame: object) -> None:
        raise _Hang()

    signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    return lambda: signal.alarm(0)


def _hostile_case(rng: random.Random, folder: Path) -> list[str]:
    """One command line of the second audit; writes what it names under ``folder``."""
    import os
    import zipfile

    deck = folder / ("a" * 60 + ".ydk")
    deck.write_bytes(b"#main\n" + b"89631139\n" * 3)
    kind = rng.randrange(9)
    if kind == 0:
        (folder / ".gitignore").write_text(rng.choice([EVIL_GLOB, "*" * 2000, "[z-a]", "!"]))
        return ["validate", str(folder), "-o", rng.choice(["text", "json"])]
    if kind == 1:
        key = rng.choice(
            ['exclude = ["{g}"]', '[folders]\n"{g}" = "goat"', '[ignore]\n"{g}" = ["over-limit"]']
        )
        (folder / "deckcheck.toml").write_text(key.format(g=rng.choice([EVIL_GLOB, "x" * 5000])))
        return ["validate", str(folder), "--config", str(folder / "deckcheck.toml")]
    if kind == 2:
        return ["validate", str(folder), "--exclude", rng.choice([EVIL_GLOB, "[z-a]", "**/"])]
    if kind == 3:
        fifo = folder / rng.choice(["d.ydk", "r.csv", "f.toml", "p.txt", "z.zip"])
        os.mkfifo(fifo)
        return rng.choice(
            [
                ["validate", str(fifo)],
                ["validate", str(deck), "--format-file", str(fifo)],
                ["validate", str(deck), "--config", str(fifo)],
                ["side", str(deck), "--plan", str(fifo)],
                ["batch", str(fifo), "--out", str(folder / "out")],
            ]
        )
    if kind == 4:
        dev = rng.choice(["/dev/zero", "/dev/urandom", "/dev/null"])
        return rng.choice(
            [
                ["validate", str(deck), "--config", dev],
                ["side", str(deck), "--plan", dev],
                ["validate", dev],
            ]
        )
    if kind == 5:
        with open(folder / rng.choice(["deckcheck.toml", "pyproject.toml"]), "wb") as handle:
            handle.write(b"[tool.deckcheck]\n")
            handle.truncate(rng.choice([2 << 20, 1 << 30]))
        return ["validate", str(deck)]
    if kind == 6:
        with zipfile.ZipFile(folder / "dup.zip", "w") as zf:
            zf.writestr("deck.ydk", "#main\n55144522\n" * 1)
            zf.writestr("deck.ydk", "#main\n89631139\n")
        return ["validate", str(folder / "dup.zip"), "-o", "json"]
    if kind == 7:
        head = rng.choice(["=notes", "\x1b]0;t\x07", "+cmd", "@x", "\u202e"])
        cell = rng.choice(["=1+1", "\x1b[2J", "-2", "\u202eevil", "a\nb"])
        (folder / "r.csv").write_text(f"deck,{head}\n{deck.name},{cell}\n", encoding="utf-8")
        return ["batch", str(folder / "r.csv"), "--out", str(folder / "out")]
    return ["validate", str(deck), "--out", str(folder / "ro.json"), "-o", "json"]


def _judge(res: Any, args: list[str], folder: Path) -> tuple[str | None, str]:
    """What went wrong in one hostile command's run (None: nothing), and its outcome key."""
    out = res.stdout + res.stderr
    if isinstance(res.exception, _Hang):
        return "hang", "hang"
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        return "".join(traceback.format_exception(res.exception)), "traceback"
    if res.exit_code not in (0, 1, 2) or "Traceback" in out or "unexpected" in out:
        return f"exit {res.exit_code}: {out[:300]}", "escape"
    if "\x1b" in out or "\x07" in out:
        return "raw control character", "escape"
    if args[-1].endswith("ro.json") and (folder / "ro.json").read_text() != "keep":
        return "--out replaced a read-only file", "escape"
    if (folder / "out" / "report.csv").exists():
        text = (folder / "out" / "report.csv").read_text(encoding="utf-8")
        if "\x1b" in text or "\n=" in text or text.startswith("=") or ",=" in text:
            return "formula or escape in report.csv", "escape"
    return None, ""


def fuzz_hostile(count: int, seed: int) -> tuple[Counter[str], list[str]]:
    """Run ``count`` command lines of the second audit in-process, each time-bounded."""
    import shutil
    import tempfile

    from typer.testing import CliRunner

    from deckcheck.cli import app

    rng = random.Random(f"{seed}:hostile")
    runner = CliRunner()
    outcomes: Counter[str] = Counter()
    bugs: list[str] = []
    for _ in range(count):
        folder = Path(tempfile.mkdtemp(prefix="deckcheck-fuzz-"))
        problem = None
        args: list[str] = []
        try:
            args = _hostile_case(rng, folder)
            if args[-1].endswith("ro.json"):
                (folder / "ro.json").write_text("keep")
                (folder / "ro.json").chmod(0o444)
            cancel = _alarm(HANG_SECONDS)
            try:
                res = runner.invoke(app, args, catch_exceptions=True)
            finally:
                cancel()
            problem, key = _judge(res, args, folder)
        except _Hang:
            problem, key = "hang", "hang"
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if problem is None:
            outcomes[f"exit {res.exit_code}"] += 1
        else:
            outcomes[key] += 1
            if len(bugs) < 5:
                bugs.append(f"args {args!r}\n{problem}")
    return outcomes, bugs


def fuzz_api(count: int) -> tuple[Counter[str], list[str]]:
    """Call the library's entry points ``count`` times with hypothesis-drawn arguments."""
    import datetime
    import signal

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    import deckcheck

    deck = deckcheck.read_deck("#main\n" + "89631139\n" * 3)
    report = deckcheck.validate(deck, date=datetime.date(2025, 6, 1))
    anything = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.text(max_size=40),
        st.binary(max_size=40),
        st.lists(st.text(max_size=5), max_size=3),
        st.just(deck),
        st.just(report),
        st.just(object()),
        st.just(Path("/dev/zero")),
        st.just(datetime.date.max),
        st.just(datetime.date.min),
        st.integers(min_value=10**6, max_value=10**30),
        st.sampled_from(["-", "\0", "ydke://!!!", "[" * 3000, EVIL_GLOB, "tcg", "json"]),
    )
    calls = {
        "validate": (deck, ["format", "date", "region", "path"]),
        "read_deck": ("#main\n89631139\n", ["fmt", "source"]),
        "read_path": (str(ROOT / "tests" / "data" / "io"), ["fmt"]),
        "simulate": (deck, ["going", "turns", "trials", "seed", "exact", "format", "date"]),
        "render": (report, ["output"]),
        "write_deck": (deck, ["fmt"]),
        "get_format": ("tcg", []),
        "parse_condition": ("x", ["categories"]),
        "parse_side_plan": ("in: 1 Ash Blossom & Joyous Spring", ["data"]),
        "detect_format": ("#main\n89631139\n", []),
        "fingerprint_deck": (deck, []),
        "compare_decks": (deck, ["played", "data"]),
        "read_lflist": ("!2024.1 TCG\n14558127 1\n", ["source", "family", "effective"]),
        "load_spec": (str(ROOT / "tests" / "data" / "goldfish" / "spec-ash.toml"), ["rush"]),
        "list_formats": (True, ["data"]),
        "sources": (["."], ["exclude"]),
        "check": ([str(ROOT / "tests" / "data" / "decks" / "legal")], ["format", "date", "jobs"]),
    }
    names = sorted(calls)
    outcomes: Counter[str] = Counter()
    bugs: list[str] = []

    @settings(
        max_examples=count, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(which=st.integers(0, 10**6), value=anything, first=st.booleans())
    def one(which: int, value: object, first: bool) -> None:
        name = names[which % len(names)]
        good, others = calls[name]
        kwargs: dict[str, object] = {}
        if others and not first:
            kwargs[others[which % len(others)]] = value
            args: tuple[object, ...] = (good,)
        else:
            args = (value,)
        if name == "simulate":
            kwargs.setdefault("trials", 100)
        if name == "render":
            kwargs.setdefault("output", "json")
        cancel = _alarm(HANG_SECONDS)
        try:
            got = getattr(deckcheck, name)(*args, **kwargs)
            if hasattr(got, "__next__"):
                list(got)
            outcomes["result"] += 1
        except deckcheck.DeckcheckError:
            outcomes["DeckcheckError"] += 1
        except _Hang:
            outcomes["hang"] += 1
            bugs.append(f"hang: {name}{args!r:.80} {kwargs!r:.200}")
        except Exception as exc:
            outcomes["escape"] += 1
            if len(bugs) < 5:
                bugs.append(f"{name}{args!r:.80} {kwargs!r:.200}: {type(exc).__name__}: {exc}")
        finally:
            cancel()
            signal.signal(signal.SIGALRM, signal.SIG_DFL)

    one()
    return outcomes, bugs


# -- the third audit: sheets, metagame, standard input, outputs, the service's compute routes --

STDIN_LINES = [
    ["validate", "-"],
    ["convert", "-", "--to", "ydke"],
    ["fingerprint", "-"],
    ["meta", "-"],
    ["simulate", "-"],
    ["upcoming", "-"],
    ["batch", "-", "--out", "{f}/out"],
    ["sheet", "-", "--out", "{f}/s.pdf"],
]
WRITERS = [
    ["validate", "{d}", "--out", "{o}"],
    ["convert", "{d}", "--to", "text", "--out", "{o}"],
    ["meta", "{d}", "--out", "{o}"],
    ["sheet", "{d}", "--out", "{o}"],
    ["banlist", "export", "tcg", "--out", "{o}"],
    ["validate", "{d}", "--sarif", "{o}"],
    ["batch", "{d}", "--out", "{o}"],
]


def _signature_file(rng: random.Random, folder: Path) -> str:
    """A hostile signature file: a FIFO, a device, a huge or deeply nested or damaged TOML."""
    import os

    kind = rng.randrange(6)
    path = folder / "sig.toml"
    if kind == 0:
        os.mkfifo(path)
    elif kind == 1:
        return rng.choice(["/dev/zero", "/dev/urandom", "/dev/null"])
    elif kind == 2:
        with open(path, "wb") as handle:
            handle.truncate(rng.choice([2 << 20, 1 << 30]))
    elif kind == 3:
        depth = rng.choice([100, 5000, 100_000])
        path.write_text("a = " + "[" * depth + "]" * depth)
    elif kind == 4:
        good = b'[archetypes.X]\ncards = ["Pot of Greed", "Raigeki"]\nmin = 1\n'
        path.write_bytes(mutate(rng, good) + rng.choice([b"", b"\xff\xfe", b"\xed\xa0\x80"]))
    else:
        path.write_text(f"share = {rng.choice(['1e999', '-1', 'nan', '0'])}\n[archetypes]\n")
    return str(path)


def _output_target(rng: random.Random, folder: Path) -> str:
    """Where a command is told to write: read-only, empty, a FIFO, a folder, a device..."""
    import os

    kind = rng.randrange(6)
    target = folder / "target.out"
    if kind == 0:
        target.write_text("keep")
        target.chmod(0o444)
    elif kind == 1:
        return ""
    elif kind == 2:
        os.mkfifo(target)
    elif kind == 3:
        return str(folder)
    elif kind == 4:
        return "/dev/null"
    return str(target)


def _third_case(rng: random.Random, folder: Path) -> tuple[str, list[str]]:
    """One case of the third audit: ``("cli", args)`` run in-process, or ``("proc", args)`` run
    in a process of its own (closed standard input, lone surrogates on stdout)."""
    deck = folder / "deck.ydk"
    deck.write_bytes(b"#main\n" + b"89631139\n" * 3 + b"55144522\n")
    kind = rng.randrange(5)
    if kind == 0:
        sig = _signature_file(rng, folder)
        return "cli", rng.choice(
            [
                ["meta", str(deck), "--signatures", sig],
                ["batch", str(deck), "--out", str(folder / "o"), "--signatures", sig],
            ]
        )
    if kind == 1:
        line = [a.format(f=folder) for a in rng.choice(STDIN_LINES)]
        return "proc", [
            "bash",
            "-c",
            " ".join([sys.executable, "-m", "deckcheck", *line]) + " 0<&-",
        ]
    if kind == 2:
        out = _output_target(rng, folder)
        return "cli", [a.format(d=deck, o=out) for a in rng.choice(WRITERS)]
    if kind == 3:
        name = rng.choice(["\\ud800", "a\\udfffb", "\\udc80x", "\\u202e\\ud83d"])
        path = folder / "deck.json"
        path.write_text('{"deckcheck": 1, "name": "' + name + '", "main": [55144522]}')
        to = rng.choice(["text", "ydk", "json", "omega", "ydke"])
        return "proc", [sys.executable, "-m", "deckcheck", "convert", str(path), "--to", to]
    player = rng.choice(["\x1b[2J", "a" * 5000, "\u202eevil", "=cmd"])
    return "cli", ["sheet", str(deck), "--player", player, "--out", str(folder / "s.pdf")]


def _third_outcome(kind: str, args: list[str], folder: Path) -> tuple[str | None, str, int]:
    """Run one case; (problem, key, exit code)."""
    import subprocess

    from typer.testing import CliRunner

    from deckcheck.cli import app

    if kind == "proc":
        try:
            res = subprocess.run(
                args,
                capture_output=True,
                text=True,
                timeout=HANG_SECONDS,
                check=False,
                errors="replace",
            )
        except subprocess.TimeoutExpired:
            return "hang", "hang", -1
        out, code = res.stdout + res.stderr, res.returncode
    else:
        cancel = _alarm(HANG_SECONDS)
        try:
            got = CliRunner().invoke(app, args, catch_exceptions=True)
        finally:
            cancel()
        if isinstance(got.exception, _Hang):
            return "hang", "hang", -1
        if got.exception is not None and not isinstance(got.exception, SystemExit):
            return "".join(traceback.format_exception(got.exception)), "traceback", -1
        out, code = got.stdout + got.stderr, got.exit_code
    if code not in (0, 1, 2) or "Traceback" in out or "unexpected" in out:
        return f"exit {code}: {out[-400:]}", "escape", code
    if "\x1b" in out:
        return "raw control character", "escape", code
    ro = folder / "target.out"
    if ro.is_file() and not ro.stat().st_mode & 0o222 and ro.read_text() != "keep":
        return "an output replaced a read-only file", "escape", code
    return None, "", code


def _third_http(rng: random.Random, api: Callable[..., object]) -> tuple[str | None, str, int]:
    """One hostile request to a compute route: it must answer below 500, as JSON."""
    route = rng.choice(
        ["/v1/meta", "/v1/simulate", "/v1/simulate/sweep", "/v1/simulate/side", "/v1/batch"]
    )
    deck = "#main\n" + "89631139\n" * 40
    side = "#main\n" + "89631139\n" * 40 + "!side\n" + "55144522\n" * 3
    bodies: list[object] = [
        {
            "decks": [{"name": "a", "deck": deck}] * rng.choice([1, 50]),
            "signatures": {"archetypes": {"x": {"cards": ["Raigeki"] * 3}}},
        },
        {"deck": deck, "trials": rng.choice([10, 10**9, -1]), "turns": rng.choice([1, 99])},
        {"deck": deck, "vary": ["starter=1..99"]},
        {"decks": [{"name": "\ud800", "deck": deck}]},
        {
            "deck": side,
            "plan": rng.choice(
                [
                    {"in": ["3 Pot of Greed"], "out": ["3 Blue-Eyes White Dragon"]},
                    {"in": ["9 Pot of Greed"], "out": []},
                    "in:\n3 Pot of Greed\nout:\n3 Blue-Eyes White Dragon\n",
                    "in = [[[[",
                    "",
                ]
            ),
            "trials": rng.choice([100, 10**7]),
        },
    ]
    body = json.dumps(rng.choice(bodies)).encode()
    if rng.random() < 0.3:
        body = mutate(rng, body)
    if rng.random() < 0.1:
        body = b"[" * 100_000 + b"]" * 100_000
    query = rng.choice(["", "?date=garbage", "?format=x.toml", "?timeline=tcg"])
    cancel = _alarm(HANG_SECONDS * 3)
    try:
        resp: Any = api(route + query, body)
    except _Hang:
        return "hang", "hang", -1
    finally:
        cancel()
    if resp.status_code >= 500:
        return f"{route}{query}: HTTP {resp.status_code}: {resp.text[:300]}", "escape", 0
    try:
        json.loads(resp.text)
    except ValueError:
        return f"{route}: not JSON: {resp.text[:200]}", "escape", 0
    if "x-deckcheck-data" not in resp.headers:
        return f"{route}: no X-Deckcheck-Data header", "escape", 0
    return None, "", resp.status_code


def _http_client() -> Callable[[str, bytes], object]:
    import asyncio

    import httpx

    from deckcheck.service import Settings, create_app

    app = create_app(Settings(compute_seconds=2, max_batch_decks=100))

    def post(url: str, body: bytes) -> object:
        async def go() -> httpx.Response:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://fuzz") as c:
                return await c.post(url, content=body, headers={"content-type": "application/json"})

        return asyncio.run(go())

    return post


def fuzz_third(count: int, seed: int) -> tuple[Counter[str], list[str]]:
    """``count`` cases of the third audit: sheets, signature files, closed standard input,
    outputs, lone surrogates, and (one in five) hostile requests to the service's compute
    routes."""
    import shutil
    import tempfile

    rng = random.Random(f"{seed}:third")
    outcomes: Counter[str] = Counter()
    bugs: list[str] = []
    post = _http_client()
    for i in range(count):
        folder = Path(tempfile.mkdtemp(prefix="deckcheck-fuzz-"))
        args: list[str] = []
        try:
            if i % 5 == 4:
                args = ["http"]
                problem, key, code = _third_http(rng, post)
            else:
                kind, args = _third_case(rng, folder)
                problem, key, code = _third_outcome(kind, args, folder)
        except _Hang:
            problem, key, code = "hang", "hang", -1
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if problem is None:
            outcomes[f"exit {code}" if code < 100 else f"HTTP {code}"] += 1
        else:
            outcomes[key] += 1
            if len(bugs) < 5:
                bugs.append(f"args {args!r}\n{problem}")
    return outcomes, bugs


def _report(label: str, n: int, outcomes: Counter[str], secs: float) -> None:
    tried = sum(outcomes.values())
    bad = {k: outcomes[k] for k in ("traceback", "hang", "escape")}
    rest = ", ".join(f"{k}: {v:,}" for k, v in sorted(outcomes.items()) if k not in bad)
    print(
        f"{label:7} {tried:>9,} cases  {bad['traceback']} tracebacks, {bad['hang']} hangs "
        f"over {HANG_SECONDS} s, {bad['escape']} escapes  ({rest}; {secs:.1f} s)",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    """Fuzz every reader (and the CLI); exit 1 if anything broke."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--count", type=int, default=100_000, help="inputs per reader")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reader", action="append", help="only these readers")
    ap.add_argument("--cli", type=int, default=0, metavar="M", help="hostile command lines to run")
    ap.add_argument("--hostile", type=int, default=0, metavar="M", help="second-audit cases")
    ap.add_argument("--api", type=int, default=0, metavar="M", help="library API calls")
    ap.add_argument("--third", type=int, default=0, metavar="M", help="third-audit cases")
    args = ap.parse_args(argv)
    all_readers = readers()
    names = (args.reader or list(all_readers)) if args.count else []
    seeds = sum(map(len, corpus().values()))
    print(f"corpus: {seeds} real deck texts; {args.count:,} inputs per reader")
    total_bugs = 0
    if args.cli:
        t0 = time.perf_counter()
        outcomes, bugs = fuzz_cli(args.cli, args.seed)
        total_bugs += outcomes["BUG"]
        codes = ", ".join(f"{k}: {v:,}" for k, v in sorted(outcomes.items()))
        print(f"cli     {args.cli:>9,} command lines  {codes}  ({time.perf_counter() - t0:.1f} s)")
        for bug in bugs:
            print(bug, file=sys.stderr)
    runs: list[tuple[str, int, Callable[[], tuple[Counter[str], list[str]]]]] = [
        ("hostile", args.hostile, lambda: fuzz_hostile(args.hostile, args.seed)),
        ("api", args.api, lambda: fuzz_api(args.api)),
        ("third", args.third, lambda: fuzz_third(args.third, args.seed)),
    ]
    for label, n, run in runs:
        if n:
            t0 = time.perf_counter()
            outcomes, bugs = run()
            _report(label, n, outcomes, time.perf_counter() - t0)
            total_bugs += outcomes["traceback"] + outcomes["hang"] + outcomes["escape"]
            for bug in bugs:
                print(bug, file=sys.stderr)
    for name in names:
        t0 = time.perf_counter()
        outcomes, bugs = fuzz(name, all_readers[name], args.count, args.seed)
        secs = time.perf_counter() - t0
        total_bugs += outcomes["BUG"]
        print(
            f"{name:7} {sum(outcomes.values()):>9,} inputs  {outcomes['deck']:>9,} decks  "
            f"{outcomes['read-error']:>9,} DeckReadError  {outcomes['BUG']:>4} other  "
            f"({secs:.1f} s)",
            flush=True,
        )
        for bug in bugs:
            print(bug, file=sys.stderr)
    return 1 if total_bugs else 0


if __name__ == "__main__":
    raise SystemExit(main())
