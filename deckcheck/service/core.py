"""The service object every route uses: the data in service, settings, and shared helpers.

:class:`Service` holds one read-only :class:`~deckcheck.data.dataset.Dataset` at a time (pinned
per request, swapped whole on reload: :mod:`deckcheck.service.state`), the settings and the deck
builder's files; its helpers read a request's date, format and deck the one way every route does,
and write answers (GET answers with an ``ETag`` made of the data fingerprint and a checksum of
the body; ``If-None-Match`` gets 304).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sized
from datetime import date
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from msgspec.structs import replace
from pydantic import BaseModel

from deckcheck.card import Card
from deckcheck.card.finder import CardFinder
from deckcheck.data.dataset import Dataset
from deckcheck.deck.model import Deck
from deckcheck.error import InputError, LimitError
from deckcheck.reporter import document as doc
from deckcheck.reporter import safe
from deckcheck.rule.format import Format
from deckcheck.service.asset import builder_files
from deckcheck.service.config import Settings

API = "/v1"
"""Prefix of the versioned routes."""
MAX_CACHED_CARDS = 50_000
"""Most card documents a process keeps ready (more than the index holds)."""
MAX_CACHED = 1024
"""Most formats (by name, timeline and region) and dates a process keeps resolved."""
BIG_DECK = 32 * 1024
"""Deck inputs longer than this (characters) are read in a worker thread."""


class Service:
    """One dataset, its card finder, the settings and the builder's files: all read-only."""

    def __init__(self, settings: Settings, data: Dataset) -> None:
        from deckcheck.service.state import Holder, Siblings

        self.settings = settings
        self.holder = Holder(data)
        """The data in service (swapped whole by a reload; each request pins one)."""
        self.siblings = Siblings.from_env()
        """The other workers of this server (None: a single process)."""
        self.openapi_text: str | None = None
        """The OpenAPI document as JSON, made on first request."""
        self.dates: dict[str, date] = {}
        """Dates asked as YYYY-MM-DD, parsed (the same for every dataset)."""
        self.static = builder_files(settings.image_url)
        """The deck builder's files (:mod:`deckcheck.service.asset`)."""

    @property
    def data(self) -> Dataset:
        """The dataset of the request being answered (captured once when it arrived)."""
        return self.holder.state.data

    @property
    def etag_prefix(self) -> str:
        """The ETag prefix of the request's data (16 digits of its fingerprint)."""
        return self.holder.state.tag

    def use(self, data: Dataset) -> None:
        """Answer from ``data`` from now on (warmed first; requests running finish on the old)."""
        from deckcheck.service.state import State

        new = State(data)
        new.warm()
        self.holder.swap(new)

    @property
    def finder(self) -> CardFinder:
        """The as-you-type card search of the request's data."""
        return self.holder.state.finder

    def card_json(self, card: Card) -> str:
        """A card's document as JSON, validated once and then reused (cards never change)."""
        cache = self.holder.state.cards
        got = cache.get(card.passcode)
        if got is None:
            names = self.data.cards.names_of(card)
            data = dict(doc.shape(doc.CardDocument, card), names=names)
            model = doc.CardDocument.model_validate(safe(data))
            got = model.model_dump_json(by_alias=True, exclude_unset=True)
            if len(cache) < MAX_CACHED_CARDS:
                cache[card.passcode] = got
        return got

    def workers(self) -> dict[str, Any]:
        """The ``workers`` object of ``/healthz`` (:class:`~deckcheck.service.state.Siblings`)."""
        from deckcheck.service.state import single_health

        state = self.holder.state
        return self.siblings.health(state) if self.siblings is not None else single_health(state)

    def warm(self) -> None:
        """Load every part of the dataset now, so no request pays for it."""
        self.holder.live.warm()
        # what the computing routes import, loaded once before their children are forked
        import deckcheck.goldfish
        import deckcheck.run.batch  # noqa: F401

    # -- helpers --------------------------------------------------------------------------

    def date(self, text: str | None) -> date:
        """``YYYY-MM-DD``, ``today`` or None (today); :class:`InputError` otherwise (the one
        date rule of :func:`deckcheck.run.vocab.parse_date`)."""
        from deckcheck.run.vocab import parse_date

        if text is None:
            return date.today()
        got = self.dates.get(text)
        if got is None:
            got = parse_date(text)
            if got is None:  # today: never kept
                return date.today()
            if len(self.dates) < MAX_CACHED:
                self.dates[text] = got
        return got

    def format(
        self,
        name: str | None,
        inline: dict[str, Any] | str | None,
        timeline: str | None,
        tcg_region: str | None = None,
    ) -> Format:
        """The format a request names, defines inline, or implies by its timeline (tcg/ocg),
        in the TCG event region asked (na/eu), by the one resolver of
        :func:`deckcheck.run.vocab.resolve_format`."""
        from deckcheck.run.vocab import resolve_format

        ds = self.data
        if name is not None and inline is not None:
            raise InputError("give format or format_file, not both")
        if name is not None and not name.strip():
            raise InputError("format is empty; see GET /v1/formats")
        # a format named (not a file or a document) is resolved once per dataset
        known = self.holder.state.formats
        key = (name, timeline, tcg_region)
        named = inline is None and not (name or "").strip().lower().endswith(".toml")
        if named and key in known:
            return known[key]
        fmt = resolve_format(
            name,
            document=inline,
            data=ds,
            default=timeline or "tcg",
            region=tcg_region,
            files=False,
        )
        if timeline is not None and fmt.era is None and fmt.region != timeline:
            fmt = replace(fmt, region=timeline, timeline=ds.formats.timeline(timeline))
        if named and len(known) < MAX_CACHED:
            known[key] = fmt
        return fmt

    def rules(self, req: Any) -> Format:
        """The format of a request with ``format``, ``format_file``, ``timeline`` and
        ``tcg_region`` fields (and the deprecated ``region``)."""
        from deckcheck.service.model import rules_of

        return self.format(req.format, req.format_file, *rules_of(req))

    def deck(
        self, content: str | dict[str, Any], fmt: str | None, source: str, *, rush: bool = False
    ) -> Deck:
        """Read a request's deck; :class:`LimitError` over the card cap."""
        from deckcheck.deck.io import read_deck

        if isinstance(content, dict):
            text = json.dumps(content, ensure_ascii=False)
            fmt = fmt or "json"
        else:
            text = content
        if not text.strip():
            raise InputError("deck is empty: give .ydk text, a ydke:// URL, a list or JSON")
        deck = read_deck(text, fmt=fmt, source=source, rush=rush, data=self.data)
        self.check_cards(len(deck) + sum(f.count for f in deck.findings if f.passcode is None))
        return deck

    def check_cards(self, n: int) -> None:
        """:class:`LimitError` if a deck of ``n`` cards is over the service's cap."""
        cap = self.settings.max_cards
        if n > cap:
            raise LimitError(f"the deck has {n} cards; the limit is {cap}", "max_cards", cap)

    def answer(self, model: type[BaseModel], data: Any, *, check: bool = True) -> Response:
        """``data`` checked against its document model (unless ``check`` is False: see
        :func:`~deckcheck.service.fast.document_json`), as a JSON response."""
        from deckcheck.service.fast import document_json

        return Response(document_json(model, data, check=check), media_type="application/json")

    def cached(self, request: Request, body: bytes | str, media_type: str) -> Response:
        """A GET answer with its ETag, or 304 when the client's copy is current."""
        raw = body.encode("utf-8") if isinstance(body, str) else body
        etag = f'"{self.etag_prefix}-{zlib.crc32(raw):08x}"'
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        match = request.headers.get("if-none-match")
        if match is not None and (
            match.strip() == "*" or etag in {t.strip().removeprefix("W/") for t in match.split(",")}
        ):
            return Response(status_code=304, headers=headers)
        return Response(raw, media_type=media_type, headers=headers)

    def cached_doc(self, request: Request, model: type[BaseModel], data: Any) -> Response:
        """A GET answer checked against its document model, with its ETag."""
        body = model.model_validate(safe(data)).model_dump_json(by_alias=True, exclude_unset=True)
        return self.cached(request, body, "application/json")


def is_big(deck: str | dict[str, Any]) -> bool:
    """Whether a deck input is big enough to be read in a worker thread (it would hold up the
    other requests)."""
    if isinstance(deck, str):
        return len(deck) > BIG_DECK
    main = deck.get("main", ())
    return isinstance(main, Sized) and len(main) > 200  # not a list: the reader says why
