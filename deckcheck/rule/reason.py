"""Why a card is outside a pool (or its release date unsure), and why a date is out of range:
phrases that keep their template id and their facts, so every language says the same facts.

A :class:`Reason` is the English phrase (a ``str``: messages embed it as before) that also
carries the id of its template in :data:`REASONS` and the named values it was made from: dates
as dates, regions as :class:`~deckcheck.card.release.Region`, a release's source as its key.
The reporters translate the template (``reason.ID`` in the catalogs) and the values, never the
English text.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from deckcheck.card.release import Region, describe_source

REASONS: dict[str, str] = {
    # card pools by release date (rule/pool.py)
    "released-after": "not released in {region} until {date} ({source})",
    "bound-after": "not in the pool of {region} on {cutoff}: the data has no dated release "
    "there, and it cannot be out before {date} ({source}; confidence L)",
    "window-after": "not released in {region} by {cutoff}: it came out between {date} and "
    "{upper} ({source}; confidence M)",
    "not-before": "not in {region} before {date} ({source})",
    "undated": "no source dates its release in {region}; it is assumed released",
    "undated-bound": "no source dates its release in {region} (not before {date}: {source}; "
    "confidence L); it is assumed released by {cutoff}",
    "window-unsure": "its {market} release is dated only as between {date} and {upper} "
    "({source}; confidence M), so it may not have been out on {cutoff}",
    "speed-not": "not a Speed Duel card",
    "speed-none": "not in Speed Duel (no Speed Duel print or Speed list entry in the data)",
    "md-not": "not a Master Duel card",
    "md-none": "not in Master Duel (no Master Duel rarity, legality or list entry in the data)",
    "skill-unofficial": "{name} is not an official Skill card",
    "skill-unlisted": "the Skill {name} is not on the {list} card list",
    "skill-later": "the Skill {name} is not released until {date} ({source})",
    # the format's pool (validation/fact.py)
    "rush-not": "not a Rush Duel card",
    "rush-later": "not released in Rush Duel until about {date}",
    "rush-undated": "no source dates its Rush Duel release; it is assumed released by the date",
    "rush-card": "a Rush Duel card, not legal in this format",
    "goat-version": "a GOAT-format version of a card, legal only in GOAT",
    "ocg-only": "not released in the TCG (OCG-only)",
    "tcg-only": "not released in the OCG (TCG-only)",
    "not-both": "not released in both the OCG and the TCG",
    # the date (rule/format, validation/ruleset.py)
    "before-lists": "{date} is before the first {format} list ({first})",
    "after-data": "{date} is after the ban-list data ends ({as_of}); a newer list may be in force",
    "no-list": "no {format} ban list is in force on {date}: none was checked",
}
"""Each reason's English template by id (``{field}``: a value the reason carries)."""

MARKETS = {
    Region.OCG: "OCG",
    Region.NA: "TCG",
    Region.EU: "TCG",
    Region.MD: "Master Duel",
    Region.SPEED: "Speed Duel",
}
"""A region as the game it is (``its TCG release``), for the ``{market}`` field."""


def _english(field: str, value: object) -> str:
    """A value as the English template writes it."""
    if field == "market" and isinstance(value, Region):
        return MARKETS[value]
    if isinstance(value, Region):
        return value.label
    if field == "source" and isinstance(value, str):
        return describe_source(value)
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


class Reason(str):
    """A reason's English phrase, with its template id (:attr:`key`) and its values
    (:attr:`fields`: dates, regions, a source key, names, list names)."""

    key: str
    fields: dict[str, object]

    def __new__(cls, key: str, **fields: object) -> Reason:
        """The reason ``key`` of :data:`REASONS` with ``fields`` filled in."""
        text = REASONS[key].format(**{f: _english(f, v) for f, v in fields.items()})
        self = super().__new__(cls, text)
        self.key = key
        self.fields = dict(fields)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled for the worker processes of a batch: made again from its id and values
        return (_remake, (self.key, self.fields))


def _remake(key: str, fields: dict[str, object]) -> Reason:
    return Reason(key, **fields)
