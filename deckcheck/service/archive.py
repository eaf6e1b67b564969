"""A small, safe reader of uploaded zip files: deck sources from memory, never from disk.

Nothing is extracted: each entry is read into memory, bounded, and becomes a
:class:`~deckcheck.run.batch.Source` of kind ``memory``. The caps hold whatever the zip's headers
claim, because every read is bounded by the bytes still allowed:

* at most ``max_entries`` entries (else :class:`~deckcheck.error.LimitError`);
* at most ``max_bytes`` uncompressed bytes over all decks read (else ``LimitError``);
* one entry over :data:`~deckcheck.deck.io.MAX_INPUT_BYTES`, encrypted, a symbolic link, in an
  unsupported compression, or with a compression ratio over ``max_ratio`` (a zip bomb) is an
  unreadable source (the rules of :func:`deckcheck.source.archive.entry_problem`), and the others
  are
  still checked;
* names are only labels: absolute paths, ``..`` parts and drive letters are reported as unsafe
  and not read (no zip slip can happen, as nothing is written, but such a name is not trusted);
* folders, ``__MACOSX/`` and hidden files, files that are not decks by their suffix, and
  ``.json`` files that are not deckcheck decks are skipped, with a reason.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import PurePosixPath

from deckcheck.deck.io import MAX_INPUT_BYTES
from deckcheck.deck.io.detect import DECK_SUFFIXES
from deckcheck.error import InputError, LimitError
from deckcheck.run.batch import Source, SourceKind
from deckcheck.source.archive import display_name, entry_problem, unsafe_reason

RATIO_FLOOR = 64 * 1024
"""Entries smaller than this are never refused for their compression ratio."""


def _skip(name: str) -> str | None:
    path = PurePosixPath(name.replace("\\", "/"))
    if any(p.startswith(".") or p == "__MACOSX" for p in path.parts):
        return "hidden or system file"
    if path.suffix.lower() not in DECK_SUFFIXES:
        return f"not a deck file ({', '.join(DECK_SUFFIXES)})"
    return None


def _not_a_deck_json(name: str, raw: bytes) -> str | None:
    if not name.lower().endswith(".json"):
        return None
    try:
        doc = json.loads(raw)
    except (ValueError, RecursionError):
        return None  # unreadable: the reader says why
    if isinstance(doc, dict) and "deckcheck" in doc:
        return None
    return "not a deckcheck deck JSON file"


def read_zip(
    raw: bytes,
    *,
    max_entries: int,
    max_bytes: int,
    max_ratio: int,
    max_entry_bytes: int = MAX_INPUT_BYTES,
) -> list[Source]:
    """The deck sources of a zip held in ``raw`` (see the module docstring for the caps).

    Raises :class:`~deckcheck.error.InputError` when ``raw`` is not a zip, and
    :class:`~deckcheck.error.LimitError` over the entry or byte caps.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise InputError(f"the upload is not a readable zip file: {exc}") from None
    if len(infos) > max_entries:
        raise LimitError(
            f"the zip holds {len(infos)} entries; the limit is {max_entries}",
            "max_zip_entries",
            max_entries,
        )
    out: list[Source] = []
    budget = max_bytes
    too_big = f"over the {max_entry_bytes} byte limit of a deck"
    with archive:
        for info in infos:
            name = display_name(info)
            if info.is_dir():
                continue
            unsafe = unsafe_reason(name)
            if unsafe is not None:
                out.append(Source(SourceKind.MEMORY, name, error=unsafe))
                continue
            skip = _skip(name)
            if skip is not None:
                out.append(Source(SourceKind.MEMORY, name, skip=skip))
                continue
            # the per-entry rules every zip reader shares (symlink, encryption, compression
            # method, declared size, declared ratio)
            problem = entry_problem(info, max_entry_bytes, max_ratio)
            if problem is not None:
                out.append(Source(SourceKind.MEMORY, name, error=problem))
                continue
            cap = min(max_entry_bytes, budget)
            try:
                with archive.open(info) as handle:
                    data = handle.read(cap + 1)
            except (zipfile.BadZipFile, NotImplementedError, OSError, EOFError,
                    ValueError, RuntimeError) as exc:  # fmt: skip
                out.append(Source(SourceKind.MEMORY, name, error=f"cannot read entry: {exc}"))
                continue
            if len(data) > cap:
                if cap < max_entry_bytes:
                    raise LimitError(
                        f"the decks in the zip are over {max_bytes} bytes uncompressed",
                        "max_zip_bytes",
                        max_bytes,
                    )
                out.append(Source(SourceKind.MEMORY, name, error=too_big))
                continue
            budget -= len(data)
            if len(data) > RATIO_FLOOR and len(data) > max_ratio * max(info.compress_size, 1):
                bomb = f"compression ratio over {max_ratio} (zip bomb?)"
                out.append(Source(SourceKind.MEMORY, name, error=bomb))
                continue
            reason = _not_a_deck_json(name, data)
            if reason is not None:
                out.append(Source(SourceKind.MEMORY, name, skip=reason))
                continue
            out.append(Source.memory(name, data))
    return out
