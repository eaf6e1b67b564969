"""A batch's reports with its metagame: ``report.json`` (a ``meta`` key) and ``report.html``
(the metagame section), as ``deckcheck batch`` writes them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckcheck.reporter import OutputFormat
    from deckcheck.run.batch import Batch
    from deckcheck.run.meta import Metagame


def batch_with_meta(
    batch: Batch, output: OutputFormat | str, meta: Metagame, *, lang: str = "en"
) -> str:
    """A batch's ``json`` (with a ``meta`` key) or ``html`` report (with a metagame section)."""
    from deckcheck.reporter import OutputFormat, batch_dict, localize_result
    from deckcheck.reporter.document import MetaDocument, shape
    from deckcheck.reporter.html import batch_html
    from deckcheck.reporter.options import dump_json

    if OutputFormat(output) is OutputFormat.HTML:
        return batch_html(batch, meta=meta, lang=lang)
    data = {**batch_dict(batch), "meta": shape(MetaDocument, meta)}
    for report, result in zip(batch.reports, data["results"], strict=True):
        localize_result(report, result, lang)
    return dump_json(data)
