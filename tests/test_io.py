"""Deck readers and writers: golden files with real-world quirks, errors, detection, CLI."""

from __future__ import annotations

import base64
import json
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from deckcheck.card import Match
from deckcheck.data.dataset import Dataset
from deckcheck.deck.io import (
    MAX_CARDS,
    MAX_INPUT_BYTES,
    DeckFormat,
    DeckWriteError,
    UnknownDeckFormatError,
    detect_format,
    dump_omega,
    dump_text,
    dump_ydk,
    dump_ydke,
    parse_json,
    parse_omega,
    parse_text,
    parse_ydk,
    parse_ydke,
    read_deck,
    read_path,
    write_deck,
)
from deckcheck.deck.model import Deck, FindingCode, Section
from deckcheck.error import DeckcheckError, DeckReadError

DATA = Path(__file__).resolve().parent / "data" / "io"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

ASH, MAXX, IMPERM, DECODE, CYBER_DRAGON = 14558127, 23434538, 10045474, 1861629, 70095154
COOCLOCK, AHERO = 2511, 8949584


def pairs(deck: Deck) -> list[tuple[Section, int]]:
    """(section, passcode) of every card in order."""
    return [(c.section, c.passcode) for c in deck]


# --- ydk ---------------------------------------------------------------------------------------


def test_ydk_quirks_crlf_bom_short_padded_repeated_headers() -> None:
    deck = read_path(DATA / "quirky.ydk")
    assert deck.source_format == "ydk"
    assert deck.name == "Quirky Player"
    assert pairs(deck) == [
        (Section.MAIN, COOCLOCK),
        (Section.MAIN, AHERO),
        (Section.MAIN, ASH),
        (Section.MAIN, 581014),
        (Section.EXTRA, DECODE),
        (Section.EXTRA, CYBER_DRAGON),  # a Main Deck card listed in Extra stays there
        (Section.SIDE, 99999999),
    ]
    assert [c.line for c in deck] == [3, 5, 6, 12, 9, 10, 14]
    main = deck.main
    assert main[0].match is Match.UNPADDED and main[0].card is not None
    assert main[0].card.name == "Labrynth Cooclock"
    assert main[1].match is Match.PADDED
    unknown = deck.side[0]
    assert unknown.card is None and unknown.name == "#99999999"
    (finding,) = deck.findings
    assert finding.code is FindingCode.UNKNOWN_CARD
    assert (finding.line, finding.passcode, finding.section) == (14, 99999999, Section.SIDE)


def test_ydk_utf16_with_bom() -> None:
    deck = read_path(DATA / "utf16.ydk")
    assert pairs(deck) == [(Section.MAIN, ASH), (Section.SIDE, COOCLOCK)]


def test_ydk_without_headers_and_with_junk_lines() -> None:
    deck = parse_ydk("14558127\n14558127 # Ash\nhello\n!weird\n123456789012345\n")
    assert pairs(deck) == [(Section.MAIN, ASH)] * 2
    assert [(f.code, f.line) for f in deck.findings] == [
        (FindingCode.PARSE, 3),
        (FindingCode.PARSE, 4),
        (FindingCode.PARSE, 5),
    ]


def test_ydk_keeps_alternate_art_records() -> None:
    index = Dataset.active().cards
    alt = next(c for c in index if c.is_alternate_art and c.in_tcg)
    deck = parse_ydk(f"#main\n{alt.passcode}\n")
    card = deck.main[0]
    assert card.passcode == alt.passcode
    assert card.card == alt and card.match is Match.ALTERNATE_ART


def test_ydk_real_files() -> None:
    crlf = read_path(DATA / "alba-strike-crlf.ydk")
    assert crlf.counts == {"main": 40, "extra": 6, "side": 0}
    assert not crlf.findings
    assert all(c.line is not None for c in crlf)
    gouki = read_path(DATA / "gouki.ydk")
    assert gouki.counts == {"main": 40, "extra": 15, "side": 0}
    assert gouki.name == "Naim"
    # prerelease-era codes the index no longer knows are kept and reported, not dropped
    talker = read_path(DATA / "code-talker-prerelease.ydk")
    unknown = [c for c in talker if c.card is None]
    assert unknown and len(unknown) == len(talker.findings)
    assert all(f.code is FindingCode.UNKNOWN_CARD and f.line for f in talker.findings)


def test_ydk_dump_is_what_edopro_writes() -> None:
    deck = parse_ydk("#created by X\n#main\n08949584\n#extra\n1861629\n!side\n")
    assert dump_ydk(deck) == "#created by X\n#main\n8949584\n#extra\n1861629\n!side\n"


# --- ydke --------------------------------------------------------------------------------------


def test_ydke_decodes_little_endian_uint32() -> None:
    def part(*codes: int) -> str:
        return base64.b64encode(struct.pack(f"<{len(codes)}I", *codes)).decode()

    url = f"ydke://{part(ASH, ASH, 99999999)}!{part(DECODE)}!{part()}!"
    deck = parse_ydke(url)
    assert pairs(deck) == [
        (Section.MAIN, ASH),
        (Section.MAIN, ASH),
        (Section.MAIN, 99999999),
        (Section.EXTRA, DECODE),
    ]
    assert [f.passcode for f in deck.findings] == [99999999]
    assert dump_ydke(deck) == url


@pytest.mark.parametrize(
    "url",
    [
        "ydke://@@@@!!!",
        "ydke://AAA=!!",
        "ydke://AAAAAAA=!!",
        "notydke",
        "ydke://!!!notbase64!!!",  # a tail after the side part that is no base64 at all
    ],
)
def test_ydke_bad_urls_raise_read_error(url: str) -> None:
    with pytest.raises(DeckReadError):
        parse_ydke(url)


def test_ydke_tail_after_the_side_part_is_reported_never_dropped() -> None:
    # ydke.js splits on "!" and ignores what follows the third part: an empty tail (a doubled
    # final "!") is nothing, base64 data there is a finding, so no input vanishes silently
    assert parse_ydke("ydke://!!!!").counts == {"main": 0, "extra": 0, "side": 0}
    assert parse_ydke("ydke://!!!!").findings == ()
    deck = parse_ydke("ydke://!!!AAAA!")
    assert deck.counts == {"main": 0, "extra": 0, "side": 0}
    assert [(f.code.value, f.line, f.text) for f in deck.findings] == [("parse", 1, "AAAA")]


# --- omega -------------------------------------------------------------------------------------


def omega_code(main_extra: list[int], side: list[int]) -> str:
    raw = bytes((len(main_extra), len(side))) + struct.pack(
        f"<{len(main_extra) + len(side)}I", *main_extra, *side
    )
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.b64encode(comp.compress(raw) + comp.flush()).decode()


def test_omega_splits_main_and_extra_by_card_zone() -> None:
    code = omega_code([DECODE, ASH, 99999999, ASH], [IMPERM])
    deck = parse_omega(code)
    assert pairs(deck) == [
        (Section.MAIN, ASH),
        (Section.MAIN, 99999999),
        (Section.MAIN, ASH),
        (Section.EXTRA, DECODE),
        (Section.SIDE, IMPERM),
    ]
    assert detect_format(code) is DeckFormat.OMEGA
    assert parse_omega(dump_omega(deck)) == deck


def test_omega_bad_codes_raise_read_error() -> None:
    good = omega_code([ASH], [])
    raw = zlib.decompress(base64.b64decode(good), -15)
    truncated = base64.b64encode(zlib.compress(raw[:-1])[2:-4]).decode()
    for bad in ("", "AAAA", "!!!!", good[:-4], truncated):
        with pytest.raises(DeckReadError):
            parse_omega(bad)


def test_omega_cannot_hold_more_than_255_main_cards() -> None:
    deck = parse_ydk("\n".join([str(ASH)] * 256))
    with pytest.raises(DeckWriteError):
        dump_omega(deck)


# --- json --------------------------------------------------------------------------------------


def test_json_form_and_count_items() -> None:
    doc = {
        "deckcheck": 1,
        "name": "J",
        "main": [ASH, "08949584", {"passcode": MAXX, "count": 2}, "oops", True],
        "side": [IMPERM],
    }
    deck = parse_json(json.dumps(doc))
    assert deck.name == "J"
    assert pairs(deck) == [
        (Section.MAIN, ASH),
        (Section.MAIN, AHERO),
        (Section.MAIN, MAXX),
        (Section.MAIN, MAXX),
        (Section.SIDE, IMPERM),
    ]
    assert [f.code for f in deck.findings] == [FindingCode.PARSE] * 2
    assert json.loads(write_deck(deck, "json")) == {
        "deckcheck": 1,
        "name": "J",
        "main": [ASH, AHERO, MAXX, MAXX],
        "extra": [],
        "side": [IMPERM],
    }


@pytest.mark.parametrize(
    "text",
    ['{"deckcheck": 2}', '{"main": []}', "[1, 2]", '{"deckcheck": 1,\n "main": [1,,]}', "{" * 5000],
)
def test_json_unreadable(text: str) -> None:
    with pytest.raises(DeckReadError):
        parse_json(text)


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({"Main": [ASH]}, 'unknown key "Main"'),
        ({"sides": [IMPERM]}, 'unknown key "sides"'),
        ({"name": [["J"]]}, '"name" is not text'),
    ],
)
def test_json_keys_it_cannot_read_are_findings(
    extra: dict[str, Any], said: str, tmp_path: Path, cli: Any
) -> None:
    doc = {"deckcheck": 1, "main": [MAXX], **extra}
    deck = parse_json(json.dumps(doc))
    assert [c.passcode for c in deck] == [MAXX]
    assert [f.code for f in deck.unread] == [FindingCode.PARSE]
    assert deck.unread[0].message.startswith(said)
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    res = cli("convert", str(path), "--to", "ydk")
    assert res.code == 2 and said in res.stderr  # never an empty or short deck, exit 0


def test_json_error_names_the_line() -> None:
    with pytest.raises(DeckReadError) as err:
        parse_json('{"deckcheck": 1,\n "main": [1,,]}', source="d.json")
    assert err.value.line == 2 and str(err.value).startswith("d.json:2:")


# --- text --------------------------------------------------------------------------------------

TEXT_DECK = [
    (Section.MAIN, ASH),
    (Section.MAIN, ASH),
    (Section.MAIN, ASH),
    (Section.MAIN, CYBER_DRAGON),
    (Section.MAIN, CYBER_DRAGON),
]


@pytest.mark.parametrize("name", ["ygoprodeck.txt", "duelingbook.txt", "konami-form.txt"])
def test_text_exports(name: str) -> None:
    deck = read_path(DATA / name)
    assert deck.source_format == "text"
    assert not deck.findings
    assert deck.counts == {"main": 8, "extra": 1, "side": 3}
    assert pairs(deck)[:5] == TEXT_DECK
    assert deck.extra[0].passcode == DECODE
    assert {c.passcode for c in deck.side} == {94145021}
    assert all(c.line is not None for c in deck)


def test_text_duelingbook_title_names_the_deck() -> None:
    assert read_path(DATA / "duelingbook.txt").name == "Duelingbook test"


def test_text_chinese() -> None:
    deck = read_path(DATA / "chinese.txt")
    assert not deck.findings
    assert deck.multiset()[Section.MAIN] == {ASH: 3, MAXX: 1, COOCLOCK: 1}
    assert deck.passcodes(Section.EXTRA) == [DECODE]
    assert deck.passcodes(Section.SIDE) == [IMPERM, IMPERM]
    assert deck.main[0].match is Match.NAME_ZH and deck.main[0].line == 2


def test_text_japanese() -> None:
    deck = read_path(DATA / "japanese.txt")
    assert not deck.findings
    assert deck.multiset()[Section.MAIN] == {ASH: 3, MAXX: 1}
    assert deck.passcodes(Section.EXTRA) == [DECODE]
    assert deck.passcodes(Section.SIDE) == [IMPERM, IMPERM]
    assert deck.main[0].match is Match.NAME_JA


def test_text_typos_are_findings_with_lines_and_suggestions() -> None:
    deck = read_path(DATA / "typos.txt")
    by_line = {f.line: f for f in deck.findings}
    typo = by_line[2]
    assert typo.code is FindingCode.UNKNOWN_CARD and typo.section is Section.MAIN
    assert typo.suggestions[0] == "Ash Blossom & Joyous Spring"
    ambiguous = by_line[4]
    assert ambiguous.code is FindingCode.AMBIGUOUS_CARD
    assert len(ambiguous.suggestions) == 2
    assert set(by_line) == {2, 4}
    # the rest still loads: "7 Colored Fish" is a name, "2 7 Colored Fish" two copies of it
    fish = Dataset.active().cards.lookup_name("7 Colored Fish").card.passcode
    assert deck.multiset()[Section.MAIN] == {CYBER_DRAGON: 2, fish: 3}


@pytest.mark.parametrize(
    "line",
    [
        "3x Ash Blossom",
        "3 Ash Blossom",
        "3 x Ash Blossom",
        "Ash Blossom x3",
        "Ash Blossom ×3",
        "Ash Blossom (3)",
        "ASH  blossom & JOYOUS-spring x 3",
        "３ Ash Blossom",
    ],
)
def test_text_quantity_forms(line: str) -> None:
    deck = parse_text(line.replace("Ash Blossom", "Ash Blossom & Joyous Spring"))
    assert pairs(deck) == [(Section.MAIN, ASH)] * 3, deck.findings


def test_text_headings_and_comments() -> None:
    text = (
        "# comment\n// another\nExtra Deck (15)\nDecode Talker\n== Side Deck ==\n2 Maxx C\n"
        "Main Deck: 40 cards\n14558127\n"
    )
    deck = parse_text(text)
    assert pairs(deck) == [
        (Section.MAIN, ASH),
        (Section.EXTRA, DECODE),
        (Section.SIDE, MAXX),
        (Section.SIDE, MAXX),
    ]


def test_text_dump_reads_back_alt_arts_and_unknown_codes() -> None:
    index = Dataset.active().cards
    alt = next(c for c in index if c.is_alternate_art)
    deck = parse_ydk(f"#main\n{alt.passcode}\n{ASH}\n{ASH}\n99999999\n#extra\n56260110\n")
    text = dump_text(deck)
    assert "2 Ash Blossom & Joyous Spring\n" in text
    assert f"[{alt.passcode}]" in text and "1 99999999\n" in text
    # "Raimei" shares its key with "Rai-Mei", but the exact name reads back as this card
    assert "1 Raimei\n" in text
    back = parse_text(text)
    assert back.multiset() == deck.multiset()


# --- errors, limits, detection -----------------------------------------------------------------

READERS: list[Callable[..., Deck]] = [parse_ydk, parse_ydke, parse_text, parse_omega, parse_json]


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize(
    "data",
    [
        b"\x00\x01\x02garbage",
        b"#main\n\xff\xfe\xfd\n",
        b"#main\n" + b"1" * (MAX_INPUT_BYTES + 1),
        "#main\n\ud800\n",
        b"\xff\xfe\x00\xd8",
    ],
)
def test_unreadable_input_raises_read_error(reader: Callable[..., Deck], data: Any) -> None:
    with pytest.raises(DeckReadError) as err:
        reader(data, source="deck.x")
    assert err.value.source == "deck.x"
    assert isinstance(err.value, DeckcheckError)


def test_read_error_names_the_line() -> None:
    with pytest.raises(DeckReadError) as err:
        parse_ydk(b"#main\n14558127\n\xff\n", source="bad.ydk")
    assert err.value.line == 3 and "bad.ydk:3" in str(err.value)


@pytest.mark.parametrize(
    "text",
    ["\n".join([str(ASH)] * (MAX_CARDS + 1)), f"{MAX_CARDS + 1} Ash Blossom & Joyous Spring"],
)
def test_card_limit(text: str) -> None:
    with pytest.raises(DeckReadError, match="more than 500 cards"):
        read_deck(text)


def test_many_junk_lines_stop_with_read_error() -> None:
    with pytest.raises(DeckReadError):
        parse_ydk("nope\n" * 1000)


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        ("#created by x\n#main\n1\n", DeckFormat.YDK),
        ("\ufeff14558127\r\n14558127\r\n", DeckFormat.YDK),
        ("  ydke://AAAA!!!\n", DeckFormat.YDKE),
        ('{"deckcheck": 1}', DeckFormat.JSON),
        ("3x Ash Blossom\n", DeckFormat.TEXT),
        ("Main Deck\n14558127\n", DeckFormat.TEXT),
        ("", DeckFormat.TEXT),
    ],
)
def test_detect_format(text: str, fmt: DeckFormat) -> None:
    assert detect_format(text) is fmt
    assert detect_format(text.encode()) is fmt


def test_unknown_format_name() -> None:
    with pytest.raises(UnknownDeckFormatError):
        read_deck("1\n", fmt="yaml")
    with pytest.raises(DeckcheckError):
        write_deck(Deck(), "yaml")


def test_read_path_missing_file_and_ydke_string(tmp_path: Path) -> None:
    with pytest.raises(DeckReadError) as err:
        read_path(tmp_path / "missing.ydk")
    assert "missing.ydk" in str(err.value)
    url = dump_ydke(parse_ydk(f"{ASH}\n"))
    assert read_path(url).passcodes(Section.MAIN) == [ASH]


def test_examples_read_cleanly() -> None:
    legal = read_path(EXAMPLES / "tcg-legal.ydk")
    assert not legal.findings and 40 <= len(legal.main) <= 60 and len(legal.extra) <= 15
    text = read_path(EXAMPLES / "decklist.txt")
    assert text.multiset() == legal.multiset()
    problems = read_path(EXAMPLES / "problems.ydk")
    assert [f.passcode for f in problems.findings] == [12345678]


# --- CLI ---------------------------------------------------------------------------------------


def test_cli_convert_ydk_to_ydke_and_back(cli: Any, tmp_path: Path) -> None:
    res = cli("convert", str(DATA / "gouki.ydk"), "--to", "ydke")
    assert res.code == 0 and res.stdout.startswith("ydke://")
    back = cli("convert", res.stdout.strip(), "--to", "json")
    assert back.code == 0
    doc = json.loads(back.stdout)
    gouki = read_path(DATA / "gouki.ydk")
    assert doc["main"] == gouki.passcodes(Section.MAIN)


def test_cli_convert_stdin_warnings_and_output_file(cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "out.ydk"
    typos = (DATA / "typos.txt").read_text()
    refused = cli("convert", "-", "--to", "ydk", "--out", str(out), input=typos)
    assert refused.code == 2 and not out.exists()
    res = cli("convert", "-", "--to", "ydk", "--out", str(out), "--drop-unknown", input=typos)
    assert res.code == 1 and res.stdout == ""  # written, but lines were left out
    assert "<stdin>:2: unknown card" in res.stderr
    assert "did you mean: Ash Blossom & Joyous Spring" in res.stderr
    assert "<stdin>:4: ambiguous" in res.stderr
    assert parse_ydk(out.read_text()).passcodes(Section.MAIN)[:2] == [CYBER_DRAGON] * 2
    assert [p.name for p in tmp_path.iterdir()] == ["out.ydk"]


def test_cli_convert_unreadable_input_exits_2_and_keeps_output(cli: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.ydk"
    bad.write_bytes(b"#main\n1\n\x00\x00")
    res = cli("convert", str(bad), "--out", str(bad))
    assert res.code == 2
    assert f"{bad}:3" in res.stderr
    assert bad.read_bytes() == b"#main\n1\n\x00\x00"


def test_cli_convert_cannot_write_exits_2(cli: Any, tmp_path: Path) -> None:
    big = tmp_path / "big.ydk"
    big.write_text("\n".join([str(ASH)] * 300))
    out = tmp_path / "out.txt"
    out.write_text("keep")
    res = cli("convert", str(big), "--to", "omega", "--out", str(out))
    assert res.code == 2 and "omega" in res.stderr
    assert out.read_text() == "keep"


@pytest.mark.slow
def test_cli_convert_subprocess_stdin(cli_proc: Any) -> None:
    proc = cli_proc("convert", "-", "--from", "text", "--to", "text", input="3 Maxx C\n")
    assert proc.returncode == 0
    assert '3 Maxx "C"' in proc.stdout


def test_every_line_of_a_repeated_pre_release_code_reads_as_the_released_card() -> None:
    # 8805661 is EDOPro's pre-release code of Megalith Phuloch (8805651); the reader's shortcut
    # for a passcode it has seen once kept the second copy as the pre-release record
    deck = read_deck("#main\n8805661\n8805661\n8805661\n#extra\n!side\n")
    assert [c.passcode for c in deck.main] == [8805651] * 3
    assert [(f.code.value, f.line) for f in deck.findings] == [
        ("prerelease-code", n) for n in (2, 3, 4)
    ]
