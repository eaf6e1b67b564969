"""The events routes (``/v1/events/...``) and their pages: an
:class:`~fastapi.APIRouter` over :class:`deckcheck.event.desk.Desk`, included with the other
routes (:mod:`deckcheck.service.routes`).

Tokens come in ``Authorization: Bearer TOKEN``: the admin token (``DECKCHECK_ADMIN_TOKEN``)
creates events; each event has an organiser and a judge token; each registration an edit token.
The database is ``DECKCHECK_DATABASE_URL`` (PostgreSQL), else SQLite in the data home; it is
opened on the first events request (``app.state.event_desk`` set beforehand wins: tests give
their own store and clock). Routes are plain ``def``: FastAPI runs them in its thread pool, so
a database write never holds up the event loop.
"""

from __future__ import annotations

import json
import os
import threading
from importlib import resources
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Header, Path, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from deckcheck.error import EventInputError, EventNotFoundError
from deckcheck.event.desk import Desk, parse_day, parse_deadline
from deckcheck.event.model import Entry, Event
from deckcheck.event.token import Role
from deckcheck.reporter.document import (
    WITHOUT_DECK,
    AuditDoc,
    EventDoc,
    EventEntryDoc,
    event_at,
    shape,
)
from deckcheck.service.model import ErrorDocument

if TYPE_CHECKING:
    from deckcheck.service.core import Service

ADMIN_ENV = "DECKCHECK_ADMIN_TOKEN"
"""The variable holding the admin token (no events can be created over HTTP without it)."""
PUBLIC_URL_ENV = "DECKCHECK_PUBLIC_URL"
"""The service's public base URL for submission links (default: the request's own)."""
PAGES = {
    "dashboard.html": "text/html; charset=utf-8",
    "dashboard.js": "text/javascript; charset=utf-8",
    "submit.js": "text/javascript; charset=utf-8",
    "event.css": "text/css; charset=utf-8",
}
"""The events' page files, under ``/static/event/``."""
REPORTS = {
    "report.csv": "text/csv; charset=utf-8",
    "report.html": "text/html; charset=utf-8",
    "report.json": "application/json",
}
"""The batch reports of an event's stored decks."""
EventId = Annotated[str, Path(max_length=64, description="The event's id.")]
Auth = Annotated[str | None, Header(description="Bearer TOKEN", include_in_schema=False)]


def _err(*statuses: int, get: bool = False) -> dict[int | str, dict[str, Any]]:
    """The answers a route lists besides 200 (``get``: a GET route, which also answers 304);
    every route can answer 422 (a bad id, body or query) and 503 (no usable database)."""
    why = {
        401: "No token, or a token that opens nothing",
        403: "A token of another role",
        404: "No such event or registration (or decklists not yet published)",
        409: "This player id is already registered: use the edit link",
        413: "Request body over the size limit",
        422: "Bad input, or over a limit",
        423: "Past the deadline or locked: no more changes",
        501: "No PDF writer installed",
        503: "The event database cannot be used",
    }
    out: dict[int | str, dict[str, Any]] = {}
    if get:
        out[304] = {"description": "Not modified: the client's copy (`If-None-Match`) is current"}
    for s in sorted({*statuses, 422, 503}):
        out[s] = {"model": ErrorDocument, "description": why[s]}
    return out


class EventRequest(BaseModel):
    """``POST /v1/events``: a new event."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=200)
    format: str = Field(max_length=200, description="Format id or alias (GET /v1/formats).")
    date: str = Field(description="The event's date, YYYY-MM-DD: decks are checked for it.")
    deadline: str = Field(description="When submissions close: ISO 8601 with its zone.")
    tcg_region: Literal["na", "eu"] | None = None


class RegistrationRequest(BaseModel):
    """``POST /v1/events/{id}/registrations``: a player's deck."""

    model_config = ConfigDict(extra="forbid")

    player: str = Field(max_length=200)
    player_id: str = Field(max_length=100)
    deck: str | dict[str, Any] = Field(
        description="The deck: .ydk text, a ydke:// URL, a text list, an Omega code or JSON."
    )


class EditRequest(BaseModel):
    """``PUT /v1/events/{id}/registrations/{rid}``: the new deck (and name)."""

    model_config = ConfigDict(extra="forbid")

    deck: str | dict[str, Any]
    player: str | None = Field(None, max_length=200)
    player_id: str | None = Field(
        None, max_length=100, description="If given, the registration's own (it cannot change)."
    )
    edit_token: str | None = Field(
        None, max_length=200, description="The edit token, if not in the Authorization header."
    )


class CheckRequest(BaseModel):
    """``POST /v1/events/{id}/check``: the deck played at the table."""

    model_config = ConfigDict(extra="forbid")

    player_id: str = Field(max_length=100)
    deck: str | dict[str, Any] | None = Field(
        None, description="The played deck (any format), or the sheet's QR text (a ydke:// URL)."
    )
    qr: str | None = Field(None, description="The sheet's QR text (instead of deck).")


def bearer(value: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header ('' for any other value)."""
    if value is None:
        return None
    scheme, _, token = value.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def _deck_text(deck: str | dict[str, Any]) -> str:
    return json.dumps(deck, ensure_ascii=False) if isinstance(deck, dict) else deck


def _json(data: Any, status: int = 200) -> Response:
    from deckcheck.reporter import safe

    return Response(
        json.dumps(safe(data), ensure_ascii=False),
        status_code=status,
        media_type="application/json",
    )


def _cached(svc: Service, request: Request, data: Any) -> Response:
    """A GET answer's JSON with its ETag (304 when the client's copy is current)."""
    from deckcheck.reporter import safe

    return svc.cached(request, json.dumps(safe(data), ensure_ascii=False), "application/json")


def _file(svc: Service, request: Request, body: bytes | str, media: str, name: str) -> Response:
    """A download with its ETag and file name."""
    resp = svc.cached(request, body, media)
    resp.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return resp


def _base(request: Request) -> str:
    return (os.environ.get(PUBLIC_URL_ENV) or str(request.base_url)).rstrip("/")


def links(request: Request, ev: Event) -> dict[str, str]:
    """The event's public submission URL and its organiser dashboard."""
    base = _base(request)
    return {
        "submission_url": f"{base}/?event={ev.id}",
        "dashboard_url": f"{base}/events/{ev.id}/dashboard",
    }


class _Lazy:
    """The desk of the app, opened on first use (one per process)."""

    def __init__(self, svc: Service) -> None:
        self.svc = svc
        self.lock = threading.Lock()

    def desk(self, request: Request) -> Desk:
        got: Desk | None = getattr(request.app.state, "event_desk", None)
        if got is not None:
            return got
        with self.lock:
            got = getattr(request.app.state, "event_desk", None)
            if got is None:
                from deckcheck.event.store import open_store

                got = Desk(
                    open_store(),
                    admin_token=os.environ.get(ADMIN_ENV) or None,
                    max_cards=self.svc.settings.max_cards,
                )
                request.app.state.event_desk = got
        return got


def router(svc: Service) -> APIRouter:
    """The events routes and pages over the service ``svc`` (its dataset per request)."""
    lazy = _Lazy(svc)
    api = APIRouter(tags=["events"])
    _pages(api, svc)
    _lifecycle(api, svc, lazy)
    _registrations(api, svc, lazy)
    _registration(api, svc, lazy)
    _organiser(api, svc, lazy)
    _organiser_files(api, svc, lazy)
    for name, media in REPORTS.items():
        _report_route(api, svc, lazy, name, media)
    return api


def _pages(api: APIRouter, svc: Service) -> None:
    folder = resources.files("deckcheck.service") / "static" / "event"
    # the event pages shipped in the package (a fixed list of small files)
    pages = {name: (folder / name).read_bytes() for name in PAGES}

    @api.get("/static/event/{name}", include_in_schema=False)
    def page_file(request: Request, name: str) -> Response:
        if name not in PAGES:
            raise EventNotFoundError(f"no static file {name!r}")
        return svc.cached(request, pages[name], PAGES[name])

    @api.get("/events/{event_id}/dashboard", include_in_schema=False)
    def dashboard(request: Request, event_id: EventId) -> Response:
        return svc.cached(request, pages["dashboard.html"], PAGES["dashboard.html"])


def _lifecycle(api: APIRouter, svc: Service, lazy: _Lazy) -> None:
    @api.post("/v1/events", status_code=201, responses=_err(401, 404, 413, 422))
    def create(request: Request, req: EventRequest, authorization: Auth = None) -> Response:
        """Create an event (admin token): 201 with its id, the organiser and judge tokens
        (shown once) and the public submission URL."""
        desk = lazy.desk(request)
        desk.require_admin(bearer(authorization))
        made = desk.create(
            req.name,
            req.format,
            parse_day(req.date),
            parse_deadline(req.deadline),
            req.tcg_region,
            data=svc.data,
        )
        body = {
            "id": made.event.id,
            "organiser_token": made.organiser_token,
            "judge_token": made.judge_token,
            **links(request, made.event),
            "event": _event(made.event, desk),
        }
        return _json(body, 201)

    @api.get("/v1/events/{event_id}", responses=_err(404, get=True))
    def show(request: Request, event_id: EventId) -> Response:
        """The event's public facts: name, format, date, deadline, status."""
        desk = lazy.desk(request)
        ev = desk.event(event_id)
        return _cached(svc, request, {**_event(ev, desk), **links(request, ev)})


def _registrations(api: APIRouter, svc: Service, lazy: _Lazy) -> None:
    @api.post(
        "/v1/events/{event_id}/registrations",
        status_code=201,
        responses=_err(404, 409, 413, 422, 423),
    )
    def submit(request: Request, event_id: EventId, req: RegistrationRequest) -> Response:
        """Register a deck (anyone, before the deadline): 201 with the registration's id, its
        edit token (shown once) and the verdict; an illegal deck is stored with its findings."""
        desk = lazy.desk(request)
        got = desk.submit(event_id, req.player, req.player_id, _deck_text(req.deck), data=svc.data)
        ev = desk.event(event_id)
        return _json(
            {
                **_entry(got.entry),
                "edit_token": got.edit_token,
                "edit_url": f"{links(request, ev)['submission_url']}&registration={got.entry.id}",
            },
            201,
        )

    @api.get("/v1/events/{event_id}/registrations", responses=_err(401, 403, 404, get=True))
    def listing(request: Request, event_id: EventId, authorization: Auth = None) -> Response:
        """Every registration with its verdict and fingerprint (organiser)."""
        desk = lazy.desk(request)
        desk.authorise(event_id, bearer(authorization), Role.ORGANISER)
        ev = desk.event(event_id)
        entries = desk.registrations(event_id)
        return _cached(
            svc,
            request,
            {
                "event": _event(ev, desk),
                "registrations": [_entry(e) for e in entries],
                "summary": _summary(entries),
            },
        )


def _registration(api: APIRouter, svc: Service, lazy: _Lazy) -> None:
    @api.get(
        "/v1/events/{event_id}/registrations/{registration_id}",
        responses=_err(401, 403, 404, get=True),
    )
    def one(
        request: Request, event_id: EventId, registration_id: EventId, authorization: Auth = None
    ) -> Response:
        """One registration with its deck (its player's edit token, or the organiser)."""
        desk = lazy.desk(request)
        stored = desk.authorise(event_id, bearer(authorization), Role.ORGANISER, Role.PLAYER)
        who = desk.access(stored, bearer(authorization))
        if who.role is Role.PLAYER and who.registration_id != registration_id:
            from deckcheck.error import ForbiddenError

            raise ForbiddenError("this edit token opens another registration")
        entry = desk.registration(event_id, registration_id)
        return _cached(svc, request, _entry(entry, deck=True))

    @api.put(
        "/v1/events/{event_id}/registrations/{registration_id}",
        responses=_err(401, 403, 404, 413, 422, 423),
    )
    def edit(
        request: Request,
        event_id: EventId,
        registration_id: EventId,
        req: EditRequest,
        authorization: Auth = None,
    ) -> Response:
        """Replace the deck (the registration's edit token, before the deadline)."""
        desk = lazy.desk(request)
        token = bearer(authorization) if authorization is not None else req.edit_token
        if req.player_id is not None and token is not None:
            _same_player(desk, event_id, registration_id, token, req.player_id)
        got = desk.edit(
            event_id, registration_id, token, _deck_text(req.deck), req.player, data=svc.data
        )
        return _json(_entry(got.entry))


def _same_player(
    desk: Desk, event_id: str, registration_id: str, token: str, player_id: str
) -> None:
    """An edit by the registration's own token may not change its player ID (422)."""
    who = desk.access(desk.stored(event_id), token)
    if who.registration_id == registration_id:
        current = desk.registration(event_id, registration_id)
        if player_id.strip() != current.player_id:
            raise EventInputError("player_id cannot change: this is another player's")


def _organiser(api: APIRouter, svc: Service, lazy: _Lazy) -> None:
    @api.post("/v1/events/{event_id}/lock", responses=_err(401, 403, 404))
    def lock(request: Request, event_id: EventId, authorization: Auth = None) -> Response:
        """Close submissions now (organiser); every write after it is 423."""
        desk = lazy.desk(request)
        desk.authorise(event_id, bearer(authorization), Role.ORGANISER)
        return _json(_event(desk.lock(event_id), desk))

    @api.post("/v1/events/{event_id}/publish", responses=_err(401, 403, 404))
    def publish(request: Request, event_id: EventId, authorization: Auth = None) -> Response:
        """Make the decklists public (organiser); locks the event if it is still open."""
        desk = lazy.desk(request)
        desk.authorise(event_id, bearer(authorization), Role.ORGANISER)
        return _json(_event(desk.publish(event_id), desk))

    @api.get("/v1/events/{event_id}/decklists", responses=_err(404, get=True))
    def decklists(request: Request, event_id: EventId, authorization: Auth = None) -> Response:
        """Every registered deck, once published (before: 404 without the organiser token)."""
        from deckcheck.error import UnauthorizedError

        desk = lazy.desk(request)
        stored = desk.stored(event_id)
        token = bearer(authorization)
        try:  # a token that opens nothing is the public's view: the lists, once published
            organiser = token is not None and desk.access(stored, token).role is Role.ORGANISER
        except UnauthorizedError:
            organiser = False
        entries = desk.decklists(event_id, organiser=organiser)
        return _cached(
            svc,
            request,
            {
                "event": _event(stored.event, desk),
                "decklists": [_public(e) for e in entries],
            },
        )

    @api.post("/v1/events/{event_id}/check", responses=_err(401, 403, 404, 413, 422))
    def check(
        request: Request, event_id: EventId, req: CheckRequest, authorization: Auth = None
    ) -> Response:
        """The played deck against the registration (organiser or judge token)."""
        desk = lazy.desk(request)
        desk.authorise(event_id, bearer(authorization), Role.ORGANISER, Role.JUDGE)
        if (req.deck is None) == (req.qr is None):
            raise EventInputError("give the played deck as deck, or the sheet's QR text as qr")
        played = req.qr if req.qr is not None else _deck_text(req.deck or "")
        from deckcheck.reporter.document.deck import CheckDocument
        from deckcheck.reporter.document.shape import Merged, shape

        got = desk.check(event_id, req.player_id, played, data=svc.data)
        return _json(shape(CheckDocument, Merged(got, got.diff)))


def _organiser_files(api: APIRouter, svc: Service, lazy: _Lazy) -> None:
    @api.get("/v1/events/{event_id}/audit", responses=_err(401, 403, 404, get=True))
    def audit(request: Request, event_id: EventId, authorization: Auth = None) -> Response:
        """Every change: who, when, the old and new fingerprint (organiser)."""
        desk = lazy.desk(request)
        desk.authorise(event_id, bearer(authorization), Role.ORGANISER)
        return _cached(svc, request, {"audit": [shape(AuditDoc, a) for a in desk.audit(event_id)]})

    @api.get("/v1/events/{event_id}/meta", responses=_err(401, 403, 404, get=True))
    def meta(request: Request, event_id: EventId, authorization: Auth = None) -> Response:
        """The metagame of the stored decks (``MetaDocument``, organiser)."""
        from deckcheck.event.report import event_batch, meta_dict

        desk = lazy.desk(request)
        stored = desk.authorise(event_id, bearer(authorization), Role.ORGANISER)
        batch = event_batch(stored.event, desk.registrations(event_id), svc.data)
        return _cached(svc, request, meta_dict(batch))

    @api.get(
        "/v1/events/{event_id}/sheets.pdf",
        response_class=Response,
        responses={200: {"content": {"application/pdf": {}}}, **_err(401, 403, 404, 501, get=True)},
    )
    def sheets(
        request: Request,
        event_id: EventId,
        authorization: Auth = None,
        lang: Literal["en", "ja", "zh"] = "en",
        paper: Literal["a4", "letter"] = "a4",
    ) -> Response:
        """Every registration's sheet in one PDF (organiser)."""
        from deckcheck.event.report import sheets as make_sheets

        desk = lazy.desk(request)
        stored = desk.authorise(event_id, bearer(authorization), Role.ORGANISER)
        entries = desk.registrations(event_id)
        if not entries:
            raise EventNotFoundError("no registrations yet: no sheets")
        pdf = make_sheets(stored.event, entries, svc.data, lang=lang, paper=paper)
        return _file(svc, request, pdf, "application/pdf", f"{event_id}-sheets.pdf")

    @api.get(
        "/v1/events/{event_id}/export",
        response_class=Response,
        responses={200: {"content": {"application/zip": {}}}, **_err(401, 403, 404, get=True)},
    )
    def export(request: Request, event_id: EventId, authorization: Auth = None) -> Response:
        """The event as a zip that ``deckcheck batch`` reads (``deckcheck event import``
        restores it) (organiser)."""
        from deckcheck.event.archive import export_event

        desk = lazy.desk(request)
        desk.authorise(event_id, bearer(authorization), Role.ORGANISER)
        raw = export_event(desk, event_id)
        return _file(svc, request, raw, "application/zip", f"event-{event_id}.zip")


def _report_route(api: APIRouter, svc: Service, lazy: _Lazy, name: str, media: str) -> None:
    kind = name.rsplit(".", 1)[1]

    @api.get(
        f"/v1/events/{{event_id}}/{name}",
        response_class=Response,
        name=f"event_{kind}",
        responses={200: {"content": {media.split(";")[0]: {}}}, **_err(401, 403, 404, get=True)},
    )
    def report(
        request: Request,
        event_id: EventId,
        authorization: Auth = None,
        lang: Literal["en", "ja", "zh"] = "en",
    ) -> Response:
        from deckcheck.event.report import event_batch
        from deckcheck.event.report import report as render

        desk = lazy.desk(request)
        stored = desk.authorise(event_id, bearer(authorization), Role.ORGANISER)
        batch = event_batch(stored.event, desk.registrations(event_id), svc.data)
        return _file(svc, request, render(batch, kind, lang=lang), media, f"{event_id}-{name}")

    report.__doc__ = f"The ``{name}`` of ``deckcheck batch`` over the stored decks (organiser)."


def _entry(e: Entry, *, deck: bool = False) -> dict[str, Any]:
    """A registration's document (with the deck text when ``deck``)."""
    return shape(EventEntryDoc, e, frozenset() if deck else WITHOUT_DECK)


def _event(ev: Event, desk: Desk) -> dict[str, Any]:
    """An event's document as it stands now."""
    return shape(EventDoc, event_at(ev, desk.clock()))


def _public(e: Entry) -> dict[str, Any]:
    return {
        "player": e.player,
        "player_id": e.player_id,
        "deck": e.deck,
        "fingerprint": e.fingerprint,
        "legal": e.legal,
    }


def _summary(entries: list[Entry]) -> dict[str, int]:
    legal = sum(e.legal for e in entries)
    return {"registrations": len(entries), "legal": legal, "illegal": len(entries) - legal}
