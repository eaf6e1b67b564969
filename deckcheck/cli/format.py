"""``deckcheck formats``: list the registered formats and eras, show one format's rules."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.common import Output, clean, fail, print_document, print_lines
from deckcheck.cli.options import (
    DateOpt,
    FormatFileOpt,
    OutputOpt,
    RegionChoice,
    RegionOpt,
    parse_date,
    resolve_format,
)
from deckcheck.data.dataset import Dataset

if TYPE_CHECKING:
    from deckcheck.rule.format import Format

app = typer.Typer(
    rich_markup_mode=None,
    help="List formats and eras, or show one format's rules.",
    invoke_without_command=True,
)


def resolve_named(
    name: str | None, format_file: Path | None, region: RegionChoice | None = None
) -> Format:
    """The format a command names (positional NAME or ``--format-file``); exit 2 if none."""
    if name is None and format_file is None:
        fail("give a FORMAT or --format-file")
    return resolve_format(name, format_file, region=region)


def check_date(fmt: Format, d: date) -> None:
    """Exit 2 if the format has no list data for ``d``; print warnings to stderr."""
    from deckcheck.error import DateRangeError

    try:
        warnings = fmt.require_date(d, Dataset.active())
    except DateRangeError as exc:
        fail(str(exc))
    for warning in warnings:
        sys.stderr.write(f"warning: {clean(warning)}\n")


CONFIDENCE_KEY = (
    "H official or several sources agree, M one reputable source, L weak or conflicting"
)
"""What the confidence letters mean (docs/formats.md)."""
CONFIDENCE_LEGEND = f"Confidence (in brackets): {CONFIDENCE_KEY}."
"""The legend line printed under ``deckcheck formats``."""


@app.callback()
def formats(ctx: typer.Context, output: OutputOpt = Output.TEXT) -> None:
    """List every format and era (``formats show FORMAT`` for one)."""
    if ctx.invoked_subcommand is not None:
        return
    from deckcheck.rule.format import list_eras, list_formats

    data = Dataset.active()
    fmts = list_formats(data)
    if output is Output.JSON:
        from deckcheck.reporter.document import FormatsDocument, shape

        print_document(
            "formats", shape(FormatsDocument, {"formats": fmts, "eras": list_eras(data)})
        )
        return
    lines = ["Formats:"]
    for f in fmts:
        if f.is_era:
            continue
        alias = f" (also: {', '.join(f.aliases)})" if f.aliases else ""
        lines.append(f"  {f.id:<14} {f.name}{alias}")
    lines.append("")
    lines.append("Eras (each usable as a format too):")
    for e in list_eras(data):
        house = " [house rules]" if e.house else ""
        lines.append(
            f"  {e.id:<20} Main {e.main.describe()}, Extra {e.extra.describe()}, "
            f"Side {e.side.describe()}, hand {e.hand_size}, "
            f"goer draws: {'yes' if e.first_player_draws else 'no'}, LP {e.life_points}"
            f" ({e.confidence}){house}"
        )
    lines.append("")
    lines.append(CONFIDENCE_LEGEND)
    print_lines(lines)


@app.command("show")
def show(
    name: Annotated[str | None, typer.Argument(help="Format or era id / alias.")] = None,
    when: DateOpt = None,
    output: OutputOpt = Output.TEXT,
    format_file: FormatFileOpt = None,
    region: RegionOpt = None,
) -> None:
    """Show a format's rules, and the era and ban list in force on a date."""
    fmt = resolve_named(name, format_file, region)
    d = parse_date(when)
    check_date(fmt, d)
    if output is Output.JSON:
        from deckcheck.reporter.document import FormatDoc, format_on, shape

        print_document("format", shape(FormatDoc, format_on(fmt, d, Dataset.active())))
        return
    print_lines(_era_lines(fmt, d) + _rule_lines(fmt, d) + _list_lines(fmt, d))


def _era_lines(fmt: Format, d: date) -> list[str]:
    """The format's name and aliases, and its era on ``d``: deck sizes, hand and draws."""
    era = fmt.era_at(d)
    lines = [
        clean(
            f"{fmt.name} ({fmt.id})"
            + (f"  aliases: {', '.join(fmt.aliases)}" if fmt.aliases else "")
        )
    ]
    lines.append(f"  on {d.isoformat()}: era {era.id} - {era.name}")
    lines.append(
        f"  Main {era.main.describe()}, Extra {era.extra.describe()}, Side {era.side.describe()}"
    )
    draw = f"draw up to {era.draw_up_to}" if era.draw_up_to else f"draw {era.draw_per_turn}"
    lines.append(
        f"  hand {era.hand_size}, {draw} per turn, goer draws on turn 1: "
        f"{'yes' if era.first_player_draws else 'no'}, hand limit "
        f"{era.hand_limit if era.hand_limit is not None else 'none'}, LP {era.life_points}"
    )
    return lines


def _rule_lines(fmt: Format, d: date) -> list[str]:
    """The format's own rules: pool, copies, points, forbidden types, Skills, limits."""
    lines = [f"  pool: {fmt.pool.value}, copies per name: {fmt.copy_limit}"]
    if fmt.point_cap is not None:
        lines.append(f"  point cap: {fmt.point_cap}")
    if fmt.forbidden_types:
        lines.append(f"  forbidden card types: {', '.join(sorted(fmt.forbidden_types))}")
    if fmt.skill_cards is not None:
        lines.append(f"  Skill cards: exactly {fmt.skill_cards}")
    if fmt.legend_rule:
        limits = fmt.legend_limits_at(d)
        lines.append("  Legend limits: " + ", ".join(f"{k} {v}" for k, v in limits.items()))
    if fmt.limit_groups is not None:
        lines.append(
            "  limit groups: " + ", ".join(f"{k} {v}" for k, v in fmt.limit_groups.items())
        )
    return lines


def _list_lines(fmt: Format, d: date) -> list[str]:
    """The ban list in force on ``d``, the region, the next lists, the confidence and notes."""
    from deckcheck.rule.format import Pool

    era = fmt.era_at(d)
    current = fmt.banlist_at(d, Dataset.active())
    approx = " (date approximate: no source gives the effective day)"
    shown = "none" if current is None else current.name + (approx if current.approximate else "")
    lines = [f"  ban list: {shown}"]
    if fmt.family is not None and fmt.pool in (Pool.TCG, Pool.BOTH):
        lines.append(f"  TCG region for list dates: {fmt.tcg_region.value}")
    for b in fmt.upcoming(d, Dataset.active())[:3]:
        lines.append(f"  upcoming: {b.name} (from {b.effective_in(fmt.tcg_region).isoformat()})")
    lines.append(f"  confidence: {era.confidence}/{fmt.confidence} (era/format; {CONFIDENCE_KEY})")
    for note in dict.fromkeys((fmt.note, era.note)):  # an era used as a format shares its note
        if note:
            lines.append(f"  note: {note}")
    return lines


def register(main: typer.Typer) -> None:
    """Add ``deckcheck formats`` to the main app."""
    main.add_typer(app, name="formats")
