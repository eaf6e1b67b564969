"""CI reports and repository config: render and config-driven check vs their baselines."""

from __future__ import annotations

import shutil
import tempfile
from datetime import date
from pathlib import Path

from common import Figure, best_of, command_time, deckcheck_exe

from deckcheck.reporter import render
from deckcheck.run.batch import check
from deckcheck.run.config import check_with_config, load_config

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "tests" / "data" / "decks"
EXAMPLE = ROOT / "examples" / "deck-repo"


def run() -> list[Figure]:
    """Render the golden decks' batch in each CI format (baseline: JSON); check a repository
    with its config (baseline: plain check); cold `validate` in a repo with a config (baseline:
    the same command with --no-config)."""
    on = date(2025, 6, 1)
    batch = check([str(DECKS)], "tcg", on)
    figures = []
    json_time = best_of(lambda: render(batch, "json"), repeat=7)
    for out in ("junit", "github", "sarif"):
        t = best_of(lambda out=out: render(batch, out), repeat=7)  # type: ignore[misc]
        figures.append(
            Figure(
                f"render {out} ({len(batch.reports)} decks)",
                t * 1e3,
                "render json",
                json_time * 1e3,
                "ms",
            )
        )
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        shutil.copytree(DECKS, repo)
        (repo / "deckcheck.toml").write_text(
            'date = "2025-06-01"\nexclude = ["*.toml"]\n[ignore]\n"illegal/**" = ["parse"]\n',
            encoding="utf-8",
        )  # one format for every deck, as in the baseline: the same validation work
        cfg = load_config(repo / "deckcheck.toml")
        check([str(repo)], "tcg", on)  # warm caches for both
        plain = best_of(lambda: check([str(repo)], "tcg", on), repeat=9)
        with_cfg = best_of(lambda: check_with_config([str(repo)], cfg), repeat=9)
        figures.append(
            Figure(
                "check_with_config (golden decks)",
                with_cfg * 1e3,
                "batch.check, no config",
                plain * 1e3,
                "ms",
            )
        )
    exe = deckcheck_exe()
    with tempfile.TemporaryDirectory() as tmp:
        # the same run with and without a (minimal) configuration: the cost of reading it
        config = Path(tmp) / "deckcheck.toml"
        config.write_text('date = "2025-06-01"\n', encoding="utf-8")
        argv = [exe, "validate", str(EXAMPLE / "tcg")]
        with_config = command_time([*argv, "--config", str(config)])
        without = command_time([*argv, "--no-config", "--date", "2025-06-01"])
    figures.append(
        Figure(
            "deckcheck validate examples/deck-repo/tcg (cold, with a config)",
            with_config * 1e3,
            "same, --no-config",
            without * 1e3,
            "ms",
        )
    )
    return figures
