"""One vocabulary for every front end: the event date, the format, the TCG region and the
TCG/OCG timeline, parsed once for the CLI, the repository configuration and the HTTP service.

* **date**: ``YYYY-MM-DD`` or ``today`` (:func:`parse_date`);
* **format**: an id or alias, an organiser's format file (a ``.toml`` path), or (the service)
  a format document (:func:`resolve_format`);
* **region** (``tcg_region`` in HTTP): the TCG *event* region, ``na`` or ``eu``, whose dates pick
  a TCG list where North America and Europe differ (:data:`REGIONS`);
* **timeline** (HTTP and the deck builder only): ``tcg`` or ``ocg``, the card-release timeline a
  format without a fixed era goes by (:data:`TIMELINES`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.error import InputError

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.rule.format import Format

REGIONS = ("na", "eu")
"""TCG event regions (:class:`deckcheck.rule.banlist.TcgRegion`)."""
TIMELINES = ("tcg", "ocg")
"""Card-release timelines."""
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_date(text: str | date | None) -> date | None:
    """An event date: ``YYYY-MM-DD``, or ``today``/empty/None (None: today).

    Raises :class:`~deckcheck.error.InputError` with an example for anything else (``20250407``
    and ``2025-4-7`` included: one spelling everywhere)."""
    if isinstance(text, date):
        return text
    if text is None or text.strip().lower() in ("", "today"):
        return None
    value = text.strip()
    if _ISO_DATE.fullmatch(value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise InputError(f"bad date {text!r}: {date_problem(value)}")


def date_problem(text: str) -> str:
    """What is wrong with a date that does not parse: the month, the day, or the form."""
    import calendar
    import re

    m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", text)
    if m is None:
        return "use YYYY-MM-DD (e.g. 2025-04-07) or 'today'"
    year, month, day = (int(g) for g in m.groups())
    if not 1 <= month <= 12:
        return f"there is no month {month} (months are 01-12)"
    days = calendar.monthrange(year, month)[1]
    if not 1 <= day <= days:
        return f"there is no day {day} in {year}-{month:02} (it has {days} days)"
    return "use YYYY-MM-DD with two-digit month and day (e.g. 2025-04-07)"


def event_date(text: str | date | None) -> date:
    """:func:`parse_date`, with today for None."""
    return parse_date(text) or date.today()


def parse_region(text: str | None) -> str | None:
    """A TCG event region (``na``/``eu``, any case), or None; InputError otherwise."""
    if text is None or not text.strip():
        return None
    value = text.strip().lower()
    if value not in REGIONS:
        raise InputError(f"unknown TCG region {text!r}: use 'na' (North America) or 'eu' (Europe)")
    return value


def parse_timeline(text: str | None) -> str | None:
    """A card-release timeline (``tcg``/``ocg``, any case), or None; InputError otherwise."""
    if text is None or not text.strip():
        return None
    value = text.strip().lower()
    if value not in TIMELINES:
        raise InputError(f"unknown timeline {text!r}: use tcg or ocg")
    return value


def resolve_format(
    name: str | None = None,
    *,
    file: str | Path | None = None,
    document: Mapping[str, Any] | str | None = None,
    data: Dataset | None = None,
    default: str = "tcg",
    base: Path | None = None,
    region: str | None = None,
    files: bool = True,
) -> Format:
    """The format a front end names: an id or alias, a ``.toml`` format file (``file``, or a
    ``name`` ending in ``.toml``, relative to ``base``), or a format ``document`` (a table or
    TOML text, no file paths); ``default`` when none is given. ``region`` (``na``/``eu``)
    replaces the format's TCG region. ``files=False`` (a service: the name comes from a
    stranger) refuses a name that is a file path, never opening it.

    Raises :class:`~deckcheck.error.InputError` for two ways at once or an empty name,
    :class:`~deckcheck.error.UnknownFormatError` (listing the valid names) and
    :class:`~deckcheck.error.FormatFileError` for a bad file or document.
    """
    from deckcheck.data.dataset import resolve_data
    from deckcheck.rule.format import format_from_document, load_format_file

    ds = resolve_data(data)
    given = [x for x in (name, file, document) if x is not None]
    if len(given) > 1:
        raise InputError("give a format name, a format file or a format document, not two")
    is_path = name is not None and name.strip().lower().endswith(".toml")
    if not files and (file is not None or is_path):
        raise InputError(
            "format names a file; files are not read here: send the format file's contents "
            "as format_file, or name a format (see the list of formats)"
        )
    if document is not None:
        fmt = format_from_document(document, ds, "format_file")
    elif file is not None or is_path:
        path = Path(file if file is not None else (name or "").strip())
        fmt = load_format_file(base / path if base is not None else path, ds)
    elif name is not None and not name.strip():
        raise InputError("the format is empty; see the list of formats")
    else:
        fmt = ds.format((name if name is not None else default).strip())
    return fmt.in_region(region) if region is not None else fmt
