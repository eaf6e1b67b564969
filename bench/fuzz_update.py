"""Fuzz ``deckcheck data update`` against a hostile server: encodings, redirects, trickles, lies.

``python bench/fuzz_update.py [--count N] [--seed S] [--cli M]`` installs bundle A, then runs N
updates towards bundle B against a server on 127.0.0.1 that misbehaves at random on one or more
paths: ``Content-Encoding`` layers (``gzip``, ``gzip, gzip``, ``deflate``, ``br``, bombs that
inflate to 256 MiB, bodies of several gzip members, honest or a bomb of many, corrupt and
cut-short bodies), redirects (within the site, to another site, loops,
to bad URLs), trickled headers and bodies, drops, truncations, false lengths, status codes, and
manifests that lie (``as_of`` ``20260928``, ``9999-12-31``, an integer, bad names). Each update
must end within its bound with a result or an ``UpdateError`` naming the URL, and leave the data
in use whole: either bundle A or bundle B, fully verified. It reports the cases tried,
tracebacks, hangs over the bound and escapes from the error tree (exit 1 if any).

``--cli M`` runs M of them as an installed deckcheck does: deckcheck is built as a wheel (no
network: ``pip wheel --no-deps --no-build-isolation``) and installed into a venv of its own,
whose ``python -I -m deckcheck data update`` (or ``data diff``) runs in a process of its own,
from outside the checkout, with ``--timeout``: each must exit 0 or 2 within the bound with
``error:`` lines only (no traceback, nothing "unexpected"), and leave the data whole.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import shutil
import sys
import tempfile
import time
import traceback
import zlib
from collections import Counter
from dataclasses import replace
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckcheck.data.bundle import write_manifest  # noqa: E402
from deckcheck.data.dataset import Dataset  # noqa: E402
from deckcheck.data.store import open_installed  # noqa: E402
from deckcheck.data.update import FetchOptions, update  # noqa: E402
from deckcheck.error import DeckcheckError, UpdateError  # noqa: E402
from tests.bundle_server import BundleServer, serve  # noqa: E402
from tests.wheel_support import wheel_venv  # noqa: E402

OPTS = FetchOptions(timeout=0.5, retries=1, backoff=0.01, deadline=2.0, max_bytes=16 << 20)
BOUND = 30.0
"""Seconds one update may take (two tries of a 2 s deadline, plus slack); over it: a hang."""
CLI_BOUND = 90.0
"""Seconds one command line may take: five files of two tries of ``--timeout 2`` each, plus a
process that starts, verifies and loads the bundles (and diffs them) on a busy machine; a
deadline not passed on would be 900 s a file."""


def _bomb() -> bytes:
    comp = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = bytes(1 << 20)
    inner = b"".join(comp.compress(block) for _ in range(256)) + comp.flush()
    return gzip.compress(inner, 9)


BOMB = _bomb()
MEMBER = gzip.compress(bytes(8 << 20), 9)


def _fault(
    rng: random.Random,
    srv: BundleServer,
    other: BundleServer,
    path: str,
    originals: dict[str, bytes],
) -> None:
    """Queue one fault on ``path`` (changing the stored body where the fault needs it)."""
    body = srv.files[path]
    kind = rng.randrange(16)
    if kind >= 14:
        _members(rng, srv, path, body, kind == 14)
    elif kind == 0:
        srv.files[path] = gzip.compress(body)
        srv.faults[path] = ["enc:gzip"] * 3
    elif kind == 1:
        srv.files[path] = BOMB
        srv.faults[path] = ["enc:gzip, gzip"] * 3
    elif kind == 2:
        srv.files[path] = gzip.compress(gzip.compress(body))
        srv.faults[path] = ["enc:gzip,gzip"] * 3
    elif kind == 3:
        srv.files[path] = zlib.compress(body)
        srv.faults[path] = ["enc:deflate"] * 3
    elif kind == 4:
        srv.files[path] = gzip.compress(body)[: rng.randrange(1, 40)]
        srv.faults[path] = ["enc:gzip"] * 3
    elif kind == 5:
        srv.faults[path] = [rng.choice(["enc:br", "enc:zstd", "enc:gzip, gzip, gzip, gzip, gzip"])]
    elif 6 <= kind <= 9:
        _redirect(rng, srv, other, path, body, kind)
    elif kind == 10:
        srv.slow_seconds = 0.05
        srv.faults[path] = [rng.choice(["trickle-headers", "trickle"])] * 2
    elif kind == 11:
        srv.faults[path] = [rng.choice(["drop", "truncate", "corrupt", "unsized", "huge"])] * 2
    elif kind == 12:
        srv.faults[path] = [rng.choice(["404", "500", "503", "429", "301", "304", "418"])] * 2
    else:
        doc = json.loads(originals["/b/manifest.json"])
        doc["as_of"] = rng.choice(["20260928", "9999-12-31", 20260928, None, "2026-W39-1"])
        if rng.random() < 0.3:
            doc["files"]["../x"] = "0" * 64
        srv.files["/b/manifest.json"] = json.dumps(doc).encode()


def _redirect(
    rng: random.Random, srv: BundleServer, other: BundleServer, path: str, body: bytes, kind: int
) -> None:
    """A redirect: within the site, to another site, a loop, or to a bad URL."""
    if kind == 6:
        srv.files["/moved" + path] = body
        srv.faults[path] = ["redirect:/moved" + path]
    elif kind == 7:
        other.files[path] = body
        srv.faults[path] = [f"redirect:{other.url}{path}"] * 3
    elif kind == 8:
        srv.faults[path] = [f"redirect:{path}"] * 40
    else:
        srv.faults[path] = [rng.choice(["redirect:http://[::1", "redirect:ftp://x/", "redirect:"])]


def _members(rng: random.Random, srv: BundleServer, path: str, body: bytes, honest: bool) -> None:
    """A body of several gzip members: the file cut in two, or a bomb of many 8 MiB members."""
    if honest:
        cut = rng.randrange(len(body) + 1)
        srv.files[path] = gzip.compress(body[:cut]) + gzip.compress(body[cut:])
    else:
        srv.files[path] = MEMBER * rng.choice([8, 64, 256])
    srv.faults[path] = ["enc:gzip"] * 3


def _whole(home: Path, a: str, b: str) -> str | None:
    """What is wrong with the data in use, if anything (it must be A or B, verified)."""
    data, problem = open_installed(home, full=True)
    if problem is not None or data is None:
        return f"installed data broken: {problem}"
    active = Dataset.reload_active().fingerprint
    if active not in (a, b) or data.fingerprint != active:
        return f"active data is neither bundle: {active[:12]}"
    return None


def _installed(work: Path) -> Path:
    """The python of a venv with deckcheck installed from a wheel built now (checked to import
    deckcheck from that venv, not from the checkout)."""
    import subprocess

    work.mkdir(parents=True, exist_ok=True)
    venv = wheel_venv(work)
    python = venv / "bin" / "python"
    where = subprocess.run(
        [str(python), "-I", "-c", "import deckcheck; print(deckcheck.__file__)"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tempfile.gettempdir(),
    ).stdout.strip()
    if not where.startswith(str(venv)):
        raise SystemExit(f"the wheel's deckcheck is not the one imported: {where}")
    print(f"installed wheel: {where}", flush=True)
    return python


def _cli_update(rng: random.Random, url: str, home: Path, python: Path) -> tuple[str, str | None]:
    """One update (or diff) by the command line of an installed deckcheck, in its own process."""
    import os
    import subprocess

    command = rng.choice([["data", "update", "--source", url], ["data", "diff", "--source", url]])
    env = dict(os.environ, DECKCHECK_HOME=str(home))
    try:
        res = subprocess.run(
            [str(python), "-I", "-m", "deckcheck", *command, "--timeout", "2", "--retries", "1"],
            capture_output=True,
            text=True,
            timeout=CLI_BOUND,
            env=env,
            cwd=tempfile.gettempdir(),
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "hang", f"{command} took over {CLI_BOUND:g} s"
    if "Traceback" in res.stderr or "unexpected" in res.stderr:
        return "traceback", res.stderr[-2000:]
    if res.returncode not in (0, 2) or (res.returncode == 2 and "error:" not in res.stderr):
        return "escape", f"exit {res.returncode}: {res.stderr[-500:]}"
    return ("result" if res.returncode == 0 else "UpdateError"), None


def _attempt(
    rng: random.Random, srv: BundleServer, home: Path, python: Path | None
) -> tuple[str, str | None]:
    """One hostile update, by the library or (``python`` given) by the installed command line:
    its outcome and the problem, if any."""
    start = time.monotonic()
    try:
        if python is not None:
            key, problem = _cli_update(rng, srv.url + "/b/", home, python)
        else:
            opts = replace(OPTS, redirects_anywhere=rng.random() < 0.2)
            update(srv.url + "/b/", home=home, options=opts, force=rng.random() < 0.1)
            key, problem = "result", None
    except UpdateError as exc:
        key, problem = "UpdateError", None
        if srv.url not in str(exc) and "as_of" not in str(exc):
            key, problem = "escape", f"UpdateError without the URL: {exc}"
    except DeckcheckError as exc:
        key, problem = "escape", f"{type(exc).__name__} (not UpdateError): {exc}"
    except Exception:
        key, problem = "traceback", traceback.format_exc()
    took = time.monotonic() - start
    if problem is None and took > (CLI_BOUND if python is not None else BOUND):
        key, problem = "hang", f"took {took:.1f} s"
    return key, problem


def _bundles(work: Path) -> tuple[dict[str, Path], str, str]:
    """Bundles A and B (the bundled data, dated apart) and their fingerprints."""
    bundles = {}
    for key, when in (("a", date(2026, 9, 1)), ("b", date(2026, 11, 15))):
        Dataset.bundled().export(work / key)
        write_manifest(work / key, when)
        bundles[key] = work / key
    fa, fb = (Dataset.open(bundles[k]).fingerprint for k in "ab")
    return bundles, fa, fb


def run(count: int, seed: int, cli: int = 0) -> tuple[Counter[str], list[str]]:
    """``count`` hostile updates (the first ``cli`` by the installed wheel's command line);
    outcome counts and bug reports."""
    import os

    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="deckcheck-fuzz-update-"))
    outcomes: Counter[str] = Counter()
    bugs: list[str] = []
    try:
        bundles, fa, fb = _bundles(work)
        python = _installed(work / "wheel") if cli else None
        for i in range(count):
            home = work / f"home{i}"
            os.environ["DECKCHECK_HOME"] = str(home)
            Dataset.reload_active()
            update(bundles["a"], home=home)
            with serve() as srv, serve() as other:
                for file in sorted(bundles["b"].iterdir()):  # every file the bundle has
                    srv.files[f"/b/{file.name}"] = file.read_bytes()
                originals = dict(srv.files)
                for path in rng.sample(sorted(originals), rng.randint(1, 2)):
                    _fault(rng, srv, other, path, originals)
                key, problem = _attempt(rng, srv, home, python if i < cli else None)
                broken = _whole(home, fa, fb) if problem is None else None
                if broken:
                    key, problem = "escape", broken
                outcomes[key] += 1
                if i < cli:
                    outcomes[f"wheel {key}"] += 1  # also counted apart
                if problem is not None and len(bugs) < 5:
                    bugs.append(f"case {i}: faults {srv.faults!r:.300}\n{problem}")
            shutil.rmtree(home, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return outcomes, bugs


def main(argv: list[str] | None = None) -> int:
    """Run the hostile updates; exit 1 if any broke a rule."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--cli",
        type=int,
        default=0,
        metavar="M",
        help="of them by the command line of deckcheck installed from a wheel built now",
    )
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    outcomes, bugs = run(args.count, args.seed, args.cli)
    bad = outcomes["traceback"] + outcomes["hang"] + outcomes["escape"]
    print(
        f"update  {sum(n for k, n in outcomes.items() if not k.startswith('wheel ')):>6,} cases  "
        f"{outcomes['traceback']} tracebacks, "
        f"{outcomes['hang']} hangs over {BOUND:g} s, {outcomes['escape']} escapes  "
        f"(installed: {outcomes['result']}, UpdateError: {outcomes['UpdateError']}; "
        f"by the installed wheel's command line: {outcomes['wheel result']} exit 0, "
        f"{outcomes['wheel UpdateError']} exit 2; "
        f"{time.perf_counter() - t0:.1f} s)"
    )
    for bug in bugs:
        print(bug, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
