"""deckcheck: build and check Yu-Gi-Oh! decks.

The public API is re-exported here and imported lazily, so ``import deckcheck`` stays cheap::

    import deckcheck
    data = deckcheck.Dataset.active()           # cards, lists, formats; as_of, fingerprint
    data.cards.lookup("Ash Blossom").card.passcode   # 14558127
    batch = deckcheck.check(["decks/"], "tcg")  # every deck of a folder
    print(deckcheck.render(batch, "json"), batch.exit_code)
"""

from __future__ import annotations

import importlib

from deckcheck.version import __version__ as __version__

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    "Dataset": "deckcheck.data.dataset",
    "Batch": "deckcheck.run.batch",
    "Checked": "deckcheck.run.row",
    "ExitCode": "deckcheck.error",
    "Source": "deckcheck.run.batch",
    "Summary": "deckcheck.run.batch",
    "Unreadable": "deckcheck.run.batch",
    "Skipped": "deckcheck.source.record",
    "SkipReason": "deckcheck.source.record",
    "UnreadableReason": "deckcheck.source.record",
    "check": "deckcheck.run.batch",
    "fingerprint_deck": "deckcheck.deck.model",
    "compare_decks": "deckcheck.deck.compare",
    "DeckDiff": "deckcheck.deck.compare",
    "apply_side_plan": "deckcheck.run.siding",
    "parse_side_plan": "deckcheck.run.siding",
    "SidePlan": "deckcheck.run.siding",
    "SideResult": "deckcheck.run.siding",
    "Registration": "deckcheck.source.registration",
    "read_registrations": "deckcheck.source.registration",
    "sources": "deckcheck.run.batch",
    "render": "deckcheck.reporter",
    "OutputFormat": "deckcheck.reporter",
    "RenderOptions": "deckcheck.reporter",
    "InputError": "deckcheck.error",
    "ArgumentError": "deckcheck.error",
    "NotFoundError": "deckcheck.error",
    "DeckWriteError": "deckcheck.error",
    "FormatFileError": "deckcheck.error",
    "ConfigError": "deckcheck.error",
    "DeckTooLargeError": "deckcheck.error",
    "ConditionError": "deckcheck.error",
    "FormatRegistry": "deckcheck.rule.format",
    "Card": "deckcheck.card",
    "CardIndex": "deckcheck.card",
    "CardKind": "deckcheck.card",
    "DeckZone": "deckcheck.card",
    "ExtraKind": "deckcheck.card",
    "Lookup": "deckcheck.card",
    "Match": "deckcheck.card",
    "Deck": "deckcheck.deck.model",
    "DeckCard": "deckcheck.deck.model",
    "ReadFinding": "deckcheck.deck.model",
    "FindingCode": "deckcheck.deck.model",
    "Section": "deckcheck.deck.model",
    "DeckcheckError": "deckcheck.error",
    "DataError": "deckcheck.error",
    "DeckReadError": "deckcheck.error",
    "UnknownCardError": "deckcheck.error",
    "AmbiguousCardError": "deckcheck.error",
    "UnknownFormatError": "deckcheck.error",
    "validate": "deckcheck.validation.engine",
    "Report": "deckcheck.validation.report",
    "Violation": "deckcheck.validation.report",
    "Code": "deckcheck.validation.report",
    "Severity": "deckcheck.validation.report",
    "BanlistRef": "deckcheck.validation.report",
    "DeckFormat": "deckcheck.deck.io",
    "detect_format": "deckcheck.deck.io",
    "read_deck": "deckcheck.deck.io",
    "read_path": "deckcheck.deck.io",
    "write_deck": "deckcheck.deck.io",
    "simulate": "deckcheck.goldfish",
    "HandStats": "deckcheck.goldfish",
    "load_spec": "deckcheck.goldfish",
    "parse_condition": "deckcheck.goldfish",
    "Spec": "deckcheck.goldfish",
    "SpecError": "deckcheck.error",
    "DrawRules": "deckcheck.goldfish",
    "GoldfishError": "deckcheck.error",
    "Banlist": "deckcheck.rule.banlist",
    "BanlistCatalog": "deckcheck.rule.banlist",
    "TcgRegion": "deckcheck.rule.banlist",
    "read_lflist": "deckcheck.rule.banlist",
    "dump_lflist": "deckcheck.rule.banlist",
    "SizeRule": "deckcheck.rule.format",
    "Era": "deckcheck.rule.format",
    "Format": "deckcheck.rule.format",
    "Pool": "deckcheck.rule.format",
    "get_format": "deckcheck.data.entry",
    "list_formats": "deckcheck.data.entry",
    "list_eras": "deckcheck.data.entry",
    "load_format_file": "deckcheck.data.entry",
}

# a literal list, so type checkers see the exports (a test keeps it equal to sorted(_EXPORTS))
__all__ = [
    "AmbiguousCardError",
    "ArgumentError",
    "Banlist",
    "BanlistCatalog",
    "BanlistRef",
    "Batch",
    "Card",
    "CardIndex",
    "CardKind",
    "Checked",
    "Code",
    "ConditionError",
    "ConfigError",
    "DataError",
    "Dataset",
    "Deck",
    "DeckCard",
    "DeckDiff",
    "DeckFormat",
    "DeckReadError",
    "DeckTooLargeError",
    "DeckWriteError",
    "DeckZone",
    "DeckcheckError",
    "DrawRules",
    "Era",
    "ExitCode",
    "ExtraKind",
    "FindingCode",
    "Format",
    "FormatFileError",
    "FormatRegistry",
    "GoldfishError",
    "HandStats",
    "InputError",
    "Lookup",
    "Match",
    "NotFoundError",
    "OutputFormat",
    "Pool",
    "ReadFinding",
    "Registration",
    "RenderOptions",
    "Report",
    "Section",
    "Severity",
    "SidePlan",
    "SideResult",
    "SizeRule",
    "SkipReason",
    "Skipped",
    "Source",
    "Spec",
    "SpecError",
    "Summary",
    "TcgRegion",
    "UnknownCardError",
    "UnknownFormatError",
    "Unreadable",
    "UnreadableReason",
    "Violation",
    "apply_side_plan",
    "check",
    "compare_decks",
    "detect_format",
    "dump_lflist",
    "fingerprint_deck",
    "get_format",
    "list_eras",
    "list_formats",
    "load_format_file",
    "load_spec",
    "parse_condition",
    "parse_side_plan",
    "read_deck",
    "read_lflist",
    "read_path",
    "read_registrations",
    "render",
    "simulate",
    "sources",
    "validate",
    "write_deck",
]

# ``typing`` is not imported at run time: it alone cost more than the rest of this module
# (``python -X importtime -c "import deckcheck"``); type checkers read this name as True
TYPE_CHECKING = False
if TYPE_CHECKING:
    from deckcheck.card import Card, CardIndex, CardKind, DeckZone, ExtraKind, Lookup, Match
    from deckcheck.data.dataset import Dataset
    from deckcheck.data.entry import get_format, list_eras, list_formats, load_format_file
    from deckcheck.deck.compare import DeckDiff, compare_decks
    from deckcheck.deck.io import DeckFormat, detect_format, read_deck, read_path, write_deck
    from deckcheck.deck.model import (
        Deck,
        DeckCard,
        FindingCode,
        ReadFinding,
        Section,
        fingerprint_deck,
    )
    from deckcheck.error import (
        AmbiguousCardError,
        ArgumentError,
        ConditionError,
        ConfigError,
        DataError,
        DeckcheckError,
        DeckReadError,
        DeckTooLargeError,
        DeckWriteError,
        ExitCode,
        FormatFileError,
        GoldfishError,
        InputError,
        NotFoundError,
        SpecError,
        UnknownCardError,
        UnknownFormatError,
    )
    from deckcheck.goldfish import (
        DrawRules,
        HandStats,
        Spec,
        load_spec,
        parse_condition,
        simulate,
    )
    from deckcheck.reporter import OutputFormat, RenderOptions, render
    from deckcheck.rule.banlist import Banlist, BanlistCatalog, TcgRegion, dump_lflist, read_lflist
    from deckcheck.rule.format import Era, Format, FormatRegistry, Pool, SizeRule
    from deckcheck.run.batch import Batch, Source, Summary, Unreadable, check, sources
    from deckcheck.run.row import Checked
    from deckcheck.run.siding import SidePlan, SideResult, apply_side_plan, parse_side_plan
    from deckcheck.source.record import Skipped, SkipReason, UnreadableReason
    from deckcheck.source.registration import Registration, read_registrations
    from deckcheck.validation.engine import validate
    from deckcheck.validation.report import BanlistRef, Code, Report, Severity, Violation


_FUNCTION = type(importlib.import_module)


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'deckcheck' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    if isinstance(value, _FUNCTION):  # checked arguments, documented errors (deckcheck.boundary)
        value = importlib.import_module("deckcheck.boundary").guard(value)
    value.__module__ = "deckcheck"  # shown (and pickled) by its public path, as httpx does
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
