"""The HTML batch report in a real headless Chromium: it renders, and its table sorts."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="Chromium is not installed (CI installs it: see .ci/run)",
)


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None, "Chromium is required in CI"
    return subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture()
def report(tmp_path: Path, cli) -> Path:  # type: ignore[no-untyped-def]
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "legal.ydk").write_bytes((ROOT / "examples" / "tcg-legal.ydk").read_bytes())
    (decks / "problems.ydk").write_bytes((ROOT / "examples" / "problems.ydk").read_bytes())
    (decks / "junk.ydk").write_bytes(b"\0junk")
    regs = tmp_path / "regs.csv"
    regs.write_text(
        "player_id,player,deck\n3,Carol <script>alert(1)</script>,decks/legal.ydk\n"
        "1,Alice,decks/problems.ydk\n2,Bob,decks/junk.ydk\n1,Alice again,decks/legal.ydk\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    assert cli("batch", str(regs), "-d", "2025-06-01", "--out", str(out)).code == 2
    return out / "report.html"


def test_the_page_renders(report: Path, tmp_path: Path) -> None:
    import matplotlib.image

    shot = tmp_path / "shot.png"
    res = _chromium(tmp_path, "--window-size=1200,1600", f"--screenshot={shot}", report.as_uri())
    assert shot.exists(), res.stderr[-2000:]
    pixels = matplotlib.image.imread(str(shot))
    assert pixels.shape[:2] == (1600, 1200)
    top = pixels[:200, :, :3]
    assert top.std() > 0.05  # a heading and the counts, not a blank page
    assert (top.min(axis=2) < 0.3).mean() > 0.005  # dark text on the page


def test_the_table_sorts_and_nothing_runs_from_the_data(report: Path, tmp_path: Path) -> None:
    page = report.read_text(encoding="utf-8")
    probe = """<script>
    var heads = document.querySelectorAll("table.sortable th");
    function column(i) {
      return Array.prototype.map.call(document.querySelectorAll("table.sortable tbody tr"),
        function (r) { return r.cells[i].textContent; });
    }
    heads[2].click(); var up = column(2);
    heads[2].click(); var down = column(2);
    heads[0].click(); var rows = column(0);
    document.title = "PROBE" + JSON.stringify({up: up, down: down, rows: rows,
                                               alerts: window.alerted || 0});
    </script></body>"""
    test = tmp_path / "probe.html"
    test.write_text(
        page.replace(
            "<head>", "<head><script>window.alert=function(){window.alerted=1};</script>", 1
        ).replace("</body>", probe),
        encoding="utf-8",
    )
    res = _chromium(tmp_path, "--virtual-time-budget=3000", "--dump-dom", test.as_uri())
    found = re.search(r"<title>PROBE(.*?)</title>", res.stdout, re.S)
    assert found, res.stderr[-2000:]
    got = json.loads(
        found.group(1)
        .replace("&quot;", '"')
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
    )
    players = ["Alice", "Alice again", "Bob", "Carol <script>alert(1)</script>"]
    assert got["up"] == players
    assert got["down"] == players[::-1]
    assert got["rows"] == ["2", "3", "4", "5"]  # CSV lines, numerically
    assert got["alerts"] == 0  # the player's name is text, never markup
