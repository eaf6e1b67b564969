"""Deck registration sheets (``deckcheck sheet``, ``batch --sheets``): the PDF read back.

The PDF is read with pypdf (every card name with its count, every total, in each language),
laid out as poppler sees it (``pdftotext -bbox``: no text outside the page, no two words on top
of each other) and its QR code decoded from the rendered page (``pdftoppm`` + ``zbarimg``) into
a ydke URL whose deck has the same fingerprint. poppler-utils, poppler-data and zbar-tools are
Debian packages (``.ci/run`` installs them); where they are missing those tests are skipped and
say why.
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from deckcheck.card import CardIndex
from deckcheck.data.dataset import Dataset
from deckcheck.deck.io import read_path
from deckcheck.deck.model import Deck, fingerprint_deck

ROOT = Path(__file__).resolve().parent.parent
LEGAL = ROOT / "examples" / "tcg-legal.ydk"
PROBLEMS = ROOT / "examples" / "problems.ydk"
ON = "2025-06-01"
TOTAL = {"en": "Total", "ja": "合計", "zh": "合计"}
MAIN = {"en": "Main Deck", "ja": "メインデッキ", "zh": "主卡组"}
EXTRA = {"en": "Extra Deck", "ja": "エクストラデッキ", "zh": "额外卡组"}
SIDE = {"en": "Side Deck", "ja": "サイドデッキ", "zh": "副卡组"}


def _tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        reason = f"{name} is missing (apt-get install {package})"
        print(f"SKIPPED: {reason}")
        pytest.skip(reason)
    return path


def _pages(pdf: Path) -> list[list[str]]:
    from pypdf import PdfReader

    return [page.extract_text().splitlines() for page in PdfReader(str(pdf)).pages]


def _expected_name(card: Any, lang: str) -> str:
    local = {"ja": card.name_ja, "zh": card.name_zh}.get(lang)
    return local if local else card.name + (" *" if lang != "en" else "")


def _expected_lines(deck: Deck, lang: str) -> list[str]:
    """``count name`` for every distinct card of every section (an independent count)."""
    out = []
    for section in (deck.main, deck.extra, deck.side):
        counts = Counter(dc.passcode for dc in section)
        first = {dc.passcode: dc for dc in section}
        for code, n in counts.items():
            card = first[code].card
            out.append(f"{n} {_expected_name(card, lang) if card else f'#{code}'}")
    return out


def _kind_totals(deck: Deck) -> list[int]:
    kinds = Counter(dc.card.kind.value if dc.card else "other" for dc in deck.main)
    return [
        kinds["Monster"],
        kinds["Spell"],
        kinds["Trap"] + kinds["other"],
        len(deck.extra),
        len(deck.side),
    ]


def _sheet(cli: Callable[..., Any], tmp_path: Path, *args: str, name: str = "s.pdf") -> Path:
    out = tmp_path / name
    res = cli("sheet", *args, "--out", str(out), "--date", ON)
    assert res.code in (0, 1), res.stderr
    assert out.read_bytes().startswith(b"%PDF-")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ja", "zh"])
def test_every_card_count_and_total_is_on_the_page_in_each_language(
    cli: Callable[..., Any], tmp_path: Path, lang: str
) -> None:
    pdf = _sheet(cli, tmp_path, str(LEGAL), str(PROBLEMS), "--lang", lang, "--event", "X" * 300)
    pages = _pages(pdf)
    assert len(pages) == 2
    for path, lines in zip((LEGAL, PROBLEMS), pages, strict=True):
        deck = read_path(path)
        for line in _expected_lines(deck, lang):
            assert line in lines, (lang, line)
        totals = [
            int(m.group(1)) for x in lines if (m := re.fullmatch(rf"{TOTAL[lang]}: (\d+)", x))
        ]
        assert totals == _kind_totals(deck)
        assert f"{MAIN[lang]} {len(deck.main)}" in lines
        assert f"{EXTRA[lang]} {len(deck.extra)}" in lines
        assert f"{SIDE[lang]} {len(deck.side)}" in lines
        text = "\n".join(lines)
        assert fingerprint_deck(deck) in text


def test_verdict_and_fingerprints(cli: Callable[..., Any], tmp_path: Path) -> None:
    pdf = _sheet(cli, tmp_path, str(LEGAL), str(PROBLEMS))
    legal, problems = ("\n".join(p) for p in _pages(pdf))
    res = cli("validate", str(LEGAL), "--date", ON, "-o", "json")
    import json

    doc = json.loads(res.stdout)
    listed = doc["results"][0]["banlist"]["name"]
    assert f"Legal on {ON}, list {listed}" in legal
    assert doc["data"]["fingerprint"][:16] in legal
    bad = json.loads(cli("validate", str(PROBLEMS), "--date", ON, "-o", "json").stdout)
    errors = [v for v in bad["results"][0]["violations"] if v["severity"] == "error"]
    assert f"Not legal on {ON}: {len(errors)} errors" in problems
    assert f"... and {len(errors) - 4} more" in problems
    assert "forbidden: Pot of Greed is Forbidden" in problems


def test_japanese_sheet_marks_cards_without_a_japanese_name(
    cli: Callable[..., Any], tmp_path: Path, index: CardIndex
) -> None:
    card = next(
        c
        for c in index
        if c.name_ja is None
        and c.in_tcg
        and not c.is_unofficial
        and not c.is_prerelease
        and c.zone.value == "main"
        and c.kind.value == "Monster"
    )
    deck = tmp_path / "d.ydk"
    deck.write_text(f"#main\n{card.passcode}\n{card.passcode}\n70095154\n#extra\n!side\n")
    lines = _pages(_sheet(cli, tmp_path, str(deck), "--lang", "ja"))[0]
    assert f"2 {card.name} *" in lines
    assert "1 サイバー・ドラゴン" in lines
    assert "* 日本語名なし：英語名を表示" in "\n".join(lines)


def test_empty_fields_are_fillable_and_given_ones_printed(
    cli: Callable[..., Any], tmp_path: Path
) -> None:
    from pypdf import PdfReader

    pdf = _sheet(cli, tmp_path, str(LEGAL), str(PROBLEMS), "--player", "Ada Lovelace")
    fields = PdfReader(str(pdf)).get_fields() or {}
    for page in (1, 2):
        assert {f"p{page}.player_id", f"p{page}.event"} <= set(fields)
        assert f"p{page}.player" not in fields
        assert f"p{page}.date" not in fields  # --date was given: printed
    assert "Ada Lovelace" in _pages(pdf)[0]
    assert ON in _pages(pdf)[0]


def test_letter_paper(cli: Callable[..., Any], tmp_path: Path) -> None:
    from pypdf import PdfReader

    for paper, size in (("letter", (612, 792)), ("a4", (595, 842))):
        pdf = _sheet(cli, tmp_path, str(LEGAL), "--paper", paper, name=f"{paper}.pdf")
        box = PdfReader(str(pdf)).pages[0].mediabox
        assert (round(float(box.width)), round(float(box.height))) == size


def _long_names_deck(index: CardIndex, tmp_path: Path, lang: str, per_kind: int = 20) -> Path:
    """A deck of the official cards with the longest names (in ``lang``) of each kind."""

    def name(c: Any) -> str:
        return str({"ja": c.name_ja, "zh": c.name_zh}.get(lang) or c.name)

    pool = [
        c
        for c in index
        if not c.is_unofficial
        and not c.is_rush
        and not c.is_skill
        and c.passcode == c.canonical
        and c.zone.value in ("main", "extra")
    ]
    lines = ["#main"]
    for kind in ("Monster", "Spell", "Trap"):
        some = [c for c in pool if c.kind.value == kind and c.zone.value == "main"]
        some.sort(key=lambda c: -len(name(c)))
        lines += [str(c.passcode) for c in some[:per_kind]]
    lines.append("#extra")
    extra = sorted((c for c in pool if c.zone.value == "extra"), key=lambda c: -len(name(c)))
    lines += [str(c.passcode) for c in extra[:15]]
    lines.append("!side")
    lines += lines[1:16]  # a full Side Deck too: the longest ydke:// URL of a usual deck
    path = tmp_path / f"long-{lang}.ydk"
    path.write_text("\n".join(lines) + "\n")
    return path


def _words(pdf: Path) -> tuple[float, float, list[tuple[float, float, float, float, str]]]:
    tool = _tool("pdftotext", "poppler-utils poppler-data")
    out = subprocess.run(
        [tool, "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    page = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', out)
    assert page is not None
    words = [
        (float(a), float(b), float(c), float(d), w)
        for a, b, c, d, w in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<', out
        )
    ]
    return float(page.group(1)), float(page.group(2)), words


@pytest.mark.slow
@pytest.mark.parametrize(
    ("lang", "paper"), [("en", "a4"), ("ja", "a4"), ("zh", "a4"), ("ja", "letter")]
)
def test_long_names_fit_whole_and_nothing_leaves_the_page(
    cli: Callable[..., Any], tmp_path: Path, index: CardIndex, lang: str, paper: str
) -> None:
    path = _long_names_deck(index, tmp_path, lang)
    pdf = _sheet(cli, tmp_path, str(path), "--lang", lang, "--event", "X" * 300, "--paper", paper)
    lines = _pages(pdf)[0]
    for line in _expected_lines(read_path(path), lang):
        assert line in lines, line  # whole, on one line: shrunk, never cut
    width, height, words = _words(pdf)
    assert len(words) > 100
    for x0, y0, x1, y1, w in words:
        assert min(x0, y0) >= 20 and x1 <= width - 20 and y1 <= height - 20, w
    rows: dict[int, list[tuple[float, float, str]]] = {}
    for x0, y0, x1, y1, w in words:
        rows.setdefault(round((y0 + y1) / 2), []).append((x0, x1, w))
    for row in rows.values():  # no word runs into the next one (a name into the next column)
        row.sort()
        for (_, a1, w1), (b0, _, w2) in itertools.pairwise(row):
            assert a1 <= b0 + 0.5, (w1, w2)
    _no_ink_in_the_margins(pdf, tmp_path)


def _no_ink_in_the_margins(pdf: Path, tmp_path: Path, margin_pt: float = 20) -> None:
    """The rendered page (pdftoppm) is inked, and blank within ``margin_pt`` of its edges."""
    from PIL import Image

    tool = _tool("pdftoppm", "poppler-utils poppler-data")
    subprocess.run(
        [tool, "-r", "72", "-gray", "-f", "1", "-l", "1", "-png", str(pdf), str(tmp_path / "look")],
        check=True,
    )
    (picture,) = tmp_path.glob("look-*.png")
    img = Image.open(picture).convert("L")
    w, h = img.size
    m = int(margin_pt)
    ink = [i for i, v in enumerate(img.getdata()) if v < 200]
    assert len(ink) > w * h // 50  # a drawn sheet, not a blank page
    outside = [(i % w, i // w) for i in ink if not (m <= i % w < w - m and m <= i // w < h - m)]
    assert not outside, outside[:5]


@pytest.mark.slow
def test_the_qr_code_gives_back_the_deck(cli: Callable[..., Any], tmp_path: Path) -> None:
    pdftoppm = _tool("pdftoppm", "poppler-utils poppler-data")
    zbarimg = _tool("zbarimg", "zbar-tools")
    from deckcheck.deck.io import read_deck

    full = _long_names_deck(Dataset.active().cards, tmp_path, "zh")  # 60 + 15 + 15 cards
    decks = (LEGAL, PROBLEMS, full)
    pdf = _sheet(cli, tmp_path, *map(str, decks), "--lang", "zh")
    subprocess.run([pdftoppm, "-r", "200", "-png", str(pdf), str(tmp_path / "page")], check=True)
    pictures = sorted(tmp_path.glob("page-*.png"))
    assert len(pictures) == 3
    for picture, path in zip(pictures, decks, strict=True):
        got = subprocess.run(
            [zbarimg, "--raw", "-q", str(picture)], capture_output=True, text=True, check=True
        ).stdout.strip()
        assert got.startswith("ydke://")
        assert fingerprint_deck(read_deck(got)) == fingerprint_deck(read_path(path))


def test_batch_sheets_from_a_registrations_csv(cli: Callable[..., Any], tmp_path: Path) -> None:
    regs = tmp_path / "regs.csv"
    shutil.copy(LEGAL, tmp_path / "legal.ydk")
    shutil.copy(PROBLEMS, tmp_path / "problems.ydk")
    regs.write_text(
        "player_id,player,deck\n0001,Ada,legal.ydk\n0002,Grace,problems.ydk\n"
        "0003,Alan,missing.ydk\n"
    )
    pdf = tmp_path / "sheets.pdf"
    res = cli(
        "batch", str(regs), "--out", str(tmp_path / "out"), "--sheets", str(pdf), "--date", ON, "-q"
    )
    assert res.code == 2  # an unreadable registration, as without --sheets
    pages = _pages(pdf)
    assert len(pages) == 2
    assert "Ada" in pages[0] and "0001" in pages[0]
    assert "Grace" in pages[1] and "0002" in pages[1]


def _count_reads(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str | None]]:
    """The labels of the sources read and the paths of the decks validated, from now on
    (wherever the readers and the engine are called from: their modules and the job loop)."""
    import deckcheck.run.job as job
    import deckcheck.source.read as read
    import deckcheck.validation.engine as engine

    reads: list[str] = []
    checks: list[str | None] = []
    real_read, real_validate = read.read_source, engine.validate

    def counted_read(src: Any, *args: Any, **kwargs: Any) -> Any:
        reads.append(src.label)
        return real_read(src, *args, **kwargs)

    def counted_validate(deck: Any, *args: Any, **kwargs: Any) -> Any:
        checks.append(kwargs.get("path"))
        return real_validate(deck, *args, **kwargs)

    for module in (read, job):
        monkeypatch.setattr(module, "read_source", counted_read)
    for module in (engine, job):
        monkeypatch.setattr(module, "validate", counted_validate)
    return reads, checks


def test_batch_sheets_reads_and_validates_each_deck_once(
    cli: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i, deck in enumerate((LEGAL, PROBLEMS, LEGAL)):
        shutil.copy(deck, tmp_path / f"d{i}.ydk")
    reads, checks = _count_reads(monkeypatch)
    pdf = tmp_path / "sheets.pdf"
    res = cli(
        "batch",
        str(tmp_path),
        "--out",
        str(tmp_path / "out"),
        "--sheets",
        str(pdf),
        "--date",
        ON,
        "--jobs",
        "1",
        "-q",
    )
    assert res.code == 1  # problems.ydk is illegal
    assert sorted(reads) == sorted(set(reads)) and len(reads) == 3, reads
    assert len(checks) == 3, checks
    assert len(_pages(pdf)) == 3
    # the batch's metagame (in report.json) comes from the same reads
    meta = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))["meta"]
    assert sorted(e["source"] for e in meta["entries"]) == sorted(reads)


def test_meta_reads_each_deck_once_through_the_job_loop(
    cli: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import deckcheck.run.job as job

    for i, deck in enumerate((LEGAL, PROBLEMS, LEGAL)):
        shutil.copy(deck, tmp_path / f"d{i}.ydk")
    (tmp_path / "broken.ydk").write_bytes(b"#main\n\xff\xfe\x00\n")
    reads, checks = _count_reads(monkeypatch)
    steps: list[str] = []
    real_one = job.one_source

    def counted_one(one: Any, *args: Any, **kwargs: Any) -> Any:
        steps.append(one.source.label)
        return real_one(one, *args, **kwargs)

    monkeypatch.setattr(job, "one_source", counted_one)
    res = cli("meta", str(tmp_path), "--output", "json")
    doc = json.loads(res.stdout)
    assert doc["decks"] == 3
    assert sorted(reads) == sorted(set(reads)) and len(reads) == 4, reads
    assert sorted(steps) == sorted(reads)  # every read was the job loop's step
    assert checks == []  # the metagame needs no verdict
    assert [u["source"] for u in doc["unreadable"]] == [str(tmp_path / "broken.ydk")]


def test_unreadable_sources_are_named_and_the_rest_written(
    cli: Callable[..., Any], tmp_path: Path
) -> None:
    out = tmp_path / "s.pdf"
    res = cli("sheet", str(LEGAL), str(tmp_path / "nope.ydk"), "--out", str(out), "--date", ON)
    assert res.code == 2
    assert "nope.ydk" in res.stderr and res.stderr.startswith("error: ")
    assert len(_pages(out)) == 1
    res = cli("sheet", str(tmp_path / "nope.ydk"), "--out", str(tmp_path / "t.pdf"))
    assert res.code == 2 and not (tmp_path / "t.pdf").exists()
    res = cli("sheet", str(LEGAL), "--out", str(out), "--lang", "fr")
    assert res.code == 2


def test_exit_codes_follow_the_verdict(cli: Callable[..., Any], tmp_path: Path) -> None:
    assert cli("sheet", str(LEGAL), "--out", str(tmp_path / "a.pdf"), "--date", ON).code == 0
    assert cli("sheet", str(PROBLEMS), "--out", str(tmp_path / "b.pdf"), "--date", ON).code == 1


@pytest.mark.slow
def test_post_v1_sheet_returns_the_pdf(tmp_path: Path, index: CardIndex) -> None:
    import asyncio

    import httpx

    from deckcheck.service import create_app

    app = create_app()

    async def post(body: dict[str, Any]) -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            return await c.post("/v1/sheet", json=body)

    deck = LEGAL.read_text(encoding="utf-8")
    resp = asyncio.run(post({"deck": deck, "date": ON, "lang": "zh", "player": "Ada"}))
    assert resp.status_code == 200, resp.text
    assert resp.headers["content-type"] == "application/pdf"
    pdf = tmp_path / "http.pdf"
    pdf.write_bytes(resp.content)
    lines = _pages(pdf)[0]
    for line in _expected_lines(read_path(LEGAL), "zh"):
        assert line in lines
    assert "Ada" in lines and ON in lines
    bad = asyncio.run(post({"deck": "", "date": ON}))
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad-input"
    assert asyncio.run(post({"deck": deck, "lang": "fr"})).status_code == 422
    assert "/v1/sheet" in app.openapi()["paths"]

    async def validate(body: dict[str, Any]) -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            return await c.post("/v1/validate", json=body)

    problems = PROBLEMS.read_text(encoding="utf-8")
    plain = asyncio.run(validate({"deck": problems, "date": ON})).json()
    local = asyncio.run(validate({"deck": problems, "date": ON, "lang": "ja"})).json()
    assert all("message_local" not in v for v in plain["violations"])
    forbidden = next(v for v in local["violations"] if v["code"] == "forbidden")
    assert forbidden["name_local"] == index.get(55144522).name_ja
    # the Japanese message names the list, as the English one does
    listed = f"{forbidden['name_local']}は2025-04-07 TCGのリストで禁止カード"
    assert forbidden["message_local"].startswith(listed)
    assert (
        forbidden["message"]
        == next(v for v in plain["violations"] if v["code"] == "forbidden")["message"]
    )
