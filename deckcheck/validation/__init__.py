"""Validation: one deck against a format on a date, every problem reported at once.

``report`` holds the records (``Severity``, ``Code``, ``Violation``, ``Report``); ``engine``
``validate()`` (the report builder); ``ruleset`` a format at a date with its per-card memo
(built and cached on the dataset); ``fact`` what a ruleset knows of one card; ``context`` what
the rules read; ``check/`` the rules, one module per family, and ``RULES``.
"""

from __future__ import annotations

from deckcheck.validation.engine import validate
from deckcheck.validation.report import BanlistRef, Code, Report, Severity, Violation

__all__ = [
    "BanlistRef",
    "Code",
    "Report",
    "Severity",
    "Violation",
    "validate",
]
