"""A bundle in one ``.zip`` file: unpacked as checked (:func:`unpack`).

Only ``manifest.json`` and the files it lists are read, sizes are counted as bytes come out and
every sha256 is checked, so an archive cannot write anywhere else nor past a cap.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from deckcheck.data.dataset import MANIFEST, MAX_MANIFEST_BYTES, parse_manifest
from deckcheck.data.download import Progress, pump, read_blocks
from deckcheck.error import DataError, UpdateError

MAX_ARCHIVE_ENTRIES = 1000
"""Most entries a bundle ``.zip`` may hold."""


def is_archive(source: str) -> bool:
    """True for a ``.zip`` bundle (a path or URL, query ignored)."""
    return source.split("?", 1)[0].split("#", 1)[0].lower().endswith(".zip")


def unpack(
    archive: Path, dest: Path, where: str, cap: int, progress: Progress | None = None
) -> bytes:
    """Unpack a bundle ``.zip`` into ``dest``, checked; returns the manifest's bytes.

    Only ``manifest.json`` and the files it lists are read (at the top of the archive or in
    one folder); any other entry is ignored, so an archive cannot write anywhere else. Sizes
    are counted as bytes come out (``cap`` per file, whatever the archive claims) and every
    sha256 is checked. Raises :class:`UpdateError` naming ``where``.
    """
    import zipfile
    import zlib

    try:
        with zipfile.ZipFile(archive) as zf:
            names = [i.filename for i in zf.infolist() if not i.is_dir()]
            if len(names) > MAX_ARCHIVE_ENTRIES:
                raise UpdateError(f"{where}: {len(names):,} entries, over {MAX_ARCHIVE_ENTRIES}")
            if len(set(names)) != len(names):
                dup = next(n for n in names if names.count(n) > 1)
                raise UpdateError(f"{where}: the archive holds {dup!r} twice; refused whole")
            prefix = ""
            if MANIFEST not in names:
                found = [n for n in names if n.count("/") == 1 and n.endswith("/" + MANIFEST)]
                if len(found) != 1:
                    raise UpdateError(f"{where}: no {MANIFEST} in the archive")
                prefix = found[0][: -len(MANIFEST)]
            raw = _member(zf, prefix + MANIFEST, dest / MANIFEST, MAX_MANIFEST_BYTES, where)
            doc = parse_manifest(raw, f"{where}!{MANIFEST}")
            for name, expected in doc["files"].items():
                if prefix + name not in names:
                    raise UpdateError(f"{where}: {name} is missing from the archive")
                _member(zf, prefix + name, dest / name, cap, where, expected, progress)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as exc:
        raise UpdateError(f"{where}: not a readable zip archive: {exc}") from exc
    except DataError as exc:
        raise UpdateError(str(exc)) from exc
    return raw


def _member(
    zf: Any,
    member: str,
    out: Path,
    cap: int,
    where: str,
    sha256: str | None = None,
    progress: Progress | None = None,
) -> bytes:
    """Copy one archive member to ``out`` (counting bytes, checking sha256); bytes if small."""
    digest = hashlib.sha256()
    keep = bytearray() if sha256 is None else None
    total = zf.getinfo(member).file_size
    with zf.open(member) as inp, open(out, "wb") as handle:  # copied capped (pump)
        pump(
            read_blocks(inp),
            handle,
            digest,
            cap,
            f"{where}: {member}",
            (out.name, total, progress),
            keep,
        )
    if sha256 is not None and digest.hexdigest() != sha256:
        raise UpdateError(
            f"{where}: {member}: sha256 {digest.hexdigest()} does not match the manifest ({sha256})"
        )
    return bytes(keep or b"")
