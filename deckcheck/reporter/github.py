"""GitHub Actions workflow commands: one annotation per finding, and a job-summary table.

Each violation becomes one line the runner turns into an annotation on the deck file::

    ::error file=decks/meta.ydk,line=3,title=forbidden::Pot of Greed is Forbidden on ...
    ::warning file=decks/meta.ydk,line=12,title=upcoming-change::Maxx "C" becomes Forbidden ...
    ::notice file=decks/harpie.ydk,line=7,title=treated-as::Harpie Lady 1 counts as Harpie Lady

Severity ``error`` gives ``::error``, ``warning`` ``::warning``, ``note`` ``::notice``; a source
that could not be read is an ``::error`` titled ``unreadable``. ``file`` is relative to the
repository root (:attr:`~deckcheck.reporter.RenderOptions.root`); ``line`` is left out when the
finding has none (a deck-size problem), and both are left out for stdin and URLs.

**Escaping** follows the runner's command syntax (the actions toolkit's ``escapeData`` and
``escapeProperty``): in the message ``%`` → ``%25``, ``\\r`` → ``%0D``, ``\\n`` → ``%0A``; in
property values (``file``, ``title``) also ``:`` → ``%3A`` and ``,`` → ``%2C``. Other control
characters are then escaped with :func:`~deckcheck.reporter.text.clean`, so a crafted file name or
deck line can neither start a command of its own nor move the cursor in a log viewer.

:func:`summary_markdown` is the job summary the Action appends to ``$GITHUB_STEP_SUMMARY``: a
table of decks, legal, illegal and unreadable, then the most frequent codes.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from deckcheck.reporter.text import clean

if TYPE_CHECKING:
    from deckcheck.reporter.options import RenderOptions
    from deckcheck.run.batch import Batch

COMMAND = {"error": "error", "warning": "warning", "note": "notice"}
"""Workflow command of each severity."""


def escape_data(text: str) -> str:
    """A command's message escaped as the runner requires (``%``, CR, LF), then cleaned."""
    return clean(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    """A command property value escaped (``%``, CR, LF, ``:``, ``,``), then cleaned."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(
    kind: str,
    message: str,
    *,
    file: str | None = None,
    line: int | None = None,
    title: str | None = None,
) -> str:
    """One workflow command line: ``::kind file=F,line=L,title=T::message``."""
    props = []
    if file is not None:
        props.append(f"file={escape_property(file)}")
        if line is not None:
            props.append(f"line={int(line)}")
    if title is not None:
        props.append(f"title={escape_property(title)}")
    head = f"::{kind} {','.join(props)}" if props else f"::{kind}"
    return f"{head}::{escape_data(message)}"


def workflow_commands(batch: Batch, options: RenderOptions) -> str:
    """Every finding of every deck as a workflow command, then one plain summary line."""
    from deckcheck.reporter.where import checked_decks, in_csv, locate, locate_line

    lines: list[str] = []
    for report, reg in checked_decks(batch):
        file, _ = locate(report.path, reg, None, options.root)
        where = f" ({clean(report.path)})" if report.path and file is None else ""
        if reg is not None and in_csv(report.path, reg):
            where = f" (the registration on row {reg.row})"
        for v in report.violations:
            sev = v.severity.value
            kind = "error" if options.strict and sev == "warning" else COMMAND[sev]
            line = locate_line(report.path, reg, v.line)
            lines.append(command(kind, v.message + where, file=file, line=line, title=v.code.value))
    for u in batch.unreadable:
        file, line = locate(u.path, u.registration, u.line, options.root)
        message = f"{u.error} [{u.code.value}]"
        lines.append(command("error", message, file=file, line=line, title="unreadable"))
    for k in batch.skipped:
        file, _ = locate(k.path, None, None, options.root)
        shown = "" if file is not None else f"{clean(k.path)}: "
        message = f"{shown}skipped, {k.reason} [{k.code.value}]"
        lines.append(command("notice", message, file=file, title="skipped"))
    lines.append(summary_line(batch))
    return "".join(line + "\n" for line in lines)


def summary_line(batch: Batch) -> str:
    """``deckcheck: 3 decks, 2 legal, 1 illegal, 0 unreadable (tcg, 2025-06-01)``."""
    s = batch.summary
    return (
        f"deckcheck: {s.decks} deck{'s' if s.decks != 1 else ''}, {s.legal} legal, "
        f"{s.illegal} illegal, {s.unreadable} unreadable; {s.errors} errors, "
        f"{s.warnings} warnings ({clean(batch.format)}, {batch.date})"
    )


def markdown_cell(text: str) -> str:
    """A Markdown table cell: pipes and newlines escaped, control characters cleaned."""
    return clean(text).replace("\\", "\\\\").replace("|", "\\|").replace("`", "'")


def summary_markdown(
    batch: Batch, *, top: int = 5, title: str = "deckcheck", root: str | None = None
) -> str:
    """The job summary in Markdown: a table of totals, the ``top`` most frequent codes and the
    illegal decks (paths relative to ``root``, default the current folder)."""
    from deckcheck.reporter.options import repo_path

    s = batch.summary
    codes = Counter(v.code.value for r in batch.reports for v in r.violations)
    verdict = "✅ all decks legal" if not s.illegal and not s.unreadable else "❌ problems found"
    out = [
        f"### {markdown_cell(title)}: {verdict}",
        "",
        "| decks | legal | illegal | unreadable | errors | warnings |",
        "|---:|---:|---:|---:|---:|---:|",
        f"| {s.decks} | {s.legal} | {s.illegal} | {s.unreadable} | {s.errors} | {s.warnings} |",
        "",
    ]
    if codes:
        out += ["| top codes | count |", "|---|---:|"]
        out += [f"| `{code}` | {n} |" for code, n in codes.most_common(top)]
        out.append("")
    illegal = [r for r in batch.reports if not r.legal]
    if illegal:
        out += ["| illegal deck | format | errors |", "|---|---|---|"]
        for r in illegal[:50]:
            errs = sorted({v.code.value for v in r.errors})
            out.append(
                f"| {markdown_cell(repo_path(r.path, root) or r.path) if r.path else '<deck>'} | "
                f"{markdown_cell(r.format)} | " + ", ".join(f"`{c}`" for c in errs) + " |"
            )
        if len(illegal) > 50:
            out.append(f"| … and {len(illegal) - 50} more | | |")
        out.append("")
    return "\n".join(out) + "\n"
