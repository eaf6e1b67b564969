"""``deckcheck data update --from-upstream``: fetch the source data, build a bundle, install it.

The sources are described by a *source list*, ``sources.json``, at a URL or in a folder::

    {"as_of": "2026-11-15",
     "sources": ["ProjectIgnis/LFLists@<commit>", "DawnbrandBots/yaml-yugi-limit-regulation@..."],
     "files": [
       {"path": "lflists/projectignis/current/0TCG.lflist.conf",
        "url": "https://raw.githubusercontent.com/ProjectIgnis/LFLists/<commit>/0TCG.lflist.conf",
        "sha256": "..."},
       {"path": "cards/derived/projectignis-cards.merged.cdb", "size": 6900000}]}

Each file is fetched (from its ``url``, or from the list's folder plus ``path``) into a
temporary folder laid out like the shared source data (``cards/``, ``lflists/``; see the build
scripts), with the same timeouts, retries, size cap and checks as a bundle update; ``sha256``
and ``size`` are checked when given. The bundle is then built with the same code as
``scripts/build_dataset.py --out`` (:func:`deckcheck.data.bundle.build`), checked against the data
in use (no ban list may disappear, the card index may not shrink), loaded, and installed
atomically like any update. ``scripts/build_dataset.py --source-list`` writes the source list
of a source-data folder, so a copy of that folder served over HTTP is a mirror.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import quote

from deckcheck.boundary import is_regular_file, read_capped, read_data
from deckcheck.data.dataset import Dataset, file_sha256
from deckcheck.data.download import FetchOptions, Progress, client, fetch, is_url
from deckcheck.data.guard import guard
from deckcheck.data.store import data_home, install, locked, new_staging, require_network
from deckcheck.data.update import UpdateResult, UpdateStatus, check_as_of, check_source
from deckcheck.error import DataError, UpdateError

UPSTREAM_ENV = "DECKCHECK_UPSTREAM_URL"
"""Environment variable naming the default source list (a URL or a folder)."""
SOURCE_LIST = "sources.json"
"""Name of the source list in a mirror folder."""
MAX_LIST_BYTES = 4 << 20
"""Size cap of a source list."""
MAX_SOURCE_FILES = 5_000
"""Most files a source list may name (the built-in one names about 700)."""
LISTED = "the source list"


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One file of a source list."""

    path: str
    """Where it goes in the source-data layout (``cards/...``, ``lflists/...``)."""
    url: str | None
    """Where to fetch it; None: the list's own folder plus :attr:`path`."""
    sha256: str | None
    size: int | None


def parse_source_list(raw: bytes, where: str) -> tuple[dict[str, Any], list[SourceFile]]:
    """The source list's header and its files; :class:`DataError` naming ``where`` if unusable.

    Paths must be relative, inside ``cards/`` or ``lflists/``, without ``..``.
    """
    try:
        doc = json.loads(raw)
        rows = doc["files"]
        if not isinstance(doc, dict) or not isinstance(rows, list) or not rows:
            raise ValueError("'files' must be a non-empty list")
        if len(rows) > MAX_SOURCE_FILES:
            raise ValueError(f"{len(rows):,} files listed, over the {MAX_SOURCE_FILES:,} allowed")
        if "as_of" in doc:
            check_as_of(doc["as_of"], where)
        files: list[SourceFile] = []
        for row in rows:
            path = row["path"]
            parts = path.split("/")
            if (
                any(ord(c) < 32 or c == "\x7f" for c in path)
                or parts[0] not in ("cards", "lflists")
                or len(parts) < 2
                or "\\" in path
                or any(p in ("..", ".", "") for p in parts)
            ):
                raise ValueError(f"bad path {path!r}")
            sha = row.get("sha256")
            size = row.get("size")
            files.append(
                SourceFile(
                    path,
                    str(row["url"]) if row.get("url") else None,
                    str(sha).lower() if sha else None,
                    int(size) if size is not None else None,
                )
            )
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise DataError(f"{where}: not a usable source list: {exc}") from exc
    return doc, files


def source_list(data: Path, base_url: str | None = None) -> dict[str, Any]:
    """The source list of a source-data folder (every file under ``cards/`` and ``lflists/``).

    With ``base_url``, each file gets its URL under it; otherwise paths are relative to the
    list's own location.
    """
    from deckcheck.data.bundle import snapshot_date
    from deckcheck.data.dataset import file_sha256

    files = []
    for top in ("cards", "lflists"):
        for path in sorted((data / top).rglob("*")):
            if path.is_file():
                rel = path.relative_to(data).as_posix()
                row: dict[str, Any] = {
                    "path": rel,
                    "sha256": file_sha256(path),
                    "size": path.stat().st_size,
                }
                if base_url:
                    row["url"] = base_url.rstrip("/") + "/" + quote(rel)
                files.append(row)
    as_of = snapshot_date(data)
    out: dict[str, Any] = {"files": files}
    if as_of is not None:
        out["as_of"] = as_of.isoformat()
    return out


def update_from_upstream(
    source: str | Path | None = None,
    *,
    home: Path | None = None,
    options: FetchOptions | None = None,
    progress: Progress | None = None,
    force: bool = False,
    notify: Callable[[str], None] | None = None,
) -> UpdateResult:
    """Fetch the sources of a source list, build a bundle from them and install it.

    ``source`` is the URL or folder of ``sources.json`` (or the file itself), or of a mirror of
    the upstream layout; default ``DECKCHECK_UPSTREAM_URL``, else the upstream repositories with
    the built-in source list (:func:`deckcheck.data.rebuild.update_builtin`). A local
    source-data folder without a list is taken whole.
    ``force`` installs even a bundle equal to, older than or smaller than the data in use.
    ``notify`` receives a line as each step starts (the build takes a while). Raises
    :class:`UpdateError` (the data in use is then unchanged).
    """
    home = home or data_home()
    opts = options or FetchOptions()
    src = str(source) if source is not None else os.environ.get(UPSTREAM_ENV, "").strip()
    if src:
        check_source(src)
    if not src or _is_mirror(src):
        from deckcheck.data.rebuild import update_builtin

        return update_builtin(
            src or None, home=home, options=opts, progress=progress, force=force, notify=notify
        )
    if is_url(src):
        require_network(src)
    previous = Dataset.active()
    with locked(home):
        staging = new_staging(home)
        work = Path(tempfile.mkdtemp(prefix="deckcheck-sources-"))
        try:
            if notify is not None:
                notify(f"fetching the sources listed at {src}")
            doc, _ = _fetch_sources(src, work, opts, progress)
            return _build_and_install(src, doc, work, staging, home, previous, force, notify)
        except DataError as exc:
            raise UpdateError(f"{exc} (nothing was installed)") from exc
        except OSError as exc:
            where = exc.filename or work
            raise UpdateError(f"{where}: {exc.strerror or exc} (nothing was installed)") from exc
        except (ValueError, TypeError, KeyError) as exc:  # a hostile list no check foresaw
            raise UpdateError(f"{src}: unusable sources: {exc} (nothing was installed)") from exc
        finally:
            shutil.rmtree(work, ignore_errors=True)
            shutil.rmtree(staging, ignore_errors=True)


def _is_mirror(src: str) -> bool:
    """True for a mirror of the upstream layout (not a source list, nor a source-data folder).

    A URL names a source list when it ends in ``.json``; a folder holds one (or is a source-data
    folder, with ``cards/``).
    """
    if is_url(src):
        return not src.split("?", 1)[0].rstrip("/").endswith(".json")
    folder = Path(src)
    if folder.name == SOURCE_LIST or not folder.is_dir():
        return False
    return not ((folder / SOURCE_LIST).exists() or (folder / "cards").is_dir())


def _list_location(src: str) -> tuple[str, str]:
    """``(base ending in /, list location)`` of a source list URL or path."""
    if src.rstrip("/").endswith(SOURCE_LIST):
        loc = src.rstrip("/")
        return loc[: -len(SOURCE_LIST)], loc
    base = src if src.endswith("/") else src + "/"
    return base, base + SOURCE_LIST


def _fetch_sources(
    src: str, work: Path, opts: FetchOptions, progress: Progress | None
) -> tuple[dict[str, Any], list[SourceFile]]:
    base, loc = _list_location(src)
    data = work / "data"
    data.mkdir()
    if not is_url(src):
        folder = Path(base)
        if not Path(loc).exists() and (folder / "cards").is_dir():
            # a source-data folder without a list: take every file it holds
            raw = json.dumps(source_list(folder)).encode()
        else:
            try:
                raw = read_capped(
                    loc, MAX_LIST_BYTES, refuse=lambda why: UpdateError(f"{loc}: {why}")
                )
            except OSError as exc:
                raise UpdateError(f"{loc}: cannot read: {exc.strerror or exc}") from exc
        doc, files = parse_source_list(raw, loc)
        if any(f.url for f in files):
            require_network(loc)
        with client(opts) as http:
            for f in files:
                dest = data / f.path
                dest.parent.mkdir(parents=True, exist_ok=True)
                if f.url:
                    fetch(http, f.url, dest, opts, opts.max_bytes, f.sha256, {}, progress, LISTED)
                else:
                    _copy(Path(base) / f.path, dest, opts, f.sha256)
                _check_size(f, dest)
        return doc, files
    with client(opts) as http:
        list_file = work / SOURCE_LIST
        fetch(http, loc, list_file, opts, MAX_LIST_BYTES, None, {})
        doc, files = parse_source_list(read_data(list_file, MAX_LIST_BYTES), loc)
        for f in files:
            dest = data / f.path
            dest.parent.mkdir(parents=True, exist_ok=True)
            url = f.url or base + quote(f.path)
            fetch(http, url, dest, opts, opts.max_bytes, f.sha256, {}, progress, LISTED)
            _check_size(f, dest)
    return doc, files


def _copy(path: Path, dest: Path, opts: FetchOptions, sha256: str | None) -> None:
    try:
        if path.exists() and not is_regular_file(path):
            raise UpdateError(f"{path}: not a regular file (a FIFO, device...)")
        if path.stat().st_size > opts.max_bytes:
            raise UpdateError(f"{path}: over the {opts.max_bytes:,}-byte cap")
        shutil.copyfile(path, dest)
    except OSError as exc:
        raise UpdateError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    if sha256 is not None:
        got = file_sha256(dest)
        if got != sha256:
            raise UpdateError(f"{path}: sha256 {got} does not match the source list ({sha256})")


def _check_size(f: SourceFile, dest: Path) -> None:
    if f.size is not None and dest.stat().st_size != f.size:
        raise UpdateError(
            f"{f.path}: {dest.stat().st_size:,} bytes, the source list says {f.size:,}"
        )


def _build_and_install(
    src: str,
    doc: dict[str, Any],
    work: Path,
    staging: Path,
    home: Path,
    previous: Dataset,
    force: bool,
    notify: Callable[[str], None] | None,
) -> UpdateResult:
    from deckcheck.data.bundle import build

    as_of = date.fromisoformat(str(doc["as_of"])) if doc.get("as_of") else date.today()
    extra = [str(s) for s in doc.get("sources", []) if isinstance(s, str)]
    build(work / "data", staging, as_of, extra_sources=extra, log=notify)
    if notify is not None:
        notify("checking the new data")
    staged = Dataset.open(staging)
    if not force:
        if staged.fingerprint == previous.fingerprint:
            return UpdateResult(UpdateStatus.CURRENT, previous, previous, src)
        if staged.as_of < previous.as_of:
            raise UpdateError(
                f"{src}: the sources are as of {staged.as_of.isoformat()}, older than the data "
                f"in use ({previous.as_of.isoformat()}); --force installs them anyway"
            )
        guard(staged, previous)
    del staged
    data = install(staging, "upstream:" + src, home)
    Dataset.reload_active()
    size = sum(p.stat().st_size for p in (work / "data").rglob("*") if p.is_file())
    return UpdateResult(UpdateStatus.UPDATED, data, previous, src, size)
