"""Judges' commands: ``deckcheck fingerprint``, ``deckcheck diff`` and ``deckcheck side``."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.boundary import MAX_TEXT_BYTES as MAX_PLAN_BYTES
from deckcheck.boundary import read_capped
from deckcheck.cli.common import (
    EXIT_ERROR,
    EXIT_ILLEGAL,
    EXIT_OK,
    Output,
    clean,
    fail,
    shorten,
    text_only,
)
from deckcheck.cli.options import (
    DateOpt,
    FormatFileOpt,
    FormatOpt,
    OutputOpt,
    parse_date,
    resolve_format,
)
from deckcheck.reporter.text import plural

if TYPE_CHECKING:
    from deckcheck.deck.model import Deck
    from deckcheck.run.siding import SidePlan, SideResult


def _read(path: str) -> Deck:
    from deckcheck.deck.io import read_path
    from deckcheck.error import DeckcheckError

    try:
        return read_path(path)
    except DeckcheckError as exc:
        fail(str(exc))


def _unread_lines(deck: Deck, where: str) -> list[str]:
    """``path:line: text`` for each line of ``deck`` that names no card."""
    out = []
    for f in deck.unread:
        at = f"{where}:{f.line}" if f.line is not None else where
        out.append(f"{at}: {f.text if f.text is not None else f.message} ({f.code.value})")
    return out


def _json_out(data: object) -> None:
    from deckcheck.reporter import safe

    sys.stdout.write(json.dumps(safe(data), ensure_ascii=False, indent=2) + "\n")


def fingerprint(
    decks: Annotated[
        list[str],
        typer.Argument(
            metavar="DECK...",
            help="Deck files, '-' for stdin, or ydke:// URLs.",
            show_default=False,
        ),
    ],
    output: OutputOpt = Output.TEXT,
) -> None:
    """Print each deck's fingerprint: a short hash of its contents.

    Copies per card per section count; card order, file format, the deck's name and alternate
    artworks do not, so a judge can confirm a played deck is the registered one. A deck with
    lines that name no card (unknown or misspelt names, lines that are not cards) gets no
    fingerprint: its lines are listed on stderr (and under ``unread`` in JSON) and the run exits
    2, as it does when a deck cannot be read.
    """
    from deckcheck.deck.io import read_path
    from deckcheck.deck.model import fingerprint_deck
    from deckcheck.error import DeckcheckError
    from deckcheck.reporter.document.meta import UnreadLineDoc
    from deckcheck.reporter.document.shape import shape

    text_only(output)
    results: list[dict[str, object]] = []
    code = EXIT_OK
    for path in decks:
        try:
            deck = read_path(path)
        except DeckcheckError as exc:
            sys.stderr.write(f"error: {clean(shorten(str(exc)))}\n")
            code = EXIT_ERROR
            continue
        label = deck.source or path
        unread = _unread_lines(deck, label)
        if unread:
            sys.stderr.write(
                f"error: {clean(label)}: no fingerprint: "
                f"{plural(len(unread), 'line')} name no card\n"
            )
            sys.stderr.writelines(f"  {clean(u)}\n" for u in unread)
            code = EXIT_ERROR
        results.append(
            {
                "path": label,
                "name": deck.name,
                "fingerprint": None if unread else fingerprint_deck(deck),
                "counts": deck.counts,
                "unread": [shape(UnreadLineDoc, f) for f in deck.unread],
            }
        )
    if output is Output.JSON:
        _json_out({"decks": results})
    else:
        for r in results:
            if r["fingerprint"] is not None:
                sys.stdout.write(f"{r['fingerprint']}  {clean(str(r['path']))}\n")
    raise typer.Exit(code)


def diff(
    registered: Annotated[str, typer.Argument(help="The registered deck.", show_default=False)],
    played: Annotated[str, typer.Argument(help="The deck played.", show_default=False)],
    output: OutputOpt = Output.TEXT,
) -> None:
    """Show what the played deck is missing or has extra, per section, by card name.

    Alternate artworks, card order and file format do not count as differences. Exit 0 when
    the decks hold the same cards, 1 when they differ, 2 when a deck cannot be read or has
    lines that name no card (they are listed; such decks are never called the same).
    """
    from deckcheck.deck.compare import compare_decks
    from deckcheck.reporter.text import deck_diff_lines

    text_only(output)
    a, b = _read(registered), _read(played)
    result = compare_decks(a, b)
    if output is Output.JSON:
        from deckcheck.reporter.document.deck import DiffDocument
        from deckcheck.reporter.document.shape import Merged, shape

        sources = {"registered": a.source, "played": b.source}
        _json_out(shape(DiffDocument, Merged(sources, result)))
    else:
        lines = [
            f"registered {result.registered_fingerprint}  {clean(a.source or registered)}",
            f"played     {result.played_fingerprint}  {clean(b.source or played)}",
        ]
        if result.unread:
            lines.append("NOT COMPARED: lines that name no card (fix them first):")
            for deck, given in ((a, registered), (b, played)):
                lines += [f"  {clean(u)}" for u in _unread_lines(deck, deck.source or given)]
        elif result.same:
            lines.append("SAME: the decks hold the same cards")
        else:
            lines.append("DIFFERENT (the played deck against the registered one):")
            lines += deck_diff_lines(result)
        sys.stdout.write("\n".join(lines) + "\n")
    if result.unread:
        sys.stderr.write("error: a deck has lines that name no card; not compared\n")
        raise typer.Exit(EXIT_ERROR)
    raise typer.Exit(EXIT_OK if result.same else EXIT_ILLEGAL)


SideDeckArg = Annotated[str, typer.Argument(help="The deck (Game 1).", show_default=False)]
PlanOpt = Annotated[
    Path | None,
    typer.Option("--plan", metavar="FILE", help="Side plan file ('in:' and 'out:' lists)."),
]
CardsInOpt = Annotated[
    str | None,
    typer.Option("--in", metavar="CARDS", help='Cards sided in, e.g. "3 Card A, 1 Card B".'),
]
CardsOutOpt = Annotated[
    str | None, typer.Option("--out-cards", metavar="CARDS", help="Cards sided out, same form.")
]


def side(
    deck: SideDeckArg,
    plan: PlanOpt = None,
    cards_in: CardsInOpt = None,
    cards_out: CardsOutOpt = None,
    format: FormatOpt = None,
    format_file: FormatFileOpt = None,
    on: DateOpt = None,
    output: OutputOpt = Output.TEXT,
) -> None:
    """Apply a side plan and check it.

    Checks that swaps are one-for-one, that cards sided in come from the Side Deck and cards
    sided out from the deck, that Main and Extra Deck sizes do not change, and that the sided
    deck is legal in the format. Exit 0 when all hold, 1 when one does not, 2 when the deck or
    plan cannot be read.
    """
    from deckcheck.run.siding import apply_side_plan

    text_only(output)
    if plan is None and cards_in is None and cards_out is None:
        fail("give a side plan: --plan FILE, or --in CARDS and --out-cards CARDS")
    if plan is not None and (cards_in is not None or cards_out is not None):
        fail("give --plan or --in/--out-cards, not both")
    fmt = resolve_format(format, format_file)
    when = parse_date(on)
    d = _read(deck)
    result = apply_side_plan(d, _side_plan(d, plan, cards_in, cards_out), fmt, when)
    if output is Output.JSON:
        from deckcheck.reporter.document.deck import SideResultDocument
        from deckcheck.reporter.document.shape import shape

        _json_out(shape(SideResultDocument, result))
    else:
        _write_side(result)
    raise typer.Exit(EXIT_OK if result.ok else EXIT_ILLEGAL)


def _side_plan(d: Deck, plan: Path | None, cards_in: str | None, cards_out: str | None) -> SidePlan:
    """The side plan of ``--plan FILE``, or of ``--in`` and ``--out-cards`` (exit 2 when it
    cannot be read)."""
    from deckcheck.error import DeckcheckError
    from deckcheck.run.siding import SidePlan, parse_card_list, parse_side_plan

    try:
        if plan is None:
            side_cards = [c.card for c in d.side if c.card is not None]
            deck_cards = [c.card for c in (*d.main, *d.extra) if c.card is not None]
            return SidePlan(
                parse_card_list(cards_in or "", among=side_cards),
                parse_card_list(cards_out or "", among=deck_cards),
            )
        try:
            text = read_capped(plan, MAX_PLAN_BYTES).decode("utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            fail(f"{plan}: cannot read the side plan: {exc}")
        try:
            return parse_side_plan(text)
        except DeckcheckError as exc:
            fail(f"{plan}: {exc}")
    except DeckcheckError as exc:
        fail(str(exc))


def _write_side(result: SideResult) -> None:
    """The side plan's result as text: the cards moved, the problems, the sided deck and its
    report, and the verdict."""
    from deckcheck.reporter import render

    lines = [f"side plan: {result.moved['in']} in, {result.moved['out']} out"]
    for label, moved in (("in: ", result.moved_in), ("out:", result.moved_out)):
        if moved:
            lines.append(f"  {label} " + ", ".join(f"{n} {clean(name)}" for name, _, n in moved))
    lines += [f"  error   {p.code.value:17} {clean(p.message)}" for p in result.problems]
    lines.append("sided deck:")
    for section, cards in result.sections.items():
        total = sum(k for _, _, k in cards)
        body = ", ".join(f"{k} {clean(name)}" for name, _, k in cards) or "-"
        lines.append(f"  {section.capitalize()} ({total}): {body}")
    colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    sys.stdout.write("\n".join(lines) + "\n" + render(result.report, "text", colour=colour))
    verdict = "OK" if result.ok else "NOT OK"
    sys.stdout.write(f"{verdict}: the plan {'works' if result.ok else 'does not work'}\n")


def register(app: typer.Typer) -> None:
    """Add ``fingerprint``, ``diff`` and ``side`` to the main app."""
    app.command("fingerprint")(fingerprint)
    app.command("diff")(diff)
    app.command("side")(side)
