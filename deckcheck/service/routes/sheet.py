"""``POST /v1/sheet``: one deck's registration sheet as a PDF
(:mod:`deckcheck.reporter.sheet`; needs the ``sheet`` extra, else 501)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import Field

from deckcheck.service.core import API, Service
from deckcheck.service.error import ERRORS
from deckcheck.service.model import ValidateRequest


class SheetRequest(ValidateRequest):
    """``POST /v1/sheet``: a deck, the format and date it is checked for, and the sheet's
    fields (left out: fillable on the PDF)."""

    player: str | None = Field(None, description="Player name.", max_length=200)
    player_id: str | None = Field(None, description="Player ID.", max_length=200)
    event: str | None = Field(None, description="Event name.", max_length=200)
    paper: Literal["a4", "letter"] = "a4"


RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/pdf": {}}, "description": "The sheet (PDF)."},
    **ERRORS,
    501: {"model": ERRORS[422]["model"], "description": "No PDF writer installed"},
}
"""The answers the OpenAPI document lists (a PDF, or an error)."""


def router(svc: Service) -> APIRouter:
    """The sheet route."""
    router = APIRouter()

    @router.post(f"{API}/sheet", response_class=Response, tags=["decks"], responses=RESPONSES)
    def sheet(req: SheetRequest) -> Response:
        """The deck's registration sheet (PDF): sections, counts, totals, the verdict for the
        format and date, both fingerprints and a QR code of the deck's ydke:// URL."""
        from deckcheck.reporter.sheet import SheetFields, build_sheet, sheets_pdf
        from deckcheck.rule.format import Pool
        from deckcheck.validation.engine import validate

        data = svc.data
        fmt = svc.rules(req)
        when = svc.date(req.date)
        deck = svc.deck(req.deck, req.deck_format, req.name or "deck", rush=fmt.pool is Pool.RUSH)
        report = validate(
            deck, fmt, when, allow_prerelease=req.allow_prerelease, path=req.name, data=data
        )
        fields = SheetFields(
            req.player, req.player_id, req.event, when.isoformat() if req.date else None
        )
        page = build_sheet(deck, report, lang=req.lang, fields=fields, index=data.cards)
        return Response(
            sheets_pdf([page], req.paper),
            media_type="application/pdf",
            headers={"Content-Disposition": 'inline; filename="decklist.pdf"'},
        )

    return router
