"""Format files: the one schema of built-in and organiser formats, and the format registry.

The built-in eras and formats are ``formats.toml`` of a dataset (``[[era]]`` and ``[[format]]``
tables); an organiser's format file is one format table at the top level. Both are read by
:func:`format_from_mapping` (and :func:`era_from_mapping` for era rules), so a key means the same
in both. The schema is documented in ``docs/formats.md``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.boundary import read_capped
from deckcheck.error import DataError, DeckcheckError, FormatFileError, UnknownFormatError
from deckcheck.rule.banlist import Banlist, TcgRegion, read_banlist_file, read_lflist
from deckcheck.rule.format.model import Derivation, Era, Format, Pool, SizeRule

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset

SCHEMA = 1
"""Version of the built-in formats file."""
BY_DATE = "by-date"
"""``era`` value of a format whose era is the official one of its region at the date."""
REGIONS = ("tcg", "ocg")
"""Regions whose official era timelines exist."""
FORMAT_KEYS = frozenset(
    {
        "id",
        "name",
        "aliases",
        "base",
        "era",
        "pool",
        "copy_limit",
        "point_cap",
        "forbidden_types",
        "skill_cards",
        "banlist",
        "banlist_name",
        "banlist_family",
        "banlist_date",
        "pool_date",
        "note",
        "region",
        "rules",
        "derivation",
        "legend_rule",
        "limit_groups",
        "confidence",
        "provenance",
        "tcg_region",
    }
)
"""Keys of a format table."""
SIZE_KEYS = ("main", "extra", "side")
RULE_KEYS = frozenset(
    {
        *SIZE_KEYS,
        "hand_size",
        "first_player_draws",
        "draw_per_turn",
        "draw_up_to",
        "hand_limit",
        "life_points",
        "name",
        "note",
    }
)
"""Keys of an era's rules (a format file's ``rules`` table)."""
ERA_KEYS = RULE_KEYS | {"id", "ocg_from", "tcg_from", "house", "confidence", "provenance"}
"""Keys of a built-in ``[[era]]`` table."""
CONFIDENCE = ("H", "M", "L")
"""Confidence letters: H official or several sources agree, M one reputable source, L weak."""
MAX_FORMAT_FILE_BYTES = 1 << 20
"""Largest format file read (1 MiB)."""


@dataclass(frozen=True)
class _Where:
    """Where a table came from, and which error class its problems raise."""

    name: str
    error: type[DataError]

    def bad(self, key: str, msg: str) -> DataError:
        return self.error(f"{self.name}: {key}: {msg}")


class FormatRegistry:
    """Every era and format of a dataset, by id and alias (case-insensitive).

    An era is also a format of its own (``lp4000``, ``mr3-2014``); a format with an era's id
    (``speed``, ``rush``) is that era's format.
    """

    def __init__(self, eras: Iterable[Era], formats: Iterable[Format]) -> None:
        self._eras = {e.id: e for e in eras}
        self._formats = list(formats)
        taken = {f.id for f in self._formats}
        self._era_formats = [_era_format(e) for e in self._eras.values() if e.id not in taken]
        self._by_name: dict[str, Format] = {}
        for fmt in self.formats():
            for key in (fmt.id, *fmt.aliases):
                if key.lower() in self._by_name:
                    raise DataError(f"format name {key!r} registered twice")
                self._by_name[key.lower()] = fmt

    def get(self, name: str) -> Format:
        """A format or era by id or alias; :class:`UnknownFormatError` lists the valid ids."""
        fmt = self._by_name.get(name)  # the usual case: an id or alias as registered
        if fmt is None:
            fmt = self._by_name.get(name.strip().lower()) if name.strip() else None
        if fmt is None:
            raise UnknownFormatError(name, self.names())
        return fmt

    def names(self) -> list[str]:
        """Every format and era id (aliases left out), formats first."""
        return [f.id for f in self.formats()]

    def formats(self, include_eras: bool = True) -> list[Format]:
        """Every format, then (by default) every era as a format."""
        return [*self._formats, *(self._era_formats if include_eras else [])]

    def eras(self) -> list[Era]:
        """Every era, official ones by date, then the house and special eras."""
        return list(self._eras.values())

    def era(self, era_id: str) -> Era:
        """An era by id; :class:`UnknownFormatError` lists the era ids."""
        got = self._eras.get(era_id.strip().lower())
        if got is None:
            raise UnknownFormatError(era_id, list(self._eras))
        return got

    def timeline(self, region: str) -> tuple[tuple[date, Era], ...]:
        """The official eras of ``region`` (``tcg`` or ``ocg``) by first day."""
        return _timeline(self._eras.values(), region)

    def official_era_at(self, region: str, on: date) -> Era:
        """The official era in force in ``region`` on a date (before the first: the first)."""
        timeline = self.timeline(region)
        current = timeline[0][1]
        for start, era in timeline:
            if start <= on:
                current = era
        return current


def _timeline(eras: Iterable[Era], region: str) -> tuple[tuple[date, Era], ...]:
    out = []
    for era in eras:
        start = era.tcg_from if region == "tcg" else era.ocg_from
        if start is not None and not era.house:
            out.append((start, era))
    return tuple(sorted(out, key=lambda t: t[0]))


def _era_format(era: Era) -> Format:
    return Format(
        era.id,
        era.name,
        (),
        Pool.ANY,
        era=era,
        family=era.banlist,
        confidence=era.confidence,
        note=era.note,
        provenance=era.provenance,
        is_era=True,
    )


# ---------------------------------------------------------------------------------------------
# eras


def _int(where: _Where, key: str, value: Any, *, low: int = 0, high: int = 1000) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise where.bad(key, "must be an integer")
    if not low <= value <= high:
        raise where.bad(key, f"must be from {low} to {high}")
    return value


def _size_rule(where: _Where, key: str, value: Any, old: SizeRule | None) -> SizeRule:
    if not isinstance(value, Mapping) or set(value) - {"min", "max", "zero_or_exact"}:
        raise where.bad(key, "must be a table with min / max / zero_or_exact")
    for sub, num in value.items():
        _int(where, f"{key}.{sub}", num)
    exact = value.get("zero_or_exact")
    lo = value.get("min", 0 if exact is not None or old is None else old.min)
    if old is None:
        hi = value.get("max")
    else:
        hi = value.get("max", None if "min" in value and "max" not in value else old.max)
    if exact is not None:
        hi = exact
    if hi is not None and hi < lo:
        raise where.bad(key, f"max {hi} < min {lo}")
    return SizeRule(lo, hi, exact)


def _date(where: _Where, key: str, value: Any) -> date:
    if not isinstance(value, date) or not isinstance(value, date):
        raise where.bad(key, "must be a TOML date (YYYY-MM-DD)")
    return value


def _str(where: _Where, key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise where.bad(key, "must be a string")
    return value


def _bool(where: _Where, key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise where.bad(key, "must be true or false")
    return value


def era_from_mapping(
    raw: Mapping[str, Any], where: _Where, base: Era | None, *, prefix: str = "", builtin: bool
) -> Era:
    """An :class:`Era` from an ``[[era]]`` table (``base`` None) or a ``rules`` table over ``base``.

    Every value is range-checked; problems raise ``where.error`` naming the key.
    """
    allowed = ERA_KEYS if builtin else RULE_KEYS
    changes: dict[str, Any] = {}
    for key, value in raw.items():
        at = f"{prefix}{key}"
        if key not in allowed:
            raise where.bad(at, f"unknown key (known: {', '.join(sorted(allowed))})")
        if key in SIZE_KEYS:
            changes[key] = _size_rule(where, at, value, getattr(base, key) if base else None)
        elif key in ("first_player_draws", "house"):
            changes[key] = _bool(where, at, value)
        elif key in ("name", "note", "provenance", "id"):
            changes[key] = _str(where, at, value)
        elif key == "confidence":
            if value not in CONFIDENCE:
                raise where.bad(at, f"must be one of {', '.join(CONFIDENCE)}")
            changes[key] = value
        elif key in ("ocg_from", "tcg_from"):
            changes[key] = _date(where, at, value)
        elif key == "hand_limit":
            changes[key] = None if value == "none" else _int(where, at, value, low=1, high=100)
        elif key == "hand_size" or key == "draw_per_turn":
            changes[key] = _int(where, at, value, low=0, high=60)
        elif key == "draw_up_to":
            changes[key] = _int(where, at, value, low=1, high=60)
        elif key == "life_points":
            changes[key] = _int(where, at, value, low=1, high=10_000_000)
    if base is not None:
        return replace(base, **changes)
    missing = [
        k
        for k in ("id", "name", "main", "extra", "side", "hand_size", "first_player_draws")
        if k not in changes
    ]
    if missing:
        raise where.bad(prefix + missing[0], "missing")
    return Era(**changes)


# ---------------------------------------------------------------------------------------------
# formats


def format_from_mapping(  # noqa: C901 (a schema check: one branch per key, read top to bottom)
    data: Mapping[str, Any],
    where: _Where,
    *,
    registry: FormatRegistry | None,
    eras: Mapping[str, Era],
    families: Iterable[str],
    as_of: date,
    folder: Path | None,
    default_id: str,
    builtin: bool,
) -> Format:
    """A :class:`Format` from a format table (schema in ``docs/formats.md``).

    ``registry`` resolves ``base`` (None while the built-in formats are being read); ``eras``
    the era ids; ``families`` the ban-list families a dataset has; ``folder`` is where a
    ``banlist`` path is looked up. Problems raise ``where.error`` naming the key.
    """
    bad = where.bad
    for key in data:
        if key not in FORMAT_KEYS:
            raise bad(key, f"unknown key (known: {', '.join(sorted(FORMAT_KEYS))})")

    def typed(key: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
        value = data.get(key, default)
        if value is None:
            return None
        if isinstance(value, bool) and kind is int:
            raise bad(key, "must be an integer")
        if not isinstance(value, kind):
            raise bad(key, f"wrong type {type(value).__name__}")
        return value

    base: Format | None = None
    if "base" in data:
        if registry is None:
            raise bad("base", "not allowed in the built-in formats")
        try:
            base = registry.get(_str(where, "base", data["base"]))
        except UnknownFormatError as exc:
            raise bad("base", str(exc)) from None
    fmt_id = typed("id", str) or default_id
    if not fmt_id.strip():
        raise bad("id", "must not be empty")
    fields: dict[str, Any] = {
        "id": fmt_id,
        "name": typed("name", str) or fmt_id,
        "is_era": False,
        "custom": not builtin,
    }
    aliases = typed("aliases", list, [])
    if not all(isinstance(a, str) and a.strip() for a in aliases):
        raise bad("aliases", "must be a list of non-empty strings")
    fields["aliases"] = tuple(aliases)
    if "region" in data:
        region = typed("region", str)
        if region not in REGIONS:
            raise bad("region", "must be 'tcg' or 'ocg'")
        fields["region"] = region
    region = fields.get("region", base.region if base else "tcg")
    if "tcg_region" in data:
        tcg_region = typed("tcg_region", str)
        if tcg_region not in {r.value for r in TcgRegion}:
            raise bad("tcg_region", "must be 'na' (North America) or 'eu' (Europe)")
        fields["tcg_region"] = TcgRegion(tcg_region)
    # era
    era_name = typed("era", str)
    era: Era | None = None
    if era_name is not None:
        if era_name.lower() == BY_DATE:
            fields["era"] = None
            fields["timeline"] = _timeline(eras.values(), region)
        else:
            era = eras.get(era_name.lower())
            if era is None:
                raise bad("era", f"unknown era {era_name!r}; eras: {', '.join(eras)}, {BY_DATE}")
            fields["era"] = era
    elif base is not None and "region" in data and base.era is None:
        fields["timeline"] = _timeline(eras.values(), region)
    rules = data.get("rules")
    if rules is not None:
        if not isinstance(rules, Mapping):
            raise bad("rules", "must be a table")
        if era is not None:
            start = era
        elif base is not None:
            start = base.era_at(as_of)
        elif era_name is not None:
            start = _timeline(eras.values(), region)[-1][1]
        else:
            start = eras["mr2020"]
        custom = era_from_mapping(rules, where, start, prefix="rules.", builtin=False)
        fields["era"] = replace(
            custom,
            id=f"{fmt_id}-rules",
            house=True,
            name=rules.get("name", f"{start.name} (organiser overrides)"),
            provenance=f"organiser format file ({fmt_id})",
        )
    # pool and rules
    if "pool" in data:
        try:
            fields["pool"] = Pool(str(data["pool"]).lower())
        except ValueError:
            raise bad("pool", f"unknown pool; pools: {', '.join(p.value for p in Pool)}") from None
    if "copy_limit" in data:
        fields["copy_limit"] = _int(where, "copy_limit", data["copy_limit"], low=1, high=60)
    if "point_cap" in data:
        fields["point_cap"] = _int(where, "point_cap", data["point_cap"], high=1_000_000)
    if "skill_cards" in data:
        fields["skill_cards"] = _int(where, "skill_cards", data["skill_cards"], high=60)
    if "forbidden_types" in data:
        types = typed("forbidden_types", list)
        if not all(isinstance(t, str) for t in types):
            raise bad("forbidden_types", "must be a list of strings")
        fields["forbidden_types"] = frozenset(t.lower() for t in types)
    for key in ("pool_date", "banlist_date"):
        if key in data:
            fields["pool_date" if key == "pool_date" else "list_date"] = _date(
                where, key, data[key]
            )
    for key in ("note", "provenance"):
        if key in data:
            fields[key] = _str(where, key, data[key])
    if "confidence" in data:
        if data["confidence"] not in CONFIDENCE:
            raise bad("confidence", f"must be one of {', '.join(CONFIDENCE)}")
        fields["confidence"] = data["confidence"]
    if "legend_rule" in data:
        fields["legend_rule"] = _bool(where, "legend_rule", data["legend_rule"])
    if "limit_groups" in data:
        groups = data["limit_groups"]
        if not isinstance(groups, Mapping):
            raise bad("limit_groups", "must be a table of group = slots")
        fields["limit_groups"] = {
            str(k): _int(where, f"limit_groups.{k}", v, high=60) for k, v in groups.items()
        }
    if "derivation" in data:
        try:
            fields["derivation"] = Derivation(_str(where, "derivation", data["derivation"]))
        except ValueError:
            valid = ", ".join(d.value for d in Derivation)
            raise bad("derivation", f"unknown derivation; valid: {valid}") from None
    # ban list
    if "banlist_family" in data:
        fam = typed("banlist_family", str)
        derivation = fields.get("derivation", Derivation.DIRECT)
        known = sorted(families)
        if derivation in (Derivation.DIRECT, Derivation.FIXED) and fam not in (*known, "none"):
            raise bad("banlist_family", f"unknown family; known: {', '.join(known)}")
        fields["family"] = None if fam == "none" else fam
        fields.setdefault("derivation", Derivation.DIRECT)
    if "banlist" in data:
        if folder is None:
            raise bad("banlist", "not allowed here")
        problems: list[str] = []
        fields["custom_lists"] = _read_lists(
            where, folder, typed("banlist", str), typed("banlist_name", str), problems
        )
        fields["warnings"] = tuple(problems)
    if base is None:
        if "era" not in fields and "timeline" not in fields:
            raise bad("era", f"give an era ('{BY_DATE}' for the official one) or a base format")
        return Format(**fields)
    return replace(base, **fields)


def _read_lists(
    where: _Where, folder: Path, ref: str, section: str | None, problems: list[str]
) -> tuple[Banlist, ...]:
    """The lists of the file a format file names: relative to the format file's folder, and
    inside it (a path that leaves it must be given absolute, on purpose). A malformed entry
    line of an ``lflist.conf`` is skipped, as EDOPro and the data builder skip it, and
    described in ``problems`` (file and line)."""
    target = (folder / ref).resolve()
    if not Path(ref).is_absolute() and not target.is_relative_to(folder.resolve()):
        raise where.bad(
            "banlist",
            f"{ref} is outside the format file's folder; give an absolute path to use it",
        )
    try:
        if target.stat().st_size > MAX_FORMAT_FILE_BYTES:
            raise where.bad("banlist", f"{ref} is over {MAX_FORMAT_FILE_BYTES // 1024} KiB")
        if target.suffix == ".toml":
            return (read_banlist_file(target),)
        raw = read_capped(target, MAX_FORMAT_FILE_BYTES + 1)
        if len(raw) > MAX_FORMAT_FILE_BYTES:
            raise where.bad("banlist", f"{ref} is over {MAX_FORMAT_FILE_BYTES // 1024} KiB")
        text = raw.decode("utf-8-sig")
    except OSError as exc:
        raise where.bad("banlist", f"cannot read {ref}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise where.bad("banlist", f"{ref} is not UTF-8 text") from None
    except DeckcheckError as exc:
        raise where.bad("banlist", str(exc)) from None
    try:
        lists = read_lflist(text, str(target), effective=date(1970, 1, 1), problems=problems)
    except DataError as exc:
        raise where.bad("banlist", str(exc)) from None
    if section is not None:
        lists = [b for b in lists if b.name == section]
        if not lists:
            raise where.bad("banlist_name", f"no list named {section!r} in {ref}")
    if not lists:
        raise where.bad("banlist", f"{ref} holds no list")
    if problems and not any(b.entries for b in lists):
        raise where.bad("banlist", f"not an lflist.conf: {problems[0]}")
    return tuple(sorted(lists, key=lambda b: b.effective))


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
    try:
        return tomllib.loads(raw.decode("utf-8"))
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
        where = _Where(f"{path}: era[{i}]", DataError)
        era = era_from_mapping(raw, where, None, builtin=True)
        eras[era.id] = era
    formats = []
    for i, raw in enumerate(doc.get("format", [])):
        where = _Where(f"{path}: format[{i}]", DataError)
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


def load_registry(path: str | Path, data: Dataset) -> FormatRegistry:
    """The registry of a ``formats.toml`` file for a dataset; :class:`DataError` names the
    entry."""
    doc = read_registry_document(path)
    return registry_from_document(doc, path, data.banlists.families(), data.as_of)


def load_format_file(path: str | Path, data: Dataset) -> Format:
    """Read an organiser's TOML format file (schema in ``docs/formats.md``).

    Raises :class:`~deckcheck.error.FormatFileError` naming the file and the offending key.
    """
    ds = data
    path = Path(path)
    doc = _read_toml(path, FormatFileError, "format file")
    return format_from_mapping(
        doc,
        _Where(str(path), FormatFileError),
        registry=ds.formats,
        eras={e.id: e for e in ds.formats.eras()},
        families=ds.banlists.families(),
        as_of=ds.as_of,
        folder=path.parent,
        default_id=path.stem,
        builtin=False,
    )


def format_from_document(
    doc: Mapping[str, Any] | str, data: Dataset, source: str = "inline format"
) -> Format:
    """An organiser's format given as data: a format table, or the TOML text of a format file.

    The schema is that of format files (``docs/formats.md``), except that ``banlist`` (a path)
    is not allowed: there is no folder to read it from. Raises
    :class:`~deckcheck.error.FormatFileError` naming ``source`` and the offending key.
    """
    ds = data
    if isinstance(doc, str):
        if len(doc.encode("utf-8", "surrogatepass")) > MAX_FORMAT_FILE_BYTES:
            raise FormatFileError(f"{source}: over {MAX_FORMAT_FILE_BYTES // 1024} KiB")
        try:
            table: Mapping[str, Any] = tomllib.loads(doc)
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
        _Where(source, FormatFileError),
        registry=ds.formats,
        eras={e.id: e for e in ds.formats.eras()},
        families=ds.banlists.families(),
        as_of=ds.as_of,
        folder=None,
        default_id="inline",
        builtin=False,
    )
