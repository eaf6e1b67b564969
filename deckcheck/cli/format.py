"""``deckcheck formats``: list the registered formats and eras, show one format's rules."""

from __future__ import annotations

import sys
from datetime import date
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.common import Output, fail, print_json

if TYPE_CHECKING:
    from deckcheck.format import Format

OutputOpt = Annotated[Output, typer.Option("--output", "-o", help="Output format.")]
DateOpt = Annotated[
    str | None, typer.Option("--date", "-d", help="Event date YYYY-MM-DD (default: today).")
]
FormatFileOpt = Annotated[
    str | None,
    typer.Option("--format-file", help="An organiser's TOML format file (see docs/formats.md)."),
]

app = typer.Typer(
    help="List formats and eras, or show one format's rules.",
    invoke_without_command=True,
)


def parse_date(text: str | None) -> date:
    """``YYYY-MM-DD`` (or ``today`` / nothing) to a date; exits 2 on a bad date."""
    if text is None or text.strip().lower() == "today":
        return date.today()
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        fail(f"bad date {text!r}; expected YYYY-MM-DD")


def resolve_format(name: str | None, format_file: str | None) -> Format:
    """The named format, or the one a format file defines; exits 2 with the valid names."""
    from deckcheck.error import DataError, UnknownFormatError
    from deckcheck.format import get_format, load_format_file

    try:
        if format_file is not None:
            return load_format_file(format_file)
        if name is not None and name.endswith(".toml"):
            return load_format_file(name)
        if name is None:
            fail("give a FORMAT or --format-file")
        return get_format(name)
    except UnknownFormatError as exc:
        fail(f"unknown format {exc.name!r}", ["valid formats: " + ", ".join(exc.valid)])
    except DataError as exc:
        fail(str(exc))


def check_date(fmt: Format, d: date) -> None:
    """Exit 2 if the format has no list data for ``d``; print warnings to stderr."""
    verdict = fmt.check_date(d)
    if verdict.error is not None:
        fail(verdict.error)
    for warning in verdict.warnings:
        sys.stderr.write(f"warning: {warning}\n")


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
    from deckcheck.format import list_eras, list_formats

    fmts = list_formats()
    if output is Output.JSON:
        print_json(
            {
                "formats": [f.to_dict() for f in fmts],
                "eras": [e.to_dict() for e in list_eras()],
            }
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
    for e in list_eras():
        house = " [house rules]" if e.house else ""
        lines.append(
            f"  {e.id:<20} Main {e.main.describe()}, Extra {e.extra.describe()}, "
            f"Side {e.side.describe()}, hand {e.hand_size}, "
            f"goer draws: {'yes' if e.first_player_draws else 'no'}, LP {e.life_points}"
            f" ({e.confidence}){house}"
        )
    lines.append("")
    lines.append(CONFIDENCE_LEGEND)
    sys.stdout.write("\n".join(lines) + "\n")


@app.command("show")
def show(
    name: Annotated[str | None, typer.Argument(help="Format or era id / alias.")] = None,
    when: DateOpt = None,
    output: OutputOpt = Output.TEXT,
    format_file: FormatFileOpt = None,
) -> None:
    """Show a format's rules, and the era and ban list in force on a date."""
    fmt = resolve_format(name, format_file)
    d = parse_date(when)
    check_date(fmt, d)
    data = fmt.to_dict(d)
    if output is Output.JSON:
        print_json(data)
        return
    era = fmt.era_at(d)
    lines = [f"{fmt.name} ({fmt.id})" + (f"  aliases: {', '.join(fmt.aliases)}" if fmt.aliases
                                          else "")]  # fmt: skip
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
    lines.append(f"  pool: {fmt.pool.value}, copies per name: {fmt.copy_limit}")
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
    current = fmt.banlist_at(d)
    lines.append(f"  ban list: {current.name if current else 'none'}")
    for b in fmt.upcoming(d)[:3]:
        lines.append(f"  upcoming: {b.name} (from {b.effective.isoformat()})")
    lines.append(f"  confidence: {era.confidence}/{fmt.confidence} (era/format; {CONFIDENCE_KEY})")
    for note in dict.fromkeys((fmt.note, era.note)):  # an era used as a format shares its note
        if note:
            lines.append(f"  note: {note}")
    sys.stdout.write("\n".join(lines) + "\n")


def register(main: typer.Typer) -> None:
    """Add ``deckcheck formats`` to the main app."""
    main.add_typer(app, name="formats")
