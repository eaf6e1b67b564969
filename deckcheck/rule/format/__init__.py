"""Eras and formats: deck-construction rules as data, in one registry with aliases.

* :mod:`.model`: :class:`Era`, :class:`Format`, :class:`SizeRule`, :class:`Pool`;
* :mod:`.schema`: the one schema of built-in and organiser format tables;
* :mod:`.registry`: :class:`FormatRegistry`;
* :mod:`.file`: reading ``formats.toml`` and organisers' format files (documents or TOML text).

The module functions below answer from a dataset's registry (the active one by default):
:func:`get_format` finds a format or era by id or alias (case-insensitive); :func:`list_formats` /
:func:`list_eras` list the registry; :func:`load_format_file` reads an organiser's TOML file.
"""

from __future__ import annotations

from datetime import date

from deckcheck.rule.format.file import (
    BY_DATE,
    CONFIDENCE,
    FormatRegistry,
    format_from_document,
    load_format_file,
    load_registry,
    read_registry_document,
    registry_from_document,
)
from deckcheck.rule.format.model import (
    RUSH_LEGEND_SPLIT,
    DateCheck,
    Derivation,
    Era,
    Format,
    Pool,
    SizeRule,
)
from deckcheck.rule.format.registry import FormatData

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
    "format_from_document",
    "format_names",
    "get_format",
    "list_eras",
    "list_formats",
    "load_format_file",
    "load_registry",
    "official_era_at",
    "read_registry_document",
    "registry_from_document",
]


def _registry(data: FormatData) -> FormatRegistry:
    return data.formats


def get_format(name: str, data: FormatData) -> Format:
    """A format or era by id or alias (case-insensitive); :class:`UnknownFormatError` if none."""
    return _registry(data).get(name)


def format_names(data: FormatData) -> list[str]:
    """Every format and era id (aliases left out), formats first."""
    return _registry(data).names()


def list_formats(data: FormatData, include_eras: bool = True) -> list[Format]:
    """Every registered format, then (by default) every era as a format.

    An era whose id is also a format's (``speed``, ``duel-links``, ``rush``) is that format.
    """
    return _registry(data).formats(include_eras)


def list_eras(data: FormatData) -> list[Era]:
    """Every era, official ones by date, then the house and special eras."""
    return _registry(data).eras()


def official_era_at(region: str, on: date, data: FormatData) -> Era:
    """The official era in force in ``region`` (``tcg`` or ``ocg``) on a date.

    Before the region's first era, the first era is returned.
    """
    return _registry(data).official_era_at(region, on)
