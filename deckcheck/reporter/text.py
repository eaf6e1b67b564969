"""Text reports for a terminal: validation verdicts, batch summaries, goldfish tables.

Every string that came from outside (paths, deck names, card lines, category names) passes
through :func:`clean` before it is written, so control characters cannot move the cursor, clear
the screen or fake a line, and undecodable file-name bytes show as ``\\xNN``.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckcheck.goldfish import HandStats
    from deckcheck.goldfish.rule import Going
    from deckcheck.reporter import RenderOptions
    from deckcheck.run.batch import Batch, Skipped
    from deckcheck.validation.report import Report

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean(text: str) -> str:
    """``text`` safe for a terminal: control, bidi-override and undecodable characters escaped."""
    if text.isprintable() and not _BIDI.intersection(text):
        return text
    out = []
    for ch in text:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cs"):
            out.append(ch.encode("unicode_escape").decode("ascii"))
        else:
            out.append(ch)
    return "".join(out)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards`` (``many`` for irregular plurals)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def skipped_line(skipped: Sequence[Skipped]) -> str:
    """One line for everything a folder scan left out: counts by reason and an example."""
    reasons = Counter(k.reason for k in skipped)
    parts = ", ".join(f"{reason}: {n}" for reason, n in reasons.most_common())
    n = len(skipped)
    what = f"{plural(n, 'path')} that {'is not a deck' if n == 1 else 'are not decks'}"
    return f"skipped {what} ({parts}; e.g. {clean(skipped[0].path)})"


def _colour(text: str, code: str, on: bool) -> str:
    return f"\033[{code}m{text}\033[0m" if on else text


_SEVERITY_COLOUR = {"error": "31", "warning": "33", "note": "36"}


def report_text(report: Report, options: RenderOptions) -> str:
    """One deck's result: a verdict line, then one line per finding."""
    colour = options.colour
    mark = _colour("LEGAL", "1;32", colour) if report.legal else _colour("ILLEGAL", "1;31", colour)
    bl = (
        f", list {clean(report.banlist.name)} ({report.banlist.effective})"
        if report.banlist
        else ""
    )
    c = report.counts
    head = (
        f"{mark}  {clean(report.path or '<deck>')}  [{clean(report.format)}, "
        f"era {clean(report.era)}, {report.date}{bl}]  "
        f"main {c['main']} / extra {c['extra']} / side {c['side']}"
    )
    if report.point_cap is not None:
        head += f"  points {report.points}/{report.point_cap}"
    lines = [head]
    if report.point_cards:
        made = ", ".join(clean(c.label()) for c in report.point_cards)
        lines.append(f"  points: {made}")
    width = max((len(v.code.value) for v in report.violations), default=0)
    width = max(width, 17)
    for v in report.violations:
        sev = _colour(f"{v.severity.value:7}", _SEVERITY_COLOUR[v.severity.value], colour)
        where = f" (line {v.line})" if v.line is not None else ""
        sec = f"[{v.section}] " if v.section else ""
        lines.append(f"  {sev} {v.code.value:{width}} {sec}{clean(v.message)}{where}")
    return "\n".join(lines)


def batch_text(batch: Batch, options: RenderOptions) -> str:
    """Every deck's result, then (for more than one source) a summary line."""
    parts = [report_text(r, options) for r in batch.reports]
    s = batch.summary
    if len(batch.reports) + len(batch.unreadable) > 1:
        line = f"{plural(s.decks, 'deck')}: {s.legal} legal, {s.illegal} illegal"
        if s.unreadable:
            line += f", {s.unreadable} unreadable"
        parts.append(line)
    return "".join(p + "\n" for p in parts)


def _pct(p: float) -> str:
    return f"{100 * p:5.1f}%"


def goldfish_text(stats: HandStats, options: RenderOptions) -> str:
    """The goldfish table: conditions by going and turn, then the hand composition."""
    fractions = options.fractions
    lines: list[str] = []
    name = clean(stats.deck_name or "deck")
    rules = stats.rules
    draw = "draws" if rules.first_player_draws else "does not draw"
    how = "exact" if stats.method.value == "exact" else f"simulated, {stats.trials:,} games/going"
    lines.append(
        f"{name}: {plural(stats.deck_size, 'Main Deck card')} · hand {rules.hand_size}, "
        f"first player {draw} on turn 1"
        + (f", draw up to {rules.draw_up_to}" if rules.draw_up_to else "")
        + f" · {how}"
    )
    if stats.note:
        lines.append(f"note: {clean(stats.note)}")
    lines.append("")
    cols: list[tuple[Going, int]] = [(g, t) for g in stats.goings for t in range(stats.turns)]
    head = "P(at least 1)" if stats.default else "condition"
    labels = []
    for c in stats.conditions:
        shown = clean(c.name)
        labels.append(shown if len(shown) <= 44 else shown[:43] + "…")
    width = max([len(head), *map(len, labels)])
    widest = 0.0
    cells: list[list[str]] = []
    for c in stats.conditions:
        row = []
        for g, t in cols:
            est = c.by_going[g][t]
            if est.low is not None and est.high is not None:
                widest = max(widest, est.high - est.probability, est.probability - est.low)
            text = _pct(est.probability).strip()
            if fractions and est.fraction is not None:
                text += f" ({est.fraction.numerator}/{est.fraction.denominator})"
            row.append(text)
        cells.append(row)
    subs = [
        f"T{t + 1} ({stats.seen[g][t]})" if stats.turns > 1 else plural(stats.seen[g][t], "card")
        for g, t in cols
    ]
    cell = max([len(x) for x in subs] + [len(x) for row in cells for x in row] + [6])
    # every column as wide as its widest cell; a "going ..." label fits over its turns
    label_width = max(len(f"going {g.value}") for g in stats.goings)
    while (cell + 2) * stats.turns - 2 < label_width:
        cell += 1
    span = (cell + 2) * stats.turns - 2
    top = " " * width
    for going in stats.goings:
        top += "  " + f"going {going.value}".center(span)
    lines.append(top.rstrip())
    sub = head.ljust(width) + "".join("  " + x.rjust(cell) for x in subs)
    lines.append(sub)
    lines.append("-" * len(sub))
    for label, row in zip(labels, cells, strict=True):
        lines.append(label.ljust(width) + "".join("  " + x.rjust(cell) for x in row))
    if stats.method.value == "simulation":
        lines.append(f"95% intervals within ±{100 * widest:.2f} points (seed {stats.seed})")
    if not stats.default:
        for c in stats.conditions:
            lines.append(f"  {clean(c.name)}: {clean(c.expression)}")
        lines.append("")
        lines.append(f"Categories (of {plural(stats.deck_size, 'Main Deck card')}):")
        cat_width = max(len(clean(k.name)) for k in stats.categories)
        for k in stats.categories:
            lines.append(f"  {clean(k.name):<{cat_width}}  {plural(k.copies, 'card')}")
    for going in stats.goings:
        kinds = stats.composition[going]
        n = len(next(iter(kinds.values())))
        lines.append("")
        seen = stats.seen[going][0]
        what = f"{plural(seen, 'card')} seen" + (" plus effects" if stats.effects else "")
        lines.append(f"Turn 1 hand composition, going {going.value} ({what}):")
        lines.append("         " + "".join(f"{k:>7}" for k in range(n)))
        for kind, ests in kinds.items():
            lines.append(f"{kind:<9}" + "".join(f"{_pct(e.probability):>7}" for e in ests))
    return "\n".join(lines) + "\n"
