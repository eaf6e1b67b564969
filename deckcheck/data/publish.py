"""Publishing the data: a bundle built from upstream, its manifest and release notes.

The project's scheduled workflow (``.github/workflows/data-release.yml``) runs
``scripts/publish_data.py``, which calls :func:`publish`: update a data folder from upstream
(the built-in source list, or ``DECKCHECK_UPSTREAM_URL``; with a cache of the last fetch only
what changed is fetched), then write into ``out``:

* ``deckcheck-data.zip``: the bundle (what ``deckcheck data update`` installs by default);
* ``manifest.json``: its manifest (the fingerprint is its sha256);
* ``notes.md``: what changed since the previously published bundle (``data diff`` in Markdown);
* ``tag``: the as-of date, for the release's name.

Nothing is written when the data equals the previously published bundle.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from deckcheck.data.channel import BUNDLE_ASSET
from deckcheck.data.dataset import MANIFEST, Dataset
from deckcheck.data.fetch import Notify
from deckcheck.data.store import data_home, open_installed
from deckcheck.error import DataError


@dataclass(frozen=True, slots=True)
class Published:
    """What :func:`publish` wrote."""

    data: Dataset
    """The data published (or the previous bundle, when nothing changed)."""
    files: tuple[Path, ...]
    """The files written (empty when nothing changed)."""


def _open_previous(archive: Path | None, work: Path) -> Dataset | None:
    if archive is None or not archive.is_file():
        return None
    from deckcheck.data.archive import unpack

    folder = work / "previous"
    folder.mkdir()
    unpack(archive, folder, str(archive), 256 << 20)
    return Dataset.open(folder)


def publish(
    out: Path,
    *,
    source: str | None = None,
    previous: Path | None = None,
    home: Path | None = None,
    notify: Notify | None = None,
) -> Published:
    """Update ``home`` from upstream and write the bundle, manifest and notes into ``out``.

    ``previous`` is the bundle published last (a ``.zip``; absent on the first run: the notes
    then compare with the data shipped with deckcheck). Raises a :class:`DataError` (an
    :class:`UpdateError` when the sources fail).
    """
    from deckcheck.data.diff import diff, render_markdown
    from deckcheck.data.upstream import update_from_upstream

    home = home or data_home()
    update_from_upstream(source, home=home, notify=notify)
    data, problem = open_installed(home, full=True)
    if data is None:
        raise DataError(f"{home}: no data built from upstream ({problem})")
    work = Path(tempfile.mkdtemp(prefix="deckcheck-publish-"))
    try:
        before = _open_previous(previous, work)
        if before is not None and before.fingerprint == data.fingerprint:
            return Published(before, ())
        out.mkdir(parents=True, exist_ok=True)
        bundle = out / BUNDLE_ASSET
        bundle.unlink(missing_ok=True)
        data.export(bundle)
        shutil.copyfile(data.folder / MANIFEST, out / MANIFEST)
        notes = render_markdown(diff(before or Dataset.bundled(), data))
        (out / "notes.md").write_text(notes, encoding="utf-8")
        (out / "tag").write_text(data.as_of.isoformat() + "\n", encoding="utf-8")
        names = (BUNDLE_ASSET, MANIFEST, "notes.md", "tag")
        return Published(data, tuple(out / n for n in names))
    finally:
        shutil.rmtree(work, ignore_errors=True)
