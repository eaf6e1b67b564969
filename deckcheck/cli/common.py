"""Helpers shared by the CLI command modules: output formats, errors, exit codes."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer

from deckcheck.batch import ExitCode
from deckcheck.render import OutputFormat as Output
from deckcheck.render.text import clean

EXIT_OK = int(ExitCode.OK)
EXIT_ILLEGAL = int(ExitCode.ILLEGAL)
EXIT_ERROR = int(ExitCode.ERROR)

__all__ = [
    "EXIT_ERROR",
    "EXIT_ILLEGAL",
    "EXIT_OK",
    "Output",
    "clean",
    "fail",
    "print_json",
    "print_lines",
]


def print_json(data: Any) -> None:
    """Write ``data`` as indented UTF-8 JSON to stdout."""
    from deckcheck.render import safe

    sys.stdout.write(json.dumps(safe(data), ensure_ascii=False, indent=2) + "\n")


def print_lines(lines: list[str]) -> None:
    """Write text lines to stdout, each escaped for the terminal (:func:`clean`)."""
    sys.stdout.write("".join(clean(line) + "\n" for line in lines))


def print_document(model_name: str, data: Any) -> None:
    """Write ``data`` through its pydantic document model (``deckcheck schema NAME``)."""
    from deckcheck.render import document, safe

    model = document.DOCUMENTS[model_name].model_validate(safe(data))
    sys.stdout.write(document.dump(model))


def fail(message: str, hints: list[str] | None = None) -> NoReturn:
    """Print ``error: message`` (and hint lines) to stderr, escaped, and exit with code 2."""
    sys.stderr.write(f"error: {clean(message)}\n")
    for hint in hints or []:
        sys.stderr.write(f"  {clean(hint)}\n")
    raise typer.Exit(EXIT_ERROR)
