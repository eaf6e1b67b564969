"""Downloads of the data stage: one file from a URL, capped, checked, retried.

:func:`fetch` downloads a URL to a file with retries and exponential backoff (connection
errors, timeouts, truncated bodies, 408/425/429/5xx), a size cap counted as bytes arrive
(encodings decoded under it, :class:`deckcheck.data.http.Inflater`), one deadline per file,
redirects followed only within the site asked (unless allowed), a progress callback and,
when given, a sha256 check. :func:`client` is the httpx client every download uses;
:func:`pump` the one capped, hashed copy of a stream of blocks (downloads, archive members,
files copied from a folder). httpx is imported only when a URL is fetched.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.boundary import read_number
from deckcheck.error import UpdateError

if TYPE_CHECKING:
    import httpx

RETRY_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})
"""HTTP statuses worth another try."""
Progress = Callable[[str, int, "int | None"], None]
"""Called as bytes arrive: ``(file name, bytes so far, total bytes or None if unknown)``."""


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


class _Retry(Exception):
    """A failure worth another try (the message says what happened)."""


def is_url(source: str) -> bool:
    """True for an ``http://`` or ``https://`` source."""
    return source.lower().startswith(("http://", "https://"))


def read_blocks(inp: Any) -> Any:
    """The blocks of a binary file object, a MiB at a time."""
    return iter(lambda: inp.read(1 << 20), b"")


def pump(
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
    want = _Want(url, dest, opts, cap, sha256, headers, progress, listed_in)
    last = ""
    for attempt in range(opts.retries + 1):
        if attempt:
            time.sleep(min(opts.backoff * 2 ** (attempt - 1), 30.0))
        try:
            return _fetch_once(http, want)
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


@dataclass(frozen=True)
class _Want:
    """One download, as :func:`fetch` was asked for it (each try reads it)."""

    url: str
    dest: Path
    opts: FetchOptions
    cap: int
    sha256: str | None
    headers: dict[str, str]
    progress: Progress | None
    listed_in: str


def _fetch_once(http: httpx.Client, want: _Want) -> dict[str, str] | None:
    """One try: redirects followed within the site, all under one deadline."""
    import httpx

    from deckcheck.data.http import MAX_REDIRECTS, REDIRECTS, Deadline, redirect_target

    url, opts = want.url, want.opts
    target = httpx.URL(url)
    with Deadline(opts.deadline) as deadline:
        try:
            for _ in range(MAX_REDIRECTS + 1):
                with http.stream(
                    "GET", target, headers=want.headers, extensions=deadline.extensions()
                ) as resp:
                    if resp.status_code in REDIRECTS and "location" in resp.headers:
                        target = redirect_target(target, resp, opts.redirects_anywhere, url)
                        continue
                    return _answer(resp, want, deadline)
        except httpx.TransportError:
            if deadline.expired:
                raise _Retry(f"slower than the {opts.deadline:g} s deadline") from None
            raise
    raise UpdateError(f"{url}: more than {MAX_REDIRECTS} redirects (a redirect loop?)")


def _answer(resp: httpx.Response, want: _Want, deadline: Any) -> dict[str, str] | None:
    """The response of one try written to ``want.dest`` (its headers), or None on a 304."""
    from deckcheck.data.http import Inflater

    url, cap, opts = want.url, want.cap, want.opts
    if resp.status_code == 304 and want.headers:
        return None
    if resp.status_code in RETRY_STATUSES:
        raise _Retry(f"HTTP {resp.status_code} {resp.reason_phrase}".rstrip())
    if resp.status_code != 200:
        raise UpdateError(f"{url}: HTTP {resp.status_code} {resp.reason_phrase}".rstrip())
    length_text = resp.headers.get("content-length")
    length = read_number(length_text, 1 << 62) if length_text else None  # (a server's text)
    if length is not None and length > cap:
        raise UpdateError(f"{url}: {length:,} bytes, over the {cap:,}-byte cap")
    inflater = Inflater(resp.headers.get("content-encoding", ""), cap, url)
    digest = hashlib.sha256()
    done = raw = 0
    shown = (want.dest.name, length if not inflater.layers else None, want.progress)
    with open(want.dest, "wb") as out:
        for chunk in resp.iter_raw():
            raw += len(chunk)
            if raw > cap:
                raise UpdateError(f"{url}: over the {cap:,}-byte cap")
            if deadline.expired:
                raise _Retry(f"slower than the {opts.deadline:g} s deadline")
            done = pump(inflater.feed(chunk), out, digest, cap, url, shown, done=done)
        if length is not None and raw != length:
            raise _Retry(f"truncated: {raw:,} of {length:,} bytes")
        pump(inflater.finish(), out, digest, cap, url, shown, done=done)
    if want.sha256 is not None and digest.hexdigest() != want.sha256:
        got = digest.hexdigest()
        raise _Retry(f"sha256 {got} does not match {want.listed_in} ({want.sha256})")
    return {k.lower(): v for k, v in resp.headers.items()}
