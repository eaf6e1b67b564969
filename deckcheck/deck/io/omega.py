"""Omega (YGO Omega) deck codes.

A code is the base64 of raw-deflate data (no zlib header): one byte holding the number of Main
plus Extra Deck cards, one byte the number of Side Deck cards, then every passcode as a
little-endian unsigned 32-bit integer (Main and Extra in order, then Side). The code does not
separate Main from Extra: on reading, cards the index places in the Extra Deck (Fusion,
Synchro, Xyz, Link) go to the Extra Deck and all others, unknown passcodes included, to the Main.

YGO Omega (and the ``yugitoolbox`` encoder) write a **cover card** after the passcodes: one more
little-endian uint32, the card shown on the deck's box (0: none). The reader accepts a code with
or without it and keeps it as :attr:`Deck.cover <deckcheck.deck.model.Deck.cover>`; the writer
writes it back when the deck has one (an Omega code read and written again is the same code),
and other formats have no room for it (``convert`` says it leaves it out).
"""

from __future__ import annotations

import base64
import binascii
import struct
import zlib

from deckcheck.card import CardIndex, DeckZone
from deckcheck.deck.io.builder import MAX_PASSCODE, DeckBuilder
from deckcheck.deck.io.builder import decode_input as _decode
from deckcheck.deck.model import Deck, Section
from deckcheck.error import DeckSyntaxError, DeckWriteError

_MAX_RAW = 2 + 4 * (255 + 255) + 4


def _inflate(code: str, source: str | None) -> bytes:
    body = "".join(code.split())
    body += "=" * (-len(body) % 4)  # codes are shared unpadded too
    try:
        packed = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise DeckSyntaxError("not an Omega deck code (bad base64)", source, 1) from exc
    inflater = zlib.decompressobj(-15)
    try:
        raw = inflater.decompress(packed, _MAX_RAW + 1)
    except zlib.error as exc:
        raise DeckSyntaxError("not an Omega deck code (bad deflate data)", source, 1) from exc
    if not inflater.eof:
        raise DeckSyntaxError("not an Omega deck code (truncated or oversized)", source, 1)
    return raw


def inflate_counted(code: str, source: str | None) -> bytes:
    """The raw bytes of an Omega code, checked against its card counts (with or without the
    trailing 4-byte cover card), or DeckReadError."""
    raw = _inflate(code, source)
    if len(raw) < 2 or len(raw) - (2 + 4 * (raw[0] + raw[1])) not in (0, 4):
        raise DeckSyntaxError("not an Omega deck code (card counts do not match)", source, 1)
    return raw


def cover_of(raw: bytes) -> int | None:
    """The cover card of an Omega code's raw bytes (None: the code has none, or it is 0)."""
    end = 2 + 4 * (raw[0] + raw[1])
    if len(raw) != end + 4:
        return None
    (cover,) = struct.unpack_from("<I", raw, end)
    return cover or None


def parse_omega(
    data: str | bytes, *, source: str | None = None, index: CardIndex | None = None
) -> Deck:
    """Read an Omega deck code; raises :class:`~deckcheck.error.DeckReadError` if it is not one."""
    raw = inflate_counted(_decode(data, source), source)
    deck = DeckBuilder(index, source, "omega")
    deck.cover = cover_of(raw)
    main_extra = raw[0]
    for i, (code,) in enumerate(struct.iter_unpack("<I", raw[2 : 2 + 4 * (raw[0] + raw[1])])):
        if i >= main_extra:
            section = Section.SIDE
        else:
            found = deck.resolve(str(code))
            zone = found.record.zone if found is not None else DeckZone.MAIN
            section = Section.EXTRA if zone is DeckZone.EXTRA else Section.MAIN
        deck.add_passcode(str(code), section, None)
    return deck.build()


def dump_omega(deck: Deck) -> str:
    """Write a deck as an Omega deck code (with its cover card, when it has one).

    Raises :class:`DeckWriteError` for more than 255 Main+Extra or 255 Side cards.
    """
    first = deck.passcodes(Section.MAIN) + deck.passcodes(Section.EXTRA)
    side = deck.passcodes(Section.SIDE)
    if len(first) > 255 or len(side) > 255:
        raise DeckWriteError("an Omega code holds at most 255 Main+Extra and 255 Side cards")
    codes = first + side
    bad = [c for c in codes if not 0 <= c <= MAX_PASSCODE]
    if bad:
        raise DeckWriteError(f"passcode {bad[0]} does not fit in 32 bits")
    raw = bytes((len(first), len(side))) + struct.pack(f"<{len(codes)}I", *codes)
    if deck.cover is not None and 0 < deck.cover <= MAX_PASSCODE:
        raw += struct.pack("<I", deck.cover)
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.b64encode(comp.compress(raw) + comp.flush()).decode("ascii")
