"""Ban-list files: the project's TOML files (schema in ``banlists/README.md``) and EDOPro/YGOPro
``lflist.conf`` text, read and written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from pathlib import Path
from types import MappingProxyType
from typing import Any

from deckcheck.boundary import parse_toml, read_capped, read_number
from deckcheck.card.model import MAX_PASSCODE
from deckcheck.error import DataError
from deckcheck.rule.banlist.model import DEFAULT_POINT_CAP, SCHEMA, Banlist

MAX_LIST_FILE_BYTES = 16 << 20
"""Size cap of a ban-list file read from disk."""

_REQUIRED = ("family", "name", "effective", "sources")


def _fail(where: str, key: str, message: str) -> DataError:
    return DataError(f"{where}: {key}: {message}")


_KNOWN = frozenset(
    {
        *_REQUIRED,
        "schema",
        "label",
        "announced",
        "whitelist",
        "points",
        "point_cap",
        "note",
        "entries",
        "effective_eu",
        "approximate",
    }
)
"""Every key of a ban-list file."""


def _get_date(data: Mapping[str, Any], where: str, key: str) -> date | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise _fail(where, key, f"not a date: {value!r}")


def _get_str(data: Mapping[str, Any], where: str, key: str, optional: bool = False) -> str | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value:
        raise _fail(where, key, "must be a non-empty string")
    return value


def _get_bool(data: Mapping[str, Any], where: str, key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise _fail(where, key, "must be true or false")
    return value


def banlist_from_mapping(data: Mapping[str, Any], where: str = "<banlist>") -> Banlist:
    """Build a :class:`Banlist` from parsed file data, checking the schema.

    Raises :class:`DataError` naming ``where`` and the offending key (the keys are checked top
    to bottom, in the order of the schema).
    """
    if data.get("schema", SCHEMA) != SCHEMA:
        raise _fail(where, "schema", f"unsupported schema {data.get('schema')!r}")
    for key in _REQUIRED:
        if key not in data:
            raise _fail(where, key, "missing")
    for key in data:
        if key not in _KNOWN:
            raise _fail(where, key, "unknown key")
    family = _get_str(data, where, "family")
    name = _get_str(data, where, "name")
    label = _get_str(data, where, "label", optional=True)
    effective = _get_date(data, where, "effective")
    assert family is not None and name is not None
    if effective is None:
        raise _fail(where, "effective", "missing")
    sources = data["sources"]
    if not isinstance(sources, list) or not sources or not all(isinstance(s, str) for s in sources):
        raise _fail(where, "sources", "must be a non-empty list of strings")
    whitelist, points = _get_bool(data, where, "whitelist"), _get_bool(data, where, "points")
    approximate = _get_bool(data, where, "approximate")
    effective_eu = _get_date(data, where, "effective_eu")
    cap = _point_cap(data, where, points)
    note = data.get("note", "")
    if not isinstance(note, str):
        raise _fail(where, "note", "must be a string")
    entries, names, groups = _entries(data.get("entries", {}), where, points)
    return Banlist(
        family=family,
        name=name,
        label=label,
        effective=effective,
        announced=_get_date(data, where, "announced"),
        sources=tuple(sources),
        entries=MappingProxyType(entries),
        whitelist=whitelist,
        points=points,
        point_cap=cap if points else None,
        note=note,
        effective_eu=None if effective_eu == effective else effective_eu,
        approximate=approximate,
        groups=MappingProxyType(groups),
        names=MappingProxyType(names),
    )


def _point_cap(data: Mapping[str, Any], where: str, points: bool) -> int | None:
    """``point_cap``: a positive integer (a points list without one: the default cap)."""
    cap = data.get("point_cap")
    if cap is not None and (not isinstance(cap, int) or isinstance(cap, bool) or cap <= 0):
        raise _fail(where, "point_cap", "must be a positive integer")
    if points and cap is None:
        return DEFAULT_POINT_CAP
    return cap


def _entries(
    raw: Any, where: str, points: bool
) -> tuple[dict[int, int], dict[int, str], dict[int, int]]:
    """The ``entries`` table: status (or points), names and limit groups by passcode."""
    if not isinstance(raw, Mapping):
        raise _fail(where, "entries", "must be a table")
    entries: dict[int, int] = {}
    names: dict[int, str] = {}
    groups: dict[int, int] = {}
    for code_text, entry in raw.items():
        code = _entry_code(where, code_text, entry)
        entries[code] = _entry_value(where, f"entries.{code_text}", entry, points)
        if "group" in entry:
            group = entry["group"]
            if not isinstance(group, int) or isinstance(group, bool) or not 1 <= group <= 3:
                raise _fail(
                    where, f"entries.{code_text}", f"group must be 1, 2 or 3, not {group!r}"
                )
            groups[code] = group
        if isinstance(entry.get("name"), str):
            names[code] = entry["name"]
    return entries, names, groups


def _entry_code(where: str, code_text: Any, entry: Any) -> int:
    """The passcode of an entry's key (and the entry must be a table)."""
    ekey = f"entries.{str(code_text)[:40]}"
    code = read_number(str(code_text), MAX_PASSCODE)
    if code is None or code > MAX_PASSCODE:
        raise _fail(where, ekey, "key must be a passcode")
    if not isinstance(entry, Mapping):
        raise _fail(where, ekey, "must be a table like { status = 1, name = '...' }")
    return code


def _entry_value(where: str, ekey: str, entry: Mapping[str, Any], points: bool) -> int:
    """An entry's status (0..3) or points (>= 0); no keys but the value, name and group."""
    value_key = "points" if points else "status"
    value = entry.get(value_key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(where, ekey, f"{value_key} must be an integer")
    if not points and not 0 <= value <= 3:
        raise _fail(where, ekey, f"status must be 0..3, not {value}")
    if points and value < 0:
        raise _fail(where, ekey, "points must be >= 0")
    extra = set(entry) - {value_key, "name", "group"}
    if extra:
        raise _fail(where, ekey, f"unknown key(s) {sorted(extra)}")
    return value


def read_banlist_file(path: str | Path) -> Banlist:
    """Read one project ban-list file (TOML); :class:`DataError` names the file and key."""
    import tomllib  # here, not at the top: the bundled lists load pre-parsed

    path = Path(path)
    try:
        raw = read_capped(path, MAX_LIST_FILE_BYTES, refuse=lambda why: DataError(f"{path}: {why}"))
        data = parse_toml(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataError(f"{path}: cannot read ban list: {exc}") from exc
    return banlist_from_mapping(data, str(path))


def banlist_files(folder: str | Path) -> list[Path]:
    """Every ban-list file under ``folder`` (``*.toml``, recursively), sorted."""
    return sorted(Path(folder).rglob("*.toml"))


def read_banlist_dir(folder: str | Path) -> list[Banlist]:
    """Every ban list under ``folder``, sorted by family and effective date."""
    lists = [read_banlist_file(p) for p in banlist_files(folder)]
    return sorted(lists, key=lambda b: (b.family, b.effective, b.name))


def _toml_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def dump_banlist_toml(banlist: Banlist, header: str = "") -> str:
    """The project TOML text of a list (deterministic; ``header`` becomes leading comments)."""
    out: list[str] = [f"# {line}".rstrip() for line in header.splitlines()]
    out.append(f"schema = {SCHEMA}")
    out.append(f"family = {_toml_str(banlist.family)}")
    out.append(f"name = {_toml_str(banlist.name)}")
    if banlist.label:
        out.append(f"label = {_toml_str(banlist.label)}")
    out.append(f"effective = {banlist.effective.isoformat()}")
    if banlist.effective_eu:
        out.append(f"effective_eu = {banlist.effective_eu.isoformat()}")
    if banlist.approximate:
        out.append("approximate = true")
    if banlist.announced:
        out.append(f"announced = {banlist.announced.isoformat()}")
    out.append(f"whitelist = {'true' if banlist.whitelist else 'false'}")
    out.append(f"points = {'true' if banlist.points else 'false'}")
    if banlist.points and banlist.point_cap is not None:
        out.append(f"point_cap = {banlist.point_cap}")
    if banlist.note:
        out.append(f"note = {_toml_str(banlist.note)}")
    out.append("sources = [")
    out.extend(f"  {_toml_str(s)}," for s in banlist.sources)
    out.append("]")
    out.append("")
    out.append("[entries]")
    key = "points" if banlist.points else "status"
    for code in sorted(banlist.entries):
        name = banlist.names.get(code)
        name_part = f", name = {_toml_str(name)}" if name else ""
        group = banlist.groups.get(code)
        group_part = f", group = {group}" if group is not None else ""
        out.append(f"{code} = {{ {key} = {banlist.entries[code]}{group_part}{name_part} }}")
    return "\n".join(out) + "\n"


_GROUP_HEADER = re.compile(r"#\s*Limited\s+([123])\s*$", re.IGNORECASE)
_DATE_IN_NAME = re.compile(r"(\d{4})[.\-/](\d{1,2})(?:[.\-/](\d{1,2}))?")


def date_from_name(name: str) -> date | None:
    """The date a list name starts with (``2024.04 TCG`` -> 2024-04-01), if any."""
    m = _DATE_IN_NAME.search(name)
    if not m:
        return None
    try:
        return date(int(m[1]), int(m[2]), int(m[3] or 1))
    except ValueError:
        return None


def read_lflist(
    text: str,
    source: str = "<lflist.conf>",
    *,
    family: str = "custom",
    effective: date | None = None,
    problems: list[str] | None = None,
) -> list[Banlist]:
    """Parse ``lflist.conf`` text (EDOPro/YGOPro) into one :class:`Banlist` per ``!name`` section.

    Understands ``$whitelist``, ``$genesys`` and ``$pointcap N``; ``-1`` ("never allowed") is read
    as 0. A ``#Limited N`` comment header (N = 1, 2, 3; EDOPro's Speed Duel lists) starts a limit
    group: the cards under it, up to the next ``#`` header (``##`` lines are plain comments),
    share N copies in total (:attr:`Banlist.groups`). A list's effective date comes from its name
    (``!2024.04 TCG``), else ``effective``, else a :class:`DataError`. Duplicate passcodes in one
    section keep the last value. A malformed entry line raises :class:`DataError`, unless
    ``problems`` is given: then it is skipped and described there.
    """
    text = text.lstrip("\ufeff")
    sections: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    group: int | None = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("#") and not line.startswith("##"):
            m = _GROUP_HEADER.match(line)
            group = int(m[1]) if m else None
        elif not line or line.startswith(("#", "--")) or (line[0] == "[" and line[-1] == "]"):
            continue  # comments; a "[name]" header line missing its "#"
        elif line.startswith("!"):
            current = {
                "name": line[1:].strip(),
                "entries": {},
                "flags": set(),
                "cap": None,
                "groups": {},
            }
            sections.append(current)
            group = None
        elif current is None:
            raise DataError(f"{source}:{lineno}: entry before the first '!name' line")
        elif line.startswith("$"):
            _section_word(current, line, f"{source}:{lineno}")
        else:
            _entry_line(current, line, group, f"{source}:{lineno}", problems)
    return [_section_list(sec, source, family, effective) for sec in sections]


def _section_word(section: dict[str, Any], line: str, at: str) -> None:
    """A ``$`` line of a section: ``$pointcap N``, or a flag (``$whitelist``, ``$genesys``)."""
    word, _, arg = line[1:].partition(" ")
    word = word.lower()
    if word == "pointcap":
        try:
            section["cap"] = int(arg.split()[0])
        except (ValueError, IndexError):
            raise DataError(f"{at}: bad $pointcap line") from None
    else:
        section["flags"].add(word)


def _entry_line(
    section: dict[str, Any], line: str, group: int | None, at: str, problems: list[str] | None
) -> None:
    """An entry line ``<passcode> <count>`` of a section, in the limit group ``group``; a
    malformed one raises, or is described in ``problems`` when given."""
    body = line.split("--", 1)[0].split()
    try:
        code, value = int(body[0]), int(body[1])
    except (ValueError, IndexError):
        if problems is None:
            # the line is not echoed: the file named may be anything but a list
            raise DataError(f"{at}: expected '<passcode> <count>' (an lflist.conf entry)") from None
        # echoed only when it starts like an entry (a file named may be anything)
        got = f", got {line[:80]!r}" if line[:1].isdigit() else ""
        problems.append(f"{at}: expected '<passcode> <count>'{got}")
        return
    section["entries"][code] = max(value, 0)
    if group is not None:
        section["groups"][code] = group
    else:
        section["groups"].pop(code, None)


def _section_list(sec: dict[str, Any], source: str, family: str, effective: date | None) -> Banlist:
    """The :class:`Banlist` of one ``!name`` section (its date from its name, else
    ``effective``)."""
    when = date_from_name(sec["name"]) or effective
    if when is None:
        raise DataError(f"{source}: list {sec['name']!r}: no date in its name; give one")
    points = "genesys" in sec["flags"]
    return Banlist(
        family=family,
        name=sec["name"],
        label=None,
        effective=when,
        announced=None,
        sources=(source,),
        entries=MappingProxyType(dict(sec["entries"])),
        whitelist="whitelist" in sec["flags"],
        points=points,
        point_cap=(sec["cap"] or DEFAULT_POINT_CAP) if points else None,
        groups=MappingProxyType(dict(sec["groups"])),
    )


def dump_lflist(
    lists: Banlist | Iterable[Banlist], names: Callable[[int], str | None] | None = None
) -> str:
    """EDOPro ``lflist.conf`` text for one or more lists (``--name`` comments when known)."""
    items = [lists] if isinstance(lists, Banlist) else list(lists)
    out = ["#[" + "][".join(b.name for b in items) + "]"]
    for b in items:
        out.append(f"!{b.name}")
        if b.whitelist:
            out.append("$whitelist")
        if b.points:
            out.append("$genesys")
            out.append(f"$pointcap {b.point_cap or DEFAULT_POINT_CAP}")
        grouped = [c for c in sorted(b.entries) if c in b.groups]
        for code in sorted(b.entries):
            if code not in b.groups:
                out.append(_lflist_line(b, code, names))
        for n in sorted({b.groups[c] for c in grouped}):
            out.append(f"#Limited {n}")  # a limit group: N cards in total from it
            out.extend(_lflist_line(b, c, names) for c in grouped if b.groups[c] == n)
    return "\n".join(out) + "\n"


def _lflist_line(b: Banlist, code: int, names: Callable[[int], str | None] | None) -> str:
    name = b.names.get(code) or (names(code) if names else None)
    comment = f" --{name}" if name else ""
    return f"{code} {b.entries[code]}{comment}"
