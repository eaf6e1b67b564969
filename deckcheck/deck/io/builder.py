"""Shared pieces of the deck readers: input limits, decoding, and the deck builder.

Every reader decodes its input with :func:`decode_input` (size limit, BOM, UTF-16, binary junk)
and collects cards and findings in a :class:`DeckBuilder` (card limit, passcode resolution).
"""

from __future__ import annotations

from deckcheck.card import CardIndex, Lookup
from deckcheck.card.model import MAX_PASSCODE as MAX_PASSCODE
from deckcheck.deck.model import Deck, DeckCard, FindingCode, ReadFinding, Section
from deckcheck.error import (
    DeckEncodingError,
    DeckSyntaxError,
    DeckTooLargeError,
    UnknownCardError,
)

MAX_INPUT_BYTES = 1 << 20
"""Largest input a reader accepts: 1 MiB (UTF-8 bytes)."""
MAX_CARDS = 500
"""Most cards a deck may hold, all sections together."""
MAX_FINDINGS = 500
"""Most unreadable lines a reader tolerates before it decides the input is not a deck."""


def _line_of(data: bytes | str, pos: int) -> int:
    if isinstance(data, bytes):
        return data.count(b"\n", 0, pos) + 1
    return data.count("\n", 0, pos) + 1


def _checked_text(data: str, source: str | None) -> str:
    """Text given as text: within the byte cap once encoded, no lone surrogate."""
    if len(data) > MAX_INPUT_BYTES:
        raise DeckTooLargeError(f"input is over the {MAX_INPUT_BYTES} byte limit", source)
    try:
        size = len(data.encode("utf-8")) if len(data) * 4 > MAX_INPUT_BYTES else 0
    except UnicodeEncodeError as exc:
        raise DeckEncodingError(
            "invalid text (lone surrogate)", source, _line_of(data, exc.start)
        ) from exc
    if size > MAX_INPUT_BYTES:
        raise DeckTooLargeError(f"input is over the {MAX_INPUT_BYTES} byte limit", source)
    if len(data) * 4 <= MAX_INPUT_BYTES and not data.isascii():
        try:
            data.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise DeckEncodingError(
                "invalid text (lone surrogate)", source, _line_of(data, exc.start)
            ) from exc
    return data


def _decoded(data: bytes, source: str | None) -> str:
    """Bytes decoded: within the cap, UTF-16 after its BOM, else UTF-8."""
    if len(data) > MAX_INPUT_BYTES:
        raise DeckTooLargeError(f"input is over the {MAX_INPUT_BYTES} byte limit", source)
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise DeckEncodingError("invalid UTF-16 text", source) from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = _line_of(data, exc.start)
        raise DeckEncodingError("not a text file (invalid UTF-8 bytes)", source, line) from exc


def decode_input(data: str | bytes, source: str | None = None) -> str:
    """The text of a deck input, checked: at most 1 MiB, no NUL bytes, valid UTF-8 or UTF-16.

    A UTF-8 BOM is dropped; a UTF-16 BOM selects UTF-16. Raises :class:`DeckTooLargeError` or
    :class:`DeckEncodingError` (both :class:`~deckcheck.error.DeckReadError`).
    """
    text = _checked_text(data, source) if isinstance(data, str) else _decoded(data, source)
    if text.startswith("\ufeff"):
        text = text[1:]
    nul = text.find("\0")
    if nul >= 0:
        raise DeckEncodingError("not a text file (NUL byte)", source, _line_of(text, nul))
    return text


def split_lines(text: str) -> list[str]:
    """Lines of a text, split on LF only (CR dropped), so line numbers match editors."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


_RESOLVED_MAX = 100_000
"""Most passcode tokens an index remembers between readings."""


class DeckBuilder:
    """Collects the cards and findings of one reading, resolving passcodes through the index.

    Raises :class:`DeckTooLargeError` as soon as more than :data:`MAX_CARDS` cards are added and
    :class:`DeckSyntaxError` when more than :data:`MAX_FINDINGS` findings pile up.
    """

    def __init__(self, index: CardIndex | None, source: str | None, fmt: str) -> None:
        if index is None:
            from deckcheck.data.dataset import resolve_data

            index = resolve_data(None).cards
        self.index = index
        self.source = source
        self.fmt = fmt
        self.name: str | None = None
        self.cover: int | None = None
        self.cards: list[DeckCard] = []
        self.findings: list[ReadFinding] = []
        resolved = self.index.token_lookups
        if len(resolved) > _RESOLVED_MAX:
            resolved.clear()
        self._resolved = resolved

    def check_room(self, count: int, line: int | None) -> None:
        """Raise :class:`DeckTooLargeError` if ``count`` more cards would pass the limit."""
        if len(self.cards) + count > MAX_CARDS:
            raise DeckTooLargeError(f"more than {MAX_CARDS} cards", self.source, line)

    def finding(
        self,
        code: FindingCode,
        message: str,
        line: int | None,
        text: str | None,
        section: Section | None,
        suggestions: tuple[str, ...] = (),
        passcode: int | None = None,
        count: int = 1,
        name: str | None = None,
    ) -> None:
        """Record a finding (raises once there are more than :data:`MAX_FINDINGS`)."""
        if len(self.findings) >= MAX_FINDINGS:
            raise DeckSyntaxError(
                f"more than {MAX_FINDINGS} unreadable lines; not a deck list?", self.source, line
            )
        self.findings.append(
            ReadFinding(code, message, line, text, section, suggestions, passcode, count, name)
        )

    def resolve(self, token: str) -> Lookup | None:
        """The index lookup of a passcode written as ``token`` (digits), or None if unknown."""
        try:
            return self._resolved[token]
        except KeyError:
            pass
        try:
            found: Lookup | None = self.index.lookup_passcode(token)
        except UnknownCardError:
            found = None
        self._resolved[token] = found
        return found

    def add_passcode(
        self,
        token: str,
        section: Section,
        line: int | None,
        count: int = 1,
        text: str | None = None,
    ) -> None:
        """Add ``count`` copies of the card whose passcode is written ``token`` (digits only).

        An unknown passcode is kept (``card`` None) and reported as an unknown-card finding; a
        passcode over 32 bits becomes a parse finding.
        """
        found = self._resolved.get(token)
        if found is not None and count == 1 and len(self.cards) < MAX_CARDS and not found.early:
            # the usual case, kept short: one copy of a card already resolved in this process
            rec = found.record
            self.cards.append(DeckCard(rec.passcode, section, rec, line, found.match))
            return
        digits = token.lstrip("0") or "0"
        value = int(digits) if len(digits) <= 10 else MAX_PASSCODE + 1
        if value > MAX_PASSCODE:
            self.finding(
                FindingCode.PARSE, f"passcode {token[:20]} is too large", line, text, section
            )
            return
        self.check_room(count, line)
        found = self.resolve(token)
        if found is None:
            self.finding(
                FindingCode.UNKNOWN_CARD,
                f"unknown passcode {value}",
                line,
                text if text is not None else token,
                section,
                passcode=value,
            )
            card = DeckCard(value, section, None, line, None)
        elif found.early:  # EDOPro's pre-release code of a released card: that card
            card = DeckCard(found.card.passcode, section, found.card, line, found.match)
            self.finding(
                FindingCode.PRERELEASE_CODE,
                f"pre-release code {value} read as the "
                f"released card {found.card.name} (passcode {found.card.passcode})",
                line,
                text if text is not None else token,
                section,
                passcode=value,
                count=count,
                name=found.card.name,
            )
        else:
            card = DeckCard(value, section, found.record, line, found.match)
        self.cards.extend([card] * count)

    def add_card(self, card: DeckCard, count: int = 1) -> None:
        """Add ``count`` copies of an already resolved card."""
        self.check_room(count, card.line)
        self.cards.extend([card] * count)

    def build(self) -> Deck:
        """The deck read."""
        return Deck.from_cards(
            self.cards,
            name=self.name,
            source=self.source,
            source_format=self.fmt,
            findings=self.findings,
            cover=self.cover,
        )


def is_code(text: str) -> bool:
    """True if ``text`` is a passcode as files write it: ASCII digits only."""
    return text.isascii() and text.isdigit()
