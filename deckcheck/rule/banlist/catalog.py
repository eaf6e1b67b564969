"""The catalog of every list of a dataset (by family and date) and its compact JSON bundle."""

from __future__ import annotations

import bisect
import json
import threading
from collections.abc import Callable, Iterable
from datetime import date
from types import MappingProxyType
from typing import Any, Protocol

from deckcheck.boundary import parse_json
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
        doc = parse_json(text)
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
    """Every known list, by family, sorted by effective date; answers "in force on a date".

    A catalog read from a bundle (:meth:`from_bundle`) builds each list from its row when it is
    first asked for: a check needs the one or two lists in force, not all 274 of them with
    their 56,000 entries. :meth:`lists` builds them all.
    """

    def __init__(self, lists: Iterable[Banlist]) -> None:
        built = sorted(lists, key=lambda b: (b.family, b.effective, b.name))
        self._setup([(b.family, b.effective, b.name, b.effective_in(TcgRegion.EU)) for b in built])
        self._built: dict[str, list[Banlist | None]] = {f: [] for f in self._dates}
        for b in built:
            self._built[b.family].append(b)

    @classmethod
    def from_bundle(
        cls,
        doc: Any,
        where: str = "<bundle>",
        *,
        resolver: Callable[[int], int | None] | None = None,
    ) -> BanlistCatalog:
        """The catalog of a parsed bundle (the JSON document of :func:`dump_bundle`), each list
        built on first use; ``resolver`` is set on every list. :class:`DataError` names
        ``where`` when the document is malformed (a row's other fields: when its list is built).
        """
        catalog = cls.__new__(cls)
        try:
            if doc.get("schema") != SCHEMA:
                raise DataError(f"{where}: unsupported bundle schema {doc.get('schema')!r}")
            rows = sorted(((_key_of(row), row) for row in doc["lists"]), key=lambda kr: kr[0][:3])
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise DataError(f"{where}: malformed ban-list bundle: {exc}") from exc
        catalog._setup([k for k, _ in rows])
        catalog._built = {f: [None] * len(d) for f, d in catalog._dates.items()}
        catalog._rows = {f: [] for f in catalog._dates}
        for (family, *_), row in rows:
            catalog._rows[family].append(row)
        catalog._where, catalog._resolver = where, resolver
        return catalog

    def _setup(self, keys: list[tuple[str, date, str, date]]) -> None:
        """The dates of every family in North-American and European order, from the lists'
        (family, effective, name, European effective) keys, sorted by the first three."""
        self._dates: dict[str, list[date]] = {}
        eu_keys: dict[str, list[tuple[date, int]]] = {}
        for family, effective, _, eu in keys:
            dates = self._dates.setdefault(family, [])
            eu_keys.setdefault(family, []).append((eu, len(dates)))
            dates.append(effective)
        for family, dates in self._dates.items():
            if len(set(dates)) != len(dates):
                raise DataError(f"ban-list family {family!r} has two lists on one effective date")
        # Europe: the same lists, ordered by their European dates (most equal the default)
        self._eu = {f: [i for _, i in sorted(ks, key=lambda k: k[0])] for f, ks in eu_keys.items()}
        self._dates_eu = {
            f: [d for d, _ in sorted(ks, key=lambda k: k[0])] for f, ks in eu_keys.items()
        }
        self._rows: dict[str, list[Any]] = {}
        self._where = "<bundle>"
        self._resolver: Callable[[int], int | None] | None = None
        self._lock = threading.Lock()
        self._derived: dict[tuple[Any, ...], Banlist] = {}

    def _at(self, family: str, i: int) -> Banlist:
        """The ``i``-th list of ``family`` by effective date, built from its row if need be."""
        got = self._built[family][i]
        if got is None:
            with self._lock:
                got = self._built[family][i]
                if got is None:
                    got = self._built[family][i] = self._build(self._rows[family][i])
        return got

    def _build(self, row: Any) -> Banlist:
        try:
            return _list_of(row, self._resolver)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise DataError(f"{self._where}: malformed ban-list bundle: {exc}") from exc

    def derived(self, key: tuple[Any, ...], make: Callable[[], Banlist]) -> Banlist:
        """A list derived from this catalog's lists (Traditional, Worlds), made once per key."""
        got = self._derived.get(key)
        if got is None:
            got = self._derived[key] = make()
        return got

    def families(self) -> list[str]:
        """Names of the list families, sorted."""
        return sorted(self._dates)

    def lists(self, family: str | None = None) -> list[Banlist]:
        """The lists of one family (or all), by effective date (every one built)."""
        if family is None:
            return [b for f in self.families() for b in self.lists(f)]
        return [self._at(family, i) for i in range(len(self._dates.get(family, ())))]

    def _ordered(self, family: str, region: TcgRegion) -> tuple[list[int] | None, list[date]]:
        """The family's dates in ``region``'s order, and the positions of their lists (None:
        the lists' own order)."""
        if region is TcgRegion.EU:
            return self._eu.get(family), self._dates_eu.get(family, [])
        return None, self._dates.get(family, [])

    def in_force(self, family: str, on: date, region: TcgRegion = TcgRegion.NA) -> Banlist | None:
        """The list of ``family`` in force on ``on`` (None before the family's first list).

        ``region`` picks whose effective dates count where a TCG list has a European date
        of its own (:attr:`Banlist.effective_eu`); North America by default.
        """
        order, dates = self._ordered(family, region)
        i = bisect.bisect_right(dates, on)
        if not i:
            return None
        return self._at(family, order[i - 1] if order is not None else i - 1)

    def upcoming(self, family: str, on: date, region: TcgRegion = TcgRegion.NA) -> list[Banlist]:
        """Known lists of ``family`` that take effect after ``on`` in ``region``, soonest first."""
        order, dates = self._ordered(family, region)
        later = range(bisect.bisect_right(dates, on), len(dates))
        return [self._at(family, order[j] if order is not None else j) for j in later]

    def first(self, family: str) -> Banlist | None:
        """The oldest list of the family."""
        return self._at(family, 0) if self._dates.get(family) else None

    def last(self, family: str) -> Banlist | None:
        """The newest list of the family."""
        return self._at(family, -1) if self._dates.get(family) else None

    def get(self, family: str, effective: date) -> Banlist | None:
        """The list of ``family`` with exactly this effective date."""
        got = self.in_force(family, effective)
        return got if got is not None and got.effective == effective else None


def _key_of(row: Any) -> tuple[str, date, str, date]:
    """How a bundle row sorts: family, effective date, name, and its European date."""
    effective = date.fromisoformat(row["effective"])
    eu = row.get("effective_eu")
    return (row["family"], effective, row["name"], date.fromisoformat(eu) if eu else effective)


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
