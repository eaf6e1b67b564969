"""The batch report as one self-contained HTML page, for organisers and judges.

The page holds the summary counts, then one card per deck that needs attention (unreadable and
illegal decks first, then duplicates), each finding with its fix, then a table of every
registration that sorts by any column on a click. It has no external assets (styles and the
small sorting script are inline, and a Content-Security-Policy forbids loading anything), and
every string from outside (file names, player names, deck names, messages) is HTML-escaped.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from deckcheck.reporter.csv import Row, registration_of
from deckcheck.reporter.text import clean
from deckcheck.run.row import Checked
from deckcheck.source.record import Unreadable, UnreadableReason
from deckcheck.validation.report import CODE_FIX, Code

if TYPE_CHECKING:
    from deckcheck.reporter.i18n import Localizer
    from deckcheck.run.batch import Batch
    from deckcheck.run.meta import Metagame


def unreadable_fix(row: Unreadable, lang: str = "en") -> str:
    """What to do about a registration whose deck could not be read (in ``lang``)."""
    from deckcheck.reporter.i18n import t

    reg = row.registration
    if reg is not None and row.code is UnreadableReason.BAD_DECK_PATH:
        return t(lang, "html.fix_path", row=reg.row, file=reg.file)
    if reg is not None and row.code is UnreadableReason.NO_DECK_GIVEN:
        return t(lang, "html.fix_column", row=reg.row, file=reg.file)
    return t(lang, "html.unreadable_fix")


def fix_for(code: Code) -> str:
    """What to do about a finding of ``code`` (the HTML report shows it beside the message)."""
    return CODE_FIX[code]


_STYLE = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem auto;
max-width:80rem;padding:0 1rem;color:#1d1d1f;background:#fff}
h1{font-size:1.6rem;margin:0 0 .3rem}h2{font-size:1.2rem;margin:2rem 0 .6rem}
.meta{color:#555;margin:0 0 1rem}
.counts{display:flex;flex-wrap:wrap;gap:.6rem;margin:1rem 0}
.count{border:1px solid #ddd;border-radius:8px;padding:.5rem .9rem;min-width:6.5rem}
.count b{display:block;font-size:1.5rem}
.legal{color:#176b2c}.illegal,.unreadable{color:#b3261e}.duplicate{color:#8a5a00}
.deck{border:1px solid #ddd;border-left:6px solid #b3261e;border-radius:6px;padding:.6rem 1rem;
margin:.7rem 0}
.deck.duplicate{border-left-color:#c98a00}
.deck h3{font-size:1.05rem;margin:.1rem 0 .4rem;overflow-wrap:break-word}
.deck li,.deck .meta{overflow-wrap:break-word}
.deck ul{margin:.2rem 0;padding-left:1.2rem}.deck li{margin:.25rem 0}
.code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85em;background:#f3f3f3;
padding:0 .3em;border-radius:3px}
.fix{color:#444}.fix::before{content:"%FIX% ";font-weight:600}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{border-bottom:1px solid #e5e5e5;padding:.35rem .5rem;text-align:left;vertical-align:top}
td{overflow-wrap:break-word}
.tok{overflow-wrap:anywhere;word-break:break-all}
td.id,td.fp,td.cards,.nw{white-space:nowrap}
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


def _who(row: Row, loc: Localizer) -> str:
    reg = registration_of(row)
    parts = []
    if reg is not None:
        if reg.player:
            parts.append(reg.player)
        if reg.player_id:
            parts.append(f"#{reg.player_id}")
        parts.append(loc.t("html.row_label", row=reg.row))
    return " · ".join(parts)


_FIXED: dict[tuple[str, str], str] = {}
"""(language, catalog key) -> the message escaped: the fixed texts a report repeats per deck."""


def _fixed(loc: Localizer, key: str) -> str:
    """``_e(loc.t(key))`` for a message without fields, worked out once per language."""
    got = _FIXED.get((loc.lang.value, key))
    if got is None:
        got = _FIXED[(loc.lang.value, key)] = _e(loc.t(key))
    return got


def _status(status: str, loc: Localizer) -> str:
    return status.upper() if loc.lang.value == "en" else loc.t(f"status.{status}")


def _card(row: Row, loc: Localizer) -> str:
    from deckcheck.source.registration import status_of

    status = status_of(row).value
    who = _who(row, loc)
    title = row.name if not isinstance(row, Unreadable) and row.name else row.path
    head = f"{_e(title or '<deck>')}"
    if who:
        head += f" <small>({_e(who)})</small>"
    lines = [
        f'<section class="deck {status}"><h3><span class="{status}">'
        f"{_e(_status(status, loc))}</span> {head}</h3>"
    ]
    if not isinstance(row, Unreadable) and row.name and row.path:
        lines.append(f'<div class="meta">{_e(row.path)}</div>')
    rep = row.report if isinstance(row, Checked) else row
    if not isinstance(rep, Unreadable) and rep.point_cap is not None:  # Genesys
        made = ", ".join(c.label() for c in rep.point_cards) or "no card with points"
        lines.append(
            f'<div class="meta points">{rep.points}/{rep.point_cap} points: {_e(made)}</div>'
        )
    items: list[str] = []
    reg = registration_of(row)
    if reg is not None and reg.duplicate_of is not None:
        said = loc.t("html.duplicate", player_id=_e(reg.player_id), row=reg.duplicate_of)
        items.append(f'<li>{said}<div class="fix">{_e(loc.t("html.duplicate_fix"))}</div></li>')
    if not isinstance(row, Unreadable):
        for v in row.violations:
            level = v.severity.value
            if level == "note":
                continue
            code = v.code.value
            where = f" ({loc.t('report.line', line=v.line)})" if v.line is not None else ""
            sec = f"[{_fixed(loc, f'section.{v.section}')}] " if v.section else ""
            items.append(
                f'<li><span class="code">{code}</span> '
                f'<span class="{"illegal" if level == "error" else "duplicate"}">'
                f"{_fixed(loc, f'severity.{level}')}</span> {sec}{_e(loc.violation(v))}"
                f'{_e(where)}<div class="fix">{_fixed(loc, f"fix.{code}")}</div></li>'
            )
    else:
        fix = unreadable_fix(row, loc.lang.value)
        items.append(
            f'<li><span class="code">{row.code.value}</span> {_e(row.error)}'
            f'<div class="fix">{_e(fix)}</div></li>'
        )
    lines.append("<ul>" + "".join(items) + "</ul></section>")
    return "\n".join(lines)


def _meta_style(meta: Metagame | None) -> str:
    if meta is None:
        return ""
    from deckcheck.reporter.meta import STYLE

    return STYLE


LONG_TOKEN = 24
"""Characters from which any token may break anywhere in the table."""
LONG_NAME = 12
"""Characters from which a token that is no plain word (a path, an e-mail address, a URL, a
code with digits) may break anywhere; plain words never break."""
_PLAIN = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*[.,;:!?)]*")


def _breakable(token: str) -> bool:
    return len(token) > LONG_TOKEN or (len(token) > LONG_NAME and not _PLAIN.fullmatch(token))


def _cell(text: object) -> str:
    """``text`` escaped, its long tokens marked (``tok``) so they may break anywhere, while
    plain words never break."""
    parts = []
    for token in str(text).split(" "):
        esc = _e(token)
        parts.append(f'<span class="tok">{esc}</span>' if _breakable(token) else esc)
    return " ".join(parts)


def _codes(codes: str) -> str:
    """Violation codes, each kept whole on its line (``wrong-section`` never breaks)."""
    return " ".join(f'<span class="nw">{_e(code)}</span>' for code in codes.split())


def _extra_columns(table: tuple[Row, ...]) -> list[str]:
    """The registration CSV's own columns (table, e-mail...), in their order."""
    extra: dict[str, None] = {}
    for r in table:
        reg = registration_of(r)
        if reg is not None:
            for key, _ in reg.fields:
                extra.setdefault(key, None)
    return list(extra)


def _row(i: int, r: Row, extra: list[str], loc: Localizer) -> str:
    from deckcheck.source.registration import status_of

    reg = registration_of(r)
    status = status_of(r).value
    fields = dict(reg.fields) if reg is not None else {}
    cells = [
        f'<td class="num" data-v="{reg.row if reg else i + 1}">{reg.row if reg else ""}</td>',
        f'<td class="id">{_e(reg.player_id) if reg else ""}</td>',
        f"<td>{_cell(reg.player) if reg else ''}</td>",
        *(f"<td>{_cell(fields.get(k, ''))}</td>" for k in extra),
    ]
    shown = _fixed(loc, f"status.{status}")
    state = f'<td class="{status}" data-v="{_ORDER[status]}{status}">{shown}</td>'
    if not isinstance(r, Unreadable):
        warnings = sum(v.severity.value == "warning" for v in r.violations)
        c = r.counts
        codes = " ".join(dict.fromkeys(v.code.value for v in r.violations))
        cells += [
            f"<td>{_cell(r.name or '')}</td>",
            f"<td>{_cell(r.path or '')}</td>",
            state,
            f'<td class="num">{len(r.errors)}</td>',
            f'<td class="num">{warnings}</td>',
            f'<td class="num cards" data-v="{c["main"]}">{c["main"]}/{c["extra"]}/{c["side"]}</td>',
            f"<td>{_codes(codes)}</td>",
            f'<td class="code fp">{_e(r.fingerprint if isinstance(r, Checked) else "")}</td>',
        ]
    else:
        cells += [
            "<td></td>",
            f"<td>{_cell(r.path)}</td>",
            state,
            *(["<td></td>"] * 3),
            f"<td>{_cell(r.error)}</td>",
            "<td></td>",
        ]
    return "<tr>" + "".join(cells) + "</tr>"


def _table(table: tuple[Row, ...], loc: Localizer) -> list[str]:
    """The sortable table of every registration (the CSV's own columns after the player)."""
    extra = _extra_columns(table)
    cols = [loc.t(f"col.{c}") for c in ("row", "player_id", "player")]
    rest = [
        loc.t(f"col.{c}")
        for c in ("deck", "source", "status", "errors", "warnings", "cards", "codes", "fingerprint")
    ]
    head = [*cols, *extra, *rest]
    out = [
        '<table class="sortable"><thead><tr>'
        + "".join(f'<th scope="col">{_e(h)}</th>' for h in head)
        + "</tr></thead><tbody>"
    ]
    out += [_row(i, r, extra, loc) for i, r in enumerate(table)]
    out.append("</tbody></table>")
    return out


def _counts(batch: Batch, registrations: int, loc: Localizer) -> str:
    """The summary counts: legal + illegal + unreadable = the registrations; duplicates are
    counted among them (a duplicate is also legal, illegal or unreadable)."""
    s = batch.summary
    counts = [
        ("registrations", registrations, ""),
        ("legal", s.legal, "legal"),
        ("illegal", s.illegal, "illegal"),
        ("unreadable", s.unreadable, "unreadable"),
        ("of_duplicates", s.duplicates, "duplicate"),
        ("errors", s.errors, ""),
        ("warnings", s.warnings, ""),
    ]
    if s.skipped:
        counts.append(("skipped", s.skipped, ""))
    return (
        '<div class="counts">'
        + "".join(
            f'<div class="count {cls}"><b>{n}</b>{_e(loc.t(f"count.{label}"))}</div>'
            for label, n, cls in counts
        )
        + "</div>"
    )


def _head(batch: Batch, meta: Metagame | None, loc: Localizer, registrations: int) -> list[str]:
    """The page's head, title, data line and summary counts."""
    when = batch.date.isoformat()
    as_of = batch.data_as_of.isoformat() if batch.data_as_of else loc.t("html.unknown")
    lang = {"en": "en", "ja": "ja", "zh": "zh-CN"}[loc.lang.value]
    style = _STYLE.replace("%FIX%", loc.t("html.fix"))
    checked = loc.t(
        "html.checked", as_of=as_of, fingerprint=_e((batch.data_fingerprint or "")[:16])
    )
    return [
        "<!DOCTYPE html>",
        f'<html lang="{lang}"><head><meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{loc.t('html.title', format=_e(batch.format), date=when)}</title>",
        f"<style>{style}{_meta_style(meta)}</style></head><body>",
        f"<h1>{loc.t('html.heading', format=_e(batch.format), date=when)}</h1>",
        f'<p class="meta">{checked} {_e(loc.t("html.adds_up"))}</p>',
        _counts(batch, registrations, loc),
    ]


def batch_html(batch: Batch, meta: Metagame | None = None, *, lang: str = "en") -> str:
    """The HTML report of a batch (a complete page), headings and messages in ``lang``;
    ``meta`` adds the metagame section."""
    from deckcheck.reporter.csv import rows
    from deckcheck.reporter.i18n import localizer
    from deckcheck.source.registration import status_of

    loc = localizer(lang)
    table = rows(batch)
    order = sorted(range(len(table)), key=lambda i: (_ORDER[status_of(table[i]).value], i))
    attention = [table[i] for i in order if status_of(table[i]).value != "legal"]
    out = _head(batch, meta, loc, len(table))
    out.append(f"<h2>{_e(loc.t('html.attention', n=len(attention)))}</h2>")
    if attention:
        out.extend(_card(r, loc) for r in attention)
    else:
        out.append(f'<p class="legal">{_e(loc.t("html.all_legal"))}</p>')
    if batch.skipped:
        out.append(f"<h2>{_e(loc.t('html.skipped', n=len(batch.skipped)))}</h2><ul>")
        out += [
            f'<li>{_cell(k.path)}: <span class="code">{k.code.value}</span> {_e(k.reason)}</li>'
            for k in batch.skipped[:200]
        ]
        out.append("</ul>")
    if meta is not None:
        from deckcheck.reporter.meta import meta_section

        out.append(meta_section(meta))
    out.append(f"<h2>{_e(loc.t('html.all'))}</h2>")
    out += _table(table, loc)
    out.append(f"<script>{_SCRIPT}</script></body></html>")
    return "\n".join(out) + "\n"
