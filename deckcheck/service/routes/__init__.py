"""The service's routes, one module per resource, each a ``router(svc)`` of FastAPI routes.

In the order the OpenAPI document lists them: the pages and ``/healthz`` (:mod:`.page`), one
deck in and one answer out (:mod:`.deck`: validate, simulate, sweep, convert), many decks
(:mod:`.batch`), the reference data (:mod:`.reference`: formats, ban lists), cards
(:mod:`.card`), registration sheets (:mod:`.sheet`), the metagame (:mod:`.meta`) and events
(:mod:`.event`: submissions, lock, check, publish, and their pages).
"""

from __future__ import annotations

from fastapi import FastAPI

from deckcheck.service.core import Service
from deckcheck.service.routes import batch, card, deck, event, meta, page, reference, sheet


def include(app: FastAPI, svc: Service) -> None:
    """Add every route to ``app``."""
    for module in (page, deck, batch, reference, card, sheet, meta, event):
        app.include_router(module.router(svc))
