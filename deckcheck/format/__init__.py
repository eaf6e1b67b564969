"""Eras and formats: deck-construction rules as data, in one registry with aliases.

* :mod:`.model`: :class:`Era`, :class:`Format`, :class:`SizeRule`, :class:`Pool`;
* :mod:`.file`: the one schema of built-in and organiser format files, and
  :class:`FormatRegistry`.

The module functions below answer from a dataset's registry (the active one by default):
:func:`get_format` finds a format or era by id or alias (case-insensitive); :func:`list_formats` /
:func:`list_eras` list the registry; :func:`load_format_file` reads an organiser's TOML file.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from deckcheck.format.file import (
    BY_DATE,
    CONFIDENCE,
    FormatRegistry,
    load_format_file,
    load_registry,
)
from deckcheck.format.model import (
    RUSH_LEGEND_SPLIT,
    DateCheck,
    Derivation,
    Era,
    Format,
    Pool,
    SizeRule,
)

if TYPE_CHECKING:
    from deckcheck.dataset import Dataset

__all__ = [
    "BY_DATE",
    "CONFIDENCE",
    "RUSH_LEGEND_SPLIT",
    "DateCheck",
    "Derivation",
    "Era",
    "Format",
    "FormatRegistry",
    "Pool",
    "SizeRule",
    "format_for_region",
    "format_names",
    "get_format",
    "list_eras",
    "list_formats",
    "load_format_file",
    "load_registry",
    "official_era_at",
]


def _registry(data: Dataset | None) -> FormatRegistry:
    from deckcheck.dataset import resolve_data

    return resolve_data(data).formats


def get_format(name: str, data: Dataset | None = None) -> Format:
    """A format or era by id or alias (case-insensitive); :class:`UnknownFormatError` if none."""
    return _registry(data).get(name)


def format_names(data: Dataset | None = None) -> list[str]:
    """Every format and era id (aliases left out), formats first."""
    return _registry(data).names()


def list_formats(include_eras: bool = True, data: Dataset | None = None) -> list[Format]:
    """Every registered format, then (by default) every era as a format.

    An era whose id is also a format's (``speed``, ``duel-links``, ``rush``) is that format.
    """
    return _registry(data).formats(include_eras)


def list_eras(data: Dataset | None = None) -> list[Era]:
    """Every era, official ones by date, then the house and special eras."""
    return _registry(data).eras()


def official_era_at(region: str, on: date, data: Dataset | None = None) -> Era:
    """The official era in force in ``region`` (``tcg`` or ``ocg``) on a date.

    Before the region's first era, the first era is returned.
    """
    return _registry(data).official_era_at(region, on)


def format_for_region(fmt: Format, region: str, data: Dataset | None = None) -> Format:
    """``fmt`` played in ``region`` (``tcg`` or ``ocg``): that region's card pool (for TCG and
    OCG pools) and official era dates (for formats whose era goes by date); the list is kept.

    Raises :class:`~deckcheck.error.InputError` for another region.
    """
    from dataclasses import replace

    from deckcheck.error import InputError
    from deckcheck.format.file import REGIONS

    key = region.strip().lower()
    if key not in REGIONS:
        raise InputError(f"unknown region {region!r}; valid: {', '.join(REGIONS)}")
    pool = Pool(key) if fmt.pool in (Pool.TCG, Pool.OCG) else fmt.pool
    if key == fmt.region and pool is fmt.pool:
        return fmt
    timeline = _registry(data).timeline(key) if fmt.era is None else fmt.timeline
    return replace(fmt, region=key, pool=pool, timeline=timeline)
