"""``ydke://`` deck URLs (EDOPro, Duelingbook, YGOPRODeck).

``ydke://<main>!<extra>!<side>!``: each part is the standard base64 of the section's passcodes
as little-endian unsigned 32-bit integers. Cards have no line (``line`` is None).

Read as ydke.js (the reference implementation, which decodes each part with the browser's
forgiving ``atob``) reads it: padding is optional, blanks inside a part are ignored, the URL-safe
alphabet (``-``, ``_``) is accepted, and parts after the third are ignored (ydke.js reads the
first three). The writer writes the canonical form: padded standard base64, three parts and the
trailing ``!``.
"""

from __future__ import annotations

import base64
import binascii
import struct

from deckcheck.card import CardIndex
from deckcheck.deck.io.builder import MAX_CARDS, MAX_PASSCODE, DeckBuilder, decode_input
from deckcheck.deck.model import Deck, FindingCode, Section
from deckcheck.error import DeckSyntaxError, DeckTooLargeError, DeckWriteError

PREFIX = "ydke://"
_SECTIONS = (Section.MAIN, Section.EXTRA, Section.SIDE)


def parse_ydke(
    data: str | bytes, *, source: str | None = None, index: CardIndex | None = None
) -> Deck:
    """Read a ``ydke://`` URL (surrounding whitespace allowed; the trailing ``!`` optional).

    Raises :class:`~deckcheck.error.DeckReadError` for a missing prefix or bad base64.
    """
    text = decode_input(data, source).strip()
    if not text[: len(PREFIX)].lower() == PREFIX:
        raise DeckSyntaxError("not a ydke:// URL", source, 1)
    parts = text[len(PREFIX) :].split("!")
    deck = DeckBuilder(index, source, "ydke")
    _account_for_tail(deck, parts[3:], source)
    parts = parts[:3]
    for section, part in zip(_SECTIONS, parts, strict=False):
        try:
            raw = _decode_part(part)
        except (binascii.Error, ValueError) as exc:
            raise DeckSyntaxError(f"bad base64 in the {section.value} part", source, 1) from exc
        if len(raw) % 4:
            raise DeckSyntaxError(
                f"the {section.value} part is not a list of 32-bit passcodes", source, 1
            )
        if len(raw) // 4 + len(deck.cards) > MAX_CARDS:
            raise DeckTooLargeError(f"more than {MAX_CARDS} cards", source, 1)
        for (code,) in struct.iter_unpack("<I", raw):
            deck.add_passcode(str(code), section, None)
    return deck.build()


def _account_for_tail(deck: DeckBuilder, tail: list[str], source: str | None) -> None:
    """Parts after the Side Deck's (ydke.js ignores them): a base64 tail is reported as not
    read, anything else refuses the URL, so no data is dropped silently."""
    extra = "".join(p for p in tail if p.strip())
    if not extra:
        return
    try:
        _decode_part(extra)
    except (binascii.Error, ValueError) as exc:
        raise DeckSyntaxError("bad base64 after the side part", source, 1) from exc
    deck.finding(
        FindingCode.PARSE,
        "data after the Side Deck part of the ydke:// URL is not a deck section; not read",
        1,
        extra[:80],
        None,
    )


def _decode_part(part: str) -> bytes:
    """One part's bytes, decoded as ``atob`` does: blanks dropped, padding optional (a
    length of 1 modulo 4 is refused), and the URL-safe alphabet read as the standard one."""
    body = "".join(part.split()).replace("-", "+").replace("_", "/")
    if body.endswith("="):
        body = body.rstrip("=")
    if len(body) % 4 == 1:
        raise ValueError("truncated base64")
    return base64.b64decode(body + "=" * (-len(body) % 4), validate=True)


def _pack(codes: list[int]) -> str:
    bad = [c for c in codes if not 0 <= c <= MAX_PASSCODE]
    if bad:
        raise DeckWriteError(f"passcode {bad[0]} does not fit in 32 bits")
    return base64.b64encode(struct.pack(f"<{len(codes)}I", *codes)).decode("ascii")


def encode_ydke(main: list[int], extra: list[int], side: list[int]) -> str:
    """The ``ydke://`` URL of three lists of passcodes (no trailing newline)."""
    return PREFIX + "!".join(_pack(codes) for codes in (main, extra, side)) + "!"


def dump_ydke(deck: Deck) -> str:
    """Write a deck as a ``ydke://`` URL (no trailing newline)."""
    main, extra, side = (deck.passcodes(s) for s in _SECTIONS)
    return encode_ydke(main, extra, side)
