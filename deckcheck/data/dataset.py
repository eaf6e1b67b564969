"""The Dataset: every fact deckcheck checks against, in one frozen object.

A dataset is a folder (a *bundle*) holding the card index (``cards.jsonl``, ``names.json``), the
ban-list bundle (``banlists.json``), the built-in eras and formats (``formats.toml``) and a
``manifest.json`` that names the data's ``as_of`` date, its sources and a sha256 per file. The
dataset's :attr:`~Dataset.fingerprint` is the sha256 of the manifest, so it changes whenever any
file does; the service uses it as its ETag and every report is stamped with it.

Every public entry point (``validate``, ``simulate``, the readers, lookups) takes
``data: Dataset | None = None``; None means :meth:`Dataset.active`: a dataset set with
the folder named by ``DECKCHECK_DATA``, else a valid bundle
installed by ``deckcheck data update`` (:mod:`deckcheck.data.store`), else the bundled data. No
module loads data on its own: swapping data (an update, a test fixture) is passing another
dataset. Parts load lazily (a cold ``cards show`` never reads the ban lists), and
per-format-and-date rulesets are cached on the dataset that computed them.
"""

from __future__ import annotations

import enum
import hashlib
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from msgspec import Struct, field

from deckcheck.boundary import guard, parse_json, read_data
from deckcheck.error import DataError

if TYPE_CHECKING:
    from deckcheck.card import CardIndex
    from deckcheck.data.pack import Pack
    from deckcheck.rule.banlist import BanlistCatalog
    from deckcheck.rule.format import Format, FormatRegistry

MANIFEST = "manifest.json"
"""Name of the manifest file of a bundle."""
SCHEMA_VERSION = 1
"""Version of the bundle layout that this deckcheck reads."""
BUNDLE_FILES = ("cards.jsonl", "names.json", "banlists.json", "formats.toml")
"""The data files every bundle holds (each listed in the manifest with its sha256)."""
OPTIONAL_FILES = ("names-intl.jsonl",)
"""Data files a bundle may hold (listed in the manifest when present): the card names in the
other official languages, read only when a name is not found in English, Japanese or Chinese."""
MAX_MANIFEST_BYTES = 1 << 20
"""Size cap of a bundle's manifest."""
MAX_MANIFEST_FILES = 64
"""Most files a bundle's manifest may list (every one is fetched, hashed and kept)."""
BUNDLED_DIR = Path(__file__).resolve().parent / "bundled"
"""The bundle shipped inside the package."""
DATA_ENV = "DECKCHECK_DATA"
"""Environment variable naming a bundle folder to use instead of the bundled one."""

_LOCK = threading.RLock()


def file_sha256(path: Path) -> str:
    """The hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:  # streamed in blocks: memory bounded whatever the size
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


_FILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


def strict_date(value: object) -> date | None:
    """``value`` as a date if it is text of the form ``YYYY-MM-DD`` (nothing else), else None."""
    if not isinstance(value, str) or not _DATE.match(value):
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def _check_files(files: Any, where: str) -> None:
    """A manifest's ``files``: every bundle file and at most :data:`MAX_MANIFEST_FILES`, each a
    plain file name with a hex sha256."""
    if not isinstance(files, dict) or any(name not in files for name in BUNDLE_FILES):
        raise DataError(f"{where}: the manifest must list {', '.join(BUNDLE_FILES)}")
    if len(files) > MAX_MANIFEST_FILES:
        raise DataError(
            f"{where}: the manifest lists {len(files):,} files, over the "
            f"{MAX_MANIFEST_FILES} a bundle may hold"
        )
    for name, digest in files.items():
        if not _FILE_NAME.match(name) or name == MANIFEST:
            raise DataError(f"{where}: bad file name in the manifest: {name!r}")
        if not isinstance(digest, str) or not _SHA256.match(digest):
            raise DataError(f"{where}: {name}: the manifest's sha256 is not 64 hex digits")


def parse_manifest(raw: bytes, where: str) -> dict[str, Any]:
    """A bundle manifest checked for use; :class:`DataError` naming ``where`` if unusable.

    The manifest must be a JSON object with this deckcheck's ``schema``, an ``as_of`` date and
    ``files`` mapping every name of :data:`BUNDLE_FILES` (and any other plain file name) to a
    hex sha256. Names with a path in them are refused, so a manifest from elsewhere can never
    make deckcheck read or write outside the bundle folder.
    """
    try:
        doc = parse_json(raw)
    except ValueError as exc:
        raise DataError(f"{where}: the data manifest is not JSON: {exc}") from exc
    if not isinstance(doc, dict):
        raise DataError(f"{where}: the data manifest is not a JSON object")
    if doc.get("schema") != SCHEMA_VERSION:
        raise DataError(
            f"{where}: bundle schema {doc.get('schema')!r}; this deckcheck reads {SCHEMA_VERSION}"
        )
    _check_files(doc.get("files"), where)
    if strict_date(doc.get("as_of")) is None:
        raise DataError(f"{where}: as_of must be a YYYY-MM-DD date")
    sources = doc.get("sources", [])
    if not isinstance(sources, list) or not all(isinstance(x, str) for x in sources):
        raise DataError(f"{where}: sources must be a list of strings")
    return doc


def read_manifest(folder: Path) -> tuple[dict[str, Any], bytes]:
    """The parsed manifest of a bundle folder and its raw bytes; :class:`DataError` if unusable."""
    path = folder / MANIFEST
    try:
        raw = read_data(path, MAX_MANIFEST_BYTES)
    except OSError as exc:
        raise DataError(f"{path}: cannot read the data manifest: {exc.strerror or exc}") from exc
    return parse_manifest(raw, str(path)), raw


class DataOrigin(enum.StrEnum):
    """Where the active dataset comes from (``deckcheck data status``)."""

    ENVIRONMENT = "environment"
    """The folder named by ``DECKCHECK_DATA``."""
    INSTALLED = "installed"
    """A bundle installed by ``deckcheck data update`` in the user's data folder."""
    BUNDLED = "bundled"
    """The data shipped with deckcheck."""


class Dataset(Struct, frozen=True, eq=False, dict=True):
    """Cards, ban lists and formats of one data bundle, with its as-of date and fingerprint.

    Build one with :meth:`bundled`, :meth:`open` or :meth:`active`; never mutate it. The parts
    (:attr:`cards`, :attr:`banlists`, :attr:`formats`) are read on first use. Two datasets are
    equal only when they are the same object.
    """

    folder: Path
    """The bundle folder."""
    as_of: date
    """Date of the newest source data behind the bundle: later lists and cards are unknown."""
    fingerprint: str
    """sha256 (hex) of the bundle's manifest, which holds a sha256 per data file."""
    manifest: Mapping[str, Any]
    """The parsed manifest: ``schema``, ``as_of``, ``sources``, ``files`` (name -> sha256)."""
    _rulesets: OrderedDict[tuple[Any, ...], Any] = field(default_factory=OrderedDict)

    def __repr__(self) -> str:
        shown = f"folder={self.folder!r}, as_of={self.as_of!r}, fingerprint={self.fingerprint!r}"
        return f"Dataset({shown})"

    # -- construction -------------------------------------------------------------------------

    @classmethod
    @guard
    def open(cls, folder: str | Path) -> Dataset:
        """The dataset of a bundle folder (checks the manifest; file hashes: :meth:`verify`)."""
        path = Path(folder)
        doc, raw = read_manifest(path)
        return cls(path, date.fromisoformat(doc["as_of"]), hashlib.sha256(raw).hexdigest(), doc)

    _bundled: ClassVar[Dataset | None] = None
    _resolved: ClassVar[tuple[Dataset, DataOrigin, str | None] | None] = None

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

        In order: the folder named by ``DECKCHECK_DATA``;
        a valid bundle installed with ``deckcheck data update`` (unless the bundled data is
        newer); the bundled data. Resolved once per process; :meth:`reload_active` resolves
        again (the service does on SIGHUP). An installed bundle that fails its checks is
        skipped, never fatal: :meth:`active_origin` says why.
        """
        resolved = Dataset._resolved
        if resolved is None:
            with _LOCK:
                if Dataset._resolved is None:
                    Dataset._resolved = _resolve()
                resolved = Dataset._resolved
        return resolved[0]

    @classmethod
    def active_origin(cls) -> tuple[DataOrigin, str | None]:
        """Where :meth:`active` comes from, and why an installed bundle was skipped (or None)."""
        cls.active()
        resolved = Dataset._resolved
        assert resolved is not None
        return resolved[1], resolved[2]

    @classmethod
    def reload_active(cls) -> Dataset:
        """Resolve the active dataset again (after an update, a reset, or on SIGHUP).

        Datasets already handed out keep working: an update keeps the previous bundle's files
        on disk.
        """
        with _LOCK:
            Dataset._resolved = None
        return cls.active()

    # -- parts --------------------------------------------------------------------------------

    @cached_property
    def cards(self) -> CardIndex:
        """The card index."""
        from deckcheck.card import CardIndex

        return CardIndex.from_dir(self.folder)

    @cached_property
    def _pack(self) -> Pack:
        """The ban lists' and formats' documents, from the pack when it is one for these files
        (:mod:`deckcheck.data.pack`)."""
        from deckcheck.data.pack import load

        return load(self.folder, self.manifest)

    @cached_property
    def banlists(self) -> BanlistCatalog:
        """Every ban list, whitelist and point list, by family and date."""
        from deckcheck.rule.banlist import BanlistCatalog

        where = str(self.folder / "banlists.json")
        return BanlistCatalog.from_bundle(self._pack.banlists, where, resolver=self.resolver())

    @cached_property
    def formats(self) -> FormatRegistry:
        """Every built-in format and era, with aliases."""
        from deckcheck.rule.format import registry_from_document

        path = self.folder / "formats.toml"
        return registry_from_document(
            self._pack.formats, path, self.banlists.families(), self.as_of
        )

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
        """A format or era by id or alias (:class:`~deckcheck.error.UnknownFormatError`).

        Checked by hand rather than by :func:`~deckcheck.boundary.guard`: validation calls it
        once per deck, where the guard's signature binding would cost a third of the time."""
        if not isinstance(name, str):
            from deckcheck.error import ArgumentError

            raise ArgumentError(f"format(): name must be a str, not {type(name).__name__}", "name")
        return self.formats.get(name)

    def ruleset_cache(self) -> OrderedDict[tuple[Any, ...], Any]:
        """The per-format-and-date ruleset cache of this dataset (used by validation), least
        recently used first."""
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

    def export(self, dest: str | Path) -> Path:
        """Write this bundle (manifest and every file) to ``dest``: a new or empty folder, or
        a new ``.zip`` file.

        Files are checked against the manifest; serve the folder (or the zip) over HTTP and
        ``deckcheck data update --source URL`` installs it elsewhere. Raises
        :class:`DataError` if ``dest`` is in the way or a file does not match its sha256.
        """
        import shutil

        out = Path(dest)
        names = [MANIFEST, *self.manifest["files"]]
        if out.suffix.lower() == ".zip":
            import zipfile

            if out.exists():
                raise DataError(f"{out}: already exists; export into a new file")
            self.verify()
            tmp = out.with_name(f".{out.name}.tmp")
            try:
                with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
                    for name in names:
                        zf.write(self.folder / name, arcname=name)
                os.replace(tmp, out)
            except OSError as exc:
                tmp.unlink(missing_ok=True)
                raise DataError(f"{out}: cannot write: {exc.strerror or exc}") from exc
            return out
        if out.exists() and (not out.is_dir() or any(out.iterdir())):
            raise DataError(f"{out}: not an empty folder; export into a new or empty one")
        made = not out.exists()
        written: list[Path] = []
        try:
            out.mkdir(parents=True, exist_ok=True)
            for name in [*names[1:], MANIFEST]:  # the manifest last: no bundle without its files
                written.append(out / name)
                shutil.copyfile(self.folder / name, out / name)
        except OSError as exc:
            for path in written:  # all or nothing: no lone manifest.json, no half a bundle
                path.unlink(missing_ok=True)
            if made:
                shutil.rmtree(out, ignore_errors=True)
            raise DataError(f"{out}: cannot write: {exc.strerror or exc}") from exc
        Dataset.open(out).verify()
        return out

    def describe(self) -> dict[str, Any]:
        """JSON-ready summary: folder, as-of date, fingerprint, sources."""
        return {
            "folder": str(self.folder),
            "as_of": self.as_of.isoformat(),
            "fingerprint": self.fingerprint,
            "sources": list(self.manifest.get("sources", [])),
        }


_open_installed: Callable[[], tuple[Dataset | None, str | None]] | None = None
"""The store's ``open_installed``, installed by :mod:`deckcheck.data.store` on import (the store
opens datasets, so the dataset module does not import it back)."""


def use_store(opener: Callable[[], tuple[Dataset | None, str | None]]) -> None:
    """Install the store's opener of the installed bundle (called by the store on import)."""
    global _open_installed
    _open_installed = opener


def _resolve() -> tuple[Dataset, DataOrigin, str | None]:
    """The default dataset, its origin and why an installed bundle was skipped (or None)."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Dataset.open(env), DataOrigin.ENVIRONMENT, None
    bundled = Dataset.bundled()
    if _open_installed is None:  # pragma: no cover - deckcheck.data imports the store
        return bundled, DataOrigin.BUNDLED, None
    installed, problem = _open_installed()
    if installed is None:
        return bundled, DataOrigin.BUNDLED, problem
    if installed.as_of < bundled.as_of:
        note = (
            f"the installed data (as of {installed.as_of.isoformat()}) is older than the "
            f"bundled data (as of {bundled.as_of.isoformat()})"
        )
        return bundled, DataOrigin.BUNDLED, note
    return installed, DataOrigin.INSTALLED, None


def resolve_data(data: Dataset | None) -> Dataset:
    """``data``, or the active dataset when None (the rule every entry point follows)."""
    return data if data is not None else Dataset.active()
