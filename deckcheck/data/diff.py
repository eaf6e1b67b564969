"""What changed between two datasets: lists, cards, release dates (``deckcheck data diff``).

:func:`diff` compares an old and a new :class:`~deckcheck.data.dataset.Dataset`: the ban lists
that are new or changed, per format (list family), with each card's change; the cards that are
new, per region; the cards whose first TCG or OCG release date changed. :func:`render_text`
and :func:`render_markdown` write it for a terminal and for release notes; its JSON form is
the document ``DataDiffDocument`` (:mod:`deckcheck.reporter.document`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deckcheck.card import Card
    from deckcheck.data.dataset import Dataset
    from deckcheck.rule.banlist import Banlist


@dataclass(frozen=True, slots=True)
class CardChange:
    """One card's change in one list."""

    passcode: int
    name: str
    old: str
    """Its status before (``Unlimited``, ``Limited``, ``not in pool``, ``3 points``...)."""
    new: str


@dataclass(frozen=True, slots=True)
class ListChange:
    """A list that is new, or whose entries changed."""

    family: str
    name: str
    effective: date
    new: bool
    """True when the old data has no list of this family and date."""
    changes: tuple[CardChange, ...]
    """Against the old version of the list; for a new list, against the list before it in its
    family (all its entries when it is the first)."""


@dataclass(frozen=True, slots=True)
class DateChange:
    """A card whose first release date in a region changed."""

    passcode: int
    name: str
    region: str
    """``tcg`` or ``ocg``."""
    old: date | None
    new: date | None


@dataclass(frozen=True, slots=True)
class DataDiff:
    """The changes from one dataset to another."""

    old: Mapping[str, Any]
    """The old dataset's :meth:`~deckcheck.data.dataset.Dataset.describe` (as-of, fingerprint)."""
    new: Mapping[str, Any]
    lists: tuple[ListChange, ...]
    new_cards: Mapping[str, tuple[tuple[int, str], ...]]
    """Region (``tcg``, ``ocg``, ``rush``, ``other``) -> the new cards (passcode, name)."""
    dates: tuple[DateChange, ...]

    @property
    def empty(self) -> bool:
        """True when nothing changed."""
        return not (self.lists or self.dates or any(self.new_cards.values()))


def diff(old: Dataset, new: Dataset) -> DataDiff:
    """The changes from ``old`` to ``new``."""
    return DataDiff(
        old=old.describe(),
        new=new.describe(),
        lists=tuple(_lists(old, new)),
        new_cards=_new_cards(old, new),
        dates=tuple(_dates(old, new)),
    )


def _value(b: Banlist, value: int | None) -> str:
    from deckcheck.rule.banlist import status_word

    if value is None:
        return "not in pool" if b.whitelist else ("0 points" if b.points else "Unlimited")
    if b.points:
        return f"{value} points"
    if b.whitelist and value < 0:
        return "not in pool"
    return status_word(value)


def _name(new: Dataset, b: Banlist, code: int) -> str:
    if code in new.cards:
        return new.cards.get(code).name
    return b.names.get(code, str(code))


def _lists(old: Dataset, new: Dataset) -> list[ListChange]:
    """Changed lists against their old version; a new list against the list before it."""
    before = {(b.family, b.effective): b for b in old.banlists.lists()}
    out = []
    last: dict[str, Banlist] = {}
    for b in sorted(new.banlists.lists(), key=lambda x: (x.family, x.effective)):
        same = before.get((b.family, b.effective))
        prev = same or last.get(b.family)
        last[b.family] = b
        if same is not None and dict(same.entries) == dict(b.entries):
            continue
        was = dict(prev.entries) if prev is not None else {}
        changes = []
        for code in sorted(set(was) | set(b.entries)):
            a, z = was.get(code), b.entries.get(code)
            if a == z:
                continue
            ref = prev if prev is not None else b
            changes.append(CardChange(code, _name(new, b, code), _value(ref, a), _value(b, z)))
        out.append(ListChange(b.family, b.name, b.effective, same is None, tuple(changes)))
    return out


def _region(card: Card) -> list[str]:
    if card.is_rush:
        return ["rush"]
    regions = [r for r, yes in (("tcg", card.in_tcg), ("ocg", card.in_ocg)) if yes]
    return regions or ["other"]


def _new_cards(old: Dataset, new: Dataset) -> dict[str, tuple[tuple[int, str], ...]]:
    found: dict[str, list[tuple[int, str]]] = {}
    for card in new.cards:
        if card.passcode in old.cards or card.passcode != card.canonical:
            continue
        for region in _region(card):
            found.setdefault(region, []).append((card.passcode, card.name))
    return {r: tuple(sorted(found[r])) for r in sorted(found)}


def _dates(old: Dataset, new: Dataset) -> list[DateChange]:
    out = []
    for card in new.cards:
        if card.passcode not in old.cards or card.passcode != card.canonical:
            continue
        was = old.cards.get(card.passcode)
        for region, a, z in (
            ("tcg", was.tcg_date, card.tcg_date),
            ("ocg", was.ocg_date, card.ocg_date),
        ):
            if a != z:
                out.append(DateChange(card.passcode, card.name, region, a, z))
    return out


def _summary(d: DataDiff) -> str:
    count = len({code for cards in d.new_cards.values() for code, _ in cards})
    news = sum(1 for c in d.lists if c.new)
    return (
        f"{news} new lists, {len(d.lists) - news} changed, {count} new cards, "
        f"{len(d.dates)} changed release dates"
    )


def render_text(d: DataDiff, limit: int = 20) -> str:
    """The diff for a terminal: at most ``limit`` lines per group (0: all). Unescaped text."""
    lines = [
        f"data {d.old['as_of']} ({d.old['fingerprint'][:12]}) -> "
        f"{d.new['as_of']} ({d.new['fingerprint'][:12]}): {_summary(d)}"
    ]
    for c in d.lists:
        what = "new list" if c.new else "changed list"
        lines.append(f"  {what} {c.family} {c.effective.isoformat()} {c.name}")
        lines.extend(
            f"    {x.name} ({x.passcode}): {x.old} -> {x.new}" for x in _cut(c.changes, limit)
        )
        if limit and len(c.changes) > limit:
            lines.append(f"    ... {len(c.changes) - limit} more")
    for region, cards in d.new_cards.items():
        lines.append(f"  new {region.upper()} cards: {len(cards)}")
        lines.extend(f"    {name} ({code})" for code, name in _cut(cards, limit))
    if d.dates:
        lines.append(f"  changed release dates: {len(d.dates)}")
        for x in _cut(d.dates, limit):
            lines.append(f"    {x.name} ({x.passcode}) {x.region.upper()}: {x.old} -> {x.new}")
    return "\n".join(lines) + "\n"


def _cut(items: tuple[Any, ...], limit: int) -> tuple[Any, ...]:
    return items[:limit] if limit else items


def _md(text: str) -> str:
    return "".join("\\" + ch if ch in "\\`*_[]<>|#" else ch for ch in text)


def render_markdown(d: DataDiff) -> str:
    """The diff as Markdown (release notes): every change, card names escaped."""
    out = [
        f"## Data as of {d.new['as_of']}",
        "",
        f"From {d.old['as_of']} (`{d.old['fingerprint'][:12]}`) to {d.new['as_of']} "
        f"(`{d.new['fingerprint'][:12]}`): {_summary(d)}.",
    ]
    for c in d.lists:
        out += [
            "",
            f"### {'New' if c.new else 'Changed'} list: {c.family} "
            f"{c.effective.isoformat()} ({_md(c.name)})",
            "",
        ]
        if c.changes:
            out += ["| card | passcode | before | after |", "|---|---|---|---|"]
            out += [f"| {_md(x.name)} | {x.passcode} | {x.old} | {x.new} |" for x in c.changes]
    for region, cards in d.new_cards.items():
        out += ["", f"### New {region.upper()} cards ({len(cards)})", ""]
        out += [f"- {_md(name)} ({code})" for code, name in cards]
    if d.dates:
        out += [
            "",
            "### Changed release dates",
            "",
            "| card | region | before | after |",
            "|---|---|---|---|",
        ]
        out += [
            f"| {_md(x.name)} ({x.passcode}) | {x.region.upper()} | {x.old or '-'} | "
            f"{x.new or '-'} |"
            for x in d.dates
        ]
    return "\n".join(out) + "\n"
