"""The one schema of format tables: built-in ``[[era]]``/``[[format]]`` tables and organisers'
format files are read by :func:`format_from_mapping` (and :func:`era_from_mapping` for era
rules), so a key means the same in both. The schema is documented in ``docs/formats.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import date
from pathlib import Path
from typing import Any

from msgspec import Struct, structs

from deckcheck.boundary import read_capped
from deckcheck.error import DataError, DeckcheckError, UnknownFormatError
from deckcheck.rule.banlist import Banlist, TcgRegion, read_banlist_file, read_lflist
from deckcheck.rule.format.model import Derivation, Era, Format, Pool, SizeRule
from deckcheck.rule.format.registry import FormatRegistry, timeline_of

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


class Where(Struct, frozen=True):
    """Where a table came from, and which error class its problems raise."""

    name: str
    error: type[DataError]

    def bad(self, key: str, msg: str) -> DataError:
        """The error for a problem of ``key``: the table's place, the key and ``msg``."""
        return self.error(f"{self.name}: {key}: {msg}")


def _int(where: Where, key: str, value: Any, *, low: int = 0, high: int = 1000) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise where.bad(key, "must be an integer")
    if not low <= value <= high:
        raise where.bad(key, f"must be from {low} to {high}")
    return value


def _size_rule(where: Where, key: str, value: Any, old: SizeRule | None) -> SizeRule:
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


def _date(where: Where, key: str, value: Any) -> date:
    if not isinstance(value, date) or not isinstance(value, date):
        raise where.bad(key, "must be a TOML date (YYYY-MM-DD)")
    return value


def _str(where: Where, key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise where.bad(key, "must be a string")
    return value


def _bool(where: Where, key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise where.bad(key, "must be true or false")
    return value


def _confidence(where: Where, key: str, value: Any) -> str:
    if value not in CONFIDENCE:
        raise where.bad(key, f"must be one of {', '.join(CONFIDENCE)}")
    return str(value)


def _hand_limit(where: Where, key: str, value: Any) -> int | None:
    return None if value == "none" else _int(where, key, value, low=1, high=100)


def _ranged(low: int, high: int) -> Callable[[Where, str, Any], int]:
    return lambda where, key, value: _int(where, key, value, low=low, high=high)


_ERA_VALUES: dict[str, Callable[[Where, str, Any], Any]] = {
    "first_player_draws": _bool,
    "house": _bool,
    "name": _str,
    "note": _str,
    "provenance": _str,
    "id": _str,
    "confidence": _confidence,
    "ocg_from": _date,
    "tcg_from": _date,
    "hand_limit": _hand_limit,
    "hand_size": _ranged(0, 60),
    "draw_per_turn": _ranged(0, 60),
    "draw_up_to": _ranged(1, 60),
    "life_points": _ranged(1, 10_000_000),
}
"""How each era key other than the sizes is read (and range-checked)."""


def era_from_mapping(
    raw: Mapping[str, Any], where: Where, base: Era | None, *, prefix: str = "", builtin: bool
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
        elif key in _ERA_VALUES:
            changes[key] = _ERA_VALUES[key](where, at, value)
    if base is not None:
        return structs.replace(base, **changes)
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


class _Table(Struct, frozen=True):
    """A format table being read: its keys, and where problems point."""

    data: Mapping[str, Any]
    where: Where

    def bad(self, key: str, msg: str) -> DataError:
        """:meth:`Where.bad` of the table's place."""
        return self.where.bad(key, msg)

    def typed(self, key: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
        """The value of ``key`` (``default`` when absent; None stays None), of type ``kind``."""
        value = self.data.get(key, default)
        if value is None:
            return None
        if isinstance(value, bool) and kind is int:
            raise self.bad(key, "must be an integer")
        if not isinstance(value, kind):
            raise self.bad(key, f"wrong type {type(value).__name__}")
        return value


def format_from_mapping(
    data: Mapping[str, Any],
    where: Where,
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
    ``banlist`` path is looked up. Problems raise ``where.error`` naming the key, read top to
    bottom in the order of the schema.
    """
    t = _Table(data, where)
    for key in data:
        if key not in FORMAT_KEYS:
            raise t.bad(key, f"unknown key (known: {', '.join(sorted(FORMAT_KEYS))})")
    base = _base(t, registry)
    fields = _identity(t, default_id, builtin)
    region = _regions(t, fields, base)
    era = _era(t, fields, eras, base, region)
    if data.get("rules") is not None:
        fields["era"] = _rules(t, fields["id"], eras, era or base, region, as_of)
    _pool(t, fields)
    _extras(t, fields)
    _lists(t, fields, families, folder)
    if base is None:
        if "era" not in fields and "timeline" not in fields:
            raise t.bad("era", f"give an era ('{BY_DATE}' for the official one) or a base format")
        return Format(**fields)
    return structs.replace(base, **fields)


def _base(t: _Table, registry: FormatRegistry | None) -> Format | None:
    """The format named by ``base`` (None without one)."""
    if "base" not in t.data:
        return None
    if registry is None:
        raise t.bad("base", "not allowed in the built-in formats")
    try:
        return registry.get(_str(t.where, "base", t.data["base"]))
    except UnknownFormatError as exc:
        raise t.bad("base", str(exc)) from None


def _identity(t: _Table, default_id: str, builtin: bool) -> dict[str, Any]:
    """The format's id, name and aliases (the first fields)."""
    fmt_id = t.typed("id", str) or default_id
    if not fmt_id.strip():
        raise t.bad("id", "must not be empty")
    fields: dict[str, Any] = {
        "id": fmt_id,
        "name": t.typed("name", str) or fmt_id,
        "is_era": False,
        "custom": not builtin,
    }
    aliases = t.typed("aliases", list, [])
    if not all(isinstance(a, str) and a.strip() for a in aliases):
        raise t.bad("aliases", "must be a list of non-empty strings")
    fields["aliases"] = tuple(aliases)
    return fields


def _regions(t: _Table, fields: dict[str, Any], base: Format | None) -> str:
    """``region`` and ``tcg_region`` into ``fields``; the format's region (given, or the
    base's, else ``tcg``)."""
    if "region" in t.data:
        region = t.typed("region", str)
        if region not in REGIONS:
            raise t.bad("region", "must be 'tcg' or 'ocg'")
        fields["region"] = region
    if "tcg_region" in t.data:
        tcg_region = t.typed("tcg_region", str)
        if tcg_region not in {r.value for r in TcgRegion}:
            raise t.bad("tcg_region", "must be 'na' (North America) or 'eu' (Europe)")
        fields["tcg_region"] = TcgRegion(tcg_region)
    return str(fields.get("region", base.region if base else "tcg"))


def _era(
    t: _Table, fields: dict[str, Any], eras: Mapping[str, Era], base: Format | None, region: str
) -> Era | None:
    """``era`` (an era id, or the official timeline ``by-date``) into ``fields``; the era
    named, if one is."""
    era_name = t.typed("era", str)
    if era_name is None:
        if base is not None and "region" in t.data and base.era is None:
            fields["timeline"] = timeline_of(eras.values(), region)
        return None
    if era_name.lower() == BY_DATE:
        fields["era"] = None
        fields["timeline"] = timeline_of(eras.values(), region)
        return None
    era = eras.get(era_name.lower())
    if era is None:
        raise t.bad("era", f"unknown era {era_name!r}; eras: {', '.join(eras)}, {BY_DATE}")
    fields["era"] = era
    return era


def _rules(
    t: _Table,
    fmt_id: str,
    eras: Mapping[str, Era],
    over: Era | Format | None,
    region: str,
    as_of: date,
) -> Era:
    """The house era of a ``rules`` table: its keys over the era named, the base format's era
    (at ``as_of``), the region's latest official era (``by-date``) or Master Rule 2020."""
    rules = t.data["rules"]
    if not isinstance(rules, Mapping):
        raise t.bad("rules", "must be a table")
    if isinstance(over, Era):
        start = over
    elif over is not None:
        start = over.era_at(as_of)
    elif t.typed("era", str) is not None:
        start = timeline_of(eras.values(), region)[-1][1]
    else:
        start = eras["mr2020"]
    custom = era_from_mapping(rules, t.where, start, prefix="rules.", builtin=False)
    return structs.replace(
        custom,
        id=f"{fmt_id}-rules",
        house=True,
        name=rules.get("name", f"{start.name} (organiser overrides)"),
        provenance=f"organiser format file ({fmt_id})",
    )


def _pool(t: _Table, fields: dict[str, Any]) -> None:
    """The card pool and the deck rules: ``pool``, ``copy_limit``, ``point_cap``,
    ``skill_cards``, ``forbidden_types``, ``pool_date``, ``banlist_date``."""
    data, where = t.data, t.where
    if "pool" in data:
        try:
            fields["pool"] = Pool(str(data["pool"]).lower())
        except ValueError:
            raise t.bad(
                "pool", f"unknown pool; pools: {', '.join(p.value for p in Pool)}"
            ) from None
    for key, low, high in (
        ("copy_limit", 1, 60),
        ("point_cap", 0, 1_000_000),
        ("skill_cards", 0, 60),
    ):
        if key in data:
            fields[key] = _int(where, key, data[key], low=low, high=high)
    if "forbidden_types" in data:
        types = t.typed("forbidden_types", list)
        if not all(isinstance(x, str) for x in types):
            raise t.bad("forbidden_types", "must be a list of strings")
        fields["forbidden_types"] = frozenset(x.lower() for x in types)
    for key in ("pool_date", "banlist_date"):
        if key in data:
            fields["pool_date" if key == "pool_date" else "list_date"] = _date(
                where, key, data[key]
            )


def _extras(t: _Table, fields: dict[str, Any]) -> None:
    """``note``, ``provenance``, ``confidence``, ``legend_rule``, ``limit_groups``,
    ``derivation``."""
    data, where = t.data, t.where
    for key in ("note", "provenance"):
        if key in data:
            fields[key] = _str(where, key, data[key])
    if "confidence" in data:
        fields["confidence"] = _confidence(where, "confidence", data["confidence"])
    if "legend_rule" in data:
        fields["legend_rule"] = _bool(where, "legend_rule", data["legend_rule"])
    if "limit_groups" in data:
        groups = data["limit_groups"]
        if not isinstance(groups, Mapping):
            raise t.bad("limit_groups", "must be a table of group = slots")
        fields["limit_groups"] = {
            str(k): _int(where, f"limit_groups.{k}", v, high=60) for k, v in groups.items()
        }
    if "derivation" in data:
        try:
            fields["derivation"] = Derivation(_str(where, "derivation", data["derivation"]))
        except ValueError:
            valid = ", ".join(d.value for d in Derivation)
            raise t.bad("derivation", f"unknown derivation; valid: {valid}") from None


def _lists(t: _Table, fields: dict[str, Any], families: Iterable[str], folder: Path | None) -> None:
    """The ban list: ``banlist_family``, or the lists of a ``banlist`` file."""
    if "banlist_family" in t.data:
        fam = t.typed("banlist_family", str)
        derivation = fields.get("derivation", Derivation.DIRECT)
        known = sorted(families)
        if derivation in (Derivation.DIRECT, Derivation.FIXED) and fam not in (*known, "none"):
            raise t.bad("banlist_family", f"unknown family; known: {', '.join(known)}")
        fields["family"] = None if fam == "none" else fam
        fields.setdefault("derivation", Derivation.DIRECT)
    if "banlist" in t.data:
        if folder is None:
            raise t.bad("banlist", "not allowed here")
        problems: list[str] = []
        fields["custom_lists"] = _read_lists(
            t.where, folder, t.typed("banlist", str), t.typed("banlist_name", str), problems
        )
        fields["warnings"] = tuple(problems)


def _read_lists(
    where: Where, folder: Path, ref: str, section: str | None, problems: list[str]
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
    text = _list_text(where, target, ref)
    if isinstance(text, Banlist):
        return (text,)
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


def _list_text(where: Where, target: Path, ref: str) -> str | Banlist:
    """The text of the ``lflist.conf`` at ``target``, or the list of a project TOML file."""
    try:
        if target.stat().st_size > MAX_FORMAT_FILE_BYTES:
            raise where.bad("banlist", f"{ref} is over {MAX_FORMAT_FILE_BYTES // 1024} KiB")
        if target.suffix == ".toml":
            return read_banlist_file(target)
        raw = read_capped(target, MAX_FORMAT_FILE_BYTES + 1)
        if len(raw) > MAX_FORMAT_FILE_BYTES:
            raise where.bad("banlist", f"{ref} is over {MAX_FORMAT_FILE_BYTES // 1024} KiB")
        return raw.decode("utf-8-sig")
    except OSError as exc:
        raise where.bad("banlist", f"cannot read {ref}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise where.bad("banlist", f"{ref} is not UTF-8 text") from None
    except DeckcheckError as exc:
        raise where.bad("banlist", str(exc)) from None
