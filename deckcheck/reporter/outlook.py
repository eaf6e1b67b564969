"""Forecasts (``deckcheck upcoming``) as text and as GitHub workflow commands.

Text: the decks the next list affects, one block each (new errors, then card changes), then a
summary line; unaffected decks are counted, not listed. GitHub: a ``::warning`` per new error
and per card change of an affected deck (``::error`` with strict), titled ``upcoming-change``,
on the deck file and line, so a pull request shows what to fix before the list takes effect.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckcheck.reporter.text import _colour, clean, plural

if TYPE_CHECKING:
    from deckcheck.reporter.options import RenderOptions
    from deckcheck.run.forecast import DeckForecast, Forecast

_HEAD = {
    "becomes-illegal": ("BECOMES ILLEGAL", "1;31"),
    "new-errors": ("NEW ERRORS", "1;31"),
    "changes": ("CHANGES", "1;33"),
}


def _when(d: DeckForecast) -> str:
    nxt = d.next_list
    if nxt is None:
        return ""
    announced = f", announced {nxt.announced}" if nxt.announced else ""
    return f"from {d.takes_effect} ({clean(nxt.name)}{announced})"


def forecast_text(fc: Forecast, options: RenderOptions) -> str:
    """Affected decks with their new errors and card changes, then totals."""
    lines: list[str] = []
    for d in fc.decks:
        head = _HEAD.get(d.outlook.value)
        if head is None:
            continue
        mark = _colour(head[0], head[1], options.colour)
        lines.append(f"{mark}  {clean(d.path)}  [{clean(d.format)}]  {_when(d)}")
        for v in d.new_errors:
            where = f" (line {v.line})" if v.line is not None else ""
            lines.append(f"  error   {v.code.value:17} {clean(v.message)}{where}")
        for c in d.changes:
            where = f" (line {c.line})" if c.line is not None else ""
            lines.append(f"  change  {'':17} {clean(c.describe())}{where}")
    nexts = {(d.format, d.next_list.name): d for d in fc.decks if d.next_list is not None}
    for (fmt, _), d in sorted(nexts.items()):
        lines.append(f"next {clean(fmt)} list: {_when(d).removeprefix('from ')}")
    no_list = sorted({d.format for d in fc.decks if d.next_list is None})
    for fmt in no_list:
        as_of = f" (data as of {fc.data_as_of})" if fc.data_as_of else ""
        lines.append(f"no list is announced after {fc.date} for {clean(fmt)}{as_of}")
    lines.append(summary_line(fc))
    return "".join(line + "\n" for line in lines)


def summary_line(fc: Forecast) -> str:
    """``4 decks on 2025-03-01: 1 becomes illegal, 0 new errors, 1 changes, 2 unaffected``."""
    from deckcheck.run.forecast import Outlook

    parts = [f"{fc.count(o)} {o.value.replace('-', ' ')}" for o in Outlook]
    if fc.unreadable:
        parts.append(f"{len(fc.unreadable)} unreadable")
    return f"{plural(len(fc.decks), 'deck')} on {fc.date}: " + ", ".join(parts)


def forecast_markdown(fc: Forecast, *, root: str | None = None) -> str:
    """The job summary of a forecast in Markdown: totals by outlook, then each affected deck
    with its format, the next list's date and what changes (paths relative to ``root``)."""
    from deckcheck.reporter.github import markdown_cell
    from deckcheck.reporter.options import repo_path
    from deckcheck.run.forecast import Outlook

    failing = fc.count(Outlook.BECOMES_ILLEGAL) + fc.count(Outlook.NEW_ERRORS)
    verdict = "⚠️ decks to fix before the next list" if failing else "✅ no deck becomes illegal"
    out = [
        f"### deckcheck upcoming: {verdict}",
        "",
        "| decks | " + " | ".join(o.value for o in Outlook) + " |",
        "|---:|" + "---:|" * len(Outlook),
        f"| {len(fc.decks)} | " + " | ".join(str(fc.count(o)) for o in Outlook) + " |",
        "",
    ]
    affected = [d for d in fc.decks if d.outlook.value in _HEAD]
    if affected:
        out += ["| deck | format | outlook | from | what |", "|---|---|---|---|---|"]
        for d in affected[:50]:
            what = [f"`{v.code.value}`" for v in d.new_errors] or [
                markdown_cell(c.describe()) for c in d.changes[:3]
            ]
            out.append(
                f"| {markdown_cell(repo_path(d.path, root) or d.path)} | "
                f"{markdown_cell(d.format)} | {d.outlook.value} | "
                f"{d.takes_effect or ''} | {', '.join(what)} |"
            )
        if len(affected) > 50:
            out.append(f"| … and {len(affected) - 50} more | | | | |")
        out.append("")
    return "\n".join(out) + "\n"


def forecast_commands(fc: Forecast, options: RenderOptions) -> str:
    """GitHub workflow commands: one per new error and card change of each affected deck."""
    from deckcheck.reporter.github import command
    from deckcheck.reporter.options import repo_path

    kind = "error" if options.strict else "warning"
    lines: list[str] = []
    for d in fc.decks:
        if d.next_list is None:
            continue
        file = repo_path(d.path, options.root)
        when = _when(d)
        for v in d.new_errors:
            lines.append(
                command(
                    kind, f"{when}: {v.message}", file=file, line=v.line, title="upcoming-change"
                )
            )
        for c in d.changes:
            lines.append(
                command(
                    "notice" if not options.strict else kind,
                    f"{when}: {c.describe()}",
                    file=file,
                    line=c.line,
                    title="upcoming-change",
                )
            )
    for u in fc.unreadable:
        file = repo_path(u.path, options.root)
        lines.append(
            command(
                "error", f"{u.error} [{u.code.value}]", file=file, line=u.line, title="unreadable"
            )
        )
    lines.append("deckcheck upcoming: " + summary_line(fc))
    return "".join(line + "\n" for line in lines)
