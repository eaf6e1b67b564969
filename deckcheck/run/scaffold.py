"""``deckcheck init``: the starter files of a deck repository, pinned to this deckcheck.

:func:`plan` returns the files to write (a ``deckcheck.toml``, a GitHub workflow using the
deckcheck Action, a ``.pre-commit-config.yaml``) without writing anything; :func:`pinned_ref`
finds the version to pin: the commit of the checkout deckcheck runs from, else the commit pip
recorded when it installed deckcheck from git, else the release tag ``v<version>`` (which the
release process in ``CHANGELOG.md`` creates).
"""

from __future__ import annotations

import enum
import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from deckcheck.error import InputError

DEFAULT_REPO = "https://github.com/OWNER/deckcheck"
"""Where deckcheck is hosted, when ``--repo`` does not say (``OWNER`` is to be replaced)."""
CONFIG = "deckcheck.toml"
WORKFLOW = ".github/workflows/deckcheck.yml"
PRE_COMMIT = ".pre-commit-config.yaml"


class RefKind(enum.StrEnum):
    """Where the pinned version came from."""

    CHECKOUT = "checkout"
    """The commit of the git checkout deckcheck runs from."""
    INSTALLED = "installed"
    """The commit pip recorded when it installed deckcheck from a git URL."""
    RELEASE = "release"
    """The release tag of the installed version."""
    GIVEN = "given"
    """``--rev``."""


@dataclass(frozen=True, slots=True)
class Ref:
    """A version of deckcheck that a pin names: a commit or a tag, and where it came from."""

    rev: str
    kind: RefKind
    version: str


@dataclass(frozen=True, slots=True)
class Options:
    """What ``deckcheck init`` writes (its flags)."""

    format: str = "tcg"
    folders: tuple[tuple[str, str], ...] = ()
    """``(glob, format)`` pairs of the ``[folders]`` table."""
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    repo: str = DEFAULT_REPO
    rev: str | None = None
    upcoming: bool = True


def _git(folder: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(folder), *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def _installed_commit() -> str | None:
    from importlib import metadata

    try:
        # pip's record of where this deckcheck came from (a few hundred bytes it wrote)
        raw = metadata.distribution("deckcheck").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    try:
        commit = json.loads(raw or "{}").get("vcs_info", {}).get("commit_id")
    except (ValueError, AttributeError):
        return None
    return commit if isinstance(commit, str) and re.fullmatch(r"[0-9a-f]{40}", commit) else None


def pinned_ref(rev: str | None = None) -> Ref:
    """The version of deckcheck to pin (module docstring)."""
    from deckcheck.version import __version__

    if rev is not None:
        return Ref(rev, RefKind.GIVEN, __version__)
    here = Path(__file__).resolve().parent
    top = _git(here, "rev-parse", "--show-toplevel")
    if top and (Path(top) / "pyproject.toml").is_file() and (Path(top) / "action.yml").is_file():
        commit = _git(here, "rev-parse", "HEAD")
        if commit:
            return Ref(commit, RefKind.CHECKOUT, __version__)
    commit = _installed_commit()
    if commit:
        return Ref(commit, RefKind.INSTALLED, __version__)
    return Ref(f"v{__version__}", RefKind.RELEASE, __version__)


def action_name(repo: str) -> str:
    """``OWNER/NAME`` of the Action for a repository URL (``OWNER/deckcheck`` when the URL is
    not a GitHub one)."""
    m = re.match(r"^(?:https://github\.com/|git@github\.com:)([\w.-]+/[\w.-]+?)(?:\.git)?/?$", repo)
    return m.group(1) if m else "OWNER/deckcheck"


def _toml_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def config_text(opts: Options) -> str:
    """The starter ``deckcheck.toml``."""
    lines = [
        "# How this repository's decks are checked (deckcheck's README, \"Use in CI\").",
        "# Command-line options override these settings.",
        "",
        f"format = {_toml_str(opts.format)}",
        'date = "today"',
        f"include = [{', '.join(_toml_str(g) for g in opts.include)}]",
        f"exclude = [{', '.join(_toml_str(g) for g in opts.exclude)}]",
        "strict = false",
    ]
    if opts.folders:
        lines += ["", "[folders]  # a format per folder; the first matching glob wins"]
        lines += [f"{_toml_str(glob)} = {_toml_str(fmt)}" for glob, fmt in opts.folders]
    return "\n".join(lines) + "\n"


def workflow_text(opts: Options, ref: Ref) -> str:
    """The starter GitHub workflow, using the deckcheck Action pinned to ``ref``."""
    upcoming = '\n        with:\n          upcoming: "true"  # also warn about the next list'
    return (
        "# Check every deck on each push and pull request with the deckcheck Action.\n"
        "name: decks\non:\n  push:\n  pull_request:\n  schedule:\n"
        '    - cron: "0 6 * * 1"  # weekly: catch decks that a new list makes illegal\n'
        "permissions:\n  contents: read\njobs:\n  deckcheck:\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - uses: actions/checkout@v4\n"
        f"      - uses: {action_name(opts.repo)}@{ref.rev}  # deckcheck {ref.version}"
        f"{upcoming if opts.upcoming else ''}\n"
    )


def pre_commit_text(opts: Options, ref: Ref) -> str:
    """The starter ``.pre-commit-config.yaml``, pinned to ``ref``."""
    return (
        "# Run deckcheck on staged deck files before each commit (https://pre-commit.com).\n"
        f"repos:\n  - repo: {json.dumps(opts.repo)}\n"
        f"    rev: {json.dumps(ref.rev)}  # deckcheck {ref.version}\n"
        "    hooks:\n      - id: deckcheck\n"
    )


def plan(opts: Options) -> tuple[Ref, dict[str, str]]:
    """The pinned version and the starter files (relative path -> text); writes nothing.

    Raises :class:`~deckcheck.error.ConfigError` when the configuration it would write could not
    be used (an unknown format, a bad glob)."""
    ref = pinned_ref(opts.rev)
    if not ref.rev.strip() or any(c.isspace() for c in ref.rev):
        raise InputError(f"--rev {ref.rev!r}: give a commit or a tag")
    files = {
        CONFIG: config_text(opts),
        WORKFLOW: workflow_text(opts, ref),
        PRE_COMMIT: pre_commit_text(opts, ref),
    }
    _check_formats(opts)
    _check_config(files[CONFIG])
    return ref, files


def _check_formats(opts: Options) -> None:
    """Every format named is known (format files are checked when the configuration is used)."""
    from deckcheck.data.dataset import Dataset
    from deckcheck.rule.format import get_format

    data = Dataset.active()
    for name in (opts.format, *(fmt for _, fmt in opts.folders)):
        if not name.endswith(".toml"):
            get_format(name, data)


def _check_config(text: str) -> None:
    """Load the configuration text as ``deckcheck validate`` would (raises ConfigError)."""
    import tempfile

    from deckcheck.run.config import load_config

    with tempfile.TemporaryDirectory(prefix="deckcheck-init-") as tmp:
        path = Path(tmp) / CONFIG
        path.write_text(text, encoding="utf-8")  # a private temporary folder, removed after
        load_config(path)


def write(folder: Path, files: dict[str, str], *, force: bool = False) -> list[Path]:
    """Write ``files`` into ``folder``; an existing file is kept unless ``force`` (then it is
    replaced). Returns the files written. Raises :class:`InputError` naming the files that
    exist (and writes nothing) without ``force``."""
    targets = {folder / rel: text for rel, text in files.items()}
    there = [str(p) for p in targets if p.exists()]
    if there and not force:
        raise InputError(f"{', '.join(there)}: already there (--force replaces)")
    from deckcheck.boundary import write_file

    for path, text in targets.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_file(path, text)
    return list(targets)
