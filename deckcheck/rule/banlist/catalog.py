"""The catalog of every list of a dataset (by family and date) and its compact JSON bundle."""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Iterable
from datetime import date
from types import MappingProxyType
from typing import Any, Protocol

from deckcheck.error import DataError
from deckcheck.rule.banlist.model import SCHEMA, Banlist, TcgRegion


def dump_bundle(lists: Iterable[Banlist]) -> str:
    """The compact, deterministic bundle text of ``lists`` (names are left out)."""
    rows = []
    for b in sorted(lists, key=lambda b: (b.family, b.effective, b.name)):
        codes = sorted(b.entries)
        rows.append(
            {
                "family": b.family,
                "name": b.name,
                "label": b.label,
                "effective": b.effective.isoformat(),
                "announced": b.announced.isoformat() if b.announced else None,
                "sources": list(b.sources),
                "whitelist": b.whitelist,
                "points": b.points,
                "point_cap": b.point_cap,
                "note": b.note,
                **({"effective_eu": b.effective_eu.isoformat()} if b.effective_eu else {}),
                **({"approximate": True} if b.approximate else {}),
                **(
                    {"groups": {str(c): g for c, g in sorted(b.groups.items())}} if b.groups else {}
                ),
                "codes": codes,
                "values": [b.entries[c] for c in codes],
            }
        )
    return json.dumps({"schema": SCHEMA, "lists": rows}, ensure_ascii=False, separators=(",", ":"))


def read_bundle(
    text: str | bytes,
    where: str = "<bundle>",
    *,
    resolver: Callable[[int], int | None] | None = None,
) -> list[Banlist]:
    """Read a bundle written by :func:`dump_bundle`; ``resolver`` is set on every list."""
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise DataError(f"{where}: malformed ban-list bundle: {exc}") from exc
    return lists_from_bundle(doc, where, resolver=resolver)


def lists_from_bundle(
    doc: Any, where: str = "<bundle>", *, resolver: Callable[[int], int | None] | None = None
) -> list[Banlist]:
    """The lists of a parsed bundle (the JSON document of :func:`dump_bundle`); ``resolver``
    is set on every list. :class:`DataError` names ``where`` when the document is malformed."""
    try:
        if doc.get("schema") != SCHEMA:
            raise DataError(f"{where}: unsupported bundle schema {doc.get('schema')!r}")
        return [_list_of(row, resolver) for row in doc["lists"]]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise DataError(f"{where}: malformed ban-list bundle: {exc}") from exc


def _list_of(row: Any, resolver: Callable[[int], int | None] | None) -> Banlist:
    """One list of a bundle from its row."""
    return Banlist(
        family=row["family"],
        name=row["name"],
        label=row["label"],
        effective=date.fromisoformat(row["effective"]),
        announced=date.fromisoformat(row["announced"]) if row["announced"] else None,
        sources=tuple(row["sources"]),
        entries=MappingProxyType(dict(zip(row["codes"], row["values"], strict=True))),
        whitelist=row["whitelist"],
        points=row["points"],
        point_cap=row["point_cap"],
        note=row["note"],
        effective_eu=(date.fromisoformat(row["effective_eu"]) if row.get("effective_eu") else None),
        approximate=bool(row.get("approximate", False)),
        groups=MappingProxyType({int(c): int(g) for c, g in row.get("groups", {}).items()}),
        resolver=resolver,
    )


class BanlistCatalog:
    """Every known list, by family, sorted by effective date; answers "in force on a date"."""

    def __init__(self, lists: Iterable[Banlist]) -> None:
        self._by_family: dict[str, list[Banlist]] = {}
        for b in sorted(lists, key=lambda b: (b.family, b.effective, b.name)):
            self._by_family.setdefault(b.family, []).append(b)
        self._dates = {f: [b.effective for b in bs] for f, bs in self._by_family.items()}
        for family, dates in self._dates.items():
            if len(set(dates)) != len(dates):
                raise DataError(f"ban-list family {family!r} has two lists on one effective date")
        # Europe: the same lists, ordered by their European dates (most equal the default)
        self._by_family_eu: dict[str, list[Banlist]] = {}
        self._dates_eu: dict[str, list[date]] = {}
        for family, bs in self._by_family.items():
            eu = sorted(bs, key=lambda b: b.effective_in(TcgRegion.EU))
            self._by_family_eu[family] = eu
            self._dates_eu[family] = [b.effective_in(TcgRegion.EU) for b in eu]
        self._derived: dict[tuple[Any, ...], Banlist] = {}

    def derived(self, key: tuple[Any, ...], make: Callable[[], Banlist]) -> Banlist:
        """A list derived from this catalog's lists (Traditional, Worlds), made once per key."""
        got = self._derived.get(key)
        if got is None:
            got = self._derived[key] = make()
        return got

    def families(self) -> list[str]:
        """Names of the list families, sorted."""
        return sorted(self._by_family)

    def lists(self, family: str | None = None) -> list[Banlist]:
        """The lists of one family (or all), by effective date."""
        if family is None:
            return [b for f in self.families() for b in self._by_family[f]]
        return list(self._by_family.get(family, []))

    def _ordered(self, family: str, region: TcgRegion) -> tuple[list[Banlist], list[date]]:
        if region is TcgRegion.EU:
            return self._by_family_eu.get(family, []), self._dates_eu.get(family, [])
        return self._by_family.get(family, []), self._dates.get(family, [])

    def in_force(self, family: str, on: date, region: TcgRegion = TcgRegion.NA) -> Banlist | None:
        """The list of ``family`` in force on ``on`` (None before the family's first list).

        ``region`` picks whose effective dates count where a TCG list has a European date
        of its own (:attr:`Banlist.effective_eu`); North America by default.
        """
        lists, dates = self._ordered(family, region)
        if not dates:
            return None
        i = bisect.bisect_right(dates, on)
        return lists[i - 1] if i else None

    def upcoming(self, family: str, on: date, region: TcgRegion = TcgRegion.NA) -> list[Banlist]:
        """Known lists of ``family`` that take effect after ``on`` in ``region``, soonest first."""
        lists, dates = self._ordered(family, region)
        if not dates:
            return []
        return lists[bisect.bisect_right(dates, on) :]

    def first(self, family: str) -> Banlist | None:
        """The oldest list of the family."""
        got = self._by_family.get(family)
        return got[0] if got else None

    def last(self, family: str) -> Banlist | None:
        """The newest list of the family."""
        got = self._by_family.get(family)
        return got[-1] if got else None

    def get(self, family: str, effective: date) -> Banlist | None:
        """The list of ``family`` with exactly this effective date."""
        got = self.in_force(family, effective)
        return got if got is not None and got.effective == effective else None


class ListData(Protocol):
    """What the rules read of a dataset: its date and its ban lists (a protocol, so that the
    rule layer names nothing of the data layer above it; a ``Dataset`` is one)."""

    @property
    def as_of(self) -> date:
        """The date the data is as of."""
        ...

    @property
    def banlists(self) -> BanlistCatalog:
        """Every ban list, whitelist and point list, by family and date."""
        ...
