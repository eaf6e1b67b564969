"""The web deck builder end to end, in a real headless Chromium driven by Selenium.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them); where neither
can be installed the test is skipped, and says why.
"""

from __future__ import annotations

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
    "--window-size=1400,1900",
)


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
    driver_path = CHROMEDRIVER if Path(CHROMEDRIVER).exists() else shutil.which("chromedriver")
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def test_builder_end_to_end(browser: Any, live_server: str, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    d = browser
    wait = WebDriverWait(d, 20)
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
    message = d.find_element(By.CSS_SELECTOR, "#violations li[data-code='forbidden']").text
    assert "Pot of Greed" in message and "remove" in message
    row = d.find_element(By.CSS_SELECTOR, f"#main li[data-passcode='{POT_OF_GREED}']")
    wait.until(lambda _: "bad" in row.get_attribute("class"))
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
    d.find_element(By.CSS_SELECTOR, f"#extra li[data-passcode='{fusion.passcode}'] .minus").click()
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
    d.find_element(By.CSS_SELECTOR, f"#main li[data-passcode='{POT_OF_GREED}'] .minus").click()
    wait.until(lambda _: verdict() == "LEGAL")
    assert not d.find_elements(By.CSS_SELECTOR, "#violations li.error")

    # export as ydke: the same deck as the file imported
    d.find_element(By.ID, "export-ydke").click()
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
