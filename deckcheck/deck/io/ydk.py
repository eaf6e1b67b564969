"""The ``.ydk`` deck file of EDOPro and YGOPro.

::

    #created by Someone
    #main
    89631139
    #extra
    44508094
    !side
    14558127

Lines starting with ``#`` other than ``#main``/``#extra`` are comments (``#created by`` names the
deck, unless it only names the program that wrote it, as YGOPro's ``#created by ...`` does, see
:func:`created_by_name`; ``!name My deck`` names it too, winning over ``#created by``);
``!side`` starts the Side Deck. Passcodes may drop their leading zeros (``2511``) or keep
them (``08949584``). Cards before any header count as Main Deck; repeated headers continue their
section; a card in the wrong section stays there (validation reports it). EDOPro and YGOPro
always write all three headers, so a file with ``#main`` but no ``#extra`` or no ``!side`` was
probably cut short: it is read as it is, with a ``missing-sections`` finding naming what is
missing (validation reports it as a note).
"""

from __future__ import annotations

from deckcheck.card import CardIndex
from deckcheck.deck.io.builder import DeckBuilder, decode_input, is_code, split_lines
from deckcheck.deck.model import Deck, FindingCode, Section

_HEADERS = {
    "#main": Section.MAIN,
    "#extra": Section.EXTRA,
    "!side": Section.SIDE,
    "#side": Section.SIDE,
}


def parse_ydk(
    data: str | bytes, *, source: str | None = None, index: CardIndex | None = None
) -> Deck:
    """Read a ``.ydk`` file; unknown passcodes and unreadable lines become findings.

    Raises :class:`~deckcheck.error.DeckReadError` only for input that cannot be read at all.
    """
    text = decode_input(data, source)
    deck = DeckBuilder(index, source, "ydk")
    section = Section.MAIN
    seen: dict[str, int] = {}
    for number, raw in enumerate(split_lines(text), 1):
        line = raw.strip()
        if not line:
            continue
        if line.isdigit() and line.isascii():
            deck.add_passcode(line, section, number)
        elif line[0] in "#!":
            section = _header(deck, line, raw, number, section, seen)
        else:
            _card_line(deck, line, raw, number, section)
    if "#main" in seen:
        _missing_sections(deck, seen)
    return deck.build()


def _header(
    deck: DeckBuilder, line: str, raw: str, number: int, section: Section, seen: dict[str, int]
) -> Section:
    """Read a ``#``/``!`` line: a section header (the section it starts), a name or a comment.

    ``seen`` records the first line of each section header met (``#side`` counted as ``!side``).
    """
    key = line.lower()
    found = _HEADERS.get(key.replace(" ", ""))
    if found is not None:
        seen.setdefault(key.replace(" ", "").replace("#side", "!side"), number)
        return found
    if key.startswith("#created by") and deck.name is None:
        deck.name = created_by_name(line[len("#created by") :])
    elif key.startswith("!name") and key[5:6] in ("", " ", "\t", "=", ":"):
        name = line[len("!name") :].lstrip(" \t=:").strip()
        if name:
            deck.name = name  # an explicit name wins over "#created by"
    elif line[0] == "!":
        deck.finding(FindingCode.PARSE, "unknown header", number, raw, section)
    return section


def _card_line(deck: DeckBuilder, line: str, raw: str, number: int, section: Section) -> None:
    """Read a line that is neither bare digits nor a header: a passcode and a comment, or a
    parse finding."""
    token, _, rest = line.partition(" ")
    rest = rest.strip()
    if is_code(token) and (not rest or rest.startswith(("#", "//", "--"))):
        deck.add_passcode(token, section, number, text=raw)
    else:
        deck.finding(FindingCode.PARSE, "not a passcode", number, raw[:200], section)


def _missing_sections(deck: DeckBuilder, seen: dict[str, int]) -> None:
    """A file with ``#main`` but no ``#extra`` or no ``!side`` header: a missing-sections
    finding at the ``#main`` line."""
    missing = [h for h in ("#extra", "!side") if h not in seen]
    if not missing:
        return
    what = " and no ".join(missing)
    empty = " and ".join({"#extra": "Extra Deck", "!side": "Side Deck"}[h] for h in missing)
    deck.finding(
        FindingCode.MISSING_SECTIONS,
        f"the file has #main but no {what} header (truncated?): the {empty} "
        f"{'was' if len(missing) == 1 else 'were'} read as empty",
        seen["#main"],
        None,
        None,
    )


def _clean(name: str) -> str:
    return " ".join(name.split())


def dump_ydk(deck: Deck) -> str:
    """Write a deck as ``.ydk`` text (``#created by <name>`` first when the deck has a name)."""
    out: list[str] = []
    if deck.name and _clean(deck.name):
        out.append(f"#created by {_clean(deck.name)}")
    out.append("#main")
    out.extend(str(c.passcode) for c in deck.main)
    out.append("#extra")
    out.extend(str(c.passcode) for c in deck.extra)
    out.append("!side")
    out.extend(str(c.passcode) for c in deck.side)
    return "\n".join(out) + "\n"


_PROGRAM_STAMPS = frozenset(
    {
        "",
        "ygopro",
        "ygopro2",
        "edopro",
        "project ignis",
        "ygomobile",
        "ygoprodeck",
        "duelingbook",
        "dueling nexus",
        "duelingnexus",
        "master duel meta",
        "omega",
        "ygo omega",
        "neuron",
        "deckcheck",
    }
)
"""``#created by`` texts that name the program that wrote the file, not the deck."""


def created_by_name(text: str) -> str | None:
    """The deck name a ``#created by TEXT`` line gives: None when TEXT is empty, only dots or
    ellipses (YGOPro writes ``#created by ...``) or only a program's name (``EDOPro``)."""
    name = text.strip()
    if not name.strip(".…· \t") or name.casefold() in _PROGRAM_STAMPS:
        return None
    return name
