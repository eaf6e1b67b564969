"""HTTP hygiene of the service: security headers, HEAD, the statuses OpenAPI lists, dates."""

from __future__ import annotations

from typing import Any

import pytest

from deckcheck.service import Settings, create_app
from tests.test_service import LEGAL, ON, Api

ANY_STATUS = [
    ("GET", "/", {}),
    ("GET", "/healthz", {}),
    ("GET", "/static/builder.js", {}),
    ("GET", "/v1/cards", {"params": {"q": "ash"}}),
    ("GET", "/v1/cards/0", {}),
    ("GET", "/no/such/route", {}),
    ("POST", "/v1/validate", {"json": {"deck": LEGAL, "date": ON}}),
    ("POST", "/v1/validate", {"json": {"deck": LEGAL, "date": "2025-W23"}}),
    ("POST", "/v1/validate", {"content": b"x" * 5000, "headers": {"Content-Type": "text/plain"}}),
    ("GET", "/v1/validate", {}),
    ("POST", "/v1/simulate", {"json": {"deck": LEGAL, "date": ON}}),
]


@pytest.fixture(scope="module")
def api() -> Api:
    return Api(create_app(Settings(max_body_bytes=4000)))


def csp_of(headers: Any) -> dict[str, str]:
    return {
        part.split(" ", 1)[0]: part.split(" ", 1)[1] if " " in part else ""
        for part in (p.strip() for p in headers["content-security-policy"].split(";"))
    }


@pytest.mark.slow
@pytest.mark.parametrize(("method", "url", "kw"), ANY_STATUS)
def test_security_headers_on_every_answer(api: Api, method: str, url: str, kw: Any) -> None:
    resp = api.request(method, url, **kw)
    h = resp.headers
    assert h["x-content-type-options"] == "nosniff"
    assert h["referrer-policy"] == "no-referrer"
    assert h["x-frame-options"] == "DENY"
    csp = csp_of(h)
    assert csp["default-src"] == "'none'"
    assert csp["script-src"] == "'self'"  # no inline script, no eval, nothing from outside
    assert csp["frame-ancestors"] == "'none'"
    assert csp["connect-src"] == "'self'"
    assert csp["img-src"] == "'self' data:"


@pytest.mark.slow
def test_the_builder_has_no_inline_script_or_style(api: Api) -> None:
    page = api.get("/").text
    import re

    for tag in re.findall(r"<script[^>]*>", page):
        assert "src=" in tag, tag
    assert not re.search(r"<script[^>]*>\s*[^<\s]", page)  # no script body
    assert not re.search(r"<[^>]*\son[a-z]+\s*=", page)  # no onclick= and the like
    assert "style=" not in page and "<style" not in page


def test_docs_page_policy_allows_its_own_inline_script_only(api: Api) -> None:
    import base64
    import hashlib
    import re

    resp = api.get("/docs")
    csp = csp_of(resp.headers)
    inline = re.findall(r"<script>(.*?)</script>", resp.text, flags=re.DOTALL)
    assert inline
    for body in inline:
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in csp["script-src"]
    assert "'unsafe-inline'" not in resp.headers["content-security-policy"]
    assert csp["frame-ancestors"] == "'none'"


def test_image_origin_is_the_only_outside_origin() -> None:
    api = Api(create_app(Settings(image_url="https://img.example/cards/{passcode}.jpg")))
    assert csp_of(api.get("/").headers)["img-src"] == "'self' data: https://img.example"
    from deckcheck.error import InputError

    for bad in ("ftp://x/{passcode}", "https://x/no-placeholder", "https://x/{passcode}';"):
        with pytest.raises(InputError, match="DECKCHECK_IMAGE_URL"):
            Settings.from_env({"DECKCHECK_IMAGE_URL": bad})


GET_ROUTES = [
    "/",
    "/healthz",
    "/openapi.json",
    "/docs",
    "/static/builder.css",
    "/v1/formats",
    "/v1/formats/goat",
    f"/v1/banlists/tcg?date={ON}",
    "/v1/cards?q=ash",
    "/v1/cards/14558127",
]


@pytest.mark.slow
@pytest.mark.parametrize("url", GET_ROUTES)
def test_head_on_every_get_route(api: Api, url: str) -> None:
    got = api.get(url)
    head = api.request("HEAD", url)
    assert got.status_code == head.status_code == 200
    assert head.content == b""
    for name in ("content-type", "content-length", "etag", "content-security-policy"):
        assert head.headers.get(name) == got.headers.get(name), name
    assert int(head.headers["content-length"]) == len(got.content)


def test_head_on_a_post_route_or_an_unknown_one(api: Api) -> None:
    assert api.request("HEAD", "/v1/validate").status_code == 405
    assert api.request("HEAD", "/no/such/route").status_code == 404
    etag = api.get("/healthz").headers["etag"]
    assert api.request("HEAD", "/healthz", headers={"If-None-Match": etag}).status_code == 304


# -- every status the OpenAPI document lists happens, and no other -------------------------------

BAD_UTF8 = {"content": b'{"deck": "\xc3\x28"}', "headers": {"Content-Type": "application/json"}}
BIG = {"content": b"x" * 5000, "headers": {"Content-Type": "application/json"}}
CASES: dict[tuple[str, str, int], tuple[str, dict[str, Any]]] = {
    ("/v1/validate", "post", 400): ("/v1/validate", BAD_UTF8),
    ("/v1/validate", "post", 404): ("/v1/validate", {"json": {"deck": LEGAL, "format": "nope"}}),
    ("/v1/validate", "post", 413): ("/v1/validate", BIG),
    ("/v1/validate", "post", 422): ("/v1/validate", {"json": {"deck": LEGAL, "date": "x"}}),
    ("/v1/simulate", "post", 400): ("/v1/simulate", BAD_UTF8),
    ("/v1/simulate", "post", 404): ("/v1/simulate", {"json": {"deck": LEGAL, "format": "nope"}}),
    ("/v1/simulate", "post", 413): ("/v1/simulate", BIG),
    ("/v1/simulate", "post", 422): ("/v1/simulate", {"json": {"deck": LEGAL, "turns": 0}}),
    ("/v1/simulate/sweep", "post", 400): ("/v1/simulate/sweep", BAD_UTF8),
    ("/v1/simulate/sweep", "post", 404): (
        "/v1/simulate/sweep",
        {"json": {"deck": LEGAL, "format": "nope", "vary": ["Cyber Dragon=1..3"]}},
    ),
    ("/v1/simulate/sweep", "post", 413): ("/v1/simulate/sweep", BIG),
    ("/v1/simulate/sweep", "post", 422): (
        "/v1/simulate/sweep",
        {"json": {"deck": LEGAL, "turns": 0}},
    ),
    ("/v1/simulate/side", "post", 400): ("/v1/simulate/side", BAD_UTF8),
    ("/v1/simulate/side", "post", 404): (
        "/v1/simulate/side",
        {
            "json": {
                "deck": LEGAL,
                "format": "nope",
                "plan": "in: 1 Cosmic Cyclone\nout: 1 Sales Ban",
            }
        },
    ),
    ("/v1/simulate/side", "post", 413): ("/v1/simulate/side", BIG),
    ("/v1/simulate/side", "post", 422): (
        "/v1/simulate/side",
        {"json": {"deck": LEGAL, "plan": "x: y"}},
    ),
    ("/v1/sheet", "post", 400): ("/v1/sheet", BAD_UTF8),
    ("/v1/sheet", "post", 404): ("/v1/sheet", {"json": {"deck": LEGAL, "format": "nope"}}),
    ("/v1/sheet", "post", 413): ("/v1/sheet", BIG),
    ("/v1/sheet", "post", 422): ("/v1/sheet", {"json": {"deck": LEGAL, "date": "x"}}),
    ("/v1/meta", "post", 400): ("/v1/meta", BAD_UTF8),
    ("/v1/meta", "post", 413): ("/v1/meta", BIG),
    ("/v1/meta", "post", 422): ("/v1/meta", {"json": {"decks": "x"}}),
    ("/v1/convert", "post", 400): ("/v1/convert", BAD_UTF8),
    ("/v1/convert", "post", 413): ("/v1/convert", BIG),
    ("/v1/convert", "post", 422): ("/v1/convert", {"json": {"deck": LEGAL, "to": "pdf"}}),
    ("/v1/batch", "post", 404): ("/v1/batch", {"json": {"decks": [], "format": "nope"}}),
    ("/v1/batch", "post", 422): ("/v1/batch", {"json": {"decks": 3}}),
    ("/v1/formats/{format_id}", "get", 404): ("/v1/formats/nope", {}),
    ("/v1/formats/{format_id}", "get", 422): ("/v1/formats/tcg", {"params": {"date": "1990-1-1"}}),
    ("/v1/banlists/{format_id}", "get", 404): ("/v1/banlists/nope", {}),
    ("/v1/banlists/{format_id}", "get", 422): ("/v1/banlists/tcg", {"params": {"date": "2025W23"}}),
    ("/v1/cards", "get", 422): ("/v1/cards", {"params": {"q": "ash", "limit": 0}}),
    ("/v1/cards/{passcode}", "get", 404): ("/v1/cards/999999999", {}),
    ("/v1/cards/{passcode}", "get", 409): ("/v1/cards/Gadget Token", {}),
    ("/v1/cards/{passcode}", "get", 422): ("/v1/cards/" + "x" * 300, {}),
}


@pytest.mark.slow
def test_openapi_lists_the_statuses_that_happen(api: Api) -> None:
    doc = api.get("/openapi.json").json()
    # (the events' routes need an event in a database: tests/test_event.py checks theirs)
    doc["paths"] = {p: ops for p, ops in doc["paths"].items() if not p.startswith("/v1/events")}
    listed = {
        (path, method, int(status))
        for path, ops in doc["paths"].items()
        for method, op in ops.items()
        for status in op["responses"]
        if status != "200"
    }
    for path, ops in doc["paths"].items():
        if "get" in ops:
            assert "413" not in ops["get"]["responses"], path
    # every error status listed is one a request gets (and 304 on every GET)
    errors = {x for x in listed if x[2] != 304}
    # (429 and the batch's 413: test_service_limit.py and below)
    missing = (
        errors
        - set(CASES)
        - {
            ("/v1/simulate", "post", 429),
            ("/v1/batch", "post", 413),
            ("/v1/batch", "post", 429),
            ("/v1/simulate/sweep", "post", 429),
            ("/v1/simulate/side", "post", 429),
            # only where the sheet extra is missing
            ("/v1/sheet", "post", 501),
        }
    )
    assert not missing, missing
    assert {(p, m) for p, m, s in listed if s == 304} == {
        (p, "get") for p, ops in doc["paths"].items() if "get" in ops
    }
    for (path, method, status), (url, kw) in CASES.items():
        assert (path, method, status) in listed
        resp = api.request(method.upper(), url, **kw)
        assert resp.status_code == status, (url, resp.text)
        op = doc["paths"][path][method]["responses"][str(status)]
        assert op["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorDocument")


def test_batch_413_and_429_happen() -> None:
    small = Api(create_app(Settings(max_batch_bytes=1000)))
    big = {"content": b"x" * 2000, "headers": {"Content-Type": "application/zip"}}
    assert small.post("/v1/batch", **big).status_code == 413


# -- one date rule for every route ---------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("route", ["/v1/validate", "/v1/simulate"])
def test_one_date_rule(api: Api, route: str) -> None:
    early = api.post(route, json={"deck": LEGAL, "date": "1990-01-01"})
    assert early.status_code == 422 and early.json()["error"]["code"] == "date-before-lists"
    for bad in ("2025-W23", "2025-W23-1", "20250601", "2025-6-1"):
        resp = api.post(route, json={"deck": LEGAL, "date": bad})
        assert resp.status_code == 422, bad
        assert resp.json()["error"]["code"] == "bad-input", resp.text
    assert api.post(route, json={"deck": LEGAL, "date": ON}).status_code == 200
