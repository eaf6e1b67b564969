"""The model of a repository configuration file (``deckcheck.toml`` or ``[tool.deckcheck]``).

Kept apart from :mod:`deckcheck.run.config` so that pydantic is imported only when a configuration
is actually read (a plain ``deckcheck validate`` stays fast). ``deckcheck schema config`` prints
this model's JSON Schema.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from deckcheck.run.globs import glob_regex


class ConfigModel(BaseModel):
    """The settings of ``deckcheck.toml`` (or ``[tool.deckcheck]`` in ``pyproject.toml``)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    format: str | None = Field(
        None,
        description="Default format: an id or alias (tcg, goat, ...) or the path of an "
        "organiser's format file (.toml), relative to the configuration's folder. "
        "Default: tcg.",
    )
    date: dt.date | str | None = Field(
        None,
        description="Event date: a TOML date (2025-06-01), a string 'YYYY-MM-DD', or 'today' "
        "(the default).",
    )
    region: Literal["na", "eu"] | None = Field(
        None,
        description="na or eu: whose effective dates pick a TCG list where North America and "
        "Europe differ (as --region; default: the format's, else na).",
    )
    include: list[str] = Field(
        default_factory=list,
        description="Globs of files to check, relative to the configuration's folder "
        "(default: every deck file).",
    )
    exclude: list[str] = Field(default_factory=list, description="Globs of files to leave out.")
    strict: bool = Field(False, description="Warnings fail the check too (exit 1).")
    allow_prerelease: bool = Field(False, description="Pre-release codes are warnings, not errors.")
    folders: dict[str, str] = Field(
        default_factory=dict,
        description="A format per folder: glob -> format id, alias or format file. The first "
        "matching glob (in file order) wins.",
    )
    ignore: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Violation codes to ignore per path: glob -> codes. Every matching glob "
        "applies.",
    )

    @field_validator("date")
    @classmethod
    def _date(cls, value: dt.date | str | None) -> str | None:
        if isinstance(value, dt.datetime):
            raise ValueError("give a date (YYYY-MM-DD), not a date and time")
        if isinstance(value, dt.date):
            return value.isoformat()
        if value is None or value.strip().lower() == "today":
            return value
        from deckcheck.run.vocab import parse_date

        parse_date(value)  # the one date rule (an InputError is a ValueError)
        return value.strip()

    @field_validator("include", "exclude")
    @classmethod
    def _globs(cls, value: list[str]) -> list[str]:
        for pat in value:
            glob_regex(pat)
        return value

    @field_validator("folders")
    @classmethod
    def _folder_globs(cls, value: dict[str, str]) -> dict[str, str]:
        for pat, fmt in value.items():
            glob_regex(pat)
            if not fmt.strip():
                raise ValueError(f"the format of {pat!r} is empty")
        return value

    @field_validator("ignore")
    @classmethod
    def _codes(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        from deckcheck.validation.report import Code

        valid = {c.value for c in Code}
        for pat, codes in value.items():
            glob_regex(pat)
            for code in codes:
                if code not in valid:
                    raise ValueError(
                        f"unknown code {code!r} (for {pat!r}); valid codes: "
                        + ", ".join(sorted(valid))
                    )
        return value
