"""Upstream-shaped per-card files rebuilt from projected lines, for the projection's round trip.

yaml-yugi: each line back as ``<_file>``, with fake ``text``, ``images``, ``pendulum_effect`` and a
``sets`` object whose locales and first set numbers are the line's (more printings after the
first, and an empty locale, which the projection must ignore). YGOJSON: each card line back as
``cards/<id>.json`` with a fake ``text``, ``sets``, ``atk``; each set line as
``sets/<id>.json`` (its locales with images and ids, one content per format group); and each
card's ``firstReleaseFromSets`` as sets of its own that printed it on exactly those dates.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from deckcheck.data.builders.projection import RELEASE_FORMATS

FIELDS_ADDED = ("printed_in", "first_print_numbers", "_file")


def yaml_yugi_card(line: dict[str, Any], with_sets: bool) -> dict[str, Any]:
    """The upstream card file a yaml-yugi line came from (plus fields the projection drops)."""
    doc = {k: v for k, v in line.items() if k not in FIELDS_ADDED}
    doc["text"] = {"en": "Fake text.", "ja": "偽"}
    doc["pendulum_effect"] = {"en": "Fake pendulum effect."}
    doc["images"] = [{"index": 1, "image": "fake.png"}]
    if with_sets:
        sets: dict[str, list[dict[str, Any]]] = {"xx": []}  # a locale without printings
        for loc, number in line["first_print_numbers"].items():
            sets[loc] = [
                {"set_number": number, "set_name": "First", "rarities": ["Common"]},
                {"set_number": "LATER-000", "set_name": "Reprint", "rarities": ["Rare"]},
            ]
        doc["sets"] = sets
    return doc


def write_yaml_yugi(lines: list[dict[str, Any]], folder: Path, with_sets: bool) -> None:
    """Write the upstream files of ``lines`` into ``folder`` (shuffled order does not matter)."""
    folder.mkdir(parents=True, exist_ok=True)
    for line in reversed(lines):
        doc = yaml_yugi_card(line, with_sets)
        (folder / line["_file"]).write_text(json.dumps(doc, ensure_ascii=False), "utf-8")


def ygojson_set(line: dict[str, Any]) -> dict[str, Any]:
    """The upstream set file a YGOJSON set line came from (no cards: its printings are not
    kept in the projection)."""
    locales: dict[str, Any] = {}
    groups: dict[tuple[str, ...], list[str]] = {}
    for key, loc in line["locales"].items():
        full: dict[str, Any] = {"language": loc["language"], "cardImages": {}, "externalIDs": {}}
        if loc["prefix"] is not None:
            full["prefix"] = loc["prefix"]
        if loc["date"] is not None:
            full["date"] = loc["date"]
        locales[key] = full
        groups.setdefault(tuple(loc["formats"]), []).append(key)
    doc: dict[str, Any] = {
        "$schema": "https://example.org/set.json",
        "id": line["id"],
        "name": {"en": line["name_en"]} if line["name_en"] is not None else {"ja": "名"},
        "contents": [
            {"locales": keys, "formats": list(formats), "cards": [], "editions": ["1st"]}
            for formats, keys in groups.items()
        ],
        "externalIDs": {},
    }
    if locales:
        doc["locales"] = locales
    return doc


def _release_sets(line: dict[str, Any]) -> list[dict[str, Any]] | None:
    """Sets that print the card on exactly its ``firstReleaseFromSets`` dates (None when a
    format's date is no locale's date: not expressible this way)."""
    first = line["firstReleaseFromSets"]
    by_locale = {k.removeprefix("locale:"): v for k, v in first.items() if k.startswith("locale:")}
    formats: dict[str, list[str]] = {loc: [] for loc in by_locale}
    for fmt in RELEASE_FORMATS:
        if fmt in first:
            loc = next((k for k in sorted(by_locale) if by_locale[k] == first[fmt]), None)
            if loc is None:
                return None
            formats[loc].append(fmt)
    out = []
    for loc, when in by_locale.items():
        sid = f"release-{line['id']}-{loc}"
        out.append(
            {
                "id": sid,
                "name": {"en": sid},
                "locales": {loc: {"language": "en", "date": when, "cardImages": {}}},
                "contents": [
                    {
                        "locales": [loc],
                        "formats": formats[loc] or ["speed"],
                        "cards": [{"id": "p-" + sid, "card": line["id"], "rarity": "common"}],
                    },
                    # a later reprint must not move the date
                    {
                        "formats": ["tcg", "ocg"],
                        "locales": [],
                        "cards": [{"id": "q-" + sid, "card": line["id"]}],
                    },
                ],
            }
        )
    return out


def ygojson_card(line: dict[str, Any]) -> dict[str, Any]:
    """The upstream card file a YGOJSON card line came from (plus fields the projection drops)."""
    doc = {k: v for k, v in line.items() if k != "firstReleaseFromSets" and v is not None}
    doc["$schema"] = "https://example.org/card.json"
    doc["text"] = {"en": {"name": "x", "effect": "Fake."}}
    doc["sets"] = ["fake-set-id"]
    doc["atk"] = 1000
    return doc


def write_ygojson(
    cards: list[dict[str, Any]], sets: list[dict[str, Any]], root: Path
) -> list[dict[str, Any]]:
    """Write a ``v1/individual`` checkout of ``cards`` and ``sets`` under ``root``; returns the
    card lines it could express (a card whose format date is no locale's date is left out)."""
    (root / "cards").mkdir(parents=True, exist_ok=True)
    (root / "sets").mkdir(parents=True, exist_ok=True)
    kept = []
    for line in cards:
        extra = _release_sets(line)
        if extra is None:
            continue
        kept.append(line)
        (root / "cards" / f"{line['id']}.json").write_text(
            json.dumps(ygojson_card(line), ensure_ascii=False), "utf-8"
        )
        for s in extra:
            (root / "sets" / f"{s['id']}.json").write_text(json.dumps(s), "utf-8")
    for line in sets:
        (root / "sets" / f"{line['id']}.json").write_text(
            json.dumps(ygojson_set(line), ensure_ascii=False), "utf-8"
        )
    return kept
