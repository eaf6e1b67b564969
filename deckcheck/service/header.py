"""Security headers on every answer, and ``HEAD`` on every ``GET`` route.

:class:`Headers` (ASGI middleware) adds to every response:

* ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``,
  ``X-Frame-Options: DENY``;
* a strict ``Content-Security-Policy``: the builder's page runs only its own script and style
  (it has no inline script), talks only to this server, shows images only from here or from
  the origin of ``DECKCHECK_IMAGE_URL``, and cannot be framed (``frame-ancestors 'none'``).
  ``/docs`` (Swagger UI) gets a policy of its own: its script and style from its CDN, and its
  one inline script by hash.

A ``HEAD`` request is answered as the ``GET`` it stands for, without the body.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SWAGGER_CDN = "https://cdn.jsdelivr.net"
"""Where FastAPI's Swagger UI page loads its script and style from."""


def policy(image_origin: str | None = None) -> str:
    """The CSP of every answer but ``/docs``."""
    images = "'self' data:" + (f" {image_origin}" if image_origin else "")
    return (
        "default-src 'none'; script-src 'self'; style-src 'self'; "
        f"img-src {images}; connect-src 'self'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    )


def docs_policy(page: str) -> str:
    """The CSP of the Swagger UI page ``page``: its CDN, and its inline scripts by hash."""
    hashes = []
    for body in re.findall(r"<script>(.*?)</script>", page, flags=re.DOTALL):
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        hashes.append(f"'sha256-{digest}'")
    return (
        f"default-src 'none'; script-src {SWAGGER_CDN} {' '.join(hashes)}; "
        f"style-src {SWAGGER_CDN}; img-src 'self' data: https://fastapi.tiangolo.com; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )


class Headers:
    """ASGI middleware: the headers above on every answer; ``HEAD`` as ``GET``."""

    def __init__(self, app: ASGIApp, csp: str, docs_csp: str) -> None:
        self.app = app
        fixed = [
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
            (b"x-frame-options", b"DENY"),
        ]
        self.headers = [*fixed, (b"content-security-policy", csp.encode())]
        self.docs_headers = [*fixed, (b"content-security-policy", docs_csp.encode())]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = scope["method"] == "HEAD"
        if head:
            scope = dict(scope, method="GET")
        extra = self.docs_headers if scope["path"] == "/docs" else self.headers

        async def send_with(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message, headers=[*message.get("headers", ()), *extra])
            elif head and message["type"] == "http.response.body":
                message = dict(message, body=b"")
            await send(message)

        await self.app(scope, receive, send_with)
