"""The goldfish runs behind ``deckcheck simulate``: one run, a ratio sweep, a comparison
(``--vs``) and a side plan (``--side``), each read, run and reported (text or JSON, a plot)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from msgspec import Struct
from msgspec.structs import replace

from deckcheck.cli.common import Output, clean, fail, shorten

if TYPE_CHECKING:
    from deckcheck.deck.model import Deck
    from deckcheck.goldfish import HandStats, Spec
    from deckcheck.rule.format import Format
    from deckcheck.run.siding import SidePlan


def parse_count(text: str, option: str = "--count") -> tuple[str, int]:
    """``NAME=N`` -> (name, n); exit 2 on anything else (N in decimal digits, at most the
    largest quick-mode deck)."""
    from deckcheck.boundary import read_number
    from deckcheck.goldfish.quick import MAX_SIZE

    name, sep, value = text.rpartition("=")
    n = read_number(value, MAX_SIZE)
    if not sep or not name.strip() or n is None:
        fail(f"{option} {text!r}: expected NAME=N, e.g. starter=9")
    if n > MAX_SIZE:
        fail(f"{option} {text!r}: N is more than {MAX_SIZE}, the largest quick-mode deck")
    return name.strip(), n


def check_plot(plot: Path | None) -> None:
    """Exit 2 unless ``--plot`` names a .png or .svg file and matplotlib is installed."""
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        fail(f"{plot}: the plot file must end in .png or .svg")
    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            fail("--plot needs matplotlib", ["install with: pip install 'deckcheck[plot]'"])


def read_deck_warning(deck_path: str, rush: bool, skills: bool = False) -> Deck:
    """Read the deck (exit 2 when unreadable) and warn about each line it could not use.

    ``skills`` (Speed Duel, Duel Links): a name that is also a Skill's means the Skill.
    """
    from deckcheck.data.dataset import Dataset
    from deckcheck.deck.io import read_path
    from deckcheck.deck.model import FindingCode, Section
    from deckcheck.error import DeckcheckError

    try:
        deck = read_path(deck_path, rush=rush)
    except DeckcheckError as exc:
        fail(str(exc))
    if skills:
        from deckcheck.deck.skills import prefer_skills

        deck = prefer_skills(deck, Dataset.active().cards)
    for finding in deck.findings:
        at = f"{deck.source or deck_path}:{finding.line}" if finding.line else deck_path
        if finding.code is FindingCode.MISSING_SECTIONS:  # a note about the file, no card
            kept = ""
        elif finding.name:
            kept = " (counted as a card of no category)"
        elif finding.passcode is not None and finding.section in (Section.MAIN, None):
            kept = " (counted in the deck size, no card data)"
        else:
            kept = " (left out)"
        sys.stderr.write(f"warning: {clean(at)}: {clean(shorten(finding.message))}{kept}\n")
    return deck


def load_spec_with(spec_path: Path | None, when: list[str], rush: bool) -> Spec | None:
    """The spec file (if any), its conditions replaced by ``--when`` ones when given."""
    from deckcheck.goldfish import load_spec
    from deckcheck.goldfish.quick import quick_conditions

    spec = load_spec(spec_path, rush=rush) if spec_path is not None else None
    if when:
        if spec is None:
            fail("--when needs --spec (its categories), or quick mode (--size and --count)")
        counts = {c.name: 0 for c in spec.categories}
        conds = tuple((name, cond) for name, _, cond in quick_conditions(counts, when))
        spec = replace(spec, conditions=conds)
    return spec


def warn(stats: HandStats) -> None:
    """The goldfish run's warnings on stderr (those about unread lines were given already)."""
    for warning in stats.warnings:
        if "match no card" not in warning and "unknown passcodes" not in warning:  # named above
            sys.stderr.write(f"warning: {clean(warning)}\n")


class Job(Struct, frozen=True):
    """What one ``simulate`` call runs on: the deck (or quick-mode counts), the spec and
    ``--when`` conditions, and the format."""

    deck_path: str | None
    quick: tuple[int, dict[str, int]] | None
    spec_path: Path | None
    when: list[str]
    fmt: Format


class View(Struct, frozen=True):
    """How the result is shown: ``--output``, ``--fractions`` and ``--plot``."""

    output: Output
    fractions: bool
    plot: Path | None


def _deck_spec(job: Job) -> tuple[Deck, Spec | None]:
    """The job's deck (each line it could not use warned about) and its spec (``--when``
    applied); exit 2 when the deck cannot be read."""
    from deckcheck.deck.skills import uses_skills
    from deckcheck.rule.format import Pool

    rush = job.fmt.pool is Pool.RUSH
    assert job.deck_path is not None
    deck = read_deck_warning(job.deck_path, rush, uses_skills(job.fmt))
    return deck, load_spec_with(job.spec_path, job.when, rush)


def run_goldfish(job: Job, kw: dict[str, Any]) -> HandStats:
    """One goldfish run of a deck (and spec) or a quick-mode deck; exit 2 on bad input."""
    from deckcheck.error import DeckcheckError
    from deckcheck.goldfish import simulate, simulate_counts

    try:
        if job.quick is not None:
            return simulate_counts(job.quick[0], job.quick[1], job.when or None, **kw)
        return simulate(*_deck_spec(job), **kw)
    except DeckcheckError as exc:
        fail(str(exc))


def quick_of(deck_path: str | None, size: int | None, count: list[str]) -> Any:
    """(size, counts) in quick mode, None with a deck; exit 2 on a mix or a missing part."""
    if deck_path is not None:
        if size is not None or count:
            fail("give a DECK or quick mode (--size and --count), not both")
        return None
    if size is None or not count:
        fail("give a DECK file, or quick mode: --size N and --count NAME=N (repeatable)")
    counts: dict[str, int] = {}
    for text in count:
        name, n = parse_count(text)
        if name in counts:
            fail(f"--count {name!r} is given twice")
        counts[name] = n
    return size, counts


def run_sweep(job: Job, kw: dict[str, Any], view: View) -> None:
    """``--vary``: the ranked sweep as text or JSON (and a plot)."""
    from deckcheck.error import DeckcheckError
    from deckcheck.goldfish import sweep, sweep_counts
    from deckcheck.reporter import document as doc
    from deckcheck.reporter.text import sweep_text

    try:
        if job.quick is not None:
            kw = {k: v for k, v in kw.items() if k not in ("trials", "seed")}
            size, counts = job.quick
            stats = sweep_counts(size, counts, kw.pop("vary"), job.when or None, **kw)
        else:
            stats = sweep(*_deck_spec(job), kw.pop("vary") or None, **kw)
        if view.plot is not None:
            from deckcheck.reporter.plot import plot_sweep

            plot_sweep(stats, view.plot)
    except DeckcheckError as exc:
        fail(str(exc))
    if view.output is Output.JSON:
        sweep_doc = doc.document(doc.SweepDocument, stats, doc.hidden(view.fractions))
        sys.stdout.write(doc.dump(sweep_doc))
    else:
        sys.stdout.write(sweep_text(stats, view.fractions))


def spec_varies(spec_path: Path, fmt: Format) -> bool:
    """Whether the spec file has a ``[vary]`` table (exit 2 on a bad spec)."""
    from deckcheck.error import DeckcheckError
    from deckcheck.goldfish import load_spec
    from deckcheck.rule.format import Pool

    try:
        return bool(load_spec(spec_path, rush=fmt.pool is Pool.RUSH).vary)
    except DeckcheckError as exc:
        fail(str(exc))


def _other_counts(quick: tuple[int, dict[str, int]], vs: str) -> tuple[int, dict[str, int]]:
    counts = dict(quick[1])
    for part in vs.split(","):
        name, n = parse_count(part.strip(), "--vs")
        counts[name] = n
    return quick[0], counts


def run_compare(job: Job, kw: dict[str, Any], vs: str, view: View) -> None:
    """``--vs``: both runs side by side, as text or JSON (paired intervals on one seed), and
    a plot of both."""
    from deckcheck.goldfish.compare import compare
    from deckcheck.reporter import document as doc
    from deckcheck.reporter.text import compare_text

    kw = dict(kw, paired=kw["seed"] is not None)  # one --seed: both runs' games are paired
    a = run_goldfish(job, kw)
    if job.quick is not None:
        b = run_goldfish(replace(job, quick=_other_counts(job.quick, vs), spec_path=None), kw)
        labels = (", ".join(f"{n}={c}" for n, c in job.quick[1].items()), vs)
    elif vs.lower().endswith(".toml"):
        b = run_goldfish(replace(job, spec_path=Path(vs)), kw)
        labels = (str(job.spec_path or "default report"), vs)
    else:
        b = run_goldfish(replace(job, deck_path=vs), kw)
        labels = (str(job.deck_path), vs)
    warn(a)
    warn(b)
    cmp = compare(a, b, *labels)
    if view.plot is not None:
        write_compare_plot(cmp, view.plot)
    if view.output is Output.JSON:
        sys.stdout.write(
            doc.dump(doc.document(doc.CompareDocument, cmp, doc.hidden(view.fractions)))
        )
    else:
        sys.stdout.write(compare_text(cmp, view.fractions))


def run_side(job: Job, kw: dict[str, Any], plan_path: Path, view: View) -> None:
    """``--side PLAN``: game 1 and the sided deck side by side, and the side cards' odds."""
    from deckcheck.deck.skills import uses_skills
    from deckcheck.error import DeckcheckError
    from deckcheck.goldfish.side import simulate_side
    from deckcheck.reporter import document as doc
    from deckcheck.reporter.text import side_text
    from deckcheck.rule.format import Pool

    assert job.deck_path is not None
    text = _read_plan(plan_path)
    rush = job.fmt.pool is Pool.RUSH
    deck = read_deck_warning(job.deck_path, rush, uses_skills(job.fmt))
    plan = _parse_plan(plan_path, text)
    try:
        spec = load_spec_with(job.spec_path, job.when, rush)
        rules = kw.pop("rules")
        stats = simulate_side(deck, plan, spec, format=job.fmt, rules=rules, **kw)
    except DeckcheckError as exc:
        fail(str(exc))
    for warning in stats.warnings:
        sys.stderr.write(f"warning: {clean(warning)}\n")
    warn(stats.game1)
    if view.plot is not None:
        write_compare_plot(stats.comparison, view.plot)
    if view.output is Output.JSON:
        side_doc = doc.document(doc.SideGoldfishDocument, stats, doc.hidden(view.fractions))
        sys.stdout.write(doc.dump(side_doc))
    else:
        sys.stdout.write(side_text(stats, view.fractions))


def _read_plan(plan_path: Path) -> str:
    """The side plan file's text (capped); exit 2 when it cannot be read."""
    from deckcheck.boundary import MAX_TEXT_BYTES, read_capped
    from deckcheck.error import DeckcheckError

    try:
        return read_capped(plan_path, MAX_TEXT_BYTES).decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{plan_path}: cannot read the side plan: {exc}")
    except DeckcheckError as exc:
        fail(f"{plan_path}: {exc}")


def _parse_plan(plan_path: Path, text: str) -> SidePlan:
    """The side plan of the file's text; exit 2 naming the file when it is not one."""
    from deckcheck.error import DeckcheckError
    from deckcheck.run.siding import parse_side_plan

    try:
        return parse_side_plan(text)
    except DeckcheckError as exc:
        fail(f"{plan_path}: {exc}")


def write_compare_plot(cmp: Any, plot: Path) -> None:
    """Plot both runs of a comparison (exit 2 when it cannot be written)."""
    from deckcheck.error import DeckcheckError
    from deckcheck.reporter.plot import plot_compare

    try:
        plot_compare(cmp, plot)
    except DeckcheckError as exc:
        fail(str(exc))
