"""``POST /v1/meta``: the metagame of many decks (archetypes, most-played cards, staples)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from deckcheck.reporter.document.meta import MetaDocument
from deckcheck.reporter.document.shape import shape
from deckcheck.service.core import API, Service
from deckcheck.service.error import ERRORS
from deckcheck.service.model import BatchDeck
from deckcheck.service.routes.batch import deck_sources


class MetaRequest(BaseModel):
    """``POST /v1/meta``: decks to sum up, and optionally the organiser's signature cards."""

    model_config = ConfigDict(extra="forbid")

    decks: list[BatchDeck]
    signatures: dict[str, Any] | None = Field(
        None,
        description="The signature file as JSON: {'archetypes': {NAME: {'cards': [...], "
        "'min': N}}, 'share': 0.15, 'min_copies': 6, 'dominance': 2, 'generic': [...]}.",
    )
    top: int = Field(20, ge=1, le=1000, description="Cards per table.")


def router(svc: Service) -> APIRouter:
    """The metagame route."""
    router = APIRouter()

    @router.post(f"{API}/meta", response_model=MetaDocument, responses=ERRORS, tags=["decks"])
    async def meta(req: MetaRequest) -> Response:
        """The metagame of the decks: each deck's archetype, the breakdown, the card tables.

        A deck that cannot be read is listed under ``unreadable``, never fatal.
        """
        from deckcheck.run.meta import DEFAULT_RULES, analyze
        from deckcheck.run.signature import rules_from_dict

        sources = deck_sources(svc, req.decks)
        rules = DEFAULT_RULES
        if req.signatures is not None:
            rules = rules_from_dict(req.signatures, "signatures", svc.data)
        result = await run_in_threadpool(analyze, sources, rules, data=svc.data, top=req.top)
        return svc.answer(MetaDocument, shape(MetaDocument, result))

    return router
