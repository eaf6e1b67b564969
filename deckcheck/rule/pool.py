"""Card pools by release date: is a card in a format's pool on a date, and how sure is that?

A card's first release per region comes from the card index (:class:`~deckcheck.card.Release`,
worked out by ``scripts/release_dates.py`` from dated prints). The TCG pool uses the format's
``tcg_region`` (North America or Europe), as list dates do. A card with no dated release in a
region is not in that region's pool before its bound; after the bound (or inside a window
between two dates) it passes with a ``release-date-unknown`` warning that says how sure the
data is.
"""

from __future__ import annotations

from datetime import date

from deckcheck.card.model import Card
from deckcheck.card.release import Region, Release, ReleaseKind
from deckcheck.rule.banlist import Banlist
from deckcheck.rule.reason import Reason


def tcg_region(region: object) -> Region:
    """The card-index region of a format's ``tcg_region`` (``na`` or ``eu``; default na)."""
    value = getattr(region, "value", region)
    return Region.EU if value == "eu" else Region.NA


def _fallback(card: Card, region: Region) -> Release | None:
    """A release from the plain date columns (an index without per-region entries)."""
    if card.releases:
        return None
    if region in (Region.MD, Region.SPEED):
        return None
    when = card.ocg_date if region is Region.OCG else card.tcg_date
    flagged = card.in_ocg if region is Region.OCG else card.in_tcg
    if when is None:
        return Release(region, None, ReleaseKind.BOUND, "as-of") if flagged else None
    return Release(region, when, ReleaseKind.EVIDENCE, "ygojson")


def release_in(card: Card, region: Region) -> Release | None:
    """The card's first release in ``region``, None if the data says it is not released there."""
    return card.release(region) or _fallback(card, region)


def region_problem(card: Card, region: Region, cutoff: date) -> str | None:
    """Why ``card`` is not in ``region``'s pool at ``cutoff`` (None: it is, or may be)."""
    rel = release_in(card, region)
    if rel is None:
        return None  # the caller checks the region flags first
    if rel.date is None or rel.date <= cutoff:
        return None
    where = {"region": rel.region, "date": rel.date, "source": rel.source}
    if rel.kind is ReleaseKind.EVIDENCE:
        return Reason("released-after", **where)
    if rel.from_bound:
        return Reason("bound-after", cutoff=cutoff, **where)
    if rel.kind is ReleaseKind.WINDOW:
        return Reason("window-after", cutoff=cutoff, upper=rel.upper, **where)
    return Reason("not-before", **where)


def region_unknown(card: Card, region: Region, cutoff: date) -> str | None:
    """The warning for a card in ``region``'s pool at ``cutoff`` without a sure date, if any.

    A window warns until its upper date (the card was certainly out by then); a bound warns
    always (no dated release at all). Dated prints and Master Duel launch cards do not warn.
    """
    rel = release_in(card, region)
    if rel is None or rel.kind in (ReleaseKind.EVIDENCE, ReleaseKind.ASSUMED):
        return None
    if rel.upper is not None and rel.upper <= cutoff:
        return None  # certainly out by then
    if rel.date is None:
        return Reason("undated", region=rel.region)
    where = {"date": rel.date, "source": rel.source, "cutoff": cutoff}
    if rel.from_bound:
        return Reason("undated-bound", region=rel.region, **where)
    return Reason("window-unsure", market=region, upper=rel.upper, **where)


def speed_problem(card: Card, cutoff: date) -> str | None:
    """Why ``card`` is not in the Speed Duel pool at ``cutoff`` (None: it is, or may be).

    The pool is the cards printed in Speed Duel products (from each product's date) and the
    cards of EDOPro's Speed lists (from their windows); the lists in force give the limits.
    """
    if card.is_rush:
        return Reason("speed-not")
    if release_in(card, Region.SPEED) is None:
        return Reason("speed-none")
    return region_problem(card, Region.SPEED, cutoff)


def master_duel_problem(card: Card, cutoff: date) -> str | None:
    """Why ``card`` is not in Master Duel at ``cutoff`` (None: it is, or may be)."""
    if card.is_rush or card.is_skill:
        return Reason("md-not")
    rel = release_in(card, Region.MD)
    if rel is None:
        return Reason("md-none")
    return region_problem(card, Region.MD, cutoff)


def skill_problem(card: Card, banlist: Banlist | None, cutoff: date, region: Region) -> str | None:
    """Why a Skill card is not legal in a Speed Duel deck at ``cutoff`` (None: it is).

    A Skill must be on the Speed Duel list in force (a whitelist of cards and Skills) and out
    by the date: its product's release (YGOJSON), where the data dates it.
    """
    if card.is_unofficial:
        return Reason("skill-unofficial", name=card.name)
    if banlist is not None and banlist.whitelist and banlist.limit(card.passcode) is None:
        return Reason("skill-unlisted", name=card.name, list=banlist.name)
    rel = release_in(card, region) if card.releases else None
    if rel is not None and rel.date is not None and rel.date > cutoff:
        return Reason("skill-later", name=card.name, date=rel.date, source=rel.source)
    return None
