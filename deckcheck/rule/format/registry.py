"""The format registry: every era and format of a dataset, by id and alias."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Protocol

from deckcheck.error import DataError, UnknownFormatError
from deckcheck.rule.banlist.catalog import ListData
from deckcheck.rule.format.model import Era, Format, Pool


class FormatRegistry:
    """Every era and format of a dataset, by id and alias (case-insensitive).

    An era is also a format of its own (``lp4000``, ``mr3-2014``); a format with an era's id
    (``speed``, ``rush``) is that era's format.
    """

    def __init__(self, eras: Iterable[Era], formats: Iterable[Format]) -> None:
        self._eras = {e.id: e for e in eras}
        self._formats = list(formats)
        taken = {f.id for f in self._formats}
        self._era_formats = [_era_format(e) for e in self._eras.values() if e.id not in taken]
        self._by_name: dict[str, Format] = {}
        for fmt in self.formats():
            for key in (fmt.id, *fmt.aliases):
                if key.lower() in self._by_name:
                    raise DataError(f"format name {key!r} registered twice")
                self._by_name[key.lower()] = fmt

    def get(self, name: str) -> Format:
        """A format or era by id or alias; :class:`UnknownFormatError` lists the valid ids."""
        fmt = self._by_name.get(name)  # the usual case: an id or alias as registered
        if fmt is None:
            fmt = self._by_name.get(name.strip().lower()) if name.strip() else None
        if fmt is None:
            raise UnknownFormatError(name, self.names())
        return fmt

    def names(self) -> list[str]:
        """Every format and era id (aliases left out), formats first."""
        return [f.id for f in self.formats()]

    def formats(self, include_eras: bool = True) -> list[Format]:
        """Every format, then (by default) every era as a format."""
        return [*self._formats, *(self._era_formats if include_eras else [])]

    def eras(self) -> list[Era]:
        """Every era, official ones by date, then the house and special eras."""
        return list(self._eras.values())

    def era(self, era_id: str) -> Era:
        """An era by id; :class:`UnknownFormatError` lists the era ids."""
        got = self._eras.get(era_id.strip().lower())
        if got is None:
            raise UnknownFormatError(era_id, list(self._eras))
        return got

    def timeline(self, region: str) -> tuple[tuple[date, Era], ...]:
        """The official eras of ``region`` (``tcg`` or ``ocg``) by first day."""
        return timeline_of(self._eras.values(), region)

    def official_era_at(self, region: str, on: date) -> Era:
        """The official era in force in ``region`` on a date (before the first: the first)."""
        timeline = self.timeline(region)
        current = timeline[0][1]
        for start, era in timeline:
            if start <= on:
                current = era
        return current


def timeline_of(eras: Iterable[Era], region: str) -> tuple[tuple[date, Era], ...]:
    """The official (not house) eras of ``region`` among ``eras``, by first day."""
    out = []
    for era in eras:
        start = era.tcg_from if region == "tcg" else era.ocg_from
        if start is not None and not era.house:
            out.append((start, era))
    return tuple(sorted(out, key=lambda t: t[0]))


def _era_format(era: Era) -> Format:
    return Format(
        era.id,
        era.name,
        (),
        Pool.ANY,
        era=era,
        family=era.banlist,
        confidence=era.confidence,
        note=era.note,
        provenance=era.provenance,
        is_era=True,
    )


class FormatData(ListData, Protocol):
    """What the format look-ups read of a dataset: its date, ban lists and formats (a
    ``FormatData`` is one)."""

    @property
    def formats(self) -> FormatRegistry:
        """Every built-in format and era, with aliases."""
        ...
