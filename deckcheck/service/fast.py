"""The quick lane of the JSON routes: the usual request answered without FastAPI's machinery.

FastAPI reads a route's body through its generic machinery (routing, content-type parsing,
dependency solving, error collection, exit stacks), which costs about as much as checking a
deck does. :class:`Lane` (ASGI middleware, inside the body limit and the data pin) takes the
usual request to a route it knows (``POST`` with ``Content-Type: application/json`` and a body
its model accepts, taken exactly as FastAPI takes it) and answers it at once. Any other
request (another content type, no body, bad JSON, a body the model refuses) goes on to the app
as it came, so that its answer (status, error document) is FastAPI's, unchanged. The routes
stay declared in the app as before: the OpenAPI document is the same.

The lane is a second road, kept because a whole request shows what it saves: ``python
bench/run.py service`` drives ``POST /v1/validate`` with wrk both ways in the same run (the same
bodies as ``application/json``, the lane's, and as ``application/json; charset=utf-8``, which
FastAPI's route answers); the lane's server CPU per request was 0.88-1.58 ms against
1.39-2.50 times as much through the route. ``POST /v1/simulate`` takes the lane too (inside its
compute-pool process): a trivial request's server CPU, worker and pool processes together, went
from 4.73-4.90 ms to 3.45-4.10 ms (``/proc`` over 400 requests, the same machine, one after the
other). ``tests/test_service_lane.py`` holds both roads' answers equal.

:func:`document_json` writes an answer checked against its document model, as bytes.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from pydantic import BaseModel
from starlette.responses import Response

from deckcheck.error import DeckcheckError

JSON = b"application/json"
"""The one content type the lane takes (exactly; any other goes FastAPI's way)."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Answer = Callable[[Any], Awaitable[Response]]
"""A route's answer to its checked body."""


def _parse(model: type[BaseModel], body: bytes) -> BaseModel | None:
    """``body`` read as FastAPI reads a JSON body; None whenever that fails, for FastAPI to
    say why.

    The model reads the JSON itself first (pydantic-core: quicker). Whatever it refuses is
    read again as FastAPI reads it (:func:`json.loads`, then the model with
    ``from_attributes``), which accepts a few inputs the first way does not (a UTF-8 BOM, lone
    surrogates, nesting deeper than 200): the request is taken as FastAPI would take it.
    """
    if not body:
        return None
    try:
        return model.model_validate_json(body)
    except Exception:  # read again the ordinary way
        pass
    try:
        return model.model_validate(json.loads(body), from_attributes=True)
    except Exception:  # any failure is answered the ordinary way
        return None


def document_json(model: type[BaseModel], data: Any, *, check: bool = True) -> bytes:
    """``data`` checked against its document model, as UTF-8 JSON (set fields, by alias).

    The usual answer has nothing to clean: it is checked and written at once. Should that fail
    (a string that is not valid UTF-8, say), it is made safe first (:func:`safe`) and checked
    again, as every answer was before, so that the outcome is the same.

    ``check=False`` writes ``data`` as it is (keys in its order), for documents whose dicts
    are built in the model's field order, by alias, with only the fields set: the same bytes
    without the cost of the check (``tests/test_service_lane.py`` holds that they are).
    """
    try:
        if not check:
            from pydantic_core import to_json

            return to_json(data)
        doc = model.model_validate(data)
        out: bytes = model.__pydantic_serializer__.to_json(doc, by_alias=True, exclude_unset=True)
    except Exception:  # made safe first, and checked again: the same answer, or error, as ever
        from deckcheck.reporter import safe

        doc = model.model_validate(safe(data))
        out = doc.model_dump_json(by_alias=True, exclude_unset=True).encode("utf-8")
    return out


class Lane:
    """ASGI middleware: the usual request to a JSON route answered at once, without the router.

    ``routes`` maps a POST path to its body model and its answer (a coroutine taking the checked
    body). A request there with ``Content-Type: application/json`` and a body the model accepts
    (read as :func:`_parse` reads it) is answered by calling the answer; a
    :class:`~deckcheck.error.DeckcheckError` it raises is answered by ``on_error``, as the
    app's handler answers it. Every other request goes on to the app (the router, FastAPI's
    body handling and errors) with its body as it came. The lane reads a whole body: it must
    sit inside the body limit (:class:`deckcheck.service.app.BodyLimit`).
    """

    def __init__(
        self,
        app: ASGIApp,
        routes: dict[str, tuple[type[BaseModel], Answer]],
        on_error: Callable[[DeckcheckError], Response],
    ) -> None:
        self.app = app
        self.routes = routes
        self.on_error = on_error

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        route = self.routes.get(scope["path"]) if scope["type"] == "http" else None
        if route is None or scope["method"] != "POST" or _content_type(scope) != JSON:
            await self.app(scope, receive, send)
            return
        messages = await _receive_body(receive)
        value = None
        if messages[-1]["type"] == "http.request":
            value = _parse(route[0], b"".join(m.get("body", b"") for m in messages))
        if value is None:
            await self.app(scope, _first(messages, receive), send)
            return
        try:
            response = await route[1](value)
        except DeckcheckError as exc:
            response = self.on_error(exc)
        await response(scope, receive, send)


def _content_type(scope: Scope) -> bytes | None:
    """The first ``Content-Type`` of a request (as the app reads it), or None."""
    for name, value in scope["headers"]:
        if name == b"content-type":
            got: bytes = value
            return got
    return None


async def _receive_body(receive: Receive) -> list[Message]:
    """The messages of a request's body, up to its last part (or to a message of another
    kind: the client went away)."""
    messages = [await receive()]
    while messages[-1]["type"] == "http.request" and messages[-1].get("more_body", False):
        messages.append(await receive())
    return messages


def _first(messages: list[Message], receive: Receive) -> Receive:
    """``receive``, with ``messages`` (already received) handed out first, in order."""
    pending = messages[::-1]

    async def again() -> Message:
        return pending.pop() if pending else await receive()

    return again
