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
access is made (:class:`~deckcheck.error.OfflineError`). httpx is imported only here, and only
when a URL is fetched.
"""

from __future__ import annotations

import enum
import hashlib
import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.data.dataset import (
    MANIFEST,
    MAX_MANIFEST_BYTES,
    Dataset,
    parse_manifest,
    strict_date,
)
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

if TYPE_CHECKING:
    import httpx

SOURCE_ENV = "DECKCHECK_UPDATE_URL"
"""Environment variable naming the default update source (a URL or a path)."""
"""Size cap of a manifest download."""
AS_OF_MARGIN = timedelta(days=2)
"""How far after today a bundle's ``as_of`` may be (time zones, a build just before midnight)."""
MAX_ARCHIVE_ENTRIES = 1000
"""Most entries a bundle ``.zip`` may hold."""
RETRY_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})
"""HTTP statuses worth another try."""

Progress = Callable[[str, int, "int | None"], None]
"""Called as bytes arrive: ``(file name, bytes so far, total bytes or None if unknown)``."""


class UpdateStatus(enum.StrEnum):
    """What an update did."""

    UPDATED = "updated"
    """A new bundle was installed and is now active."""
    CURRENT = "current"
    """The source holds the data already in use: nothing to do."""
    NOT_MODIFIED = "not-modified"
    """The server answered 304 Not Modified to the conditional request: nothing to do."""


@dataclass(frozen=True, slots=True)
class FetchOptions:
    """How downloads behave."""

    timeout: float = 30.0
    """Seconds to wait to connect, or for the next bytes of an answer."""
    retries: int = 3
    """Further tries after a failed download (connection error, timeout, 5xx, 429, truncation)."""
    backoff: float = 1.0
    """Seconds before the first retry; doubled for each next one (capped at 30)."""
    max_bytes: int = 64 << 20
    """Size cap of one downloaded file (the manifest: :data:`MAX_MANIFEST_BYTES`)."""
    deadline: float = 900.0
    """Seconds one file may take in all, headers included, however slowly its bytes trickle in."""
    redirects_anywhere: bool = False
    """Follow redirects to other sites too (default: only within the site of the URL asked)."""


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


class _Retry(Exception):
    """A failure worth another try (the message says what happened)."""


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


def is_url(source: str) -> bool:
    """True for an ``http://`` or ``https://`` source."""
    return source.lower().startswith(("http://", "https://"))


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
        with open(path, "rb") as inp, open(out, "wb") as handle:  # copied capped (_pump)
            done = _pump(_blocks(inp), handle, digest, cap, f"{path}", (out.name, size, progress))
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


def is_archive(source: str) -> bool:
    """True for a ``.zip`` bundle (a path or URL, query ignored)."""
    return source.split("?", 1)[0].split("#", 1)[0].lower().endswith(".zip")


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


def unpack(
    archive: Path, dest: Path, where: str, cap: int, progress: Progress | None = None
) -> bytes:
    """Unpack a bundle ``.zip`` into ``dest``, checked; returns the manifest's bytes.

    Only ``manifest.json`` and the files it lists are read (at the top of the archive or in
    one folder); any other entry is ignored, so an archive cannot write anywhere else. Sizes
    are counted as bytes come out (``cap`` per file, whatever the archive claims) and every
    sha256 is checked. Raises :class:`UpdateError` naming ``where``.
    """
    import zipfile
    import zlib

    try:
        with zipfile.ZipFile(archive) as zf:
            names = [i.filename for i in zf.infolist() if not i.is_dir()]
            if len(names) > MAX_ARCHIVE_ENTRIES:
                raise UpdateError(f"{where}: {len(names):,} entries, over {MAX_ARCHIVE_ENTRIES}")
            if len(set(names)) != len(names):
                dup = next(n for n in names if names.count(n) > 1)
                raise UpdateError(f"{where}: the archive holds {dup!r} twice; refused whole")
            prefix = ""
            if MANIFEST not in names:
                found = [n for n in names if n.count("/") == 1 and n.endswith("/" + MANIFEST)]
                if len(found) != 1:
                    raise UpdateError(f"{where}: no {MANIFEST} in the archive")
                prefix = found[0][: -len(MANIFEST)]
            raw = _member(zf, prefix + MANIFEST, dest / MANIFEST, MAX_MANIFEST_BYTES, where)
            doc = parse_manifest(raw, f"{where}!{MANIFEST}")
            for name, expected in doc["files"].items():
                if prefix + name not in names:
                    raise UpdateError(f"{where}: {name} is missing from the archive")
                _member(zf, prefix + name, dest / name, cap, where, expected, progress)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as exc:
        raise UpdateError(f"{where}: not a readable zip archive: {exc}") from exc
    except DataError as exc:
        raise UpdateError(str(exc)) from exc
    return raw


def _member(
    zf: Any,
    member: str,
    out: Path,
    cap: int,
    where: str,
    sha256: str | None = None,
    progress: Progress | None = None,
) -> bytes:
    """Copy one archive member to ``out`` (counting bytes, checking sha256); bytes if small."""
    digest = hashlib.sha256()
    keep = bytearray() if sha256 is None else None
    total = zf.getinfo(member).file_size
    with zf.open(member) as inp, open(out, "wb") as handle:  # copied capped (_pump)
        _pump(
            _blocks(inp),
            handle,
            digest,
            cap,
            f"{where}: {member}",
            (out.name, total, progress),
            keep,
        )
    if sha256 is not None and digest.hexdigest() != sha256:
        raise UpdateError(
            f"{where}: {member}: sha256 {digest.hexdigest()} does not match the manifest ({sha256})"
        )
    return bytes(keep or b"")


def _blocks(inp: Any) -> Any:
    """The blocks of a binary file object, a MiB at a time."""
    return iter(lambda: inp.read(1 << 20), b"")


def _pump(
    blocks: Any,
    handle: Any,
    digest: Any,
    cap: int,
    label: str,
    shown: tuple[str, int | None, Progress | None],
    keep: bytearray | None = None,
    done: int = 0,
) -> int:
    """Write ``blocks`` to ``handle``, hashing them, while the bytes so far (from ``done``) stay
    within ``cap`` (else an :class:`UpdateError` naming ``label``); progress as ``shown``
    (name, total, callback); the bytes also into ``keep`` when given. Returns the bytes so far."""
    name, total, progress = shown
    for block in blocks:
        done += len(block)
        if done > cap:
            raise UpdateError(f"{label}: over the {cap:,}-byte cap")
        digest.update(block)
        handle.write(block)
        if keep is not None:
            keep += block
        if progress is not None:
            progress(name, done, total)
    return done


def _keep_validators(home: Path, url: str, response_headers: dict[str, str]) -> None:
    keep = {}
    if response_headers.get("etag"):
        keep["etag"] = response_headers["etag"]
    if response_headers.get("last-modified"):
        keep["last_modified"] = response_headers["last-modified"]
    if keep:
        save_validators(home, url, keep)


def client(opts: FetchOptions) -> httpx.Client:
    """An httpx client with deckcheck's timeouts, redirects and user agent."""
    from importlib.metadata import PackageNotFoundError, version

    import httpx

    try:  # the installed distribution's version (the data stage does not import the package face)
        __version__ = version("deckcheck")
    except PackageNotFoundError:
        __version__ = "unknown"
    return httpx.Client(
        timeout=httpx.Timeout(opts.timeout),
        follow_redirects=False,  # followed by _fetch_once, within the site (deckcheck.data.http)
        headers={"User-Agent": f"deckcheck/{__version__}", "Accept-Encoding": "identity"},
        limits=httpx.Limits(max_keepalive_connections=0),  # each request its own connection
    )


def fetch(
    http: httpx.Client,
    url: str,
    dest: Path,
    opts: FetchOptions,
    cap: int,
    sha256: str | None,
    headers: dict[str, str],
    progress: Progress | None = None,
    listed_in: str = "the manifest",
) -> dict[str, str] | None:
    """Download ``url`` to ``dest`` with retries; the response headers, or None on a 304.

    Checks the size cap while reading and, when given, the sha256 at the end (a mismatch is
    retried like a transfer error; ``listed_in`` names where the sha256 comes from). Raises
    :class:`UpdateError` naming the URL.
    """
    import httpx

    from deckcheck.data.http import CorruptBody, parse_url

    parse_url(url)
    name = dest.name
    last = ""
    for attempt in range(opts.retries + 1):
        if attempt:
            time.sleep(min(opts.backoff * 2 ** (attempt - 1), 30.0))
        try:
            return _fetch_once(
                http, url, dest, opts, cap, sha256, headers, progress, name, listed_in
            )
        except (_Retry, CorruptBody) as exc:
            last = str(exc)
        except httpx.TimeoutException:
            last = f"no answer within {opts.timeout:g} s"
        except httpx.RemoteProtocolError as exc:
            last = f"the connection broke off mid-answer ({exc})"
        except httpx.TransportError as exc:
            last = f"cannot fetch: {type(exc).__name__}: {exc}"
        except (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError) as exc:
            raise UpdateError(f"{url}: cannot fetch: {type(exc).__name__}: {exc}") from None
    tries = opts.retries + 1
    raise UpdateError(f"{url}: {last} ({tries} {'try' if tries == 1 else 'tries'})")


def _fetch_once(
    http: httpx.Client,
    url: str,
    dest: Path,
    opts: FetchOptions,
    cap: int,
    sha256: str | None,
    headers: dict[str, str],
    progress: Progress | None,
    name: str,
    listed_in: str,
) -> dict[str, str] | None:
    """One try: redirects followed within the site, all under one deadline."""
    import httpx

    from deckcheck.data.http import MAX_REDIRECTS, REDIRECTS, Deadline, redirect_target

    target = httpx.URL(url)
    with Deadline(opts.deadline) as deadline:
        try:
            for _ in range(MAX_REDIRECTS + 1):
                with http.stream(
                    "GET", target, headers=headers, extensions=deadline.extensions()
                ) as resp:
                    if resp.status_code in REDIRECTS and "location" in resp.headers:
                        target = redirect_target(target, resp, opts.redirects_anywhere, url)
                        continue
                    return _answer(
                        resp,
                        url,
                        dest,
                        opts,
                        cap,
                        sha256,
                        headers,
                        progress,
                        name,
                        listed_in,
                        deadline,
                    )
        except httpx.TransportError:
            if deadline.expired:
                raise _Retry(f"slower than the {opts.deadline:g} s deadline") from None
            raise
    raise UpdateError(f"{url}: more than {MAX_REDIRECTS} redirects (a redirect loop?)")


def _answer(
    resp: httpx.Response,
    url: str,
    dest: Path,
    opts: FetchOptions,
    cap: int,
    sha256: str | None,
    headers: dict[str, str],
    progress: Progress | None,
    name: str,
    listed_in: str,
    deadline: Any,
) -> dict[str, str] | None:
    from deckcheck.data.http import Inflater

    if resp.status_code == 304 and headers:
        return None
    if resp.status_code in RETRY_STATUSES:
        raise _Retry(f"HTTP {resp.status_code} {resp.reason_phrase}".rstrip())
    if resp.status_code != 200:
        raise UpdateError(f"{url}: HTTP {resp.status_code} {resp.reason_phrase}".rstrip())
    length_text = resp.headers.get("content-length")
    length = int(length_text) if length_text and length_text.isdigit() else None
    if length is not None and length > cap:
        raise UpdateError(f"{url}: {length:,} bytes, over the {cap:,}-byte cap")
    inflater = Inflater(resp.headers.get("content-encoding", ""), cap, url)
    digest = hashlib.sha256()
    done = raw = 0
    shown = (name, length if not inflater.layers else None, progress)
    with open(dest, "wb") as out:
        for chunk in resp.iter_raw():
            raw += len(chunk)
            if raw > cap:
                raise UpdateError(f"{url}: over the {cap:,}-byte cap")
            if deadline.expired:
                raise _Retry(f"slower than the {opts.deadline:g} s deadline")
            done = _pump(inflater.feed(chunk), out, digest, cap, url, shown, done=done)
        if length is not None and raw != length:
            raise _Retry(f"truncated: {raw:,} of {length:,} bytes")
        _pump(inflater.finish(), out, digest, cap, url, shown, done=done)
    if sha256 is not None and digest.hexdigest() != sha256:
        got = digest.hexdigest()
        raise _Retry(f"sha256 {got} does not match {listed_in} ({sha256})")
    return {k.lower(): v for k, v in resp.headers.items()}
