"""The HTML batch report at 1280 px in a real headless Chromium: a 400-character source never
makes the page scroll sideways, normal words are never broken, IDs and fingerprints never wrap."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.test_report_browser import ROOT, _chromium, pytestmark  # noqa: F401

PROBE = """<script>
(function () {
  var out = {sw: document.documentElement.scrollWidth, iw: window.innerWidth,
             broken: [], wrapped: [], cells: 0};
  function words(node, acc) {
    if (node.nodeType === 3) { acc.push(node); return; }
    if (node.classList && node.classList.contains("tok")) return;
    node.childNodes.forEach(function (c) { words(c, acc); });
  }
  document.querySelectorAll("td, .deck li, .deck h3").forEach(function (el) {
    out.cells++;
    var texts = [];
    words(el, texts);
    texts.forEach(function (t) {
      var re = /\\S+/g, m;
      while ((m = re.exec(t.data)) !== null) {
        if (m[0].length > 24) continue;
        var r = document.createRange();
        r.setStart(t, m.index); r.setEnd(t, m.index + m[0].length);
        if (r.getClientRects().length > 1) out.broken.push(m[0]);
      }
    });
    if (el.classList.contains("id") || el.classList.contains("fp")) {
      var all = document.createRange(); all.selectNodeContents(el);
      if (all.getClientRects().length > 1) out.wrapped.push(el.textContent);
    }
  });
  document.title = "PROBE" + JSON.stringify(out);
})();
</script></body>"""


def test_long_sources_never_scroll_the_page_sideways(
    tmp_path: Path, cli: Callable[..., Any]
) -> None:
    omega = ("0" + "A" * 199 + "/" + "B" * 199)[:400]  # a 400-character Omega-like code
    long_name = "decks/" + "very-long-deck-file-name-" * 8 + ".ydk"
    (tmp_path / "decks").mkdir()
    (tmp_path / long_name).write_bytes((ROOT / "examples" / "problems.ydk").read_bytes())
    (tmp_path / "decks" / "ok.ydk").write_bytes((ROOT / "examples" / "tcg-legal.ydk").read_bytes())
    regs = tmp_path / "regs.csv"
    regs.write_text(
        "player_id,player,deck,table,email,notes\n"
        f"0301234567,Ada Lovelace,{omega},12,ada@example.org,{'x' * 300}\n"
        f"0307654321,Alan Turing,{long_name},13,alan@example.org,unreadable duplicate\n"
        "0300000001,Grace Hopper,decks/ok.ydk,14,grace@example.org,registered late\n"
        "0301234567,Ada Lovelace,../../etc/passwd,15,ada@example.org,second try\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    assert cli("batch", str(regs), "-d", "2025-06-01", "--out", str(out)).code == 2
    page = (out / "report.html").read_text(encoding="utf-8")
    assert omega[:100] in page or "not a deck" in page  # the long source is on the page
    probe = tmp_path / "probe.html"
    probe.write_text(page.replace("</body>", PROBE), encoding="utf-8")
    res = _chromium(
        tmp_path,
        "--window-size=1280,3000",
        "--virtual-time-budget=3000",
        "--dump-dom",
        probe.as_uri(),
    )
    found = re.search(r"<title>PROBE(.*?)</title>", res.stdout, re.S)
    assert found, res.stderr[-2000:]
    got = json.loads(
        found.group(1)
        .replace("&quot;", '"')
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
    )
    assert got["iw"] == 1280 and got["cells"] > 40
    assert got["sw"] <= got["iw"], f"the page is {got['sw']} px wide"
    assert got["broken"] == [], "words broken mid-word"
    assert got["wrapped"] == [], "IDs or fingerprints wrapped"
