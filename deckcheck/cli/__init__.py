"""The ``deckcheck`` command line: a thin Typer shell over the library.

Each command group lives in its own module with a ``register(app)`` function; :data:`COMMANDS`
names each command's module and one-line help, so a command's module is imported only when that
command runs (``deckcheck --help`` lists them all from the table). The shared options are in
:mod:`deckcheck.cli.options`. Exit codes: 0 success / every deck legal, 1 at
least one deck illegal, 2 could not run. :func:`main` turns any exception into one ``error:``
line and exit 2 (``--debug`` or ``DECKCHECK_DEBUG=1`` shows the traceback).
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Annotated, Any, NamedTuple, NoReturn

import typer
from typer.core import TyperGroup


class Entry(NamedTuple):
    """One command of the root: the module (under ``deckcheck.cli``) whose ``register(app)``
    adds it, and its one-line help (the first sentence of its own help; a test keeps them
    equal)."""

    module: str
    help: str


COMMANDS: dict[str, Entry] = {
    "validate": Entry("validate", "Check decks: report every problem with a stable code."),
    "batch": Entry(
        "batch", "Check deck registrations and write reports for organisers and judges."
    ),
    "sheet": Entry("sheet", "Write deck registration sheets: one PDF, a page per deck."),
    "meta": Entry(
        "meta",
        "Print the metagame: archetypes by decks and share, the most-played cards, staples.",
    ),
    "fingerprint": Entry("judge", "Print each deck's fingerprint: a short hash of its contents."),
    "diff": Entry(
        "judge",
        "Show what the played deck is missing or has extra, per section, by card name.",
    ),
    "side": Entry("judge", "Apply a side plan and check it."),
    "upcoming": Entry(
        "upcoming",
        "Which decks become illegal or change under the next announced list, and from when.",
    ),
    "convert": Entry("convert", "Convert a deck between ydk, ydke, text, omega and json."),
    "simulate": Entry(
        "simulate",
        "Goldfish odds: how often a hand meets each condition, going first and second, by turn.",
    ),
    "schema": Entry(
        "schema",
        "Print the JSON Schema of a JSON document or of the repository config (or of all).",
    ),
    "serve": Entry(
        "serve",
        "Serve the HTTP API (/v1/..., OpenAPI at /openapi.json, docs at /docs) and the web deck "
        "builder at /.",
    ),
    "init": Entry(
        "init",
        "Write deckcheck.toml, a GitHub workflow using the deckcheck Action and a "
        ".pre-commit-config.yaml, pinned to this deckcheck's commit or release.",
    ),
    "cards": Entry(
        "card",
        "Look up cards in the offline card index (passcode or name, in any official card "
        "language: English, Japanese, Chinese, Korean, French, German, Italian, Spanish, "
        "Portuguese).",
    ),
    "formats": Entry("format", "List formats and eras, or show one format's rules."),
    "banlist": Entry("banlist", "Show, compare and export ban lists."),
    "data": Entry("data", "Show, update, export or reset the card and ban-list data."),
    "event": Entry(
        "event",
        "Run an event: take decklists until a deadline, lock, check at the table, publish.",
    ),
}
"""The root's commands in ``--help`` order: name -> module and one-line help."""


def load_command(name: str) -> Any:
    """The click command ``name`` of the root, built from its module (imported now)."""
    entry = COMMANDS[name]
    module = importlib.import_module(f"deckcheck.cli.{entry.module}")
    holder = typer.Typer(rich_markup_mode=None)
    holder.callback()(_nothing)  # a callback keeps the holder a group, even for one command
    module.register(holder)
    return typer.main.get_group(holder).commands[name]


def _nothing() -> None:
    """(The holder's callback: never run.)"""


def _click_errors() -> tuple[type[Exception], ...]:
    """The usage-error classes of the click that typer runs on (typer >= 0.26 carries its own
    copy, ``typer._click``; an older typer uses the ``click`` package)."""
    import importlib

    for name in ("typer._click.exceptions", "click.exceptions"):
        try:
            found: type[Exception] = importlib.import_module(name).ClickException
        except (ImportError, AttributeError):
            continue
        return (found,)
    return ()


_USAGE_ERRORS = _click_errors()


def _command_path(ctx: Any) -> str:
    """``deckcheck cards show`` for a context (whatever program name started it)."""
    names: list[str] = []
    while ctx is not None and ctx.parent is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(["deckcheck", *reversed(names)])


class _Group(TyperGroup):
    """The root command: its commands come from :data:`COMMANDS`, each module imported only when
    its command runs; a usage error (unknown option, bad value, missing argument) is one
    ``error:`` line naming the command's ``--help``, exit 2, instead of a usage block."""

    def list_commands(self, ctx: Any) -> list[str]:
        """Every command's name, in ``--help`` order."""
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command ``cmd_name`` (its module imported now), or None if there is none."""
        if cmd_name not in COMMANDS:
            return None
        if cmd_name not in self.commands:
            self.commands[cmd_name] = load_command(cmd_name)
        return self.commands[cmd_name]

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The ``Commands:`` section of ``--help`` from the table, importing no command."""
        from typer._click.utils import make_default_short_help

        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, make_default_short_help(e.help, limit)) for name, e in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: Any) -> Any:
        """Run the command; an error of deckcheck it raises is its ``error:`` line (in the
        command's ``--lang``, while the context that knows it is open) and its exit code."""
        from deckcheck.error import DeckcheckError

        try:
            return super().invoke(ctx)
        except DeckcheckError as exc:
            if _debug():
                raise
            from deckcheck.cli.common import error_line

            sys.stderr.write(error_line(str(exc)))
            raise typer.Exit(exc.exit_code) from None

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line; usage errors become one ``error:`` line (exit 2)."""
        try:
            rv = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except _USAGE_ERRORS as error:
            if not standalone_mode:
                raise
            from deckcheck.reporter.text import clean, shorten

            exc: Any = error

            if type(exc).__name__ == "NoArgsIsHelpError":  # a group run without a command
                sys.stdout.write(exc.format_message() + "\n")
                sys.exit(exc.exit_code)
            message = " ".join(exc.format_message().split())
            hint = f" (see '{_command_path(getattr(exc, 'ctx', None))} --help')"
            sys.stderr.write(f"error: {clean(shorten(message))}{hint}\n")
            sys.exit(exc.exit_code)
        except typer.Abort:
            if not standalone_mode:
                raise
            sys.stderr.write("error: aborted\n")
            sys.exit(1)
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    cls=_Group,
    name="deckcheck",
    help="Build and check Yu-Gi-Oh! decks: card lookups, legality, ban lists and draw odds.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if not value:
        return
    from deckcheck import __version__
    from deckcheck.data.dataset import Dataset

    data = Dataset.active()
    origin, _ = Dataset.active_origin()
    sys.stdout.write(
        f"deckcheck {__version__}\ndata as of {data.as_of.isoformat()}, "
        f"fingerprint {data.fingerprint[:16]} ({origin.value}: {data.folder})\n"
    )
    raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help="Print the version, the data's as-of date and fingerprint, and exit.",
        ),
    ] = False,
    debug: Annotated[
        bool,
        typer.Option("--debug", help="Show a traceback when deckcheck fails unexpectedly."),
    ] = False,
    offline: Annotated[
        bool,
        typer.Option("--offline", help="Never use the network (same as DECKCHECK_OFFLINE=1)."),
    ] = False,
) -> None:
    """Build and check Yu-Gi-Oh! decks: card lookups, legality, ban lists and draw odds."""
    if debug:
        os.environ["DECKCHECK_DEBUG"] = "1"
    if offline:
        os.environ["DECKCHECK_OFFLINE"] = "1"


_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT})
"""errno values of a failed write to stdout (full disk, device error, file too large, quota)."""


def _debug() -> bool:
    return os.environ.get("DECKCHECK_DEBUG") == "1" or "--debug" in sys.argv[1:]


def _flush() -> int | None:
    """Flush stdout; on a write error (full disk, closed pipe) say so and give exit code 2."""
    from deckcheck.error import DeckcheckError

    try:
        sys.stdout.flush()
    except OSError as exc:
        _silence_stdout()
        sys.stderr.write(
            f"error: {exc}\n"
            if isinstance(exc, DeckcheckError)
            else f"error: cannot write the output: {exc.strerror or exc}\n"
        )
        return 2
    return None


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main() -> NoReturn:
    """Console-script entry point: runs the app and ends the process with its exit status (no
    exception escapes as a traceback)."""
    from deckcheck.cli import stdio

    try:
        stdio.guard()
        app()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        code = 130
    except Exception as exc:  # an unexpected error is a bug, never a traceback
        if _debug():
            raise
        code = _report_error(exc)
    flushed = _flush()
    if flushed is None and stdio.failed() and code in (0, 1):
        sys.stderr.write("error: cannot write the output\n")  # (its error was caught somewhere)
        flushed = 2
    _end(flushed if flushed is not None and code in (0, 1) else code)


def _end(code: int) -> NoReturn:
    """End the process with exit status ``code`` as :func:`sys.exit` would, but without the
    interpreter's teardown, which frees every object left (the modules, the card data) one by
    one: a tenth of a short command's time (``bench/``). The exit functions (:mod:`atexit`) run
    and every standard stream is flushed first; while a thread other than a daemon still
    runs, the process exits as usual (waiting for it)."""
    if _running() or not 0 <= code <= 255:
        sys.exit(code)  # (in the usual order: the threads are waited for, then exit functions)
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):  # (all of them)
        with contextlib.suppress(OSError, ValueError, AttributeError):  # (closed or gone)
            stream.flush()  # type: ignore[union-attr]
    os._exit(code)


def _running() -> bool:
    """True while a thread that is not a daemon runs beside this one (only if any started)."""
    threading = sys.modules.get("threading")
    if threading is None:
        return False
    me = threading.current_thread()
    return any(t is not me and not t.daemon and t.is_alive() for t in threading.enumerate())


def _report_error(exc: Exception) -> int:
    """Write the one ``error:`` line of an exception that ended a command; its exit code."""
    from deckcheck.error import DeckcheckError
    from deckcheck.reporter.text import clean, shorten

    if isinstance(exc, DeckcheckError):
        from deckcheck.cli.common import error_line

        sys.stderr.write(error_line(str(exc)))
        return exc.exit_code
    if isinstance(exc, BrokenPipeError):
        _silence_stdout()
        sys.stderr.write("error: cannot write the output: the reader went away\n")
        return 2
    if isinstance(exc, OSError):
        what = "cannot write the output: " if exc.errno in _WRITE_ERRORS else ""
        if exc.filename is not None:
            what = f"{exc.filename}: "
        sys.stderr.write(f"error: {clean(shorten(what + (exc.strerror or str(exc))))}\n")
        return 2
    sys.stderr.write(
        f"error: unexpected {type(exc).__name__}: {clean(str(exc))[:500]} "
        "(run with --debug for details; please report it)\n"
    )
    return 2
