"""The one rule for "is this a deck file?", shared by folder scans, zips and uploads.

Two questions, asked in this order:

1. **By its place and name** (:func:`folder_skip`, :func:`name_skip`): version-control folders
   are never entered nor mentioned; hidden folders (``.x/``), tool folders (:data:`TOOL_FOLDERS`,
   virtual environments) and macOS resource folders (``__MACOSX/``) are skipped with a reason;
   a name without a deck suffix (:data:`~deckcheck.deck.io.detect.DECK_SUFFIXES`) is not a deck
   and is not mentioned; a hidden file (``.x.ydk``, the AppleDouble ``._x.ydk`` of macOS) is
   skipped with a reason.
2. **By its content** (:func:`content_skip`, only for ``.json`` and ``.txt``, which are often
   not decks): a ``.json`` file is a deck only if it is deckcheck's JSON form, a ``.txt`` file
   only if it reads like a deck (most lines a card or a heading). At most :data:`SNIFF_BYTES`
   are looked at; a bigger file is skipped.

A scan turns a reason into a :class:`~deckcheck.source.record.Skipped` record, so the same
tree gives the same skips whether it is a folder, a zip on disk or an uploaded zip.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from deckcheck.error import DeckcheckError
from deckcheck.source.record import SkipReason, UnreadableReason

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset

SNIFF_BYTES = 1 << 20
"""Most bytes of a ``.json`` or ``.txt`` file read to decide whether it is a deck (the deck
readers' own cap, :data:`deckcheck.deck.io.MAX_INPUT_BYTES`)."""
VCS_FOLDERS = frozenset({".git", ".hg", ".svn", ".bzr"})
"""Version-control folders: never scanned, never mentioned."""
TOOL_FOLDERS = frozenset(
    {"node_modules", "__pycache__", "site-packages", "bower_components", "venv", "virtualenv"}
)
"""Folders of tools a scan skips (as it skips hidden folders and virtual environments)."""
SYSTEM_FOLDERS = frozenset({"__MACOSX"})
"""Folders an archiver adds (macOS resource forks): skipped."""
SNIFFED = (".json", ".txt")
"""Suffixes whose files are read to decide whether they are decks."""


def deck_suffixes() -> tuple[str, ...]:
    """The deck file suffixes (imported on use: the readers are not needed to start the CLI)."""
    from deckcheck.deck.io.detect import DECK_SUFFIXES

    return DECK_SUFFIXES


def is_vcs_folder(name: str) -> bool:
    """Whether a folder is a version-control folder (never entered, never mentioned)."""
    return name in VCS_FOLDERS


def folder_skip(name: str, is_venv: bool = False) -> SkipReason | None:
    """Why a folder named ``name`` is not entered; None: enter it (ask :func:`is_vcs_folder`
    first: a version-control folder is not entered and not mentioned)."""
    if name.startswith("."):
        return SkipReason.HIDDEN_FOLDER
    if name in SYSTEM_FOLDERS:
        return SkipReason.RESOURCE_FOLDER
    if name in TOOL_FOLDERS or is_venv:
        return SkipReason.TOOL_FOLDER
    return None


_LOOKALIKE = str.maketrans(
    {
        "\u0443": "y",
        "\u04af": "y",
        "\u03b3": "y",
        "\u0501": "d",
        "\u217e": "d",
        "\u043a": "k",
        "\u03ba": "k",
        "\u0435": "e",
        "\u0454": "e",
        "\u0445": "x",
        "\u03c7": "x",
        "\u0442": "t",
        "\u03c4": "t",
        "\u0455": "s",
        "\u0458": "j",
        "\u043e": "o",
        "\u03bf": "o",
        "\u0578": "n",
        "\u043f": "n",
        "\u043c": "m",
        "\u0430": "a",
        "\u03b1": "a",
        "\u0261": "g",
        "\u0456": "i",
        "\u2024": ".",
        "\u3002": ".",
        "\u200b": "",
        "\u200c": "",
        "\u200d": "",
        "\u2060": "",
        "\ufeff": "",
    }
)
"""Letters that look like the ASCII letters of deck suffixes (Cyrillic, Greek...), and
invisible characters: ``deck.уdk`` (a Cyrillic у) is a deck file to a user, so a scan takes it."""


def suffix_form(name: str) -> str:
    """The name as a user reads its suffix: NFKC (full-width letters), look-alike letters
    folded, invisible characters and trailing blanks and dots dropped, lower case."""
    if name.isascii():
        return name.rstrip(" .\t").lower()
    import unicodedata

    folded = unicodedata.normalize("NFKC", name).casefold().translate(_LOOKALIKE)
    return folded.rstrip(" .\t\u3000")


def is_deck_name(name: str) -> bool:
    """Whether a file name ends in a deck suffix (any case; also with trailing blanks, full-width
    or look-alike letters: a name a user reads as a deck file's)."""
    return suffix_form(name).endswith(deck_suffixes())


DECK_WORDS = ("deck", "ydk", "デッキ", "卡组", "卡組", "덱")
"""Words that make a ``.txt`` or ``.json`` file a deck by its name (``my-deck.txt``)."""


def deck_named(name: str) -> bool:
    """Whether a file's own name says it is a deck (its stem holds :data:`DECK_WORDS`)."""
    stem = suffix_form(name.replace("\\", "/").rsplit("/", 1)[-1]).rsplit(".", 1)[0]
    return any(w in stem for w in DECK_WORDS)


def refusal(name: str, skip: SkipReason | None) -> tuple[str, UnreadableReason] | None:
    """The error (message and code) to report instead of ``skip`` when the file looks like a
    deck by its name: a deck-named ``.txt``/``.json`` file that fails the content test is
    unreadable, never skipped."""
    if skip not in _CONTENT_SKIPS or skip is None or not deck_named(name):
        return None
    if skip is SkipReason.TOO_BIG_TO_SNIFF:
        return f"named like a deck, but {skip.meaning}", UnreadableReason.TOO_LARGE
    return f"named like a deck, but {skip.meaning}", UnreadableReason.NOT_A_DECK


_CONTENT_SKIPS = (SkipReason.NOT_DECK_LIST, SkipReason.NOT_DECK_JSON, SkipReason.TOO_BIG_TO_SNIFF)


def name_skip(name: str) -> SkipReason | None:
    """Why a file named ``name`` (with a deck suffix) is skipped by its name, or None."""
    if name.startswith("."):
        return SkipReason.HIDDEN_FILE  # also the AppleDouble "._x.ydk" files of macOS
    return None


def needs_sniff(name: str) -> bool:
    """Whether a file's content decides if it is a deck (``.json``, ``.txt``)."""
    return suffix_form(name).endswith(SNIFFED)


def content_skip(name: str, raw: bytes, data: Dataset | None = None) -> SkipReason | None:
    """Why a ``.json`` or ``.txt`` file holding ``raw`` is not a deck, or None (it is, or it is
    not a sniffed kind). ``raw`` over :data:`SNIFF_BYTES` is too big."""
    lower = suffix_form(name)
    if not lower.endswith(SNIFFED):
        return None
    if len(raw) > SNIFF_BYTES:
        return SkipReason.TOO_BIG_TO_SNIFF
    if lower.endswith(".json"):
        return None if is_json_deck(raw) else SkipReason.NOT_DECK_JSON
    return None if _text_deck(raw, data) else SkipReason.NOT_DECK_LIST


def is_json_deck(raw: bytes) -> bool:
    """Whether ``raw`` is deckcheck's JSON deck form (an object with a ``deckcheck`` key)."""
    try:
        doc = json.loads(raw)
    except (ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and "deckcheck" in doc


def _text_deck(raw: bytes, data: Dataset | None) -> bool:
    """Whether a ``.txt`` file reads like a deck (any deck format, or a text list)."""
    from deckcheck.data.dataset import resolve_data
    from deckcheck.deck.io.builder import decode_input
    from deckcheck.deck.io.detect import DeckFormat, detect_text
    from deckcheck.deck.io.text import looks_like_deck

    try:
        text = decode_input(raw)
    except DeckcheckError:
        return True  # the reader says why it cannot be read
    kind = detect_text(text)
    if kind is DeckFormat.JSON:
        return is_json_deck(raw)
    if kind is not DeckFormat.TEXT:
        return True
    return looks_like_deck(text, resolve_data(data).cards)
