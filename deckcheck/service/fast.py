"""A quicker way in for the routes that take one JSON body: parsed and checked by its model alone.

FastAPI reads a route's body through its generic machinery (content-type parsing, dependency
solving, error collection), which costs more than checking a deck does. :class:`QuickBody` is
an :class:`~fastapi.routing.APIRoute` that, for the usual request (``Content-Type:
application/json`` and a body its model accepts), parses the body with :func:`json.loads` and
checks it with the model, exactly as FastAPI would, and calls the endpoint at once. Any other
request (another content type, no body, bad JSON, a body the model refuses) goes the ordinary
way, so that its answer (status, error document) is FastAPI's, unchanged. The route's OpenAPI
description is FastAPI's too: the route is declared as any other.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

Handler = Callable[[Request], Coroutine[Any, Any, Response]]


class QuickBody(APIRoute):
    """An async route with a single pydantic body parameter and nothing else, served as above."""

    def get_route_handler(self) -> Handler:
        """FastAPI's handler, with the quick way in front of it when the route qualifies."""
        usual = super().get_route_handler()
        quick = _quick_parts(self)
        if quick is None:
            return usual
        name, model = quick
        endpoint = self.endpoint

        async def handler(request: Request) -> Response:
            if request.headers.get("content-type") == "application/json":
                value = _parse(model, await request.body())
                if value is not None:
                    response: Response = await endpoint(**{name: value})
                    return response
            return await usual(request)  # the body is kept by the request: read once

        return handler


def _quick_parts(route: APIRoute) -> tuple[str, type[BaseModel]] | None:
    """The body parameter's name and model, if the route has nothing else to solve."""
    import inspect

    dep = route.dependant
    if dep.path_params or dep.query_params or dep.header_params or dep.cookie_params:
        return None
    if dep.dependencies or len(dep.body_params) != 1 or any(getattr(dep, f"{kind}_param_name")
            for kind in ("request", "websocket", "http_connection", "response",
                         "background_tasks", "security_scopes")):  # fmt: skip
        return None
    if not inspect.iscoroutinefunction(route.endpoint):
        return None
    field = dep.body_params[0]
    model = field.field_info.annotation
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        return None
    return field.name, model


def _parse(model: type[BaseModel], body: bytes) -> BaseModel | None:
    """``body`` read as FastAPI reads a JSON body (:func:`json.loads`, then the model with
    ``from_attributes``); None whenever that would fail, for FastAPI to say why."""
    if not body:
        return None
    try:
        return model.model_validate(json.loads(body), from_attributes=True)
    except Exception:  # any failure is answered the ordinary way
        return None


def document_json(model: type[BaseModel], data: Any) -> bytes:
    """``data`` checked against its document model, as UTF-8 JSON (set fields, by alias).

    The usual answer has nothing to clean: it is checked and written at once. Should that fail
    (a string that is not valid UTF-8, say), it is made safe first (:func:`safe`) and checked
    again, as every answer was before, so that the outcome is the same.
    """
    try:
        doc = model.model_validate(data)
        out: bytes = model.__pydantic_serializer__.to_json(doc, by_alias=True, exclude_unset=True)
    except Exception:  # made safe first, and checked again: the same answer, or error, as ever
        from deckcheck.reporter import safe

        doc = model.model_validate(safe(data))
        out = doc.model_dump_json(by_alias=True, exclude_unset=True).encode("utf-8")
    return out
