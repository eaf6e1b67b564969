"""The pages: the deck builder at ``/``, its files, the API documentation, and ``/healthz``."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import Response

from deckcheck.error import NotFoundError
from deckcheck.reporter.document import shape
from deckcheck.service.asset import STATIC
from deckcheck.service.core import Service
from deckcheck.service.model import HealthDocument, ReloadDoc
from deckcheck.version import __version__


def router(svc: Service) -> APIRouter:
    """The routes of the pages and of ``/healthz``."""
    router = APIRouter()

    @router.get("/", include_in_schema=False)
    async def builder(request: Request) -> Response:
        """The deck builder's page."""
        return svc.cached(request, svc.static["index.html"], "text/html; charset=utf-8")

    @router.get("/openapi.json", include_in_schema=False)
    async def openapi(request: Request) -> Response:
        """The OpenAPI document (made once)."""
        if svc.openapi_text is None:
            svc.openapi_text = json.dumps(request.app.openapi(), ensure_ascii=False)
        return svc.cached(request, svc.openapi_text, "application/json")

    @router.get("/docs", include_in_schema=False)
    async def docs(request: Request) -> Response:
        """The API's documentation page."""
        from fastapi.openapi.docs import get_swagger_ui_html

        page = get_swagger_ui_html(openapi_url="/openapi.json", title="deckcheck API")
        return svc.cached(request, bytes(page.body), "text/html; charset=utf-8")

    @router.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        """No icon."""
        return Response(status_code=204)

    @router.get("/static/{name}", include_in_schema=False)
    async def static(request: Request, name: str) -> Response:
        """One of the builder's files."""
        if name not in STATIC:
            raise NotFoundError(f"no static file {name!r}")
        return svc.cached(request, svc.static[name], STATIC[name])

    @router.get("/healthz", response_model=HealthDocument, tags=["service"])
    async def healthz(request: Request) -> Response:
        """Liveness, the version, and the data's as-of date and fingerprint."""
        return svc.cached_doc(
            request,
            HealthDocument,
            {
                "status": "ok",
                "version": __version__,
                "data": {"as_of": svc.data.as_of.isoformat(), "fingerprint": svc.data.fingerprint},
                "reload": shape(ReloadDoc, svc.holder.reload),
                "workers": svc.workers(),
            },
        )

    return router
