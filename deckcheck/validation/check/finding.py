"""What the reader left: lines it could not resolve, and passcodes that name no card."""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.deck.model import FindingCode
from deckcheck.validation.context import Context, violation
from deckcheck.validation.report import DEFAULT_SEVERITY, Code, Violation

_CODE = {
    FindingCode.UNKNOWN_CARD: Code.UNKNOWN_CARD,
    FindingCode.AMBIGUOUS_CARD: Code.AMBIGUOUS_CARD,
    FindingCode.PARSE: Code.PARSE,
    FindingCode.MISSING_SECTIONS: Code.MISSING_SECTIONS,
    FindingCode.PRERELEASE_CODE: Code.PRERELEASE_CODE,
}
"""The violation code of each reader's finding."""


def check_read_findings(ctx: Context) -> Iterator[Violation]:
    """Lines the reader could not resolve: unknown and ambiguous names, unreadable lines."""
    for f in ctx.deck.findings:
        if f.code is FindingCode.UNKNOWN_CARD and f.passcode is not None:
            continue  # reported by check_unknown_cards from the card itself
        code = _CODE[f.code]
        severity = DEFAULT_SEVERITY[code]
        msg = f.message
        if f.suggestions and "did you mean" not in msg:
            msg += "; did you mean: " + ", ".join(f.suggestions[:3]) + "?"
        found = f.count if f.code is not FindingCode.PARSE else None
        section = f.section.value if f.section else None
        yield Violation(
            code, severity, msg, section, f.passcode, f.name, found, None, f.line, f.text
        )


def check_unknown_cards(ctx: Context) -> Iterator[Violation]:
    """Passcodes the card index does not know."""
    for dc in ctx.unknown:
        if dc.card is None:
            copies = sum(1 for c in ctx.deck.section(dc.section) if c.passcode == dc.passcode)
            yield violation(
                Code.UNKNOWN_CARD,
                f"unknown passcode {dc.passcode}: check the code, or remove the line",
                dc,
                name=f"#{dc.passcode}",
                found=copies,
            )
