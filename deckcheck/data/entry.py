"""The public look-ups of formats and eras, answered from a dataset (the active one by default).

The lower stages take the dataset they work on as an argument; these are the public entry points
(re-exported by :mod:`deckcheck`) that pick the active dataset when their caller names none.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from deckcheck.data.dataset import Dataset
from deckcheck.rule import format as _format

if TYPE_CHECKING:
    from deckcheck.rule.format import Era, Format


def get_format(name: str, data: Dataset | None = None) -> Format:
    """A format or era by id or alias (case-insensitive) of ``data`` (default: the active
    dataset); :class:`~deckcheck.error.UnknownFormatError` (listing the valid names) if none."""
    return _format.get_format(name, data or Dataset.active())


def list_formats(include_eras: bool = True, data: Dataset | None = None) -> list[Format]:
    """Every registered format, then (by default) every era as a format.

    An era whose id is also a format's (``speed``, ``duel-links``, ``rush``) is that format.
    """
    return _format.list_formats(data or Dataset.active(), include_eras)


def list_eras(data: Dataset | None = None) -> list[Era]:
    """Every era, official ones by date, then the house and special eras."""
    return _format.list_eras(data or Dataset.active())


def load_format_file(path: str | Path, data: Dataset | None = None) -> Format:
    """Read an organiser's TOML format file (schema in ``docs/formats.md``) against ``data``
    (default: the active dataset).

    Raises :class:`~deckcheck.error.FormatFileError` naming the file and the offending key.
    """
    return _format.load_format_file(path, data or Dataset.active())
