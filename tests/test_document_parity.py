"""One definition per output shape: every field of a record is a field of its document model
(or named by the model as read by a function, or never written), and every field of a model is
in the JSON the public API writes for a record that has them all."""

from __future__ import annotations

import dataclasses
import json
import shutil
import typing
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from deckcheck.card.model import Card
from deckcheck.card.release import Release
from deckcheck.data.diff import CardChange, DataDiff, DateChange, ListChange
from deckcheck.data.freshness import Freshness
from deckcheck.data.store import DataStatus
from deckcheck.deck.compare import DeckDiff
from deckcheck.event.model import AuditEntry, Entry, Event
from deckcheck.goldfish.compare import Comparison, Difference
from deckcheck.goldfish.result import (
    CardCount,
    CategoryStats,
    ConditionStats,
    DistributionStats,
    Estimate,
    HandStats,
    Mean,
)
from deckcheck.goldfish.rule import DrawRules
from deckcheck.goldfish.sample import SampleHand, Samples
from deckcheck.goldfish.side import SideStats
from deckcheck.goldfish.spec import Effect
from deckcheck.goldfish.sweep import SweepRow, SweepStats
from deckcheck.goldfish.vary import Vary
from deckcheck.reporter import document as doc
from deckcheck.reporter import render
from deckcheck.reporter.document.base import Src
from deckcheck.reporter.document.deck import DeckDiffDoc, SideResultDocument
from deckcheck.rule.banlist.model import Banlist
from deckcheck.rule.format.model import Era, Format, SizeRule
from deckcheck.run.batch import check
from deckcheck.run.forecast import DeckForecast
from deckcheck.run.meta import CardUsage, Metagame
from deckcheck.run.siding import SideResult
from deckcheck.service.model import ReloadDoc
from deckcheck.service.state import ReloadStatus
from deckcheck.source.registration import Registration
from deckcheck.validation.report import BanlistRef, PointCard, Report, Violation

DECKS = Path(__file__).resolve().parent / "data" / "decks"
ON = "2025-12-01"

PAIRS: list[tuple[type, type[BaseModel]]] = [
    (Report, doc.ResultDoc),
    (Violation, doc.ViolationDoc),
    (PointCard, doc.PointCardDoc),
    (BanlistRef, doc.BanlistRefDoc),
    (Registration, doc.RegistrationDoc),
    (DeckForecast, doc.DeckForecastDoc),
    (Metagame, doc.MetaDocument),
    (CardUsage, doc.CardUsageDoc),
    (DeckDiff, DeckDiffDoc),
    (SideResult, SideResultDocument),
    (HandStats, doc.GoldfishDocument),
    (Estimate, doc.EstimateDoc),
    (Mean, doc.MeanDoc),
    (CardCount, doc.CardCountDoc),
    (CategoryStats, doc.CategoryDoc),
    (ConditionStats, doc.ConditionDoc),
    (DistributionStats, doc.DistributionDoc),
    (Samples, doc.SamplesDoc),
    (SampleHand, doc.SampleHandDoc),
    (DrawRules, doc.DrawRulesDoc),
    (Effect, doc.EffectDoc),
    (SweepStats, doc.SweepDocument),
    (SweepRow, doc.SweepRowDoc),
    (Vary, doc.VaryDoc),
    (Comparison, doc.CompareDocument),
    (Difference, doc.DifferenceDoc),
    (SideStats, doc.SideGoldfishDocument),
    (Card, doc.CardDocument),
    (Release, doc.ReleaseDoc),
    (Format, doc.FormatDoc),
    (Era, doc.EraDoc),
    (SizeRule, doc.SizeRuleDoc),
    (Banlist, doc.BanlistDocument),
    (DataStatus, doc.DataStatusDocument),
    (Freshness, doc.FreshnessDoc),
    (DataDiff, doc.DataDiffDocument),
    (ListChange, doc.ListChangeDoc),
    (CardChange, doc.StatusChangeDoc),
    (DateChange, doc.DateChangeDoc),
    (Event, doc.EventDoc),
    (Entry, doc.EventEntryDoc),
    (AuditEntry, doc.AuditDoc),
    (ReloadStatus, ReloadDoc),
]


def _models(tp: Any) -> list[type[BaseModel]]:
    """The document models a field's type names (in lists, dicts, unions)."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [tp]
    return [m for arg in typing.get_args(tp) for m in _models(arg)]


def _read(model: type[BaseModel], seen: set[type[BaseModel]] | None = None) -> set[str]:
    """The record attributes a model reads: its fields' names, or the attribute their ``Src``
    names; with the same of the models a function of the record is shaped into."""
    seen = set() if seen is None else seen
    seen.add(model)
    names = set(getattr(model, "not_fields", frozenset()))
    for name, info in model.model_fields.items():
        marks = [m for m in info.metadata if isinstance(m, Src)]
        if not marks:
            names.add(name)
        elif isinstance(marks[0].get, str):
            names.add(marks[0].get)
        else:  # read by a function (of the field of its name, or of the record itself)
            names.add(name)
            for nested in _models(info.annotation):
                if nested not in seen:
                    names |= _read(nested, seen)
    return names


@pytest.mark.parametrize(("record", "model"), PAIRS, ids=lambda x: x.__name__)
def test_every_record_field_is_in_its_document_model(record: type, model: type) -> None:
    fields = (
        {f.name for f in dataclasses.fields(record)}
        if dataclasses.is_dataclass(record)
        else set(record.__struct_fields__)  # a msgspec Struct
    )
    missing = fields - _read(model)
    assert not missing, f"{record.__name__} fields no document field reads: {sorted(missing)}"


def _keys(model: type[BaseModel]) -> set[str]:
    return {info.alias or name for name, info in model.model_fields.items()}


def test_every_result_field_is_in_the_json_of_a_record_that_has_them_all(
    tmp_path: Path,
) -> None:
    """A Genesys deck (points) from a registrations CSV (registration, fingerprint) with a
    finding of every kind of field, in Japanese (the local name and message)."""
    shutil.copy(DECKS / "illegal" / "genesys-over-cap.ydk", tmp_path / "over.ydk")
    shutil.copy(DECKS / "illegal" / "typo.txt", tmp_path / "typo.txt")
    shutil.copy(DECKS / "illegal" / "genesys-link.ydk", tmp_path / "link.ydk")
    (tmp_path / "regs.csv").write_text(
        "player_id,player,deck,club\n1,Ada,over.ydk,North\n2,Grace,typo.txt,South\n3,Alan,link.ydk,\n",
        encoding="utf-8",
    )
    batch = check([str(tmp_path / "regs.csv")], "genesys", _date(ON))
    out = json.loads(render(batch, "json", lang="ja"))
    assert set(out) == _keys(doc.ValidationDocument) - {"meta"}  # (meta: batch's report.json)
    for result in out["results"]:
        assert set(result) == _keys(doc.ResultDoc)
        assert set(result["points"]) == _keys(doc.PointsDoc)
        assert set(result["registration"]) == _keys(doc.RegistrationDoc)
    violations = [v for r in out["results"] for v in r["violations"]]
    assert all(set(v) <= _keys(doc.ViolationDoc) for v in violations)
    every = {k for v in violations for k in v if v[k] is not None}
    assert every == _keys(doc.ViolationDoc), _keys(doc.ViolationDoc) - every
    # the one report alone: the same document, without the batch's own fields
    alone = json.loads(render(batch.reports[0], "json"))
    assert set(alone) == _keys(doc.ResultDoc) - {"fingerprint", "registration"}
    assert alone == {
        k: v for k, v in out["results"][0].items() if k not in ("fingerprint", "registration")
    } | {"violations": [_english(v) for v in out["results"][0]["violations"]]}


def _english(v: dict[str, Any]) -> dict[str, Any]:
    return {k: x for k, x in v.items() if k not in ("name_local", "message_local")}


def _date(text: str) -> Any:
    from datetime import date

    return date.fromisoformat(text)
