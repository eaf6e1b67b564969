"""Service settings: defaults, environment variables, and the README that documents them."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from deckcheck.error import InputError
from deckcheck.service import Settings
from deckcheck.service.config import env_name

from .conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_from_env_reads_every_setting_and_round_trips() -> None:
    env = {
        "DECKCHECK_MAX_CARDS": "90",
        "DECKCHECK_SIMULATION_SECONDS": "2.5",
        "DECKCHECK_CORS_ORIGINS": "https://a.example, https://b.example",
    }
    s = Settings.from_env(env)
    assert s.max_cards == 90 and s.simulation_seconds == 2.5
    assert s.cors_origins == ("https://a.example", "https://b.example")
    assert s.max_trials == Settings().max_trials
    assert Settings.from_env(s.to_env()) == s
    assert Settings.from_env({}) == Settings()


@pytest.mark.parametrize("value", ["many", "0", "-3", "1e9x"])
def test_bad_values_name_the_variable(value: str) -> None:
    with pytest.raises(InputError, match="DECKCHECK_MAX_TRIALS"):
        Settings.from_env({"DECKCHECK_MAX_TRIALS": value})


@pytest.mark.slow
def test_readme_documents_every_setting_route_and_error_code() -> None:
    for f in fields(Settings):
        assert env_name(f.name) in README, f.name
    from deckcheck.service import create_app

    app = create_app()
    for path in app.openapi()["paths"]:
        shown = re.sub(r"\{[a-z_]+\}", "{", path)
        assert shown.split("{")[0] in README, path
    from deckcheck.error import ERRORS

    codes = {cls.code for cls in ERRORS} | {
        "bad-request",
        "not-found",
        "method-not-allowed",
        "too-large",
        "internal-error",
    }
    table = set(re.findall(r"^\| `([a-z-]+)` \| \d{3}", README, re.MULTILINE))
    assert codes <= table, codes - table
