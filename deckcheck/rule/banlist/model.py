"""The :class:`Banlist` model (a dated ban list, whitelist or Genesys point list) and the lists
derived from others (Traditional, Worlds).

Entries are keyed by passcode (the original card's passcode; alternate artworks resolve to it
through the list's ``resolver``, which a :class:`~deckcheck.data.dataset.Dataset` sets from its card
index).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from types import MappingProxyType

from msgspec import Struct, structs

SCHEMA = 1
"""Version of the ban-list file schema and of the bundle layout."""

STATUS_NAMES = {0: "Forbidden", 1: "Limited", 2: "Semi-Limited", 3: "Unlimited"}
"""Readable names of copy limits 0..3."""


def status_word(copies: int | None) -> str:
    """The status name of a copy limit: Forbidden, Limited, Semi-Limited, Unlimited (3 or None)."""
    if copies is None:
        return "Unlimited"
    return STATUS_NAMES.get(copies, str(copies))


class TcgRegion(enum.StrEnum):
    """Where a TCG event is held: a few TCG lists took effect on different days in North America
    and in Europe (April 2024: 2024-04-15 in North America, 2024-04-22 in Europe)."""

    NA = "na"
    """North America (the default: Konami of America's dates, as Yugipedia gives them)."""
    EU = "eu"
    """Europe (Konami's European site's dates)."""


DEFAULT_POINT_CAP = 100
"""Genesys point cap when a list does not name one."""

_EMPTY: Mapping[int, int] = MappingProxyType({})
_EMPTY_NAMES: Mapping[int, str] = MappingProxyType({})


class Banlist(Struct, frozen=True):
    """One dated ban list (or whitelist, or Genesys point list) with its provenance.

    Equal lists have the same fields, :attr:`names` and :attr:`resolver` apart; the hash
    leaves out the mappings too."""

    family: str
    """List family: ``tcg``, ``ocg``, ``master-duel``, ``genesys``, ``rush``, ``speed``…"""
    name: str
    """Unique, readable name, e.g. ``2005-04-01 TCG``."""
    label: str | None
    """Konami's (or the source's) label for the list, e.g. ``March 2005``; a label only."""
    effective: date
    """First day the list is in force."""
    announced: date | None
    """Day the list was announced, where known."""
    sources: tuple[str, ...]
    """Where the data came from (repository @ commit : path, or URL)."""
    entries: Mapping[int, int] = _EMPTY
    """passcode -> copies allowed (0..3), or points when ``points`` is true."""
    whitelist: bool = False
    """True if only the listed cards are legal (the entries are the card pool)."""
    points: bool = False
    """True for Genesys point lists (entry values are points, not copies)."""
    point_cap: int | None = None
    """Point cap of a points list."""
    note: str = ""
    """Free text for readers (derivation, caveats)."""
    effective_eu: date | None = None
    """TCG lists: the first day in force in Europe where it differs from ``effective`` (the
    North-American date); None when both regions share ``effective``."""
    approximate: bool = False
    """True when no source gives the announced effective date: ``effective`` is then the day
    a source first showed the list (a download or snapshot date: Genesys) or a month label
    (Speed Duel before 2022-09), so the real day may differ by days or weeks."""
    groups: Mapping[int, int] = _EMPTY
    """Limit groups (Speed Duel): passcode -> N, where N is the number of cards a deck may hold
    from *all* the cards of group N together (Limited 1, 2, 3 share 1, 2, 3 slots)."""
    names: Mapping[int, str] = _EMPTY_NAMES
    """passcode -> English name, for readers (may be empty when loaded from the bundle)."""
    resolver: Callable[[int], int | None] | None = None
    """Maps an alternate-artwork passcode to its original (None: no alias resolution)."""

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not Banlist:
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _COMPARED)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, f) for f in _HASHED))

    def __repr__(self) -> str:
        shown = ", ".join(f"{f}={getattr(self, f)!r}" for f in _HASHED)
        return f"Banlist({shown})"

    def effective_in(self, region: TcgRegion = TcgRegion.NA) -> date:
        """The first day the list is in force in ``region`` (North America by default)."""
        if region is TcgRegion.EU and self.effective_eu is not None:
            return self.effective_eu
        return self.effective

    @property
    def key(self) -> str:
        """``family/effective-date``: unique within a catalog."""
        return f"{self.family}/{self.effective.isoformat()}"

    def limit(self, passcode: int) -> int | None:
        """Copies allowed (or points) for ``passcode``; None if the card is not on the list.

        An alternate artwork that is not listed itself is looked up as its original card. For a
        normal list None means 3 copies; for a whitelist it means "not in the card pool".
        """
        value = self.entries.get(passcode)
        if value is None and self.resolver is not None:
            canonical = self.resolver(passcode)
            if canonical is not None:
                value = self.entries.get(canonical)
        return value

    def group_of(self, passcode: int) -> int | None:
        """The limit group of ``passcode`` (its original card's, for an alternate artwork)."""
        if not self.groups:
            return None
        value = self.groups.get(passcode)
        if value is None and self.resolver is not None:
            canonical = self.resolver(passcode)
            if canonical is not None:
                value = self.groups.get(canonical)
        return value

    def points_of(self, passcode: int) -> int:
        """Genesys points of a card (0 when unlisted or when this is not a points list)."""
        if not self.points:
            return 0
        return self.limit(passcode) or 0

    def by_status(self) -> dict[int, list[int]]:
        """Passcodes grouped by value (copies or points), ascending passcodes."""
        out: dict[int, list[int]] = {}
        for code in sorted(self.entries):
            out.setdefault(self.entries[code], []).append(code)
        return dict(sorted(out.items()))

    def diff(self, other: Banlist) -> list[tuple[int, int | None, int | None]]:
        """Changes from this list to ``other``: (passcode, old value, new value), by passcode.

        None stands for "not listed".
        """
        codes = sorted(set(self.entries) | set(other.entries))
        out = []
        for code in codes:
            a, b = self.entries.get(code), other.entries.get(code)
            if a != b:
                out.append((code, a, b))
        return out


def derive_traditional(tcg: Banlist) -> Banlist:
    """The Traditional Format list of a TCG list: every Forbidden card is Limited instead."""
    entries = {code: (1 if value == 0 else value) for code, value in tcg.entries.items()}
    return structs.replace(
        tcg,
        family="traditional",
        name=f"{tcg.effective.isoformat()} Traditional",
        entries=MappingProxyType(entries),
        note=f"derived from {tcg.name}: Forbidden read as Limited",
    )


def merge_stricter(family: str, lists: Iterable[Banlist]) -> Banlist:
    """One list holding, per card, the strictest value of ``lists`` (Worlds: TCG + OCG)."""
    parts = list(lists)
    entries: dict[int, int] = {}
    names: dict[int, str] = {}
    for part in parts:
        for code, value in part.entries.items():
            old = entries.get(code)
            entries[code] = value if old is None else min(old, value)
        for code, text in part.names.items():
            names.setdefault(code, text)
    effective = max(p.effective for p in parts)
    sources = tuple(s for p in parts for s in p.sources)
    return Banlist(
        family=family,
        name=f"{effective.isoformat()} {family} (" + " + ".join(p.name for p in parts) + ")",
        label=None,
        effective=effective,
        announced=None,
        sources=sources,
        entries=MappingProxyType(entries),
        note="per card the stricter of: " + ", ".join(p.name for p in parts),
        names=MappingProxyType(names),
    )


_COMPARED = tuple(f for f in Banlist.__struct_fields__ if f not in ("names", "resolver"))
"""The fields that make two lists equal (the names for readers and the resolver apart)."""
_HASHED = tuple(f for f in _COMPARED if f not in ("entries", "groups"))
"""The fields a list's hash (and its repr) reads: not the mappings."""
