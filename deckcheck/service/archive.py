"""Uploaded zips: the one zip reader of :mod:`deckcheck.source.archive` (kept for one release;
import :func:`deckcheck.source.archive.read_zip`)."""

from __future__ import annotations

from deckcheck.source.archive import read_zip as read_zip

__all__ = ["read_zip"]
