"""Reading one source: the one place a :class:`~deckcheck.source.record.Source` becomes a
:class:`~deckcheck.deck.model.Deck` (files, stdin, URLs, zip entries, CSV cells, uploads)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckcheck.deck.io import read_deck, read_path
from deckcheck.error import DeckReadError
from deckcheck.source.record import Source, SourceKind

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.deck.model import Deck


def read_source(src: Source, *, rush: bool = False, data: Dataset | None = None) -> Deck:
    """The deck of one source; raises :class:`~deckcheck.error.DeckReadError` (naming the
    source) or another :class:`~deckcheck.error.DeckcheckError` when it cannot be read.

    ``rush`` prefers Rush Duel cards for names in text lists.
    """
    if src.kind is SourceKind.ZIP:
        from deckcheck.source.archive import read_entry

        try:
            raw = read_entry(src.path, src.entry or "")
        except DeckReadError as exc:
            raise DeckReadError(exc.reason, src.label, exc.line) from exc
        return read_deck(raw, source=src.label, rush=rush, data=data)
    if src.kind in (SourceKind.INLINE, SourceKind.MEMORY):
        return read_deck(src.content or "", source=src.label, rush=rush, data=data)
    return read_path(src.path, rush=rush, data=data)
