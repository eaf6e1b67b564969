"""Repository configuration: how a deck repository wants its decks checked.

A ``deckcheck.toml`` at the repository root, or a ``[tool.deckcheck]`` table in its
``pyproject.toml``, found from the current folder upwards (:func:`find_config`)::

    format = "tcg"             # default format: an id/alias, or a format file (.toml) path
    date = "today"             # or a date: 2025-06-01
    region = "na"              # na or eu: whose TCG list dates apply (as --region)
    include = ["decks/**"]     # globs of deck files to check (default: every deck file)
    exclude = ["drafts/**"]    # globs left out
    strict = false             # warnings fail too (exit 1)
    allow_prerelease = false

    [folders]                  # a format per folder: the first matching glob wins
    "goat/**" = "goat"
    "edison/**" = "edison"

    [ignore]                   # codes to ignore per path glob (every matching glob applies)
    "casual/**" = ["not-in-pool", "over-limit"]
    "**" = ["date-out-of-range"]

The file is validated by :class:`~deckcheck.run.configfile.ConfigModel` (pydantic, imported only
when a configuration is read; ``deckcheck schema config`` prints its JSON Schema); an unknown
key, a bad date, an unknown code or format is a :class:`~deckcheck.error.ConfigError` that names
the file and the key.

**Globs** are matched against a file's POSIX path relative to the configuration's folder (the
repository root), case-sensitively, like ``.gitignore``: ``*`` and ``?`` stay within one name,
``**`` spans folders, a pattern naming a folder covers everything under it (``goat`` is
``goat/**``), and a pattern without ``/`` matches at any depth (``*.txt``, ``drafts``).

:func:`check_with_config` is :func:`deckcheck.run.batch.check` with a configuration applied: files
outside ``include`` or inside ``exclude`` are left out (also when named explicitly, so a
pre-commit hook can pass every staged file), each deck is checked against its folder's format,
and ignored codes are removed from its report before its verdict is taken.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from msgspec import Struct, field

from deckcheck.boundary import parse_toml, read_capped
from deckcheck.error import ConfigError, DeckcheckError, UnknownFormatError
from deckcheck.run.job import Planned as Planned
from deckcheck.run.job import apply_ignores as apply_ignores

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.rule.format import Format
    from deckcheck.run.batch import Batch
    from deckcheck.run.configfile import ConfigModel
    from deckcheck.run.globs import Glob
    from deckcheck.source.record import Source

CONFIG_FILE = "deckcheck.toml"
"""Name of the repository configuration file."""
PYPROJECT = "pyproject.toml"
"""A ``pyproject.toml`` with a ``[tool.deckcheck]`` table is a configuration too."""
MAX_CONFIG_BYTES = 1 << 20
"""Size cap of a configuration file (``deckcheck.toml`` or ``pyproject.toml``)."""


# -- globs: deckcheck.run.globs (imported by the configuration model too) ----------------------


def glob_regex(pattern: str) -> Glob:
    """A configuration glob compiled (:func:`deckcheck.run.globs.glob_regex`); the glob engine
    is imported when a configuration first needs it, so a run without one never loads it."""
    from deckcheck.run.globs import glob_regex as compile_glob

    return compile_glob(pattern)


def matches(pattern: str, path: str) -> bool:
    """Whether the configuration glob ``pattern`` matches the POSIX ``path``
    (:func:`deckcheck.run.globs.matches`)."""
    from deckcheck.run.globs import matches as glob_matches

    return glob_matches(pattern, path)


# -- the configuration -----------------------------------------------------------------------------


class Settings(Struct, frozen=True):
    """The values of a configuration file, validated (by :class:`ConfigModel`) and frozen.

    Defaults are those of a repository without a configuration.
    """

    format: str | None = None
    date: str | None = None
    region: str | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    strict: bool = False
    allow_prerelease: bool = False
    folders: Mapping[str, str] = field(default_factory=dict)
    """glob -> format, in file order."""
    ignore: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """glob -> codes."""

    @classmethod
    def from_model(cls, model: ConfigModel) -> Settings:
        """The settings of a validated model."""
        when = str(model.date) if model.date is not None else None  # the validator made it text
        return cls(
            model.format,
            when,
            model.region,
            tuple(model.include),
            tuple(model.exclude),
            model.strict,
            model.allow_prerelease,
            MappingProxyType(dict(model.folders)),
            MappingProxyType({k: tuple(v) for k, v in model.ignore.items()}),
        )


class Config(Struct, frozen=True, dict=True):
    """A loaded configuration: its settings, the file it came from and the repository root."""

    settings: Settings = field(default_factory=Settings)
    path: Path | None = None
    """The file read (``deckcheck.toml`` or ``pyproject.toml``); None: built in code."""
    root: Path = field(default_factory=lambda: Path(os.path.abspath(os.curdir)))
    """The folder globs are relative to (the configuration file's folder)."""

    @property
    def where(self) -> str:
        """How errors name the configuration: the file (and table for ``pyproject.toml``)."""
        if self.path is None:
            return "configuration"
        if self.path.name == PYPROJECT:
            return f"{self.path} [tool.deckcheck]"
        return str(self.path)

    @cached_property
    def _include(self) -> list[Glob]:
        return [glob_regex(p) for p in self.settings.include]

    @cached_property
    def _exclude(self) -> list[Glob]:
        return [glob_regex(p) for p in self.settings.exclude]

    @cached_property
    def _folders(self) -> list[tuple[Glob, str]]:
        return [(glob_regex(p), f) for p, f in self.settings.folders.items()]

    @cached_property
    def _ignore(self) -> list[tuple[Glob, frozenset[str]]]:
        return [(glob_regex(p), frozenset(c)) for p, c in self.settings.ignore.items()]

    def relative(self, path: str) -> str | None:
        """``path`` relative to the root as POSIX, or None when it lies outside the root."""
        try:
            rel = os.path.relpath(os.path.abspath(path), self.root)
        except ValueError:
            return None
        if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
            return None
        return rel.replace(os.sep, "/")

    def selects(self, rel: str) -> bool:
        """Whether a file (path relative to the root) is checked: included and not excluded."""
        if self._include and not any(p.match(rel) for p in self._include):
            return False
        return not any(p.match(rel) for p in self._exclude)

    def folder_format(self, rel: str) -> str | None:
        """The format the ``folders`` table gives a file (None: the default format)."""
        for pat, fmt in self._folders:
            if pat.match(rel):
                return fmt
        return None

    def ignored(self, rel: str) -> frozenset[str]:
        """The codes ignored for a file (union over every matching ``ignore`` glob)."""
        out: frozenset[str] = frozenset()
        for pat, codes in self._ignore:
            if pat.match(rel):
                out |= codes
        return out

    def event_date(self) -> date | None:
        """The configured date (None: today)."""
        from deckcheck.run.vocab import parse_date

        return parse_date(self.settings.date)

    def default_format_name(self) -> str:
        """The default format's name: ``format``, else ``tcg``."""
        return self.settings.format or "tcg"

    def load_format(self, name: str, key: str, data: Dataset | None = None) -> Format:
        """A format named in the configuration (id, alias or format file relative to the root);
        :class:`ConfigError` naming ``key`` when it is unusable."""
        from deckcheck.run.vocab import resolve_format

        try:
            fmt = resolve_format(name, data=data, base=self.root)
        except UnknownFormatError as exc:
            raise ConfigError(
                f"{self.where}: {key}: unknown format {name!r}; valid formats: "
                + ", ".join(exc.valid)
            ) from None
        except DeckcheckError as exc:
            raise ConfigError(f"{self.where}: {key}: {exc}") from None
        return fmt


def _validate(doc: Mapping[str, Any], where: str, path: Path | None) -> Config:
    from pydantic import ValidationError

    from deckcheck.run.configfile import ConfigModel

    try:
        settings = ConfigModel.model_validate(dict(doc))
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            key = ".".join(str(p) for p in err["loc"]) or "(top level)"
            if err["type"] == "extra_forbidden":
                problems.append(f"unknown key {key!r}")
            else:
                msg = str(err["msg"]).removeprefix("Value error, ")
                problems.append(f"{key}: {msg}")
        raise ConfigError(f"{where}: " + "; ".join(problems)) from None
    root = Path(os.path.abspath(path.parent)) if path is not None else Path(os.path.abspath("."))
    return Config(Settings.from_model(settings), path, root)


def load_config(path: str | Path) -> Config:
    """Read a ``deckcheck.toml``, or the ``[tool.deckcheck]`` table of a ``pyproject.toml``.

    Raises :class:`ConfigError` naming the file (and the key) when it is unreadable, not TOML,
    or not valid.
    """
    import tomllib  # here, not at the top: most runs find no configuration

    p = Path(path)
    try:
        raw = read_capped(p, MAX_CONFIG_BYTES, refuse=lambda why: ConfigError(f"{p}: {why}"))
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read the configuration: {exc.strerror or exc}") from None
    try:
        doc = parse_toml(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{p}: not a valid TOML file: {exc}") from None
    if p.name == PYPROJECT:
        table = doc.get("tool", {}).get("deckcheck") if isinstance(doc.get("tool"), dict) else None
        if table is None:
            raise ConfigError(f"{p}: no [tool.deckcheck] table")
        if not isinstance(table, dict):
            raise ConfigError(f"{p}: [tool.deckcheck] must be a table")
        return _validate(table, f"{p} [tool.deckcheck]", p)
    return _validate(doc, str(p), p)


def _has_tool_table(path: Path) -> bool:
    """Whether a ``pyproject.toml`` has a ``[tool.deckcheck]`` table (True for one deckcheck
    must refuse: over :data:`MAX_CONFIG_BYTES`, or not a regular file)."""
    import tomllib

    try:
        doc = parse_toml(read_capped(path, MAX_CONFIG_BYTES).decode("utf-8"))
    except DeckcheckError:
        return True  # over the cap, a FIFO...: load_config says why
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    tool = doc.get("tool")
    return isinstance(tool, dict) and "deckcheck" in tool


def find_config(start: str | Path | None = None) -> Path | None:
    """The configuration file nearest ``start`` (default: the current folder), going upwards:
    ``deckcheck.toml``, else a ``pyproject.toml`` with a ``[tool.deckcheck]`` table."""
    here = Path(os.path.abspath(start if start is not None else os.curdir))
    for folder in (here, *here.parents):
        candidate = folder / CONFIG_FILE
        if candidate.exists() and not candidate.is_dir():  # a FIFO too: refused when loaded
            return candidate
        project = folder / PYPROJECT
        if project.exists() and not project.is_dir() and _has_tool_table(project):
            return project
    return None


def find_repo_root(
    start: str | Path | None = None,
    config: Config | None = None,
    environ: Mapping[str, str] | None = None,
) -> Path:
    """The repository root that CI reports make paths relative to.

    ``$GITHUB_WORKSPACE`` when set (the checkout on a GitHub runner), else the nearest folder
    holding ``.git`` from ``start`` (default: the current folder) upwards, else the
    configuration's folder, else ``start``.
    """
    env = os.environ if environ is None else environ
    workspace = env.get("GITHUB_WORKSPACE")
    if workspace:
        return Path(os.path.abspath(workspace))
    here = Path(os.path.abspath(start if start is not None else os.curdir))
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return config.root if config is not None else here


# -- checking with a configuration ----------------------------------------------------------------


def empty_config() -> Config:
    """The configuration of a folder without one: every default (no pydantic import)."""
    return Config()


def select(items: Iterable[Source], config: Config) -> Iterable[Source]:
    """The sources a configuration checks: files outside ``include`` or inside ``exclude`` (under
    the root) are left out, even when named explicitly; other sources pass unchanged."""
    from deckcheck.source.record import SourceKind

    for src in items:
        if src.kind is SourceKind.FILE and src.error is None:
            rel = config.relative(src.path)
            if rel is not None and not config.selects(rel):
                continue
        yield src


def plan(
    items: Iterable[Source | str],
    config: Config,
    *,
    format: Format | None,
    data: Dataset,
    region: str | None = None,
) -> tuple[Format, list[Planned]]:
    """The default format and every source the configuration checks, each with its format.

    ``format`` (the command line's) applies to every source; without it a file gets its
    folder's format (the ``folders`` table), else the configured default (else ``tcg``).
    ``region`` (``na``/``eu``), else the configured one, picks whose TCG list dates apply.
    Unknown or broken format names are a :class:`~deckcheck.error.ConfigError`.
    """
    from deckcheck.source.record import SourceKind
    from deckcheck.source.scan import expand_sources

    region = region or config.settings.region

    def regional(fmt: Format) -> Format:
        return fmt.in_region(region) if region is not None else fmt

    default = regional(format or config.load_format(config.default_format_name(), "format", data))
    by_name: dict[str, Format] = {}
    if format is None:
        for pat, name in config.settings.folders.items():
            if name not in by_name:
                by_name[name] = regional(config.load_format(name, f"folders.{pat!r}", data))
    planned = []
    for src in select(list(expand_sources(items, data)), config):
        rel = config.relative(src.path) if src.kind is SourceKind.FILE else None
        fmt = default
        if rel is None:
            planned.append(Planned(src, fmt))
            continue
        folder = config.folder_format(rel) if format is None else None
        if folder is not None:
            fmt = by_name[folder]
        planned.append(Planned(src, fmt, config.ignored(rel)))
    return default, planned


def check_with_config(
    items: Iterable[Source | str],
    config: Config | None = None,
    *,
    format: Format | None = None,
    date: date | None = None,
    allow_prerelease: bool | None = None,
    data: Dataset | None = None,
    progress: Callable[[int, str], None] | None = None,
    region: str | None = None,
    jobs: int | None = 1,
) -> Batch:
    """Read and validate every source with a configuration applied (see the module docstring).

    ``format`` (the command line's ``--format``) overrides the configured default *and* the
    folder formats; ``date``, ``allow_prerelease`` and ``region`` (``na``/``eu``) override the
    configured ones; ``jobs`` as :func:`deckcheck.run.batch.check`. Rows keep source order.
    Without a configuration this is :func:`deckcheck.run.batch.check`.
    """
    from deckcheck.data.dataset import resolve_data
    from deckcheck.run.batch import check
    from deckcheck.validation.engine import today

    ds = resolve_data(data)
    cfg = config if config is not None else empty_config()
    when = date or cfg.event_date() or today()
    prerelease = cfg.settings.allow_prerelease if allow_prerelease is None else allow_prerelease
    default, planned = plan(items, cfg, format=format, data=ds, region=region)
    for fmt in {id(p.format): p.format for p in planned}.values():
        fmt.require_date(when, ds)
    return check(
        (),
        default,
        when,
        allow_prerelease=prerelease,
        data=ds,
        progress=progress,
        jobs=jobs,
        plan=planned,
    )


def strict(config: Config | None, override: bool | None) -> bool:
    """Whether warnings fail: the command line's ``--strict/--no-strict``, else the config's."""
    if override is not None:
        return override
    return bool(config and config.settings.strict)


__all__: Sequence[str] = (
    "CONFIG_FILE",
    "Config",
    "Settings",
    "apply_ignores",
    "check_with_config",
    "empty_config",
    "find_config",
    "find_repo_root",
    "glob_regex",
    "load_config",
    "matches",
    "select",
    "strict",
)
