"""The batch report as one self-contained HTML page, for organisers and judges.

The page holds the summary counts, then one card per deck that needs attention (unreadable and
illegal decks first, then duplicates), each finding with its fix, then a table of every
registration that sorts by any column on a click. It has no external assets (styles and the
small sorting script are inline, and a Content-Security-Policy forbids loading anything), and
every string from outside (file names, player names, deck names, messages) is HTML-escaped.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from deckcheck.reporter.csv import Row, registration_of
from deckcheck.reporter.text import clean
from deckcheck.run.row import Checked
from deckcheck.source.record import Unreadable
from deckcheck.validation.report import CODE_FIX, Code

if TYPE_CHECKING:
    from deckcheck.run.batch import Batch


def fix_for(code: Code) -> str:
    """What to do about a finding of ``code`` (the HTML report shows it beside the message)."""
    return CODE_FIX[code]


_STYLE = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem auto;
max-width:72rem;padding:0 1rem;color:#1d1d1f;background:#fff}
h1{font-size:1.6rem;margin:0 0 .3rem}h2{font-size:1.2rem;margin:2rem 0 .6rem}
.meta{color:#555;margin:0 0 1rem}
.counts{display:flex;flex-wrap:wrap;gap:.6rem;margin:1rem 0}
.count{border:1px solid #ddd;border-radius:8px;padding:.5rem .9rem;min-width:6.5rem}
.count b{display:block;font-size:1.5rem}
.legal{color:#176b2c}.illegal,.unreadable{color:#b3261e}.duplicate{color:#8a5a00}
.deck{border:1px solid #ddd;border-left:6px solid #b3261e;border-radius:6px;padding:.6rem 1rem;
margin:.7rem 0}
.deck.duplicate{border-left-color:#c98a00}
.deck h3{font-size:1.05rem;margin:.1rem 0 .4rem;overflow-wrap:anywhere}
.deck ul{margin:.2rem 0;padding-left:1.2rem}.deck li{margin:.25rem 0}
.code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85em;background:#f3f3f3;
padding:0 .3em;border-radius:3px}
.fix{color:#444}.fix::before{content:"Fix: ";font-weight:600}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{border-bottom:1px solid #e5e5e5;padding:.35rem .5rem;text-align:left;vertical-align:top}
td{overflow-wrap:anywhere}
th{background:#f6f6f6;cursor:pointer;user-select:none;position:sticky;top:0}
th[aria-sort=ascending]::after{content:" \\25B2"}th[aria-sort=descending]::after{content:" \\25BC"}
td.num{text-align:right;font-variant-numeric:tabular-nums}
"""

_SCRIPT = """
document.querySelectorAll("table.sortable th").forEach(function (th, col) {
  th.addEventListener("click", function () {
    var table = th.closest("table"), body = table.tBodies[0];
    var asc = th.getAttribute("aria-sort") !== "ascending";
    table.querySelectorAll("th").forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col].getAttribute("data-v") || a.cells[col].textContent;
      var y = b.cells[col].getAttribute("data-v") || b.cells[col].textContent;
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return asc ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
"""

_ORDER = {"unreadable": 0, "illegal": 1, "duplicate": 2, "legal": 3}


def _e(text: object) -> str:
    """``text`` escaped for HTML; control and bidi-override characters and undecodable
    file-name bytes shown as escapes (``\\x1b``, ``\\xNN``)."""
    value = str(text)
    if not value.isprintable() or not value.isascii():
        value = clean(value)
    return html.escape(value, quote=True)


def _who(row: Row) -> str:
    reg = registration_of(row)
    parts = []
    if reg is not None:
        if reg.player:
            parts.append(reg.player)
        if reg.player_id:
            parts.append(f"#{reg.player_id}")
        parts.append(f"row {reg.row}")
    return " · ".join(parts)


def _card(row: Row) -> str:
    from deckcheck.source.registration import status_of

    status = status_of(row).value
    who = _who(row)
    title = row.name if not isinstance(row, Unreadable) and row.name else row.path
    head = f"{_e(title or '<deck>')}"
    if who:
        head += f" <small>({_e(who)})</small>"
    lines = [f'<section class="deck {status}"><h3><span class="{status}">'
             f"{status.upper()}</span> {head}</h3>"]  # fmt: skip
    if not isinstance(row, Unreadable) and row.name and row.path:
        lines.append(f'<div class="meta">{_e(row.path)}</div>')
    items: list[str] = []
    reg = registration_of(row)
    if reg is not None and reg.duplicate_of is not None:
        items.append(
            f"<li>Player id {_e(reg.player_id)} was already registered on row "
            f'{reg.duplicate_of}.<div class="fix">Keep one registration per player.</div></li>'
        )
    if not isinstance(row, Unreadable):
        for v in row.violations:
            if v.severity.value == "note":
                continue
            where = f" (line {v.line})" if v.line is not None else ""
            sec = f"[{_e(v.section)}] " if v.section else ""
            items.append(
                f'<li><span class="code">{_e(v.code.value)}</span> '
                f'<span class="{"illegal" if v.severity.value == "error" else "duplicate"}">'
                f"{_e(v.severity.value)}</span> {sec}{_e(v.message)}{_e(where)}"
                f'<div class="fix">{_e(fix_for(v.code))}</div></li>'
            )
    else:
        items.append(
            f'<li>{_e(row.error)}<div class="fix">Ask for a readable deck file '
            "(.ydk, ydke:// URL, text list, Omega code or deckcheck JSON).</div></li>"
        )
    lines.append("<ul>" + "".join(items) + "</ul></section>")
    return "\n".join(lines)


def batch_html(batch: Batch) -> str:
    """The HTML report of a batch (a complete page)."""
    from deckcheck.reporter.csv import rows
    from deckcheck.source.registration import status_of

    table = rows(batch)
    s = batch.summary
    order = sorted(range(len(table)), key=lambda i: (_ORDER[status_of(table[i]).value], i))
    attention = [table[i] for i in order if status_of(table[i]).value != "legal"]
    counts = [
        ("registrations", len(table), ""), ("legal", s.legal, "legal"),
        ("illegal", s.illegal, "illegal"), ("unreadable", s.unreadable, "unreadable"),
        ("duplicates", s.duplicates, "duplicate"), ("errors", s.errors, ""),
        ("warnings", s.warnings, ""),
    ]  # fmt: skip
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>deckcheck: {_e(batch.format)} on {batch.date.isoformat()}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>Deck registrations: {_e(batch.format)}, {batch.date.isoformat()}</h1>",
        f'<p class="meta">Checked by deckcheck against data as of '
        f"{batch.data_as_of.isoformat() if batch.data_as_of else 'unknown'}"
        f" (fingerprint {_e((batch.data_fingerprint or '')[:16])}).</p>",
        '<div class="counts">'
        + "".join(f'<div class="count {cls}"><b>{n}</b>{label}</div>' for label, n, cls in counts)
        + "</div>",
        f"<h2>Needs attention ({len(attention)})</h2>",
    ]
    if attention:
        out.extend(_card(r) for r in attention)
    else:
        out.append('<p class="legal">Every registered deck is legal.</p>')
    out.append("<h2>All registrations</h2>")
    head = ["Row", "Player id", "Player", "Deck", "Source", "Status", "Errors", "Warnings",
            "Main", "Extra", "Side", "Codes", "Fingerprint"]  # fmt: skip
    out.append('<table class="sortable"><thead><tr>'
               + "".join(f'<th scope="col">{h}</th>' for h in head)
               + "</tr></thead><tbody>")  # fmt: skip
    for i, r in enumerate(table):
        reg = registration_of(r)
        status = status_of(r).value
        cells = [
            f'<td class="num" data-v="{reg.row if reg else i + 1}">{reg.row if reg else ""}</td>',
            f"<td>{_e(reg.player_id) if reg else ''}</td>",
            f"<td>{_e(reg.player) if reg else ''}</td>",
        ]
        if not isinstance(r, Unreadable):
            errors = len(r.errors)
            warnings = sum(v.severity.value == "warning" for v in r.violations)
            c = r.counts
            codes = " ".join(dict.fromkeys(v.code.value for v in r.violations))
            cells += [
                f"<td>{_e(r.name or '')}</td>", f"<td>{_e(r.path or '')}</td>",
                f'<td class="{status}" data-v="{_ORDER[status]}{status}">{status}</td>',
                f'<td class="num">{errors}</td>', f'<td class="num">{warnings}</td>',
                f'<td class="num">{c["main"]}</td>', f'<td class="num">{c["extra"]}</td>',
                f'<td class="num">{c["side"]}</td>', f"<td>{_e(codes)}</td>",
                f'<td class="code">{_e(r.fingerprint if isinstance(r, Checked) else "")}</td>',
            ]  # fmt: skip
        else:
            cells += [
                "<td></td>", f"<td>{_e(r.path)}</td>",
                f'<td class="{status}" data-v="{_ORDER[status]}{status}">{status}</td>',
                *(["<td></td>"] * 5), f"<td>{_e(r.error)}</td>", "<td></td>",
            ]  # fmt: skip
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    out.append(f"<script>{_SCRIPT}</script></body></html>")
    return "\n".join(out) + "\n"
