"""``deckcheck convert``: read a deck in one format and write it in another."""

from __future__ import annotations

import enum
import os
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from deckcheck.cli.common import clean, fail


class FormatChoice(enum.StrEnum):
    """Deck file formats on the command line (mirrors deckcheck.io.DeckFormat)."""

    YDK = "ydk"
    YDKE = "ydke"
    TEXT = "text"
    OMEGA = "omega"
    JSON = "json"


def _write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename."""
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def convert(
    source: Annotated[
        str, typer.Argument(metavar="IN", help="Deck file, '-' for stdin, or a ydke:// URL.")
    ],
    from_: Annotated[
        FormatChoice | None,
        typer.Option("--from", help="Input format (default: detected from the content)."),
    ] = None,
    to: Annotated[FormatChoice, typer.Option("--to", help="Output deck format.")] = (
        FormatChoice.YDK
    ),
    out: Annotated[
        str, typer.Option("--out", metavar="FILE", help="Output file, '-' for stdout (default).")
    ] = "-",
    rush: Annotated[
        bool, typer.Option("--rush", help="Prefer Rush Duel cards for names in text lists.")
    ] = False,
) -> None:
    """Convert a deck between ydk, ydke, text, omega and json.

    Unknown passcodes are kept; unknown or ambiguous names cannot be and are left out. Both are
    reported on stderr as warnings with their line numbers. Exit 2 if the input cannot be read
    or the output cannot be written (an existing output file is then left untouched).
    """
    from deckcheck.deck import FindingCode
    from deckcheck.error import DeckcheckError
    from deckcheck.io import read_path, write_deck

    try:
        deck = read_path(source, fmt=from_.value if from_ else None, rush=rush)
    except DeckcheckError as exc:
        fail(str(exc))
    where = deck.source or source
    for finding in deck.findings:
        at = f"{where}:{finding.line}" if finding.line is not None else where
        sys.stderr.write(f"warning: {clean(at)}: {clean(finding.message)}\n")
        label = "candidate" if finding.code is FindingCode.AMBIGUOUS_CARD else "did you mean"
        for hint in finding.suggestions:
            sys.stderr.write(f"  {label}: {clean(hint)}\n")
    try:
        text = write_deck(deck, to.value)
    except DeckcheckError as exc:
        fail(f"cannot write {to.value}: {exc}")
    if out == "-":
        # a deck file's bytes go to a file or pipe unchanged; on a terminal, escaped
        sys.stdout.write(
            text if not sys.stdout.isatty() else "\n".join(map(clean, text.split("\n")))
        )
        return
    try:
        _write_atomic(Path(out), text)
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")


def register(app: typer.Typer) -> None:
    """Add the ``convert`` command to the main app."""
    app.command("convert")(convert)
