"""Fresh data from upstream: an update with nothing new, a full rebuild from a local mirror."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from common import Figure

from deckcheck.data.dataset import Dataset
from deckcheck.data.rebuild import update_builtin
from deckcheck.data.source_list import write_mirror
from deckcheck.data.update import FetchOptions, UpdateStatus, update

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("DECKCHECK_SHARED_DATA") or ROOT.parent / "shared" / "data")


def _serve(folder: Path) -> tuple[subprocess.Popen[str], str]:
    """Serve ``folder`` on 127.0.0.1 from another process; returns it and its base URL."""
    argv = [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1"]
    server = subprocess.Popen(
        [*argv, "--directory", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert server.stdout is not None
    line = server.stdout.readline()  # "Serving HTTP on 127.0.0.1 port N (http://...) ..."
    match = re.search(r"port (\d+)", line)
    if match is None:
        server.kill()
        raise RuntimeError(f"the test server did not start: {line!r}")
    return server, f"http://127.0.0.1:{match.group(1)}"


def _timed(fn: Callable[[], None]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def run() -> list[Figure]:
    """Measure each figure beside a baseline taken in the same run."""
    if not (SHARED / "cards").is_dir():
        print(f"  (skipped: no source data at {SHARED}; set DECKCHECK_SHARED_DATA)")
        return []
    work = Path(tempfile.mkdtemp(prefix="deckcheck-bench-fresh-"))
    env = dict(os.environ)
    try:
        mirror = work / "mirror"
        write_mirror(SHARED, mirror)
        os.environ["DECKCHECK_HOME"] = str(work / "unused")
        Dataset.reload_active()
        opts = FetchOptions(retries=0)

        # 1. a full rebuild from a local mirror vs `python scripts/build_dataset.py --out`
        def rebuild() -> None:
            home = work / "home-local"
            shutil.rmtree(home, ignore_errors=True)
            result = update_builtin(str(mirror), home=home, options=opts)
            assert result.status is UpdateStatus.UPDATED

        def script() -> None:
            out = work / "script-out"
            shutil.rmtree(out, ignore_errors=True)
            argv = [sys.executable, str(ROOT / "scripts" / "build_dataset.py")]
            subprocess.run(
                [*argv, "--data", str(SHARED), "--out", str(out)],
                check=True,
                capture_output=True,
            )

        t_script = _timed(script)
        t_rebuild = _timed(rebuild)
        figures = [
            Figure(
                "full rebuild from a local mirror (fetch, check, build, install)",
                t_rebuild,
                "python scripts/build_dataset.py --out",
                t_script,
                "s",
                target=2.0,
            )
        ]

        # 2. an update with nothing new over HTTP (every file 304) vs a bundle update's 304;
        # the server runs in its own process, as an upstream does, so its work is not timed
        server, base = _serve(work)
        try:
            home = work / "home-http"
            update_builtin(base + "/mirror/", home=home, options=opts)
            Dataset.bundled().export(work / "bundle")
            update(base + "/bundle/", home=work / "home-bundle", options=opts, force=True)

            def nothing_new() -> None:
                result = update_builtin(base + "/mirror/", home=home, options=opts)
                assert result.status is UpdateStatus.NOT_MODIFIED, result.status

            def bundle_304() -> None:
                update(base + "/bundle/", home=work / "home-bundle", options=opts)

            t_none = min(_timed(nothing_new) for _ in range(3))
            t_bundle = min(_timed(bundle_304) for _ in range(3))
        finally:
            server.terminate()
            server.wait()
        figures.append(
            Figure(
                "upstream update with nothing new (every file 304)",
                t_none,
                "a bundle update with nothing new (manifest 304)",
                t_bundle,
                "s",
                limit=2.0,
            )
        )
        return figures
    finally:
        os.environ.clear()
        os.environ.update(env)
        Dataset.reload_active()
        shutil.rmtree(work, ignore_errors=True)
