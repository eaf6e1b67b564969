"""Events over HTTP (the contract of ``/v1/events``) and the library beneath, on SQLite and on
PostgreSQL: every route for every role, the deadline to the microsecond, the lock, publishing,
the check at the table, the audit log, hashed tokens, the schema's versions."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from deckcheck.error import StorageError
from deckcheck.event.desk import Desk
from deckcheck.event.migration import LATEST
from deckcheck.event.store import open_store
from deckcheck.service import create_app
from tests.event_support import (
    BACKENDS,
    ILLEGAL,
    LEGAL,
    Clock,
    deck_for,
    fresh_database,
    raw_rows,
)

ADMIN = "admin-secret-for-tests"


@dataclass
class Rig:
    """A service over one database, with a clock the test moves."""

    client: TestClient
    clock: Clock
    url: str
    desk: Desk

    def create(self, deadline_in: timedelta = timedelta(days=1), **kw: Any) -> dict[str, Any]:
        body = {
            "name": "Regional Qualifier",
            "format": "tcg",
            "date": "2025-06-01",
            "deadline": (self.clock.now + deadline_in).isoformat(),
            **kw,
        }
        r = self.client.post("/v1/events", json=body, headers=auth(ADMIN))
        assert r.status_code == 201, r.text
        got: dict[str, Any] = r.json()
        return got

    def submit(self, ev: str, pid: str, deck: str = LEGAL, player: str = "Ada") -> Any:
        return self.client.post(
            f"/v1/events/{ev}/registrations",
            json={"player": player, "player_id": pid, "deck": deck},
        )


def auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def _rig(url: str) -> Iterator[Rig]:
    clock = Clock()
    store = open_store(url)
    desk = Desk(store, admin_token=ADMIN, clock=clock)
    app = create_app()
    app.state.event_desk = desk
    try:
        yield Rig(TestClient(app), clock, url, desk)
    finally:
        store.close()


@pytest.fixture(params=BACKENDS)
def rig(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Rig]:
    """A fresh database of each kind per test."""
    for url in fresh_database(request.param, tmp_path):
        yield from _rig(url)


@pytest.fixture(scope="module", params=BACKENDS)
def shared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Rig]:
    """One database of each kind for the module (each test makes its own events)."""
    for url in fresh_database(request.param, tmp_path_factory.mktemp("events")):
        yield from _rig(url)


# -- the authorisation matrix -----------------------------------------------------------------

ROLES = ("none", "garbage", "other-event", "player", "other-player", "judge", "organiser", "admin")


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    body: dict[str, Any] | None
    allowed: dict[str, int]
    """Status per role; every role not named gets ``default``."""
    default: int


ORGANISER_ONLY = {"none": 401, "garbage": 401, "other-event": 401, "admin": 401, "organiser": 200}
PATHS = {
    "registrations": Route("GET", "/registrations", None, ORGANISER_ONLY, 403),
    "report.csv": Route("GET", "/report.csv", None, ORGANISER_ONLY, 403),
    "report.html": Route("GET", "/report.html", None, ORGANISER_ONLY, 403),
    "report.json": Route("GET", "/report.json", None, ORGANISER_ONLY, 403),
    "sheets.pdf": Route("GET", "/sheets.pdf", None, ORGANISER_ONLY, 403),
    "meta": Route("GET", "/meta", None, ORGANISER_ONLY, 403),
    "audit": Route("GET", "/audit", None, ORGANISER_ONLY, 403),
    "export": Route("GET", "/export", None, ORGANISER_ONLY, 403),
    "lock": Route("POST", "/lock", None, ORGANISER_ONLY, 403),
    "publish": Route("POST", "/publish", None, ORGANISER_ONLY, 403),
    "check": Route(
        "POST", "/check", {"player_id": "P1", "deck": LEGAL}, {**ORGANISER_ONLY, "judge": 200}, 403
    ),
    "registration": Route(
        "GET", "/registrations/{rid}", None, {**ORGANISER_ONLY, "player": 200}, 403
    ),
    "edit": Route(
        "PUT",
        "/registrations/{rid}",
        {"deck": ILLEGAL},
        {"none": 401, "garbage": 401, "other-event": 401, "admin": 401, "player": 200},
        403,
    ),
    "decklists": Route("GET", "/decklists", None, {"organiser": 200}, 404),
    "event": Route("GET", "", None, {}, 200),
    "submit": Route(
        "POST", "/registrations", {"player": "New", "player_id": "NEW", "deck": LEGAL}, {}, 201
    ),
}


def _tokens(rig: Rig) -> tuple[str, dict[str, str | None], str]:
    """A fresh event with two players; (event id, token per role, player 1's registration)."""
    ev = rig.create()
    other = rig.create()
    p1 = rig.submit(ev["id"], "P1").json()
    p2 = rig.submit(ev["id"], "P2", player="Bob").json()
    tokens: dict[str, str | None] = {
        "none": None,
        "garbage": "not-a-token",
        "other-event": other["organiser_token"],
        "player": p1["edit_token"],
        "other-player": p2["edit_token"],
        "judge": ev["judge_token"],
        "organiser": ev["organiser_token"],
        "admin": ADMIN,
    }
    return ev["id"], tokens, p1["id"]


@pytest.mark.slow
@pytest.mark.parametrize("route", sorted(PATHS))
def test_every_route_answers_each_role_as_the_contract_says(shared: Rig, route: str) -> None:
    spec = PATHS[route]
    for role in ROLES:
        ev, tokens, rid = _tokens(shared)  # a fresh event per role: lock and publish change it
        path = f"/v1/events/{ev}{spec.path.format(rid=rid)}"
        r = shared.client.request(spec.method, path, json=spec.body, headers=auth(tokens[role]))
        want = spec.allowed.get(role, spec.default)
        assert r.status_code == want, (route, role, r.status_code, r.text[:300])
        if want >= 400:
            assert r.json()["error"]["code"], r.text
        # no event: 404 for everyone, whatever the token
        missing = f"/v1/events/nosuchevent{spec.path.format(rid=rid)}"
        r = shared.client.request(spec.method, missing, json=spec.body, headers=auth(tokens[role]))
        assert r.status_code == 404, (route, role, r.status_code)


def test_only_the_admin_token_creates_events(shared: Rig) -> None:
    _, tokens, _ = _tokens(shared)
    body = {"name": "X", "format": "tcg", "date": "2025-06-01", "deadline": "2099-01-01T00:00Z"}
    for role, token in tokens.items():
        r = shared.client.post("/v1/events", json=body, headers=auth(token))
        assert r.status_code == (201 if role == "admin" else 401), (role, r.text)
    r = shared.client.post("/v1/events", json=body, headers={"Authorization": f"Basic {ADMIN}"})
    assert r.status_code == 401
    got = shared.client.post("/v1/events", json=body, headers=auth(ADMIN)).json()
    assert got["submission_url"].endswith(f"/?event={got['id']}")


def test_without_an_admin_token_set_nobody_creates_events(tmp_path: Path) -> None:
    app = create_app()
    app.state.event_desk = Desk(open_store(f"sqlite:///{tmp_path}/e.db"), admin_token=None)
    body = {"name": "X", "format": "tcg", "date": "2025-06-01", "deadline": "2099-01-01T00:00Z"}
    r = TestClient(app).post("/v1/events", json=body, headers=auth("anything"))
    assert r.status_code == 401 and "DECKCHECK_ADMIN_TOKEN" in r.json()["error"]["message"]


def test_bad_events_are_refused_with_the_field_named(shared: Rig) -> None:
    base = {"name": "X", "format": "tcg", "date": "2025-06-01", "deadline": "2099-01-01T00:00Z"}
    for change, word in (
        ({"deadline": "2099-01-01T00:00"}, "zone"),
        ({"date": "01/06/2025"}, "date"),
        ({"format": "nosuchformat"}, ""),
    ):
        r = shared.client.post("/v1/events", json={**base, **change}, headers=auth(ADMIN))
        assert r.status_code in (404, 422), r.text
        assert word in r.json()["error"]["message"]
    r = shared.client.post("/v1/events", json={**base, "extra": 1}, headers=auth(ADMIN))
    assert r.status_code == 422


# -- submissions ------------------------------------------------------------------------------


def test_an_illegal_deck_is_stored_with_its_findings(rig: Rig) -> None:
    ev = rig.create()
    r = rig.submit(ev["id"], "0301", ILLEGAL)
    assert r.status_code == 201
    doc = r.json()
    assert doc["legal"] is False and doc["verdict"]["legal"] is False
    codes = {v["code"] for v in doc["verdict"]["violations"]}
    assert {"forbidden", "main-size", "unknown-card"} <= codes
    assert len(base64.urlsafe_b64decode(doc["edit_token"][4:] + "=")) >= 16  # >= 128 bits
    listed = rig.client.get(
        f"/v1/events/{ev['id']}/registrations", headers=auth(ev["organiser_token"])
    ).json()
    [row] = listed["registrations"]
    assert row["legal"] is False and row["fingerprint"] == doc["fingerprint"]
    assert listed["summary"] == {"registrations": 1, "legal": 0, "illegal": 1}


def test_one_registration_per_player_id_and_the_edit_link_replaces_it(rig: Rig) -> None:
    ev = rig.create()
    first = rig.submit(ev["id"], "0301", LEGAL).json()
    again = rig.submit(ev["id"], "0301", ILLEGAL, player="Someone else")
    assert again.status_code == 409
    assert "edit" in again.json()["error"]["message"]
    r = rig.client.put(
        f"/v1/events/{ev['id']}/registrations/{first['id']}",
        json={"deck": ILLEGAL},
        headers=auth(first["edit_token"]),
    )
    assert r.status_code == 200 and r.json()["version"] == 2 and r.json()["legal"] is False
    mine = rig.client.get(
        f"/v1/events/{ev['id']}/registrations/{first['id']}", headers=auth(first["edit_token"])
    ).json()
    assert mine["deck"] == ILLEGAL and mine["player"] == "Ada"


def test_any_deck_format_is_read(rig: Rig) -> None:
    from deckcheck.deck.io import read_deck, write_deck

    ev = rig.create()
    deck = read_deck(LEGAL)
    want = rig.submit(ev["id"], "ydk", LEGAL).json()["fingerprint"]
    for kind in ("ydke", "text", "omega", "json"):
        text = write_deck(deck, kind)
        got = rig.submit(ev["id"], kind, text).json()
        assert got["fingerprint"] == want and got["deck_format"] == kind, kind
    as_object = rig.client.post(
        f"/v1/events/{ev['id']}/registrations",
        json={"player": "J", "player_id": "object", "deck": json.loads(write_deck(deck, "json"))},
    )
    assert as_object.status_code == 201 and as_object.json()["fingerprint"] == want


def test_unreadable_or_hostile_input_is_a_4xx_and_stores_nothing(rig: Rig) -> None:
    ev = rig.create()
    for body in (
        {"player": "A", "player_id": "1", "deck": ""},
        {"player": "A", "player_id": "1", "deck": "\x00\x01\x02binary"},
        {"player": "A\x1b[31m", "player_id": "1", "deck": LEGAL},
        {"player": "A", "player_id": " ", "deck": LEGAL},
        {"player": "A", "player_id": "1", "deck": LEGAL, "admin": True},
    ):
        r = rig.client.post(f"/v1/events/{ev['id']}/registrations", json=body)
        assert 400 <= r.status_code < 500, (body, r.text)
    rows = rig.client.get(
        f"/v1/events/{ev['id']}/registrations", headers=auth(ev["organiser_token"])
    ).json()["registrations"]
    assert rows == []


# -- the deadline and the lock ----------------------------------------------------------------


def test_the_deadline_closes_every_write_to_the_microsecond(rig: Rig) -> None:
    ev = rig.create(deadline_in=timedelta(hours=1))
    first = rig.submit(ev["id"], "A").json()
    rig.clock.advance(hours=1, microseconds=-1)  # the last moment before the deadline
    assert rig.submit(ev["id"], "B").status_code == 201
    edit = {"deck": ILLEGAL}
    url = f"/v1/events/{ev['id']}/registrations/{first['id']}"
    assert rig.client.put(url, json=edit, headers=auth(first["edit_token"])).status_code == 200
    rig.clock.advance(microseconds=1)  # the deadline itself: closed
    late = rig.submit(ev["id"], "C")
    assert late.status_code == 423 and late.json()["error"]["code"] == "locked"
    r = rig.client.put(url, json={"deck": LEGAL}, headers=auth(first["edit_token"]))
    assert r.status_code == 423
    shown = rig.client.get(f"/v1/events/{ev['id']}").json()
    assert shown["status"] == "locked"
    stored = rig.client.get(url, headers=auth(ev["organiser_token"])).json()
    assert stored["deck"] == ILLEGAL and stored["version"] == 2  # never changed after


def test_a_deadline_in_another_zone_is_the_same_moment(rig: Rig) -> None:
    moment = rig.clock.now + timedelta(hours=2)
    body = {
        "name": "Tokyo",
        "format": "ocg",
        "date": "2025-06-01",
        "deadline": moment.astimezone(__import__("zoneinfo").ZoneInfo("Asia/Tokyo")).isoformat(),
    }
    ev = rig.client.post("/v1/events", json=body, headers=auth(ADMIN)).json()
    rig.clock.advance(hours=2, microseconds=-1)
    assert rig.submit(ev["id"], "A").status_code == 201
    rig.clock.advance(microseconds=1)
    assert rig.submit(ev["id"], "B").status_code == 423


def test_the_organisers_lock_closes_writes_and_publish_opens_the_lists(rig: Rig) -> None:
    ev = rig.create()
    org = auth(ev["organiser_token"])
    p = rig.submit(ev["id"], "A").json()
    assert rig.client.get(f"/v1/events/{ev['id']}/decklists").status_code == 404
    assert rig.client.post(f"/v1/events/{ev['id']}/lock", headers=org).json()["status"] == "locked"
    assert rig.submit(ev["id"], "B").status_code == 423
    url = f"/v1/events/{ev['id']}/registrations/{p['id']}"
    assert (
        rig.client.put(url, json={"deck": ILLEGAL}, headers=auth(p["edit_token"])).status_code
        == 423
    )
    assert rig.client.get(f"/v1/events/{ev['id']}/decklists").status_code == 404
    assert rig.client.get(f"/v1/events/{ev['id']}/decklists", headers=org).status_code == 200
    published = rig.client.post(f"/v1/events/{ev['id']}/publish", headers=org).json()
    assert published["status"] == "published"
    lists = rig.client.get(f"/v1/events/{ev['id']}/decklists").json()["decklists"]
    assert [(d["player_id"], d["deck"]) for d in lists] == [("A", LEGAL)]
    assert rig.submit(ev["id"], "C").status_code == 423


def test_publishing_an_open_event_locks_it_first(rig: Rig) -> None:
    ev = rig.create()
    rig.submit(ev["id"], "A")
    org = auth(ev["organiser_token"])
    assert rig.client.post(f"/v1/events/{ev['id']}/publish", headers=org).status_code == 200
    assert rig.submit(ev["id"], "B").status_code == 423
    actions = [
        a["action"]
        for a in rig.client.get(f"/v1/events/{ev['id']}/audit", headers=org).json()["audit"]
    ]
    assert actions == ["create", "submit", "lock", "publish"]


# -- at the table -----------------------------------------------------------------------------


def test_a_judge_checks_a_played_deck_or_the_sheets_qr_text(rig: Rig) -> None:
    from deckcheck.deck.io import read_deck, write_deck

    ev = rig.create()
    rig.submit(ev["id"], "0301", LEGAL)
    rig.client.post(f"/v1/events/{ev['id']}/lock", headers=auth(ev["organiser_token"]))
    judge = auth(ev["judge_token"])
    qr = write_deck(read_deck(LEGAL), "ydke")  # what the sheet's QR code holds
    same = rig.client.post(
        f"/v1/events/{ev['id']}/check", json={"player_id": "0301", "deck": qr}, headers=judge
    ).json()
    assert same["same"] is True and same["locked"] is True
    played = LEGAL.replace("!side", "!side\n8267140", 1)  # one card more in the Side Deck
    diff = rig.client.post(
        f"/v1/events/{ev['id']}/check", json={"player_id": "0301", "deck": played}, headers=judge
    ).json()
    assert diff["same"] is False
    assert (
        diff["extra"]
        == [{"section": "side", "passcode": 8267140, "name": "Cosmic Cyclone", "count": 1}]
        and diff["missing"] == []
    )
    nobody = rig.client.post(
        f"/v1/events/{ev['id']}/check", json={"player_id": "9999", "deck": LEGAL}, headers=judge
    )
    assert nobody.status_code == 404


# -- nothing lost -----------------------------------------------------------------------------


def test_the_audit_log_says_who_when_and_both_fingerprints(rig: Rig) -> None:
    ev = rig.create()
    org = auth(ev["organiser_token"])
    p = rig.submit(ev["id"], "0301", LEGAL).json()
    rig.clock.advance(minutes=5)
    e = rig.client.put(
        f"/v1/events/{ev['id']}/registrations/{p['id']}",
        json={"deck": ILLEGAL},
        headers=auth(p["edit_token"]),
    ).json()
    log = rig.client.get(f"/v1/events/{ev['id']}/audit", headers=org).json()["audit"]
    assert [(a["action"], a["actor"]) for a in log] == [
        ("create", "admin"),
        ("submit", "player:0301"),
        ("edit", "player:0301"),
    ]
    assert log[1]["old_fingerprint"] is None and log[1]["new_fingerprint"] == p["fingerprint"]
    assert (log[2]["old_fingerprint"], log[2]["new_fingerprint"]) == (
        p["fingerprint"],
        e["fingerprint"],
    )
    assert p["fingerprint"] != e["fingerprint"]
    assert log[2]["at"] == (rig.clock.now).isoformat()


def test_tokens_are_stored_only_as_hashes(rig: Rig) -> None:
    ev = rig.create()
    p = rig.submit(ev["id"], "0301").json()
    secrets = [ev["organiser_token"], ev["judge_token"], p["edit_token"], ADMIN]
    text = repr(raw_rows(rig.url))
    for token in secrets:
        assert token not in text
    import hashlib

    assert hashlib.sha256(p["edit_token"].encode()).hexdigest() in text


@pytest.mark.slow
def test_the_reports_are_the_batch_reports_of_the_stored_decks(rig: Rig) -> None:
    import csv
    import io

    ev = rig.create()
    org = auth(ev["organiser_token"])
    for n in range(3):
        rig.submit(ev["id"], f"P{n}", deck_for(n), player=f"Player {n}")
        rig.clock.advance(seconds=1)  # rows are in the order the registrations came in
    rig.submit(ev["id"], "BAD", ILLEGAL, player="Bad")
    rows = list(
        csv.DictReader(
            io.StringIO(rig.client.get(f"/v1/events/{ev['id']}/report.csv", headers=org).text)
        )
    )
    assert [r["player_id"] for r in rows] == ["P0", "P1", "P2", "BAD"]
    assert [r["status"] for r in rows] == ["legal", "legal", "legal", "illegal"]
    listed = rig.client.get(f"/v1/events/{ev['id']}/registrations", headers=org).json()
    assert [r["fingerprint"] for r in rows] == [x["fingerprint"] for x in listed["registrations"]]
    html = rig.client.get(f"/v1/events/{ev['id']}/report.html", headers=org)
    assert html.headers["content-type"].startswith("text/html") and "P2" in html.text
    doc = rig.client.get(f"/v1/events/{ev['id']}/report.json", headers=org).json()
    assert doc["summary"]["legal"] == 3 and "meta" in doc
    meta = rig.client.get(f"/v1/events/{ev['id']}/meta", headers=org).json()
    assert sum(a["decks"] for a in meta["archetypes"]) == 4
    pdf = rig.client.get(f"/v1/events/{ev['id']}/sheets.pdf", headers=org)
    assert pdf.content.startswith(b"%PDF")
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf.content))
    assert len(reader.pages) == 4
    assert "Player 1" in reader.pages[1].extract_text()


# -- the schema -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", BACKENDS)
def test_migrations_are_versioned_and_a_newer_schema_is_refused(kind: str, tmp_path: Path) -> None:
    for url in fresh_database(kind, tmp_path):
        store = open_store(url)
        assert store.migrate() == LATEST and store.version() == LATEST
        again = open_store(url)
        assert again.migrate() == LATEST  # applied once: nothing twice
        with again.transaction(write=True) as tx:
            tx.run(
                "INSERT INTO schema_version (version, about, applied_at) VALUES (?, ?, ?)",
                (LATEST + 1, "from the future", "2030-01-01T00:00:00+00:00"),
            )
        newer = open_store(url)
        with pytest.raises(StorageError, match="upgrade deckcheck"):
            newer.migrate()
        for s in (store, again, newer):
            s.close()


def test_sqlite_runs_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/e.db")
    with store.transaction(write=False) as tx:
        assert tx.one("PRAGMA journal_mode") == ("wal",)
        assert tx.one("PRAGMA foreign_keys") == (1,)
    import sqlite3

    with pytest.raises(StorageError), store.transaction(write=True) as tx:
        tx.run("INSERT INTO audit (event_id, action, actor, at) VALUES ('none', 'x', 'y', 'z')")
    assert sqlite3.sqlite_version


def test_the_default_database_is_sqlite_in_the_data_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deckcheck.event.store import database_url

    monkeypatch.delenv("DECKCHECK_DATABASE_URL", raising=False)
    monkeypatch.setenv("DECKCHECK_HOME", str(tmp_path / "home"))
    assert database_url() == f"sqlite:///{tmp_path}/home/events.sqlite3"
    monkeypatch.setenv("DECKCHECK_DATABASE_URL", "mysql://x")
    with pytest.raises(StorageError, match="postgresql://"):
        open_store()


# -- HTTP hygiene -----------------------------------------------------------------------------


@pytest.mark.slow
def test_openapi_lists_the_statuses_that_happen_on_every_event_route(
    shared: Rig, tmp_path: Path
) -> None:
    """Every status the OpenAPI document lists for an events route, sent for real (501: only
    without the sheet extra); every GET answers HEAD and 304 to its own ETag."""
    doc = shared.client.get("/openapi.json").json()
    routes = {
        (p, m): op
        for p, ops in doc["paths"].items()
        if p.startswith("/v1/events")
        for m, op in ops.items()
    }
    assert len(routes) == 17
    garbage = tmp_path / "not-a-database.db"
    garbage.write_bytes(b"this is no SQLite file" * 100)
    broken = Desk(open_store(f"sqlite:///{garbage}"), admin_token=ADMIN)
    down = create_app()
    down.state.event_desk = broken
    down_client = TestClient(down, raise_server_exceptions=False)
    for (path, method), op in sorted(routes.items()):
        ev, tokens, rid = _tokens(shared)
        url = path.replace("{event_id}", ev).replace("{registration_id}", rid)
        body = _body(path, method)

        def send(
            client: TestClient = shared.client,
            *,
            _m: str = method,
            _url: str = url,
            _body: Any = body,
            _org: str | None = tokens["organiser"],
            **kw: Any,
        ) -> Any:
            kw.setdefault("json", _body)
            kw.setdefault("headers", auth(_org))
            return client.request(_m.upper(), kw.pop("url", _url), **kw)

        for status in sorted(int(s) for s in op["responses"]):
            if status == 200 or status == 201 or status == 501:
                continue
            if status == 304:
                first = send()
                assert first.status_code == 200, (path, first.text)
                r = send(
                    headers={**auth(tokens["organiser"]), "If-None-Match": first.headers["etag"]}
                )
                if path.endswith(("sheets.pdf", "/export")) and r.status_code == 200:
                    continue  # made anew each time (their time stamps may differ)
                head = send(json=None) if method == "get" else None
                assert head is None or head.status_code == 200
                assert shared.client.head(url, headers=auth(tokens["organiser"])).status_code == 200
            else:
                r = _provoke(status, send, shared, path, method, ev, tokens, down_client, url)
            assert r.status_code == status, (method, path, status, r.status_code, r.text[:200])
            if status >= 400:
                assert r.json()["error"]["code"], r.text
        if method == "get":
            assert "304" in op["responses"] and "413" not in op["responses"], path


def _provoke(
    status: int,
    send: Any,
    shared: Rig,
    path: str,
    method: str,
    ev: str,
    tokens: dict[str, str | None],
    down_client: TestClient,
    url: str,
) -> Any:
    """A request to an events route (``url``, of event ``ev``) that gets ``status``."""
    body = _body(path, method) or {}
    player = auth(tokens["player"])
    big = "x" * (3 << 20)
    if status == 401:
        r = send(headers={})
    elif status == 403:  # a token of the event, of a role that may not
        who = {"put": "organiser", "get": "other-player"} if "{registration_id}" in path else {}
        r = send(headers=auth(tokens[who.get(method, "player")]))
    elif status == 404:
        r = send(url=url.replace(ev, "nosuchevent"))
        if path == "/v1/events":
            r = send(json={**body, "format": "nosuchformat"}, headers=auth(ADMIN))
    elif status == 409:
        r = send(json={**body, "player_id": "P1"})
    elif status == 413:
        r = send(json={**body, "deck": big})
    elif status == 422:
        r = (
            send(url=url.replace(ev, "x" * 100))
            if path != "/v1/events"
            else send(json={**body, "deadline": "soon"}, headers=auth(ADMIN))
        )
    elif status == 423:
        shared.client.post(f"/v1/events/{ev}/lock", headers=auth(tokens["organiser"]))
        r = send(headers=player) if method == "put" else send(json={**body, "player_id": "late"})
    elif status == 503:
        r = send(client=down_client, headers=auth(ADMIN))
    else:
        raise AssertionError(f"no case for {status} on {method} {path}")
    return r


def _body(path: str, method: str) -> dict[str, Any] | None:
    if path == "/v1/events":
        return {"name": "E", "format": "tcg", "date": "2025-06-01", "deadline": "2099-01-01T00:00Z"}
    if path.endswith("/registrations") and method == "post":
        return {"player": "N", "player_id": "N1", "deck": LEGAL}
    if method == "put":
        return {"deck": LEGAL}
    if path.endswith("/check"):
        return {"player_id": "P1", "deck": LEGAL}
    return None


def test_an_edit_may_carry_its_token_and_player_id_in_the_body(rig: Rig) -> None:
    ev = rig.create()
    p = rig.submit(ev["id"], "0301").json()
    url = f"/v1/events/{ev['id']}/registrations/{p['id']}"
    body = {"player": "Ada", "player_id": "0301", "deck": ILLEGAL, "edit_token": p["edit_token"]}
    r = rig.client.put(url, json=body)
    assert r.status_code == 200 and r.json()["legal"] is False
    r = rig.client.put(url, json={**body, "player_id": "0999"})
    assert r.status_code == 422 and "player_id" in r.json()["error"]["message"]
    assert rig.client.put(url, json={"deck": LEGAL, "edit_token": "dcp_wrong"}).status_code == 401
    judge = auth(ev["judge_token"])
    from deckcheck.deck.io import read_deck, write_deck

    qr = write_deck(read_deck(ILLEGAL), "ydke")
    check = f"/v1/events/{ev['id']}/check"
    got = rig.client.post(check, json={"player_id": "0301", "qr": qr}, headers=judge)
    assert got.status_code == 200 and got.json()["same"] is True
    both = rig.client.post(check, json={"player_id": "0301", "qr": qr, "deck": qr}, headers=judge)
    assert both.status_code == 422


def test_every_event_error_code_is_in_the_readme() -> None:
    import re

    from deckcheck.error import EVENT_ERRORS

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| `([a-z-]+)` \| (\d{3})", readme, re.MULTILINE))
    for cls in EVENT_ERRORS:
        assert table.get(cls.code) == str(cls.http_status), cls
