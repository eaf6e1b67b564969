"""The Dataset: every fact deckcheck checks against, in one frozen object.

A dataset is a folder (a *bundle*) holding the card index (``cards.jsonl``, ``names.json``), the
ban-list bundle (``banlists.json``), the built-in eras and formats (``formats.toml``) and a
``manifest.json`` that names the data's ``as_of`` date, its sources and a sha256 per file. The
dataset's :attr:`~Dataset.fingerprint` is the sha256 of the manifest, so it changes whenever any
file does; the service uses it as its ETag and every report is stamped with it.

Every public entry point (``validate``, ``simulate``, the readers, lookups) takes
``data: Dataset | None = None``; None means :meth:`Dataset.active`. No module loads data on its
own: swapping data (an update, a test fixture) is passing another dataset. Parts load lazily
(a cold ``cards show`` never reads the ban lists), and per-format-and-date rulesets are cached
on the dataset that computed them.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from deckcheck.error import DataError

if TYPE_CHECKING:
    from deckcheck.banlist import BanlistCatalog
    from deckcheck.card import CardIndex
    from deckcheck.format import Format, FormatRegistry

MANIFEST = "manifest.json"
"""Name of the manifest file of a bundle."""
SCHEMA_VERSION = 1
"""Version of the bundle layout that this deckcheck reads."""
BUNDLE_FILES = ("cards.jsonl", "names.json", "banlists.json", "formats.toml")
"""The data files every bundle holds (each listed in the manifest with its sha256)."""
BUNDLED_DIR = Path(__file__).resolve().parent / "data"
"""The bundle shipped inside the package."""
DATA_ENV = "DECKCHECK_DATA"
"""Environment variable naming a bundle folder to use instead of the bundled one."""

_LOCK = threading.Lock()


def file_sha256(path: Path) -> str:
    """The hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_manifest(folder: Path) -> tuple[dict[str, Any], bytes]:
    """The parsed manifest of a bundle folder and its raw bytes; :class:`DataError` if unusable."""
    path = folder / MANIFEST
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(f"{path}: cannot read the data manifest: {exc.strerror or exc}") from exc
    try:
        doc = json.loads(raw)
    except ValueError as exc:
        raise DataError(f"{path}: the data manifest is not JSON: {exc}") from exc
    if not isinstance(doc, dict):
        raise DataError(f"{path}: the data manifest is not a JSON object")
    if doc.get("schema") != SCHEMA_VERSION:
        raise DataError(
            f"{path}: bundle schema {doc.get('schema')!r}; this deckcheck reads {SCHEMA_VERSION}"
        )
    files = doc.get("files")
    if not isinstance(files, dict) or any(name not in files for name in BUNDLE_FILES):
        raise DataError(f"{path}: the manifest must list {', '.join(BUNDLE_FILES)}")
    try:
        date.fromisoformat(str(doc.get("as_of")))
    except ValueError:
        raise DataError(f"{path}: as_of must be a YYYY-MM-DD date") from None
    return doc, raw


@dataclass(frozen=True, eq=False)
class Dataset:
    """Cards, ban lists and formats of one data bundle, with its as-of date and fingerprint.

    Build one with :meth:`bundled`, :meth:`open` or :meth:`active`; never mutate it. The parts
    (:attr:`cards`, :attr:`banlists`, :attr:`formats`) are read on first use.
    """

    folder: Path
    """The bundle folder."""
    as_of: date
    """Date of the newest source data behind the bundle: later lists and cards are unknown."""
    fingerprint: str
    """sha256 (hex) of the bundle's manifest, which holds a sha256 per data file."""
    manifest: Mapping[str, Any] = field(repr=False)
    """The parsed manifest: ``schema``, ``as_of``, ``sources``, ``files`` (name -> sha256)."""
    _rulesets: dict[tuple[Any, ...], Any] = field(default_factory=dict, repr=False)

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def open(cls, folder: str | Path) -> Dataset:
        """The dataset of a bundle folder (checks the manifest; file hashes: :meth:`verify`)."""
        path = Path(folder)
        doc, raw = read_manifest(path)
        return cls(path, date.fromisoformat(doc["as_of"]), hashlib.sha256(raw).hexdigest(), doc)

    _bundled: ClassVar[Dataset | None] = None
    _active: ClassVar[Dataset | None] = None

    @classmethod
    def bundled(cls) -> Dataset:
        """The bundle shipped with deckcheck (opened once per process)."""
        with _LOCK:
            if Dataset._bundled is None:
                Dataset._bundled = cls.open(BUNDLED_DIR)
            return Dataset._bundled

    @classmethod
    def active(cls) -> Dataset:
        """The dataset entry points use when given none.

        The folder named by ``DECKCHECK_DATA`` when set, else the bundled data; a dataset set
        with :meth:`activate` wins over both.
        """
        got = Dataset._active
        if got is not None:
            return got
        env = os.environ.get(DATA_ENV)
        with _LOCK:
            if Dataset._active is None and env:
                Dataset._active = cls.open(env)
        return Dataset._active or cls.bundled()

    @classmethod
    def activate(cls, data: Dataset | None) -> None:
        """Make ``data`` the active dataset of this process (None: back to the default)."""
        Dataset._active = data

    # -- parts --------------------------------------------------------------------------------

    @cached_property
    def cards(self) -> CardIndex:
        """The card index."""
        from deckcheck.card import CardIndex

        return CardIndex.from_dir(self.folder)

    @cached_property
    def banlists(self) -> BanlistCatalog:
        """Every ban list, whitelist and point list, by family and date."""
        from deckcheck.banlist import BanlistCatalog, read_bundle

        path = self.folder / "banlists.json"
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise DataError(f"{path}: cannot read ban-list data: {exc.strerror or exc}") from exc
        return BanlistCatalog(read_bundle(raw, str(path), resolver=self.resolver()))

    @cached_property
    def formats(self) -> FormatRegistry:
        """Every built-in format and era, with aliases."""
        from deckcheck.format import load_registry

        return load_registry(self.folder / "formats.toml", self)

    def resolver(self) -> Callable[[int], int | None]:
        """A function mapping an alternate-artwork passcode to its original (None otherwise)."""

        def canonical(passcode: int) -> int | None:
            cards = self.cards
            if passcode not in cards:
                return None
            got = cards.get(passcode).canonical
            return got if got != passcode else None

        return canonical

    def format(self, name: str) -> Format:
        """A format or era by id or alias (:class:`~deckcheck.error.UnknownFormatError`)."""
        return self.formats.get(name)

    def ruleset_cache(self) -> dict[tuple[Any, ...], Any]:
        """The per-format-and-date ruleset cache of this dataset (used by validation)."""
        return self._rulesets

    # -- integrity ----------------------------------------------------------------------------

    def verify(self) -> None:
        """Check every file against its sha256 in the manifest; :class:`DataError` if not."""
        files: Mapping[str, str] = self.manifest["files"]
        for name, expected in files.items():
            path = self.folder / name
            try:
                got = file_sha256(path)
            except OSError as exc:
                raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from exc
            if got != expected:
                raise DataError(f"{path}: sha256 {got} does not match the manifest ({expected})")

    def describe(self) -> dict[str, Any]:
        """JSON-ready summary: folder, as-of date, fingerprint, sources."""
        return {
            "folder": str(self.folder),
            "as_of": self.as_of.isoformat(),
            "fingerprint": self.fingerprint,
            "sources": list(self.manifest.get("sources", [])),
        }


def resolve_data(data: Dataset | None) -> Dataset:
    """``data``, or the active dataset when None (the rule every entry point follows)."""
    return data if data is not None else Dataset.active()
