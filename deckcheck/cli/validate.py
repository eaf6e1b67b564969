"""``deckcheck validate``: check decks against a format at a date."""

from __future__ import annotations

import os
import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from deckcheck.cli.common import EXIT_ERROR, EXIT_ILLEGAL, EXIT_OK, Output, fail, print_json

if TYPE_CHECKING:
    from deckcheck.format import Format
    from deckcheck.report import Report

DECK_SUFFIXES = (".ydk", ".ydke", ".txt", ".json", ".omega")
"""File name endings read when a folder is given."""


def parse_date(text: str | None) -> date | None:
    """A ``YYYY-MM-DD`` option value, or exit 2 with a clear message."""
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        fail(f"bad date {text!r}: use YYYY-MM-DD, e.g. 2025-04-07")


def resolve_format(name: str | None, file: Path | None) -> Format:
    """The format named by ``--format`` or defined by ``--format-file`` (exit 2 if unusable)."""
    from deckcheck.error import DeckcheckError
    from deckcheck.format import get_format, load_format_file

    if name is not None and file is not None:
        fail("give --format or --format-file, not both")
    try:
        if file is not None:
            return load_format_file(file)
        return get_format(name or "tcg")
    except DeckcheckError as exc:
        fail(str(exc))


def expand_paths(paths: list[str]) -> list[str]:
    """Files, folders (recursive, deck files only, sorted), ``-`` and ``ydke://`` URLs."""
    out: list[str] = []
    for p in paths:
        if p == "-" or p.startswith("ydke://"):
            out.append(p)
            continue
        path = Path(p)
        if path.is_dir():
            found = sorted(
                str(f)
                for f in path.rglob("*")
                if f.is_file() and f.suffix.lower() in DECK_SUFFIXES and _looks_like_deck(f)
            )
            if not found:
                fail(f"{p}: no deck files ({', '.join(DECK_SUFFIXES)}) in this folder")
            out.extend(found)
        elif path.exists():
            out.append(p)
        else:
            fail(f"{p}: no such file or folder")
    return out


def _looks_like_deck(path: Path) -> bool:
    """In a folder scan, skip ``.json`` files that are not deckcheck deck JSON (say so)."""
    if path.suffix.lower() != ".json":
        return True
    import json

    try:
        doc = json.loads(path.read_bytes()[: 1 << 20])
    except (OSError, ValueError):
        doc = None
    if isinstance(doc, dict) and "deckcheck" in doc:
        return True
    sys.stderr.write(f"note: skipped {path}: not a deckcheck deck JSON file\n")
    return False


def _colour(text: str, code: str, on: bool) -> str:
    return f"\033[{code}m{text}\033[0m" if on else text


def render_text(report: Report, colour: bool) -> str:
    """One deck's result for a terminal: a verdict line, then one line per finding."""
    mark = _colour("LEGAL", "1;32", colour) if report.legal else _colour("ILLEGAL", "1;31", colour)
    bl = f", list {report.banlist.name} ({report.banlist.effective})" if report.banlist else ""
    c = report.counts
    head = (
        f"{mark}  {report.path or '<deck>'}  [{report.format}, era {report.era}, "
        f"{report.date}{bl}]  main {c['main']} / extra {c['extra']} / side {c['side']}"
    )
    if report.point_cap is not None:
        head += f"  points {report.points}/{report.point_cap}"
    lines = [head]
    sev_colour = {"error": "31", "warning": "33", "note": "36"}
    for v in report.violations:
        sev = _colour(f"{v.severity.value:7}", sev_colour[v.severity.value], colour)
        where = f" (line {v.line})" if v.line is not None else ""
        sec = f"[{v.section}] " if v.section else ""
        lines.append(f"  {sev} {v.code.value:17} {sec}{v.message}{where}")
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    """Add ``validate`` to the main app."""

    @app.command("validate")
    def validate_cmd(
        paths: Annotated[
            list[str],
            typer.Argument(
                help="Deck files, folders (searched recursively), '-' for stdin, or ydke:// URLs.",
                show_default=False,
            ),
        ],
        format: Annotated[
            str | None,
            typer.Option(
                "--format", "-f", help="Format or era id (default tcg); see 'deckcheck formats'."
            ),
        ] = None,
        format_file: Annotated[
            Path | None,
            typer.Option("--format-file", help="An organiser's format file (TOML)."),
        ] = None,
        on: Annotated[
            str | None,
            typer.Option("--date", "-d", help="Event date YYYY-MM-DD (default today)."),
        ] = None,
        output: Annotated[
            Output, typer.Option("--output", "-o", help="Output format.")
        ] = Output.TEXT,
        allow_prerelease: Annotated[
            bool,
            typer.Option("--allow-prerelease", help="Pre-release codes are warnings, not errors."),
        ] = False,
    ) -> None:
        """Check decks: report every problem with a stable code.

        Exit 0 when every deck is legal (warnings allowed), 1 when any deck is illegal,
        2 when deckcheck could not run (bad arguments, unreadable file, unknown format).
        """
        from deckcheck.error import DeckcheckError
        from deckcheck.format import Pool
        from deckcheck.io import read_path
        from deckcheck.validation import summarize, validate

        fmt = resolve_format(format, format_file)
        when = parse_date(on)
        files = expand_paths(paths)
        reports: list[Report] = []
        failures: list[dict[str, Any]] = []
        for p in files:
            try:
                deck = read_path(p, rush=fmt.pool is Pool.RUSH)
            except DeckcheckError as exc:
                failures.append({"path": p, "error": str(exc)})
                continue
            label = "<stdin>" if p == "-" else ("ydke://…" if p.startswith("ydke://") else p)
            reports.append(validate(deck, fmt, when, allow_prerelease=allow_prerelease, path=label))
        summary = summarize(reports)
        summary["unreadable"] = len(failures)
        if output is Output.JSON:
            doc: dict[str, Any] = {
                "results": [r.to_dict() for r in reports],
                "summary": summary,
            }
            if failures:
                doc["errors"] = failures
            print_json(doc)
        else:
            colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
            for r in reports:
                sys.stdout.write(render_text(r, colour) + "\n")
            if len(reports) + len(failures) > 1:
                sys.stdout.write(
                    f"{summary['decks']} decks: {summary['legal']} legal, "
                    f"{summary['illegal']} illegal"
                    + (f", {len(failures)} unreadable" if failures else "")
                    + "\n"
                )
        for f in failures:
            sys.stderr.write(f"error: {f['error']}\n")
        if failures:
            raise typer.Exit(EXIT_ERROR)
        raise typer.Exit(EXIT_OK if all(r.legal for r in reports) else EXIT_ILLEGAL)
