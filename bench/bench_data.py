"""Data updates: cold start with an installed bundle, its start-up check, an update's cost."""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import threading
from datetime import date
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from common import Figure, best_of, command_time, installed_python

from deckcheck.data.bundle import write_manifest
from deckcheck.data.dataset import Dataset
from deckcheck.data.store import open_installed
from deckcheck.data.update import FetchOptions, update

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "examples" / "tcg-legal.ydk"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def run() -> list[Figure]:
    """Measure each figure beside a baseline taken in the same run."""
    figures: list[Figure] = []
    work = Path(tempfile.mkdtemp(prefix="deckcheck-bench-data-"))
    try:
        bundle = work / "bundle"
        Dataset.bundled().export(bundle)
        write_manifest(bundle, date.today())  # newer than the bundled data, not in the future
        home = work / "home"
        update(bundle, home=home)
        empty = work / "empty"
        empty.mkdir()

        # 1. cold start of `deckcheck validate` with an installed bundle vs the bundled data
        argv = [installed_python(), "-m", "deckcheck", "validate", str(DECK)]
        env = dict(os.environ)

        def timed(folder: Path) -> float:
            os.environ["DECKCHECK_HOME"] = str(folder)
            try:
                return command_time(argv, repeat=1)
            finally:
                os.environ.clear()
                os.environ.update(env)

        # alternate the two, so drift on a shared machine hits both alike
        pairs = [(timed(empty), timed(home)) for _ in range(21)]
        base = statistics.median(b for b, _ in pairs)
        got = statistics.median(g for _, g in pairs)
        figures.append(
            Figure(
                "validate cold start, installed bundle",
                got * 1e3,
                "the same, bundled data",
                base * 1e3,
                "ms",
            )
        )

        # 2. the start-up check of the installed bundle (stat) vs hashing every file
        quick = best_of(lambda: open_installed(home), repeat=20)
        full = best_of(lambda: open_installed(home, full=True), repeat=5)
        figures.append(
            Figure(
                "installed-bundle check at start",
                quick * 1e3,
                "full sha256 check of every file",
                full * 1e3,
                "ms",
            )
        )

        # 3. an update over HTTP (127.0.0.1) vs copying the same files
        handler = partial(_Quiet, directory=str(bundle))
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        try:

            def http_update() -> None:
                target = work / "home-http"
                shutil.rmtree(target, ignore_errors=True)
                update(url, home=target, options=FetchOptions(retries=0))

            def copy() -> None:
                target = work / "copy"
                shutil.rmtree(target, ignore_errors=True)
                shutil.copytree(bundle, target)

            t_update = best_of(http_update, repeat=3)
            t_copy = best_of(copy, repeat=3)
        finally:
            server.shutdown()
            server.server_close()
        figures.append(
            Figure(
                "update over HTTP (fetch, verify, load, install)",
                t_update * 1e3,
                "copying the bundle's files",
                t_copy * 1e3,
                "ms",
            )
        )
    finally:
        Dataset.reload_active()
        shutil.rmtree(work, ignore_errors=True)
    return figures
