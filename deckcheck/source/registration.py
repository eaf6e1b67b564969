"""Registrations: an organiser's CSV of players and their decks.

::

    player_id,player,deck,table
    0301234567,Ada Lovelace,decks/ada.ydk,12
    0307654321,Alan Turing,ydke://...,13
    0300000001,Grace Hopper,"3 Ash Blossom & Joyous Spring
    ...",14

The first row is the header. Columns are found by name (case, spaces, ``_`` and ``-`` do not
matter): **player id** (``player_id``, ``id``, ``konami_id``, ``cossy_id``), **player**
(``player``, ``player_name``, ``name``) and **deck** (``deck``, ``decklist``, ``deck_file``,
``file``, ``path``, ``ydke``; else the first header containing "deck", other than
``deck_name``); only the deck column is required. Failing the names listed, a header ending in
"id" is the player id and one containing "player" the player. Every other column passes
through to the reports. The separator is ``,``, ``;`` or a tab (whichever the header uses); the
file is UTF-8 (a BOM is fine) or UTF-16 with a BOM.

A deck cell is read as:

* a ``ydke://`` URL;
* an inline text list when it spans several lines;
* an Omega deck code (even when its base64 holds a ``/``), read as a deck before it is tried as
  a path;
* otherwise a path **relative to the CSV's folder** (``/`` or ``\\``); it may not be absolute or
  lead outside that folder (through ``..`` or a symbolic link);
* a single line that is not a path (no deck suffix, no separator, no such file) is read as a
  one-line deck (an Omega code, say).

One bad row never stops the rest: a row with no deck, a missing file or a path outside the folder
is an unreadable registration. A second row with the same player id (ignoring case and
surrounding spaces) is a **duplicate**: it is still checked, and its status says so. Limits:
:data:`MAX_CSV_BYTES` per file, :data:`MAX_ROWS` rows, cells up to the :mod:`csv` module's field
limit (128 KiB); over them the whole file is refused with the row named.
"""

from __future__ import annotations

import csv
import enum
import io
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from deckcheck.boundary import read_capped
from deckcheck.deck.io.detect import DECK_SUFFIXES
from deckcheck.error import InputError
from deckcheck.source.record import Registration as Registration
from deckcheck.source.record import Source, SourceKind, UnreadableReason

if TYPE_CHECKING:
    pass

MAX_CSV_BYTES = 64 << 20
"""Largest registrations CSV read (64 MiB)."""
MAX_ROWS = 100_000
"""Most registrations in one CSV."""

PLAYER_ID_COLUMNS = (
    "playerid",
    "id",
    "konamiid",
    "cossyid",
    "cardgameid",
    "kid",
    "spielerid",
    "yourkonamiid",
    "konamicardgamenetworkid",
    "konamicossyid",
)
PLAYER_COLUMNS = (
    "player",
    "playername",
    "name",
    "fullname",
    "yourname",
    "yourfullname",
    "spieler",
    "spielername",
    "vollständigername",
    "nom",
    "joueur",
    "nombre",
    "jugador",
    "firstandlastname",
    "nameandsurname",
)
DECK_COLUMNS = (
    "deck",
    "decklist",
    "deckfile",
    "file",
    "path",
    "ydke",
    "deckliste",
    "yourdeck",
    "yourdecklist",
    "uploadyourdecklist",
    "ydkfile",
)


class RegistrationError(InputError):
    """A registrations CSV that cannot be read as a whole (no deck column, too big, not text);
    ``line`` is the file's line where reading failed, where one did."""

    code = "bad-registrations"

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class Status(enum.StrEnum):
    """What became of one registration (a column of the batch reports; public API)."""

    LEGAL = "legal"
    ILLEGAL = "illegal"
    UNREADABLE = "unreadable"
    """The deck could not be read (missing file, bad data, unsafe path or archive entry)."""
    DUPLICATE = "duplicate"
    """The player id was already registered on an earlier row (the deck is still checked)."""
    SKIPPED = "skipped"
    """A file a folder or archive scan did not take for a deck (the CSV report's rows of
    skipped files; its skip code is in ``codes``)."""


def status_of(row: object, registration: Registration | None = None) -> Status:
    """The status of a batch row: duplicate, unreadable, legal or illegal (in that order).

    A row with a verdict (a checked deck's ``legal``) is legal or illegal; one without is
    unreadable (this stage reads the rows' verdicts, it does not import the run stage)."""
    reg = registration if registration is not None else getattr(row, "registration", None)
    if reg is not None and reg.duplicate_of is not None:
        return Status.DUPLICATE
    legal = getattr(row, "legal", None)
    if legal is None:
        return Status.UNREADABLE
    return Status.LEGAL if legal else Status.ILLEGAL


def _key(header: str) -> str:
    return re.sub(r"[\W_]+", "", header.casefold())


def _decode(raw: bytes, path: str) -> str:
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise RegistrationError(f"{path}: invalid UTF-16 text") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        why = "not UTF-8 text (save the CSV as UTF-8)"
        raise RegistrationError(f"{path}:{line}: {why}", line) from exc
    if "\0" in text:
        line = text.count("\n", 0, text.index("\0")) + 1
        raise RegistrationError(f"{path}:{line}: not a text file (NUL byte)", line)
    return text.removeprefix("\ufeff")


def _delimiter(header: str) -> str:
    counts = {d: header.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def _column(
    keys: list[str], names: tuple[str, ...], like: str | None = None, taken: tuple[int, ...] = ()
) -> int | None:
    """The column named one of ``names``, else the first whose name contains ``like``."""
    for name in names:
        if name in keys:
            return keys.index(name)
    if like is not None:
        for i, key in enumerate(keys):
            if like in key and i not in taken and key != "deckname":
                return i
    return None


def read_registrations(path: str | Path) -> list[Source]:
    """The deck sources of a registrations CSV, one per row, each carrying its registration.

    Raises :class:`RegistrationError` when the file cannot be used at all; a bad row becomes a
    source with an error (see the module's documentation).
    """
    name = str(path)
    try:
        raw = read_capped(
            path, MAX_CSV_BYTES, refuse=lambda why: RegistrationError(f"{name}: {why}")
        )
    except OSError as exc:
        raise RegistrationError(f"{name}: cannot read: {exc.strerror or exc}") from exc
    base = Path(name).parent
    return parse_registrations(raw, name, lambda cell, reg: _file_source(cell, base, reg))


def parse_registrations(
    raw: bytes, name: str, deck_file: Callable[[str, Registration], Source | None]
) -> list[Source]:
    """The sources of a registrations CSV's bytes (see :func:`read_registrations`).

    ``deck_file(cell, registration)`` turns a deck cell into the source of a deck file, or
    returns None when the cell is not a path (it is then read as an inline list).
    """
    if len(raw) > MAX_CSV_BYTES:
        raise RegistrationError(f"{name}: over the {MAX_CSV_BYTES} byte limit for a CSV")
    text = _decode(raw, name)
    first = text.split("\n", 1)[0]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(first))
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise RegistrationError(f"{name}:1: {exc}", 1) from exc
    if header is None or not any(h.strip() for h in header):
        raise RegistrationError(f"{name}: empty file; the first row must name the columns")
    cols = _Columns.of(header, name)
    seen: dict[str, int] = {}
    out: list[Source] = []
    line = reader.line_num + 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise RegistrationError(f"{name}:{reader.line_num}: {exc}", reader.line_num) from exc
        start, line = line, reader.line_num + 1
        if not any(c.strip() for c in cells):
            continue
        row = len(out) + 2  # the header is row 1
        if len(out) >= MAX_ROWS:
            raise RegistrationError(f"{name}: more than {MAX_ROWS} registrations")
        reg = cols.registration(name, row, cells, seen, start)
        out.append(_deck_source(reg, f"{name}:{row}", deck_file))
    return out


@dataclass(frozen=True, slots=True)
class _Columns:
    """Where the deck, player id and player are in a CSV's rows, and the other columns."""

    deck: int
    player_id: int | None
    player: int | None
    extra: tuple[tuple[int, str], ...]

    @classmethod
    def of(cls, header: list[str], name: str) -> _Columns:
        """The columns of a header row; RegistrationError without a deck column."""
        keys = [_key(h) for h in header]
        deck_col = _column(keys, DECK_COLUMNS, "deck")
        if deck_col is None:
            raise RegistrationError(
                f"{name}:1: no deck column; name one of: deck, decklist, deck_file, file, path, "
                "ydke (player_id and player columns are optional)"
            )
        id_col = _column(keys, PLAYER_ID_COLUMNS)
        if id_col is None:
            id_col = next(
                (
                    i
                    for i, k in enumerate(keys)
                    if i != deck_col and (k.endswith("id") or "konamiid" in k or "cossy" in k)
                ),
                None,
            )
        taken = tuple(i for i in (deck_col, id_col) if i is not None)
        player_col = _column(keys, PLAYER_COLUMNS, "player", taken)
        if player_col is None:  # a form's "Spielername", "Name (first and last)"
            player_col = _column(keys, (), "spieler", taken)
            player_col = player_col if player_col is not None else _column(keys, (), "name", taken)
        known = {deck_col, id_col, player_col}
        extra = tuple(
            (i, h.strip() or f"column {i + 1}") for i, h in enumerate(header) if i not in known
        )
        return cls(deck_col, id_col, player_col, extra)

    def registration(
        self, name: str, row: int, cells: list[str], seen: dict[str, int], line: int = 0
    ) -> Registration:
        """One row's registration (``seen``: the first row of each player id so far; ``line``:
        the line of the file the row starts on)."""

        def cell(i: int | None) -> str:
            return cells[i] if i is not None and i < len(cells) else ""

        pid = cell(self.player_id).strip()
        dup = None
        if pid:
            dup = seen.setdefault(pid.casefold(), row)
            dup = None if dup == row else dup
        return Registration(
            name,
            row,
            pid,
            cell(self.player).strip(),
            cell(self.deck),
            tuple((h, cell(i)) for i, h in self.extra),
            dup,
            line,
        )


def _deck_source(
    reg: Registration, label: str, deck_file: Callable[[str, Registration], Source | None]
) -> Source:
    """The source of a registration's deck cell: none given, a URL, a file, or an inline deck."""
    deck = reg.deck.strip()
    if not deck:
        return Source(
            SourceKind.FILE,
            reg.file,
            error="no deck given",
            display=label,
            registration=reg,
            code=UnreadableReason.NO_DECK_GIVEN,
        )
    if deck[:7].lower() == "ydke://":
        return Source(SourceKind.URL, deck, display=label, registration=reg)
    got = None if "\n" in deck or "\r" in deck else deck_file(deck, reg)
    return got or Source(
        SourceKind.INLINE, reg.file, content=reg.deck, display=label, registration=reg
    )


def is_deck_code(cell: str) -> bool:
    """Whether a one-line cell is a deck in a code form (a ``ydke://`` URL, an Omega code): such
    a cell is read as a deck, never as a path, even when it holds a ``/``."""
    text = cell.strip()
    if text[:7].lower() == "ydke://":
        return True
    if sniff_suffix(text) or len(text) < 8 or any(c.isspace() for c in text):
        return False
    from deckcheck.deck.io.omega import inflate_counted
    from deckcheck.error import DeckReadError

    try:
        inflate_counted(text, None)
    except DeckReadError:
        return False
    return True


def sniff_suffix(cell: str) -> bool:
    """Whether a cell ends in a deck file suffix (``.ydk``...)."""
    return cell.lower().endswith(DECK_SUFFIXES)


def _file_source(cell: str, base: Path, reg: Registration) -> Source | None:
    if is_deck_code(cell) or not _looks_like_path(cell, base):
        return None
    file, error = _deck_path(cell, base)
    code = None if error is None else UnreadableReason.BAD_DECK_PATH
    return Source(SourceKind.FILE, file, error=error, display=file, registration=reg, code=code)


def _looks_like_path(cell: str, base: Path) -> bool:
    if cell.lower().endswith(DECK_SUFFIXES) or "/" in cell or "\\" in cell:
        return True
    try:
        return (base / cell).is_file()
    except (OSError, ValueError):
        return False


def _deck_path(cell: str, base: Path) -> tuple[str, str | None]:
    """The file a deck cell names (relative to ``base``) and why it may not be read, if so."""
    rel = cell.replace("\\", "/")
    shown = str(base / rel) if str(base) not in ("", ".") else rel
    if rel.startswith("/") or (len(rel) > 1 and rel[1] == ":") or os.path.isabs(cell):
        return cell, "absolute deck path (paths are relative to the CSV's folder)"
    try:
        root = base.resolve()
        target = (base / rel).resolve()
    except (OSError, RuntimeError, ValueError) as exc:
        return shown, f"cannot resolve the deck path: {exc}"
    if not target.is_relative_to(root):
        return shown, "deck path leads outside the CSV's folder (refused)"
    try:
        if not target.is_file():
            return shown, "no such deck file" if not target.exists() else "not a file"
    except (OSError, ValueError) as exc:
        return shown, f"cannot read: {exc}"
    return shown, None
