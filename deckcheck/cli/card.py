"""``deckcheck cards``: look cards up in the offline index."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.common import Output, clean, fail, print_document, print_lines, shorten
from deckcheck.cli.options import OutputOpt

if TYPE_CHECKING:
    from deckcheck.card import Card, CardIndex
    from deckcheck.card.model import Lookup

app = typer.Typer(
    rich_markup_mode=None,
    help="Look up cards in the offline card index (passcode or name, in any official card "
    "language: English, Japanese, Chinese, Korean, French, German, Italian, Spanish, "
    "Portuguese).",
    no_args_is_help=True,
)


_LANGUAGE = {
    "ja": "Japanese",
    "zh-CN": "Chinese",
    "ko": "Korean",
    "fr": "French",
    "de": "German",
    "it": "Italian",
    "es": "Spanish",
    "pt": "Portuguese",
    "zh-TW": "Chinese TW",
}
"""The language of each name code, as ``cards show`` labels the names."""


QueryArg = Annotated[str, typer.Argument(help="A passcode (padded or not) or a card name.")]
PreferRushOpt = Annotated[
    bool, typer.Option("--rush", help="Prefer Rush Duel cards when a name is shared.")
]


@app.command("show")
def show(query: QueryArg, output: OutputOpt = Output.TEXT, rush: PreferRushOpt = False) -> None:
    """Show one card's facts. Unknown or ambiguous names exit 2 with suggestions."""
    found = _lookup(query, rush)
    card = found.card
    rush_date = card.ocg_date.isoformat() if card.is_rush and card.ocg_date else None
    if output is Output.JSON:
        from deckcheck.reporter.document import CardDocument, Merged, found_card, shape

        card_doc = shape(CardDocument, Merged({"rush_date": rush_date}, found_card(found)))
        print_document("card", dict(card_doc, names=_index().names_of(card)))
        return
    print_lines(_identity_lines(found) + _release_lines(card) + _flag_lines(card))


def _lookup(query: str, rush: bool) -> Lookup:
    """The card ``query`` names in the active data; exit 2 with suggestions or candidates."""
    from deckcheck.error import AmbiguousCardError, UnknownCardError

    try:
        return _index().lookup(query, rush=rush)
    except UnknownCardError as exc:
        hints = [f"did you mean: {name}" for name in exc.suggestions]
        fail(f"unknown card {query!r}", hints)
    except AmbiguousCardError as exc:
        fail(
            f"ambiguous card name {query!r}; use a passcode",
            [f"{name} ({code})" for code, name in exc.candidates],
        )


def _identity_lines(found: Lookup) -> list[str]:
    """The card's name and passcode (and the code asked for), other names, type and deck."""
    card = found.card
    lines = [f"{card.name}  [{card.passcode:08d}]"]
    if found.record.passcode != card.passcode:
        what = {
            "alternate-artwork": "alternate artwork",
            "prerelease": "pre-release code",
            "variant": "variant",
        }.get(found.match.value, found.match.value)
        lines.append(f"  requested:  {found.record.passcode:08d} ({what} of {card.passcode:08d})")
    lines.extend(_name_lines(_index(), card))
    if card.treated_as:
        lines.append(f"  treated as: {card.treated_as} (counts toward its copy limit)")
    lines.append(f"  type:       {card.type_line}")
    deck = {"main": "Main Deck", "extra": "Extra Deck", "none": "not a deck card"}[card.zone.value]
    if card.extra_kind:
        deck += f" ({card.extra_kind.value})"
    lines.append(f"  deck:       {deck}")
    return lines


def _index() -> CardIndex:
    """The active data's card index."""
    from deckcheck.data.dataset import Dataset

    return Dataset.active().cards


def _name_lines(index: CardIndex, card: Card) -> list[str]:
    """The card's names in the other languages the data has, a line each."""
    names = index.names_of(card)
    return [
        f"  {_LANGUAGE[code] + ':':<11} {clean(n)}"
        for code, n in names.items()
        if n and code != "en"
    ]


def _release_lines(card: Card) -> list[str]:
    """When and where the card was released."""
    if card.is_rush:  # Rush Duel (Japan): dated from Konami ids or EDOPro's lists, an estimate
        return [f"  released:   Rush Duel about {card.ocg_date or '-'}"]
    avail = [r for r, ok in (("OCG", card.in_ocg), ("TCG", card.in_tcg)) if ok]
    lines = [
        f"  released:   OCG {card.ocg_date or '-'}, TCG {card.tcg_date or '-'}"
        f"  (in: {', '.join(avail) or 'none'})"
    ]
    lines.extend(f"              {clean(rel.describe())}" for rel in card.releases)
    return lines


def _flag_lines(card: Card) -> list[str]:
    """The card's flags, archetypes and Konami id, where it has them."""
    lines = []
    flags = [
        n
        for n, ok in (
            ("Rush", card.is_rush),
            ("Legend", card.is_legend),
            ("Skill", card.is_skill),
            ("Token", card.is_token),
            ("unofficial", card.is_unofficial),
            ("pre-release", card.is_prerelease),
            ("GOAT variant", card.is_goat_variant),
        )
        if ok
    ]
    if flags:
        lines.append(f"  flags:      {', '.join(flags)}")
    if card.archetypes:
        lines.append(f"  archetypes: {', '.join(card.archetypes)}")
    if card.konami_id:
        lines.append(f"  konami id:  {card.konami_id}")
    return lines


@app.command("search")
def search(
    text: Annotated[str, typer.Argument(help="Part of a name, or a misspelt name.")],
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=200, help="At most N.")] = 10,
    output: OutputOpt = Output.TEXT,
    rush: Annotated[bool, typer.Option("--rush", help="Rush Duel cards only.")] = False,
) -> None:
    """List the cards whose names best match TEXT, best first (exit 1 when none match)."""
    from deckcheck.data.dataset import Dataset

    index = Dataset.active().cards
    results = _rush_search(index, text, limit) if rush else index.search(text, limit)
    if output is Output.JSON:
        from deckcheck.reporter.document import CardSearchDocument, Merged, shape

        found = {"query": text, "results": [Merged({"score": s}, c) for c, s in results]}
        card_docs = shape(CardSearchDocument, found)
        for card_doc, (c, _) in zip(card_docs["results"], results, strict=True):
            card_doc["names"] = index.names_of(c)
        print_document("card-search", card_docs)
    else:
        print_lines(
            [
                f"{card.passcode:>9}  {card.name}  ({card.type_line})  {score:g}"
                for card, score in results
            ]
        )
        if not results:
            sys.stderr.write(f"no card matches {clean(shorten(repr(text)))}\n")
    if not results:
        raise typer.Exit(1)


def _rush_search(index: CardIndex, text: str, limit: int) -> list[tuple[Card, float]]:
    """The best ``limit`` Rush Duel matches (widening the search until enough are found)."""
    wanted = limit * 8
    while True:
        found = index.search(text, wanted)
        rush = [(c, s) for c, s in found if c.is_rush]
        if len(rush) >= limit or len(found) < wanted or wanted >= len(index):
            return rush[:limit]
        wanted *= 4


def register(main: typer.Typer) -> None:
    """Add ``deckcheck cards`` to the main app."""
    main.add_typer(app, name="cards")
