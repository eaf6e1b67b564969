"""``deckcheck banlist``: show, compare and export the ban list of a format at a date."""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.common import Output, fail, print_document, print_lines, write_output
from deckcheck.cli.format import check_date, resolve_named
from deckcheck.cli.options import (
    DateOpt,
    FormatFileOpt,
    OutputOpt,
    RegionChoice,
    RegionOpt,
    out_name,
    parse_date,
)
from deckcheck.data.dataset import Dataset
from deckcheck.reporter.text import plural

if TYPE_CHECKING:
    from deckcheck.rule.banlist import Banlist
    from deckcheck.rule.format import Format


app = typer.Typer(
    rich_markup_mode="markdown", help="Show, compare and export ban lists.", no_args_is_help=True
)


class ExportFormat(enum.StrEnum):
    """Export targets."""

    LFLIST = "lflist"
    TOML = "toml"


def _name(code: int) -> str | None:
    from deckcheck.data.dataset import Dataset

    index = Dataset.active().cards
    return index.get(code).name if code in index else None


def _value(b: Banlist, value: int | None) -> str:
    from deckcheck.rule.banlist import STATUS_NAMES

    if value is None:
        return "not in pool" if b.whitelist else "Unlimited (not listed)"
    if b.points:
        return f"{value} points"
    return STATUS_NAMES.get(value, str(value))


def _list_at(
    name: str | None, format_file: Path | None, when: str | None, region: RegionChoice | None
) -> Banlist:
    return _format_and_list(name, format_file, when, region)[1]


def _format_and_list(
    name: str | None, format_file: Path | None, when: str | None, region: RegionChoice | None
) -> tuple[Format, Banlist]:
    fmt = resolve_named(name, format_file, region)
    d = parse_date(when)
    check_date(fmt, d)
    current = fmt.banlist_at(d, Dataset.active())
    if current is None:
        fail(f"{fmt.name} has no ban list in force on {d.isoformat()}")
    return fmt, current


@app.command("show")
def show(
    name: Annotated[str | None, typer.Argument(help="Format id or alias.")] = None,
    when: DateOpt = None,
    output: OutputOpt = Output.TEXT,
    format_file: FormatFileOpt = None,
    region: RegionOpt = None,
) -> None:
    """Show the list in force on a date (Forbidden / Limited / Semi-Limited, or points)."""
    b = _list_at(name, format_file, when, region)
    if output is Output.JSON:
        from deckcheck.reporter.document import BanlistDocument, banlist_named, shape

        print_document("banlist", shape(BanlistDocument, banlist_named(b, _name)))
        return
    lines = [f"{b.name}" + (f"  (label: {b.label})" if b.label else "")]
    lines.append(
        f"  effective {b.effective.isoformat()}"
        + (" (approximate: no source gives the effective day)" if b.approximate else "")
        + (f", in Europe {b.effective_eu.isoformat()}" if b.effective_eu else "")
        + (f", announced {b.announced.isoformat()}" if b.announced else "")
    )
    if b.whitelist:
        lines.append(f"  whitelist: {plural(len(b.entries), 'card')} in the pool")
    if b.points:
        lines.append(f"  points list, cap {b.point_cap}")
    for src in b.sources:
        lines.append(f"  source: {src}")
    groups = b.by_status()
    order = sorted(groups, reverse=True) if b.points else sorted(groups)
    for value in order:
        if not b.points and value >= 3:
            continue
        codes = [c for c in groups[value] if c not in b.groups]
        if not codes:
            continue
        lines.append("")
        lines.append(f"{_value(b, value)} ({len(codes)}):")
        rows = sorted(((_name(c) or str(c)), c) for c in codes)
        lines.extend(f"  {c:>9}  {n}" for n, c in rows)
    for n in sorted(set(b.groups.values())):
        members = sorted(((_name(c) or str(c)), c) for c, g in b.groups.items() if g == n)
        lines.append("")
        lines.append(f"Limited {n} group: {n} card(s) in total from all of these ({len(members)}):")
        lines.extend(f"  {c:>9}  {name}" for name, c in members)
    print_lines(lines)


@app.command("diff")
def diff(
    name: Annotated[str, typer.Argument(help="Format id or alias.")],
    date_a: Annotated[str, typer.Argument(help="First date YYYY-MM-DD.")],
    date_b: Annotated[str, typer.Argument(help="Second date YYYY-MM-DD.")],
    output: OutputOpt = Output.TEXT,
    format_file: FormatFileOpt = None,
    region: RegionOpt = None,
) -> None:
    """The changes between the lists in force on two dates."""
    fmt, a = _format_and_list(name, format_file, date_a, region)
    b = _list_at(name, format_file, date_b, region)
    changes = a.diff(b)
    if output is Output.JSON:
        print_document(
            "banlist-diff",
            {
                "from": {"name": a.name, "effective": a.effective_in(fmt.tcg_region).isoformat()},
                "to": {"name": b.name, "effective": b.effective_in(fmt.tcg_region).isoformat()},
                "changes": [
                    {
                        "passcode": c,
                        "name": _name(c),
                        "from": old,
                        "to": new,
                        "from_text": _value(a, old),
                        "to_text": _value(b, new),
                    }
                    for c, old, new in changes
                ],
            },
        )
        return
    lines = [f"{a.name} -> {b.name}: {plural(len(changes), 'change')}"]
    rows = sorted(((_name(c) or str(c)), c, old, new) for c, old, new in changes)
    for n, c, old, new in rows:
        lines.append(f"  {c:>9}  {n}: {_value(a, old)} -> {_value(b, new)}")
    print_lines(lines)


@app.command("export")
def export(
    name: Annotated[str | None, typer.Argument(help="Format id or alias.")] = None,
    when: DateOpt = None,
    to: Annotated[ExportFormat, typer.Option("--to", help="Export format.")] = (
        ExportFormat.LFLIST
    ),
    out: Annotated[
        str | None,
        typer.Option(
            "--out", help="Write to this file ('-': stdout, the default).", parser=out_name
        ),
    ] = None,
    format_file: FormatFileOpt = None,
    region: RegionOpt = None,
) -> None:
    """Export the list in force on a date as EDOPro lflist.conf (or project TOML)."""
    from deckcheck.rule.banlist import dump_banlist_toml, dump_lflist

    b = _list_at(name, format_file, when, region)
    text = dump_lflist(b, _name) if to is ExportFormat.LFLIST else dump_banlist_toml(b)
    if out is None:
        sys.stdout.write(text)
        return
    write_output(out, text)


def register(main: typer.Typer) -> None:
    """Add ``deckcheck banlist`` to the main app."""
    main.add_typer(app, name="banlist")
