"""``deckcheck data update --from-upstream`` with the built-in source list.

:func:`update_builtin` fetches the upstream files that changed since the last fetch
(:mod:`deckcheck.data.fetch`), builds a bundle from them in this process
(:func:`deckcheck.data.bundle.build`), checks it against the data in use (it loads, no ban list
disappears, the card index does not shrink) and installs it atomically. When nothing changed
upstream (every file ``304 Not Modified``) nothing is built. Any failure leaves the data in use,
and the cache of the last fetch, as they were.
"""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path
from typing import Any

from deckcheck.boundary import read_data
from deckcheck.data.dataset import Dataset
from deckcheck.data.download import FetchOptions, Progress, is_url
from deckcheck.data.fetch import (
    Fetched,
    Notify,
    clean_stale,
    commit,
    file_history,
    gather,
    load_state,
)
from deckcheck.data.freshness import ANNOUNCED
from deckcheck.data.guard import guard
from deckcheck.data.source_list import RAW_BASE, SourceList, load
from deckcheck.data.store import data_home, install, locked, new_staging, require_network
from deckcheck.data.update import UpdateResult, UpdateStatus
from deckcheck.error import DataError, UpdateError

BUILTIN = "builtin"
"""The ``upstream:`` source recorded for the built-in list fetched from the repositories."""


def update_builtin(
    mirror: str | None = None,
    *,
    home: Path | None = None,
    options: FetchOptions | None = None,
    progress: Progress | None = None,
    force: bool = False,
    notify: Notify | None = None,
    sources: SourceList | None = None,
) -> UpdateResult:
    """Fetch what changed of the built-in source list, build, check and install the data.

    ``mirror`` is the base URL (or folder) of a mirror of the upstream layout; default the
    repositories themselves. ``force`` fetches every file again and installs even data equal
    to, older or smaller than the data in use. Raises :class:`UpdateError` (the data in use is
    then unchanged).
    """
    home = home or data_home()
    opts = options or FetchOptions()
    if mirror is None or is_url(mirror):
        require_network(mirror or RAW_BASE)
    sources = sources or load()
    say = notify or (lambda line: None)
    where = mirror or "the upstream repositories"
    label = "upstream:" + (mirror or BUILTIN)
    previous = Dataset.active()
    with locked(home):
        clean_stale(home)
        got: Fetched | None = None
        try:
            say(f"fetching what changed of {len(sources.entries)} source files from {where}")
            got = gather(sources, mirror, home, opts, progress, force)
            _announce(home, got)
            say(
                f"{len(got.changed)} files changed, {got.not_modified} not modified, "
                f"{got.reused} fixed versions kept"
            )
            state = load_state(home)
            if not got.changed and not force and state.get("built"):
                return UpdateResult(UpdateStatus.NOT_MODIFIED, previous, previous, label)
            return _build(got, sources, state, home, previous, label, force, say)
        except DataError as exc:
            raise UpdateError(f"{exc} (nothing was installed)") from exc
        except OSError as exc:
            raise UpdateError(
                f"{exc.filename or home}: {exc.strerror or exc} (nothing was installed)"
            ) from exc
        finally:
            if got is not None:
                shutil.rmtree(got.folder, ignore_errors=True)


def _build(
    got: Fetched,
    sources: SourceList,
    state: dict[str, Any],
    home: Path,
    previous: Dataset,
    label: str,
    force: bool,
    say: Notify,
) -> UpdateResult:
    from deckcheck.data.bundle import build

    today = date.today()
    tree = file_history(got, sources, state, today)
    as_of = got.newest() or today
    staging = new_staging(home)
    try:
        extra = [f"{repo}@HEAD" for repo in sources.repos()]
        build(tree, staging, as_of, extra_sources=extra, log=say)
        say("checking the new data")
        staged = Dataset.open(staging)
        if not force:
            if staged.fingerprint == previous.fingerprint:
                commit(got, home, staged.fingerprint)
                return UpdateResult(UpdateStatus.CURRENT, previous, previous, label)
            if staged.as_of < previous.as_of:
                raise UpdateError(
                    f"the sources are as of {staged.as_of.isoformat()}, older than the data in "
                    f"use ({previous.as_of.isoformat()}); --force installs them anyway"
                )
            guard(staged, previous)
        fingerprint = staged.fingerprint
        del staged
        data = install(staging, label, home)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    commit(got, home, fingerprint)
    Dataset.reload_active()
    return UpdateResult(UpdateStatus.UPDATED, data, previous, label, got.downloaded)


def _announce(home: Path, got: Fetched) -> None:
    """Keep the newest list date the fetch saw, for ``data status``."""
    from deckcheck.data.store import write_atomic

    newest = max(got.announced, default=None)
    if newest is None:
        return
    try:
        old = json.loads(read_data(home / ANNOUNCED)).get("newest_list")
    except (OSError, ValueError, AttributeError):
        old = None
    if old is None or str(old) < newest:
        doc = {"newest_list": newest, "seen": date.today().isoformat()}
        write_atomic(home / ANNOUNCED, (json.dumps(doc) + "\n").encode())
