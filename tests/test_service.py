"""The HTTP service in-process (httpx ASGITransport): every route, good and bad input."""

from __future__ import annotations

import asyncio
import io
import json
import os
import zipfile
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import deckcheck
from deckcheck.data.dataset import Dataset
from deckcheck.reporter import render
from deckcheck.service import Settings, create_app

ROOT = Path(__file__).resolve().parent.parent
LEGAL = (ROOT / "examples" / "tcg-legal.ydk").read_text(encoding="utf-8")
PROBLEMS = (ROOT / "examples" / "problems.ydk").read_text(encoding="utf-8")
ON = "2025-06-01"


class Api:
    """A synchronous face on an in-process httpx client of one app."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def request(self, method: str, url: str, **kw: Any) -> httpx.Response:
        async def go() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
                return await c.request(method, url, **kw)

        return asyncio.run(go())

    def get(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("GET", url, **kw)

    def post(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("POST", url, **kw)


@pytest.fixture(scope="module")
def api() -> Api:
    return Api(create_app())


def error_of(resp: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The error body of a response, after checking its status and code."""
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "detail"}
    assert body["error"]["code"] == code, body
    assert body["error"]["message"]
    err: dict[str, Any] = body["error"]
    return err


# -- health, OpenAPI, pages ----------------------------------------------------------------------


def test_healthz_names_the_data_and_has_an_etag(api: Api) -> None:
    data = Dataset.active()
    resp = api.get("/healthz")
    assert resp.status_code == 200
    body = resp.json()
    assert body["status"] == "ok"
    assert body["version"] == deckcheck.__version__
    assert body["data"] == {"as_of": data.as_of.isoformat(), "fingerprint": data.fingerprint}
    etag = resp.headers["etag"]
    assert data.fingerprint[:16] in etag
    again = api.get("/healthz", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert api.get("/healthz", headers={"If-None-Match": '"other"'}).status_code == 200


ROUTES = {
    ("/healthz", "get"): "HealthDocument",
    ("/v1/validate", "post"): "ResultDoc",
    ("/v1/simulate", "post"): "GoldfishDocument",
    ("/v1/batch", "post"): "ValidationDocument",
    ("/v1/convert", "post"): "ConvertDocument",
    ("/v1/formats", "get"): "FormatsDocument",
    ("/v1/formats/{format_id}", "get"): "FormatDoc",
    ("/v1/banlists/{format_id}", "get"): "BanlistDocument",
    ("/v1/cards/{passcode}", "get"): "CardDocument",
    ("/v1/cards", "get"): "CardSearchDocument",
}
REQUESTS = {
    "/v1/validate": "ValidateRequest",
    "/v1/simulate": "SimulateRequest",
    "/v1/convert": "ConvertRequest",
    "/v1/batch": "BatchRequest",
}


@pytest.mark.slow
def test_openapi_lists_every_route_with_its_models(api: Api) -> None:
    doc = api.get("/openapi.json").json()
    schemas = doc["components"]["schemas"]
    for (path, method), model in ROUTES.items():
        op = doc["paths"][path][method]
        ok = op["responses"]["200"]["content"]["application/json"]["schema"]
        assert ok == {"$ref": f"#/components/schemas/{model}"}, path
        assert model in schemas
    for path, model in REQUESTS.items():
        body = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        assert body["schema"] == {"$ref": f"#/components/schemas/{model}"}
        assert model in schemas
    for path in REQUESTS:
        assert doc["paths"][path]["post"]["responses"]["422"]["content"]["application/json"][
            "schema"
        ] == {"$ref": "#/components/schemas/ErrorDocument"}
    # every schema referenced exists
    text = json.dumps(doc)
    for ref in {part.split('"')[0] for part in text.split("#/components/schemas/")[1:]}:
        assert ref in schemas, ref


@pytest.mark.slow
def test_docs_and_builder_pages(api: Api) -> None:
    docs = api.get("/docs")
    assert "swagger" in docs.text.lower() and "/openapi.json" in docs.text
    for url in ("/docs", "/openapi.json"):
        etag = api.get(url).headers["etag"]
        assert api.get(url, headers={"If-None-Match": etag}).status_code == 304
    page = api.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "/static/builder.js" in page.text and "etag" in page.headers
    for name in ("builder.js", "builder.css"):
        assert api.get(f"/static/{name}").status_code == 200
    error_of(api.get("/static/../app.py"), 404, "not-found")
    error_of(api.get("/static/secret.txt"), 404, "not-found")
    error_of(api.get("/no/such/route"), 404, "not-found")
    error_of(api.get("/v1/validate"), 405, "method-not-allowed")


def test_builder_page_loads_nothing_from_outside(api: Api) -> None:
    page = api.get("/").text + api.get("/static/builder.js").text
    page += api.get("/static/builder.css").text
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page and "//cdn" not in page


# -- validate ---------------------------------------------------------------------------------


def library_report(text: str, fmt: str = "tcg", on: str = ON) -> dict[str, Any]:
    deck = deckcheck.read_deck(text)
    got: dict[str, Any] = json.loads(
        render(deckcheck.validate(deck, fmt, date.fromisoformat(on)), "json")
    )
    return got


def test_validate_ydk_matches_the_library(api: Api) -> None:
    resp = api.post("/v1/validate", json={"deck": PROBLEMS, "date": ON})
    assert resp.status_code == 200
    got = resp.json()
    want = library_report(PROBLEMS)
    assert got["legal"] is False
    assert got["violations"] == want["violations"]
    assert got["counts"] == want["counts"]
    assert got["banlist"] == want["banlist"]


@pytest.mark.parametrize("to", ["ydke", "text", "omega", "json"])
def test_validate_every_deck_form(api: Api, to: str) -> None:
    deck = deckcheck.read_deck(LEGAL)
    text = deckcheck.write_deck(deck, to)
    resp = api.post("/v1/validate", json={"deck": text, "date": ON, "name": "my deck"})
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert body["legal"] is True
    assert body["path"] == "my deck"
    assert body["counts"] == library_report(LEGAL)["counts"]


def test_validate_json_deck_as_object(api: Api) -> None:
    deck = deckcheck.read_deck(LEGAL)
    obj = json.loads(deckcheck.write_deck(deck, "json"))
    body = api.post("/v1/validate", json={"deck": obj, "date": ON}).json()
    assert body["legal"] is True
    obj["main"] = [*obj["main"], 55144522]  # Pot of Greed
    body = api.post("/v1/validate", json={"deck": obj, "date": ON}).json()
    assert body["legal"] is False
    assert [v["code"] for v in body["violations"] if v["severity"] == "error"] == ["forbidden"]


def test_validate_formats_dates_and_regions(api: Api) -> None:
    goat = api.post("/v1/validate", json={"deck": LEGAL, "format": "GOAT", "date": ON}).json()
    assert goat["format"] == "goat" and goat["legal"] is False
    assert goat["violations"] == library_report(LEGAL, "goat")["violations"]
    ocg = api.post("/v1/validate", json={"deck": LEGAL, "region": "ocg", "date": ON}).json()
    assert ocg["format"] == "ocg"
    assert ocg["banlist"] == library_report(LEGAL, "ocg")["banlist"]
    today = api.post("/v1/validate", json={"deck": LEGAL, "date": "today"}).json()
    assert today["date"] == date.today().isoformat()
    # the timeline has its own name now; the old field still works for one release
    line = api.post("/v1/validate", json={"deck": LEGAL, "timeline": "ocg", "date": ON}).json()
    assert line["format"] == "ocg" and line["banlist"] == ocg["banlist"]


def test_tcg_region_picks_the_european_list_dates(api: Api) -> None:
    # April 2024: the list took effect on 2024-04-15 in North America, 2024-04-22 in Europe
    on = "2024-04-18"
    lists = {}
    for region in ("na", "eu"):
        lib = deckcheck.validate(
            deckcheck.read_deck(LEGAL),
            deckcheck.get_format("tcg").in_region(region),
            date.fromisoformat(on),
        )
        body = {"deck": LEGAL, "date": on, "tcg_region": region}
        got = api.post("/v1/validate", json=body).json()
        assert got["banlist"] == json.loads(render(lib, "json"))["banlist"]
        lists[region] = got["banlist"]["effective"]
        shown = api.get(f"/v1/formats/tcg?date={on}&tcg_region={region}").json()
        assert shown["banlist_at_date"]["name"] == got["banlist"]["name"]
        assert shown["tcg_region"] == region
        batch = api.post(
            f"/v1/batch?date={on}&tcg_region={region}",
            content=zip_of({"a.ydk": LEGAL.encode()}),
            headers={"Content-Type": "application/zip"},
        ).json()
        assert batch["results"][0]["banlist"] == got["banlist"]
        old = api.post("/v1/validate", json={"deck": LEGAL, "date": on, "region": region}).json()
        assert old["banlist"] == got["banlist"]  # the deprecated field, read as tcg_region
    assert lists == {"na": "2024-04-15", "eu": "2024-01-01"}


def test_validate_inline_format(api: Api) -> None:
    deck = deckcheck.read_deck(LEGAL)
    extra16 = deckcheck.Deck(deck.main, deck.extra + deck.extra[:6], deck.side)
    text = deckcheck.write_deck(extra16, "ydk")
    plain = api.post("/v1/validate", json={"deck": text, "date": ON}).json()
    assert "extra-size" in {v["code"] for v in plain["violations"]}
    table = {"id": "club", "base": "tcg", "rules": {"extra": {"max": 20}}}
    club = api.post("/v1/validate", json={"deck": text, "date": ON, "format_file": table}).json()
    assert club["format"] == "club"
    assert "extra-size" not in {v["code"] for v in club["violations"]}
    toml = 'id = "club2"\nbase = "tcg"\n[rules]\nextra = { max = 20 }\n'
    club2 = api.post("/v1/validate", json={"deck": text, "date": ON, "format_file": toml}).json()
    assert club2["format"] == "club2" and club2["violations"] == club["violations"]


BAD_VALIDATE = [
    ({"deck": LEGAL, "date": "2025-13-01"}, 422, "bad-input"),
    ({"deck": LEGAL, "format": "nope"}, 404, "unknown-format"),
    ({"deck": LEGAL, "format": "  "}, 422, "bad-input"),
    ({"deck": LEGAL, "format": "tcg", "format_file": {"base": "tcg"}}, 422, "bad-input"),
    ({"deck": LEGAL, "format_file": {"bogus": 1}}, 422, "bad-format-file"),
    ({"deck": LEGAL, "format_file": "= not toml"}, 422, "bad-format-file"),
    (
        {"deck": LEGAL, "format_file": {"base": "tcg", "banlist": "/etc/passwd"}},
        422,
        "bad-format-file",
    ),
    ({"deck": "   "}, 422, "bad-input"),
    ({"deck": "ydke://!!!notbase64!!!"}, 422, "unreadable-deck"),
    ({"deck": "\x00\x01\x02binary"}, 422, "unreadable-deck"),
    ({"deck": LEGAL, "from": "pdf"}, 422, "bad-request"),
    ({"deck": LEGAL, "region": "europe"}, 422, "bad-request"),
    ({"deck": LEGAL, "tcg_region": "ocg"}, 422, "bad-request"),
    ({"deck": LEGAL, "timeline": "eu"}, 422, "bad-request"),
    ({"deck": LEGAL, "bogus": True}, 422, "bad-request"),
    ({"deck": 12}, 422, "bad-request"),
    ({}, 422, "bad-request"),
]


@pytest.mark.parametrize(("body", "status", "code"), BAD_VALIDATE)
def test_validate_bad_input(api: Api, body: dict[str, Any], status: int, code: str) -> None:
    error_of(api.post("/v1/validate", json=body), status, code)


def test_validate_bad_bodies(api: Api) -> None:
    error_of(
        api.post(
            "/v1/validate", content=b"{not json", headers={"Content-Type": "application/json"}
        ),
        422,
        "bad-request",
    )
    error_of(
        api.post(
            "/v1/validate", content=b"\xff\xfe\x00", headers={"Content-Type": "application/json"}
        ),
        400,
        "bad-request",
    )
    error_of(
        api.post("/v1/validate", content=b"deck", headers={"Content-Type": "text/plain"}),
        422,
        "bad-request",
    )
    error_of(api.post("/v1/validate", json=[1, 2]), 422, "bad-request")


def test_unknown_card_in_a_list_is_a_violation_not_an_error(api: Api) -> None:
    body = api.post("/v1/validate", json={"deck": "3 Pot of Grede\n", "date": ON}).json()
    unknown = [v for v in body["violations"] if v["code"] == "unknown-card"]
    assert unknown and "Pot of Greed" in unknown[0]["message"]


def test_limits_cards_and_body() -> None:
    small = Api(create_app(Settings(max_cards=45, max_body_bytes=4000)))
    err = error_of(small.post("/v1/validate", json={"deck": LEGAL}), 422, "limit-exceeded")
    assert err["detail"] == {"limit": "max_cards", "value": 45}
    deck = deckcheck.read_deck(LEGAL)
    main_only = deckcheck.write_deck(deckcheck.Deck(deck.main), "ydke")
    assert small.post("/v1/validate", json={"deck": main_only, "date": ON}).status_code == 200
    big = {"deck": "x" * 5000}
    error_of(small.post("/v1/validate", json=big), 413, "too-large")

    async def chunks() -> Any:  # no Content-Length: counted as it arrives
        for _ in range(10):
            yield b" " * 1000

    error_of(
        small.post("/v1/validate", content=chunks(), headers={"Content-Type": "application/json"}),
        413,
        "too-large",
    )


def test_cors_off_by_default_and_configurable(api: Api) -> None:
    origin = {"Origin": "https://club.example"}
    assert "access-control-allow-origin" not in api.get("/healthz", headers=origin).headers
    cors = Api(create_app(Settings(cors_origins=("https://club.example",))))
    resp = cors.get("/healthz", headers=origin)
    assert resp.headers["access-control-allow-origin"] == "https://club.example"
    other = cors.get("/healthz", headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in other.headers


# -- simulate ---------------------------------------------------------------------------------


def test_simulate_default_matches_the_library(api: Api) -> None:
    resp = api.post("/v1/simulate", json={"deck": LEGAL, "date": ON, "turns": 2})
    assert resp.status_code == 200, resp.text
    got = resp.json()
    want = deckcheck.simulate(deckcheck.read_deck(LEGAL), turns=2, date=date.fromisoformat(ON))
    assert got["method"] == "exact"
    assert got["conditions"] == json.loads(render(want, "json"))["conditions"]


SPEC = {
    "categories": {
        "starter": {"names": ["Cyber Dragon", "Cyber Dragon Core"]},
        "brick": {"kinds": ["Trap"]},
    },
    "conditions": {"good": "starter >= 1 and brick == 0"},
}
SPEC_TOML = """
[categories]
starter = { names = ["Cyber Dragon", "Cyber Dragon Core"] }
brick = { kinds = ["Trap"] }
[conditions]
good = "starter >= 1 and brick == 0"
"""


def test_simulate_with_a_spec_object_or_toml(api: Api) -> None:
    a = api.post("/v1/simulate", json={"deck": LEGAL, "spec": SPEC, "turns": 3}).json()
    b = api.post("/v1/simulate", json={"deck": LEGAL, "spec": SPEC_TOML, "turns": 3}).json()
    assert a["conditions"] == b["conditions"]
    first = [r["p"] for r in a["conditions"][0]["results"]["first"]]
    assert len(first) == 3 and first == sorted(first)
    sim = api.post(
        "/v1/simulate",
        json={"deck": LEGAL, "spec": SPEC, "exact": "never", "trials": 20000, "seed": 3},
    ).json()
    assert sim["method"] == "simulation" and sim["trials"] == 20000
    p_exact = a["conditions"][0]["results"]["first"][0]["p"]
    low, high = sim["conditions"][0]["results"]["first"][0]["ci"]
    assert low - 0.01 <= p_exact <= high + 0.01


@pytest.mark.slow
def test_simulate_limits_and_bad_specs(api: Api) -> None:
    err = error_of(
        api.post("/v1/simulate", json={"deck": LEGAL, "trials": 10**9}), 422, "limit-exceeded"
    )
    assert err["detail"]["limit"] == "max_trials"
    slow = Api(create_app(Settings(simulation_seconds=0.05, max_trials=50_000_000)))
    err = error_of(
        slow.post("/v1/simulate", json={"deck": LEGAL, "exact": "never", "trials": 50_000_000}),
        422,
        "limit-exceeded",
    )
    assert err["detail"] == {"limit": "simulation_seconds", "value": 0.05}
    assert "trials" in err["message"]
    error_of(
        api.post("/v1/simulate", json={"deck": LEGAL, "spec": {"categories": {}}}), 422, "bad-spec"
    )
    bad = dict(SPEC, conditions={"x": "starter >="})
    error_of(api.post("/v1/simulate", json={"deck": LEGAL, "spec": bad}), 422, "bad-spec")
    error_of(api.post("/v1/simulate", json={"deck": LEGAL, "spec": "[categories"}), 422, "bad-spec")
    error_of(api.post("/v1/simulate", json={"deck": LEGAL, "turns": 0}), 422, "bad-request")
    error_of(api.post("/v1/simulate", json={"deck": LEGAL, "going": "third"}), 422, "bad-request")
    error_of(
        api.post("/v1/simulate", json={"deck": "#main\n", "exact": "never"}), 422, "goldfish-error"
    )


# -- convert ----------------------------------------------------------------------------------


@pytest.mark.parametrize("to", ["ydk", "ydke", "text", "omega", "json"])
def test_convert_round_trips(api: Api, to: str) -> None:
    resp = api.post("/v1/convert", json={"deck": LEGAL, "to": to})
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert body["to"] == to and body["findings"] == []
    back = deckcheck.read_deck(body["content"])
    assert back.multiset() == deckcheck.read_deck(LEGAL).multiset()
    assert body["counts"] == deckcheck.read_deck(LEGAL).counts


def test_convert_reports_what_it_could_not_read(api: Api) -> None:
    body = api.post(
        "/v1/convert", json={"deck": "3 Ash Blossom & Joyous Spring\n1 Pot of Grede\n", "to": "ydk"}
    ).json()
    assert [f["code"] for f in body["findings"]] == ["unknown-card"]
    assert body["findings"][0]["line"] == 2
    assert "Pot of Greed" in body["findings"][0]["suggestions"]
    error_of(api.post("/v1/convert", json={"deck": LEGAL, "to": "pdf"}), 422, "bad-request")


# -- batch ------------------------------------------------------------------------------------


def test_batch_json_list(api: Api) -> None:
    body = {
        "decks": [
            {"name": "legal.ydk", "deck": LEGAL},
            {"name": "problems.ydk", "deck": PROBLEMS},
            {"name": "junk.ydk", "deck": "\x00\x00"},
        ],
        "date": ON,
    }
    resp = api.post("/v1/batch", json=body)
    assert resp.status_code == 200, resp.text
    doc = resp.json()
    assert doc["summary"]["decks"] == 2 and doc["summary"]["legal"] == 1
    assert doc["summary"]["unreadable"] == 1
    assert [r["path"] for r in doc["results"]] == ["legal.ydk", "problems.ydk"]
    assert doc["unreadable"][0]["path"] == "junk.ydk"
    assert doc["results"][1]["violations"] == library_report(PROBLEMS)["violations"]
    assert doc["data"]["fingerprint"] == Dataset.active().fingerprint


def zip_of(entries: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_batch_zip_upload_raw_and_multipart(api: Api, tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    raw = zip_of(
        {
            "decks/legal.ydk": LEGAL.encode(),
            "decks/problems.ydk": PROBLEMS.encode(),
            "../../evil.ydk": LEGAL.encode(),
            "/abs.ydk": LEGAL.encode(),
            "notes.md": b"not a deck",
            "__MACOSX/._legal.ydk": b"junk",
            "bomb.txt": b"0" * (3 << 20),
            "other.json": b'{"x": 1}',
        }
    )
    resp = api.post(
        f"/v1/batch?date={ON}", content=raw, headers={"Content-Type": "application/zip"}
    )
    assert resp.status_code == 200, resp.text
    doc = resp.json()
    assert [r["path"] for r in doc["results"]] == ["decks/legal.ydk", "decks/problems.ydk"]
    assert [r["legal"] for r in doc["results"]] == [True, False]
    why = {u["path"]: u["error"] for u in doc["unreadable"]}
    assert set(why) == {"../../evil.ydk", "/abs.ydk", "bomb.txt"}
    assert "climbs out" in why["../../evil.ydk"] and "absolute path" in why["/abs.ydk"]
    assert "limit" in why["bomb.txt"] or "ratio" in why["bomb.txt"]
    # the folder scan's rule: a file that is not a deck by its name is not mentioned, the
    # resource folder is skipped once, a JSON file that is not a deck is skipped with a reason
    assert {s["path"]: s["reason"] for s in doc["skipped"]} == {
        "__MACOSX": "macOS resource folder",
        "other.json": "not a deckcheck deck JSON file",
    }
    assert list(tmp_path.iterdir()) == []  # nothing was extracted
    assert not (tmp_path.parent.parent / "evil.ydk").exists()
    multi = api.post(
        "/v1/batch",
        data={"format": "tcg", "date": ON},
        files={"file": ("decks.zip", raw, "application/zip")},
    )
    assert multi.status_code == 200, multi.text
    assert multi.json()["summary"] == doc["summary"] and multi.json()["date"] == ON
    goat = api.post(
        "/v1/batch",
        data={"date": ON},
        params={"format": "goat"},
        files={"file": ("decks.zip", raw, "application/zip")},
    ).json()
    assert goat["format"] == "goat" and goat["date"] == ON


@pytest.mark.slow
def test_batch_zip_bomb_and_caps() -> None:
    small = Api(create_app(Settings(max_zip_entries=3, max_zip_bytes=200_000, max_batch_decks=2)))
    ratio = zip_of({"a.ydk": b"\n" * 900_000})
    res = small.post("/v1/batch", content=ratio, headers={"Content-Type": "application/zip"})
    # a declared ratio of 1000:1 is refused per entry, before anything is inflated
    assert res.status_code == 200
    (bomb,) = res.json()["unreadable"]
    assert bomb["path"] == "a.ydk" and "zip bomb" in bomb["error"]
    roomy = Api(create_app(Settings(max_zip_entries=10, max_zip_bytes=200_000)))
    noise = zip_of({f"{i}.ydk": os.urandom(90_000) for i in range(3)})
    res = roomy.post("/v1/batch", content=noise, headers={"Content-Type": "application/zip"})
    # 3 x 90 kB (incompressible) > the 200 kB budget of the whole upload: refused as it is read
    error_of(res, 422, "limit-exceeded")
    many = zip_of({f"{i}.ydk": LEGAL.encode() for i in range(4)})
    err = error_of(
        small.post("/v1/batch", content=many, headers={"Content-Type": "application/zip"}),
        422,
        "limit-exceeded",
    )
    assert err["detail"]["limit"] == "max_zip_entries"
    three = zip_of({f"{i}.ydk": LEGAL.encode() for i in range(3)})
    err = error_of(
        small.post("/v1/batch", content=three, headers={"Content-Type": "application/zip"}),
        422,
        "limit-exceeded",
    )
    assert err["detail"]["limit"] == "max_batch_decks"
    listed = {"decks": [{"name": str(i), "deck": LEGAL} for i in range(3)]}
    error_of(small.post("/v1/batch", json=listed), 422, "limit-exceeded")


@pytest.mark.slow
def test_batch_bad_uploads(api: Api) -> None:
    zip_type = {"Content-Type": "application/zip"}
    error_of(
        api.post("/v1/batch", content=b"PK\x03\x04 broken", headers=zip_type), 422, "bad-input"
    )
    error_of(
        api.post("/v1/batch", content=b"hello", headers={"Content-Type": "text/plain"}),
        422,
        "bad-input",
    )
    error_of(api.post("/v1/batch", json={"decks": "nope"}), 422, "bad-request")
    error_of(
        api.post("/v1/batch", content=b"{", headers={"Content-Type": "application/json"}),
        422,
        "bad-request",
    )
    error_of(api.post("/v1/batch", files={"other": ("x", b"y")}), 422, "bad-input")
    error_of(
        api.post(
            "/v1/batch?date=nope", content=zip_of({"a.ydk": LEGAL.encode()}), headers=zip_type
        ),
        422,
        "bad-input",
    )


# -- reference data ---------------------------------------------------------------------------


def test_formats_list_and_show(api: Api) -> None:
    body = api.get("/v1/formats").json()
    assert [f["id"] for f in body["formats"]] == [f.id for f in deckcheck.list_formats()]
    assert [e["id"] for e in body["eras"]] == [e.id for e in deckcheck.list_eras()]
    one = api.get("/v1/formats/advanced", params={"date": ON}).json()
    assert one["id"] == "tcg" and one["date"] == ON
    assert one["banlist_at_date"]["name"] == library_report(LEGAL)["banlist"]["name"]
    error_of(api.get("/v1/formats/nope"), 404, "unknown-format")
    error_of(api.get("/v1/formats/tcg", params={"date": "soon"}), 422, "bad-input")
    error_of(api.get("/v1/formats/tcg", params={"date": "1990-01-01"}), 422, "date-before-lists")


def test_banlists(api: Api) -> None:
    body = api.get("/v1/banlists/tcg", params={"date": ON}).json()
    fmt = deckcheck.get_format("tcg")
    current = fmt.banlist_at(date.fromisoformat(ON), Dataset.active())
    assert current is not None
    assert body["name"] == current.name and len(body["entries"]) == len(current.entries)
    pot = [e for e in body["entries"] if e["passcode"] == 55144522]
    assert pot and pot[0]["name"] == "Pot of Greed" and pot[0]["limit"] == 0
    etag = api.get("/v1/banlists/tcg", params={"date": ON}).headers["etag"]
    assert (
        api.get(
            "/v1/banlists/tcg", params={"date": ON}, headers={"If-None-Match": etag}
        ).status_code
        == 304
    )
    other = api.get("/v1/banlists/tcg", params={"date": "2024-01-01"}).headers["etag"]
    assert other != etag
    error_of(api.get("/v1/banlists/duel-links"), 404, "not-found")
    error_of(api.get("/v1/banlists/nope"), 404, "unknown-format")


def test_cards_show(api: Api) -> None:
    body = api.get("/v1/cards/08949584").json()
    assert body["passcode"] == 8949584 and body["match"] == "padded-passcode"
    by_name = api.get("/v1/cards/灰流うらら").json()
    assert by_name["passcode"] == 14558127 and by_name["names"]["ja"] == "灰流うらら"
    err = error_of(api.get("/v1/cards/Pot of Grede"), 404, "unknown-card")
    assert "Pot of Greed" in err["detail"]["suggestions"]
    error_of(api.get("/v1/cards/" + "9" * 30), 404, "unknown-card")
    error_of(api.get("/v1/cards/" + "x" * 300), 422, "bad-request")


@pytest.mark.slow
def test_cards_search(api: Api) -> None:
    from deckcheck.reporter.document import CardSearchDocument

    for q in ("blue-eyes", '"quoted"\\', "灰流", "ash blosom", "zzzzqqqq"):
        resp = api.get("/v1/cards", params={"q": q, "limit": 7})
        page = CardSearchDocument.model_validate_json(resp.content)
        assert page.query == q and len(page.results) <= 7
        assert all(r.score is not None for r in page.results)
        want = [c.passcode for c, _ in api.app.state.service.finder.search(q, 7)]
        assert [r.passcode for r in page.results] == want
    ja = api.get("/v1/cards", params={"q": "灰流うらら", "lang": "ja"}).json()
    assert ja["results"][0]["passcode"] == 14558127
    zh = api.get("/v1/cards", params={"q": "灰流丽"}).json()
    assert zh["results"][0]["passcode"] == 14558127
    en = api.get("/v1/cards", params={"q": "灰流うらら", "lang": "en"}).json()
    assert en["results"] == []
    prefix = api.get("/v1/cards", params={"q": "blue-eyes", "limit": 5}).json()["results"]
    assert len(prefix) == 5 and all("Blue-Eyes" in c["name"] for c in prefix)
    typo = api.get("/v1/cards", params={"q": "ash blosom"}).json()["results"]
    assert typo[0]["passcode"] == 14558127
    error_of(api.get("/v1/cards"), 422, "bad-request")
    error_of(api.get("/v1/cards", params={"q": ""}), 422, "bad-request")
    error_of(api.get("/v1/cards", params={"q": "a", "limit": 0}), 422, "bad-request")
    error_of(api.get("/v1/cards", params={"q": "a", "limit": 101}), 422, "bad-request")
    error_of(api.get("/v1/cards", params={"q": "a", "lang": "ru"}), 422, "bad-request")
    french = api.get("/v1/cards", params={"q": "Magicien Sombre", "lang": "fr"}).json()
    assert french["results"][0]["passcode"] == 46986414  # Dark Magician, by its French name
    assert api.get("/v1/cards", params={"q": "!!!"}).json()["results"] == []


# -- no 5xx for any client mistake ------------------------------------------------------------

JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.fixed_dictionaries(
    {"deck": st.one_of(st.text(max_size=200), JSONISH, st.just(LEGAL))},
    optional={
        "format": JSONISH | st.sampled_from(["tcg", "goat", "rush", "", "x"]),
        "date": JSONISH | st.sampled_from(["today", "2025-06-01", "1900-01-01"]),
        "region": JSONISH,
        "format_file": JSONISH,
        "spec": JSONISH,
        "to": JSONISH,
        "from": JSONISH,
        "turns": JSONISH,
        "trials": st.integers(-5, 10**7),
    },
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    route=st.sampled_from(["/v1/validate", "/v1/simulate", "/v1/convert", "/v1/batch"]),
    body=FIELDS | JSONISH,
)
def test_no_5xx_for_random_json(api: Api, route: str, body: Any) -> None:
    resp = api.post(route, json=body)
    assert resp.status_code < 500, resp.text
    if resp.status_code >= 400:
        assert resp.json()["error"]["code"]


@pytest.mark.slow
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(path=st.text(max_size=40), q=st.text(max_size=40))
def test_no_5xx_for_random_gets(api: Api, path: str, q: str) -> None:
    path = quote(path, safe="")
    for url, params in (
        (f"/v1/cards/{path}", None),
        ("/v1/cards", {"q": q}),
        (f"/v1/formats/{path}", {"date": q}),
        (f"/v1/banlists/{path}", {"date": q}),
    ):
        resp = api.get(url, params=params)
        assert resp.status_code < 500, (url, resp.text)


def test_etags_follow_the_data_fingerprint(api: Api, tmp_path: Path) -> None:
    import shutil

    from deckcheck.data.dataset import BUNDLED_DIR, MANIFEST

    copy = tmp_path / "bundle"
    shutil.copytree(BUNDLED_DIR, copy)
    manifest = json.loads((copy / MANIFEST).read_text(encoding="utf-8"))
    manifest["sources"] = [*manifest.get("sources", []), "a later release"]
    (copy / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    other = Dataset.open(copy)
    assert other.fingerprint != Dataset.active().fingerprint
    newer = Api(create_app(data=other))
    for url in ("/v1/formats", "/v1/cards/14558127", "/"):
        old, new = api.get(url), newer.get(url)
        assert old.content == new.content
        assert old.headers["etag"] != new.headers["etag"]
        assert newer.get(url, headers={"If-None-Match": old.headers["etag"]}).status_code == 200
    assert newer.get("/healthz").json()["data"]["fingerprint"] == other.fingerprint


def test_a_long_text_list_is_read_off_the_event_loop(api: Api) -> None:
    index = Dataset.active().cards
    names = [c.name for c in list(index)[:3000:30] if c.canonical == c.passcode]
    text = "\n".join(f"1 {n}" for n in names) + "\n" + "# padding\n" * 4000
    assert len(text) > 32 * 1024
    body = api.post("/v1/validate", json={"deck": text, "date": ON}).json()
    assert body["counts"]["main"] + body["counts"]["extra"] >= len(names) - 5


def test_region_sets_the_era_dates_of_a_by_date_format(api: Api) -> None:
    on = "2014-05-01"  # MR3 in the OCG (2014-03-21), not yet in the TCG (2014-07-14)
    tcg = api.post("/v1/validate", json={"deck": LEGAL, "format": "tcg", "date": on}).json()
    ocg_dates = api.post(
        "/v1/validate", json={"deck": LEGAL, "format": "tcg", "date": on, "region": "ocg"}
    ).json()
    assert tcg["era"] == deckcheck.get_format("tcg").era_at(date(2014, 5, 1)).id
    assert ocg_dates["era"] == deckcheck.get_format("ocg").era_at(date(2014, 5, 1)).id
    assert tcg["era"] != ocg_dates["era"]
    assert ocg_dates["format"] == "tcg" and ocg_dates["banlist"] == tcg["banlist"]


@pytest.mark.parametrize("route", ["/v1/validate", "/v1/sheet"])
def test_a_format_naming_a_file_is_refused_unread(
    route: str, api: Api, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A request's format is never a path on the server: neither its existence nor its keys
    leak (a real format file, the project's pyproject.toml, a missing file: the same answer)."""
    good = tmp_path / "event.toml"
    good.write_text('id = "event"\nbase = "tcg"\n', encoding="utf-8")
    monkeypatch.chdir(ROOT)
    answers = []
    for name in (str(good), "pyproject.toml", str(tmp_path / "missing.toml"), " Event.TOML "):
        resp = api.post(route, json={"deck": LEGAL, "format": name, "date": ON})
        assert 400 <= resp.status_code < 500, resp.text
        assert "build-system" not in resp.text and "project" not in resp.json()["error"]["message"]
        answers.append(
            (resp.status_code, resp.json()["error"]["code"], resp.json()["error"]["message"])
        )
    assert len(set(answers)) == 1, answers
    assert "format_file" in answers[0][2]


def test_the_compute_pool_is_forked_with_its_documents_built() -> None:
    # documents build their validators on first use; the worker builds those of its compute
    # pool before forking it, so no pool process builds one per request
    import subprocess
    import sys

    script = (
        "from deckcheck.reporter.document.goldfish import GoldfishDocument as G\n"
        "from deckcheck.reporter.document.validation import ValidationDocument as V\n"
        "print(G.__pydantic_complete__, V.__pydantic_complete__)\n"
        "from deckcheck.service.pool import preload\n"
        "preload()\n"
        "print(G.__pydantic_complete__, V.__pydantic_complete__)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["False False", "True True"]
