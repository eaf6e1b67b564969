"""Every status each route can answer, as the OpenAPI document lists them.

FastAPI lists what a route declares; the statuses below are what the service really answers
(the tests send a request for each one). The error answers share the ``ErrorDocument`` schema.
"""

from __future__ import annotations

from typing import Any

WHY = {
    304: "Not modified: the client's copy (`If-None-Match`) is current",
    400: "The body is not UTF-8 JSON",
    404: "Unknown card, format or ban list",
    409: "A card name matches several cards (`detail.candidates`)",
    413: "Request body over the size limit",
    422: "Bad input, or over a limit",
    429: "Every computing slot of the worker is busy: retry after `Retry-After` seconds",
    501: "No PDF writer installed (the `sheet` extra)",
}
"""What each status means, for the OpenAPI document."""

STATUSES: dict[tuple[str, str], tuple[int, ...]] = {
    ("/healthz", "get"): (304,),
    ("/v1/validate", "post"): (400, 404, 413, 422),
    ("/v1/simulate", "post"): (400, 404, 413, 422, 429),
    ("/v1/simulate/sweep", "post"): (400, 404, 413, 422, 429),
    ("/v1/simulate/side", "post"): (400, 404, 413, 422, 429),
    ("/v1/convert", "post"): (400, 413, 422),
    ("/v1/sheet", "post"): (400, 404, 413, 422, 501),
    ("/v1/meta", "post"): (400, 413, 422),
    ("/v1/batch", "post"): (404, 413, 422, 429),
    ("/v1/formats", "get"): (304,),
    ("/v1/formats/{format_id}", "get"): (304, 404, 422),
    ("/v1/banlists/{format_id}", "get"): (304, 404, 422),
    ("/v1/cards", "get"): (304, 422),
    ("/v1/cards/{passcode}", "get"): (304, 404, 409, 422),
}
"""The statuses besides 200 of every route."""


def list_statuses(schema: dict[str, Any]) -> None:
    """Set the responses of every route of ``schema`` (an OpenAPI document) to its statuses."""
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorDocument"}}}
    for (path, method), statuses in STATUSES.items():
        op = schema.get("paths", {}).get(path, {}).get(method)
        if op is None:
            continue
        responses = op.setdefault("responses", {})
        for status in list(responses):
            if status != "200":
                del responses[status]
        for status in statuses:
            entry: dict[str, Any] = {"description": WHY[status]}
            if status >= 400:
                entry["content"] = error
            responses[str(status)] = entry
    schema.setdefault("components", {}).setdefault("schemas", {})
