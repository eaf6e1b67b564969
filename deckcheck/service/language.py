"""The language of a request: a body's ``lang`` field, else the ``Accept-Language`` header.

:class:`AcceptLanguage` (ASGI middleware, outermost but the limits) reads the header of every
HTTP request into :data:`REQUESTED`, so every answer of that request (the quick lane's, a
route's, an error handler's) can reach it without the header being passed along; a worker
thread a route starts inherits it. :func:`lang_of` is what a route asks.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from contextvars import ContextVar
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

REQUESTED: ContextVar[str] = ContextVar("deckcheck_request_lang", default="en")
"""The language the current request's ``Accept-Language`` prefers (``en`` without one)."""


def lang_of(asked: str | None) -> str:
    """The language of an answer: ``asked`` (a body's ``lang``) when given, else the
    request's ``Accept-Language`` choice."""
    if asked:
        from deckcheck.reporter.i18n import parse_lang

        return parse_lang(asked).value
    return REQUESTED.get()


class AcceptLanguage:
    """ASGI middleware: the request's ``Accept-Language`` into :data:`REQUESTED`, and the
    answer's ``Content-Language`` when it is not English."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        header = None
        if scope["type"] == "http":
            for name, value in scope["headers"]:
                if name == b"accept-language":
                    header = value.decode("latin-1")
                    break
        if header is None:
            await self.app(scope, receive, send)
            return
        from deckcheck.reporter.i18n import accept_language

        token = REQUESTED.set(accept_language(header).value)
        try:
            await self.app(scope, receive, send)
        finally:
            REQUESTED.reset(token)
