"""A card's first release per region, with how sure the data is (:class:`Release`).

The card index stores, per card and region (OCG, TCG North America, TCG Europe, Master Duel),
the first release date the shared data gives evidence for and the source that decided it
(``scripts/release_dates.py`` works them out; ``docs/card-index-report.md`` counts them).
"""

from __future__ import annotations

import datetime as _dt
import enum
from datetime import date
from typing import Any

from msgspec import Struct


class Region(enum.StrEnum):
    """Where a card is released: the OCG, the TCG per region, or Master Duel."""

    OCG = "ocg"
    NA = "na"
    """TCG, North America."""
    EU = "eu"
    """TCG, Europe."""
    MD = "md"
    """Master Duel."""
    SPEED = "sd"
    """Speed Duel (the TCG's Speed Duel products)."""

    @property
    def label(self) -> str:
        """A readable name (``the TCG (North America)``)."""
        return {
            "ocg": "the OCG",
            "na": "the TCG (North America)",
            "eu": "the TCG (Europe)",
            "md": "Master Duel",
            "sd": "Speed Duel",
        }[self.value]


class ReleaseKind(enum.StrEnum):
    """How sure a release date is."""

    EVIDENCE = "e"
    """A dated print: the card came out on this date (confidence H)."""
    WINDOW = "w"
    """Released between :attr:`Release.date` and :attr:`Release.upper`; the day is unknown (M)."""
    BOUND = "b"
    """No dated release in the data; not before :attr:`Release.date` (L)."""
    ASSUMED = "a"
    """Assumed from the format's launch (Master Duel cards older than the game) (M)."""

    @property
    def confidence(self) -> str:
        """The confidence letter (H, M, L) of a date of this kind."""
        return {"e": "H", "w": "M", "b": "L", "a": "M"}[self.value]


SOURCES = {
    "ygojson": "YGOJSON first release of the locale",
    "print": "yaml-yugi first print code's product date",
    "named": "yaml-yugi print code's product (matched by name)",
    "eu-same": "its English product's European date (the product's North American date is "
    "missing; since 2012 one release day in both regions)",
    "eu-before": "out by its English product's European date (before 2012 North America was "
    "never later; its North American date is missing)",
    "same-product": "not before the OCG release of its first English print's product (the same "
    "product code came out in the OCG first)",
    "ocg-first": "not before its OCG debut (no dated TCG print)",
    "tw": "TimeWizard TCG pools (between the last pool without it and the first with it)",
    "tw-confirmed": "dated print confirmed by the TimeWizard TCG pools",
    "series": "promo-series numbering (after every dated lower number)",
    "as-of": "not in YGOJSON (it last read yaml-yugi 2025-05-13)",
    "kid": "first releases of the cards with the nearest Konami ids",
    "other-region": "first release in another region (no date in this one)",
    "md-launch": "in Master Duel; paper release before the game's launch",
    "md-after": "in Master Duel; not before its paper release or an 'unreleased' list entry",
    "md-list": "in Master Duel by the first Master Duel list naming the card",
    "md-rarity": "in Master Duel by the data's date (yaml-yugi gives it a Master Duel rarity)",
    "status": "listed as legal there by Konami on the data's date (yaml-yugi)",
    "speed-first": "on EDOPro's first Speed Duel list",
    "speed-print": "printed in a Speed Duel product (its product's date)",
    "speed-status": "listed as legal in Speed Duel by Konami on the data's date (yaml-yugi); not "
    "before its TCG release or the first Speed Duel products",
    "speed-lists": "EDOPro's Speed lists (not before the first list holding it, nor the 2022-10-07 "
    "snapshot lacking it; out by that list's last change or its first dated Speed Duel print)",
    "speed-same": "the Skill's product in the other TCG region (Speed Duel products come out "
    "in both on one day)",
}
"""Source key -> what it means (the build report and validation messages use these)."""


_BOUND_KEYS = {"series", "as-of", "kid", "other-region", "same-product", "ocg-first"}


def describe_source(key: str) -> str:
    """A source key (or keys joined by ``+``) in words."""
    return "; ".join(SOURCES.get(k, k) for k in key.split("+"))


class Release(Struct, frozen=True):
    """A card's first release in one region."""

    region: Region
    date: _dt.date | None
    """The first release (kind EVIDENCE), the earliest possible day (WINDOW, BOUND, ASSUMED)."""
    kind: ReleaseKind
    source: str
    """A key of :data:`SOURCES`."""
    upper: _dt.date | None = None
    """For a WINDOW: the day by which it was certainly out."""

    @property
    def from_bound(self) -> bool:
        """True when no dated print backs the date (a bound, maybe closed by Konami's status)."""
        return self.kind is ReleaseKind.BOUND or bool(_BOUND_KEYS & set(self.source.split("+")))

    @property
    def confidence(self) -> str:
        """H a dated print, M a window between dated evidence, L a bound only."""
        return "L" if self.from_bound else self.kind.confidence

    @property
    def certain(self) -> bool:
        """True when a dated print gives the day."""
        return self.kind is ReleaseKind.EVIDENCE

    @property
    def why(self) -> str:
        """The source in words."""
        return describe_source(self.source)

    def describe(self) -> str:
        """One phrase: the date and how sure it is."""
        where, why, sure = self.region.label, self.why, self.confidence
        if self.date is None:
            return f"no dated release in {where}"
        if self.kind is ReleaseKind.EVIDENCE:
            return f"released in {where} {self.date} ({why})"
        if self.from_bound:
            upper = f", out by {self.upper}" if self.upper else ""
            return (
                f"no dated release in {where}; not before {self.date}{upper} "
                f"({why}; confidence {sure})"
            )
        if self.kind is ReleaseKind.WINDOW:
            return f"released in {where} between {self.date} and {self.upper} ({why}; confidence M)"
        return f"in {where} from {self.date} ({why}; confidence M)"


_REGIONS = {region.value: (rank, region) for rank, region in enumerate(Region)}
"""Each region by its value, with its place in :class:`Region`'s order."""
_KINDS = {kind.value: kind for kind in ReleaseKind}
"""Each release kind by its value."""


def parse_releases(raw: dict[str, list[Any]] | None) -> tuple[Release, ...]:
    """Releases from the index's ``release`` column (``{region: [date, kind, source, upper]}``),
    in :class:`Region`'s order; :class:`ValueError` for a region or kind of no member.

    (The members come from tables: an enum call per value was two fifths of building a card.)
    """
    if not raw:
        return ()
    try:
        rows = sorted((_REGIONS[region], when) for region, when in raw.items())
        return tuple(
            Release(
                region,
                date.fromisoformat(when) if when else None,
                _KINDS[kind],
                source,
                date.fromisoformat(upper) if upper else None,
            )
            for (_, region), (when, kind, source, upper) in rows
        )
    except KeyError as exc:
        raise ValueError(f"not a release region or kind: {exc}") from None
