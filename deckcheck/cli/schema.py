"""``deckcheck schema``: the JSON Schema of each JSON document deckcheck prints."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from deckcheck.cli.common import fail


def schema_command(
    name: Annotated[
        str | None,
        typer.Argument(
            metavar="[NAME]",
            help="validation, goldfish, formats, format, banlist, banlist-diff, card, "
            "card-search or data-status (default: all, keyed by name).",
        ),
    ] = None,
) -> None:
    """Print the JSON Schema of a JSON document (or of all of them)."""
    from deckcheck.render.document import DOCUMENTS, schema

    if name is not None and name not in DOCUMENTS:
        fail(f"unknown document {name!r}", ["documents: " + ", ".join(DOCUMENTS)])
    sys.stdout.write(json.dumps(schema(name), ensure_ascii=False, indent=2) + "\n")


def register(app: typer.Typer) -> None:
    """Add ``deckcheck schema`` to the main app."""
    app.command("schema")(schema_command)
