"""Format files: a dataset's ``formats.toml`` and organisers' format files, read.

The built-in eras and formats are ``formats.toml`` of a dataset (``[[era]]`` and ``[[format]]``
tables); an organiser's format file is one format table at the top level. Both are read by
:func:`~deckcheck.rule.format.schema.format_from_mapping` (and ``era_from_mapping`` for era
rules), so a key means the same in both; the schema (:mod:`deckcheck.rule.format.schema`) and
:class:`FormatRegistry` (:mod:`deckcheck.rule.format.registry`) are re-exported here. The schema
is documented in ``docs/formats.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any

from deckcheck.boundary import parse_toml, read_capped
from deckcheck.error import DataError, FormatFileError
from deckcheck.rule.format.model import Era, Format
from deckcheck.rule.format.registry import FormatData
from deckcheck.rule.format.registry import FormatRegistry as FormatRegistry
from deckcheck.rule.format.schema import BY_DATE as BY_DATE
from deckcheck.rule.format.schema import CONFIDENCE as CONFIDENCE
from deckcheck.rule.format.schema import ERA_KEYS as ERA_KEYS
from deckcheck.rule.format.schema import FORMAT_KEYS as FORMAT_KEYS
from deckcheck.rule.format.schema import MAX_FORMAT_FILE_BYTES as MAX_FORMAT_FILE_BYTES
from deckcheck.rule.format.schema import REGIONS as REGIONS
from deckcheck.rule.format.schema import RULE_KEYS as RULE_KEYS
from deckcheck.rule.format.schema import SIZE_KEYS as SIZE_KEYS
from deckcheck.rule.format.schema import Where
from deckcheck.rule.format.schema import era_from_mapping as era_from_mapping
from deckcheck.rule.format.schema import format_from_mapping as format_from_mapping

SCHEMA = 1
"""Version of the built-in formats file."""


# ---------------------------------------------------------------------------------------------
# loading


def _read_toml(path: Path, error: type[DataError], what: str) -> dict[str, Any]:
    try:
        raw = read_capped(
            path, MAX_FORMAT_FILE_BYTES + 1, refuse=lambda why: error(f"{path}: {what}: {why}")
        )
    except OSError as exc:
        raise error(f"{path}: cannot read {what}: {exc.strerror or exc}") from exc
    if len(raw) > MAX_FORMAT_FILE_BYTES:
        raise error(f"{path}: {what} is over {MAX_FORMAT_FILE_BYTES // 1024} KiB")
    import tomllib  # here, not at the top: the bundled formats load pre-parsed

    try:
        return parse_toml(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise error(f"{path}: {what} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: cannot read {what}: {exc}") from None
    except RecursionError:
        raise error(f"{path}: cannot read {what}: nested too deeply") from None


def read_registry_document(path: str | Path) -> dict[str, Any]:
    """The parsed ``formats.toml`` of a dataset (:class:`DataError` if unreadable)."""
    return _read_toml(Path(path), DataError, "the formats data")


def registry_from_document(
    doc: Mapping[str, Any], path: str | Path, families: list[str], as_of: date
) -> FormatRegistry:
    """The registry of a dataset's parsed ``formats.toml`` (``path``: where errors point; the
    ban-list ``families`` and the data's ``as_of`` date); :class:`DataError` names the entry."""
    if doc.get("schema") != SCHEMA:
        raise DataError(f"{path}: formats schema {doc.get('schema')!r}; expected {SCHEMA}")
    eras: dict[str, Era] = {}
    for i, raw in enumerate(doc.get("era", [])):
        where = Where(f"{path}: era[{i}]", DataError)
        era = era_from_mapping(raw, where, None, builtin=True)
        eras[era.id] = era
    formats = []
    for i, raw in enumerate(doc.get("format", [])):
        where = Where(f"{path}: format[{i}]", DataError)
        formats.append(
            format_from_mapping(
                raw,
                where,
                registry=None,
                eras=eras,
                families=families,
                as_of=as_of,
                folder=None,
                default_id="",
                builtin=True,
            )
        )
    return FormatRegistry(eras.values(), formats)


def load_registry(path: str | Path, data: FormatData) -> FormatRegistry:
    """The registry of a ``formats.toml`` file for a dataset; :class:`DataError` names the
    entry."""
    doc = read_registry_document(path)
    return registry_from_document(doc, path, data.banlists.families(), data.as_of)


def load_format_file(path: str | Path, data: FormatData) -> Format:
    """Read an organiser's TOML format file (schema in ``docs/formats.md``).

    Raises :class:`~deckcheck.error.FormatFileError` naming the file and the offending key.
    """
    ds = data
    path = Path(path)
    doc = _read_toml(path, FormatFileError, "format file")
    return format_from_mapping(
        doc,
        Where(str(path), FormatFileError),
        registry=ds.formats,
        eras={e.id: e for e in ds.formats.eras()},
        families=ds.banlists.families(),
        as_of=ds.as_of,
        folder=path.parent,
        default_id=path.stem,
        builtin=False,
    )


def format_from_document(
    doc: Mapping[str, Any] | str, data: FormatData, source: str = "inline format"
) -> Format:
    """An organiser's format given as data: a format table, or the TOML text of a format file.

    The schema is that of format files (``docs/formats.md``), except that ``banlist`` (a path)
    is not allowed: there is no folder to read it from. Raises
    :class:`~deckcheck.error.FormatFileError` naming ``source`` and the offending key.
    """
    import tomllib

    ds = data
    if isinstance(doc, str):
        if len(doc.encode("utf-8", "surrogatepass")) > MAX_FORMAT_FILE_BYTES:
            raise FormatFileError(f"{source}: over {MAX_FORMAT_FILE_BYTES // 1024} KiB")
        try:
            table: Mapping[str, Any] = parse_toml(doc)
        except tomllib.TOMLDecodeError as exc:
            raise FormatFileError(f"{source}: cannot read format TOML: {exc}") from None
        except RecursionError:
            raise FormatFileError(f"{source}: cannot read format TOML: nested too deeply") from None
    elif isinstance(doc, Mapping):
        table = doc
    else:
        raise FormatFileError(f"{source}: a format is a table of keys or the text of a TOML file")
    return format_from_mapping(
        table,
        Where(source, FormatFileError),
        registry=ds.formats,
        eras={e.id: e for e in ds.formats.eras()},
        families=ds.banlists.families(),
        as_of=ds.as_of,
        folder=None,
        default_id="inline",
        builtin=False,
    )
