"""Rendering: every report deckcheck prints, in every output format, from one registry.

:func:`render` takes a result (a :class:`~deckcheck.run.batch.Batch`, a
:class:`~deckcheck.validation.report.Report`, a :class:`~deckcheck.goldfish.HandStats`) and an
:class:`OutputFormat`; dispatch over the formats ends in ``assert_never``, so adding a format
without a reporter fails type-checking. JSON documents are pydantic models
(:mod:`deckcheck.reporter.document`), whose JSON Schemas ``deckcheck schema`` prints. Plots of
goldfish results are in :mod:`deckcheck.reporter.plot` (optional ``plot`` extra).

The CI reporters take a :class:`~deckcheck.run.batch.Batch` (or one report): JUnit XML
(:mod:`~deckcheck.reporter.junit`), GitHub workflow commands (:mod:`~deckcheck.reporter.github`)
and SARIF 2.1.0 (:mod:`~deckcheck.reporter.sarif`); file paths in them are made relative to
:attr:`RenderOptions.root` (the repository root).
"""

from __future__ import annotations

import enum
import sys
from typing import TYPE_CHECKING, Any, assert_never, cast

from deckcheck.reporter.options import RenderOptions as RenderOptions
from deckcheck.reporter.options import dump_json
from deckcheck.reporter.options import repo_path as repo_path
from deckcheck.reporter.options import safe as safe

if TYPE_CHECKING:
    from deckcheck.goldfish import HandStats
    from deckcheck.run.batch import Batch
    from deckcheck.run.forecast import Forecast
    from deckcheck.validation.report import Report

    Renderable = Batch | Report | HandStats | Forecast


class OutputFormat(enum.StrEnum):
    """Report formats (the CLI's ``-o/--output``)."""

    TEXT = "text"
    JSON = "json"
    JUNIT = "junit"
    """JUnit XML: one test case per deck, one failure per error (CI test reports)."""
    GITHUB = "github"
    """GitHub Actions workflow commands: one annotation per finding."""
    SARIF = "sarif"
    """SARIF 2.1.0: one rule per violation code, results with file and line (code scanning)."""

    CSV = "csv"
    """Batches: one row per registration or deck (:mod:`deckcheck.reporter.csv`)."""
    HTML = "html"
    """Batches: one self-contained page (:mod:`deckcheck.reporter.html`)."""


CI_OUTPUTS = frozenset({OutputFormat.JUNIT, OutputFormat.GITHUB, OutputFormat.SARIF})
"""The CI report formats."""
VALIDATION_OUTPUTS = CI_OUTPUTS | {OutputFormat.CSV, OutputFormat.HTML}
"""Report formats for validation results only (not for goldfish odds or card lookups)."""


def render(
    value: Renderable,
    output: OutputFormat | str = OutputFormat.TEXT,
    options: RenderOptions | None = None,
    **kw: Any,
) -> str:
    """``value`` rendered as ``output`` (an :class:`OutputFormat` or its name); ``kw`` sets
    :class:`RenderOptions`.

    Batches and reports render as ``text``, ``json``, ``csv`` and ``html``; goldfish results
    as ``text`` and ``json``.

    Raises :class:`~deckcheck.error.InputError` for an unknown output format, or a CI format
    (``junit``, ``github``, ``sarif``) asked of something that is not a validation result.
    """
    from deckcheck.error import InputError

    try:
        fmt = OutputFormat(output)
    except ValueError:
        valid = ", ".join(f.value for f in OutputFormat)
        raise InputError(f"unknown output format {output!r}; valid: {valid}") from None
    opts = options or RenderOptions(**kw)
    if fmt is OutputFormat.TEXT:
        return _text(value, opts)
    elif fmt is OutputFormat.JSON:
        return _json(value, opts)
    elif fmt is OutputFormat.JUNIT:
        from deckcheck.reporter import junit

        return junit.junit_xml(_as_batch(value, fmt), opts)
    elif fmt is OutputFormat.GITHUB:
        from deckcheck.reporter import github, outlook
        from deckcheck.run.forecast import Forecast

        if isinstance(value, Forecast):
            return outlook.forecast_commands(value, opts)
        return github.workflow_commands(_as_batch(value, fmt), opts)
    elif fmt is OutputFormat.SARIF:
        from deckcheck.reporter import sarif

        return sarif.sarif_json(_as_batch(value, fmt), opts)
    elif fmt is OutputFormat.CSV:
        from deckcheck.reporter.csv import batch_csv

        return batch_csv(_as_batch(value, fmt), lang=opts.lang)
    elif fmt is OutputFormat.HTML:
        from deckcheck.reporter.html import batch_html

        return batch_html(_as_batch(value, fmt), lang=opts.lang)
    else:
        assert_never(fmt)


def _as_batch(value: Renderable, fmt: OutputFormat) -> Batch:
    """A validation result as a batch (one report becomes a batch of one)."""
    from deckcheck.error import InputError
    from deckcheck.run.batch import Batch
    from deckcheck.validation.report import Report

    if isinstance(value, Batch):
        return value
    if isinstance(value, Report):
        return Batch(value.format, value.date, (value,), ())
    raise InputError(f"--output {fmt.value} is for validation results only; use text or json")


def _is(value: object, module: str, name: str) -> bool:
    """Whether ``value`` is an instance of class ``name`` of ``module``, asked without importing
    the module: no value can be of a class whose module was never imported (a goldfish run's
    output does not load the validation and batch stages to be told it is neither)."""
    found = sys.modules.get(module)
    return found is not None and isinstance(value, getattr(found, name))


def _text(value: Renderable, opts: RenderOptions) -> str:
    from deckcheck.reporter import text

    if _is(value, "deckcheck.run.batch", "Batch"):
        return text.batch_text(cast("Batch", value), opts)
    if _is(value, "deckcheck.validation.report", "Report"):
        return text.report_text(cast("Report", value), opts) + "\n"
    if _is(value, "deckcheck.run.forecast", "Forecast"):
        from deckcheck.reporter import outlook

        return outlook.forecast_text(cast("Forecast", value), opts)
    return text.goldfish_text(cast("HandStats", value), opts)


def _json(value: Renderable, opts: RenderOptions) -> str:
    from deckcheck.reporter import document as doc

    if _is(value, "deckcheck.run.batch", "Batch"):  # the usual case: without validating again
        batch = cast("Batch", value)
        data = batch_dict(batch)
        for report, result in zip(batch.reports, data["results"], strict=True):
            localize_result(report, result, opts.lang)
        return dump_json(data)
    if _is(value, "deckcheck.run.forecast", "Forecast"):
        return doc.dump(doc.document(doc.UpcomingDocument, cast("Forecast", value)))
    if _is(value, "deckcheck.validation.report", "Report"):
        report = cast("Report", value)
        result = localize_result(report, doc.shape(doc.ResultDoc, report), opts.lang)
        return doc.dump(doc.ResultDoc.model_validate(safe(result)))
    data = doc.shape(doc.GoldfishDocument, value, doc.hidden(opts.fractions))
    data["warnings"] = [*data.get("warnings", []), *opts.warnings]
    return doc.dump(doc.GoldfishDocument.model_validate(safe(data)))


def localize_result(report: Report, result: dict[str, Any], lang: str) -> dict[str, Any]:
    """``result`` (a report's JSON form) with each violation's name and message in ``lang``
    beside the English ones (nothing added for English)."""
    if lang == "en":
        return result
    from deckcheck.reporter.i18n import localizer

    loc = localizer(lang)
    for v, out in zip(report.violations, result["violations"], strict=True):
        local = loc.name(v.passcode, v.name)
        if local is not None:
            out["name_local"] = local
        out["message_local"] = loc.violation(v)
    return result


def batch_dict(batch: Batch) -> dict[str, Any]:
    """The validation document of a batch as plain data in its model's shape
    (:class:`~deckcheck.reporter.document.ValidationDocument`; the README documents it)."""
    from deckcheck.reporter.document import ValidationDocument, shape

    return shape(ValidationDocument, batch)
