"""The builder in Japanese and Chinese and its "Print decklist" view, in a real headless Chromium.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them); where they are
missing the test is skipped and says why. Screenshots are saved in the test's tmp folder.
"""

from __future__ import annotations

import base64
import io
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import deckcheck

ROOT = Path(__file__).resolve().parent.parent
LEGAL = ROOT / "examples" / "tcg-legal.ydk"
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


CYBER_DRAGON = 70095154
POT_OF_GREED = 55144522


@pytest.fixture()
def browser_in() -> Iterator[Callable[[str], Any]]:
    """Start Chromium whose browser language is the one given."""
    reason = _missing()
    if reason is not None:
        print(f"SKIPPED browser test: {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    started: list[tuple[Any, str]] = []

    def start(lang: str) -> Any:
        options = Options()
        options.binary_location = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--lang={lang}")
        options.add_experimental_option("prefs", {"intl.accept_languages": lang})
        profile = tempfile.mkdtemp(prefix="deckcheck-chromium-")
        options.add_argument(f"--user-data-dir={profile}")
        path = CHROMEDRIVER if Path(CHROMEDRIVER).exists() else shutil.which("chromedriver")
        driver = webdriver.Chrome(service=Service(path), options=options)
        started.append((driver, profile))
        return driver

    try:
        yield start
    finally:
        for driver, profile in started:
            driver.quit()
            shutil.rmtree(profile, ignore_errors=True)


def _open_with_deck(d: Any, url: str) -> Any:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    # the page re-renders the deck when a check answers: an element may go stale in between
    wait = WebDriverWait(d, 20, ignored_exceptions=[StaleElementReferenceException])
    d.get(f"{url}/")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#format option[value='goat']"))
    d.execute_script(
        "const e = document.getElementById('date'); e.value = arguments[0];"
        "e.dispatchEvent(new Event('change'));",
        ON,
    )
    d.find_element(By.ID, "io").send_keys(LEGAL.read_text(encoding="utf-8"))
    d.find_element(By.ID, "import").click()
    wait.until(lambda d: d.find_element(By.ID, "count-main").text == "40")
    return wait


def _text(d: Any, css: str) -> str:
    """The text of the element ``css`` names, found again if a re-render swaps it out
    while it is read."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    got: list[str] = []

    def read(d: Any) -> bool:
        got.append(str(d.find_element(By.CSS_SELECTOR, css).text))
        return True

    WebDriverWait(d, 20, ignored_exceptions=[StaleElementReferenceException]).until(read)
    return got[-1]


def test_builder_in_japanese_and_chinese_and_the_print_view(
    browser_in: Callable[[str], Any], live_server: str, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    index = deckcheck.Dataset.active().cards
    cyber = index.get(CYBER_DRAGON)
    d = browser_in("ja")
    wait = _open_with_deck(d, live_server)
    # the browser's language picks Japanese
    assert d.execute_script("return document.documentElement.lang") == "ja"
    assert d.find_element(By.ID, "ui-lang").get_attribute("value") == "ja"
    wait.until(lambda _: _text(d, "#verdict") == "使用可")
    assert _text(d, "h1 span") == "デッキビルダー"
    assert "メインデッキ" in _text(d, "[data-section='main'] h3")
    assert _text(d, f"#main li[data-passcode='{CYBER_DRAGON}'] .name") == cyber.name_ja
    assert d.find_element(By.ID, "search").get_attribute("placeholder").startswith("検索")
    d.execute_script("window.scrollTo(0, 0)")
    d.save_screenshot(str(tmp_path / "builder-ja.png"))

    # switched to Chinese in the header; names and interface follow
    d.execute_script(
        "const s = document.getElementById('ui-lang'); s.value = 'zh';"
        "s.dispatchEvent(new Event('change'));"
    )
    wait.until(lambda _: _text(d, "#verdict") == "合规")
    assert d.execute_script("return document.documentElement.lang") == "zh-Hans"
    # the deck's names re-render after the language switch: wait for them, then compare
    name = f"#main li[data-passcode='{CYBER_DRAGON}'] .name"
    wait.until(lambda _: _text(d, name) != cyber.name_ja)
    assert _text(d, name) == cyber.name_zh
    assert _text(d, "#import") == "导入"
    d.save_screenshot(str(tmp_path / "builder-zh.png"))

    # the print view, in Chinese: every card with its count, the totals, the verdict
    d.find_element(By.ID, "print-open").click()
    wait.until(lambda _: d.find_element(By.ID, "print-view").is_displayed())
    assert not d.find_element(By.ID, "deck-panel").is_displayed()
    deck = deckcheck.read_path(LEGAL)
    for section in (deck.main, deck.extra, deck.side):
        for code, n in Counter(c.passcode for c in section).items():
            card = index.get(code)
            row = f"#print-view tr[data-passcode='{code}']"
            assert _text(d, f"{row} td.qty") == str(n)
            assert _text(d, f"{row} td.card") == (card.name_zh or card.name + " *")
    kinds = Counter(c.card.kind.value for c in deck.main if c.card)
    for group, total in (
        ("monster", kinds["Monster"]),
        ("spell", kinds["Spell"]),
        ("trap", kinds["Trap"]),
        ("extra", len(deck.extra)),
        ("side", len(deck.side)),
    ):
        assert _text(d, f"#print-view table[data-group='{group}'] tfoot") == f"合计: {total}"
    assert _text(d, "#print-view h2") == "主卡组: 40"
    wait.until(lambda _: _text(d, "#print-view .verdict-box").startswith(f"{ON} 合规"))
    wait.until(lambda _: _text(d, "#print-view .ydke").startswith("ydke://"))
    url = _text(d, "#print-view .ydke")
    assert deckcheck.fingerprint_deck(deckcheck.read_deck(url)) == deckcheck.fingerprint_deck(deck)
    d.find_element(By.ID, "print-player").send_keys("王小明")
    d.save_screenshot(str(tmp_path / "print-zh.png"))

    # on paper: the print stylesheet leaves the toolbar and the builder out
    from pypdf import PdfReader

    pdf = PdfReader(io.BytesIO(base64.b64decode(d.print_page())))
    text = "\n".join(page.extract_text() for page in pdf.pages)
    assert cyber.name_zh in text and "卡组登记表" in text
    assert "打印" not in text and "导入" not in text

    # back to the builder: a Forbidden card, its message in Chinese
    d.find_element(By.ID, "print-close").click()
    pot = index.get(POT_OF_GREED)
    d.find_element(By.ID, "search").send_keys(pot.name_zh)
    hit = f"#results li[data-passcode='{POT_OF_GREED}'] .card-name"
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, hit))
    d.find_element(By.CSS_SELECTOR, hit).click()
    wait.until(lambda _: _text(d, "#verdict") == "不合规")
    forbidden = "#violations li[data-code='forbidden']"
    # the message in Chinese names the list, as the English one does
    said = f"{pot.name_zh} 在 2025-04-07 TCG 禁限卡表中为禁止卡"
    wait.until(lambda _: said in _text(d, forbidden))
    print(f"screenshots: {tmp_path}")
