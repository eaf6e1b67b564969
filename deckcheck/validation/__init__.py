"""Validation: one deck against a format on a date, every problem reported at once.

``report`` holds the records (``Severity``, ``Code``, ``Violation``, ``Report``); ``engine`` the
rules and ``validate()``.
"""

from __future__ import annotations

from deckcheck.validation.engine import Ruleset, ruleset, validate
from deckcheck.validation.report import BanlistRef, Code, Report, Severity, Violation

__all__ = [
    "BanlistRef",
    "Code",
    "Report",
    "Ruleset",
    "Severity",
    "Violation",
    "ruleset",
    "validate",
]
