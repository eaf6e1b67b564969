"""The builder's odds share links, sample hands and stale results, in a real headless Chromium.

A share link carries the deck and the odds question (categories, going, turns); a link in the
address bar never replaces one's own saved deck without asking (it is offered as a new deck,
with undo); edits after "Share link" survive a reload; an error clears the old figures.
"""

from __future__ import annotations

from math import comb
from typing import Any

import deckcheck

from .test_service_browser import LEGAL, _act, _open, _text, browser  # noqa: F401

POT_OF_GREED = 55144522


def _start(d: Any, url: str) -> Any:
    """Open the builder; a patient wait (the machine may be busy): every step waits up to 60 s."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    _open(d, url)
    return WebDriverWait(d, 60, ignored_exceptions=[StaleElementReferenceException])


def _link_of(deck_text: str, base: str) -> str:
    """A share link (as the builder makes them) of a deck written here."""
    ydke = deckcheck.write_deck(deckcheck.read_deck(deck_text), "ydke").strip()
    return f"{base}/#{ydke}"


def _import(d: Any, wait: Any, text: str, main: str) -> None:
    from selenium.webdriver.common.by import By

    box = d.find_element(By.ID, "io")
    box.clear()
    box.send_keys(text)
    d.find_element(By.ID, "import").click()
    wait.until(lambda _: _text(d, "count-main") == main)


def _stored_main(d: Any) -> int:
    got: int = d.execute_script(
        "const s = JSON.parse(localStorage.getItem('deckcheck.deck') || 'null');"
        "return s ? s.deck.main.length : -1;"
    )
    return got


def test_odds_share_link_carries_the_question(browser: Any, live_server: str) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = browser
    wait = _start(d, f"{live_server}/")
    _import(d, wait, LEGAL.read_text(encoding="utf-8"), "40")
    d.find_element(By.ID, "new-category").send_keys("starter")
    d.find_element(By.ID, "add-category").click()
    box = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".category .picks input"))[0]
    box.click()
    label = box.find_element(By.XPATH, "..").text.strip()
    picked = deckcheck.Dataset.active().cards.lookup(label).card.passcode
    Select(d.find_element(By.ID, "odds-going")).select_by_value("first")
    turns = d.find_element(By.ID, "odds-turns")
    turns.clear()
    turns.send_keys("3")
    d.execute_script("document.getElementById('odds-turns').dispatchEvent(new Event('change'))")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#odds thead th")) == 4)
    _act(d, "#share")
    wait.until(
        lambda _: "&odds=" in (d.find_element(By.ID, "share-url").get_attribute("value") or "")
    )
    link = d.find_element(By.ID, "share-url").get_attribute("value")

    # a browser that never saw the deck: the deck, the category, going and turns come back
    d.execute_script("localStorage.clear()")
    d.get("about:blank")
    d.get(link)
    wait.until(lambda _: _text(d, "count-main") == "40")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#odds tbody tr")) == 1)
    assert d.find_element(By.ID, "odds-going").get_attribute("value") == "first"
    assert d.find_element(By.ID, "odds-turns").get_attribute("value") == "3"
    checked = d.find_elements(By.CSS_SELECTOR, ".category[data-name='starter'] .picks input")
    assert [b.is_selected() for b in checked].count(True) == 1
    row = d.find_element(By.CSS_SELECTOR, "#odds tbody tr")
    assert row.get_attribute("data-going") == "first"
    cells = [c.text for c in row.find_elements(By.CSS_SELECTOR, "td")][1:]
    k = [c.passcode for c in deckcheck.read_path(LEGAL).main].count(picked)
    want = [f"{100 * (1 - comb(40 - k, n) / comb(40, n)):.1f}%" for n in (5, 6, 7)]
    assert cells == want
    # the sample hands: three, going first, five cards each and the turns' draws
    hands = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#samples li"))
    assert len(hands) == 3 and {h.get_attribute("data-going") for h in hands} == {"first"}
    assert "turn 2:" in hands[0].text and "turn 3:" in hands[0].text


def test_a_link_never_replaces_the_saved_deck_unasked(browser: Any, live_server: str) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    d = browser
    wait = _start(d, f"{live_server}/")
    _import(d, wait, LEGAL.read_text(encoding="utf-8"), "40")
    friend = _link_of("3 Pot of Greed\n", live_server)

    # a friend's link: one's own deck stays, the link is offered
    d.get(friend)
    wait.until(lambda d: d.find_element(By.ID, "open-shared").is_displayed())
    assert _text(d, "count-main") == "40" and _stored_main(d) == 40
    assert d.find_element(By.ID, "keep-mine").is_displayed()
    d.find_element(By.ID, "keep-mine").click()
    wait.until(lambda d: not d.find_element(By.ID, "open-shared").is_displayed())
    assert "#" not in d.current_url  # a reload does not ask again
    d.refresh()
    wait.until(lambda _: _text(d, "count-main") == "40")
    assert not d.find_element(By.ID, "open-shared").is_displayed()

    # opened as a new deck, and undone: one's own deck is back, also after a reload
    d.get(friend)
    wait.until(lambda d: d.find_element(By.ID, "open-shared").is_displayed())
    d.find_element(By.ID, "open-shared").click()
    wait.until(lambda _: _text(d, "count-main") == "3")
    assert d.find_element(By.ID, "undo").is_displayed()
    d.find_element(By.ID, "undo").click()
    wait.until(lambda _: _text(d, "count-main") == "40")
    wait.until(lambda _: _stored_main(d) == 40)
    d.refresh()
    wait.until(lambda _: _text(d, "count-main") == "40")

    # the same deck as one's own opens without a question
    own = _link_of(LEGAL.read_text(encoding="utf-8"), live_server)
    d.get(own)
    wait.until(lambda _: _text(d, "count-main") == "40")
    assert not d.find_element(By.ID, "open-shared").is_displayed()


def test_edits_after_share_survive_a_reload(browser: Any, live_server: str) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    d = browser
    wait = _start(d, f"{live_server}/")
    _import(d, wait, LEGAL.read_text(encoding="utf-8"), "40")
    _act(d, "#share")
    wait.until(lambda _: "#ydke://" in d.current_url)
    _act(d, f"#main li[data-passcode='{deckcheck.read_path(LEGAL).main[0].passcode}'] .minus")
    wait.until(lambda _: _text(d, "count-main") == "39")
    wait.until(lambda _: _stored_main(d) == 39)
    d.refresh()
    wait.until(lambda _: _text(d, "count-main") == "39")
    assert not d.find_element(By.ID, "open-shared").is_displayed()


def test_an_error_clears_the_old_odds(browser: Any, live_server: str) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    d = browser
    wait = _start(d, f"{live_server}/")
    _import(d, wait, LEGAL.read_text(encoding="utf-8"), "40")
    d.find_element(By.ID, "new-category").send_keys("starter")
    d.find_element(By.ID, "add-category").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".category .picks input"))[0].click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#chart svg polyline"))
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#samples li"))
    # a date no format has rules for: the service refuses the question
    d.execute_script(
        "const e = document.getElementById('date'); e.value = '1990-01-01';"
        "e.dispatchEvent(new Event('change'));"
    )
    wait.until(lambda _: "Cannot compute odds" in _text(d, "odds"))
    assert not d.find_elements(By.CSS_SELECTOR, "#odds table")
    assert not d.find_elements(By.CSS_SELECTOR, "#chart svg")
    assert not d.find_elements(By.CSS_SELECTOR, "#samples li")
