"""The metagame (:class:`deckcheck.run.meta.Metagame`) as text, JSON, CSV and HTML.

The HTML is one self-contained page (or, for ``report.html``, a section of it): a bar chart of
the archetypes drawn with inline CSS, then the tables; no external assets, every outside string
escaped.
"""

from __future__ import annotations

import csv
import html
import io
from typing import TYPE_CHECKING

from deckcheck.reporter.text import clean

if TYPE_CHECKING:
    from deckcheck.reporter.i18n import Localizer
    from deckcheck.run.meta import ArchetypeShare, CardUsage, Metagame

OUTPUTS = ("text", "json", "csv", "html")
"""The output formats of ``deckcheck meta``."""


def _pct(share: float) -> str:
    return f"{100 * share:.1f}%"


def meta_text(meta: Metagame) -> str:
    """The breakdown as terminal text (every outside string escaped)."""
    by_kind = {
        k: sum(a.decks for a in meta.archetypes if a.kind.value == k)
        for k in ("archetype", "hybrid", "rogue")
    }
    labels = sum(a.kind.value == "archetype" for a in meta.archetypes)
    lines = [
        f"{meta.decks} decks: {by_kind['archetype']} in {labels} archetype(s), "
        f"{by_kind['hybrid']} hybrid, {by_kind['rogue']} rogue",
        "",
        "Archetypes",
    ]
    width = max((len(a.label) for a in meta.archetypes), default=10)
    for a in meta.archetypes:
        lines.append(f"  {clean(a.label):<{width}}  {a.decks:>5}  {_pct(a.share):>6}")
    for title, cards in (
        ("Most played cards", meta.most_played),
        ("Main Deck staples (Main + Extra)", meta.main),
        ("Side Deck staples", meta.side),
    ):
        lines += ["", f"{title} (decks, share of decks, average copies)"]
        lines += _card_lines(cards) or ["  (none)"]
    if meta.unread_lines:
        lines += ["", f"Lines that name no card ({meta.unread_lines}, not counted)"]
        lines += [
            f"  {clean(e.source)}:{f.line}: {clean(f.text or f.message)} ({f.code.value})"
            for e in meta.entries
            for f in e.unread
        ]
    if meta.unreadable:
        lines += ["", f"Unreadable ({len(meta.unreadable)}, not counted)"]
        lines += [f"  {clean(u.error)} ({u.code.value})" for u in meta.unreadable]
    return "\n".join(lines) + "\n"


def _card_lines(cards: tuple[CardUsage, ...]) -> list[str]:
    width = max((len(c.name) for c in cards), default=10)
    return [
        f"  {clean(c.name):<{width}}  {c.decks:>5}  {_pct(c.share):>6}  {c.average:.2f}"
        for c in cards
    ]


def meta_json(meta: Metagame) -> str:
    """The breakdown as the ``meta`` JSON document (``deckcheck schema meta``)."""
    from deckcheck.reporter import document
    from deckcheck.reporter.options import safe

    model = document.MetaDocument.model_validate(safe(document.shape(document.MetaDocument, meta)))
    return document.dump(model)


CSV_HEADER = ("table", "rank", "label", "kind", "passcode", "decks", "share", "copies", "average")
"""Columns of ``deckcheck meta --output csv``: one row per archetype (``table`` archetypes) and
per card (``most_played``, ``main``, ``side``)."""


def meta_csv(meta: Metagame) -> str:
    """The breakdown as one CSV (UTF-8, CRLF; would-be formulas defused)."""
    from deckcheck.reporter.csv import defuse

    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(CSV_HEADER)
    for i, a in enumerate(meta.archetypes, 1):
        w.writerow(
            ["archetypes", i, defuse(a.label), a.kind.value, "", a.decks, f"{a.share:.4f}", "", ""]
        )
    for table, cards in (
        ("most_played", meta.most_played),
        ("main", meta.main),
        ("side", meta.side),
    ):
        for i, c in enumerate(cards, 1):
            w.writerow(
                [
                    table,
                    i,
                    defuse(c.name),
                    "card",
                    c.passcode,
                    c.decks,
                    f"{c.share:.4f}",
                    c.copies,
                    f"{c.average:.2f}",
                ]
            )
    return out.getvalue()


STYLE = """
.meta-chart{margin:.6rem 0 1rem;max-width:48rem}
.meta-bar{display:grid;grid-template-columns:minmax(8rem,16rem) 1fr 5.5rem;gap:.6rem;
align-items:center;margin:.2rem 0}
.meta-bar span{overflow-wrap:break-word;min-width:0}
.meta-bar i{display:block;height:1.05rem;background:#5b4ba8;border-radius:3px;min-width:2px}
.meta-bar.rogue i{background:#999}.meta-bar.hybrid i{background:#9a7fd1}
.meta-bar b{font-weight:600;text-align:right;font-variant-numeric:tabular-nums}
table.meta td.num{text-align:right;font-variant-numeric:tabular-nums}
.scroll{overflow-x:auto;max-width:100%}
@media (max-width:600px){.meta-bar{grid-template-columns:minmax(0,7rem) 1fr 5rem}}
"""
"""The styles of the metagame section (the batch page includes them)."""


def _e(text: object) -> str:
    value = str(text)
    if not value.isprintable() or not value.isascii():
        value = clean(value)
    return html.escape(value, quote=True)


def _label(a: ArchetypeShare, loc: Localizer) -> str:
    """An archetype's label (archetype names are the data's; "rogue" is a word to translate)."""
    return loc.t("meta.kind.rogue") if a.kind.value == "rogue" else a.label


def _heads(loc: Localizer, *keys: str) -> str:
    return "".join(f'<th scope="col">{_e(loc.t(f"meta.{k}"))}</th>' for k in keys)


def _cards_table(title: str, cards: tuple[CardUsage, ...], loc: Localizer) -> list[str]:
    out = [f"<h3>{_e(loc.t(title))}</h3>"]
    if not cards:
        return [*out, f"<p>{_e(loc.t('meta.no_cards'))}</p>"]
    out.append(
        '<div class="scroll"><table class="meta"><thead><tr>'
        + _heads(loc, "card", "decks", "share_of_decks", "average")
        + "</tr></thead><tbody>"
    )
    for c in cards:
        name = loc.name(c.passcode, c.name) or c.name
        out.append(
            f'<tr><td>{_e(name)}</td><td class="num">{c.decks}</td>'
            f'<td class="num">{_pct(c.share)}</td>'
            f'<td class="num">{c.average:.2f}</td></tr>'
        )
    out.append("</tbody></table></div>")
    return out


def meta_section(meta: Metagame, loc: Localizer | None = None) -> str:
    """The metagame as an HTML section: the archetype chart and table, then the card tables
    (headings and card names in ``loc``'s language; English without one)."""
    from deckcheck.reporter.i18n import Localizer

    loc = loc or Localizer()
    out = ['<section class="metagame">', f"<h2>{_e(loc.t('meta.heading', decks=meta.decks))}</h2>"]
    if not meta.decks:
        return "\n".join([*out, f"<p>{_e(loc.t('meta.none_read'))}</p></section>"])
    top = max(a.share for a in meta.archetypes)
    out.append(f'<div class="meta-chart" role="img" aria-label="{_e(loc.t("meta.chart"))}">')
    for a in meta.archetypes:
        width = 100 * a.share / top
        out.append(
            f'<div class="meta-bar {a.kind.value}"><span>{_e(_label(a, loc))}</span>'
            f'<i style="width:{width:.1f}%"></i><b>{a.decks} · {_pct(a.share)}</b></div>'
        )
    out.append("</div>")
    out.append(
        '<div class="scroll"><table class="meta"><thead><tr>'
        + _heads(loc, "archetype", "kind", "decks", "share")
        + "</tr></thead><tbody>"
    )
    for a in meta.archetypes:
        out.append(
            f"<tr><td>{_e(_label(a, loc))}</td><td>{_e(loc.t(f'meta.kind.{a.kind.value}'))}</td>"
            f'<td class="num">{a.decks}</td><td class="num">{_pct(a.share)}</td></tr>'
        )
    out.append("</tbody></table></div>")
    out += _cards_table("meta.most_played", meta.most_played, loc)
    out += _cards_table("meta.main", meta.main, loc)
    out += _cards_table("meta.side", meta.side, loc)
    out.append("</section>")
    return "\n".join(out)


def meta_html(meta: Metagame, title: str = "Metagame") -> str:
    """The metagame as one self-contained page."""
    return (
        "\n".join(
            [
                "<!DOCTYPE html>",
                '<html lang="en"><head><meta charset="utf-8">',
                '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
                "style-src 'unsafe-inline'\">",
                '<meta name="viewport" content="width=device-width, initial-scale=1">',
                f"<title>deckcheck: {_e(title)}</title>",
                "<style>body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;"
                "padding:0 1rem;color:#1d1d1f}table{border-collapse:collapse;width:100%}"
                "th,td{border-bottom:1px solid #e5e5e5;padding:.3rem .5rem;text-align:left}"
                f"{STYLE}</style></head><body>",
                f"<h1>{_e(title)}</h1>",
                meta_section(meta),
                "</body></html>",
            ]
        )
        + "\n"
    )
