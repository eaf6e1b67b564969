"""Plain-text deck lists: names with quantities under section headings.

Read: one card per line as ``3x Name``, ``3 Name``, ``Name x3``, ``Name ×3``, ``Name (3)``,
``Name 3枚`` or ``Name`` alone, in English, Japanese or Simplified Chinese; a line of digits is a
passcode, and ``Name [passcode]`` names an exact record (deckcheck writes that for alternate
artworks). Headings switch section: ``Main Deck:``, ``Extra Deck (15)``, ``Side:``, ``主卡组``,
``额外卡组``, ``副卡组``, ``メインデッキ``, ``エクストラデッキ``, ``サイドデッキ``, and the
``Monster``/``Spell``/``Trap`` groupings of YGOPRODeck, Duelingbook and the Konami registration
form (Main Deck, or the Side Deck when under a Side heading). ``Name: ...`` or ``Title: ...``
names the deck, as do ``Deck Name:``, ``デッキ名:``/``デッキ名：``, ``卡组名:`` and ``덱 이름:``
(so do ``!name ...`` and ``#created by ...``); ``Player: ...`` and similar form fields, ``#``
and ``//`` comments are skipped; ``Skill: Name`` names a Skill card. A set code after a name
(``3 Ash Blossom & Joyous Spring [MACR-EN036]``, ``1 Name (RA01-EN008)``) is ignored; the line
as written is kept.

Names are matched exactly on the index's normalised key (case, punctuation, width, spaces do not
matter). A name that does not match is reported with its line and ranked suggestions; a name
shared by several cards is reported as ambiguous, never guessed.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from deckcheck.card import Card, CardIndex
from deckcheck.deck.io.builder import MAX_CARDS, DeckBuilder, decode_input, is_code, split_lines
from deckcheck.deck.model import Deck, DeckCard, FindingCode, ReadFinding, Section
from deckcheck.error import AmbiguousCardError, DeckTooLargeError, UnknownCardError

SUGGESTED_NAMES = 20
"""How many unknown names per deck get "did you mean" suggestions (each costs a fuzzy search)."""
MAX_LINE = 200
"""Longest line read as a card (longer lines are parse findings)."""

_MAIN, _EXTRA, _SIDE, _GROUP_MAIN, _GROUP = "main", "extra", "side", "group-main", "group"
_HEADINGS: dict[str, str] = {}
for _kind, _words in (
    (
        _MAIN,
        "main maindeck deck decklist 主卡组 主卡組 主卡片组 主要卡组 メイン メインデッキ 메인덱",
    ),
    (_EXTRA, "extra extradeck 额外卡组 額外卡組 额外 エクストラ エクストラデッキ 엑스트라덱"),
    (_SIDE, "side sidedeck sideboard 副卡组 副卡組 副卡 サイド サイドデッキ 사이드덱"),
    (
        _GROUP_MAIN,
        "monster monsters monstercard spell spells spellcard trap traps trapcard magic "
        "モンスター モンスターカード 魔法 魔法カード 罠 罠カード 怪兽 怪兽卡 怪獸 魔法卡 陷阱 "
        "陷阱卡",
    ),
    (
        _GROUP,
        "fusions fusionmonster fusionmonsters synchro synchros synchromonster "
        "synchromonsters xyz xyzs xyzmonster xyzmonsters link links linkmonster linkmonsters "
        "同调 超量 连接 融合モンスター シンクロ エクシーズ リンク",
    ),
):
    for _word in _words.split():
        _HEADINGS[_word] = _kind
_NAME_FIELDS = {
    "name",
    "deckname",
    "title",
    "deck",
    "decktitle",
    "デッキ名",
    "デッキネーム",
    "デッキ",
    "卡组名",
    "卡组名称",
    "卡组",
    "卡組名",
    "卡組名稱",
    "牌组名",
    "套牌名",
    "덱이름",
    "덱",
    "nomdudeck",
    "nomdeck",
    "nomedelmazzo",
    "nombredelmazo",
    "nombredeldeck",
    "nomedodeck",
    "decknaam",
    "decklistname",
}
_OTHER_FIELDS = {
    "player",
    "playername",
    "firstname",
    "lastname",
    "konamiid",
    "cossyid",
    "cardgameid",
    "event",
    "eventname",
    "eventdate",
    "date",
    "author",
    "createdby",
    "format",
    "country",
    "residency",
    "store",
    "archetype",
    "by",
}

_SKILL_FIELDS = {"skill", "skills", "skillcard", "スキル", "技能"}
"""``Skill: Destiny Draw``: the line names a Speed Duel / Duel Links Skill card."""

_HEADING_JUNK = re.compile(r"[\W\d_]+")
_QTY_FIRST = re.compile(r"(\d{1,4})(?:[xX×*]\s*|\s*[xX×*]\s+|\s+)(.+)")
_QTY_LAST = re.compile(
    r"(.+?)(?:\s+[xX*]\s*(\d{1,4})|\s*×\s*(\d{1,4})|\s*\(\s*[xX×]?\s*(\d{1,4})\s*\)"
    r"|\s*(\d{1,4})\s*[枚张張])"
)
_FIELD_VALUE = re.compile(r"[^:：]*[:：](.*)")
_CODE_SUFFIX = re.compile(r"(.*?)\s*\[(\d{1,10})\]")
_SET_CODE = re.compile(
    r"\s*[\[(]\s*[A-Z0-9]{2,5}-(?:[A-Z]{1,2})?[0-9A-Z]{2,4}\s*[\])]"
    r"(?=\s*(?:$|[xX×*(]|\d{1,4}\s*[枚张張]|\[\d))"
)
"""A set code after a name (``[MACR-EN036]``, ``(RA01-EN008)``, ``(LOB-001)``): not part of it."""


_COUNT_WORD = re.compile(r"\d+\s*[枚张張장]")
"""A card count in a heading: ``メインデッキ（40枚）``, ``主卡组（40张）``."""


def _heading(line: str) -> str | None:
    if len(line) > 60:
        return None
    key = _HEADING_JUNK.sub("", _COUNT_WORD.sub("", line.casefold()))
    found = _HEADINGS.get(key)
    if found is None and key.endswith("cards"):
        found = _HEADINGS.get(key[:-5])
    return found


def _name_known(index: CardIndex, name: str) -> bool:
    """Whether ``name`` has an exact entry in the name index.

    ``lookup_name`` computes fuzzy suggestions (tens of milliseconds) on every miss, which
    alternative readings of a line must not pay.
    """
    return index.has_name(name)


def _card_line(index: CardIndex, line: str) -> bool:
    """Whether one stripped line reads as a card: a passcode, or a known name with a quantity."""
    line = _SET_CODE.sub("", line).strip() or line
    if is_code(line):
        return True
    names = [line]
    for pattern in (_QTY_FIRST, _QTY_LAST):
        m = pattern.fullmatch(line)
        if m is not None:
            names.append(m.group(2) if pattern is _QTY_FIRST else m.group(1))
    for name in names:
        name = name.strip()
        coded = _CODE_SUFFIX.fullmatch(name)
        if coded is not None or is_code(name) or _name_known(index, name):
            return True
    return False


def looks_like_deck(text: str, index: CardIndex) -> bool:
    """Whether a text reads like a deck list: most of its lines a card or a heading.

    Blank lines, comments and form fields (``Name:``, ``Player:``) do not count either way; at
    least one line must be a card. A text shaped like a deck list is one too, whatever its names:
    a Main/Extra/Side heading with a card-shaped line, or mostly card-shaped lines (a count of 1
    to 3 and a short name: ``3 Ash Blosom``, ``재와 벚꽃 x3``), so a list of misspelt names or
    of names in a language deckcheck does not read is read (and each line reported), never left
    out. Folder scans use it to leave out ``LICENSE.txt`` or ``requirements.txt``; no
    suggestions are computed, so it is cheap.
    """
    cards = other = shaped = 0
    headed = False
    for raw in split_lines(text):
        kind = _look(raw, index)
        if kind == "heading":
            headed = True
        elif kind == "card":
            cards += 1
        elif kind is not None:
            other += 1
            shaped += kind == "shaped"
    if cards > 0 and cards >= other:
        return True
    if headed and cards + shaped > 0:
        return True
    return shaped >= 3 and 2 * (cards + shaped) >= cards + other


def _normalised(raw: str) -> str:
    """A line stripped, NFKC-normalised unless it is ASCII (full-width letters and digits)."""
    line = raw.strip()
    if not line.isascii():
        line = unicodedata.normalize("NFKC", line).strip()
    return line


def _look(raw: str, index: CardIndex) -> str | None:
    """How :func:`looks_like_deck` counts a line: ``"heading"`` (Main, Extra or Side),
    ``"card"``, ``"shaped"`` (not a card, but shaped like one), ``"other"``, or None (blank,
    a comment, another heading, a form field)."""
    line = _normalised(raw)
    if not line or line.startswith(("#", "//", "--", "!")):
        return None
    if len(line) > MAX_LINE:
        return "other"
    if not line[0].isdigit():
        kind = _heading(line)
        if kind is not None:
            return "heading" if kind in (_MAIN, _EXTRA, _SIDE) else None
        field, colon, _ = line.partition(":")
        if colon and _HEADING_JUNK.sub("", field.casefold()) in _NAME_FIELDS | _OTHER_FIELDS:
            return None
    if _card_line(index, line):
        return "card"
    return "shaped" if _shaped(line) else "other"


def _shaped(line: str) -> bool:
    """Whether a line has the shape of a card line (a count of 1 to 3 and a short name)."""
    for pattern in (_QTY_FIRST, _QTY_LAST):
        m = pattern.fullmatch(line)
        if m is None:
            continue
        if pattern is _QTY_FIRST:
            count, name = m.group(1), m.group(2)
        else:
            name = m.group(1)
            count = next(g for g in m.groups()[1:] if g is not None)
        name = name.strip()
        if count in ("1", "2", "3") and 2 <= len(name) <= 60 and len(name.split()) <= 10:
            return any(c.isalpha() for c in name) and not name.endswith((".", ",", ";"))
    return False


class _TextReader:
    def __init__(self, deck: DeckBuilder, rush: bool, suggest: int) -> None:
        self.deck = deck
        self.rush = rush
        self.suggest_left = suggest

    def line(self, number: int, raw: str, section: Section) -> Section:
        line = _normalised(raw)
        if not line:
            return section
        kind = None if line[0].isdigit() else _heading(line)
        if kind is not None:
            if kind == _GROUP_MAIN:
                return Section.SIDE if section is Section.SIDE else Section.MAIN
            if kind == _GROUP:
                return section
            return Section(kind)
        if line.startswith(("#", "//", "--", "!")):
            self.comment_name(raw.strip())
        elif len(line) > MAX_LINE:
            self.deck.finding(
                FindingCode.PARSE, "line too long for a card", number, raw[:MAX_LINE], section
            )
        elif line[0].isdigit() or not self.field(number, raw, line, section):
            self.card(number, raw, line, section)
        return section

    def field(self, number: int, raw: str, line: str, section: Section) -> bool:
        """Read a ``Field: value`` line (a deck name, a form field to pass over, a Speed Duel
        Skill); False when it is none of them."""
        field, colon, value = line.partition(":")
        if not colon:
            return False
        key = _HEADING_JUNK.sub("", field.casefold())
        if key in _NAME_FIELDS:
            kept = _FIELD_VALUE.fullmatch(raw.strip())  # the name as written, not NFKC'd
            name = (kept.group(1) if kept else value).strip()
            if name and self.deck.name is None:
                self.deck.name = name
            return True
        if key in _OTHER_FIELDS:
            return True
        if key in _SKILL_FIELDS and value.strip():  # "Skill: Destiny Draw" (Speed Duel)
            self.card(number, raw, value.strip(), section, skill=True)
            return True
        return False

    def comment_name(self, line: str) -> None:
        """``!name My deck`` (or ``#created by Someone``, if nothing better) names the deck."""
        low = line.lower()
        if low.startswith("!name") and low[5:6] in ("", " ", "\t", "=", ":"):
            name = line[5:].lstrip(" \t=:").strip()
            if name:
                self.deck.name = name
        elif low.startswith("#created by") and self.deck.name is None:
            from deckcheck.deck.io.ydk import created_by_name

            self.deck.name = created_by_name(line[len("#created by") :])

    def card(
        self, number: int | None, raw: str, line: str, section: Section, skill: bool = False
    ) -> None:
        line = _SET_CODE.sub("", line).strip() or line
        count, name, whole = 1, line, None
        m = _QTY_FIRST.fullmatch(line)
        if m is not None:
            count, name, whole = int(m.group(1)), m.group(2).strip(), line
        else:
            m = _QTY_LAST.fullmatch(line)
            if m is not None:
                qty = next(g for g in m.groups()[1:] if g is not None)
                count, name = int(qty), m.group(1).strip()
        if count > MAX_CARDS:
            raise DeckTooLargeError(f"more than {MAX_CARDS} cards", self.deck.source, number)
        coded = _CODE_SUFFIX.fullmatch(name)
        if coded is not None:
            name = coded.group(2)
        if is_code(name):
            self.deck.add_passcode(name, section, number, count, text=raw)
            return
        index = self.deck.index
        if not _name_known(index, name):
            if whole is not None and _name_known(index, whole):
                count, name = 1, whole
            else:
                self.unknown(number, raw, name, section, count)
                return
        try:
            found = index.lookup_name(name, rush=self.rush, skill=skill)
        except AmbiguousCardError as exc:
            self.deck.finding(
                FindingCode.AMBIGUOUS_CARD,
                f"ambiguous card name {name!r}; write its passcode",
                number,
                raw,
                section,
                tuple(f"{n} [{code}]" for code, n in exc.candidates),
                count=count,
                name=name,
            )
            return
        except UnknownCardError:
            self.unknown(number, raw, name, section, count)
            return
        card = DeckCard(found.card.passcode, section, found.card, number, found.match)
        self.deck.add_card(card, count)

    def unknown(
        self, number: int | None, raw: str, name: str, section: Section, count: int = 1
    ) -> None:
        suggestions: tuple[str, ...] = ()
        if self.suggest_left > 0:
            self.suggest_left -= 1
            suggestions = tuple(self.deck.index.suggest(name))
        self.deck.finding(
            FindingCode.UNKNOWN_CARD,
            f"unknown card {name!r}",
            number,
            raw,
            section,
            suggestions,
            count=count,
            name=name,
        )


class LineReader:
    """Reads single card lines (``3x Name``, ``Name x3``, a passcode) into a deck being built:
    how the JSON deck form reads back the lines it kept because they named no card."""

    def __init__(self, deck: DeckBuilder, *, rush: bool = False) -> None:
        self._reader = _TextReader(deck, rush, SUGGESTED_NAMES)

    def read(self, raw: str, section: Section, number: int | None = None) -> None:
        """Add the card (or the finding) of one line to ``section``."""
        line = raw.strip()
        if not line.isascii():
            line = unicodedata.normalize("NFKC", line).strip()
        if not line:
            return
        if len(line) > MAX_LINE:
            self._reader.deck.finding(
                FindingCode.PARSE, "line too long for a card", number, raw[:MAX_LINE], section
            )
            return
        self._reader.card(number, raw, line, section)


def parse_text(
    data: str | bytes,
    *,
    source: str | None = None,
    index: CardIndex | None = None,
    rush: bool = False,
    suggest: int = SUGGESTED_NAMES,
) -> Deck:
    """Read a plain-text deck list (see the module docstring for the accepted forms).

    ``rush`` prefers Rush Duel cards for shared names; ``suggest`` caps how many unknown names
    get ranked suggestions. Raises :class:`~deckcheck.error.DeckReadError` only for input that
    cannot be read at all.
    """
    text = decode_input(data, source)
    deck = DeckBuilder(index, source, "text")
    reader = _TextReader(deck, rush, suggest)
    section = Section.MAIN
    for number, raw in enumerate(split_lines(text), 1):
        section = reader.line(number, raw, section)
    return deck.build()


_TITLES = {Section.MAIN: "Main Deck", Section.EXTRA: "Extra Deck", Section.SIDE: "Side Deck"}
_LOCAL_TITLES = {
    "ja": {
        Section.MAIN: "メインデッキ",
        Section.EXTRA: "エクストラデッキ",
        Section.SIDE: "サイドデッキ",
    },
    "zh": {Section.MAIN: "主卡组", Section.EXTRA: "额外卡组", Section.SIDE: "副卡组"},
    "ko": {Section.MAIN: "메인 덱", Section.EXTRA: "엑스트라 덱", Section.SIDE: "사이드 덱"},
}
"""Section headings of lists written in Japanese, Chinese and Korean (the reader knows them)."""


def _reads_back(index: CardIndex, name: str, passcode: int) -> bool:
    try:
        return index.lookup_name(name).card.passcode == passcode
    except (UnknownCardError, AmbiguousCardError):
        return False


def _label(index: CardIndex, card: DeckCard, cache: dict[int, str], lang: str = "en") -> str:
    label = cache.get(card.passcode)
    if label is not None:
        return label
    record: Card | None = card.card
    if record is None or record.passcode != card.passcode:
        label = str(card.passcode)
    else:
        local = index.name_in(record, lang) if lang != "en" else None
        if local and _reads_back(index, local, record.passcode):
            name, same = local, True
        else:
            name, same = record.name, _reads_back(index, record.name, record.passcode)
        ok = same and is_code(name) is False and "[" not in name
        label = name if ok else f"{name} [{record.passcode}]"
    cache[card.passcode] = label
    return label


def dump_text(deck: Deck, *, index: CardIndex | None = None, lang: str = "en") -> str:
    """Write a deck as a text list: a heading per section, ``3 Name`` per distinct card.

    Cards whose name would not read back as the same record (alternate artworks, Rush or other
    cards sharing a name) are written ``Name [passcode]``; unknown cards as their passcode. Lines
    that named no card (:func:`unresolved_lines`) are written as they were, after the cards of
    their section, so nothing is lost. ``lang`` ``ja``, ``zh`` or ``ko`` writes the headings and
    the card names in that language (a card without a name in it keeps its English name).
    """
    if index is None:
        from deckcheck.data.dataset import resolve_data

        index = resolve_data(None).cards
    titles = _LOCAL_TITLES.get(lang, _TITLES)
    out: list[str] = []
    if deck.name and " ".join(deck.name.split()):
        out.append(f"Name: {' '.join(deck.name.split())}")
    cache: dict[int, str] = {}
    kept = unresolved_lines(deck)
    for section in Section:
        cards = deck.section(section)
        lines = [
            f
            for f in kept
            if f.section is section or (f.section is None and section is Section.MAIN)
        ]
        if out:
            out.append("")
        out.append(f"{titles[section]} ({len(cards) + sum(f.count for f in lines)})")
        counts = Counter(c.passcode for c in cards)
        first = {c.passcode: c for c in reversed(cards)}
        for code in counts:
            out.append(f"{counts[code]} {_label(index, first[code], cache, lang)}")
        out.extend(" ".join((f.text or "").split()) for f in lines)
    return "\n".join(out) + "\n"


def unresolved_lines(deck: Deck) -> list[ReadFinding]:
    """The lines of a deck whose card name matched no card, or several (unknown and ambiguous
    names), in file order: what a deck file format without room for names would lose."""
    return [
        f
        for f in deck.findings
        if f.passcode is None and f.name is not None and (f.text or "").strip()
    ]
