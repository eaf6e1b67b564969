"""``POST /v1/batch``: many decks (a JSON list, or a zip of deck files) checked by the one job
loop of :func:`deckcheck.run.batch.check`; unreadable ones are listed, never fatal."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date as Date
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from deckcheck.data.dataset import Dataset
from deckcheck.error import InputError, LimitError
from deckcheck.reporter import batch_dict
from deckcheck.reporter import document as doc
from deckcheck.rule.format import Format
from deckcheck.run.vocab import parse_region, parse_timeline
from deckcheck.service.config import Settings
from deckcheck.service.core import API, Service
from deckcheck.service.error import ERRORS
from deckcheck.service.model import BatchDeck, BatchRequest

if TYPE_CHECKING:
    from deckcheck.run.batch import Source

ZIP_TYPES = ("application/zip", "application/x-zip-compressed", "application/octet-stream")
"""Content types ``POST /v1/batch`` takes as a raw zip upload."""
BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/BatchRequest"}},
            "application/zip": {"schema": {"type": "string", "format": "binary"}},
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file"],
                    "properties": {"file": {"type": "string", "format": "binary"}},
                }
            },
        },
    }
}
"""The request bodies the route takes, as the OpenAPI document lists them."""

Asked = tuple[list[Any], Format, Date, bool]
"""What a batch request asks: its sources, the format, the date, whether pre-releases pass."""


def router(svc: Service) -> APIRouter:
    """The batch route."""
    router = APIRouter()

    @router.post(
        f"{API}/batch",
        response_model=doc.ValidationDocument,
        responses=ERRORS,
        tags=["decks"],
        openapi_extra=BODY,
    )
    async def batch(
        request: Request,
        format: Annotated[
            str | None, Query(description="Zip uploads: the format (or a form field).")
        ] = None,
        date: Annotated[
            str | None, Query(description="Zip uploads: the date (or a form field).")
        ] = None,
        timeline: Annotated[Literal["tcg", "ocg"] | None, Query()] = None,
        tcg_region: Annotated[Literal["na", "eu"] | None, Query()] = None,
        region: Annotated[
            Literal["tcg", "ocg", "na", "eu"] | None,
            Query(deprecated=True, description="Deprecated: timeline (tcg/ocg) or tcg_region."),
        ] = None,
        allow_prerelease: Annotated[bool, Query()] = False,
    ) -> Response:
        """Many decks: a JSON list, or a zip of deck files (raw body or multipart ``file``).

        Every deck is checked; unreadable ones are listed, never fatal.
        """
        from deckcheck.run.batch import check

        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        s = svc.settings
        if ctype == "application/json" or ctype.endswith("+json"):
            sources, fmt, when, prerelease = await _json_batch(svc, request)
        else:
            query = (format, date, timeline, tcg_region, region, allow_prerelease)
            sources, fmt, when, prerelease = await _zip_batch(svc, request, ctype, query)
        decks = sum(1 for x in sources if x.skip is None and x.error is None)
        if decks > s.max_batch_decks:
            raise LimitError(
                f"{decks} decks; the limit is {s.max_batch_decks}",
                "max_batch_decks",
                s.max_batch_decks,
            )
        result = await run_in_threadpool(
            check, sources, fmt, when, allow_prerelease=prerelease, data=svc.data
        )
        return svc.answer(doc.ValidationDocument, batch_dict(result))

    return router


async def _json_batch(svc: Service, request: Request) -> Asked:
    """What a JSON batch request asks (its body read as a :class:`BatchRequest`)."""
    from deckcheck.service.query import refuse_query

    refuse_query(request.query_params.keys(), "a JSON batch")
    try:
        req = BatchRequest.model_validate_json(await request.body())
    except ValidationError as exc:
        raise RequestValidationError(
            [dict(e, loc=("body", *e["loc"])) for e in exc.errors()]
        ) from None
    sources = deck_sources(svc, req.decks)
    return sources, svc.rules(req), svc.date(req.date), req.allow_prerelease


def deck_sources(svc: Service, decks: Sequence[BatchDeck]) -> list[Source]:
    """The sources of a JSON body's decks (``/v1/batch``, ``/v1/meta``): each a deck in memory
    under its name; :class:`LimitError` over ``max_batch_decks``."""
    from deckcheck.run.batch import Source

    s = svc.settings
    if len(decks) > s.max_batch_decks:
        raise LimitError(
            f"{len(decks)} decks; the limit is {s.max_batch_decks}",
            "max_batch_decks",
            s.max_batch_decks,
        )
    return [
        Source.memory(d.name, json.dumps(d.deck) if isinstance(d.deck, dict) else d.deck)
        for d in decks
    ]


async def _zip_batch(
    svc: Service,
    request: Request,
    ctype: str,
    query: tuple[str | None, str | None, str | None, str | None, str | None, bool],
) -> Asked:
    """What a zip upload asks: the zip (raw body or multipart ``file``), the format and date
    from the query (or the form's fields)."""
    format, date, timeline, tcg_region, region, allow_prerelease = query
    if ctype == "multipart/form-data":
        raw, fields = await _form_file(request)
        format = format or fields.get("format")
        date = date or fields.get("date")
        line = timeline or parse_timeline(fields.get("timeline"))
        where = tcg_region or parse_region(fields.get("tcg_region"))
        region = region or _region(fields.get("region"))
        allow_prerelease = allow_prerelease or fields.get("allow_prerelease") in TRUE
    elif ctype in ZIP_TYPES:
        raw = await request.body()
        line, where = timeline, tcg_region
    else:
        raise InputError(
            f"content type {ctype or 'none'!r}: send application/json, application/zip "
            "or multipart/form-data with a 'file'"
        )
    fmt = svc.format(format, None, *_old_region(region, line, where))
    when = svc.date(date)
    sources = await run_in_threadpool(_zip_sources, raw, svc.settings, svc.data)
    return sources, fmt, when, allow_prerelease


TRUE = ("1", "true", "yes", "on")
"""Form values read as true."""


def _region(value: str | None) -> Literal["tcg", "ocg", "na", "eu"] | None:
    """The deprecated ``region`` form field: a timeline (tcg/ocg) or a TCG region (na/eu)."""
    if value is None or not value.strip():
        return None
    low = value.strip().lower()
    if low in ("tcg", "ocg", "na", "eu"):
        return low  # type: ignore[return-value]
    raise InputError(f"region {value!r}: use timeline=tcg|ocg or tcg_region=na|eu")


def _old_region(
    region: str | None, timeline: str | None, tcg_region: str | None
) -> tuple[str | None, str | None]:
    """(timeline, tcg_region) with the deprecated ``region`` read as whichever it names."""
    if region in ("tcg", "ocg") and timeline is None:
        return region, tcg_region
    if region in ("na", "eu") and tcg_region is None:
        return timeline, region
    return timeline, tcg_region


async def _form_file(request: Request) -> tuple[bytes, dict[str, str]]:
    """The ``file`` upload of a multipart form, and its text fields."""
    try:
        form = await request.form(max_files=1, max_fields=20)
    except Exception as exc:  # python-multipart's parse errors have no common base
        raise InputError(f"cannot read the multipart form: {exc}") from None
    upload = form.get("file")
    if upload is None or isinstance(upload, str):
        raise InputError("the multipart form has no 'file' upload")
    data = await upload.read()
    fields = {k: v for k, v in form.items() if isinstance(v, str)}
    await form.close()
    return data, fields


def _zip_sources(raw: bytes, s: Settings, data: Dataset) -> list[Any]:
    """The sources of an uploaded zip, read within the service's caps."""
    from deckcheck.source.archive import read_zip

    return read_zip(
        raw,
        max_entries=s.max_zip_entries,
        max_bytes=s.max_zip_bytes,
        max_ratio=s.max_zip_ratio,
        data=data,
    )
