"""Helpers shared by the CLI command modules: output formats, errors, exit codes."""

from __future__ import annotations

import enum
import json
import sys
from typing import Any, NoReturn

import typer

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_ERROR = 2


class Output(enum.StrEnum):
    """Output format of a command."""

    TEXT = "text"
    JSON = "json"


def print_json(data: Any) -> None:
    """Write ``data`` as indented UTF-8 JSON to stdout."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def fail(message: str, hints: list[str] | None = None) -> NoReturn:
    """Print ``error: message`` (and hint lines) to stderr and exit with code 2."""
    sys.stderr.write(f"error: {message}\n")
    for hint in hints or []:
        sys.stderr.write(f"  {hint}\n")
    raise typer.Exit(EXIT_ERROR)
