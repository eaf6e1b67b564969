"""CardFinder: as-you-type search in English, Japanese and Simplified Chinese."""

from __future__ import annotations

import pytest

from deckcheck.card import CardIndex
from deckcheck.card.finder import MAX_LIMIT, CardFinder


@pytest.fixture(scope="module")
def finder(index: CardIndex) -> CardFinder:
    return CardFinder(index)


ASH = 14558127


@pytest.mark.slow
@pytest.mark.parametrize(
    ("query", "lang"),
    [
        ("Ash Blossom & Joyous Spring", None),
        ("ash blossom", "en"),
        ("ASH  BLOSSOM", None),
        ("灰流うらら", "ja"),
        ("灰流う", None),
        ("灰流丽", "zh-CN"),
        ("ａｓｈ ｂｌｏｓｓｏｍ", None),
    ],
)
def test_finds_a_card_in_every_language(
    finder: CardFinder, index: CardIndex, query: str, lang: str | None
) -> None:
    got = finder.search(query, 5, lang)
    assert got and got[0][0].passcode == ASH


@pytest.mark.slow
def test_exact_name_first_then_prefixes_then_substrings(finder: CardFinder) -> None:
    got = finder.search("Dark Magician", 30)
    names = [c.name for c, _ in got]
    assert names[0] == "Dark Magician" and got[0][1] == 100.0
    scores = [s for _, s in got]
    assert scores == sorted(scores, reverse=True)
    assert all(
        n.lower().replace(" ", "").startswith("darkmagician")
        for n, s in zip(names, scores, strict=True)
        if s == 90.0
    )
    inside = [n for n, s in zip(names, scores, strict=True) if s == 80.0]
    assert inside and all("darkmagician" in n.lower().replace(" ", "") for n in inside)


def test_each_card_once_and_limits(finder: CardFinder, index: CardIndex) -> None:
    got = finder.search("dragon", 50)
    codes = [c.passcode for c, _ in got]
    assert len(codes) == len(set(codes)) == 50
    assert all(index.get(c).canonical == c for c in codes)
    assert len(finder.search("a", 1000)) == MAX_LIMIT
    assert finder.search("a", 0) == []
    assert finder.search("", 10) == [] and finder.search("!!!", 10) == []
    assert finder.search("x" * 500, 10) == []


@pytest.mark.slow
def test_language_filter(finder: CardFinder) -> None:
    assert finder.search("灰流うらら", 5, "en") == []
    assert finder.search("Ash Blossom", 5, "ja") == []
    with pytest.raises(ValueError, match="language"):
        finder.search("ash", 5, "xx")
    # the other official languages are languages too (French: Magicien Sombre, Dark Magician)
    assert finder.search("Magicien Sombre", 1, "fr")[0][0].passcode == 46986414
    assert finder.search("Magicien Sombre", 5, "en", fuzzy=False) == []


def test_typos_fall_back_to_fuzzy(finder: CardFinder) -> None:
    got = finder.search("ash blosom", 5)
    assert got[0][0].passcode == ASH and got[0][1] < 80
    assert finder.search("ash blosom", 5, fuzzy=False) == []
    assert finder.search("qqqqzzzz", 5) == []


def test_agrees_with_the_index_on_every_sampled_name(finder: CardFinder, index: CardIndex) -> None:
    cards = [c for c in list(index)[::400] if c.canonical == c.passcode]
    for card in cards:
        for name in (card.name, card.name_ja, card.name_zh):
            if not name:
                continue
            got = [c.passcode for c, _ in finder.search(name, 100)]
            try:
                want = index.lookup_name(name).card.canonical
            except LookupError:
                continue  # ambiguous or shadowed names: the finder lists them all
            assert want in got, name
