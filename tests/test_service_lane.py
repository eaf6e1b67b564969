"""The quick lane of ``POST /v1/validate`` and ``/v1/simulate``: the same answers as FastAPI's
own way, over HTTP.

A request with ``Content-Type: application/json`` exactly is answered by the lane; one with
``application/json; charset=utf-8`` goes FastAPI's way (routing, body parsing, error
handlers). Every body below is sent both ways and must get the same status, headers and bytes.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from pydantic import BaseModel
from starlette.responses import Response

from deckcheck.error import DeckcheckError, InputError
from deckcheck.reporter.document import ResultDoc
from deckcheck.service import create_app
from deckcheck.service.fast import Lane
from tests.test_service import ON, Api

ROOT = Path(__file__).resolve().parent.parent
DECKS = sorted((ROOT / "tests" / "data" / "decks").rglob("*.ydk")) + sorted(
    (ROOT / "tests" / "data" / "decks").rglob("*.txt")
)
QUICK = {"content-type": "application/json"}
USUAL = {"content-type": "application/json; charset=utf-8"}


def _deck_bodies() -> list[bytes]:
    out = []
    for path in DECKS:
        text = path.read_text(encoding="utf-8", errors="replace")
        out.append(json.dumps({"deck": text, "format": "tcg", "date": ON}).encode())
        out.append(
            json.dumps(
                {
                    "deck": text,
                    "date": "2010-03-01",
                    "timeline": "ocg",
                    "lang": "ja",
                    "name": path.stem,
                }
            ).encode()
        )
    return out


EDGES = [
    b"{not json",
    b"",
    b"[]",
    b"null",
    b"5",
    b'"deck"',
    b'{"deck": 5}',
    b'{"deck": null}',
    b"\xff\xfe{}",
    b'\xef\xbb\xbf{"deck": "#main\\n89631139\\n"}',
    b'{"deck": "\xff"}',
    b'{"deck": "\\ud800"}',
    b'{"deck": "#main\\n89631139\\n", "name": "a\\udcffb"}',
    b'{"deck": {"main": [89631139, 89631139]}, "from": "json"}',
    b'{"deck": {"main": NaN}}',
    b'{"deck": "x", "colour": "red"}',
    b'{"deck": "x", "date": "31/12/2024"}',
    b'{"deck": "x", "date": "2024-02-30"}',
    b'{"deck": "x", "format": "no-such-format"}',
    b'{"deck": "x", "format": "tcg", "format_file": {}}',
    b'{"deck": "  "}',
    b'{"deck": "x",}',
    b'{"deck": "x", "lang": "fr"}',
    b'{"deck": "x", "name": "' + b"n" * 501 + b'"}',
    b'{"deck": "x", "allow_prerelease": "yes"}',
    b'{"deck": "x", "allow_prerelease": 2}',
    b'{"deck": "x", "allow_prerelease": 1.0}',
    b'{"deck": "a", "deck": "ydke://%%%"}',
    b'{"deck": ' + b"[" * 300 + b"]" * 300 + b"}",
    b"[" * 5000 + b"]" * 5000,
    b'{"deck": {"main": [' + b"1" * 5000 + b"]}}",
    b'{"deck": "3 Ash Blossom", "region": "eu"}',
    b'{"deck": "40 Pot of Greed", "timeline": "ocg", "tcg_region": "eu"}',
    b'{"deck": "#main\\n89631139\\n", "format": "genesys", "date": "today"}',
    b'{"deck": "#main\\n89631139\\n", "format": "goat", "date": "2005-06-01"}',
    b'{"deck": "#main\\n89631139\\n", "format": "goat", "date": "2025-06-01"}',
    b'{"deck": "#main\\n89631139\\n", "format_file": "id = \\"x\\"\\nbase = \\"tcg\\""}',
]


@pytest.fixture(scope="module")
def api() -> Api:
    return Api(create_app())


def _answer(resp: httpx.Response) -> tuple[int, list[tuple[str, str]], bytes]:
    return resp.status_code, sorted(resp.headers.items()), resp.content


@pytest.mark.parametrize("body", _deck_bodies() + EDGES)
def test_the_lane_answers_as_fastapi_does(api: Api, body: bytes) -> None:
    quick = api.post("/v1/validate", content=body, headers=QUICK)
    usual = api.post("/v1/validate", content=body, headers=USUAL)
    assert _answer(quick) == _answer(usual)
    assert quick.status_code < 500, quick.text


SIMULATE = [
    {"quick": {"size": 40, "counts": {"starter": 9}}},
    {"quick": {"size": 40, "counts": {"starter": 9, "extender": 6}}, "turns": 3, "fractions": True},
    {"deck": "#main\n" + "89631139\n" * 3 + "14558127\n" * 3, "turns": 2, "going": "first"},
    {"deck": "3 Pot of Greed\n" * 2, "spec": {"categories": {"pot": {"names": ["Pot of Greed"]}}}},
    {"deck": "40 Pot of Greed", "exact": "never", "trials": 2000, "seed": 7},
    {"deck": "x"},
    {"deck": "40 Pot of Greed", "trials": 10**9},
    {"quick": {"size": 40, "counts": {"starter": 41}}},
    {"quick": {"size": 40}, "turns": 0},
    {"deck": "40 Pot of Greed", "when": ["no-such-category >= 1"]},
]


@pytest.mark.parametrize(
    "body", [json.dumps(b).encode() for b in SIMULATE] + [b"{not json", b"", b"[]", b'{"quick": 5}']
)
def test_the_lane_answers_simulate_as_fastapi_does(api: Api, body: bytes) -> None:
    quick = api.post("/v1/simulate", content=body, headers=QUICK)
    usual = api.post("/v1/simulate", content=body, headers=USUAL)
    assert _answer(quick) == _answer(usual)
    assert quick.status_code < 500, quick.text


@pytest.mark.slow
def test_answers_are_result_documents_of_the_openapi_schema(api: Api) -> None:
    schema = api.get("/openapi.json").json()
    op = schema["paths"]["/v1/validate"]["post"]
    ref = op["responses"]["200"]["content"]["application/json"]["schema"]
    check = {**ref, "components": schema["components"]}
    answered = 0
    genesys = [
        json.dumps(
            {
                "deck": p.read_text(encoding="utf-8", errors="replace"),
                "format": "genesys",
                "date": ON,
                "lang": "zh",
                "allow_prerelease": True,
            }
        ).encode()
        for p in DECKS
    ]
    for body in _deck_bodies() + genesys:
        resp = api.post("/v1/validate", content=body, headers=QUICK)
        if resp.status_code != 200:
            continue
        answered += 1
        got = resp.json()
        jsonschema.validate(got, check)
        # exactly the model's own JSON: set fields, in the model's order, compact
        model = ResultDoc.model_validate_json(resp.content)
        assert resp.content == model.model_dump_json(by_alias=True, exclude_unset=True).encode()
    assert answered > len(DECKS)  # most decks read and checked both ways


@pytest.mark.slow
def test_formats_and_dates_kept_give_the_answers_of_a_new_app(api: Api) -> None:
    # the same requests to one app (formats and dates kept from earlier requests) and each to
    # a new app: the same answers
    deck = (ROOT / "tests" / "data" / "decks" / "legal" / "tcg-2003-no-side.ydk").read_text()
    asks: list[dict[str, Any]] = [
        {"format": "tcg"},
        {"format": "tcg", "tcg_region": "eu"},
        {"format": "tcg"},
        {"timeline": "ocg"},
        {},
        {"timeline": "tcg", "tcg_region": "eu"},
        {"region": "eu"},
        {"format": "TCG "},
        {"format": "mr2020", "timeline": "ocg"},
        {"format": "mr2020"},
        {"date": "2024-04-16", "tcg_region": "eu"},
        {"date": "2024-04-16"},
        {"date": "today"},
        {"date": "  TODAY   "},
        {"date": None},
    ]
    for ask in asks:
        body = json.dumps({"deck": deck, "date": "2024-04-20", **ask}).encode()
        kept = api.post("/v1/validate", content=body, headers=QUICK)
        fresh = Api(create_app()).post("/v1/validate", content=body, headers=QUICK)
        assert _answer(kept) == _answer(fresh), ask


# -- the lane alone -------------------------------------------------------------------------


class Body(BaseModel):
    deck: str


def _lane_client() -> tuple[Lane, list[tuple[str, bytes]]]:
    passed: list[tuple[str, bytes]] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        body = b""
        more = True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        passed.append((scope["path"], body))
        await Response(b"inner", status_code=299)(scope, receive, send)

    async def answer(value: Body) -> Response:
        if value.deck == "bad":
            raise InputError("bad deck")
        return Response(value.deck.encode(), media_type="application/json")

    def on_error(exc: DeckcheckError) -> Response:
        return Response(str(exc).encode(), status_code=exc.http_status)

    return Lane(inner, {"/v": (Body, answer)}, on_error), passed


def _send(app: Any, method: str, url: str, **kw: Any) -> httpx.Response:
    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            return await c.request(method, url, **kw)

    return asyncio.run(go())


def test_the_lane_answers_the_usual_request_itself() -> None:
    lane, passed = _lane_client()
    resp = _send(lane, "POST", "/v", content=b'{"deck": "abc"}', headers=QUICK)
    assert (resp.status_code, resp.content) == (200, b"abc")
    resp = _send(lane, "POST", "/v", content=b'{"deck": "bad"}', headers=QUICK)
    assert (resp.status_code, resp.content) == (422, b"bad deck")
    assert passed == []


@pytest.mark.parametrize(
    ("method", "url", "body", "headers"),
    [
        ("POST", "/v", b'{"deck": 1}', QUICK),  # the model refuses it
        ("POST", "/v", b"{oops", QUICK),  # not JSON
        ("POST", "/v", b"", QUICK),  # no body
        ("POST", "/v", b'{"deck": "abc"}', USUAL),  # another content type
        ("POST", "/v", b'{"deck": "abc"}', {}),  # none
        ("POST", "/w", b'{"deck": "abc"}', QUICK),  # another route
        ("PUT", "/v", b'{"deck": "abc"}', QUICK),  # another method
    ],
)
def test_the_lane_passes_on_the_rest_with_its_body(
    method: str, url: str, body: bytes, headers: dict[str, str]
) -> None:
    lane, passed = _lane_client()
    resp = _send(lane, method, url, content=body, headers=headers)
    assert (resp.status_code, resp.content) == (299, b"inner")
    assert passed == [(url, body)]


def test_the_lane_reads_a_body_in_parts() -> None:
    lane, passed = _lane_client()

    async def parts() -> Any:
        yield b'{"deck": '
        yield b'"abc"}'

    resp = _send(lane, "POST", "/v", content=parts(), headers=QUICK)
    assert (resp.status_code, resp.content) == (200, b"abc")
    assert passed == []


def test_the_lane_passes_on_a_client_gone_midway() -> None:
    lane, passed = _lane_client()
    messages = [
        {"type": "http.request", "body": b'{"deck": ', "more_body": True},
        {"type": "http.disconnect"},
    ]
    seen: list[Any] = []

    async def receive() -> Any:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        seen.append(message)

    head = [(b"content-type", b"application/json")]
    scope = {"type": "http", "method": "POST", "path": "/v", "headers": head}
    asyncio.run(lane(scope, receive, send))
    assert passed == [("/v", b'{"deck": ')]  # the app got what came, and the disconnect
