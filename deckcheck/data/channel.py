"""The default update channel: the project's published bundle, else a build from upstream.

``deckcheck data update`` with no source (and no ``DECKCHECK_UPDATE_URL``, no earlier source)
tries the bundle the project publishes as a release asset (:data:`DEFAULT_BUNDLE_URL`, or
``DECKCHECK_BUNDLE_URL``), and when that fails builds the data here from the upstream
repositories with the built-in source list (or ``DECKCHECK_UPSTREAM_URL``:
:func:`deckcheck.data.upstream.update_from_upstream`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from deckcheck.data.dataset import Dataset
from deckcheck.data.download import FetchOptions, Progress
from deckcheck.data.source_list import PROJECT_URL
from deckcheck.data.update import UpdateResult, open_bundle, update
from deckcheck.error import OfflineError, UpdateError

BUNDLE_ENV = "DECKCHECK_BUNDLE_URL"
"""Environment variable: the published bundle to try first (a URL or path of a bundle)."""
BUNDLE_ASSET = "deckcheck-data.zip"
"""The release asset name of the published bundle."""
DEFAULT_BUNDLE_URL = f"{PROJECT_URL}/releases/latest/download/{BUNDLE_ASSET}"
"""The newest bundle the project's scheduled workflow published."""


def bundle_url() -> str:
    """The published bundle's URL: ``DECKCHECK_BUNDLE_URL``, else :data:`DEFAULT_BUNDLE_URL`."""
    return os.environ.get(BUNDLE_ENV, "").strip() or DEFAULT_BUNDLE_URL


def channel_options(url: str, options: FetchOptions | None = None) -> FetchOptions:
    """The fetch options for ``url``: as given, and for :data:`DEFAULT_BUNDLE_URL` redirects
    to other sites are followed (GitHub answers a release download with a redirect to its
    download host)."""
    opts = options or FetchOptions()
    return replace(opts, redirects_anywhere=True) if url == DEFAULT_BUNDLE_URL else opts


def open_newest(
    dest: Path,
    *,
    source: str | None = None,
    options: FetchOptions | None = None,
    progress: Progress | None = None,
) -> Dataset:
    """The newest data available, fetched into the empty folder ``dest`` and opened, not
    installed (the data in use does not change): the published bundle (:func:`bundle_url`),
    or ``source`` (a mirror of it: a bundle folder or ``.zip``, a URL or a path).

    Raises :class:`UpdateError` naming the source (:class:`OfflineError` when the network is
    off).
    """
    url = source or bundle_url()
    return open_bundle(url, dest, options=channel_options(url, options), progress=progress)


def update_default(
    *,
    home: Path | None = None,
    options: FetchOptions | None = None,
    progress: Progress | None = None,
    force: bool = False,
    notify: Callable[[str], None] | None = None,
) -> UpdateResult:
    """Install the published bundle; if it cannot be had, build the data from upstream.

    Raises :class:`UpdateError` when both fail (naming both reasons); the data in use is then
    unchanged. An offline machine fails at once (no fallback can help).
    """
    from deckcheck.data.upstream import update_from_upstream

    say = notify or (lambda line: None)
    url = bundle_url()
    opts = channel_options(url, options)
    say(f"trying the published bundle {url}")
    try:
        return update(url, home=home, options=opts, progress=progress, force=force)
    except OfflineError:
        raise
    except UpdateError as first:
        say(f"the published bundle failed ({first}); building from upstream instead")
        try:
            return update_from_upstream(
                None, home=home, options=options, progress=progress, force=force, notify=notify
            )
        except UpdateError as second:
            raise UpdateError(
                f"the published bundle failed: {first}; building from upstream failed: {second}"
            ) from second
