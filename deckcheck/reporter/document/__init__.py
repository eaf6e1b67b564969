"""The JSON documents deckcheck prints, as pydantic models: one definition for the CLI's JSON,
the published JSON Schema (``deckcheck schema``) and the service's OpenAPI, one module per family
of results (:mod:`.validation`, :mod:`.goldfish`, :mod:`.reference`, :mod:`.meta`).

Each document is built from the library's records with :func:`~.shape.shape` (the one converter:
it reads a record by its model's fields) and written with ``model_dump_json``. Models forbid
unknown fields, so a value whose JSON form drifts from its model fails loudly (and the tests
print every document through its model).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# (imported here, not on first use: the function ``shape`` must win over its module's name)
from deckcheck.reporter.document.shape import Merged as Merged
from deckcheck.reporter.document.shape import document as document
from deckcheck.reporter.document.shape import shape as shape

if TYPE_CHECKING:
    from pydantic import BaseModel

    from deckcheck.reporter.document.event import WITHOUT_DECK as WITHOUT_DECK
    from deckcheck.reporter.document.event import AuditDoc as AuditDoc
    from deckcheck.reporter.document.event import EventDoc as EventDoc
    from deckcheck.reporter.document.event import EventEntryDoc as EventEntryDoc
    from deckcheck.reporter.document.event import event_at as event_at
    from deckcheck.reporter.document.goldfish import CardCountDoc as CardCountDoc
    from deckcheck.reporter.document.goldfish import CategoryDoc as CategoryDoc
    from deckcheck.reporter.document.goldfish import CategorySizesDoc as CategorySizesDoc
    from deckcheck.reporter.document.goldfish import CompareDocument as CompareDocument
    from deckcheck.reporter.document.goldfish import ConditionDoc as ConditionDoc
    from deckcheck.reporter.document.goldfish import CountEstimateDoc as CountEstimateDoc
    from deckcheck.reporter.document.goldfish import DeckInfoDoc as DeckInfoDoc
    from deckcheck.reporter.document.goldfish import DifferenceDoc as DifferenceDoc
    from deckcheck.reporter.document.goldfish import DistributionDoc as DistributionDoc
    from deckcheck.reporter.document.goldfish import DistributionTurnDoc as DistributionTurnDoc
    from deckcheck.reporter.document.goldfish import DrawRulesDoc as DrawRulesDoc
    from deckcheck.reporter.document.goldfish import EffectDoc as EffectDoc
    from deckcheck.reporter.document.goldfish import EstimateDoc as EstimateDoc
    from deckcheck.reporter.document.goldfish import GoldfishDocument as GoldfishDocument
    from deckcheck.reporter.document.goldfish import MeanDoc as MeanDoc
    from deckcheck.reporter.document.goldfish import SampleHandDoc as SampleHandDoc
    from deckcheck.reporter.document.goldfish import SamplesDoc as SamplesDoc
    from deckcheck.reporter.document.goldfish import SideGoldfishDocument as SideGoldfishDocument
    from deckcheck.reporter.document.goldfish import SidePlanCardDoc as SidePlanCardDoc
    from deckcheck.reporter.document.goldfish import SidePlanDoc as SidePlanDoc
    from deckcheck.reporter.document.goldfish import SweepDocument as SweepDocument
    from deckcheck.reporter.document.goldfish import SweepRowDoc as SweepRowDoc
    from deckcheck.reporter.document.goldfish import TurnEstimateDoc as TurnEstimateDoc
    from deckcheck.reporter.document.goldfish import VaryDoc as VaryDoc
    from deckcheck.reporter.document.goldfish import hidden as hidden
    from deckcheck.reporter.document.meta import ArchetypeShareDoc as ArchetypeShareDoc
    from deckcheck.reporter.document.meta import CardUsageDoc as CardUsageDoc
    from deckcheck.reporter.document.meta import MetaDocument as MetaDocument
    from deckcheck.reporter.document.meta import MetaEntryDoc as MetaEntryDoc
    from deckcheck.reporter.document.meta import MetaSkippedDoc as MetaSkippedDoc
    from deckcheck.reporter.document.meta import MetaUnreadableDoc as MetaUnreadableDoc
    from deckcheck.reporter.document.meta import ScoreDoc as ScoreDoc
    from deckcheck.reporter.document.meta import UnreadLineDoc as UnreadLineDoc
    from deckcheck.reporter.document.reference import BanlistAtDateDoc as BanlistAtDateDoc
    from deckcheck.reporter.document.reference import BanlistDiffDocument as BanlistDiffDocument
    from deckcheck.reporter.document.reference import BanlistDocument as BanlistDocument
    from deckcheck.reporter.document.reference import BundleDoc as BundleDoc
    from deckcheck.reporter.document.reference import CardDocument as CardDocument
    from deckcheck.reporter.document.reference import CardSearchDocument as CardSearchDocument
    from deckcheck.reporter.document.reference import ChangeDoc as ChangeDoc
    from deckcheck.reporter.document.reference import DataDiffDocument as DataDiffDocument
    from deckcheck.reporter.document.reference import DatasetRefDoc as DatasetRefDoc
    from deckcheck.reporter.document.reference import DataStatusDocument as DataStatusDocument
    from deckcheck.reporter.document.reference import DateChangeDoc as DateChangeDoc
    from deckcheck.reporter.document.reference import EntryDoc as EntryDoc
    from deckcheck.reporter.document.reference import EraDoc as EraDoc
    from deckcheck.reporter.document.reference import FormatDoc as FormatDoc
    from deckcheck.reporter.document.reference import FormatsDocument as FormatsDocument
    from deckcheck.reporter.document.reference import FreshnessDoc as FreshnessDoc
    from deckcheck.reporter.document.reference import InstalledDataDoc as InstalledDataDoc
    from deckcheck.reporter.document.reference import ListChangeDoc as ListChangeDoc
    from deckcheck.reporter.document.reference import NamesDoc as NamesDoc
    from deckcheck.reporter.document.reference import NewCardDoc as NewCardDoc
    from deckcheck.reporter.document.reference import ReleaseDoc as ReleaseDoc
    from deckcheck.reporter.document.reference import SizeRuleDoc as SizeRuleDoc
    from deckcheck.reporter.document.reference import StatusChangeDoc as StatusChangeDoc
    from deckcheck.reporter.document.reference import UpcomingDoc as UpcomingDoc
    from deckcheck.reporter.document.reference import banlist_named as banlist_named
    from deckcheck.reporter.document.reference import format_on as format_on
    from deckcheck.reporter.document.reference import found_card as found_card
    from deckcheck.reporter.document.validation import BanlistRefDoc as BanlistRefDoc
    from deckcheck.reporter.document.validation import CardChangeDoc as CardChangeDoc
    from deckcheck.reporter.document.validation import CountsDoc as CountsDoc
    from deckcheck.reporter.document.validation import DataDoc as DataDoc
    from deckcheck.reporter.document.validation import DeckForecastDoc as DeckForecastDoc
    from deckcheck.reporter.document.validation import NextListDoc as NextListDoc
    from deckcheck.reporter.document.validation import PointCardDoc as PointCardDoc
    from deckcheck.reporter.document.validation import PointsDoc as PointsDoc
    from deckcheck.reporter.document.validation import RegistrationDoc as RegistrationDoc
    from deckcheck.reporter.document.validation import ResultDoc as ResultDoc
    from deckcheck.reporter.document.validation import SkippedDoc as SkippedDoc
    from deckcheck.reporter.document.validation import SummaryDoc as SummaryDoc
    from deckcheck.reporter.document.validation import UnreadableDoc as UnreadableDoc
    from deckcheck.reporter.document.validation import UpcomingDocument as UpcomingDocument
    from deckcheck.reporter.document.validation import UpcomingSummaryDoc as UpcomingSummaryDoc
    from deckcheck.reporter.document.validation import ValidationDocument as ValidationDocument
    from deckcheck.reporter.document.validation import ViolationDoc as ViolationDoc

_EXPORTS: dict[str, tuple[str, ...]] = {
    "event": (
        "WITHOUT_DECK",
        "AuditDoc",
        "EventDoc",
        "EventEntryDoc",
        "event_at",
    ),
    "goldfish": (
        "CardCountDoc",
        "CategoryDoc",
        "CategorySizesDoc",
        "CompareDocument",
        "ConditionDoc",
        "CountEstimateDoc",
        "DeckInfoDoc",
        "DifferenceDoc",
        "DistributionDoc",
        "DistributionTurnDoc",
        "DrawRulesDoc",
        "EffectDoc",
        "EstimateDoc",
        "GoldfishDocument",
        "MeanDoc",
        "SampleHandDoc",
        "SamplesDoc",
        "SideGoldfishDocument",
        "SidePlanCardDoc",
        "SidePlanDoc",
        "SweepDocument",
        "SweepRowDoc",
        "TurnEstimateDoc",
        "VaryDoc",
        "hidden",
    ),
    "meta": (
        "ArchetypeShareDoc",
        "CardUsageDoc",
        "MetaDocument",
        "MetaEntryDoc",
        "MetaSkippedDoc",
        "MetaUnreadableDoc",
        "ScoreDoc",
        "UnreadLineDoc",
    ),
    "reference": (
        "BanlistAtDateDoc",
        "BanlistDiffDocument",
        "BanlistDocument",
        "BundleDoc",
        "CardDocument",
        "CardSearchDocument",
        "ChangeDoc",
        "DataDiffDocument",
        "DatasetRefDoc",
        "DataStatusDocument",
        "DateChangeDoc",
        "EntryDoc",
        "EraDoc",
        "FormatDoc",
        "FormatsDocument",
        "FreshnessDoc",
        "InstalledDataDoc",
        "ListChangeDoc",
        "NamesDoc",
        "NewCardDoc",
        "ReleaseDoc",
        "SizeRuleDoc",
        "StatusChangeDoc",
        "UpcomingDoc",
        "banlist_named",
        "format_on",
        "found_card",
    ),
    "validation": (
        "BanlistRefDoc",
        "CardChangeDoc",
        "CountsDoc",
        "DataDoc",
        "DeckForecastDoc",
        "NextListDoc",
        "PointCardDoc",
        "PointsDoc",
        "RegistrationDoc",
        "ResultDoc",
        "SkippedDoc",
        "SummaryDoc",
        "UnreadableDoc",
        "UpcomingDocument",
        "UpcomingSummaryDoc",
        "ValidationDocument",
        "ViolationDoc",
    ),
}
"""The names this package exports, by the module that defines them: each module is imported
on the first use of one of its names (a command that prints one document does not build the
seventy pydantic models of the others). The TYPE_CHECKING imports above list the same names
for type checkers; a test keeps the two equal."""
_HOME = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = [  # (a star import takes every export: the lazy ones through __getattr__)
    "DOCUMENTS",
    "DOCUMENT_NAMES",
    "Merged",
    "document",
    "document_model",
    "dump",
    "schema",
    "shape",
    *_HOME,
]

_DOCUMENTS: dict[str, tuple[str, str]] = {
    "validation": ("deckcheck.reporter.document.validation", "ValidationDocument"),
    "upcoming": ("deckcheck.reporter.document.validation", "UpcomingDocument"),
    "goldfish": ("deckcheck.reporter.document.goldfish", "GoldfishDocument"),
    "goldfish-sweep": ("deckcheck.reporter.document.goldfish", "SweepDocument"),
    "goldfish-compare": ("deckcheck.reporter.document.goldfish", "CompareDocument"),
    "goldfish-side": ("deckcheck.reporter.document.goldfish", "SideGoldfishDocument"),
    "formats": ("deckcheck.reporter.document.reference", "FormatsDocument"),
    "format": ("deckcheck.reporter.document.reference", "FormatDoc"),
    "banlist": ("deckcheck.reporter.document.reference", "BanlistDocument"),
    "banlist-diff": ("deckcheck.reporter.document.reference", "BanlistDiffDocument"),
    "card": ("deckcheck.reporter.document.reference", "CardDocument"),
    "card-search": ("deckcheck.reporter.document.reference", "CardSearchDocument"),
    "config": ("deckcheck.run.configfile", "ConfigModel"),
    "data-status": ("deckcheck.reporter.document.reference", "DataStatusDocument"),
    "meta": ("deckcheck.reporter.document.meta", "MetaDocument"),
}
"""Every JSON document by the name ``deckcheck schema NAME`` takes, as the module and class of
its model (``config``: the repository configuration file, ``deckcheck.toml``, read as TOML)."""

DOCUMENT_NAMES: tuple[str, ...] = tuple(_DOCUMENTS)
"""The names ``deckcheck schema NAME`` takes, in the order it lists them."""


def document_model(name: str) -> type[BaseModel]:
    """The model of the document ``name`` (one of :data:`DOCUMENT_NAMES`; KeyError for
    another), its module imported if it was not."""
    module, attr = _DOCUMENTS[name]
    model: type[BaseModel] = getattr(importlib.import_module(module), attr)
    return model


def __getattr__(name: str) -> Any:
    """An exported name, from its module (imported on first use); ``DOCUMENTS``: every
    document's model by name (all the modules imported)."""
    if name == "DOCUMENTS":
        return {n: document_model(n) for n in _DOCUMENTS}
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # (found directly from now on)
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME, "DOCUMENTS"})


def dump(model: BaseModel) -> str:
    """A document as indented UTF-8 JSON (fields left unset are left out)."""
    return model.model_dump_json(indent=2, by_alias=True, exclude_unset=True) + "\n"


def schema(name: str | None = None) -> dict[str, Any]:
    """The JSON Schema of one document (by name) or of all (``{"name": schema}``)."""
    if name is not None:
        return document_model(name).model_json_schema(by_alias=True)
    return {n: document_model(n).model_json_schema(by_alias=True) for n in _DOCUMENTS}
