"""The FastAPI app: versioned JSON routes over the library, and the web deck builder at ``/``.

Every route is a thin use of the library's seams: decks are read with :func:`deckcheck.read_deck`,
checked with :func:`deckcheck.validate` or :func:`deckcheck.run.batch.check`, and answered with the
pydantic documents of :mod:`deckcheck.reporter.document`. The pieces: :mod:`.core` (the
:class:`~deckcheck.service.core.Service` every route uses), :mod:`.routes` (one module per
resource), :mod:`.error` (error answers), :mod:`.limit` (body limit, budgets of the computing
routes), :mod:`.budget` (the goldfish routes' budgets), :mod:`.state` (the data in service),
:mod:`.asset` (the deck builder's files), :mod:`.header`, :mod:`.openapi`, :mod:`.fast` (the
quick lane of ``POST /v1/validate``).

The app holds one read-only :class:`~deckcheck.data.dataset.Dataset` and no other state.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

from deckcheck.data.dataset import Dataset
from deckcheck.service.config import Settings
from deckcheck.service.core import API, Service
from deckcheck.service.error import deckcheck_answer, install_errors
from deckcheck.service.fast import Answer, Lane
from deckcheck.service.model import BatchRequest, SimulateRequest, ValidateRequest
from deckcheck.service.routes import include
from deckcheck.version import __version__


def create_app(settings: Settings | None = None, data: Dataset | None = None) -> FastAPI:
    """The service for ``data`` (default: the active dataset) with ``settings`` (defaults)."""
    from contextlib import asynccontextmanager

    svc = Service(settings or Settings(), data or Dataset.active())
    reloadable = data is None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        if reloadable:
            _reload_on_sighup(svc)
        svc.warm()
        if svc.siblings is not None:
            svc.siblings.started(svc.holder.live)
        yield

    app = FastAPI(
        title="deckcheck",
        version=__version__,
        summary="Yu-Gi-Oh! deck legality, goldfish odds and a deck builder, over HTTP.",
        description="Versioned JSON API of deckcheck (routes under /v1). Errors are "
        '`{"error": {"code", "message", "detail"}}`; see the README for codes and limits.',
        lifespan=lifespan,
        openapi_url=None,  # served below, with an ETag like every GET answer
        docs_url=None,
        redoc_url=None,
    )
    app.state.service = svc
    install_errors(app)
    if svc.settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(svc.settings.cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["Content-Type", "If-None-Match"],
            expose_headers=["ETag"],
        )
    _middleware(app, svc)
    include(app, svc)
    _openapi(app)
    return app


COMPUTING = frozenset(
    {
        f"{API}/simulate",
        f"{API}/simulate/sweep",
        f"{API}/simulate/side",
        f"{API}/batch",
        f"{API}/meta",
    }
)
"""Routes that can compute for long: run within the budgets of :mod:`deckcheck.service.limit`."""


def _middleware(app: FastAPI, svc: Service) -> None:
    """From the outside in: security headers and HEAD, the body limit, one dataset per
    request, the budgets of the computing routes."""
    from fastapi.openapi.docs import get_swagger_ui_html

    from deckcheck.service.config import image_origin
    from deckcheck.service.header import Headers, docs_policy, policy
    from deckcheck.service.language import AcceptLanguage
    from deckcheck.service.limit import BodyLimit, ComputeLimit
    from deckcheck.service.routes.deck import simulate_answer, validate_answer
    from deckcheck.service.state import Pin

    s = svc.settings
    # the usual POST /v1/validate and /v1/simulate (a JSON body the model accepts) answered
    # without the router
    lane: dict[str, tuple[type[BaseModel], Answer]] = {
        f"{API}/validate": (ValidateRequest, validate_answer(svc)),
        f"{API}/simulate": (SimulateRequest, simulate_answer(svc)),
    }
    app.add_middleware(Lane, routes=lane, on_error=deckcheck_answer)
    app.add_middleware(AcceptLanguage)  # the request's language, for every answer of it
    # a computing request goes to a pool process holding the data it is pinned to
    app.add_middleware(ComputeLimit, settings=s, paths=COMPUTING, key=lambda: svc.holder.state.tag)
    app.add_middleware(BodyLimit, settings=s, big_path=f"{API}/batch")
    page = get_swagger_ui_html(openapi_url="/openapi.json", title="deckcheck API")
    csp = policy(image_origin(s.image_url) if s.image_url else None)
    app.add_middleware(Headers, csp=csp, docs_csp=docs_policy(bytes(page.body).decode()))
    app.add_middleware(Pin, holder=svc.holder)  # outermost: every answer names its data


def _reload_on_sighup(svc: Service) -> None:
    """On SIGHUP, answer from the active data resolved again (a bundle installed by
    ``deckcheck data update`` since the start): loaded and warmed in a thread, then swapped in;
    requests already running finish on the old (see :mod:`deckcheck.service.state`)."""
    from deckcheck.service.state import Reloader, load_active, on_sighup

    on_sighup(Reloader(svc.holder, load_active, svc.siblings))


def app_from_env() -> FastAPI:
    """The app with settings from ``DECKCHECK_*`` variables (uvicorn ``--factory`` target)."""
    return create_app(Settings.from_env())


def _openapi(app: FastAPI) -> None:
    """The OpenAPI document, with the JSON form of ``POST /v1/batch`` among its schemas."""

    def build() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title,
            version=app.version,
            summary=app.summary,
            description=app.description,
            routes=app.routes,
        )
        comps = schema.setdefault("components", {}).setdefault("schemas", {})
        extra = BatchRequest.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, sub in extra.pop("$defs", {}).items():
            comps.setdefault(name, sub)
        comps["BatchRequest"] = extra
        from deckcheck.service.openapi import list_statuses

        list_statuses(schema)
        app.openapi_schema = schema
        return schema

    app.openapi = build  # type: ignore[method-assign]
