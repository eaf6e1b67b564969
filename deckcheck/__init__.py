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
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    "Dataset": "deckcheck.dataset",
    "Batch": "deckcheck.batch",
    "ExitCode": "deckcheck.error",
    "Source": "deckcheck.batch",
    "Summary": "deckcheck.batch",
    "Unreadable": "deckcheck.batch",
    "check": "deckcheck.batch",
    "fingerprint_deck": "deckcheck.deck",
    "compare_decks": "deckcheck.comparison",
    "DeckDiff": "deckcheck.comparison",
    "apply_side_plan": "deckcheck.siding",
    "parse_side_plan": "deckcheck.siding",
    "parse_card_list": "deckcheck.siding",
    "SidePlan": "deckcheck.siding",
    "SideResult": "deckcheck.siding",
    "Registration": "deckcheck.registration",
    "read_registrations": "deckcheck.registration",
    "sources": "deckcheck.batch",
    "render": "deckcheck.reporter",
    "OutputFormat": "deckcheck.reporter",
    "RenderOptions": "deckcheck.reporter",
    "InputError": "deckcheck.error",
    "NotFoundError": "deckcheck.error",
    "DeckWriteError": "deckcheck.error",
    "FormatFileError": "deckcheck.error",
    "ConfigError": "deckcheck.error",
    "DeckTooLargeError": "deckcheck.error",
    "ConditionError": "deckcheck.error",
    "FormatRegistry": "deckcheck.format",
    "Card": "deckcheck.card",
    "CardIndex": "deckcheck.card",
    "CardKind": "deckcheck.card",
    "DeckZone": "deckcheck.card",
    "ExtraKind": "deckcheck.card",
    "Lookup": "deckcheck.card",
    "Match": "deckcheck.card",
    "normalize_name": "deckcheck.card",
    "load_index": "deckcheck.card",
    "Deck": "deckcheck.deck",
    "DeckCard": "deckcheck.deck",
    "ReadFinding": "deckcheck.deck",
    "FindingCode": "deckcheck.deck",
    "Section": "deckcheck.deck",
    "DeckcheckError": "deckcheck.error",
    "DataError": "deckcheck.error",
    "DeckReadError": "deckcheck.error",
    "UnknownCardError": "deckcheck.error",
    "AmbiguousCardError": "deckcheck.error",
    "UnknownFormatError": "deckcheck.error",
    "validate": "deckcheck.validation",
    "summarize": "deckcheck.validation",
    "Report": "deckcheck.report",
    "Violation": "deckcheck.report",
    "Code": "deckcheck.report",
    "Severity": "deckcheck.report",
    "BanlistRef": "deckcheck.report",
    "DeckFormat": "deckcheck.io",
    "detect_format": "deckcheck.io",
    "read_deck": "deckcheck.io",
    "read_path": "deckcheck.io",
    "write_deck": "deckcheck.io",
    "simulate": "deckcheck.goldfish",
    "HandStats": "deckcheck.goldfish",
    "load_spec": "deckcheck.goldfish",
    "parse_condition": "deckcheck.goldfish",
    "Spec": "deckcheck.goldfish",
    "SpecError": "deckcheck.error",
    "DrawRules": "deckcheck.goldfish",
    "GoldfishError": "deckcheck.error",
    "Banlist": "deckcheck.banlist",
    "BanlistCatalog": "deckcheck.banlist",
    "TcgRegion": "deckcheck.banlist",
    "load_catalog": "deckcheck.banlist",
    "read_lflist": "deckcheck.banlist",
    "dump_lflist": "deckcheck.banlist",
    "read_banlist_file": "deckcheck.banlist",
    "SizeRule": "deckcheck.format",
    "Era": "deckcheck.format",
    "Format": "deckcheck.format",
    "Pool": "deckcheck.format",
    "get_format": "deckcheck.format",
    "list_formats": "deckcheck.format",
    "list_eras": "deckcheck.format",
    "load_format_file": "deckcheck.format",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:
    from deckcheck.banlist import (
        Banlist,
        BanlistCatalog,
        TcgRegion,
        dump_lflist,
        load_catalog,
        read_banlist_file,
        read_lflist,
    )
    from deckcheck.batch import Batch, Source, Summary, Unreadable, check, sources
    from deckcheck.card import (
        Card,
        CardIndex,
        CardKind,
        DeckZone,
        ExtraKind,
        Lookup,
        Match,
        load_index,
        normalize_name,
    )
    from deckcheck.comparison import DeckDiff, compare_decks
    from deckcheck.dataset import Dataset
    from deckcheck.deck import Deck, DeckCard, FindingCode, ReadFinding, Section, fingerprint_deck
    from deckcheck.error import (
        AmbiguousCardError,
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
    from deckcheck.format import (
        Era,
        Format,
        FormatRegistry,
        Pool,
        SizeRule,
        get_format,
        list_eras,
        list_formats,
        load_format_file,
    )
    from deckcheck.goldfish import (
        DrawRules,
        HandStats,
        Spec,
        load_spec,
        parse_condition,
        simulate,
    )
    from deckcheck.io import DeckFormat, detect_format, read_deck, read_path, write_deck
    from deckcheck.registration import Registration, read_registrations
    from deckcheck.report import BanlistRef, Code, Report, Severity, Violation
    from deckcheck.reporter import OutputFormat, RenderOptions, render
    from deckcheck.siding import (
        SidePlan,
        SideResult,
        apply_side_plan,
        parse_card_list,
        parse_side_plan,
    )
    from deckcheck.validation import summarize, validate


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'deckcheck' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
