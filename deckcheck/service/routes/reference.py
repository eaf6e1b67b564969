"""The reference data: formats and eras with their rules, and the list in force on a date."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Annotated, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from deckcheck.error import NotFoundError
from deckcheck.reporter import document as doc
from deckcheck.service.core import API, Service
from deckcheck.service.error import ERRORS

if TYPE_CHECKING:
    from deckcheck.rule.format import Format

TCG_REGION = "na or eu: the TCG event region whose dates pick the list (default: the format's)."
"""How the ``tcg_region`` query parameter is documented."""
DateQuery = Annotated[str | None, Query(description="YYYY-MM-DD or 'today'.")]
RegionQuery = Annotated[Literal["na", "eu"] | None, Query(description=TCG_REGION)]


def _format_on(
    svc: Service, format_id: str, date: str | None, tcg_region: str | None
) -> tuple[Format, dt.date]:
    """The format a route names and the date asked (default today), checked to be within
    the format's dates (the library's one rule: :class:`DateRangeError`, 422)."""
    fmt = svc.format(format_id, None, None, tcg_region)
    when = svc.date(date)
    fmt.require_date(when, svc.data)
    return fmt, when


def router(svc: Service) -> APIRouter:
    """The routes of formats and ban lists."""
    router = APIRouter()

    @router.get(f"{API}/formats", response_model=doc.FormatsDocument, tags=["reference"])
    async def formats(request: Request) -> Response:
        """Every format and era with its rules."""
        reg = svc.data.formats
        return svc.cached_doc(
            request,
            doc.FormatsDocument,
            doc.shape(doc.FormatsDocument, {"formats": reg.formats(), "eras": reg.eras()}),
        )

    @router.get(
        f"{API}/formats/{{format_id}}",
        response_model=doc.FormatDoc,
        responses=ERRORS,
        tags=["reference"],
    )
    async def format_show(
        request: Request,
        format_id: Annotated[str, Path(description="Format or era id or alias.")],
        date: DateQuery = None,
        tcg_region: RegionQuery = None,
    ) -> Response:
        """A format's rules, and the era and ban list in force on the date."""
        fmt, when = _format_on(svc, format_id, date, tcg_region)
        data = doc.shape(doc.FormatDoc, doc.format_on(fmt, when, svc.data))
        return svc.cached_doc(request, doc.FormatDoc, data)

    @router.get(
        f"{API}/banlists/{{format_id}}",
        response_model=doc.BanlistDocument,
        responses=ERRORS,
        tags=["reference"],
    )
    async def banlist(
        request: Request,
        format_id: Annotated[str, Path(description="Format id or alias.")],
        date: DateQuery = None,
        tcg_region: RegionQuery = None,
    ) -> Response:
        """The ban list (or whitelist, or points list) in force on the date."""
        fmt, when = _format_on(svc, format_id, date, tcg_region)
        current = fmt.banlist_at(when, svc.data)
        if current is None:
            raise NotFoundError(f"{fmt.name} has no ban list in force on {when.isoformat()}")
        cards = svc.data.cards

        def name(code: int) -> str | None:
            return cards.get(code).name if code in cards else None

        data = doc.shape(doc.BanlistDocument, doc.banlist_named(current, name))
        return svc.cached_doc(request, doc.BanlistDocument, data)

    return router
