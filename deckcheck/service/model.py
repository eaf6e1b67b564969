"""Request bodies of the HTTP API, and the documents only the service answers with.

Responses reuse the JSON documents of :mod:`deckcheck.reporter.document` (the CLI's JSON), so the
OpenAPI document, ``deckcheck schema`` and ``--output json`` share one definition. Request
models forbid unknown fields: a misspelt field is a 422, never silently ignored.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from deckcheck.deck.model import FindingCode
from deckcheck.reporter.document import CountsDoc

DeckFormatName = Literal["ydk", "ydke", "text", "omega", "json"]
Timeline = Literal["tcg", "ocg"]
TcgRegion = Literal["na", "eu"]
Region = Timeline
"""The old name of :data:`Timeline` (kept for one release)."""

_DECK = (
    "The deck: .ydk text, a ydke:// URL, a text list (English, Japanese or Simplified Chinese "
    "names), an Omega code, or deckcheck's JSON deck form (as a string or an object)."
)
_FORMAT = "Game format or era id/alias (default: the timeline's format, else tcg); see /v1/formats."
_FORMAT_FILE = (
    "An organiser's format instead of `format`: a format-file table (docs/formats.md) as an "
    "object, or the TOML text of a format file. `banlist` paths are not allowed here."
)
_DATE = "Event date YYYY-MM-DD or 'today' (default: today)."
_TIMELINE = (
    "tcg or ocg: the card-release timeline. Without `format`, picks that timeline's format; "
    "with one whose era goes by date, the timeline whose era dates apply."
)
_TCG_REGION = (
    "na or eu: the TCG event region, whose dates pick a TCG list where North America and "
    "Europe differ (e.g. April 2024: na 2024-04-15, eu 2024-04-22). Default: the format's, na."
)
_OLD_REGION = "Deprecated (one release): tcg/ocg here is `timeline`; na/eu is `tcg_region`."


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class _DeckRequest(_Request):
    deck: str | dict[str, Any] = Field(description=_DECK)
    deck_format: DeckFormatName | None = Field(
        None, alias="from", description="The deck's file format (default: detected)."
    )


class _RulesRequest(_DeckRequest):
    format: str | None = Field(None, description=_FORMAT, max_length=200)
    format_file: dict[str, Any] | str | None = Field(None, description=_FORMAT_FILE)
    date: str | None = Field(None, description=_DATE, max_length=40)
    timeline: Timeline | None = Field(None, description=_TIMELINE)
    tcg_region: TcgRegion | None = Field(None, description=_TCG_REGION)
    region: Literal["tcg", "ocg", "na", "eu"] | None = Field(
        None, description=_OLD_REGION, json_schema_extra={"deprecated": True}
    )


def rules_of(req: Any) -> tuple[str | None, str | None]:
    """A request's (timeline, tcg_region), the deprecated ``region`` read as whichever it
    names (tcg/ocg: the timeline, na/eu: the TCG region)."""
    timeline, tcg_region, old = req.timeline, req.tcg_region, req.region
    if old in ("tcg", "ocg") and timeline is None:
        timeline = old
    elif old in ("na", "eu") and tcg_region is None:
        tcg_region = old
    return timeline, tcg_region


class ValidateRequest(_RulesRequest):
    """``POST /v1/validate``: one deck, the format (or an inline one), the date and region."""

    allow_prerelease: bool = Field(False, description="Pre-release codes are warnings.")
    name: str | None = Field(
        None, description="How the result names the deck (its `path`).", max_length=500
    )
    lang: Literal["en", "ja", "zh"] = Field(
        "en", description="ja or zh: each violation gains `name_local` and `message_local`."
    )


class QuickDeck(_Request):
    """Quick mode: a deck size and disjoint category counts instead of a deck (the rest of the
    deck is "other"), with conditions over those categories."""

    size: int = Field(ge=1, le=200, description="Cards in the Main Deck.")
    counts: dict[str, int] = Field(
        description='Cards of each category, e.g. {"starter": 9, "brick": 6}.', max_length=60
    )
    when: list[str] | dict[str, str] | None = Field(
        None,
        description="Conditions (texts, or name -> text); default: at least 1 of each category.",
        max_length=100,
    )


class SimulateRequest(_RulesRequest):
    """``POST /v1/simulate``: goldfish odds of a deck's Main Deck, or of a quick-mode deck."""

    deck: str | dict[str, Any] | None = Field(  # type: ignore[assignment]
        None, description=_DECK + " Give `deck` or `quick`."
    )
    quick: QuickDeck | None = Field(
        None, description="Quick mode instead of a deck: size, category counts, conditions."
    )
    distributions: bool = Field(
        False, description="Also P(exactly k) of every category by turn (`distributions`)."
    )
    spec: dict[str, Any] | str | None = Field(
        None,
        description="A goldfish spec (docs/goldfish.md): categories, conditions, effects, as an "
        "object or TOML text. Default: P(at least 1) of every card.",
    )
    going: Literal["first", "second", "both"] = "both"
    turns: int = Field(1, ge=1, le=20, description="Report by each of the first N turns.")
    trials: int = Field(
        100_000, ge=1, description="Simulated games per going (capped by the service)."
    )
    seed: int | None = Field(None, ge=0, le=2**63 - 1, description="Seed of the simulation.")
    exact: Literal["auto", "always", "never"] = "auto"
    fractions: bool = Field(False, description="Exact probabilities also as 'n/d'.")
    sample: int = Field(
        0, ge=0, le=100, description="Seeded sample hands to deal (`samples`; `seed` repeats them)."
    )


class SweepRequest(SimulateRequest):
    """``POST /v1/simulate/sweep``: a ratio sweep of a deck (and spec) or a quick-mode deck."""

    vary: list[str] | dict[str, list[int]] | None = Field(
        None,
        description='What to vary: ["starter=6..10", "Ash Blossom & Joyous Spring=1..3"] or '
        '{"starter": [6, 7, 8]}: cards of the deck or categories (whose cards are alike). '
        "Default: the spec's [vary] table (with a deck).",
        max_length=8,
    )
    filler: str | None = Field(
        None,
        description="The card or category adjusted to hold the deck size (default: other, the "
        "cards of no category).",
        max_length=200,
    )
    by: str | None = Field(
        None, description="The condition to rank by (default: the first).", max_length=200
    )


class ConvertRequest(_DeckRequest):
    """``POST /v1/convert``: a deck in another file format."""

    to: DeckFormatName = Field("ydk", description="Output deck file format.")
    rush: bool = Field(False, description="Prefer Rush Duel cards for names in text lists.")


class BatchDeck(_Request):
    """One deck of a JSON batch."""

    name: str = Field(description="How the results name this deck.", max_length=500)
    deck: str | dict[str, Any] = Field(description=_DECK)


class BatchRequest(_Request):
    """``POST /v1/batch`` (JSON form): many decks against one format and date."""

    decks: list[BatchDeck]
    format: str | None = Field(None, description=_FORMAT, max_length=200)
    format_file: dict[str, Any] | str | None = Field(None, description=_FORMAT_FILE)
    date: str | None = Field(None, description=_DATE, max_length=40)
    timeline: Timeline | None = Field(None, description=_TIMELINE)
    tcg_region: TcgRegion | None = Field(None, description=_TCG_REGION)
    region: Literal["tcg", "ocg", "na", "eu"] | None = Field(
        None, description=_OLD_REGION, json_schema_extra={"deprecated": True}
    )
    allow_prerelease: bool = False


class FindingDoc(BaseModel):
    """A line the reader could not turn into a card."""

    model_config = ConfigDict(extra="forbid")

    code: FindingCode = Field(description="What the reader found (every reader finding code).")
    message: str
    line: int | None
    text: str | None
    section: Literal["main", "extra", "side"] | None
    suggestions: list[str]


class ConvertDocument(BaseModel):
    """``POST /v1/convert``: the deck written in the asked format, and what could not be read."""

    model_config = ConfigDict(extra="forbid")

    to: DeckFormatName
    content: str = Field(description="The deck in the `to` format.")
    counts: CountsDoc
    findings: list[FindingDoc] = Field(
        description="Unknown or ambiguous names and unreadable lines (unknown passcodes are "
        "kept; names that match no card cannot be)."
    )
    left_out: list[int | None] = Field(
        default_factory=list,
        description="Lines of the findings that `content` does not hold (every line naming no "
        "card in ydk, ydke and omega; lines that are not cards in text and json).",
    )


class DataInfoDoc(BaseModel):
    """The dataset a service process answers from."""

    model_config = ConfigDict(extra="forbid")

    as_of: str
    fingerprint: str


class ReloadDoc(BaseModel):
    """The last data reload of the process that answered (SIGHUP)."""

    model_config = ConfigDict(extra="forbid")

    status: Literal["none", "ok", "failed"] = Field(
        description="`none`: never reloaded; `failed`: the old data is still served."
    )
    at: str | None = Field(description="When (UTC, ISO 8601).")
    error: str | None = Field(description="Why it failed.")


class WorkersDoc(BaseModel):
    """The workers of the server and whether they all serve the same data."""

    model_config = ConfigDict(extra="forbid")

    count: int = Field(description="Live workers that recorded their data.")
    consistent: bool = Field(description="False when the workers serve different data.")
    fingerprints: list[str] = Field(description="Every fingerprint served (one when consistent).")


class HealthDocument(BaseModel):
    """``GET /healthz``."""

    model_config = ConfigDict(extra="forbid")

    status: Literal["ok"]
    version: str
    data: DataInfoDoc
    reload: ReloadDoc
    workers: WorkersDoc


class ErrorBody(BaseModel):
    """What went wrong: a stable code, a message, and details that depend on the code."""

    model_config = ConfigDict(extra="forbid")

    code: str = Field(description="Stable kebab-case error code (README 'Service errors').")
    message: str
    detail: Any = None


class ErrorDocument(BaseModel):
    """Every 4xx/5xx answer of the service."""

    model_config = ConfigDict(extra="forbid")

    error: ErrorBody
