"""Every UI language on a 360 px phone, in a real headless Chromium: the deck builder and the
batch HTML report fit the screen (nothing scrolls sideways; tables scroll in their own box),
and no English word is left in the Japanese, Chinese and Korean interfaces (card names,
format names and other data are the data's own)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_service_browser import browser as _browser  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
PROBLEMS = ROOT / "examples" / "problems.ydk"
LEGAL = ROOT / "examples" / "tcg-legal.ydk"
ON = "2025-06-01"
LANGS = ("ja", "zh", "ko")
LOCAL = {"ja": r"[\u3040-\u30ff\u4e00-\u9fff]", "zh": r"[\u4e00-\u9fff]", "ko": r"[\uac00-\ud7a3]"}
ALLOWED = {
    # proper nouns, file formats and codes that every language writes as they are
    "deckcheck",
    "ydk",
    "ydke",
    "URL",
    "TCG",
    "OCG",
    "JSON",
    "json",
    "omega",
    "Omega",
    "PDF",
    "QR",
    "API",
    "MiB",
    "CSV",
    "Ash",
    "Blossom",
    "macOS",
    "gitignore",
}

# the text a person reads: text nodes and the attributes people see or hear, outside data
# (card names, format names, the data's fingerprint, codes, and the elements marked as data)
PROBE = """
const skip = arguments[0];
const out = {sw: document.documentElement.scrollWidth, iw: window.innerWidth, texts: []};
const walker = document.createTreeWalker(document.body,
  NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
function data(el) { return !el || el.closest(skip) !== null; }
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  if (n.nodeType === Node.TEXT_NODE) {
    const el = n.parentElement;
    const text = n.nodeValue.trim();
    if (!data(el) && text && el.closest("script,style") === null) out.texts.push(text);
  } else if (!data(n)) {  // the attributes people see or hear
    for (const a of ["placeholder", "title", "aria-label", "label"]) {
      const v = n.getAttribute(a);
      if (v && v.trim()) out.texts.push(v.trim());
    }
  }
}
return out;
"""

BUILDER_DATA = ", ".join(
    (
        "[data-no-i18n]",
        "#ui-lang",
        "#format option",
        "#format optgroup",
        "#results .en",
        "#results .sub",
        ".cards .name",
        ".cards img",
        "#as-of",
        "#violations",
        "#deck-name",
        ".category header strong",
        ".category .picks label",
        "#odds td:first-child",
        "#chart",
        "#io",
        "#io-notes",
        "#search",
        "#region option",
    )
)
"""What the builder shows from the data (names, formats, messages checked on their own)."""

REPORT_DATA = "td, .code, h3, .deck li, .deck > .meta, th.own, .meta-bar span, title"
"""What the report shows from the data (deck names, paths, player names, the CSV's own
column names, codes, messages checked on their own)."""


LOCAL_SCRIPT = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3\uff01-\uff5e]")


def _english(texts: list[str]) -> list[str]:
    """The texts left in English: an English word (two or more Latin letters, not an allowed
    name) and nothing in the language's script. (A translated template keeps the data it
    names, a card's English name say, beside words of the language.)"""
    found = []
    for text in texts:
        words = [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in ALLOWED]
        if words and not LOCAL_SCRIPT.search(text):
            found.append(text)
    return found


@pytest.fixture()
def phone(_browser: Any) -> Iterator[Any]:  # noqa: F811
    _browser.set_window_size(360, 800)
    yield _browser


def _fits(d: Any) -> None:
    got = d.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert got[1] <= 400, got  # the window really is a phone's
    assert got[0] <= got[1], f"the page is {got[0]} px wide on a {got[1]} px screen"


@pytest.mark.parametrize("lang", LANGS)
def test_builder_on_a_phone_in_every_language(phone: Any, live_server: str, lang: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    d = phone
    wait = WebDriverWait(d, 20)
    d.get(f"{live_server}/")
    d.execute_script("localStorage.setItem('deckcheck.lang', arguments[0])", lang)
    d.get(f"{live_server}/")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#format option[value='goat']"))
    assert d.execute_script("return document.documentElement.lang") in (lang, "zh-Hans")
    # the TCG region choice is offered for a TCG format, not for an OCG one
    assert d.find_element(By.ID, "tcg-region-choice").is_displayed()
    d.execute_script(
        "const e = document.getElementById('date'); e.value = arguments[0];"
        "e.dispatchEvent(new Event('change'));",
        ON,
    )
    d.find_element(By.ID, "io").send_keys(PROBLEMS.read_text(encoding="utf-8"))
    d.find_element(By.ID, "import").click()
    wait.until(lambda d: d.find_element(By.ID, "verdict").get_attribute("data-state") == "illegal")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#violations li[data-code]"))
    d.find_element(By.ID, "search").send_keys("Dragon")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results li .card-name"))
    d.find_element(By.ID, "new-category").send_keys("starter")
    d.find_element(By.ID, "add-category").click()
    d.find_elements(By.CSS_SELECTOR, ".category .picks input")[0].click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#odds table"))
    # the odds' sample hands (going, each turn's draws, what they meet) are read too
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#samples li"))
    # the sample hands name their cards in the language (the deck's cards all have names in it)
    names = d.execute_script(
        "return [...document.querySelectorAll('#samples li')].map((li) => li.textContent)"
    )
    assert names and not any("Pot of Greed" in n or "Cyber Dragon" in n for n in names), names
    got = d.execute_script(PROBE, BUILDER_DATA)
    assert len(got["texts"]) > 40
    assert _english(got["texts"]) == [], (lang, _english(got["texts"]))
    # messages from the service: in the language (card and list names stay the data's)
    local = re.compile(LOCAL[lang])
    # read in one go (the list re-renders when a check answers: a held element may go stale)
    texts = d.execute_script(
        "return [...document.querySelectorAll('#violations li[data-code]')]"
        ".map((li) => li.innerText)"
    )
    assert texts
    for text in texts:
        assert local.search(text), text
    _fits(d)
    # an OCG timeline has no North America / Europe
    d.execute_script(
        "const e = document.getElementById('region'); e.value = 'ocg';"
        "e.dispatchEvent(new Event('change'));"
    )
    wait.until(lambda d: not d.find_element(By.ID, "tcg-region-choice").is_displayed())
    _fits(d)


@pytest.mark.parametrize("lang", LANGS)
def test_html_report_on_a_phone_in_every_language(
    phone: Any, cli: Callable[..., Any], tmp_path: Path, lang: str
) -> None:
    from selenium.webdriver.common.by import By

    decks = tmp_path / "decks"
    decks.mkdir()
    shutil.copy(PROBLEMS, decks / "problems.ydk")
    shutil.copy(LEGAL, decks / "legal.ydk")
    (decks / "notes.md").write_text("# not a deck\n\nsome words\n", encoding="utf-8")
    regs = tmp_path / "regs.csv"
    regs.write_text(
        "player_id,player,deck,table,email\n"
        "0301234567,Ada Lovelace,decks/problems.ydk,12,ada@example.org\n"
        "0307654321,Alan Turing,decks/legal.ydk,13,alan@example.org\n"
        "0300000001,Grace Hopper,decks/missing.ydk,14,grace@example.org\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    res = cli("batch", str(regs), str(decks), "-d", ON, "--out", str(out), "--lang", lang, "-q")
    assert res.code in (1, 2), res.stderr
    page = out / "report.html"
    phone.get(page.as_uri())
    got = phone.execute_script(PROBE, REPORT_DATA)
    assert len(got["texts"]) > 20
    assert _english(got["texts"]) == [], (lang, _english(got["texts"]))
    local = re.compile(LOCAL[lang])
    for li in phone.find_elements(By.CSS_SELECTOR, ".deck li"):
        assert local.search(li.text), li.text  # every finding and fix in the language
    _fits(phone)
    # the registrations table is wider than the phone: it scrolls inside its own box
    box = phone.execute_script(
        "const t = document.querySelector('table.sortable');"
        "return [t.scrollWidth, t.parentElement.clientWidth, t.parentElement.className]"
    )
    assert box[2] == "scroll" and box[1] <= 360
