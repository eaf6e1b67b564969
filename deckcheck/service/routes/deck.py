"""One deck in, one answer out: ``POST /v1/validate``, ``/v1/simulate``, ``/v1/simulate/sweep``,
``/v1/simulate/side`` and ``/v1/convert``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from deckcheck.reporter import document as doc
from deckcheck.reporter import localize_result
from deckcheck.rule.format import Pool
from deckcheck.service import budget
from deckcheck.service.core import API, Service, is_big
from deckcheck.service.error import ERRORS
from deckcheck.service.language import lang_of
from deckcheck.service.model import (
    ConvertDocument,
    ConvertRequest,
    SideRequest,
    SimulateRequest,
    SweepRequest,
    ValidateRequest,
)


def validate_answer(svc: Service) -> Callable[[ValidateRequest], Awaitable[Response]]:
    """The answer to ``POST /v1/validate`` (the deck's result document), for the route and the
    quick lane."""
    from deckcheck.validation.engine import validate

    async def answer(req: ValidateRequest) -> Response:
        # a usual deck is checked at once; a big input (a long text list) in a worker thread,
        # so that it never holds up the other requests
        return await run_in_threadpool(run, req) if is_big(req.deck) else run(req)

    def run(req: ValidateRequest) -> Response:
        fmt = svc.rules(req)
        when = svc.date(req.date)
        name = req.name or "deck"
        deck = svc.deck(req.deck, req.deck_format, name, rush=fmt.pool is Pool.RUSH)
        report = validate(
            deck, fmt, when, allow_prerelease=req.allow_prerelease, path=req.name, data=svc.data
        )
        result = localize_result(report, doc.shape(doc.ResultDoc, report), lang_of(req.lang))
        return svc.answer(doc.ResultDoc, result, check=False)  # a ResultDoc's own JSON

    return answer


def simulate_answer(svc: Service) -> Callable[[SimulateRequest], Awaitable[Response]]:
    """The answer to ``POST /v1/simulate`` (the goldfish document), for the route and the
    quick lane: computed in a worker thread, as FastAPI runs the route."""

    async def answer(req: SimulateRequest) -> Response:
        return await run_in_threadpool(run, req)

    def run(req: SimulateRequest) -> Response:
        stats = budget.simulate(svc, req)
        data = doc.shape(doc.GoldfishDocument, stats, doc.hidden(req.fractions))
        data["warnings"] = []
        return svc.answer(doc.GoldfishDocument, data)

    return answer


def router(svc: Service) -> APIRouter:
    """The routes of one deck."""
    router = APIRouter()
    answer = validate_answer(svc)
    odds = simulate_answer(svc)

    @router.post(f"{API}/validate", response_model=doc.ResultDoc, responses=ERRORS, tags=["decks"])
    async def validate(req: ValidateRequest) -> Response:
        """Check one deck against a format (or an inline one) on a date: every violation."""
        return await answer(req)  # the usual request comes by the Lane (see the app's middleware)

    @router.post(
        f"{API}/simulate", response_model=doc.GoldfishDocument, responses=ERRORS, tags=["decks"]
    )
    async def simulate(req: SimulateRequest) -> Response:
        """Goldfish odds of the Main Deck: by condition, going first and second, by turn."""
        return await odds(req)  # the usual request comes by the Lane (see the app's middleware)

    @router.post(
        f"{API}/simulate/sweep", response_model=doc.SweepDocument, responses=ERRORS, tags=["decks"]
    )
    def simulate_sweep(req: SweepRequest) -> Response:
        """Ratio sweep: every combination of copies asked, ranked by a condition."""
        stats = budget.sweep(svc, req)
        data = doc.shape(doc.SweepDocument, stats, doc.hidden(req.fractions))
        return svc.answer(doc.SweepDocument, data)

    @router.post(
        f"{API}/simulate/side",
        response_model=doc.SideGoldfishDocument,
        responses=ERRORS,
        tags=["decks"],
    )
    def simulate_side(req: SideRequest) -> Response:
        """Games two and three: a side plan applied, the sided deck beside game one (going
        first and second), and P(at least 1) of each card sided in."""
        stats = budget.side(svc, req)
        data = doc.shape(doc.SideGoldfishDocument, stats, doc.hidden(req.fractions))
        return svc.answer(doc.SideGoldfishDocument, data)

    @router.post(f"{API}/convert", response_model=ConvertDocument, responses=ERRORS, tags=["decks"])
    async def convert(req: ConvertRequest) -> Response:
        """A deck in another file format (ydk, ydke, text, omega, json), with what was lost."""
        if is_big(req.deck):
            return await run_in_threadpool(_convert, svc, req)
        return _convert(svc, req)

    return router


def _convert(svc: Service, req: ConvertRequest) -> Response:
    """The ``ConvertDocument`` of a convert request."""
    from deckcheck.deck.io import lost_lines, write_deck

    deck = svc.deck(req.deck, req.deck_format, "deck", rush=req.rush)
    content = write_deck(deck, req.to, data=svc.data)
    return svc.answer(
        ConvertDocument,
        {
            "to": req.to,
            "content": content,
            "counts": deck.counts,
            "findings": [_finding(f) for f in deck.findings],
            "left_out": [f.line for f in lost_lines(deck, req.to)],
        },
    )


def _finding(f: Any) -> dict[str, Any]:
    """A reader's finding in a ``ConvertDocument``."""
    section = f.section.value if f.section else None
    return {
        "code": f.code.value,
        "message": f.message,
        "line": f.line,
        "text": f.text,
        "section": section,
        "suggestions": list(f.suggestions),
    }
