"""The cards: as-you-type search over every name, and one card's facts."""

from __future__ import annotations

import json
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from deckcheck.reporter import document as doc
from deckcheck.reporter import safe
from deckcheck.service.core import API, Service
from deckcheck.service.error import ERRORS


def router(svc: Service) -> APIRouter:
    """The routes of cards."""
    router = APIRouter()

    @router.get(
        f"{API}/cards", response_model=doc.CardSearchDocument, responses=ERRORS, tags=["cards"]
    )
    async def cards_search(
        request: Request,
        q: Annotated[str, Query(min_length=1, max_length=200, description="Part of a name.")],
        lang: Annotated[
            Literal["en", "ja", "zh-CN", "ko", "fr", "de", "it", "es", "pt", "zh-TW"] | None,
            Query(description="Match names in this language only (default: all)."),
        ] = None,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
    ) -> Response:
        """Cards whose names (English, Japanese, Chinese, Korean, French, German, Italian,
        Spanish, Portuguese) best match ``q``."""
        found = svc.finder.search(q, limit, lang)
        # each card's JSON is made once (from its validated document) and reused; the page is
        # a CardSearchDocument (the tests read every answer back through the model)
        items = ",".join(f'{svc.card_json(c)[:-1]},"score":{s!r}}}' for c, s in found)
        body = f'{{"query":{json.dumps(safe(q), ensure_ascii=False)},"results":[{items}]}}'
        return svc.cached(request, body, "application/json")

    @router.get(
        f"{API}/cards/{{passcode}}",
        response_model=doc.CardDocument,
        responses=ERRORS,
        tags=["cards"],
    )
    async def card(
        request: Request,
        passcode: Annotated[
            str, Path(max_length=200, description="Passcode (padded or not), or a card name.")
        ],
    ) -> Response:
        """One card's facts; alternate artworks and pre-release codes reach the original."""
        found = svc.data.cards.lookup(passcode)
        names = svc.data.cards.names_of(found.card)
        data = dict(doc.shape(doc.CardDocument, doc.found_card(found)), names=names)
        return svc.cached_doc(request, doc.CardDocument, data)

    return router
