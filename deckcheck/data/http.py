"""The guards of an update download: encodings decoded under the cap, one deadline, redirects.

* :class:`Inflater`: the answer's ``Content-Encoding`` layers (``gzip``, ``deflate``, in any
  number) decoded here rather than by httpx, each layer's output counted against the size cap
  as it inflates, so ``Content-Encoding: gzip, gzip`` cannot turn 2 KB into 2 GB. A layer may
  hold several gzip members one after the other (``gzip(a) + gzip(b)`` decodes to ``a + b``,
  as ``gzip -d`` does); each layer decodes at most :data:`CHUNK` bytes at a time, so memory stays
  bounded. Any other encoding is refused (deckcheck asks for ``identity``). This is the one
  decoder of every HTTP body deckcheck downloads (bundles, ``data diff``, upstream files).
* :class:`Deadline`: one overall deadline per file, headers included: when it passes, the
  connection is shut down, so a server that trickles its headers a byte at a time is cut off.
* :func:`redirect_target`: where a redirect leads, refused when it leaves the origin (scheme,
  host, port) of the URL asked for, unless the user allows it.

httpx is imported only by the functions that use it.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import zlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from deckcheck.error import UpdateError

if TYPE_CHECKING:
    import httpx

ENCODINGS = frozenset({"gzip", "x-gzip", "deflate"})
"""Content encodings deckcheck decodes (under the cap); any other is refused."""
MAX_LAYERS = 4
"""Most encoding layers an answer may have."""
MAX_REDIRECTS = 10
"""Most redirects followed for one file."""
REDIRECTS = frozenset({301, 302, 303, 307, 308})
CHUNK = 1 << 16
"""Most bytes one layer decodes at a time (memory stays bounded however the body inflates)."""


class Inflater:
    """Decodes the encoding layers of one answer; every layer's output is capped."""

    def __init__(self, header: str, cap: int, url: str) -> None:
        names = [e.strip().lower() for e in header.split(",") if e.strip()]
        names = [e for e in names if e != "identity"]
        bad = [e for e in names if e not in ENCODINGS]
        if bad:
            raise UpdateError(f"{url}: unsupported Content-Encoding {bad[0]!r} (asked identity)")
        if len(names) > MAX_LAYERS:
            raise UpdateError(f"{url}: {len(names)} Content-Encoding layers, over {MAX_LAYERS}")
        self.layers = [zlib.decompressobj(47) for _ in names][::-1]  # last applied first off
        self.names = names[::-1]
        self.out = [0] * len(self.layers)
        self.cap = cap
        self.url = url

    def _through(self, i: int, data: bytes) -> Iterator[bytes]:
        if i == len(self.layers):
            yield data
            return
        pending = data
        while pending:
            layer = self.layers[i]
            if layer.eof:  # the member before ended: the next bytes start another member
                self.layers[i] = layer = zlib.decompressobj(47)
            try:
                piece = layer.decompress(pending, CHUNK)
            except zlib.error as exc:
                raise CorruptBody(f"corrupt {self.names[i]} body ({exc})") from None
            # At a member's end the bytes after it are in ``unused_data`` only (zlib may leave
            # a copy of them in ``unconsumed_tail`` too: reading both would decode them twice).
            pending = layer.unused_data if layer.eof else layer.unconsumed_tail
            self.out[i] += len(piece)
            if self.out[i] > self.cap:
                raise UpdateError(
                    f"{self.url}: over the {self.cap:,}-byte cap as it inflates "
                    f"({self.names[i]} layer {i + 1} of {len(self.layers)})"
                )
            if piece:
                yield from self._through(i + 1, piece)

    def feed(self, data: bytes) -> Iterator[bytes]:
        """The decoded bytes of the next raw bytes."""
        yield from self._through(0, data)

    def finish(self) -> Iterator[bytes]:
        """The last decoded bytes; :class:`CorruptBody` when a layer is cut short."""
        for i, layer in enumerate(self.layers):
            try:
                rest = layer.flush()
            except zlib.error as exc:
                raise CorruptBody(f"corrupt {self.names[i]} body ({exc})") from None
            if not layer.eof:
                raise CorruptBody(f"corrupt {self.names[i]} body (cut short)")
            if rest:
                yield from self._through(i + 1, rest)


class CorruptBody(Exception):
    """An encoded body that does not decode (worth another try)."""


class Deadline:
    """One deadline for a whole download: past it, the connection is shut down.

    Pass :meth:`extensions` with the request: its ``trace`` hook notes each socket opened (the
    client keeps no idle connections, so every request opens one).
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def _trace(self, name: str, info: dict[str, Any]) -> None:
        if name.endswith("connect_tcp.complete"):
            stream = info.get("return_value")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if isinstance(sock, socket.socket):
                with self._lock:
                    self._sockets.append(sock)
                    if self.expired:
                        self._shut(sock)

    @staticmethod
    def _shut(sock: socket.socket) -> None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                self._shut(sock)

    def extensions(self) -> dict[str, Any]:
        """The request extensions that let the deadline see the connection."""
        return {"trace": self._trace}

    def __enter__(self) -> Deadline:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()


def origin(url: httpx.URL) -> tuple[str, str, int | None]:
    """``(scheme, host, port)`` of a URL, the default port filled in."""
    default = {"http": 80, "https": 443}.get(url.scheme)
    return url.scheme, url.host.lower(), url.port or default


def redirect_target(asked: httpx.URL, resp: httpx.Response, anywhere: bool, url: str) -> httpx.URL:
    """Where a redirect answer leads; :class:`UpdateError` when it leaves ``asked``'s origin
    (unless ``anywhere``) or is not an ``http(s)`` URL."""
    import httpx

    location = resp.headers.get("location", "")
    try:
        target = resp.url.join(location)
    except (httpx.InvalidURL, ValueError) as exc:
        raise UpdateError(f"{url}: redirected to a bad URL {location!r}: {exc}") from None
    if target.scheme not in ("http", "https"):
        raise UpdateError(f"{url}: redirected to a non-HTTP URL {str(target)!r}")
    if not anywhere and origin(target) != origin(asked):
        raise UpdateError(
            f"{url}: redirected to another site ({target}); deckcheck follows redirects only "
            "within the site asked (--allow-redirects-anywhere follows it)"
        )
    return target


def parse_url(url: str) -> httpx.URL:
    """``url`` parsed; :class:`UpdateError` naming it when it is not a usable http(s) URL."""
    import httpx

    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        raise UpdateError(f"{url}: not a usable URL: {exc}") from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise UpdateError(f"{url}: not a usable URL (http:// or https:// and a host)")
    return parsed
