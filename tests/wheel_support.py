"""deckcheck as its users get it: built as a wheel and installed into a venv of its own.

Used by the tests of an installed deckcheck and by ``bench/fuzz_update.py``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path


def wheel_venv(tmp: Path) -> Path:
    """deckcheck built as a wheel and installed into a new venv (its deps: this environment's).

    No network: the wheel is built without build isolation, installed with ``--no-index
    --no-deps``, and the venv reaches the already-installed dependencies through a ``.pth``
    file (which does not make the source checkout importable).
    """
    import sysconfig

    repo = Path(__file__).resolve().parent.parent
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copyfile(repo / name, src / name)
    shutil.copytree(
        repo / "deckcheck", src / "deckcheck", ignore=shutil.ignore_patterns("__pycache__")
    )
    pip = [sys.executable, "-m", "pip", "-q", "--disable-pip-version-check"]
    subprocess.run(
        [
            *pip,
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            str(tmp / "dist"),
            str(src),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = (tmp / "dist").glob("deckcheck-*.whl")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run(
        [*pip, "--python", str(py), "install", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv
