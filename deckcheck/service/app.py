"""The FastAPI app: versioned JSON routes over the library, and the web deck builder at ``/``.

Every route is a thin use of the library's seams: decks are read with :func:`deckcheck.read_deck`,
checked with :func:`deckcheck.validate` or :func:`deckcheck.run.batch.check`, and answered with the
pydantic documents of :mod:`deckcheck.reporter.document`. Errors are ``{"error": {"code",
"message", "detail"}}`` with the status of the :mod:`deckcheck.error` class raised; a client's
mistake is always a 4xx. GET answers carry an ``ETag`` made of the data fingerprint and a
checksum of the body, and ``If-None-Match`` gets 304.

The app holds one read-only :class:`~deckcheck.data.dataset.Dataset` and no other state.
"""

from __future__ import annotations

import json
import time
import tomllib
import zlib
from collections.abc import Awaitable, Callable, MutableMapping, Sized
from dataclasses import replace
from datetime import date
from importlib import resources
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.utils import get_openapi
from fastapi.responses import Response
from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from deckcheck import __version__
from deckcheck.card import Card
from deckcheck.card.finder import CardFinder
from deckcheck.data.dataset import Dataset
from deckcheck.deck.model import Deck
from deckcheck.error import (
    AmbiguousCardError,
    ConditionError,
    DeckcheckError,
    DeckReadError,
    InputError,
    LimitError,
    NotFoundError,
    SpecError,
    UnknownCardError,
    UnknownFormatError,
)
from deckcheck.reporter import batch_dict, localize_result, safe
from deckcheck.reporter import document as doc
from deckcheck.rule.format import Format, Pool
from deckcheck.run.vocab import parse_region, parse_timeline
from deckcheck.service import sheet
from deckcheck.service.config import Settings
from deckcheck.service.fast import Lane
from deckcheck.service.model import (
    BatchRequest,
    ConvertDocument,
    ConvertRequest,
    ErrorDocument,
    HealthDocument,
    SimulateRequest,
    SweepRequest,
    ValidateRequest,
)
from deckcheck.service.query import refuse_query

API = "/v1"
"""Prefix of the versioned routes."""
PILOT_TRIALS = 2000
"""Trials of the pilot run that projects a simulation's time against its budget."""
MAX_CACHED_CARDS = 50_000
"""Most card documents a process keeps ready (more than the index holds)."""
MAX_CACHED = 1024
"""Most formats (by name, timeline and region) and dates a process keeps resolved."""
ZIP_TYPES = ("application/zip", "application/x-zip-compressed", "application/octet-stream")
"""Content types ``POST /v1/batch`` takes as a raw zip upload."""
STATIC = {
    "builder.js": "text/javascript; charset=utf-8",
    "builder.css": "text/css; charset=utf-8",
    "i18n.js": "text/javascript; charset=utf-8",  # the builder in en/ja/zh
    "print.js": "text/javascript; charset=utf-8",  # its "Print decklist" view
    "print.css": "text/css; charset=utf-8",
}
"""Files of the deck builder served under ``/static/``."""

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorDocument, "description": text}
    for status, text in (
        (404, "Unknown card, format or route"),
        (413, "Request body over the size limit"),
        (422, "Bad input, or over a limit"),
    )
}

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# ---------------------------------------------------------------------------------------------
# errors


def error_response(status: int, code: str, message: str, detail: Any = None) -> Response:
    """The JSON error answer ``{"error": {"code", "message", "detail"}}``."""
    body = {"error": {"code": code, "message": message, "detail": safe(detail)}}
    return Response(
        json.dumps(safe(body), ensure_ascii=False), status_code=status,
        media_type="application/json",
    )  # fmt: skip


def error_detail(exc: DeckcheckError) -> Any:
    """What an error's ``detail`` holds, by its class (documented in the README)."""
    if isinstance(exc, UnknownCardError):
        return {"query": exc.query, "suggestions": exc.suggestions}
    if isinstance(exc, AmbiguousCardError):
        return {"query": exc.query,
                "candidates": [{"passcode": p, "name": n} for p, n in exc.candidates]}  # fmt: skip
    if isinstance(exc, UnknownFormatError):
        return {"name": exc.name, "valid": exc.valid}
    if isinstance(exc, DeckReadError):
        return {"source": exc.source, "line": exc.line}
    if isinstance(exc, ConditionError):
        return {"text": exc.text, "position": exc.position}
    if isinstance(exc, LimitError):
        return {"limit": exc.limit, "value": exc.value}
    return None


def deckcheck_answer(exc: DeckcheckError) -> Response:
    """The error answer to a :class:`DeckcheckError`: its status, code, message and detail."""
    return error_response(exc.http_status, exc.code, str(exc), error_detail(exc))


def _validation_detail(errors: Any) -> list[dict[str, Any]]:
    return [
        {"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", "")),
         "type": str(e.get("type", ""))}
        for e in errors
    ]  # fmt: skip


def _install_errors(app: FastAPI) -> None:
    async def deckcheck_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, DeckcheckError)
        return deckcheck_answer(exc)

    async def validation_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        detail = _validation_detail(exc.errors())
        first = detail[0] if detail else {"loc": [], "msg": "invalid request"}
        where = ".".join(first["loc"][1:] if first["loc"][:1] == ["body"] else first["loc"])
        msg = f"{where}: {first['msg']}" if where else str(first["msg"])
        return error_response(422, "bad-request", msg, detail)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        codes = {400: "bad-request", 404: "not-found", 405: "method-not-allowed"}
        code = codes.get(exc.status_code, "http-error")
        resp = error_response(exc.status_code, code, str(exc.detail))
        if exc.headers:
            resp.headers.update(exc.headers)
        return resp

    async def internal_error(request: Request, exc: Exception) -> Response:
        return error_response(500, "internal-error", f"unexpected {type(exc).__name__}")

    app.add_exception_handler(DeckcheckError, deckcheck_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, internal_error)


class BodyLimit:
    """ASGI middleware: a request body over its limit gets 413 before any route reads it.

    The body is read up to the limit (whatever ``Content-Length`` claims, and for chunked
    bodies too) and handed on; ``POST /v1/batch`` has its own, larger limit.
    """

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        big = scope["path"] == f"{API}/batch"
        limit = self.settings.max_batch_bytes if big else self.settings.max_body_bytes
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > limit:
                    await self._refuse(scope, receive, send, limit)
                    return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message]), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._refuse(scope, receive, send, limit)
                return
            chunks.append(chunk)
            more = bool(message.get("more_body", False))
        body = b"".join(chunks)
        await self.app(scope, _replay([{"type": "http.request", "body": body}]), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        resp = error_response(413, "too-large", f"the request body is over {limit} bytes",
                              {"limit": "max_body_bytes" if limit == self.settings.max_body_bytes
                               else "max_batch_bytes", "value": limit})  # fmt: skip
        resp.headers["Connection"] = "close"
        await resp(scope, receive, send)


def _replay(messages: list[Message]) -> Receive:
    pending = list(messages)

    async def receive() -> Message:
        if pending:
            return pending.pop(0)
        return {"type": "http.disconnect"}

    return receive


# ---------------------------------------------------------------------------------------------
# the service


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
        folder = resources.files("deckcheck.service") / "static"
        # the builder's own files, shipped in the package (a fixed list of small files)
        self.static = {name: (folder / name).read_bytes() for name in ("index.html", *STATIC)}
        if settings.image_url:  # the builder reads the card image template from its page
            import html

            meta = f'<meta name="deckcheck-image-url" content="{html.escape(settings.image_url)}">'
            self.static["index.html"] = self.static["index.html"].replace(
                b'<meta name="deckcheck-image-url" content="">', meta.encode()
            )

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
            model = doc.CardDocument.model_validate(safe(card.to_dict()))
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
        self, name: str | None, inline: dict[str, Any] | str | None, timeline: str | None,
        tcg_region: str | None = None,
    ) -> Format:  # fmt: skip
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
        fmt = resolve_format(name, document=inline, data=ds, default=timeline or "tcg",
                             region=tcg_region, files=False)  # fmt: skip
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
        if match is not None and (match.strip() == "*" or etag in {
                t.strip().removeprefix("W/") for t in match.split(",")}):  # fmt: skip
            return Response(status_code=304, headers=headers)
        return Response(raw, media_type=media_type, headers=headers)

    def cached_doc(self, request: Request, model: type[BaseModel], data: Any) -> Response:
        """A GET answer checked against its document model, with its ETag."""
        body = model.model_validate(safe(data)).model_dump_json(by_alias=True, exclude_unset=True)
        return self.cached(request, body, "application/json")

    async def validate(self, req: ValidateRequest) -> Response:
        """The answer to ``POST /v1/validate``: the deck's result document."""
        from deckcheck.validation.engine import validate

        def run() -> Response:
            fmt = self.rules(req)
            when = self.date(req.date)
            name = req.name or "deck"
            deck = self.deck(req.deck, req.deck_format, name, rush=fmt.pool is Pool.RUSH)
            report = validate(deck, fmt, when, allow_prerelease=req.allow_prerelease,
                              path=req.name, data=self.data)  # fmt: skip
            result = localize_result(report, report.to_dict(), req.lang)
            return self.answer(doc.ResultDoc, result, check=False)  # a ResultDoc's own JSON

        # a usual deck is checked at once; a big input (a long text list) in a worker thread,
        # so that it never holds up the other requests
        return await run_in_threadpool(run) if _big(req.deck) else run()

    def simulate(self, req: SimulateRequest) -> Any:
        """Run a goldfish request within the trial cap, the exact engine's budget (memory and
        time) and the simulation's time budget (pilot run, projected)."""
        from deckcheck.goldfish import DrawRules, ExactBudget, Method

        s = self.settings
        if req.trials > s.max_trials:
            raise LimitError(f"trials {req.trials} is over the limit of {s.max_trials}",
                             "max_trials", s.max_trials)  # fmt: skip
        fmt = self.rules(req)
        when = self.date(req.date)
        fmt.require_date(when, self.data)  # one date rule for every route (422 before lists)
        rules = DrawRules.from_era(fmt.era_at(when))
        runner = self._goldfish_runner(req, fmt, rules)
        budget = ExactBudget(max_bytes=s.exact_bytes, seconds=s.simulation_seconds)
        pilot = min(req.trials, PILOT_TRIALS)
        stats = runner(pilot, req.exact, budget)  # exact, or the exact engine said why not
        if stats.method is Method.EXACT or pilot == req.trials:
            return stats
        start = time.monotonic()  # time a simulation alone (not the exact engine's attempt)
        runner(pilot, "never", budget)
        projected = (time.monotonic() - start) * req.trials / pilot
        limit = s.simulation_seconds
        if projected > limit:
            fits = max(1, int(req.trials * limit / projected))
            raise LimitError(
                f"{req.trials} trials would take about {projected:.1f} s, over the "
                f"{limit:g} s budget of a simulation; ask for at most about {fits} trials",
                "simulation_seconds", limit,
            )  # fmt: skip
        # the pilot already found exact odds out of reach: simulate at once, keep its note
        return replace(runner(req.trials, "never", budget), note=stats.note)

    def sweep(self, req: SweepRequest) -> Any:
        """Run a ratio sweep within the exact engine's budget (the whole sweep gets the time
        budget) and, when it simulates, the simulation's time budget (pilot sweep, projected)."""
        from deckcheck.goldfish import DrawRules, ExactBudget, Method, sweep, sweep_counts

        s = self.settings
        if req.trials > s.max_trials:
            raise LimitError(f"trials {req.trials} is over the limit of {s.max_trials}",
                             "max_trials", s.max_trials)  # fmt: skip
        if req.distributions:
            raise InputError("a sweep has no distributions (ask POST /v1/simulate)")
        fmt = self.rules(req)
        when = self.date(req.date)
        fmt.require_date(when, self.data)  # one date rule for every route (422 before lists)
        rules = DrawRules.from_era(fmt.era_at(when))
        budget = ExactBudget(max_bytes=s.exact_bytes, seconds=s.simulation_seconds)
        common: dict[str, Any] = dict(filler=req.filler, by=req.by, going=req.going,
                                      turns=req.turns, rules=rules, exact=req.exact,
                                      budget=budget)  # fmt: skip
        if (req.deck is None) == (req.quick is None):
            raise InputError("give either deck or quick (a deck size and category counts)")
        if req.quick is not None:
            q = req.quick
            if req.vary is None:
                raise InputError("a quick-mode sweep needs vary")
            return sweep_counts(q.size, q.counts, req.vary, q.when, **common)
        assert req.deck is not None
        deck = self.deck(req.deck, req.deck_format, "deck", rush=fmt.pool is Pool.RUSH)
        spec = self._spec(req)

        def run(trials: int) -> Any:
            return sweep(deck, spec, req.vary, trials=trials, seed=req.seed, data=self.data,
                         **common)  # fmt: skip

        start = time.monotonic()
        pilot = min(req.trials, PILOT_TRIALS // 4)
        stats = run(pilot)
        if stats.method is Method.EXACT or pilot == req.trials:
            return stats
        projected = (time.monotonic() - start) * req.trials / pilot
        if projected > s.simulation_seconds:
            fits = max(1, int(req.trials * s.simulation_seconds / projected))
            raise LimitError(
                f"{req.trials} trials per combination would take about {projected:.1f} s, over "
                f"the {s.simulation_seconds:g} s budget; ask for at most about {fits} trials",
                "simulation_seconds", s.simulation_seconds,
            )  # fmt: skip
        return run(req.trials)

    def _spec(self, req: SimulateRequest) -> Any:
        """The request's spec (an object or TOML text), or None."""
        from deckcheck.goldfish import parse_spec

        if req.spec is None:
            return None
        raw: Any = req.spec
        if isinstance(raw, str):
            try:
                raw = tomllib.loads(raw)
            except tomllib.TOMLDecodeError as exc:
                raise SpecError(f"spec: invalid TOML: {exc}") from None
            except RecursionError:
                raise SpecError("spec: invalid TOML: nested too deeply") from None
        return parse_spec(raw, source="spec", data=self.data)

    def _goldfish_runner(self, req: SimulateRequest, fmt: Format, rules: Any) -> Any:
        """A function (trials, exact, budget) -> HandStats for the request's deck or quick mode."""
        from deckcheck.goldfish import simulate, simulate_counts

        if (req.deck is None) == (req.quick is None):
            raise InputError("give either deck or quick (a deck size and category counts)")
        common = dict(going=req.going, turns=req.turns, seed=req.seed, rules=rules,
                      distributions=req.distributions)  # fmt: skip
        if req.quick is not None:
            quick = req.quick
            return lambda trials, exact, budget: simulate_counts(
                quick.size, quick.counts, quick.when, trials=trials, exact=exact,
                budget=budget, **common,
            )  # fmt: skip
        assert req.deck is not None
        deck = self.deck(req.deck, req.deck_format, "deck", rush=fmt.pool is Pool.RUSH)
        spec = self._spec(req)
        return lambda trials, exact, budget: simulate(
            deck, spec, trials=trials, exact=exact, budget=budget, data=self.data, **common
        )


BIG_DECK = 32 * 1024
"""Deck inputs longer than this (characters) are read in a worker thread."""


def _big(deck: str | dict[str, Any]) -> bool:
    if isinstance(deck, str):
        return len(deck) > BIG_DECK
    main = deck.get("main", ())
    return isinstance(main, Sized) and len(main) > 200  # not a list: the reader says why


def _finding(f: Any) -> dict[str, Any]:
    return {"code": f.code.value, "message": f.message, "line": f.line, "text": f.text,
            "section": f.section.value if f.section else None,
            "suggestions": list(f.suggestions)}  # fmt: skip


# ---------------------------------------------------------------------------------------------
# the app


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
    _install_errors(app)
    if svc.settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(svc.settings.cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["Content-Type", "If-None-Match"],
            expose_headers=["ETag"],
        )
    _middleware(app, svc)
    _routes(app, svc)
    sheet.register(app, svc, API, ERRORS)  # POST /v1/sheet
    __import__("deckcheck.service.meta", fromlist=["register"]).register(app, svc)  # POST /v1/meta
    _openapi(app)
    return app


COMPUTING = frozenset({f"{API}/simulate", f"{API}/simulate/sweep", f"{API}/batch", f"{API}/meta"})
"""Routes that can compute for long: run within the budgets of :mod:`deckcheck.service.limit`."""


def _middleware(app: FastAPI, svc: Service) -> None:
    """From the outside in: security headers and HEAD, the body limit, one dataset per
    request, the budgets of the computing routes."""
    from fastapi.openapi.docs import get_swagger_ui_html

    from deckcheck.service.config import image_origin
    from deckcheck.service.header import Headers, docs_policy, policy
    from deckcheck.service.limit import ComputeLimit
    from deckcheck.service.state import Pin

    s = svc.settings
    # the usual POST /v1/validate (a JSON body the model accepts) answered without the router
    app.add_middleware(Lane, routes={f"{API}/validate": (ValidateRequest, svc.validate)},
                       on_error=deckcheck_answer)  # fmt: skip
    app.add_middleware(ComputeLimit, settings=s, paths=COMPUTING)
    app.add_middleware(BodyLimit, settings=s)
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


def _routes(app: FastAPI, svc: Service) -> None:

    # -- pages and health -------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def builder(request: Request) -> Response:
        return svc.cached(request, svc.static["index.html"], "text/html; charset=utf-8")

    @app.get("/openapi.json", include_in_schema=False)
    async def openapi(request: Request) -> Response:
        if svc.openapi_text is None:
            svc.openapi_text = json.dumps(app.openapi(), ensure_ascii=False)
        return svc.cached(request, svc.openapi_text, "application/json")

    @app.get("/docs", include_in_schema=False)
    async def docs(request: Request) -> Response:
        from fastapi.openapi.docs import get_swagger_ui_html

        page = get_swagger_ui_html(openapi_url="/openapi.json", title="deckcheck API")
        return svc.cached(request, bytes(page.body), "text/html; charset=utf-8")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/static/{name}", include_in_schema=False)
    async def static(request: Request, name: str) -> Response:
        if name not in STATIC:
            raise NotFoundError(f"no static file {name!r}")
        return svc.cached(request, svc.static[name], STATIC[name])

    @app.get("/healthz", response_model=HealthDocument, tags=["service"])
    async def healthz(request: Request) -> Response:
        """Liveness, the version, and the data's as-of date and fingerprint."""
        return svc.cached_doc(request, HealthDocument, {
            "status": "ok", "version": __version__,
            "data": {"as_of": svc.data.as_of.isoformat(), "fingerprint": svc.data.fingerprint},
            "reload": svc.holder.reload.to_dict(), "workers": svc.workers(),
        })  # fmt: skip

    # -- decks ------------------------------------------------------------------------------

    @app.post(f"{API}/validate", response_model=doc.ResultDoc, responses=ERRORS, tags=["decks"])
    async def validate(req: ValidateRequest) -> Response:
        """Check one deck against a format (or an inline one) on a date: every violation."""
        return await svc.validate(req)  # the usual request comes by the Lane (see _middleware)

    @app.post(f"{API}/simulate", response_model=doc.GoldfishDocument, responses=ERRORS,
              tags=["decks"])  # fmt: skip
    def simulate(req: SimulateRequest) -> Response:
        """Goldfish odds of the Main Deck: by condition, going first and second, by turn."""
        stats = svc.simulate(req)
        data = stats.to_dict(fractions=req.fractions)
        data["warnings"] = []
        return svc.answer(doc.GoldfishDocument, data)

    @app.post(f"{API}/simulate/sweep", response_model=doc.SweepDocument, responses=ERRORS,
              tags=["decks"])  # fmt: skip
    def simulate_sweep(req: SweepRequest) -> Response:
        """Ratio sweep: every combination of copies asked, ranked by a condition."""
        stats = svc.sweep(req)
        return svc.answer(doc.SweepDocument, stats.to_dict(fractions=req.fractions))

    @app.post(f"{API}/convert", response_model=ConvertDocument, responses=ERRORS,
              tags=["decks"])  # fmt: skip
    async def convert(req: ConvertRequest) -> Response:
        """A deck in another file format (ydk, ydke, text, omega, json), with what was lost."""
        from deckcheck.deck.io import write_deck

        def run() -> Response:
            deck = svc.deck(req.deck, req.deck_format, "deck", rush=req.rush)
            content = write_deck(deck, req.to, data=svc.data)
            return svc.answer(ConvertDocument, {
                "to": req.to, "content": content, "counts": deck.counts,
                "findings": [_finding(f) for f in deck.findings],
            })  # fmt: skip

        return await run_in_threadpool(run) if _big(req.deck) else run()

    @app.post(
        f"{API}/batch", response_model=doc.ValidationDocument, responses=ERRORS, tags=["decks"],
        openapi_extra={"requestBody": {"required": True, "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/BatchRequest"}},
            "application/zip": {"schema": {"type": "string", "format": "binary"}},
            "multipart/form-data": {"schema": {
                "type": "object", "required": ["file"],
                "properties": {"file": {"type": "string", "format": "binary"}}}},
        }}},
    )  # fmt: skip
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
        from deckcheck.run.batch import Source, check

        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        s = svc.settings
        sources: list[Source]
        if ctype == "application/json" or ctype.endswith("+json"):
            refuse_query(request.query_params.keys(), "a JSON batch")
            try:
                req = BatchRequest.model_validate_json(await request.body())
            except ValidationError as exc:
                raise RequestValidationError(
                    [dict(e, loc=("body", *e["loc"])) for e in exc.errors()]
                ) from None
            if len(req.decks) > s.max_batch_decks:
                raise LimitError(f"{len(req.decks)} decks; the limit is {s.max_batch_decks}",
                                 "max_batch_decks", s.max_batch_decks)  # fmt: skip
            fmt = svc.rules(req)
            when = svc.date(req.date)
            prerelease = req.allow_prerelease
            sources = [
                Source.memory(d.name, json.dumps(d.deck) if isinstance(d.deck, dict) else d.deck)
                for d in req.decks
            ]
        else:
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
            prerelease = allow_prerelease
            sources = await run_in_threadpool(_zip_sources, raw, s, svc.data)
        decks = sum(1 for x in sources if x.skip is None and x.error is None)
        if decks > s.max_batch_decks:
            raise LimitError(f"{decks} decks; the limit is {s.max_batch_decks}",
                             "max_batch_decks", s.max_batch_decks)  # fmt: skip
        result = await run_in_threadpool(
            check, sources, fmt, when, allow_prerelease=prerelease, data=svc.data
        )
        return svc.answer(doc.ValidationDocument, batch_dict(result))

    # -- reference data ---------------------------------------------------------------------

    @app.get(f"{API}/formats", response_model=doc.FormatsDocument, tags=["reference"])
    async def formats(request: Request) -> Response:
        """Every format and era with its rules."""
        reg = svc.data.formats
        return svc.cached_doc(request, doc.FormatsDocument, {
            "formats": [f.to_dict() for f in reg.formats()],
            "eras": [e.to_dict() for e in reg.eras()],
        })  # fmt: skip

    @app.get(f"{API}/formats/{{format_id}}", response_model=doc.FormatDoc, responses=ERRORS,
             tags=["reference"])  # fmt: skip
    async def format_show(
        request: Request,
        format_id: Annotated[str, Path(description="Format or era id or alias.")],
        date: Annotated[str | None, Query(description="YYYY-MM-DD or 'today'.")] = None,
        tcg_region: Annotated[Literal["na", "eu"] | None, Query(description=TCG_REGION)] = None,
    ) -> Response:
        """A format's rules, and the era and ban list in force on the date."""
        fmt = svc.format(format_id, None, None, tcg_region)
        when = svc.date(date)
        fmt.require_date(when, svc.data)  # the library's one rule: DateRangeError (422)
        return svc.cached_doc(request, doc.FormatDoc, fmt.to_dict(when, svc.data))

    @app.get(f"{API}/banlists/{{format_id}}", response_model=doc.BanlistDocument,
             responses=ERRORS, tags=["reference"])  # fmt: skip
    async def banlist(
        request: Request,
        format_id: Annotated[str, Path(description="Format id or alias.")],
        date: Annotated[str | None, Query(description="YYYY-MM-DD or 'today'.")] = None,
        tcg_region: Annotated[Literal["na", "eu"] | None, Query(description=TCG_REGION)] = None,
    ) -> Response:
        """The ban list (or whitelist, or points list) in force on the date."""
        fmt = svc.format(format_id, None, None, tcg_region)
        when = svc.date(date)
        fmt.require_date(when, svc.data)  # the library's one rule: DateRangeError (422)
        current = fmt.banlist_at(when, svc.data)
        if current is None:
            raise NotFoundError(f"{fmt.name} has no ban list in force on {when.isoformat()}")
        cards = svc.data.cards

        def name(code: int) -> str | None:
            return cards.get(code).name if code in cards else None

        return svc.cached_doc(request, doc.BanlistDocument, current.to_dict(name))

    @app.get(f"{API}/cards", response_model=doc.CardSearchDocument, responses=ERRORS,
             tags=["cards"])  # fmt: skip
    async def cards_search(
        request: Request,
        q: Annotated[str, Query(min_length=1, max_length=200, description="Part of a name.")],
        lang: Annotated[
            Literal["en", "ja", "zh-CN"] | None,
            Query(description="Match names in this language only (default: all)."),
        ] = None,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
    ) -> Response:
        """Cards whose names (English, Japanese, Simplified Chinese) best match ``q``."""
        found = svc.finder.search(q, limit, lang)
        # each card's JSON is made once (from its validated document) and reused; the page is
        # a CardSearchDocument (the tests read every answer back through the model)
        items = ",".join(f'{svc.card_json(c)[:-1]},"score":{s!r}}}' for c, s in found)
        body = f'{{"query":{json.dumps(safe(q), ensure_ascii=False)},"results":[{items}]}}'
        return svc.cached(request, body, "application/json")  # fmt: skip

    @app.get(f"{API}/cards/{{passcode}}", response_model=doc.CardDocument, responses=ERRORS,
             tags=["cards"])  # fmt: skip
    async def card(
        request: Request,
        passcode: Annotated[str, Path(max_length=200,
                                      description="Passcode (padded or not), or a card name.")],
    ) -> Response:  # fmt: skip
        """One card's facts; alternate artworks and pre-release codes reach the original."""
        found = svc.data.cards.lookup(passcode)
        return svc.cached_doc(request, doc.CardDocument, found.to_dict())


TCG_REGION = "na or eu: the TCG event region whose dates pick the list (default: the format's)."
"""How the ``tcg_region`` query parameter is documented."""
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
    from deckcheck.source.archive import read_zip

    return read_zip(raw, max_entries=s.max_zip_entries, max_bytes=s.max_zip_bytes,
                    max_ratio=s.max_zip_ratio, data=data)  # fmt: skip


def _openapi(app: FastAPI) -> None:
    """The OpenAPI document, with the JSON form of ``POST /v1/batch`` among its schemas."""

    def build() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(title=app.title, version=app.version, summary=app.summary,
                             description=app.description, routes=app.routes)  # fmt: skip
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
