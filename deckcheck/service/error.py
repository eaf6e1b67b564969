"""The service's error answers: ``{"error": {"code", "message", "detail"}}`` with the status of
the :mod:`deckcheck.error` class raised (a client's mistake is always a 4xx)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from deckcheck.error import (
    AmbiguousCardError,
    ConditionError,
    DeckcheckError,
    DeckReadError,
    LimitError,
    SidePlanError,
    UnknownCardError,
    UnknownFormatError,
)
from deckcheck.reporter import safe
from deckcheck.service.model import ErrorDocument

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorDocument, "description": text}
    for status, text in (
        (404, "Unknown card, format or route"),
        (413, "Request body over the size limit"),
        (422, "Bad input, or over a limit"),
    )
}
"""The error answers the OpenAPI document lists for the routes that take input."""


def error_response(status: int, code: str, message: str, detail: Any = None) -> Response:
    """The JSON error answer ``{"error": {"code", "message", "detail"}}``; when the request's
    ``Accept-Language`` is not English, also ``message_local``: what the code means in that
    language, then the message."""
    from deckcheck.service.language import REQUESTED

    error: dict[str, Any] = {"code": code, "message": message, "detail": safe(detail)}
    lang = REQUESTED.get()
    if lang != "en":
        from deckcheck.reporter.i18n import error_message

        error["message_local"] = error_message(lang, code, message)
    body = {"error": error}
    return Response(
        json.dumps(safe(body), ensure_ascii=False),
        status_code=status,
        media_type="application/json",
    )


def error_detail(exc: DeckcheckError) -> Any:
    """What an error's ``detail`` holds, by its class (documented in the README)."""
    if isinstance(exc, UnknownCardError):
        return {"query": exc.query, "suggestions": exc.suggestions}
    if isinstance(exc, AmbiguousCardError):
        return {
            "query": exc.query,
            "candidates": [{"passcode": p, "name": n} for p, n in exc.candidates],
        }
    if isinstance(exc, UnknownFormatError):
        return {"name": exc.name, "valid": exc.valid}
    if isinstance(exc, DeckReadError):
        return {"source": exc.source, "line": exc.line}
    if isinstance(exc, ConditionError):
        return {"text": exc.text, "position": exc.position}
    if isinstance(exc, LimitError):
        return {"limit": exc.limit, "value": exc.value}
    if isinstance(exc, SidePlanError):
        cause = exc.cause
        return {
            "problems": exc.problems,
            "cause": None if cause is None else {"code": cause.code, "detail": error_detail(cause)},
        }
    return None


def deckcheck_answer(exc: DeckcheckError) -> Response:
    """The error answer to a :class:`DeckcheckError`: its status, code, message and detail."""
    return error_response(exc.http_status, exc.code, str(exc), error_detail(exc))


def _validation_detail(errors: Any) -> list[dict[str, Any]]:
    """A request validation error's details, as strings."""
    return [
        {
            "loc": [str(p) for p in e.get("loc", ())],
            "msg": str(e.get("msg", "")),
            "type": str(e.get("type", "")),
        }
        for e in errors
    ]


def install_errors(app: FastAPI) -> None:
    """Answer every error as ``{"error": {"code", "message", "detail"}}`` with its status."""

    async def deckcheck_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, DeckcheckError)
        return deckcheck_answer(exc)

    async def validation_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        detail = _validation_detail(exc.errors())
        first = detail[0] if detail else {"loc": [], "msg": "invalid request"}
        where = ".".join(first["loc"][1:] if first["loc"][:1] == ["body"] else first["loc"])
        msg = f"{where}: {first['msg']}" if where else str(first["msg"])
        return error_response(422, "bad-request", msg, detail)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        codes = {400: "bad-request", 404: "not-found", 405: "method-not-allowed"}
        code = codes.get(exc.status_code, "http-error")
        resp = error_response(exc.status_code, code, str(exc.detail))
        if exc.headers:
            resp.headers.update(exc.headers)
        return resp

    async def internal_error(request: Request, exc: Exception) -> Response:
        return error_response(500, "internal-error", f"unexpected {type(exc).__name__}")

    app.add_exception_handler(DeckcheckError, deckcheck_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, internal_error)
