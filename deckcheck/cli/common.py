"""Helpers shared by the CLI command modules: output formats, errors, exit codes."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer

from deckcheck.error import ExitCode
from deckcheck.reporter import OutputFormat as Output
from deckcheck.reporter.text import clean
from deckcheck.reporter.text import shorten as shorten

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
    "text_only",
    "write_output",
]


def text_only(output: Output) -> None:
    """Exit 2 unless ``output`` is text or JSON (for the commands that write only those)."""
    if output not in (Output.TEXT, Output.JSON):
        fail(f"this command writes text or json, not {output.value}")


def print_json(data: Any) -> None:
    """Write ``data`` as indented UTF-8 JSON to stdout."""
    from deckcheck.reporter import safe

    sys.stdout.write(json.dumps(safe(data), ensure_ascii=False, indent=2) + "\n")


def print_lines(lines: list[str]) -> None:
    """Write text lines to stdout, each escaped for the terminal (:func:`clean`)."""
    sys.stdout.write("".join(clean(line) + "\n" for line in lines))


def write_output(path: str, text: str) -> None:
    """Write ``text`` to the file ``path`` through the one output writer
    (:func:`deckcheck.boundary.write_file`: atomic, keeps mode and owner, respects the umask,
    refuses what the user could not write); a failure is one ``error:`` line naming the file and
    exit 2. ``-`` is standard output, as it is standard input where a deck is read."""
    from deckcheck.boundary import write_file
    from deckcheck.error import OutputError

    if path == "-":
        sys.stdout.write(text)
        return
    try:
        write_file(path, text)
    except OutputError as exc:
        fail(str(exc))


def append_whole(path: str, text: str) -> None:
    """Append ``text`` (UTF-8) to the file ``path``: all of it or, on a failure (a full disk),
    none of it (a regular file is cut back to its old size). Raises :class:`OSError`.

    The one writer that appends rather than replaces (a CI job summary such as
    ``$GITHUB_STEP_SUMMARY`` collects every step's text), so it does not go through
    :func:`deckcheck.boundary.write_file`."""
    import os
    import stat

    from deckcheck.boundary import escape_surrogates

    data = escape_surrogates(text).encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        st = os.fstat(fd)
        done = 0
        try:
            while done < len(data):
                done += os.write(fd, data[done:])
        except OSError:
            if stat.S_ISREG(st.st_mode) and done:
                os.ftruncate(fd, st.st_size)
            raise
    finally:
        os.close(fd)


def print_document(model_name: str, data: Any) -> None:
    """Write ``data`` through its pydantic document model (``deckcheck schema NAME``)."""
    from deckcheck.reporter import document, safe

    model = document.document_model(model_name).model_validate(safe(data))
    sys.stdout.write(document.dump(model))


LANG_KEY = "deckcheck.lang"
"""Where ``--lang`` keeps the language it resolved, in the click context's ``meta`` (shared by
every context of one run), so an error line can be written in it."""


def chosen_lang() -> str | None:
    """The language ``--lang`` resolved for the command running now (None: no such option)."""
    import importlib

    # the click that typer runs on: its own copy (typer >= 0.26), else the click package
    for name in ("typer._click.globals", "click.globals"):
        try:
            ctx = importlib.import_module(name).get_current_context(silent=True)
        except (ImportError, AttributeError):
            continue
        got = ctx.meta.get(LANG_KEY) if ctx is not None else None
        if isinstance(got, str):
            return got
    return None


def error_line(message: str) -> str:
    """``error: message`` (escaped): in a ``--lang`` other than English, while an error of
    deckcheck is being handled, what its code means comes first in that language, then the
    English message, which names the place (as the service's ``message_local``)."""
    from deckcheck.error import DeckcheckError

    lang = chosen_lang()
    exc = sys.exc_info()[1]
    if lang and lang != "en" and isinstance(exc, DeckcheckError):
        from deckcheck.reporter.i18n import error_message, localizer
        from deckcheck.rule.reason import Reason

        said = exc.args[0] if exc.args else None
        if isinstance(said, Reason) and message == said:  # the error's own words: its facts
            message = localizer(lang).reason(said)
        message = error_message(lang, exc.code, message)
    return f"error: {clean(shorten(message))}\n"


def fail(message: str, hints: list[str] | None = None) -> NoReturn:
    """Print ``error: message`` (and hint lines) to stderr, escaped, and exit with code 2."""
    sys.stderr.write(error_line(message))
    for hint in hints or []:
        sys.stderr.write(f"  {clean(hint)}\n")
    raise typer.Exit(EXIT_ERROR)
