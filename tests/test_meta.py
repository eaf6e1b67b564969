"""The metagame: a generated event of 200 decks from 8 archetypes (plus hybrids and rogue decks)
whose breakdown is known by construction, through the library, the CLI and ``batch``."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from deckcheck.run.meta import analyze, classify, metagame
from deckcheck.run.signature import load_rules
from tests.conftest import ROOT, TEST_DATA

META = TEST_DATA / "meta"

EVENT = {  # base list -> (label the deck must get, decks in the event)
    ROOT / "examples" / "decklist.txt": ("Cyber Dragon", 35),
    META / "blue-eyes.txt": ("Blue-Eyes", 30),
    META / "blackwing.txt": ("Blackwing", 25),
    META / "salamangreat.txt": ("Salamangreat", 20),
    META / "elemental-hero.txt": ("Elemental HERO", 18),
    META / "lightsworn.txt": ("Lightsworn", 15),
    META / "sky-striker.txt": ("Sky Striker", 12),
    META / "labrynth.txt": ("Labrynth", 10),
    META / "salamangreat-snake-eye.txt": ("Salamangreat / Snake-Eye", 20),
    META / "rogue.txt": ("rogue", 15),
}
_HEADING = re.compile(r"^(Main|Extra|Side) Deck\b")
_LINE = re.compile(r"^(\d+) (.+?)(?: \[\d+\])?$")


def _side(k: int) -> list[str]:
    """The side deck of the k-th deck of an archetype (a rotation the test knows)."""
    side = ["2 Cosmic Cyclone"]
    if k % 2 == 0:
        side.append("3 Nibiru, the Primal Being")
    if k % 3 == 0:
        side.append("3 Droll & Lock Bird")
    if k % 5 == 0:
        side.append("3 Dark Ruler No More")
    return side


def _deck_text(base: Path, k: int) -> str:
    """The base list with its side replaced, and every other deck playing Crossout Designator
    instead of Called by the Grave."""
    out: list[str] = []
    section = ""
    for line in base.read_text(encoding="utf-8").splitlines():
        m = _HEADING.match(line)
        if m:
            section = m.group(1)
            if section == "Side":
                continue
        if section == "Side":
            continue
        if k % 2 and line.endswith(" Called by the Grave"):
            line = line.replace("Called by the Grave", "Crossout Designator")
        out.append(line)
    return "\n".join([*out, "", "Side Deck", *_side(k)]) + "\n"


def _count(text: str) -> dict[str, Counter[str]]:
    """Copies per card name per section of a text list, read independently of deckcheck."""
    got: dict[str, Counter[str]] = {"Main": Counter(), "Extra": Counter(), "Side": Counter()}
    section = "Main"
    for line in text.splitlines():
        m = _HEADING.match(line)
        if m:
            section = m.group(1)
            continue
        m = _LINE.match(line)
        if m:
            got[section][m.group(2)] += int(m.group(1))
    return got


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int], list[Any]]:
    """200 deck files in a folder; the expected labels; each deck's counted cards."""
    folder = tmp_path_factory.mktemp("event")
    expected: Counter[str] = Counter()
    counted = []
    n = 0
    for base, (label, decks) in EVENT.items():
        for k in range(decks):
            n += 1
            text = _deck_text(base, k)
            (folder / f"deck-{n:03}.txt").write_text(text, encoding="utf-8")
            expected[label] += 1
            counted.append(_count(text))
    assert n == 200
    return folder, dict(expected), counted


def _expected_usage(counted: list[Any], sections: tuple[str, ...]) -> dict[str, tuple[int, int]]:
    decks: Counter[str] = Counter()
    copies: Counter[str] = Counter()
    for deck in counted:
        total: Counter[str] = Counter()
        for s in sections:
            total += deck[s]
        decks.update(total.keys())
        copies.update(total)
    return {name: (decks[name], copies[name]) for name in decks}


def test_every_base_list_gets_its_label() -> None:
    from deckcheck.deck.io import read_path

    for base, (label, _) in EVENT.items():
        assert classify(read_path(base)).label == label, base


@pytest.mark.slow
def test_event_breakdown(event: tuple[Path, dict[str, int], list[Any]]) -> None:
    folder, expected, _ = event
    meta = analyze([str(folder)])
    assert meta.decks == 200 and not meta.unreadable
    assert {a.label: a.decks for a in meta.archetypes} == expected
    assert [a.label for a in meta.archetypes] == [
        "Cyber Dragon",
        "Blue-Eyes",
        "Blackwing",
        "Salamangreat",
        "Salamangreat / Snake-Eye",
        "Elemental HERO",
        "Lightsworn",
        "Sky Striker",
        "Labrynth",
        "rogue",
    ]
    shares = {a.label: a.share for a in meta.archetypes}
    assert shares["Cyber Dragon"] == pytest.approx(35 / 200)
    assert shares["rogue"] == pytest.approx(15 / 200)
    kinds = {a.label: a.kind.value for a in meta.archetypes}
    assert kinds["Salamangreat / Snake-Eye"] == "hybrid" and kinds["rogue"] == "rogue"
    assert sum(kinds[k] == "archetype" for k in kinds) == 8


@pytest.mark.slow
@pytest.mark.parametrize(
    ("table", "sections"),
    [("most_played", ("Main", "Extra", "Side")), ("main", ("Main", "Extra")), ("side", ("Side",))],
)
def test_event_cards(
    event: tuple[Path, dict[str, int], list[Any]], table: str, sections: tuple[str, ...]
) -> None:
    folder, _, counted = event
    want = _expected_usage(counted, sections)
    meta = analyze([str(folder)], top=10)
    got = getattr(meta, table)
    assert len(got) == min(10, len(want))
    for card in got:
        decks, copies = want[card.name]
        assert (card.decks, card.copies) == (decks, copies), card.name
        assert card.share == pytest.approx(decks / 200)
        assert card.average == pytest.approx(copies / decks)
    # the ten most-played are the ten with the most decks (ties: more copies, then the name)
    ranking = sorted(want, key=lambda name: (-want[name][0], -want[name][1], name))
    assert [c.name for c in got] == ranking[:10]


@pytest.mark.slow
def test_side_staples_known_by_construction(
    event: tuple[Path, dict[str, int], list[Any]],
) -> None:
    folder, _, _ = event
    side = {c.name: c for c in analyze([str(folder)]).side}
    assert side["Cosmic Cyclone"].decks == 200 and side["Cosmic Cyclone"].average == 2
    nibiru = sum(1 for _, (_, n) in EVENT.items() for k in range(n) if k % 2 == 0)
    assert side["Nibiru, the Primal Being"].decks == nibiru
    assert side["Nibiru, the Primal Being"].copies == 3 * nibiru


def test_signature_file_overrides_the_rule(tmp_path: Path) -> None:
    from deckcheck.deck.io import read_path

    sig = tmp_path / "meta.toml"
    sig.write_text(
        '[archetypes."Fire King Snake-Eye"]\ncards = ["Snake-Eye Ash", "Snake-Eye Oak"]\n'
        "min = 2\n"
        '[archetypes."Chaos Dragons"]\ncards = ["Blue-Eyes Chaos Dragon"]\n',
        encoding="utf-8",
    )
    rules = load_rules(sig)
    hybrid = classify(read_path(META / "salamangreat-snake-eye.txt"), rules)
    assert (hybrid.label, hybrid.kind.value, hybrid.signature) == (
        "Fire King Snake-Eye",
        "archetype",
        True,
    )
    assert classify(read_path(META / "blue-eyes.txt"), rules).label == "Chaos Dragons"
    # a deck without the signature cards still follows the card data
    assert classify(read_path(META / "blackwing.txt"), rules).label == "Blackwing"


def test_signature_file_errors(tmp_path: Path, cli: Callable[..., Any]) -> None:
    from deckcheck.run.signature import MetaFileError

    bad = tmp_path / "bad.toml"
    bad.write_text('[archetypes.X]\ncards = ["Pot of Grid"]\n', encoding="utf-8")
    with pytest.raises(MetaFileError, match=r"archetypes\.X\.cards"):
        load_rules(bad)
    res = cli("meta", str(META / "blackwing.txt"), "--signatures", str(bad))
    assert res.code == 2 and res.stderr.startswith("error: ") and "Pot of Grid" in res.stderr
    bad.write_text("shares = 0.2\n", encoding="utf-8")
    with pytest.raises(MetaFileError, match="shares"):
        load_rules(bad)


def test_thresholds_by_hand() -> None:
    """A deck with two archetypes: hybrid below twice the copies, the archetype at twice."""
    from deckcheck.deck.io import read_deck

    def lines(names: list[str], copies: int) -> list[str]:
        return [f"{min(3, copies - 3 * i)} {n}" for i, n in enumerate(names) if copies > 3 * i]

    def deck(blackwing: int, lightsworn: int) -> Any:
        bw = [
            "Blackwing - Gale the Whirlwind",
            "Blackwing - Kalut the Moon Shadow",
            "Blackwing - Bora the Spear",
            "Blackwing - Shura the Blue Flame",
        ]
        ls = [
            "Lumina, Lightsworn Summoner",
            "Ryko, Lightsworn Hunter",
            "Raiden, Hand of the Lightsworn",
            "Lyla, Lightsworn Sorceress",
        ]
        filler = [
            "Uraby",
            "Dark Gray",
            "Armored Starfish",
            "Drooling Lizard",
            "Mystical Elf",
            "Giant Soldier of Stone",
            "Curse of Dragon",
            "Hard Armor",
        ]
        text = lines(bw, blackwing) + lines(ls, lightsworn)
        text += lines(filler, 40 - blackwing - lightsworn)
        return read_deck("\n".join(text))

    assert classify(deck(12, 6)).label == "Blackwing"  # 12 >= 2 x 6
    assert classify(deck(11, 6)).label == "Blackwing / Lightsworn"  # 11 < 12: hybrid
    assert classify(deck(12, 5)).label == "Blackwing"  # 5 copies: Lightsworn not present
    assert classify(deck(5, 5)).label == "rogue"  # below 6 copies each
    assert classify(deck(5, 5)).kind.value == "rogue"


def test_metagame_of_decks_in_memory() -> None:
    from deckcheck.deck.io import read_path

    decks = [read_path(META / "labrynth.txt"), read_path(META / "rogue.txt")]
    meta = metagame(decks)
    assert [(a.label, a.decks) for a in meta.archetypes] == [("Labrynth", 1), ("rogue", 1)]


@pytest.mark.slow
def test_cli_meta_outputs(
    event: tuple[Path, dict[str, int], list[Any]], cli: Callable[..., Any], tmp_path: Path
) -> None:
    folder, expected, _ = event
    res = cli("meta", str(folder))
    assert res.code == 0, res.stderr
    assert res.stdout.startswith("200 decks: 165 in 8 archetype(s), 20 hybrid, 15 rogue\n")
    assert re.search(r"^  Cyber Dragon +35 +17\.5%$", res.stdout, re.M)
    doc = json.loads(cli("meta", str(folder), "-o", "json").stdout)
    assert {a["label"]: a["decks"] for a in doc["archetypes"]} == expected
    assert len(doc["entries"]) == 200
    rows = list(csv.DictReader(io.StringIO(cli("meta", str(folder), "-o", "csv").stdout)))
    arch = {r["label"]: int(r["decks"]) for r in rows if r["table"] == "archetypes"}
    assert arch == expected
    page = tmp_path / "meta.html"
    assert cli("meta", str(folder), "-o", "html", "--out", str(page)).code == 0
    body = page.read_text(encoding="utf-8")
    assert "Salamangreat / Snake-Eye" in body and "http" not in body.split("<body>")[1]


def test_cli_meta_unreadable_is_listed(cli: Callable[..., Any], tmp_path: Path) -> None:
    broken = tmp_path / "broken.ydk"
    broken.write_bytes(b"\x00\x01binary")
    res = cli("meta", str(META / "labrynth.txt"), str(broken), "-o", "json")
    assert res.code == 2
    doc = json.loads(res.stdout)
    assert doc["decks"] == 1 and doc["unreadable"][0]["source"].endswith("broken.ydk")
    assert res.stderr.startswith("error: ")


def test_schema_meta(cli: Callable[..., Any]) -> None:
    res = cli("schema", "meta")
    assert res.code == 0 and "most_played" in json.loads(res.stdout)["properties"]


@pytest.mark.slow
def test_batch_reports_carry_the_metagame(
    event: tuple[Path, dict[str, int], list[Any]], cli: Callable[..., Any], tmp_path: Path
) -> None:
    folder, expected, _ = event
    out = tmp_path / "reports"
    res = cli("batch", str(folder), "--out", str(out), "--jobs", "1", "--quiet")
    assert res.code in (0, 1), res.stderr
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert {a["label"]: a["decks"] for a in doc["meta"]["archetypes"]} == expected
    assert len(doc["results"]) == 200
    page = (out / "report.html").read_text(encoding="utf-8")
    section = page[page.index('<section class="metagame">') : page.index("All registrations")]
    assert "Metagame (200 decks)" in section and 'class="meta-bar hybrid"' in section
    assert "Cyber Dragon</span><i" in section and "35 · 17.5%" in section
    assert not re.search(r"(src|href)=|url\(", page)  # no external assets


def test_readme_shows_the_example_decks_breakdown(cli: Callable[..., Any]) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("$ deckcheck meta examples --top 5\n", 1)[1].split("```", 1)[0]
    import os

    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        res = cli("meta", "examples", "--top", "5")
    finally:
        os.chdir(cwd)
    assert res.code == 0 and res.stdout == block


def test_readme_signature_example_loads(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    toml = readme.split("**Signature cards**", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "meta.toml").write_text(toml, encoding="utf-8")
    rules = load_rules(tmp_path / "meta.toml")
    assert [s.archetype for s in rules.signatures] == ["Fire King Snake-Eye"]
    assert rules.signatures[0].min == 2 and "Dragon Ruler" in rules.generic


def test_cli_meta_reads_rush_names_with_the_rush_format(
    cli: Callable[..., Any], tmp_path: Path
) -> None:
    deck = tmp_path / "rush.txt"
    deck.write_text("Main Deck\n3 Abyss Soldier\n" + "3 Aitsu\n" * 12 + "1 Abare Ushioni\n")
    rush = json.loads(cli("meta", str(deck), "-f", "rush", "-o", "json").stdout)
    plain = json.loads(cli("meta", str(deck), "-o", "json").stdout)
    soldier = {c["name"]: c["passcode"] for c in rush["most_played"]}["Abyss Soldier"]
    assert soldier == 160010000  # the Rush card
    assert {c["name"]: c["passcode"] for c in plain["most_played"]}["Abyss Soldier"] != soldier


@pytest.mark.slow
def test_batch_uses_the_signature_file(
    event: tuple[Path, dict[str, int], list[Any]], cli: Callable[..., Any], tmp_path: Path
) -> None:
    folder, expected, _ = event
    sig = tmp_path / "meta.toml"
    sig.write_text('[archetypes."Chaos Dragons"]\ncards = ["Blue-Eyes Chaos Dragon"]\n')
    out = tmp_path / "reports"
    res = cli("batch", str(folder), "--out", str(out), "--quiet", "--signatures", str(sig))
    assert res.code in (0, 1), res.stderr
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    got = {a["label"]: a["decks"] for a in doc["meta"]["archetypes"]}
    assert got["Chaos Dragons"] == expected["Blue-Eyes"] and "Blue-Eyes" not in got
    sig.write_text("[archetypes.X]\ncards = []\n")
    res = cli("batch", str(folder), "--out", str(out), "--signatures", str(sig))
    assert res.code == 2 and res.stderr.startswith("error: ")
