"""The ``deckcheck`` command line: a thin Typer shell over the library.

Each command group lives in its own module and registers itself on :data:`app`. Exit codes:
0 success / every deck legal, 1 at least one deck illegal, 2 could not run.
"""

from __future__ import annotations

import typer

from deckcheck.cli import banlist, card, convert, format, simulate, validate

app = typer.Typer(
    name="deckcheck",
    help="Build and check Yu-Gi-Oh! decks: card lookups, legality, ban lists and draw odds.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(card.app, name="cards")
for _module in (validate, convert, simulate, format, banlist):
    _module.register(app)


def main() -> None:
    """Console-script entry point."""
    app()
