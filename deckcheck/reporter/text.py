"""Text reports for a terminal: validation verdicts, batch summaries, goldfish tables.

Every string that came from outside (paths, deck names, card lines, category names) passes
through :func:`clean` (:mod:`deckcheck.reporter.escape`) before it is written, so control
characters cannot move the cursor, clear the screen or fake a line, and undecodable file-name
bytes show as ``\\xNN``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from deckcheck.reporter.escape import TERMINAL_ESCAPES as TERMINAL_ESCAPES
from deckcheck.reporter.escape import clean as clean
from deckcheck.reporter.escape import for_terminal as for_terminal
from deckcheck.reporter.escape import shorten as shorten

if TYPE_CHECKING:
    from deckcheck.deck.compare import DeckDiff
    from deckcheck.goldfish import HandStats, SweepStats
    from deckcheck.goldfish.compare import Comparison
    from deckcheck.goldfish.rule import Going
    from deckcheck.goldfish.side import SideStats
    from deckcheck.reporter.options import RenderOptions
    from deckcheck.run.batch import Batch, Skipped
    from deckcheck.validation.report import Report


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards`` (``many`` for irregular plurals)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def skipped_line(skipped: Sequence[Skipped], lang: str = "en") -> str:
    """One line for everything a folder scan left out: counts by reason and an example (in
    ``lang``)."""
    from deckcheck.reporter.i18n import localizer

    loc = localizer(lang)
    reasons = Counter(k.code for k in skipped)
    parts = ", ".join(f"{loc.skip_reason(code)}: {n}" for code, n in reasons.most_common())
    n = len(skipped)
    if lang != "en":
        return loc.t("report.skipped", n=n, reasons=parts, example=clean(skipped[0].path))
    what = f"{plural(n, 'path')} that {'is not a deck' if n == 1 else 'are not decks'}"
    return f"skipped {what} ({parts}; e.g. {clean(skipped[0].path)})"


def deck_diff_lines(diff: DeckDiff) -> list[str]:
    """What the played deck is missing or has extra, section by section: a heading for each
    section that differs, then a ``missing`` or ``extra`` row per card (copies and name,
    escaped)."""
    from deckcheck.deck.model import Section

    lines = []
    for section in Section:
        rows = [("missing", d) for d in diff.missing if d.section is section]
        rows += [("extra", d) for d in diff.extra if d.section is section]
        if rows:
            lines.append(f"{section.value.capitalize()} Deck:")
            lines += [f"  {what:7} {d.count}x {clean(d.name)}" for what, d in rows]
    return lines


def _colour(text: str, code: str, on: bool) -> str:
    return f"\033[{code}m{text}\033[0m" if on else text


_SEVERITY_COLOUR = {"error": "31", "warning": "33", "note": "36"}


def report_text(report: Report, options: RenderOptions) -> str:
    """One deck's result: a verdict line, then one line per finding (in ``options.lang``)."""
    from deckcheck.reporter.i18n import localizer, pad

    loc = localizer(options.lang)
    colour = options.colour
    mark = (
        _colour(loc.t("report.legal"), "1;32", colour)
        if report.legal
        else _colour(loc.t("report.illegal"), "1;31", colour)
    )
    bl = (
        ", "
        + loc.t(
            "report.list", name=clean(report.banlist.name), date=loc.date(report.banlist.effective)
        )
        if report.banlist
        else ""
    )
    c = report.counts
    head = (
        f"{mark}  {clean(report.path or '<deck>')}  [{clean(report.format)}, "
        f"{loc.t('report.era', era=clean(report.era))}, {loc.date(report.date)}{bl}]  "
        + loc.t("report.counts", main=c["main"], extra=c["extra"], side=c["side"])
    )
    if report.point_cap is not None:
        head += "  " + loc.t("report.points", points=report.points, cap=report.point_cap)
    lines = [head]
    if report.point_cards:
        made = ", ".join(clean(loc.point_card(c)) for c in report.point_cards)
        lines.append("  " + loc.t("report.point_cards", cards=made))
    width = max((len(v.code.value) for v in report.violations), default=0)
    width = max(width, 17)
    for v in report.violations:
        label = pad(loc.t(f"severity.{v.severity.value}"), 7)
        sev = _colour(label, _SEVERITY_COLOUR[v.severity.value], colour)
        where = f" ({loc.t('report.line', line=v.line)})" if v.line is not None else ""
        sec = f"[{loc.t(f'section.{v.section}')}] " if v.section else ""
        lines.append(f"  {sev} {v.code.value:{width}} {sec}{clean(loc.violation(v))}{where}")
    return "\n".join(lines)


def batch_text(batch: Batch, options: RenderOptions) -> str:
    """Every deck's result, then (for more than one source) a summary line."""
    from deckcheck.reporter.i18n import t

    parts = [report_text(r, options) for r in batch.reports]
    if options.lang != "en":
        from deckcheck.reporter.i18n import localizer

        loc = localizer(options.lang)
        if loc.falls_back(v.passcode for r in batch.reports for v in r.violations):
            parts.append(loc.fallback_note())
    s = batch.summary
    if len(batch.reports) + len(batch.unreadable) > 1:
        if options.lang == "en":
            line = f"{plural(s.decks, 'deck')}: {s.legal} legal, {s.illegal} illegal"
        else:
            line = t(
                options.lang, "report.summary", decks=s.decks, legal=s.legal, illegal=s.illegal
            )
        if s.unreadable:
            line += ", " + t(options.lang, "report.unreadable", n=s.unreadable)
        parts.append(line)
    return "".join(p + "\n" for p in parts)


def _pct(p: float) -> str:
    return f"{100 * p:5.1f}%"


def _one_in(p: float) -> str:
    return "never" if p <= 0 else f"1 in {1 / p:,.1f}"


def _distribution_lines(stats: HandStats) -> list[str]:
    """Per category and going: P(exactly k) by turn (and "1 in X" for a single turn)."""
    lines: list[str] = []
    for d in stats.distributions:
        for going, turns in d.by_going.items():
            lines.append("")
            what = f"{clean(d.name)} ({plural(d.copies, 'card')})"
            lines.append(f"P(exactly k) of {what}, going {going.value}:")
            heads = [f"T{t + 1} ({stats.seen[going][t]})" for t in range(len(turns))]
            width = max([7, *map(len, heads)])
            one = len(turns) == 1
            lines.append(
                "   k" + "".join(f"  {h:>{width}}" for h in heads) + ("  1 in X" if one else "")
            )
            for k in range(max(len(t) for t in turns)):
                cells = [_pct(t[k].probability).strip() if k < len(t) else "" for t in turns]
                row = f"{k:>4}" + "".join(f"  {c:>{width}}" for c in cells)
                if one:
                    row += f"  {_one_in(turns[0][k].probability)}"
                lines.append(row)
    return lines


def _condition_table(stats: HandStats, head: str, fractions: bool) -> list[str]:
    """The conditions' table: one row per condition, a column per going and turn."""
    lines: list[str] = []
    cols: list[tuple[Going, int]] = [(g, t) for g in stats.goings for t in range(stats.turns)]
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
    return lines


def _cumulative_lines(stats: HandStats) -> list[str]:
    """Per category and going: P(at least k), P(at most k) and the expected copies, by turn."""
    lines: list[str] = []
    for d in stats.distributions:
        for going, turns in d.by_going.items():
            n = len(turns)
            heads = [f"T{t + 1} ({stats.seen[going][t]})" for t in range(n)]
            width = max([7, *map(len, heads)])
            lines.append("")
            lines.append(f"P(at least k) | P(at most k) of {clean(d.name)}, going {going.value}:")
            lines.append("   k" + "".join(f"  {h:>{2 * width + 3}}" for h in heads))
            least = [d.at_least(going, t) for t in range(n)]
            most = [d.at_most(going, t) for t in range(n)]
            for k in range(max(len(t) for t in turns)):
                row = f"{k:>4}"
                for t in range(n):
                    if k < len(least[t]):
                        a = _pct(least[t][k].probability).strip()
                        b = _pct(most[t][k].probability).strip()
                        row += f"  {a:>{width}} | {b:>{width}}"
                    else:
                        row += "  " + " " * (2 * width + 3)
                lines.append(row.rstrip())
            means = []
            for t in range(n):
                m = d.expected(going, t)
                text = f"{m.value:.3f}"
                if m.low is not None and m.high is not None:
                    text += f" ±{m.high - m.value:.3f}"
                means.append(text)
            lines.append(" exp" + "".join(f"  {x:>{2 * width + 3}}" for x in means))
    return lines


def _sample_lines(stats: HandStats) -> list[str]:
    """The sample hands: opening hand, draws by turn, and the conditions met by the last turn."""
    if stats.samples is None:
        return []
    lines = ["", f"Sample hands (seed {stats.samples.seed}; cards dealt, effects not played):"]
    names = [c.name for c in stats.conditions]
    per_going = len(stats.goings)
    for i, h in enumerate(stats.samples.hands):
        if i % per_going == 0:
            lines.append(f"  #{i // per_going + 1}")
        lines.append(f"    going {h.going.value}: " + ", ".join(map(clean, h.hand)))
        for t, drawn in enumerate(h.draws):
            if drawn:
                lines.append(f"      turn {t + 1} draw: " + ", ".join(map(clean, drawn)))
        met = [clean(n) for n, m in zip(names, h.met, strict=True) if m and m[-1]]
        turn = f"by turn {stats.turns}" if stats.turns > 1 else "on turn 1"
        lines.append(f"      meets {turn}: " + (", ".join(met) if met else "none"))
    return lines


def goldfish_text(stats: HandStats, options: RenderOptions) -> str:
    """The goldfish table: conditions by going and turn, then the hand composition."""
    lines = _goldfish_head(stats)
    lines.append("")
    head = "P(at least 1)" if stats.default else "condition"
    lines += _condition_table(stats, head, options.fractions)
    if not stats.default:
        lines += _category_lines(stats)
    lines += _distribution_lines(stats)
    if options.cumulative:
        lines += _cumulative_lines(stats)
    lines += _composition_lines(stats)
    lines += _sample_lines(stats)
    return "\n".join(lines) + "\n"


def _goldfish_head(stats: HandStats) -> list[str]:
    """The goldfish table's first lines: the deck, the draw rules, the method and any note."""
    lines: list[str] = []
    name = clean(stats.deck_name or "deck")
    rules = stats.rules
    draw = "draws" if rules.first_player_draws else "does not draw"
    how = "exact" if stats.method.value == "exact" else f"simulated, {stats.trials:,} games/going"
    exact = [c.name for c in stats.conditions if c.method.value == "exact"]
    if stats.method.value == "simulation" and exact:
        how = f"exact and simulated ({stats.trials:,} games/going)"
    lines.append(
        f"{name}: {plural(stats.deck_size, 'Main Deck card')} · hand {rules.hand_size}, "
        f"first player {draw} on turn 1"
        + (f", draw up to {rules.draw_up_to}" if rules.draw_up_to else "")
        + f" · {how}"
    )
    if stats.note:
        lines.append(f"note: {clean(stats.note)}")
    if stats.method.value == "simulation" and exact:
        simulated = [c.name for c in stats.conditions if c.method.value != "exact"]
        lines.append(f"exact: {', '.join(map(clean, exact))}")
        lines.append(f"simulated: {', '.join(map(clean, simulated)) or 'none of the conditions'}")
    return lines


def _category_lines(stats: HandStats) -> list[str]:
    """A spec's conditions written out (where named), then its categories' sizes."""
    lines = [
        f"  {clean(c.name)}: {clean(c.expression)}"
        for c in stats.conditions
        if c.name != c.expression
    ]
    lines.append("")
    lines.append(f"Categories (of {plural(stats.deck_size, 'Main Deck card')}):")
    cat_width = max(len(clean(k.name)) for k in stats.categories)
    for k in stats.categories:
        lines.append(f"  {clean(k.name):<{cat_width}}  {plural(k.copies, 'card')}")
    return lines


def _composition_lines(stats: HandStats) -> list[str]:
    """The turn-1 hand composition per going (none in quick mode: the cards' kinds are
    unknown)."""
    lines: list[str] = []
    for going in stats.goings:
        kinds = stats.composition.get(going, {})
        if not kinds:
            continue
        n = len(next(iter(kinds.values())))
        lines.append("")
        seen = stats.seen[going][0]
        what = f"{plural(seen, 'card')} seen" + (" plus effects" if stats.effects else "")
        lines.append(f"Turn 1 hand composition, going {going.value} ({what}):")
        lines.append("         " + "".join(f"{k:>7}" for k in range(n)))
        for kind, ests in kinds.items():
            lines.append(f"{kind:<9}" + "".join(f"{_pct(e.probability):>7}" for e in ests))
    return lines


def sweep_text(stats: SweepStats, fractions: bool = False) -> str:
    """A ratio sweep as a ranked table: the copies tried, the filler, the ranking condition
    (per going), best first."""
    names = [clean(v.name) for v in stats.vary]
    how = stats.method.value + (
        f", {stats.trials:,} games/going" if stats.method.value == "simulation" else ""
    )
    lines = [
        f"Ratio sweep of {plural(stats.deck_size, 'Main Deck card')} ({clean(stats.filler)} "
        f"adjusted to keep the size) · {how}",
        f"ranked by {clean(stats.by)}, going {stats.going.value}, by turn {stats.turn}",
    ]
    if stats.note:
        lines.append(f"note: {clean(stats.note)}")
    lines.append("")
    goings = list(stats.goings)
    heads = ["#", *names, clean(stats.filler)] + [f"{g.value} ({stats.seen[g]})" for g in goings]
    body = []
    for i, row in enumerate(stats.rows, 1):
        cells = [str(i), *(str(n) for _, n in row.values), str(row.filler)]
        for g in goings:
            est = row.figures[stats.by][g]
            text = est.text(False)
            if fractions and est.fraction is not None:
                text += f" ({est.fraction.numerator}/{est.fraction.denominator})"
            cells.append(text)
        body.append(cells)
    widths = [max(len(r[c]) for r in [heads, *body]) for c in range(len(heads))]
    lines.append("  ".join(h.rjust(w) for h, w in zip(heads, widths, strict=True)))
    lines.append("-" * len(lines[-1]))
    for cells in body:
        lines.append("  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True)))
    if stats.skipped:
        lines.append(
            f"{plural(len(stats.skipped), 'combination')} skipped: the filler would go below 0"
        )
    others = [n for n, _ in stats.conditions if n != stats.by]
    if others:
        lines.append(f"other conditions are in the JSON (-o json): {', '.join(map(clean, others))}")
    return "\n".join(lines) + "\n"


def _side(label: str, stats: HandStats) -> str:
    how = "exact" if stats.method.value == "exact" else f"simulated, {stats.trials:,} games/going"
    return f"{clean(label)}: {plural(stats.deck_size, 'Main Deck card')} · {how}"


def side_text(stats: SideStats, fractions: bool = False) -> str:
    """Games 2 and 3: the side plan, game 1 beside the sided deck, and the side cards' odds."""
    moved = [
        f"in: {', '.join(f'{n} {clean(name)}' for name, _, n in stats.cards_in) or '-'}",
        f"out: {', '.join(f'{n} {clean(name)}' for name, _, n in stats.cards_out) or '-'}",
    ]
    lines = ["Side plan · " + " · ".join(moved), ""]
    lines.append(compare_text(stats.comparison, fractions).rstrip("\n"))
    if stats.side_cards is not None:
        lines.append("")
        lines.append("Side cards seen in games 2 and 3 (the sided deck):")
        lines += _condition_table(stats.side_cards, "P(at least 1)", fractions)
    return "\n".join(lines) + "\n"


def compare_text(cmp: Comparison, fractions: bool = False) -> str:
    """Two runs side by side: category sizes A -> B, then each condition's A, B and B − A."""
    lines = _compare_head(cmp)
    lines.append("")
    heads = ["condition", "going", "turn", "A", "B", "B - A"]
    body = _difference_rows(cmp, fractions)
    widths = [max(len(r[c]) for r in [heads, *body]) for c in range(len(heads))]

    def line(cells: list[str]) -> str:
        pairs = enumerate(zip(cells, widths, strict=True))
        return "  ".join(x.ljust(w) if c < 2 else x.rjust(w) for c, (x, w) in pairs)

    lines.append(line(heads))
    lines.append("-" * len(lines[-1]))
    lines += [line(cells) for cells in body]
    for side, names in (("A", cmp.only_a), ("B", cmp.only_b)):
        if names:
            lines.append(f"only in {side}: {', '.join(map(clean, names))}")
    return "\n".join(lines) + "\n"


def _compare_head(cmp: Comparison) -> list[str]:
    """A comparison's first lines: both runs, their notes, the categories that changed size
    and how B − A is estimated."""
    lines = [_side("A " + cmp.a_label, cmp.a), _side("B " + cmp.b_label, cmp.b)]
    for stats, side in ((cmp.a, "A"), (cmp.b, "B")):
        if stats.note:
            lines.append(f"note ({side}): {clean(stats.note)}")
    a_cats = {c.name: c.copies for c in cmp.a.categories}
    b_cats = {c.name: c.copies for c in cmp.b.categories}
    changed = [
        f"{clean(n)} {a_cats.get(n, 0)} -> {b_cats.get(n, 0)}"
        for n in [*a_cats, *(n for n in b_cats if n not in a_cats)]
        if a_cats.get(n) != b_cats.get(n)
    ]
    lines.append("categories: " + (", ".join(changed) if changed else "the same sizes"))
    if cmp.paired:
        lines.append(
            f"B - A: both simulated on seed {cmp.a.seed}, so the games are paired (common random "
            "numbers): 95% intervals of the games' differences"
        )
    reason = cmp.unpaired_reason
    if reason:
        lines.append(f"B - A: {reason}")
    return lines


def _difference_rows(cmp: Comparison, fractions: bool) -> list[list[str]]:
    """One row per condition, going and turn: A, B and B − A (with its interval, or its
    fraction with ``fractions``)."""
    body = []
    for d in cmp.differences:
        delta = f"{100 * d.diff:+.1f}"
        if d.interval is not None:
            delta += f" (±{100 * (d.interval[1] - d.diff):.1f})"
        elif fractions and d.fraction is not None:
            delta += f" ({d.fraction.numerator}/{d.fraction.denominator})"
        body.append(
            [
                clean(d.name)[:44],
                d.going.value,
                str(d.turn),
                d.a.text(False),
                d.b.text(False),
                delta,
            ]
        )
    return body
