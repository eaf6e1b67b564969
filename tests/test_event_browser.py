"""The events' pages in a real headless Chromium: the builder's "Submit to event" (from the
submission URL) and the organiser's dashboard (registrations, illegal, missing, lock, publish),
against a real ``deckcheck serve`` with its own database."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import start_server, stop_server
from tests.event_support import ILLEGAL, LEGAL
from tests.test_service_browser import browser  # noqa: F401  (the Chromium fixture)

ADMIN = "browser-test-admin"


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[str]:
    env = {
        **os.environ,
        "DECKCHECK_DATABASE_URL": f"sqlite:///{tmp_path}/events.sqlite3",
        "DECKCHECK_ADMIN_TOKEN": ADMIN,
    }
    proc, url = start_server(env=env)
    try:
        yield url
    finally:
        stop_server(proc)


def _event(base: str) -> dict[str, Any]:
    body = {
        "name": "Store Championship",
        "format": "tcg",
        "date": "2025-06-01",
        "deadline": "2099-01-01T00:00:00Z",
    }
    r = httpx.post(f"{base}/v1/events", json=body, headers={"Authorization": f"Bearer {ADMIN}"})
    assert r.status_code == 201, r.text
    got: dict[str, Any] = r.json()
    return got


def test_a_player_submits_from_the_builder_and_the_organiser_runs_the_dashboard(
    browser: Any,  # noqa: F811
    server: str,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    ev = _event(server)
    d = browser
    wait = WebDriverWait(d, 30)
    d.get(ev["submission_url"].replace("http://testserver", server))
    # the submission URL opens the builder with the event's panel
    wait.until(lambda d: "Store Championship" in d.find_element(By.ID, "event-info").text)
    assert d.find_element(By.ID, "event-panel").is_displayed()

    def load(deck: str, verdict: str) -> None:
        box = d.find_element(By.ID, "io")
        box.clear()
        d.execute_script("arguments[0].value = arguments[1];", box, deck)
        d.find_element(By.ID, "import").click()
        wait.until(lambda d: d.find_element(By.ID, "verdict").text == verdict)

    def result() -> str:  # read in the page: the result is replaced as a whole each time
        text: str = d.execute_script(
            "const e = document.getElementById('event-verdict'); return e ? e.textContent : '';"
        )
        return text

    load(LEGAL, "LEGAL")
    d.find_element(By.ID, "event-player").send_keys("Ada Lovelace")
    d.find_element(By.ID, "event-player-id").send_keys("0301234567")
    d.find_element(By.ID, "event-submit").click()
    wait.until(lambda d: result() == "SUBMITTED: LEGAL")
    token = d.find_element(By.ID, "event-token").get_attribute("value")
    assert token and token.startswith("dcp_")
    assert token in d.find_element(By.ID, "event-result").text

    org = {"Authorization": f"Bearer {ev['organiser_token']}"}
    rows = httpx.get(f"{server}/v1/events/{ev['id']}/registrations", headers=org).json()
    [row] = rows["registrations"]
    assert (row["player"], row["player_id"], row["legal"]) == ("Ada Lovelace", "0301234567", True)

    # a second submission is refused; the edit token replaces the deck
    d.find_element(By.ID, "event-submit").click()
    wait.until(lambda d: result().startswith("Already registered"))
    load(ILLEGAL, "ILLEGAL")
    d.find_element(By.ID, "event-update").click()
    wait.until(lambda d: result().startswith("SUBMITTED: ILLEGAL"))
    assert "forbidden" in d.find_element(By.ID, "event-result").text
    rows = httpx.get(f"{server}/v1/events/{ev['id']}/registrations", headers=org).json()
    assert [(r["legal"], r["version"]) for r in rows["registrations"]] == [(False, 2)]

    # the organiser's dashboard
    d.get(f"{server}/events/{ev['id']}/dashboard")
    wait.until(lambda d: d.find_element(By.ID, "event-name").text == "Store Championship")
    d.find_element(By.ID, "token").send_keys("dco_wrong")
    d.find_element(By.ID, "sign-in").click()
    wait.until(
        lambda d: "not this event's organiser token" in d.find_element(By.ID, "message").text
    )
    assert not d.find_element(By.ID, "board").is_displayed()
    d.find_element(By.ID, "token").clear()
    d.find_element(By.ID, "token").send_keys(ev["organiser_token"])
    d.find_element(By.ID, "sign-in").click()
    wait.until(lambda d: d.find_element(By.ID, "board").is_displayed())
    assert d.find_element(By.ID, "count-all").text == "1 registrations"
    assert d.find_element(By.ID, "count-illegal").text == "1 illegal"
    assert "0301234567" in d.find_element(By.ID, "illegal").text
    assert "forbidden" in d.find_element(By.ID, "illegal").text
    d.find_element(By.ID, "expected").send_keys("player_id\n0301234567\n0309999999\n")
    wait.until(lambda d: d.find_element(By.ID, "count-missing").text == "1 missing")
    assert d.find_element(By.ID, "missing").text == "0309999999"
    audit = d.find_element(By.ID, "audit").text
    assert "submit" in audit and "edit" in audit

    d.execute_script("window.confirm = () => true;")
    d.find_element(By.ID, "lock").click()
    wait.until(lambda d: d.find_element(By.ID, "event-status").text == "locked")
    r = httpx.post(
        f"{server}/v1/events/{ev['id']}/registrations",
        json={"player": "Late", "player_id": "late", "deck": LEGAL},
    )
    assert r.status_code == 423
    assert httpx.get(f"{server}/v1/events/{ev['id']}/decklists").status_code == 404
    d.find_element(By.ID, "publish").click()
    wait.until(lambda d: d.find_element(By.ID, "event-status").text == "published")
    lists = httpx.get(f"{server}/v1/events/{ev['id']}/decklists").json()["decklists"]
    import deckcheck

    want = deckcheck.fingerprint_deck(deckcheck.read_deck(ILLEGAL))  # the builder sends its JSON
    assert [deckcheck.fingerprint_deck(deckcheck.read_deck(x["deck"])) for x in lists] == [want]
    assert [x["fingerprint"] for x in lists] == [want]
    # a download goes through the organiser token (a report from the dashboard's own fetch)
    got = d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(`/v1/events/${arguments[0]}/report.csv`, {headers: {Authorization: "
        "`Bearer ${sessionStorage.getItem('deckcheck-organiser-' + arguments[0])}`}})"
        ".then((r) => r.text()).then(done);",
        ev["id"],
    )
    assert got.startswith("row,player_id,player") and "0301234567" in got
    logged = d.get_log("browser")  # (the 409 and 401 asked for above are network lines)
    errors = [e for e in logged if e["level"] == "SEVERE" and e["source"] != "network"]
    assert errors == [], errors
