"""The projected source files: the upstream per-card folders, one line per card.

Two upstream repositories hold their cards one file each, thousands of them (yaml-yugi: 196 MB,
YGOJSON: 220 MB). The builders read a projection of them instead, one JSON object a line, as
the source-data README describes (sections 1.2 and 1.3); the project publishes these files as
assets of its ``sources`` release (:data:`deckcheck.data.source_list.ASSET_BASE`), made by
:func:`project` from shallow clones of the repositories (``scripts/project_sources.py``, run by
the data-release workflow):

* yaml-yugi ``data/cards/*.json`` -> ``cards.min.jsonl``: every top-level field except
  :data:`YAML_YUGI_DROPPED`; from ``sets`` (``{locale: [{set_number, ...}, ...]}``) it keeps
  ``printed_in`` (the locales with printings, sorted) and ``first_print_numbers`` ({locale: the
  first listed set number, ``""`` for an old set without numbers}); ``_file`` is the source
  file's name. Lines in file-name order.
  ``data/rush/*.json`` -> ``rush.min.jsonl`` the same way, without the two set fields.
* YGOJSON ``v1/individual`` ``cards/*.json`` -> ``cards.min.jsonl``: the fields
  :data:`YGOJSON_CARD_FIELDS` (null when absent), those of :data:`YGOJSON_CARD_OPTIONAL` that
  the card has, and ``firstReleaseFromSets``: per format (``tcg``, ``ocg``) and per locale
  (``locale:<key>``) the earliest date of a set locale that printed the card. Lines by first
  passcode (cards without one last), then ``id``.
* YGOJSON ``sets/*.json`` -> ``sets.min.jsonl``: ``id``, ``name_en``, and per locale its
  ``language``, ``prefix``, ``date`` and the ``formats`` its contents were printed in. Lines
  by ``id``.

And :func:`cut_section` takes one list out of a multi-list ``lflist.conf`` (the fixed
``2011.3.1`` list of Fluorohydride's 2012 file). Every file is read with a size cap; a file
that is not what it should be is a :class:`~deckcheck.error.DataError` naming it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckcheck.error import DataError

YAML_YUGI_DROPPED = ("text", "pendulum_effect", "materials_text", "images", "sets")
"""The top-level fields of a yaml-yugi card the projection leaves out."""
YGOJSON_CARD_FIELDS = (
    "id",
    "passwords",
    "name",
    "cardType",
    "classifications",
    "subcategory",
    "attribute",
    "type",
    "level",
    "rank",
    "linkArrows",
    "scale",
    "legality",
    "externalIDs",
    "illegal",
    "videoGameOnly",
)
"""The fields of a YGOJSON card kept in every line (null when the card has none)."""
YGOJSON_CARD_OPTIONAL = ("monsterCardTypes", "abilities", "character", "skillType")
"""The fields of a YGOJSON card kept only when the card has them."""
RELEASE_FORMATS = ("tcg", "ocg")
"""The formats ``firstReleaseFromSets`` gives a date for."""
MAX_FILE_BYTES = 8 << 20
"""Size cap of one upstream file."""
ASSETS = {
    "yaml-yugi-cards": "yaml-yugi-cards.min.jsonl",
    "yaml-yugi-rush": "yaml-yugi-rush.min.jsonl",
    "ygojson-cards": "ygojson-cards.min.jsonl",
    "ygojson-sets": "ygojson-sets.min.jsonl",
    "fluorohydride-2011": "fluorohydride-2011.3.1.lflist.conf",
}
"""The file names :func:`project` writes: the asset names of the source list."""
FLUOROHYDRIDE_2011 = (
    "Fluorohydride/ygopro",
    "47d118575d239471a525bc718d6367d6c86229d6",
    "2011.3.1",
)
"""The fixed historical list: repository, commit of its ``lflist.conf``, section name."""


@dataclass(frozen=True, slots=True)
class Projected:
    """What :func:`project` wrote."""

    files: Mapping[str, Path]
    """Asset name -> the file written."""
    lines: Mapping[str, int]
    """Asset name -> its number of lines (cards, sets; list lines for an lflist)."""


def read_json(path: Path) -> dict[str, Any]:
    """One upstream JSON file, which must hold an object; :class:`DataError` naming it."""
    from deckcheck.boundary import read_capped

    try:
        raw = read_capped(
            path,
            MAX_FILE_BYTES,
            refuse=lambda why: DataError(f"{path}: {why}"),
            over=lambda _: DataError(f"{path}: over the {MAX_FILE_BYTES:,}-byte cap"),
        )
        doc = json.loads(raw)
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except ValueError as exc:  # bad JSON or bad UTF-8
        raise DataError(f"{path}: not valid JSON: {exc}") from exc
    if not isinstance(doc, dict):
        raise DataError(f"{path}: not a JSON object (a {type(doc).__name__})")
    return doc


def _files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        raise DataError(f"{folder}: no such folder (a clone of the upstream repository?)")
    return sorted((p for p in folder.iterdir() if p.suffix == ".json"), key=lambda p: p.name)


def project_yaml_yugi_card(doc: Mapping[str, Any], file_name: str, sets: bool) -> dict[str, Any]:
    """One yaml-yugi card as its projected line (``sets``: add the two set fields)."""
    out = {k: v for k, v in doc.items() if k not in YAML_YUGI_DROPPED}
    if sets:
        printings = doc.get("sets") or {}
        if not isinstance(printings, dict):
            raise ValueError("sets is not an object")
        out["printed_in"] = sorted(loc for loc, items in printings.items() if items)
        out["first_print_numbers"] = {
            loc: items[0].get("set_number") for loc, items in printings.items() if items
        }
    out["_file"] = file_name
    return out


def project_yaml_yugi(folder: Path, out: Path, *, sets: bool = True) -> int:
    """Project a yaml-yugi card folder (``data/cards`` or, without ``sets``, ``data/rush``)
    into ``out``; returns the number of lines."""

    def lines() -> Iterator[dict[str, Any]]:
        for path in _files(folder):
            doc = read_json(path)
            with _shape(path):
                line = project_yaml_yugi_card(doc, path.name, sets)
            yield line

    return _write(out, lines())


def first_releases(sets: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, str]]:
    """Card id -> ``firstReleaseFromSets``: per format and per ``locale:<key>`` the earliest
    date of a set locale that printed it (keys sorted)."""
    found: dict[str, dict[str, str]] = {}
    for s in sets:
        locales = s.get("locales") or {}
        for content in s.get("contents") or ():
            formats = [f for f in content.get("formats") or () if f in RELEASE_FORMATS]
            dates = [
                (key, locales[key]["date"])
                for key in content.get("locales", list(locales))
                if key in locales and locales[key].get("date")
            ]
            for printing in content.get("cards") or ():
                seen = found.setdefault(str(printing["card"]), {})
                for key, when in dates:
                    for name in (f"locale:{key}", *formats):
                        if name not in seen or when < seen[name]:
                            seen[name] = when
    return {card: dict(sorted(d.items())) for card, d in found.items()}


def project_ygojson_card(doc: Mapping[str, Any], first: Mapping[str, str]) -> dict[str, Any]:
    """One YGOJSON card as its projected line; ``first`` is its ``firstReleaseFromSets``."""
    out = {k: doc.get(k) for k in YGOJSON_CARD_FIELDS}
    out.update((k, doc[k]) for k in YGOJSON_CARD_OPTIONAL if k in doc)
    out["firstReleaseFromSets"] = dict(first)
    return out


def project_ygojson_set(doc: Mapping[str, Any]) -> dict[str, Any]:
    """One YGOJSON set as its projected line."""
    names = doc.get("name") or {}
    locales: dict[str, Any] = {}
    for key, loc in (doc.get("locales") or {}).items():
        formats: list[str] = []
        for content in doc.get("contents") or ():
            if key in content.get("locales", [key]):
                formats += [f for f in content.get("formats") or () if f not in formats]
        locales[key] = {
            "language": loc.get("language"),
            "prefix": loc.get("prefix"),
            "date": loc.get("date"),
            "formats": formats,
        }
    return {"id": doc["id"], "name_en": names.get("en"), "locales": locales}


def _card_order(line: Mapping[str, Any]) -> tuple[int, str, str]:
    passwords = line.get("passwords") or []
    return (0, str(passwords[0]), str(line["id"])) if passwords else (1, "", str(line["id"]))


def project_ygojson(root: Path, cards_out: Path, sets_out: Path) -> tuple[int, int]:
    """Project a YGOJSON ``v1/individual`` checkout (``cards/``, ``sets/``) into the card and
    set lines; returns the numbers of cards and sets."""
    sets = [(p, read_json(p)) for p in _files(root / "sets")]
    set_lines = []
    for path, doc in sets:  # each set checked on its own, so an error names its file
        with _shape(path):
            first_releases([doc])
            set_lines.append(project_ygojson_set(doc))
    set_lines.sort(key=lambda line: str(line["id"]))
    first = first_releases(doc for _, doc in sets)
    cards = []
    for path in _files(root / "cards"):
        doc = read_json(path)
        with _shape(path):
            cards.append(project_ygojson_card(doc, first.get(str(doc["id"]), {})))
    cards.sort(key=_card_order)
    return _write(cards_out, cards), _write(sets_out, set_lines)


def cut_section(text: str, name: str) -> str:
    """The list ``!name`` of a multi-list ``lflist.conf``, as a file of its own: a ``#[name]``
    header line, then its lines up to the next list (trailing blank lines dropped)."""
    lines = text.splitlines()
    try:
        start = lines.index(f"!{name}")
    except ValueError:
        raise DataError(f"no list !{name} in the lflist.conf") from None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("!")), len(lines))
    body = lines[start:end]
    while body and not body[-1].strip():
        body.pop()
    return "\n".join([f"#[{name}]", *body]) + "\n"


def project(
    out: Path,
    *,
    yaml_yugi: Path | None = None,
    ygojson: Path | None = None,
    lflist: Path | None = None,
) -> Projected:
    """Write the projected source files into ``out`` under their asset names (:data:`ASSETS`).

    ``yaml_yugi`` is a checkout of DawnbrandBots/yaml-yugi (``data/cards``, ``data/rush``);
    ``ygojson`` one of iconmaster5326/YGOJSON's ``v1/individual`` branch; ``lflist`` the
    ``lflist.conf`` of :data:`FLUOROHYDRIDE_2011` (its ``!2011.3.1`` list is cut out). Each is
    optional; raises :class:`DataError` naming a malformed file.
    """
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {}
    lines: dict[str, int] = {}

    def put(key: str, count: int) -> None:
        files[key], lines[key] = out / ASSETS[key], count

    if yaml_yugi is not None:
        data = yaml_yugi / "data"
        put("yaml-yugi-cards", project_yaml_yugi(data / "cards", out / ASSETS["yaml-yugi-cards"]))
        rush = out / ASSETS["yaml-yugi-rush"]
        put("yaml-yugi-rush", project_yaml_yugi(data / "rush", rush, sets=False))
    if ygojson is not None:
        cards, sets = out / ASSETS["ygojson-cards"], out / ASSETS["ygojson-sets"]
        n_cards, n_sets = project_ygojson(ygojson, cards, sets)
        put("ygojson-cards", n_cards)
        put("ygojson-sets", n_sets)
    if lflist is not None:
        text = _read_text(lflist)
        try:
            section = cut_section(text, FLUOROHYDRIDE_2011[2])
        except DataError as exc:
            raise DataError(f"{lflist}: {exc}") from exc
        (out / ASSETS["fluorohydride-2011"]).write_text(section, encoding="utf-8")
        put("fluorohydride-2011", section.count("\n"))
    return Projected(files, lines)


def _read_text(path: Path) -> str:
    from deckcheck.boundary import read_capped

    try:
        raw = read_capped(path, MAX_FILE_BYTES, refuse=lambda why: DataError(f"{path}: {why}"))
        return raw.decode("utf-8")
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text: {exc}") from exc


@contextmanager
def _shape(path: Path) -> Iterator[None]:
    """A malformed document (a field of the wrong shape) as a DataError naming ``path``."""
    try:
        yield
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise DataError(f"{path}: not a card or set file of the expected shape: {exc!r}") from exc


def _write(out: Path, lines: Iterable[Mapping[str, Any]]) -> int:
    """Write one JSON object a line (the upstream's spacing, UTF-8 as is); the line count."""
    count = 0
    tmp = out.with_name(out.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
            for line in lines:
                handle.write(json.dumps(line, ensure_ascii=False) + "\n")
                count += 1
        tmp.replace(out)
    finally:
        tmp.unlink(missing_ok=True)
    return count
