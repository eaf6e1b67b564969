"""The web deck builder end to end, in a real headless Chromium driven by Selenium.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them); where neither
can be installed the test is skipped, and says why.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import deckcheck

ROOT = Path(__file__).resolve().parent.parent
LEGAL = ROOT / "examples" / "tcg-legal.ydk"
POT_OF_GREED = 55144522
ON = "2025-06-01"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1366,900",
)
TIMEZONE = "Pacific/Kiritimati"
"""The browser's time zone (UTC+14): its local date is not the UTC date for most of the day."""


def _missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).exists() and shutil.which(Path(path).name) is None:
            return f"{path} is missing (apt-get install chromium chromium-driver)"
    return None


@pytest.fixture()
def browser() -> Iterator[Any]:
    reason = _missing()
    if reason is not None:
        print(f"SKIPPED browser test: {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="deckcheck-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver_path = CHROMEDRIVER if Path(CHROMEDRIVER).exists() else shutil.which("chromedriver")
    env = {**os.environ, "TZ": TIMEZONE}
    driver = webdriver.Chrome(service=Service(driver_path, env=env), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def test_builder_end_to_end(browser: Any, live_server: str, tmp_path: Path) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    d = browser
    # the page re-renders the deck when a check answers: an element may go stale in between
    wait = WebDriverWait(d, 20, ignored_exceptions=[StaleElementReferenceException])
    d.get(f"{live_server}/")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#format option[value='goat']"))
    d.execute_script(
        "const e = document.getElementById('date'); e.value = arguments[0];"
        "e.dispatchEvent(new Event('change'));",
        ON,
    )

    def verdict() -> str:
        text: str = d.find_element(By.ID, "verdict").text
        return text

    # import the bundled legal deck
    d.find_element(By.ID, "io").send_keys(LEGAL.read_text(encoding="utf-8"))
    d.find_element(By.ID, "import").click()
    wait.until(lambda _: verdict() == "LEGAL")
    assert d.find_element(By.ID, "count-main").text == "40"

    # search by Japanese name, add the card: the deck turns illegal
    index = deckcheck.Dataset.active().cards
    japanese = index.get(POT_OF_GREED).name_ja
    assert japanese
    d.find_element(By.ID, "search").send_keys(japanese)
    result = f"#results li[data-passcode='{POT_OF_GREED}'] .card-name"
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, result))
    d.find_element(By.CSS_SELECTOR, result).click()
    wait.until(lambda _: verdict() == "ILLEGAL")
    codes = [
        e.get_attribute("data-code") for e in d.find_elements(By.CSS_SELECTOR, "#violations li")
    ]
    assert "forbidden" in codes
    message = d.execute_script(
        "return document.querySelector(\"#violations li[data-code='forbidden']\").innerText"
    )
    assert "Pot of Greed" in message and "remove" in message
    row = f"#main li[data-passcode='{POT_OF_GREED}']"  # found anew each look: it re-renders
    wait.until(lambda d: "bad" in d.find_element(By.CSS_SELECTOR, row).get_attribute("class"))
    assert d.find_element(By.ID, "count-main").text == "41"

    # an Extra Deck monster found by its Chinese name goes to the Extra Deck
    fusion = next(c for c in (index.get(p) for p in (1546123, 74157028)) if c.name_zh)
    search = d.find_element(By.ID, "search")
    search.clear()
    search.send_keys(fusion.name_zh)
    hit = f"#results li[data-passcode='{fusion.passcode}'] .card-name"
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, hit))
    extra_before = int(d.find_element(By.ID, "count-extra").text)
    d.find_element(By.CSS_SELECTOR, hit).click()
    wait.until(lambda d: int(d.find_element(By.ID, "count-extra").text) == extra_before + 1)
    _act(d, f"#extra li[data-passcode='{fusion.passcode}'] .minus")
    wait.until(lambda d: int(d.find_element(By.ID, "count-extra").text) == extra_before)

    # odds for a category the user picks, with the by-turn chart
    d.find_element(By.ID, "new-category").send_keys("starter")
    d.find_element(By.ID, "add-category").click()
    boxes = d.find_elements(By.CSS_SELECTOR, ".category .picks input")
    boxes[0].click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#chart svg polyline"))
    lines = d.find_elements(By.CSS_SELECTOR, "#chart svg polyline")
    assert {line.get_attribute("data-going") for line in lines} == {"first", "second"}
    d.execute_script("window.scrollTo(0, 0)")
    d.save_screenshot(str(tmp_path / "builder-illegal.png"))

    # fix it: remove the Forbidden card, the deck is legal again
    _act(d, f"#main li[data-passcode='{POT_OF_GREED}'] .minus")
    wait.until(lambda _: verdict() == "LEGAL")
    assert not d.find_elements(By.CSS_SELECTOR, "#violations li.error")

    # export as ydke: the same deck as the file imported
    from selenium.webdriver.support.ui import Select

    Select(d.find_element(By.ID, "export-to")).select_by_value("ydke")
    d.find_element(By.ID, "export").click()
    wait.until(lambda d: d.find_element(By.ID, "io").get_attribute("value").startswith("ydke://"))
    exported = d.find_element(By.ID, "io").get_attribute("value").strip()
    assert deckcheck.read_deck(exported).multiset() == deckcheck.read_path(LEGAL).multiset()
    shot = tmp_path / "builder.png"
    d.execute_script("window.scrollTo(0, 0)")
    d.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    print(f"screenshots: {tmp_path}")
    # The organisers' HTML report is rendered and screenshotted in headless Chromium by
    # tests/test_report_browser.py (test_the_page_renders, under its own tmp folder).


# -- the builder checks ------------------------------------------------------------------


def _open(d: Any, url: str) -> Any:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    # the page re-renders the deck when a check answers: an element may go stale in between
    wait = WebDriverWait(d, 20, ignored_exceptions=[StaleElementReferenceException])
    d.get(url)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#format option[value='goat']"))
    d.execute_script(
        "const e = document.getElementById('date'); e.value = arguments[0];"
        "e.dispatchEvent(new Event('change'));",
        ON,
    )
    return wait


def _act(d: Any, css: str, keys: str | None = None) -> None:
    """Click (or type ``keys`` into) the element ``css`` names, found again if the page
    re-rendered it meanwhile (a check answering re-renders the deck; a node caught while
    it is swapped out reads as stale or as not interactable)."""
    from selenium.common.exceptions import (
        ElementNotInteractableException,
        StaleElementReferenceException,
    )
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def go(d: Any) -> bool:
        focused = css == ":focus"
        node = d.switch_to.active_element if focused else d.find_element(By.CSS_SELECTOR, css)
        if keys is None:
            node.click()
        else:
            node.send_keys(keys)
        return True

    settling = [StaleElementReferenceException, ElementNotInteractableException]
    WebDriverWait(d, 20, ignored_exceptions=settling).until(go)


def _text(d: Any, id_: str) -> str:
    from selenium.webdriver.common.by import By

    got: str = d.find_element(By.ID, id_).text
    return got


def _csp_errors(d: Any) -> list[str]:
    return [e["message"] for e in d.get_log("browser") if "Content Security Policy" in e["message"]]


def _import_file(d: Any, wait: Any, path: Path) -> None:
    from selenium.webdriver.common.by import By

    d.find_element(By.ID, "file").send_keys(str(path))
    wait.until(lambda _: _text(d, "verdict") in ("LEGAL", "ILLEGAL"))


def test_local_date_file_import_reload_share_and_undo(
    browser: Any, live_server: str, tmp_path: Path
) -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from selenium.webdriver.common.by import By

    d = browser
    d.get(f"{live_server}/")
    want = datetime.now(ZoneInfo(TIMEZONE)).date().isoformat()
    assert d.find_element(By.ID, "date").get_attribute("value") == want  # the user's date
    wait = _open(d, f"{live_server}/")

    # import by the file picker
    _import_file(d, wait, LEGAL)
    assert _text(d, "count-main") == "40" and _text(d, "verdict") == "LEGAL"

    # a file dropped on the page is imported too
    d.execute_script(
        "const dt = new DataTransfer();"
        "dt.items.add(new File([arguments[0]], 'dropped.txt', {type: 'text/plain'}));"
        "document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true}));",
        "3 Pot of Greed\n",
    )
    wait.until(lambda _: _text(d, "count-main") == "3" and _text(d, "verdict") == "ILLEGAL")
    assert "dropped" in _text(d, "deck-name")
    _import_file(d, wait, LEGAL)
    wait.until(lambda _: _text(d, "count-main") == "40" and _text(d, "verdict") == "LEGAL")

    # a reload keeps the deck
    d.refresh()
    wait.until(lambda _: _text(d, "count-main") == "40")
    wait.until(lambda _: _text(d, "verdict") == "LEGAL")

    # clear, then undo
    d.find_element(By.ID, "clear").click()
    wait.until(lambda _: _text(d, "count-main") == "0")
    assert d.find_element(By.ID, "undo").is_displayed()
    d.find_element(By.ID, "undo").click()
    wait.until(lambda _: _text(d, "count-main") == "40")

    # a share link restores the deck in a browser that never saw it
    d.find_element(By.ID, "share").click()
    wait.until(
        lambda _: "#ydke://" in (d.find_element(By.ID, "share-url").get_attribute("value") or "")
    )
    link = d.find_element(By.ID, "share-url").get_attribute("value")
    assert link.startswith(f"{live_server}/#ydke://")
    ydke = link.split("#", 1)[1]
    assert deckcheck.read_deck(ydke).multiset() == deckcheck.read_path(LEGAL).multiset()
    d.execute_script("localStorage.clear()")
    d.get("about:blank")
    d.get(link)
    wait.until(lambda _: _text(d, "count-main") == "40")
    assert _text(d, "count-extra") == str(len(deckcheck.read_path(LEGAL).extra))
    assert _csp_errors(d) == []
    d.save_screenshot(str(tmp_path / "builder-shared.png"))
    print(f"screenshots: {tmp_path}")


def test_download_every_format(browser: Any, live_server: str, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = browser
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    d.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    wait = _open(d, f"{live_server}/")
    _import_file(d, wait, LEGAL)
    want = deckcheck.read_path(LEGAL).multiset()
    names = {"ydk": "ydk", "ydke": "ydke.txt", "text": "txt", "omega": "omega.txt", "json": "json"}
    for to, ext in names.items():
        Select(d.find_element(By.ID, "export-to")).select_by_value(to)
        d.find_element(By.ID, "download").click()
        path = downloads / f"deckcheck example_ Cyber Dragon.{ext}"
        wait.until(lambda _, p=path: p.exists() and p.stat().st_size > 0)
        got = deckcheck.read_deck(path.read_text(encoding="utf-8"))
        assert got.multiset() == want, to


def test_unknown_lines_are_rows_fixed_by_search(browser: Any, live_server: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    d = browser
    wait = _open(d, f"{live_server}/")
    text = "3 Ash Blossom & Joyous Spring\n2 Ash Blosom and Joyus\n"
    d.find_element(By.ID, "io").send_keys(text)
    d.find_element(By.ID, "import").click()
    row = "#main li.unknown"
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, row))
    wait.until(lambda d: "Ash Blosom and Joyus" in d.find_element(By.CSS_SELECTOR, row).text)
    assert "#[object Object]" not in d.find_element(By.ID, "main").text
    server = deckcheck.read_deck(text)
    assert _text(d, "count-main") == "5"  # what the server counts: 3 cards + a 2-card line
    assert len(server.main) == 3

    def codes() -> list[str]:
        return [
            e.get_attribute("data-code") for e in d.find_elements(By.CSS_SELECTOR, "#violations li")
        ]

    wait.until(lambda _: "unknown-card" in codes())
    # fix it: Find puts the line in the search; Enter takes the first match
    _act(d, f"{row} .fix", Keys.ENTER)
    assert d.switch_to.active_element == d.find_element(By.ID, "search")
    assert d.find_element(By.ID, "search").get_attribute("value") == "Ash Blosom and Joyus"
    done = "#results[data-query='Ash Blosom and Joyus'] li[data-passcode='14558127']"
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, done))
    d.find_element(By.ID, "search").send_keys(Keys.ENTER)
    wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, row))
    ash = "#main li[data-passcode='14558127'] .n"
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ash).text == "5×")
    assert _text(d, "count-main") == "5"
    wait.until(lambda _: "unknown-card" not in codes())


def test_a_failed_check_clears_the_verdict(browser: Any, live_server: str) -> None:
    d = browser
    wait = _open(d, f"{live_server}/")
    _import_file(d, wait, LEGAL)
    assert _text(d, "verdict") == "LEGAL"
    assert "No problem" in _text(d, "violations")
    d.execute_script(
        "const s = document.getElementById('format');"
        "s.append(new Option('gone', 'no-such-format'));"
        "s.value = 'no-such-format'; s.dispatchEvent(new Event('change'));"
    )
    wait.until(lambda _: _text(d, "verdict").startswith("Cannot check"))
    assert "No problem" not in _text(d, "violations")
    assert "LEGAL" not in _text(d, "verdict")
    assert "no-such-format" in _text(d, "violations")


def test_keyboard_only(browser: Any, live_server: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    d = browser
    wait = _open(d, f"{live_server}/")
    search = d.find_element(By.ID, "search")
    search.send_keys("Ash Blossom & Joyous")
    first = "#results[data-query='Ash Blossom & Joyous'] li[data-passcode='14558127'] .card-name"
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, first))  # the last query's results
    active = lambda: d.switch_to.active_element  # noqa: E731
    search.send_keys(Keys.ARROW_DOWN)
    assert active() == d.find_element(By.CSS_SELECTOR, "#results li .card-name")
    active().send_keys(Keys.ENTER)  # adds it; focus stays in the results
    wait.until(lambda _: _text(d, "count-main") == "1")
    assert active().get_attribute("class") == "card-name"
    active().send_keys(Keys.ARROW_UP)
    assert active() == search
    row = "#main li[data-passcode='14558127']"
    _act(d, f"{row} .plus", Keys.ENTER)
    wait.until(lambda _: _text(d, "count-main") == "2")
    on = lambda what: wait.until(  # noqa: E731
        lambda d: active() == d.find_element(By.CSS_SELECTOR, f"{row} {what}")
    )
    on(".plus")  # focus kept on the row
    _act(d, ":focus", Keys.ENTER)
    wait.until(lambda _: _text(d, "count-main") == "3")
    _act(d, f"{row} .minus", Keys.ENTER)
    wait.until(lambda _: _text(d, "count-main") == "2")
    on(".minus")
    _act(d, f"{row} .move", Keys.ENTER)
    wait.until(lambda _: _text(d, "count-side") == "1" and _text(d, "count-main") == "1")
    on(".move")


SIZES = {"desktop": (1366, 900, False), "phone": (390, 844, True)}


@pytest.mark.parametrize("size", list(SIZES))
def test_layout_fits_and_touch_targets(
    browser: Any, live_server: str, tmp_path: Path, size: str
) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    width, height, mobile = SIZES[size]
    d.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
    )
    wait = _open(d, f"{live_server}/")
    _import_file(d, wait, LEGAL)
    d.find_element(By.ID, "search").send_keys("Cyber")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results li .card-name"))
    d.find_element(By.ID, "new-category").send_keys("starter")
    d.find_element(By.ID, "add-category").click()
    d.find_elements(By.CSS_SELECTOR, ".category .picks input")[0].click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#chart svg polyline"))
    least = 44 if mobile else 24  # touch targets on a phone; WCAG's minimum target elsewhere
    sizes = d.execute_script(
        """
        const doc = document.documentElement;
        const wide = [...document.querySelectorAll('body *')].filter((e) => {
          const r = e.getBoundingClientRect(); return r.width && r.right > doc.clientWidth + 1; })
          .map((e) => e.tagName + '#' + e.id + '.' + e.className);
        const small = [...document.querySelectorAll('button, .button, select')].filter((e) => {
          const r = e.getBoundingClientRect();
          return r.width && (r.width < arguments[0] || r.height < arguments[0]); })
          .map((e) => { const r = e.getBoundingClientRect();
                        return `${e.tagName}#${e.id}.${e.className} ${r.width}x${r.height}`; });
        return {scroll: doc.scrollWidth, client: doc.clientWidth, wide, small,
                buttons: document.querySelectorAll('button').length};
    """,
        least,
    )
    d.execute_script("document.getElementById('deck-panel').scrollIntoView()")
    d.save_screenshot(str(tmp_path / f"builder-{size}-deck.png"))
    d.execute_script("window.scrollTo(0, 0)")
    d.save_screenshot(str(tmp_path / f"builder-{size}.png"))
    print(f"screenshot: {tmp_path / f'builder-{size}.png'}")
    assert sizes["scroll"] <= sizes["client"], sizes  # no sideways scroll
    assert width - 20 <= sizes["client"] <= width  # (less a vertical scroll bar)
    assert sizes["wide"] == [], sizes["wide"]
    assert sizes["buttons"] > 100  # the deck rows, results and odds are on the page
    assert sizes["small"] == [], sizes["small"]
    assert _csp_errors(d) == []


def test_card_images_from_the_operators_origin_only(browser: Any, tmp_path: Path) -> None:
    import base64
    import http.server
    import threading

    from selenium.webdriver.common.by import By

    from tests.conftest import start_server, stop_server

    png = base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    )
    asked: list[str] = []

    class Images(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(png)))
            self.end_headers()
            self.wfile.write(png)

        def log_message(self, *args: Any) -> None:
            pass

    images = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Images)
    threading.Thread(target=images.serve_forever, daemon=True).start()
    template = f"http://127.0.0.1:{images.server_address[1]}/img/{{passcode}}.png"
    proc, url = start_server(env={**os.environ, "DECKCHECK_IMAGE_URL": template})
    try:
        d = browser
        wait = _open(d, f"{url}/")
        d.find_element(By.ID, "search").send_keys("Ash Blossom & Joyous")
        img = "#results li[data-passcode='14558127'] img.thumb"
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, img))
        wait.until(
            lambda d: d.execute_script(
                "const i = document.querySelector(arguments[0]);"
                " return i.complete && i.naturalWidth;",
                img,
            )
        )
        assert d.find_element(By.CSS_SELECTOR, img).get_attribute("src") == template.replace(
            "{passcode}", "14558127"
        )
        assert "/img/14558127.png" in asked
        assert _csp_errors(d) == []
    finally:
        stop_server(proc)
        images.shutdown()


def test_no_card_images_by_default(browser: Any, live_server: str) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    wait = _open(d, f"{live_server}/")
    d.find_element(By.ID, "search").send_keys("Ash Blossom & Joyous")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results li[data-passcode='14558127']"))
    assert d.find_elements(By.CSS_SELECTOR, "img") == []


def test_what_if_sweeps_a_categorys_copies(browser: Any, live_server: str) -> None:
    """The odds panel's "What if?" ranks 2 fewer to 2 more copies of a category (a ratio sweep
    over HTTP), each figure checked against the hypergeometric odds worked out here."""
    from math import comb

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    d = browser
    wait = WebDriverWait(d, 30)
    d.get(f"{live_server}/")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#format option[value='tcg']"))
    d.execute_script(
        "const e = document.getElementById('date'); e.value = arguments[0];"
        "e.dispatchEvent(new Event('change'));",
        ON,
    )
    d.find_element(By.ID, "io").send_keys(LEGAL.read_text(encoding="utf-8"))
    d.find_element(By.ID, "import").click()
    wait.until(lambda d: d.find_element(By.ID, "verdict").text == "LEGAL")
    d.find_element(By.ID, "new-category").send_keys("starter")
    d.find_element(By.ID, "add-category").click()
    box = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".category .picks input"))[0]
    box.click()
    label = box.find_element(By.XPATH, "..").text.strip()
    picked = deckcheck.Dataset.active().cards.lookup(label).card.passcode
    d.find_element(By.CSS_SELECTOR, ".category .whatif-button").click()
    rows = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#whatif tbody tr"))
    deck = deckcheck.read_path(LEGAL)
    main = [c.passcode for c in deck.main]
    size = len(main)
    now = int(d.find_element(By.CSS_SELECTOR, "#whatif tr.now").get_attribute("data-copies"))
    assert now == main.count(picked)
    got = {int(r.get_attribute("data-copies")): float(r.get_attribute("data-p")) for r in rows}
    assert sorted(got) == list(range(max(0, now - 2), now + 3))
    for k, p in got.items():  # at least 1 of k copies in a 5-card opening hand of `size` cards
        want = 1 - comb(size - k, 5) / comb(size, 5)
        assert abs(p - want) < 1e-9, (k, p, want)
