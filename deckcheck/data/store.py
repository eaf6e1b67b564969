"""The user's data folder: bundles installed by ``deckcheck data update``, switched atomically.

The folder is ``DECKCHECK_HOME`` when set, else the user data folder of the platform
(platformdirs: ``~/.local/share/deckcheck`` on Linux, ``~/Library/Application Support/deckcheck``
on macOS, ``%LOCALAPPDATA%\\deckcheck`` on Windows)::

    current.json        the installed bundle in use: folder, fingerprint, source, file stats
    bundle-<id>/        an installed bundle (manifest.json + data files), never changed in place
    staging-<random>/   an update in progress; a leftover of a killed update is removed later
    http.json           ETag / Last-Modified of the last manifest fetched from each URL
    lock                held by the update or reset in progress

How an install stays atomic: every file is written and verified in a staging folder inside the
data folder (so on the same file system), which is then renamed to ``bundle-<id>``; only then is
``current.json`` replaced, by writing a temporary file, flushing it to disk and renaming it over
the old one. Killed at any moment, the data folder names either the previous bundle or the new
one, each complete. The previous bundle is kept (a running service may still read it); older
ones are removed.

Reading is cheap and never fatal: :func:`open_installed` checks the pointer, the manifest and
each file's size and modification time against what the install recorded, and hashes the files
again only when those differ. An installed bundle that fails a check is skipped (deckcheck falls
back to the bundled data) and the reason is reported, never raised.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from msgspec import Struct

from deckcheck.boundary import read_data
from deckcheck.data import dataset as _dataset
from deckcheck.data import pack
from deckcheck.data.dataset import MANIFEST, DataOrigin, Dataset
from deckcheck.error import DataError, NotFoundError, OfflineError, UpdateError

HOME_ENV = "DECKCHECK_HOME"
"""Environment variable naming the data folder (default: the platform's user data folder)."""
OFFLINE_ENV = "DECKCHECK_OFFLINE"
"""Environment variable that, set to 1, disables all network access."""
POINTER = "current.json"
"""The file naming the installed bundle in use."""
VALIDATORS = "http.json"
"""The file keeping HTTP validators (ETag, Last-Modified) per manifest URL."""
_BUNDLE_PREFIX = "bundle-"
_STAGING_PREFIX = "staging-"


def data_home() -> Path:
    """The data folder where updates are installed (``DECKCHECK_HOME`` or platformdirs)."""
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("deckcheck", appauthor=False))


def is_offline() -> bool:
    """True when network access is disabled (``DECKCHECK_OFFLINE=1``, or ``--offline``)."""
    return os.environ.get(OFFLINE_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def require_network(what: str) -> None:
    """Raise :class:`OfflineError` naming ``what`` when network access is disabled.

    Every network access deckcheck makes goes through this check first.
    """
    if is_offline():
        raise OfflineError(f"{what}: network access is disabled (--offline / {OFFLINE_ENV}=1)")


class Installed(Struct, frozen=True):
    """What ``current.json`` records about the installed bundle in use."""

    folder: Path
    """The bundle folder."""
    fingerprint: str
    """sha256 of the bundle's manifest (the dataset's fingerprint)."""
    source: str
    """Where the bundle came from: a URL, a path, or ``upstream:`` and the sources' base."""
    installed_at: str
    """When it was installed (UTC, ISO 8601)."""
    stats: Mapping[str, tuple[int, int]]
    """File name -> (size, modification time in ns) as installed: the cheap check."""
    previous: str | None
    """Folder name of the bundle that was in use before (kept on disk), if any."""


def read_pointer(home: Path | None = None) -> Installed | None:
    """The installed bundle recorded in ``current.json`` (None: nothing installed).

    Raises :class:`DataError` when the record itself is unreadable.
    """
    home = home or data_home()
    path = home / POINTER
    try:
        raw = read_data(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    try:
        doc = json.loads(raw)
        folder = str(doc["folder"])
        if not folder.startswith(_BUNDLE_PREFIX) or "/" in folder or "\\" in folder:
            raise ValueError(f"bad folder name {folder!r}")
        stats = {str(k): (int(v[0]), int(v[1])) for k, v in dict(doc["stats"]).items()}
        prev = doc.get("previous")
        return Installed(
            folder=home / folder,
            fingerprint=str(doc["fingerprint"]),
            source=str(doc.get("source", "")),
            installed_at=str(doc.get("installed_at", "")),
            stats=stats,
            previous=str(prev) if prev else None,
        )
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise DataError(f"{path}: not a valid record of the installed data: {exc}") from exc


def _stat(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_size, st.st_mtime_ns


def open_installed(
    home: Path | None = None, *, full: bool = False
) -> tuple[Dataset | None, str | None]:
    """The installed bundle in use, checked; or None and the reason it cannot be used.

    With ``full``, every file is hashed again; otherwise only when its size or modification
    time differs from the install's record. Never raises: a problem is a reason, not an error.
    """
    try:
        home = home or data_home()
        rec = read_pointer(home)
    except DataError as exc:
        return None, str(exc)
    if rec is None:
        return None, None
    try:
        ds = Dataset.open(rec.folder)
        if ds.fingerprint != rec.fingerprint:
            raise DataError(f"{rec.folder / MANIFEST}: manifest changed since it was installed")
        names = [*ds.manifest["files"], MANIFEST]
        try:
            same = all(_stat(rec.folder / name) == rec.stats.get(name) for name in names)
        except OSError:
            same = False
        if full or not same:
            ds.verify()
    except DataError as exc:
        return None, f"installed data skipped: {exc}"
    return ds, None


def prove(data: Dataset) -> None:
    """Load every part of a dataset, so a bundle is known to work before it is installed.

    Raises :class:`DataError` naming what failed.
    """
    try:
        cards = data.cards
        if len(cards) == 0:
            raise DataError("the card index is empty")
        first = next(iter(cards))
        with contextlib.suppress(NotFoundError):  # reads the name index too
            cards.lookup(first.name)
        if not data.banlists.lists():  # (every list built from its row)
            raise DataError("the ban-list bundle holds no lists")
        data.formats.get("tcg")
    except DataError as exc:
        raise DataError(f"{data.folder}: the data does not load: {exc}") from exc
    except Exception as exc:  # malformed data surfaces as any error: report it, never install
        raise DataError(
            f"{data.folder}: the data does not load: {type(exc).__name__}: {exc}"
        ) from exc


@contextlib.contextmanager
def locked(home: Path | None = None) -> Iterator[Path]:
    """Hold the data folder's lock (one update or reset at a time); yields the folder.

    Raises :class:`UpdateError` when another deckcheck holds it. The lock is released when the
    process ends, however it ends.
    """
    home = home or data_home()
    try:
        home.mkdir(parents=True, exist_ok=True)
        fd = os.open(home / "lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise UpdateError(f"{home}: cannot use the data folder: {exc.strerror or exc}") from exc
    try:
        try:
            _lock(fd)
        except OSError:
            raise UpdateError(
                f"{home}: another deckcheck is updating the data; try again when it ends"
            ) from None
        yield home
    finally:
        os.close(fd)  # closing the file releases the lock


def _lock(fd: int) -> None:
    """Take an exclusive lock on an open file without waiting (OSError when it is held)."""
    if sys.platform == "win32":  # pragma: no cover - tested on POSIX only
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def new_staging(home: Path) -> Path:
    """A fresh, empty staging folder inside the data folder (call under :func:`locked`)."""
    for leftover in home.glob(_STAGING_PREFIX + "*"):
        shutil.rmtree(leftover, ignore_errors=True)  # a killed update's: we hold the lock
    path = home / f"{_STAGING_PREFIX}{_token(4)}"
    path.mkdir()
    return path


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - Windows cannot open folders
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _fsync_tree(folder: Path) -> None:
    for path in folder.iterdir():
        with open(path, "rb") as handle:  # opened to fsync it: nothing is read
            os.fsync(handle.fileno())
    _fsync_dir(folder)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (temporary file, fsync, rename)."""
    tmp = path.with_name(f".{path.name}.{_token(4)}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    _fsync_dir(path.parent)


def install(staging: Path, source: str, home: Path) -> Dataset:
    """Install the bundle in ``staging`` (a folder from :func:`new_staging`) and make it active.

    The bundle is verified (every sha256) and loaded first; on any failure nothing changes and
    :class:`DataError` says why. Call under :func:`locked`. Returns the installed dataset.
    """
    staged = Dataset.open(staging)
    staged.verify()
    prove(staged)
    pack.write(staging, staged.manifest)  # from the verified files: lists and formats as they load
    del staged
    try:
        previous = read_pointer(home)
    except DataError:
        previous = None
    fingerprint = Dataset.open(staging).fingerprint
    target = home / f"{_BUNDLE_PREFIX}{fingerprint[:12]}-{_token(3)}"
    _fsync_tree(staging)
    os.replace(staging, target)
    _fsync_dir(home)
    ds = Dataset.open(target)
    names = [*ds.manifest["files"], MANIFEST]
    record = {
        "folder": target.name,
        "fingerprint": ds.fingerprint,
        "source": source,
        "installed_at": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "stats": {name: list(_stat(target / name)) for name in names},
        "previous": previous.folder.name if previous is not None else None,
    }
    write_atomic(home / POINTER, (json.dumps(record, indent=2) + "\n").encode())
    prune(home)
    return ds


def prune(home: Path) -> None:
    """Remove installed bundles other than the one in use and the one before it."""
    try:
        rec = read_pointer(home)
    except DataError:
        return
    keep = {rec.folder.name, rec.previous} if rec is not None else set()
    for path in home.glob(_BUNDLE_PREFIX + "*"):
        if path.name not in keep:
            shutil.rmtree(path, ignore_errors=True)


def reset(home: Path | None = None) -> bool:
    """Go back to the bundled data: forget the installed bundle and remove its files.

    Returns whether anything was installed. Call under :func:`locked`.
    """
    home = home or data_home()
    pointer = home / POINTER
    had = pointer.exists()
    with contextlib.suppress(FileNotFoundError):
        pointer.unlink()
    if home.exists():
        _fsync_dir(home)
    for path in [*home.glob(_BUNDLE_PREFIX + "*"), *home.glob(_STAGING_PREFIX + "*")]:
        shutil.rmtree(path, ignore_errors=True)
    with contextlib.suppress(FileNotFoundError):
        (home / VALIDATORS).unlink()
    return had


def load_validators(home: Path, url: str) -> dict[str, str]:
    """The ETag / Last-Modified kept for a manifest URL (empty when none)."""
    try:
        doc = json.loads(read_data(home / VALIDATORS))
        got = doc.get(url, {})
        return {k: str(v) for k, v in got.items() if k in ("etag", "last_modified")}
    except (OSError, ValueError, AttributeError):
        return {}


def save_validators(home: Path, url: str, validators: Mapping[str, str]) -> None:
    """Keep the ETag / Last-Modified of a manifest URL for the next conditional request."""
    try:
        doc: dict[str, Any] = json.loads(read_data(home / VALIDATORS))
        if not isinstance(doc, dict):
            doc = {}
    except (OSError, ValueError):
        doc = {}
    doc[url] = dict(validators)
    doc = {k: doc[k] for k in list(doc)[-20:]}
    with contextlib.suppress(OSError):
        write_atomic(home / VALIDATORS, (json.dumps(doc, indent=2) + "\n").encode())


class DataStatus(Struct, frozen=True):
    """Which data is active and why (``deckcheck data status``)."""

    active: Dataset
    """The dataset in use."""
    origin: DataOrigin
    """Where it comes from."""
    bundled: Dataset
    """The data shipped with deckcheck."""
    installed: Installed | None
    """The record of the installed bundle, if any."""
    installed_data: Dataset | None
    """The installed bundle, when it passed every check (all files hashed)."""
    problem: str | None
    """Why the installed bundle is not in use (None when it is, or when there is none)."""
    home: Path
    """The data folder."""
    offline: bool
    """True when network access is disabled."""


def status(home: Path | None = None) -> DataStatus:
    """The data status: the active dataset, its origin, and the installed bundle fully checked."""
    home = home or data_home()
    active = Dataset.active()
    origin, problem = Dataset.active_origin()
    try:
        rec = read_pointer(home)
    except DataError as exc:
        rec, problem = None, problem or str(exc)
    installed, why = open_installed(home, full=True)
    if origin is DataOrigin.INSTALLED and installed is None:
        problem = why  # damaged since this process started using it
    elif origin is not DataOrigin.INSTALLED and problem is None and why is not None:
        problem = why
    return DataStatus(
        active=active,
        origin=origin,
        bundled=Dataset.bundled(),
        installed=rec,
        installed_data=installed,
        problem=problem,
        home=home,
        offline=is_offline(),
    )


_dataset.use_store(open_installed)  # the active data consults the installed bundle through this


def _token(size: int) -> str:
    """A random hex suffix of ``size`` bytes for a new file or folder name."""
    import secrets  # (not at start: only an install or a staging folder needs it)

    return secrets.token_hex(size)
