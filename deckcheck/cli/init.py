"""``deckcheck init``: write a deck repository's starter files, asking nothing."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.common import clean, fail

if TYPE_CHECKING:
    from deckcheck.run.scaffold import Ref


def _folder_pair(text: str) -> tuple[str, str]:
    glob, sep, fmt = text.rpartition("=")
    if not sep or not glob.strip() or not fmt.strip():
        fail(f"--folder {text!r}: use GLOB=FORMAT (e.g. 'goat/**=goat')")
    return glob.strip(), fmt.strip()


FolderArg = Annotated[
    Path,
    typer.Argument(metavar="[DIR]", help="The deck repository (default: the current folder)."),
]
DefaultFormatOpt = Annotated[
    str, typer.Option("--format", "-f", help="Default format of the decks.")
]
FoldersOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--folder",
        metavar="GLOB=FORMAT",
        help="A format per folder, e.g. 'goat/**=goat' (repeatable; first match wins).",
    ),
]
IncludeOpt = Annotated[
    list[str] | None,
    typer.Option("--include", metavar="GLOB", help="Check only these files (repeatable)."),
]
ExcludeOpt = Annotated[
    list[str] | None,
    typer.Option("--exclude", metavar="GLOB", help="Never check these files (repeatable)."),
]
RepoOpt = Annotated[
    str | None,
    typer.Option(
        "--repo",
        metavar="URL",
        help="Where deckcheck is hosted (pre-commit 'repo' and the "
        "Action's OWNER/NAME); default https://github.com/OWNER/deckcheck.",
    ),
]
RevOpt = Annotated[
    str | None,
    typer.Option(
        "--rev",
        metavar="REV",
        help="Pin this commit or tag (default: the running "
        "deckcheck's commit, else its release tag v<version>).",
    ),
]
UpcomingOpt = Annotated[
    bool, typer.Option("--upcoming/--no-upcoming", help="The workflow also runs 'upcoming'.")
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace files that are already there.")]


def init_command(
    folder: FolderArg = Path("."),
    format: DefaultFormatOpt = "tcg",
    folders: FoldersOpt = None,
    include: IncludeOpt = None,
    exclude: ExcludeOpt = None,
    repo: RepoOpt = None,
    rev: RevOpt = None,
    upcoming: UpcomingOpt = True,
    force: ForceOpt = False,
) -> None:
    """Write deckcheck.toml, a GitHub workflow using the deckcheck Action and a
    .pre-commit-config.yaml, pinned to this deckcheck's commit or release.

    Asks nothing; existing files are kept (exit 2, nothing written) unless --force.
    """
    from deckcheck.error import DeckcheckError
    from deckcheck.run import scaffold

    opts = scaffold.Options(
        format=format,
        folders=tuple(_folder_pair(f) for f in folders or ()),
        include=tuple(include or ()),
        exclude=tuple(exclude or ()),
        repo=repo or scaffold.DEFAULT_REPO,
        rev=rev,
        upcoming=upcoming,
    )
    if not folder.is_dir():
        fail(f"{folder}: not a folder")
    try:
        ref, files = scaffold.plan(opts)
        written = scaffold.write(folder, files, force=force)
    except DeckcheckError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"{exc.filename or folder}: {exc.strerror or exc}")
    for path in written:
        sys.stdout.write(f"wrote {clean(str(path))}\n")
    _say_pin(ref, repo is None)


def _say_pin(ref: Ref, owner_missing: bool) -> None:
    """What the files are pinned to, and what is left for the user to fill in."""
    from deckcheck.run import scaffold

    sys.stdout.write(f"pinned deckcheck {ref.version} at {clean(ref.rev)} ({ref.kind.value})\n")
    if ref.kind is scaffold.RefKind.RELEASE:
        sys.stdout.write(
            f"note: {clean(ref.rev)} is the release tag of this version; if it is "
            "not tagged yet, pass --rev with a commit of the deckcheck "
            "repository\n"
        )
    if owner_missing:
        sys.stdout.write(
            f"note: replace OWNER in {scaffold.WORKFLOW} and {scaffold.PRE_COMMIT} "
            "with where deckcheck is hosted (or pass --repo URL)\n"
        )


def register(app: typer.Typer) -> None:
    """Add ``deckcheck init`` to the main app."""
    app.command("init")(init_command)
