"""Data updates: fetch a dataset bundle, verify it, prove it loads, install it atomically.

A bundle is a folder (see :mod:`deckcheck.data.dataset`): ``manifest.json`` and the data files it
lists with their sha256. ``deckcheck data export DIR`` writes one; any static web server can
serve it. :func:`update` takes a URL of such a folder (or of its ``manifest.json``) or a local
path, and:

1. fetches the manifest (a conditional request when the installed bundle came from the same URL:
   ``If-None-Match`` / ``If-Modified-Since``; ``304 Not Modified`` ends the update);
2. stops if the manifest's fingerprint is the data already in use, or if the bundle is older;
3. fetches every file into a staging folder in the data folder, with a timeout, retries with
   exponential backoff (connection errors, timeouts, truncated bodies, 408/429/5xx), a size cap
   per download and a progress callback, and checks each file's sha256;
4. loads the staged bundle as a :class:`~deckcheck.data.dataset.Dataset` to prove it works;
5. installs it (:func:`deckcheck.data.store.install`: rename into place, then switch the pointer).

Any failure raises :class:`~deckcheck.error.UpdateError` (or ``DataError``) with the URL or path
and the reason; the previous data stays active and whole. With ``DECKCHECK_OFFLINE=1`` no network
access is made (:class:`~deckcheck.error.OfflineError`). The downloads are
:mod:`deckcheck.data.download`'s (httpx is imported only there, and only when a URL is fetched),
the unpacking of a bundle ``.zip`` :mod:`deckcheck.data.archive`'s.
"""

from __future__ import annotations

import enum
import hashlib
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from deckcheck.data.archive import MAX_ARCHIVE_ENTRIES as MAX_ARCHIVE_ENTRIES
from deckcheck.data.archive import is_archive as is_archive
from deckcheck.data.archive import unpack as unpack
from deckcheck.data.dataset import (
    MANIFEST,
    MAX_MANIFEST_BYTES,
    Dataset,
    parse_manifest,
    strict_date,
)
from deckcheck.data.download import RETRY_STATUSES as RETRY_STATUSES
from deckcheck.data.download import FetchOptions as FetchOptions
from deckcheck.data.download import Progress as Progress
from deckcheck.data.download import client as client
from deckcheck.data.download import fetch as fetch
from deckcheck.data.download import is_url as is_url
from deckcheck.data.download import pump, read_blocks
from deckcheck.data.store import (
    data_home,
    install,
    load_validators,
    locked,
    new_staging,
    open_installed,
    prove,
    read_pointer,
    require_network,
    save_validators,
)
from deckcheck.error import DataError, UpdateError

SOURCE_ENV = "DECKCHECK_UPDATE_URL"
"""Environment variable naming the default update source (a URL or a path)."""
AS_OF_MARGIN = timedelta(days=2)
"""How far after today a bundle's ``as_of`` may be (time zones, a build just before midnight)."""


class UpdateStatus(enum.StrEnum):
    """What an update did."""

    UPDATED = "updated"
    """A new bundle was installed and is now active."""
    CURRENT = "current"
    """The source holds the data already in use: nothing to do."""
    NOT_MODIFIED = "not-modified"
    """The server answered 304 Not Modified to the conditional request: nothing to do."""


@dataclass(frozen=True, slots=True)
class UpdateResult:
    """The outcome of an update."""

    status: UpdateStatus
    data: Dataset
    """The dataset installed (after UPDATED), else the one in use."""
    previous: Dataset
    """The dataset active before it."""
    source: str
    """The URL or path the update used."""
    downloaded: int = 0
    """Bytes fetched."""


def default_source(home: Path | None = None) -> str | None:
    """The source used when none is given: ``DECKCHECK_UPDATE_URL``, else the last one used."""
    env = os.environ.get(SOURCE_ENV, "").strip()
    if env:
        return env
    try:
        rec = read_pointer(home or data_home())
    except DataError:
        return None
    if rec is not None and rec.source and not rec.source.startswith("upstream:"):
        return rec.source
    return None


def manifest_url(source: str) -> tuple[str, str]:
    """``(base URL ending in /, manifest URL)`` of a bundle URL (folder or manifest)."""
    path_end = source.split("?", 1)[0].split("#", 1)[0]
    if path_end.endswith("/" + MANIFEST):
        return path_end[: -len(MANIFEST)], source
    base = path_end if path_end.endswith("/") else path_end + "/"
    return base, base + MANIFEST


def update(
    source: str | Path | None = None,
    *,
    home: Path | None = None,
    options: FetchOptions | None = None,
    progress: Progress | None = None,
    force: bool = False,
) -> UpdateResult:
    """Install the bundle at ``source`` (URL or path; default :func:`default_source`).

    ``force`` skips the conditional request and installs even the data already in use or an
    older bundle. Raises :class:`UpdateError` (:class:`OfflineError` when the network is off);
    the previous data then stays active. On success the process's active dataset is resolved
    again (:meth:`Dataset.reload_active`).
    """
    home = home or data_home()
    opts = options or FetchOptions()
    src = str(source) if source is not None else default_source(home)
    if not src:
        raise UpdateError(
            "no update source: give --source URL|PATH (a folder written by "
            f"'deckcheck data export'), set {SOURCE_ENV}, or use --from-upstream"
        )
    check_source(src)
    if is_url(src):
        require_network(src)
    previous = Dataset.active()
    key = validator_url(src)
    with locked(home):
        headers = _conditional(home, src, key, force) if key is not None else {}
        staging = new_staging(home)
        try:
            with _failures(src, home, " (nothing was installed)"):
                staged = stage(
                    src,
                    staging,
                    opts,
                    progress,
                    headers=headers,
                    accept=lambda doc, raw, where: _check_new(doc, raw, where, force, home),
                )
                if staged.status is UpdateStatus.NOT_MODIFIED:
                    return UpdateResult(staged.status, previous, previous, staged.source)
                result = UpdateResult(
                    staged.status, previous, previous, staged.source, staged.downloaded
                )
                if staged.status is UpdateStatus.UPDATED:
                    result = _finish(staging, staged.source, home, previous, staged.downloaded)
                if key is not None and staged.answer is not None:
                    _keep_validators(home, key, staged.answer)
                return result
        finally:
            shutil.rmtree(staging, ignore_errors=True)


def open_bundle(
    source: str | Path,
    dest: Path,
    *,
    options: FetchOptions | None = None,
    progress: Progress | None = None,
) -> Dataset:
    """Fetch the bundle at ``source`` into the empty folder ``dest`` and open it, without
    installing it: the data in use, the data folder and its pointer stay as they are.

    ``source`` is what :func:`update` takes (a bundle folder or ``.zip``, a path or a URL).
    Every file is checked against the manifest and the dataset is loaded whole
    (:func:`~deckcheck.data.store.prove`) before it is returned; it lives as long as ``dest``.
    Raises :class:`UpdateError` (:class:`OfflineError` when the network is off for a URL).
    """
    src = str(source)
    check_source(src)
    if is_url(src):
        require_network(src)
    with _failures(src, dest, ""):
        stage(src, dest, options or FetchOptions(), progress)
        data = Dataset.open(dest)
        data.verify()
        prove(data)
        return data


@contextmanager
def _failures(src: str, where: Path, note: str) -> Iterator[None]:
    """Any failure of fetching or staging as an :class:`UpdateError`, ``note`` appended."""
    try:
        yield
    except DataError as exc:
        raise UpdateError(f"{exc}{note}") from exc
    except OSError as exc:
        raise UpdateError(f"{exc.filename or where}: {exc.strerror or exc}{note}") from exc
    except (ValueError, TypeError, KeyError) as exc:  # a hostile answer no check foresaw
        raise UpdateError(f"{src}: unusable data: {exc}{note}") from exc


Accept = Callable[[dict[str, Any], bytes, str], bool]
"""Called with a bundle's manifest (parsed, raw bytes, where from) before its files are
fetched: False stops there (:attr:`UpdateStatus.CURRENT`)."""


@dataclass(frozen=True, slots=True)
class Staged:
    """A bundle fetched by :func:`stage` into a folder."""

    source: str
    """The source as used (a path resolved)."""
    status: UpdateStatus
    """UPDATED: the whole bundle is in the folder, each file checked against the manifest;
    CURRENT: ``accept`` refused its manifest; NOT_MODIFIED: a ``304`` answer."""
    manifest: bytes
    """The manifest's bytes (empty after a 304)."""
    downloaded: int = 0
    """Bytes fetched or copied."""
    answer: dict[str, str] | None = None
    """The HTTP answer's headers to the manifest (or the ``.zip``), for its validators."""


def validator_url(src: str) -> str | None:
    """The URL whose ETag / Last-Modified make an update of ``src`` conditional (None: a
    path): the ``.zip`` itself, or the manifest of a bundle folder."""
    if not is_url(src):
        return None
    return src if is_archive(src) else manifest_url(src)[1]


def stage(
    src: str,
    dest: Path,
    opts: FetchOptions,
    progress: Progress | None = None,
    *,
    headers: dict[str, str] | None = None,
    accept: Accept | None = None,
) -> Staged:
    """Fetch the bundle at ``src`` (a folder or ``.zip``, a path or a URL) into ``dest``.

    ``dest`` is an existing empty folder. Every file is size-capped, retried (a URL) and
    checked against the manifest's sha256; ``headers`` make the first request conditional;
    ``accept`` may stop after the manifest. Nothing is installed. Raises
    :class:`UpdateError` (or ``DataError``, ``OSError``) naming the URL or path.
    """
    take = accept or (lambda doc, raw, where: True)
    if is_archive(src):
        return _stage_archive(src, dest, opts, progress, headers or {}, take)
    if is_url(src):
        return _stage_url(src, dest, opts, progress, headers or {}, take)
    return _stage_path(Path(src), dest, opts, progress, take)


def check_source(src: str) -> None:
    """:class:`UpdateError` for a source that cannot name anything: a URL that does not parse,
    control characters (a NUL) in a path or URL."""
    if any(ord(c) < 32 for c in src):
        raise UpdateError(f"{src!r}: control characters (a NUL?) in the source")
    if is_url(src):
        from deckcheck.data.http import parse_url

        parse_url(src)


def check_as_of(value: object, where: str) -> date:
    """A bundle's ``as_of``: strictly ``YYYY-MM-DD``, and not after today plus
    :data:`AS_OF_MARGIN` (a date in the future would make every honest update "older").
    Raises :class:`UpdateError` naming ``where``."""
    when = strict_date(value)
    if when is None:
        raise UpdateError(f"{where}: as_of {value!r} is not a YYYY-MM-DD date")
    latest = date.today() + AS_OF_MARGIN
    if when > latest:
        raise UpdateError(
            f"{where}: as_of {when.isoformat()} is in the future (after {latest.isoformat()})"
        )
    return when


def _check_new(doc: dict[str, Any], raw: bytes, where: str, force: bool, home: Path) -> bool:
    """False when the manifest is the data in use; UpdateError when the bundle is older."""
    check_as_of(doc.get("as_of"), where)
    installed, _ = open_installed(home)
    bundled = Dataset.bundled()
    in_use = installed if installed is not None and installed.as_of >= bundled.as_of else bundled
    if force:
        return True
    if hashlib.sha256(raw).hexdigest() == in_use.fingerprint:
        return False
    as_of = str(doc["as_of"])  # YYYY-MM-DD (parse_manifest, check_as_of): text order is date order
    if as_of < in_use.as_of.isoformat():
        raise UpdateError(
            f"{where}: the bundle (as of {as_of}) is older than the data in use (as of "
            f"{in_use.as_of.isoformat()}); --force installs it anyway"
        )
    return True


def _finish(
    staging: Path, src: str, home: Path, previous: Dataset, downloaded: int
) -> UpdateResult:
    data = install(staging, src, home)
    Dataset.reload_active()
    return UpdateResult(UpdateStatus.UPDATED, data, previous, src, downloaded)


def _stage_path(
    folder: Path, dest: Path, opts: FetchOptions, progress: Progress | None, accept: Accept
) -> Staged:
    if folder.name == MANIFEST:
        folder = folder.parent
    src = str(folder.resolve())
    try:
        raw = _read_capped(folder / MANIFEST, MAX_MANIFEST_BYTES)
    except OSError as exc:
        raise UpdateError(f"{folder / MANIFEST}: cannot read: {exc.strerror or exc}") from exc
    doc = parse_manifest(raw, str(folder / MANIFEST))
    if not accept(doc, raw, str(folder)):
        return Staged(src, UpdateStatus.CURRENT, raw)
    total = 0
    for name, expected in doc["files"].items():
        total += _copy_checked(folder / name, dest / name, expected, opts.max_bytes, progress)
    (dest / MANIFEST).write_bytes(raw)
    return Staged(src, UpdateStatus.UPDATED, raw, total)


def _copy_checked(path: Path, out: Path, expected: str, cap: int, progress: Progress | None) -> int:
    """Copy a bundle file from a folder, capped and checked against its sha256; its size."""
    digest = hashlib.sha256()
    try:
        _regular(path)
        size = path.stat().st_size
        if size > cap:
            raise UpdateError(f"{path}: {size:,} bytes, over the {cap:,}-byte cap")
        with open(path, "rb") as inp, open(out, "wb") as handle:  # copied capped (pump)
            done = pump(
                read_blocks(inp), handle, digest, cap, f"{path}", (out.name, size, progress)
            )
    except OSError as exc:
        raise UpdateError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    if digest.hexdigest() != expected:
        raise UpdateError(
            f"{path}: sha256 {digest.hexdigest()} does not match the manifest ({expected})"
        )
    return done


def _read_capped(path: Path, cap: int) -> bytes:
    from deckcheck.boundary import read_capped

    over = f"{path}: over the {cap:,}-byte cap of a manifest"
    return read_capped(
        path,
        cap,
        refuse=lambda why: UpdateError(f"{path}: {why}"),
        over=lambda _: UpdateError(over),
    )


def _regular(path: Path | str) -> None:
    """:class:`UpdateError` unless ``path`` is a regular file (a FIFO would block the read)."""
    from deckcheck.boundary import is_regular_file

    if Path(path).exists() and not is_regular_file(path):
        raise UpdateError(f"{path}: not a regular file (a FIFO, device...)")


def _stage_url(
    src: str,
    dest: Path,
    opts: FetchOptions,
    progress: Progress | None,
    headers: dict[str, str],
    accept: Accept,
) -> Staged:
    base, url = manifest_url(src)
    with client(opts) as http:
        got = fetch(http, url, dest / MANIFEST, opts, MAX_MANIFEST_BYTES, None, headers)
        if got is None:
            return Staged(src, UpdateStatus.NOT_MODIFIED, b"")
        raw = _read_capped(dest / MANIFEST, MAX_MANIFEST_BYTES)
        doc = parse_manifest(raw, url)
        if not accept(doc, raw, src):
            return Staged(src, UpdateStatus.CURRENT, raw, len(raw), got)
        total = len(raw)
        for name, expected in doc["files"].items():
            fetch(http, base + name, dest / name, opts, opts.max_bytes, expected, {}, progress)
            total += (dest / name).stat().st_size
    return Staged(src, UpdateStatus.UPDATED, raw, total, got)


def _conditional(home: Path, src: str, url: str, force: bool) -> dict[str, str]:
    """Conditional-request headers for ``url`` when the installed bundle came from ``src``."""
    installed, _ = open_installed(home)
    rec = read_pointer(home) if installed is not None else None
    conditional = not force and rec is not None and rec.source == src
    validators = load_validators(home, url) if conditional else {}
    headers: dict[str, str] = {}
    if "etag" in validators:
        headers["If-None-Match"] = validators["etag"]
    if "last_modified" in validators:
        headers["If-Modified-Since"] = validators["last_modified"]
    return headers


def _stage_archive(
    src: str,
    dest: Path,
    opts: FetchOptions,
    progress: Progress | None,
    headers: dict[str, str],
    accept: Accept,
) -> Staged:
    """A bundle in one ``.zip`` file (a URL or a path): fetched, then unpacked as checked."""
    archive = dest / ".bundle.zip"
    got: dict[str, str] | None = None
    if is_url(src):
        with client(opts) as http:
            got = fetch(http, src, archive, opts, opts.max_bytes, None, headers, progress)
        if got is None:
            return Staged(src, UpdateStatus.NOT_MODIFIED, b"")
    else:
        src = str(Path(src).resolve())
        _regular(src)
        try:
            size = Path(src).stat().st_size
        except OSError as exc:
            raise UpdateError(f"{src}: cannot read: {exc.strerror or exc}") from exc
        if size > opts.max_bytes:
            raise UpdateError(f"{src}: {size:,} bytes, over the {opts.max_bytes:,}-byte cap")
        shutil.copyfile(src, archive)
    raw = unpack(archive, dest, src, opts.max_bytes, progress)
    archive.unlink()
    doc = parse_manifest(raw, src)
    if not accept(doc, raw, src):
        return Staged(src, UpdateStatus.CURRENT, raw, len(raw), got)
    total = sum((dest / name).stat().st_size for name in doc["files"]) + len(raw)
    return Staged(src, UpdateStatus.UPDATED, raw, total, got)


def _keep_validators(home: Path, url: str, response_headers: dict[str, str]) -> None:
    keep = {}
    if response_headers.get("etag"):
        keep["etag"] = response_headers["etag"]
    if response_headers.get("last-modified"):
        keep["last_modified"] = response_headers["last-modified"]
    if keep:
        save_validators(home, url, keep)
