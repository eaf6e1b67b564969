"""Fetching the upstream files of the built-in source list: only what changed, each checked.

The data folder keeps a cache of the last successful fetch, ``upstream/``: ``files/`` (the files
laid out as the builders read them) and ``state.json`` (per file its URL, ``ETag``,
``Last-Modified``, sha256 and size). :func:`gather` asks for each file again with
``If-None-Match`` / ``If-Modified-Since``; a ``304 Not Modified`` reuses the cached copy, a
fixed version (a commit) in the cache is not asked for at all. The files of one fetch are laid
out in a new folder in the data folder (cached ones as hard links), so a fetch that fails or is
killed leaves the cache as it was; :func:`commit` makes it the cache after the data built from
it was installed.

Every file fetched is checked before the build: it must parse (:mod:`deckcheck.data.probe`: an
``.lflist.conf`` gives a list, JSON and JSON lines parse, a card database opens and holds cards),
and a card file may not shrink below :data:`MIN_CARD_FRACTION` of its previous size. A file the
server says is gone (404, 410) is an error naming the repository and path: the repository moved
or the file vanished.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from deckcheck.boundary import read_data
from deckcheck.data.download import FetchOptions, Progress, fetch, is_url
from deckcheck.data.probe import check_file as check_file
from deckcheck.data.source_list import HISTORY, HISTORY_INDEX, Entry, Kind, SourceList
from deckcheck.data.store import write_atomic
from deckcheck.error import UpdateError

if TYPE_CHECKING:
    import httpx

CACHE = "upstream"
"""The cache folder of the last fetch, in the data folder."""
STATE = "state.json"
MIN_CARD_FRACTION = 0.75
"""A card file fetched again may not be smaller than this fraction of the copy it replaces."""
WORKERS = 8
"""Files fetched at once."""
_WORK_PREFIX = "upstream-work-"
_VECTOR_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}\.vector\.json$")
LISTED = "the built-in source list"


@dataclass
class Fetched:
    """What one fetch found (filled in as files arrive)."""

    folder: Path
    """The new cache folder: ``files/`` and, after :func:`commit`, ``state.json``."""
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    """dest -> its record (url, etag, last_modified, sha256, size)."""
    changed: list[str] = field(default_factory=list)
    """The dests fetched anew (200)."""
    not_modified: int = 0
    """Files the server answered 304 to."""
    reused: int = 0
    """Fixed versions taken from the cache without asking."""
    requests: int = 0
    downloaded: int = 0
    """Bytes fetched."""
    announced: list[str] = field(default_factory=list)
    """The dates of the newest lists the ``follow`` entries named."""
    filed: dict[str, dict[str, str]] = field(default_factory=dict)
    """ProjectIgnis current lists filed in ``history/``: name -> sha256, date, source path."""

    @property
    def tree(self) -> Path:
        """The fetched files, laid out as the builders read them."""
        return self.folder / "files"

    def newest(self) -> date | None:
        """The newest ``Last-Modified`` date among the files (None: no server gave one)."""
        days = [_http_day(r.get("last_modified")) for r in self.files.values()]
        known = [d for d in days if d is not None]
        return max(known) if known else None


def _http_day(text: str | None) -> date | None:
    if not text:
        return None
    try:
        return parsedate_to_datetime(text).date()
    except (TypeError, ValueError):
        return None


def cache_dir(home: Path) -> Path:
    """The cache of the last fetch."""
    return home / CACHE


def load_state(home: Path) -> dict[str, Any]:
    """The cache's record (empty when there is none or it is unreadable)."""
    try:
        doc = json.loads(read_data(cache_dir(home) / STATE))
        if isinstance(doc, dict) and isinstance(doc.get("files"), dict):
            return doc
    except (OSError, ValueError):
        pass
    return {"files": {}}


def clean_stale(home: Path) -> None:
    """Remove folders of fetches that never finished (call with the data folder's lock)."""
    for stale in home.glob(_WORK_PREFIX + "*"):
        shutil.rmtree(stale, ignore_errors=True)


def gather(
    sources: SourceList,
    mirror: str | None,
    home: Path,
    opts: FetchOptions,
    progress: Progress | None = None,
    force: bool = False,
) -> Fetched:
    """Fetch every file of ``sources`` that changed (from ``mirror`` when given) and check it.

    Returns the new fetch (its folder is in the data folder; remove it, or :func:`commit` it).
    Raises :class:`UpdateError` naming the file when one cannot be fetched or fails a check.
    """
    state = load_state(home)
    folder = home / f"{_WORK_PREFIX}{os.getpid()}-{time.monotonic_ns()}"
    (folder / "files").mkdir(parents=True)
    got = Fetched(folder)
    fetcher = _Fetcher(sources, mirror, cache_dir(home) / "files", state, got, opts, force)
    fetcher.progress = progress
    try:
        fetcher.run()
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return got


class _Fetcher:
    """One fetch: the entries, the cache, the client; runs the files in a few threads."""

    def __init__(
        self,
        sources: SourceList,
        mirror: str | None,
        cache: Path,
        state: dict[str, Any],
        got: Fetched,
        opts: FetchOptions,
        force: bool,
    ) -> None:
        self.sources, self.mirror, self.cache, self.state = sources, mirror, cache, state
        self.got, self.opts, self.force = got, opts, force
        self.progress: Progress | None = None
        self.lock = threading.Lock()
        self.http: httpx.Client | None = None

    def run(self) -> None:
        entries = list(self.sources.entries)
        listed = {e.dest for e in entries}
        for dest, rec in self.state["files"].items():
            if rec.get("discovered") and dest not in listed:
                entries.append(_discovered(dest, rec))
        local = self.mirror is not None and not is_url(self.mirror)
        if local:
            self._all(entries)
            return
        from deckcheck.data.download import client

        with client(self.opts) as http:
            self.http = http
            self._all(entries)

    def _all(self, entries: list[Entry]) -> None:
        """Fetch every entry, a few at once; the first failure cancels the ones not started."""
        pool = ThreadPoolExecutor(WORKERS)
        try:
            for _ in pool.map(self.one, entries):
                pass
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def url(self, entry: Entry) -> str:
        return entry.url(self.sources, self.mirror if self.mirror and is_url(self.mirror) else None)

    def one(self, entry: Entry) -> None:
        """Fetch one entry (a ``follow`` entry, then its target)."""
        dest = entry.dest if entry.kind is not Kind.FOLLOW else entry.dest + ".current"
        body = self._file(entry, dest)
        if entry.kind is Kind.FOLLOW:
            self._follow(entry, body)

    def _file(self, entry: Entry, dest: str) -> Path:
        out = self.got.tree / dest
        out.parent.mkdir(parents=True, exist_ok=True)
        cached = self.cache / dest
        rec = self.state["files"].get(dest)
        url = self.url(entry)
        if rec is not None and rec.get("url") == url and cached.is_file() and not self.force:
            if entry.pinned and cached.stat().st_size == rec.get("size"):
                return self._reuse(cached, out, dest, rec, reused=True)
        else:
            rec = None
        if self.mirror is not None and not is_url(self.mirror):
            return self._copy_local(entry, url, out, dest, rec, cached)
        headers = _conditional(rec)
        assert self.http is not None
        with self.lock:
            self.got.requests += 1
        opts = self.opts
        if entry.kind is Kind.ASSET and not self.mirror:
            # GitHub serves release assets through a redirect to its download host
            opts = replace(opts, redirects_anywhere=True)
        try:
            answer = fetch(
                self.http,
                url,
                out,
                opts,
                opts.max_bytes,
                None,
                headers,
                self._progress,
                LISTED,
            )
        except UpdateError as exc:
            raise _explain(exc, entry, url) from None
        if answer is None:
            return self._reuse(cached, out, dest, rec or {}, reused=False)
        record = {
            "url": url,
            "etag": answer.get("etag"),
            "last_modified": answer.get("last-modified"),
        }
        return self._accept(out, dest, record, rec, entry)

    def _copy_local(
        self,
        entry: Entry,
        url: str,
        out: Path,
        dest: str,
        rec: dict[str, Any] | None,
        cached: Path,
    ) -> Path:
        assert self.mirror is not None
        path = Path(self.mirror) / unquote(urlsplit(url).path).lstrip("/")
        try:
            size = path.stat().st_size
            if size > self.opts.max_bytes:
                raise UpdateError(
                    f"{path}: {size:,} bytes, over the {self.opts.max_bytes:,}-byte cap"
                )
            shutil.copyfile(path, out)
        except FileNotFoundError:
            raise UpdateError(
                f"{entry.origin}: not in the mirror ({path}); the repository moved or the file "
                "vanished"
            ) from None
        except OSError as exc:
            raise UpdateError(f"{path}: cannot read: {exc.strerror or exc}") from exc
        sha = _sha256(out)
        if rec is not None and rec.get("sha256") == sha:
            with self.lock:
                self.got.not_modified += 1
                self.got.files[dest] = rec
            return out
        return self._accept(
            out, dest, {"url": url, "etag": None, "last_modified": None}, rec, entry
        )

    def _reuse(self, cached: Path, out: Path, dest: str, rec: dict[str, Any], reused: bool) -> Path:
        if not cached.is_file():
            raise UpdateError(f"{dest}: answered 304 Not Modified, but the cached copy is gone")
        with contextlib.suppress(FileExistsError):
            out.unlink(missing_ok=True)
        try:
            os.link(cached, out)
        except FileExistsError:
            # the same file listed twice (a list and the link that names it), placed meanwhile
            if not os.path.samefile(cached, out):
                out.unlink(missing_ok=True)
                shutil.copyfile(cached, out)
        except OSError:
            with contextlib.suppress(shutil.SameFileError):
                shutil.copyfile(cached, out)
        with self.lock:
            if reused:
                self.got.reused += 1
            else:
                self.got.not_modified += 1
            self.got.files[dest] = rec
        return out

    def _accept(
        self,
        out: Path,
        dest: str,
        record: dict[str, Any],
        old: dict[str, Any] | None,
        entry: Entry,
    ) -> Path:
        size = out.stat().st_size
        if size == 0:
            raise UpdateError(f"{entry.origin}: {record['url']} is empty")
        check_file(out, dest, entry.origin)
        previous = (old or {}).get("size")
        if (
            not self.force
            and dest.startswith("cards/")
            and isinstance(previous, int)
            and size < previous * MIN_CARD_FRACTION
        ):
            raise UpdateError(
                f"{entry.origin}: {size:,} bytes, under {MIN_CARD_FRACTION:.0%} of the "
                f"{previous:,} bytes fetched last time (a truncated upstream file?); "
                "--force accepts it"
            )
        record |= {"sha256": _sha256(out), "size": size}
        if old is not None and old.get("sha256") == record["sha256"]:
            # the same bytes again (a server that ignores conditional requests): not a change
            with self.lock:
                self.got.files[dest] = old | {
                    k: v for k, v in record.items() if k in ("etag", "last_modified") and v
                }
                self.got.not_modified += 1
            return out
        if (
            entry.kind is Kind.FILE
            and entry.ref == "HEAD"
            and entry.repo
            and entry.path
            and (entry.dest not in {e.dest for e in self.sources.entries})
        ):
            record["discovered"] = {"repo": entry.repo, "path": entry.path}
        with self.lock:
            self.got.files[dest] = record
            self.got.changed.append(dest)
            self.got.downloaded += size
        return out

    def _progress(self, name: str, done: int, total: int | None) -> None:
        if self.progress is not None:
            with self.lock:
                self.progress(name, done, total)

    def _follow(self, entry: Entry, body: Path) -> None:
        """Fetch the file a ``follow`` entry names (its raw text, or the JSON's own date)."""
        raw = read_data(body)
        text = raw.decode("utf-8", "replace").strip()
        folder_in_repo = entry.path.rsplit("/", 1)[0]
        if _VECTOR_NAME.match(text):
            name = text
        else:
            try:
                name = date.fromisoformat(str(json.loads(raw)["date"])).isoformat()
                name += ".vector.json"
            except (ValueError, KeyError, TypeError):
                raise UpdateError(
                    f"{entry.origin}: neither a file name nor a list with a date"
                ) from None
        with self.lock:
            self.got.announced.append(name[:10])
        target = Entry(entry.dest + name, Kind.FILE, entry.repo, "HEAD", f"{folder_in_repo}/{name}")
        if target.dest in {e.dest for e in self.sources.entries}:
            return
        self._file(target, target.dest)


def _discovered(dest: str, rec: dict[str, Any]) -> Entry:
    found = rec["discovered"]
    return Entry(dest, Kind.FILE, str(found["repo"]), "HEAD", str(found["path"]))


def _conditional(rec: dict[str, Any] | None) -> dict[str, str]:
    headers: dict[str, str] = {}
    if rec is None:
        return headers
    if rec.get("etag"):
        headers["If-None-Match"] = str(rec["etag"])
    if rec.get("last_modified"):
        headers["If-Modified-Since"] = str(rec["last_modified"])
    return headers


def _explain(exc: UpdateError, entry: Entry, url: str) -> UpdateError:
    text = str(exc)
    if f"{url}: HTTP 404" in text or f"{url}: HTTP 410" in text:
        return UpdateError(
            f"{entry.origin}: {url} is gone ({text.split(': ', 1)[1]}); the repository moved "
            "or the file vanished"
        )
    return UpdateError(f"{entry.origin}: {text}")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:  # streamed in blocks: memory bounded whatever the size
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_history(got: Fetched, sources: SourceList, state: dict[str, Any], today: date) -> Path:
    """Lay out the build folder: the fetched files, current EDOPro lists filed by name.

    Returns the folder the builders read (inside the fetch's folder; hard links).
    """
    build = got.folder / "build"
    shutil.copytree(got.tree, build, copy_function=_link)
    filed: dict[str, dict[str, str]] = dict(state.get("filed", {}))
    rows = {
        e.dest[len(HISTORY) :]: {
            "file": e.dest[len(HISTORY) :],
            "header": e.header,
            "source_path": e.path,
            "commit": e.ref,
            "commit_date": e.commit_date,
        }
        for e in sources.entries
        if e.dest.startswith(HISTORY)
    }
    for e in sources.entries:
        if e.history:
            _file_one(build, e, rows, filed, got, today)
    got.filed = {k: v for k, v in filed.items() if k in rows}
    index = [rows[k] for k in sorted(rows)]
    (build / HISTORY_INDEX).parent.mkdir(parents=True, exist_ok=True)
    (build / HISTORY_INDEX).write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    return build


def _file_one(
    build: Path,
    entry: Entry,
    rows: dict[str, dict[str, Any]],
    filed: dict[str, dict[str, str]],
    got: Fetched,
    today: date,
) -> None:
    path = build / entry.dest
    raw = read_data(path)
    names = [ln[1:].strip() for ln in raw.decode("utf-8-sig").splitlines() if ln.startswith("!")]
    if len(names) != 1 or "/" in names[0] or not names[0]:
        return
    file = names[0] + ".lflist.conf"
    target = build / HISTORY / file
    sha = hashlib.sha256(raw).hexdigest()
    if target.is_file() and _sha256(target) == sha:
        return
    seen = filed.get(file)
    when = seen["date"] if seen and seen.get("sha256") == sha else _seen_day(got, entry, today)
    filed[file] = {"sha256": sha, "date": when, "source_path": entry.path}
    target.unlink(missing_ok=True)
    target.write_bytes(raw)
    rows[file] = {
        "file": file,
        "header": names[0],
        "source_path": entry.path,
        "commit": "HEAD",
        "commit_date": when,
    }


def _seen_day(got: Fetched, entry: Entry, today: date) -> str:
    day = _http_day(got.files.get(entry.dest, {}).get("last_modified"))
    return (day or today).isoformat()


def _link(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def commit(got: Fetched, home: Path, built: str) -> None:
    """Make the fetch the cache (after the data built from it, ``built``, was installed)."""
    state = {
        "files": got.files,
        "filed": got.filed,
        "built": built,
        "fetched_at": datetime.now().astimezone().isoformat(timespec="seconds"),
        "announced": max(got.announced, default=None),
    }
    shutil.rmtree(got.folder / "build", ignore_errors=True)
    write_atomic(got.folder / STATE, (json.dumps(state, indent=1) + "\n").encode())
    cache = cache_dir(home)
    old = home / f"{_WORK_PREFIX}old-{time.monotonic_ns()}"
    if cache.exists():
        cache.rename(old)
    got.folder.rename(cache)
    shutil.rmtree(old, ignore_errors=True)


Notify = Callable[[str], None]
