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
            help="validation, upcoming, goldfish, goldfish-sweep, goldfish-compare, formats, "
            "format, banlist, banlist-diff, card, card-search, data-status, meta, or config (the "
            "deckcheck.toml file) (default: all, keyed by name).",
        ),
    ] = None,
) -> None:
    """Print the JSON Schema of a JSON document or of the repository config (or of all)."""
    from deckcheck.reporter.document import DOCUMENT_NAMES, schema

    if name is not None and name not in DOCUMENT_NAMES:
        fail(f"unknown document {name!r}", ["documents: " + ", ".join(DOCUMENT_NAMES)])
    sys.stdout.write(json.dumps(schema(name), ensure_ascii=False, indent=2) + "\n")


def register(app: typer.Typer) -> None:
    """Add ``deckcheck schema`` to the main app."""
    app.command("schema")(schema_command)
