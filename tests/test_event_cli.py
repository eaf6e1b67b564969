"""``deckcheck event ...``: an organiser's event on one machine, on SQLite and PostgreSQL; its
export read by ``deckcheck batch`` and restored by ``event import``."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.event_support import BACKENDS, ILLEGAL, LEGAL, fresh_database


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from fresh_database(request.param, tmp_path)


def _json(result: Any) -> Any:
    assert result.code in (0, 1), result.stderr
    return json.loads(result.stdout)


@dataclass(frozen=True)
class Events:
    """``deckcheck event ...`` on one database (``--database`` goes last, as a user types it)."""

    cli: Callable[..., Any]
    database: str

    def run(self, *args: str) -> Any:
        """``deckcheck event ARGS... --database DB``."""
        return self.cli("event", *args, "--database", self.database)

    def create(self, *more: str, name: str = "E", deadline: str = "2099-01-01T00:00:00Z") -> Any:
        """A tcg event on 2025-06-01 (``more``: further options, such as ``-o json``)."""
        return self.run(
            "create",
            "--name",
            name,
            "--format",
            "tcg",
            "--date",
            "2025-06-01",
            "--deadline",
            deadline,
            *more,
        )

    def submit(self, ev: str, deck: Path, player: str, player_id: str, *more: str) -> Any:
        """A player's registration of the deck file ``deck``."""
        return self.run(
            "submit", ev, str(deck), "--player", player, "--player-id", player_id, *more
        )


@pytest.fixture
def events(cli: Callable[..., Any], database: str) -> Events:
    """The event commands on each backend's fresh database."""
    return Events(cli, database)


@pytest.fixture
def sqlite_events(cli: Callable[..., Any], tmp_path: Path) -> Events:
    """The event commands on a fresh SQLite file."""
    return Events(cli, f"sqlite:///{tmp_path / 'e.sqlite3'}")


def test_an_organisers_event_from_create_to_import(
    cli: Callable[..., Any], events: Events, tmp_path: Path
) -> None:
    db = ("--database", events.database)
    (tmp_path / "ada.ydk").write_text(LEGAL, encoding="utf-8")
    (tmp_path / "bob.ydk").write_text(ILLEGAL, encoding="utf-8")
    made = _json(
        events.create(
            "--url",
            "https://decks.example",
            "-o",
            "json",
            name="Store Championship",
            deadline="2099-01-01T10:00:00+02:00",
        )
    )
    ev = made["id"]
    assert made["submission_url"] == f"https://decks.example/?event={ev}"
    assert made["organiser_token"].startswith("dco_") and made["judge_token"].startswith("dcj_")

    ada = events.submit(ev, tmp_path / "ada.ydk", "Ada", "0301")
    assert ada.code == 0 and "legal" in ada.stdout and "edit token: dcp_" in ada.stdout
    bob = events.submit(ev, tmp_path / "bob.ydk", "Bob", "0302", "-o", "json")
    assert bob.code == 1 and json.loads(bob.stdout)["legal"] is False  # stored all the same
    again = events.submit(ev, tmp_path / "ada.ydk", "Ada", "0301")
    assert again.code == 2 and "already registered" in again.stderr

    shown = _json(cli("event", "show", ev, "-o", "json", *db))
    assert [(r["player_id"], r["legal"]) for r in shown["registrations"]] == [
        ("0301", True),
        ("0302", False),
    ]

    same = cli("event", "check", ev, "--player-id", "0301", str(tmp_path / "ada.ydk"), *db)
    assert same.code == 0 and "SAME" in same.stdout
    other = cli("event", "check", ev, "--player-id", "0301", str(tmp_path / "bob.ydk"), *db)
    assert other.code == 1 and "Pot of Greed" in other.stdout

    assert cli("event", "lock", ev, *db).code == 0
    late = events.submit(ev, tmp_path / "ada.ydk", "Cy", "0303")
    assert late.code == 2 and "no more changes" in late.stderr

    reports = cli("event", "report", ev, "--out", str(tmp_path / "reports"), "--sheets", *db)
    assert reports.code == 1, reports.stderr  # one illegal deck, as batch would say
    assert {p.name for p in (tmp_path / "reports").iterdir()} >= {
        "report.csv",
        "report.json",
        "report.html",
        "junit.xml",
        "sheets.pdf",
    }

    # the export is a zip that deckcheck batch reads, as registrations
    zipped = tmp_path / "event.zip"
    assert cli("event", "export", ev, "--out", str(zipped), *db).code == 0
    batch = cli(
        "batch",
        str(zipped),
        "--format",
        "tcg",
        "--date",
        "2025-06-01",
        "--out",
        str(tmp_path / "batch"),
    )
    assert batch.code == 1, batch.stderr
    rows = list(csv.DictReader(io.StringIO((tmp_path / "batch" / "report.csv").read_text())))
    assert [(r["player_id"], r["player"], r["status"]) for r in rows] == [
        ("0301", "Ada", "legal"),
        ("0302", "Bob", "illegal"),
    ]
    assert [r["fingerprint"] for r in rows] == [r["fingerprint"] for r in shown["registrations"]]
    with zipfile.ZipFile(zipped) as zf:
        decks = sorted(n for n in zf.namelist() if n.startswith("decks/"))
        assert [zf.read(n).decode() for n in decks] == [LEGAL, ILLEGAL]  # exactly as submitted

    # import restores it whole into another database; not twice
    other_db = ("--database", f"sqlite:///{tmp_path / 'restored.sqlite3'}")
    restored = cli("event", "import", str(zipped), *other_db)
    assert restored.code == 0 and "2 registrations" in restored.stdout, restored.stderr
    back = _json(cli("event", "show", ev, "-o", "json", *other_db))
    assert back["event"] == shown["event"] | {
        "status": "locked",
        "locked_at": back["event"]["locked_at"],
    }
    assert [(r["id"], r["fingerprint"], r["version"]) for r in back["registrations"]] == [
        (r["id"], r["fingerprint"], r["version"]) for r in shown["registrations"]
    ]
    log = _json(cli("event", "audit", ev, "-o", "json", *other_db))["audit"]
    assert [a["action"] for a in log] == ["create", "submit", "submit", "lock", "import"]
    twice = cli("event", "import", str(zipped), *other_db)
    assert twice.code == 2 and "already" in twice.stderr


def test_an_export_whose_deck_was_changed_is_refused(
    cli: Callable[..., Any], sqlite_events: Events, tmp_path: Path
) -> None:
    db = ("--database", sqlite_events.database)
    (tmp_path / "ada.ydk").write_text(LEGAL, encoding="utf-8")
    made = _json(sqlite_events.create("-o", "json"))
    sqlite_events.submit(made["id"], tmp_path / "ada.ydk", "A", "1")
    good = tmp_path / "good.zip"
    cli("event", "export", made["id"], "--out", str(good), *db)
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(bad, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.startswith("decks/"):
                data = data.replace(b"#main\n", b"#main\n55144522\n")  # a Pot of Greed slipped in
            dst.writestr(info, data)
    elsewhere = ("--database", f"sqlite:///{tmp_path / 'other.sqlite3'}")
    got = cli("event", "import", str(bad), *elsewhere)
    assert got.code == 2 and "SHA-256" in got.stderr
    assert _json(cli("event", "list", "-o", "json", *elsewhere))["events"] == []
    not_an_export = tmp_path / "plain.zip"
    with zipfile.ZipFile(not_an_export, "w") as zf:
        zf.writestr("deck.ydk", LEGAL)
    got = cli("event", "import", str(not_an_export), *elsewhere)
    assert got.code == 2 and "not an event export" in got.stderr


def test_bad_arguments_are_one_error_line(cli: Callable[..., Any], sqlite_events: Events) -> None:
    db = ("--database", sqlite_events.database)
    got = sqlite_events.create(deadline="2099-01-01T00:00:00")
    assert got.code == 2 and "time zone" in got.stderr
    got = cli("event", "show", "nosuchevent", *db)
    assert got.code == 2 and "no event" in got.stderr
    got = cli("event", "list", "--database", "mysql://nope")
    assert got.code == 2 and "postgresql://" in got.stderr
