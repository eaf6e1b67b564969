"""An organiser's signature file (``meta --signatures``, ``meta.toml``): the archetypes' signature
cards and the thresholds of the metagame's archetype rule (:mod:`deckcheck.run.meta`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.error import DeckcheckError, InputError
from deckcheck.run.metagame import GENERIC, Rules, Signature

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset


class MetaFileError(InputError):
    """An organiser's signature file (``meta.toml``) that cannot be used."""


MAX_SIGNATURE_BYTES = 1 << 20
"""Size cap of an organiser's signature file (``meta --signatures``)."""
_RULE_KEYS = {"share": float, "min_copies": int, "dominance": float}


def load_rules(path: str | Path, data: Dataset | None = None) -> Rules:
    """The rules of a signature file (TOML): ``[archetypes.NAME]`` tables with ``cards``
    (names or passcodes) and optional ``min``; optional top-level ``share``, ``min_copies``,
    ``dominance`` and ``generic`` (more tags never counted). Raises :class:`MetaFileError`."""
    import tomllib

    from deckcheck.boundary import parse_toml, read_capped

    where = str(path)
    try:
        raw = read_capped(
            path, MAX_SIGNATURE_BYTES, refuse=lambda why: MetaFileError(f"{where}: {why}")
        )
        doc = parse_toml(raw.decode("utf-8"))
    except OSError as exc:
        raise MetaFileError(f"{where}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise MetaFileError(f"{where}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise MetaFileError(f"{where}: not valid TOML: {exc}") from None
    except RecursionError:
        raise MetaFileError(f"{where}: nested too deeply") from None
    return rules_from_dict(doc, where, data)


def rules_from_dict(doc: Mapping[str, Any], where: str, data: Dataset | None = None) -> Rules:
    """The rules of a signature file already parsed (TOML or JSON of the same shape);
    ``where`` names it in errors. Raises :class:`MetaFileError`."""
    from deckcheck.data.dataset import resolve_data

    ds = resolve_data(data)
    options: dict[str, Any] = {}
    for key, value in doc.items():
        if key == "archetypes":
            continue
        if key == "generic":
            options["generic"] = GENERIC | frozenset(_strings(value, where, key))
        elif key in _RULE_KEYS and isinstance(value, int | float) and not isinstance(value, bool):
            options[key] = _RULE_KEYS[key](value)
        else:
            raise MetaFileError(f"{where}: unknown key or bad value {key!r}")
    tables = doc.get("archetypes", {})
    if not isinstance(tables, dict):
        raise MetaFileError(f"{where}: 'archetypes' must be a table of archetypes")
    sigs = tuple(_signature(name, t, where, ds) for name, t in tables.items())
    return Rules(**options, signatures=sigs)


def _strings(value: object, where: str, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
        raise MetaFileError(f"{where}: {key!r} must be a list of card names or passcodes")
    return [str(v) for v in value]


def _signature(name: str, table: object, where: str, ds: Dataset) -> Signature:
    key = f"archetypes.{name}"
    if not isinstance(table, dict) or set(table) - {"cards", "min"} or "cards" not in table:
        raise MetaFileError(f"{where}: {key!r} must be a table with 'cards' (and 'min')")
    codes = set()
    for query in _strings(table["cards"], where, f"{key}.cards"):
        try:
            codes.add(ds.cards.lookup(query).card.canonical)
        except DeckcheckError as exc:
            raise MetaFileError(f"{where}: {key}.cards: {exc}") from None
    least = table.get("min", 1)
    if not isinstance(least, int) or isinstance(least, bool) or not 1 <= least <= len(codes):
        raise MetaFileError(f"{where}: {key}.min must be between 1 and the number of its cards")
    return Signature(name, frozenset(codes), least)
