"""``deckcheck event ...``: an organiser's event on one machine, over the same library as the
HTTP routes (:class:`deckcheck.event.desk.Desk`) and the same database (``--database``, else
``DECKCHECK_DATABASE_URL``, else SQLite in the data home).

The commands act as the organiser (the database is theirs); the player's edit tokens and the
deadline still hold: ``event submit`` after the deadline or the lock is refused (exit 2).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from deckcheck.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    Output,
    clean,
    fail,
    print_json,
    text_only,
)
from deckcheck.cli.options import OutputOpt, RegionOpt

if TYPE_CHECKING:
    from deckcheck.event.desk import Created, Desk

T = TypeVar("T")

app = typer.Typer(
    name="event",
    help="Run an event: take decklists until a deadline, lock, check at the table, publish.",
    no_args_is_help=True,
)

DatabaseOpt = Annotated[
    str | None,
    typer.Option(
        "--database",
        metavar="URL",
        help="postgresql://... or sqlite:///PATH (default: DECKCHECK_DATABASE_URL, else "
        "events.sqlite3 in the data home).",
        show_default=False,
    ),
]
EventArg = Annotated[str, typer.Argument(metavar="ID", help="The event's id.", show_default=False)]


def _desk(database: str | None) -> Desk:
    from deckcheck.event.desk import Desk
    from deckcheck.event.store import open_store

    return _safely(lambda: Desk(open_store(database)))


def _safely(fn: Callable[[], T]) -> T:
    """``fn()``; a deckcheck error is one ``error:`` line and exit 2."""
    from deckcheck.error import DeckcheckError

    try:
        return fn()
    except DeckcheckError as exc:
        fail(str(exc))


def _read_deck(path: str) -> str:
    """A deck argument: a ``ydke://`` URL as it is, ``-`` for stdin, else a file (capped)."""
    from deckcheck.boundary import read_capped
    from deckcheck.deck.io import MAX_INPUT_BYTES
    from deckcheck.source.record import is_url

    if is_url(path):
        return path
    try:
        raw = (
            sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
            if path == "-"
            else read_capped(Path(path), MAX_INPUT_BYTES)
        )
    except OSError as exc:
        fail(f"{path}: cannot read: {exc.strerror or exc}")
    if len(raw) > MAX_INPUT_BYTES:
        fail(f"{path}: over the {MAX_INPUT_BYTES} byte limit of a deck")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        fail(f"{path}: not UTF-8 text")


NameOpt = Annotated[str, typer.Option("--name", help="The event's name.", show_default=False)]
EventFormatOpt = Annotated[
    str, typer.Option("--format", "-f", help="Format id or alias.", show_default=False)
]
EventDateOpt = Annotated[
    str,
    typer.Option(
        "--date", "-d", help="The event's date (YYYY-MM-DD or today).", show_default=False
    ),
]
DeadlineOpt = Annotated[
    str,
    typer.Option(
        "--deadline",
        help="When submissions close: ISO 8601 with a time zone (2026-06-01T09:00:00+02:00).",
        show_default=False,
    ),
]
UrlOpt = Annotated[
    str | None,
    typer.Option("--url", metavar="BASE", help="The service's public URL, for the links."),
]


@app.command("create")
def create(
    name: NameOpt,
    format: EventFormatOpt,
    on: EventDateOpt,
    deadline: DeadlineOpt,
    region: RegionOpt = None,
    url: UrlOpt = None,
    database: DatabaseOpt = None,
    output: OutputOpt = Output.TEXT,
) -> None:
    """Create an event; prints its id, the organiser and judge tokens (shown once: keep them)
    and, with --url, the public submission link and the dashboard."""
    import datetime as dt

    from deckcheck.event.desk import parse_day, parse_deadline
    from deckcheck.event.token import Role
    from deckcheck.reporter.document import EventDoc, event_at, shape

    text_only(output)
    desk = _desk(database)
    day = dt.date.today() if on.strip().lower() == "today" else _safely(lambda: parse_day(on))
    made = _safely(
        lambda: desk.create(
            name,
            format,
            day,
            parse_deadline(deadline),
            region.value if region else None,
            actor=Role.CLI,
        )
    )
    ev = made.event
    doc: dict[str, Any] = {
        "id": ev.id,
        "organiser_token": made.organiser_token,
        "judge_token": made.judge_token,
        "event": shape(EventDoc, event_at(ev, desk.clock())),
    }
    if url:
        base = url.rstrip("/")
        doc["submission_url"] = f"{base}/?event={ev.id}"
        doc["dashboard_url"] = f"{base}/events/{ev.id}/dashboard"
    if output is Output.JSON:
        print_json(doc)
    else:
        _say_created(made, doc)


def _say_created(made: Created, doc: dict[str, Any]) -> None:
    """The new event, its tokens and (with ``--url``) its links, as text."""
    ev = made.event
    lines = [
        f"event {ev.id}: {ev.name} ({ev.format}, {ev.date.isoformat()}), submissions "
        f"close {ev.deadline.isoformat()}",
        f"organiser token: {made.organiser_token}",
        f"judge token:     {made.judge_token}",
    ]
    if "submission_url" in doc:
        lines += [
            f"submission link: {doc['submission_url']}",
            f"dashboard:       {doc['dashboard_url']}",
        ]
    sys.stdout.write("".join(clean(x) + "\n" for x in lines))


@app.command("list")
def list_events(database: DatabaseOpt = None, output: OutputOpt = Output.TEXT) -> None:
    """List the events in the database, newest first."""
    text_only(output)
    desk = _desk(database)
    events = _safely(desk.events)
    now = desk.clock()
    if output is Output.JSON:
        from deckcheck.reporter.document import EventDoc, event_at, shape

        print_json({"events": [shape(EventDoc, event_at(e, now)) for e in events]})
        return
    for e in events:
        sys.stdout.write(
            clean(f"{e.id}  {e.phase(now).value:9} {e.date.isoformat()}  {e.format}  {e.name}")
            + "\n"
        )


@app.command("show")
def show(event_id: EventArg, database: DatabaseOpt = None, output: OutputOpt = Output.TEXT) -> None:
    """Show an event and its registrations (verdict, fingerprint, edits)."""
    text_only(output)
    desk = _desk(database)
    ev = _safely(lambda: desk.event(event_id))
    entries = _safely(lambda: desk.registrations(event_id))
    now = desk.clock()
    if output is Output.JSON:
        from deckcheck.reporter.document import (
            WITHOUT_DECK,
            EventDoc,
            EventEntryDoc,
            event_at,
            shape,
        )

        regs = [shape(EventEntryDoc, e, WITHOUT_DECK) for e in entries]
        print_json({"event": shape(EventDoc, event_at(ev, now)), "registrations": regs})
        return
    legal = sum(e.legal for e in entries)
    lines = [
        f"event {ev.id}: {ev.name} ({ev.format}, {ev.date.isoformat()}) {ev.phase(now).value}",
        f"deadline {ev.deadline.isoformat()}; {len(entries)} registrations: {legal} legal, "
        f"{len(entries) - legal} illegal",
    ]
    lines += [
        f"  {e.player_id:14} {'legal  ' if e.legal else 'ILLEGAL'} {e.fingerprint}  "
        f"v{e.version}  {e.player}"
        for e in entries
    ]
    sys.stdout.write("".join(clean(x) + "\n" for x in lines))


@app.command("submit")
def submit(
    event_id: EventArg,
    deck: Annotated[str, typer.Argument(metavar="DECK", help="Deck file, '-' or a ydke:// URL.")],
    player: Annotated[str, typer.Option("--player", help="Player name.", show_default=False)],
    player_id: Annotated[str, typer.Option("--player-id", help="Player ID.", show_default=False)],
    database: DatabaseOpt = None,
    output: OutputOpt = Output.TEXT,
) -> None:
    """Register a player's deck (a paper list typed in, say): prints the verdict and the
    edit token. Exit 0 legal, 1 illegal (stored all the same), 2 refused."""
    from deckcheck.event.token import Role

    text_only(output)
    desk = _desk(database)
    text = _read_deck(deck)
    got = _safely(lambda: desk.submit(event_id, player, player_id, text, actor=Role.CLI))
    e = got.entry
    if output is Output.JSON:
        from deckcheck.reporter.document import WITHOUT_DECK, EventEntryDoc, shape

        print_json({**shape(EventEntryDoc, e, WITHOUT_DECK), "edit_token": got.edit_token})
    else:
        verdict = "legal" if e.legal else "ILLEGAL (stored with its findings)"
        sys.stdout.write(
            clean(
                f"registered {e.player_id} ({e.player}) as {e.id}: {verdict}, "
                f"fingerprint {e.fingerprint}"
            )
            + "\n"
        )
        sys.stdout.write(f"edit token: {got.edit_token}\n")
    raise typer.Exit(EXIT_OK if e.legal else EXIT_ILLEGAL)


@app.command("lock")
def lock(event_id: EventArg, database: DatabaseOpt = None) -> None:
    """Close submissions now: every write after it is refused and the decks never change."""
    from deckcheck.event.token import Role

    desk = _desk(database)
    ev = _safely(lambda: desk.lock(event_id, Role.CLI))
    assert ev.locked_at is not None
    sys.stdout.write(f"event {ev.id} locked at {ev.locked_at.isoformat()}\n")


@app.command("publish")
def publish(event_id: EventArg, database: DatabaseOpt = None) -> None:
    """Make the decklists public (GET /v1/events/ID/decklists); locks the event first."""
    from deckcheck.event.token import Role

    desk = _desk(database)
    ev = _safely(lambda: desk.publish(event_id, Role.CLI))
    assert ev.published_at is not None
    sys.stdout.write(f"event {ev.id} published at {ev.published_at.isoformat()}\n")


@app.command("report")
def report(
    event_id: EventArg,
    out: Annotated[
        Path,
        typer.Option("--out", metavar="DIR", help="Folder for the reports.", show_default=False),
    ],
    sheets: Annotated[
        bool, typer.Option("--sheets", help="Also write sheets.pdf (needs the sheet extra).")
    ] = False,
    database: DatabaseOpt = None,
) -> None:
    """Write the stored decks' batch reports into DIR (report.csv, report.json, report.html,
    junit.xml, as 'deckcheck batch' writes them; --sheets: sheets.pdf). Exit as batch."""
    from deckcheck.cli.batch import write_reports
    from deckcheck.event.report import event_batch, metagame

    desk = _desk(database)
    ev = _safely(lambda: desk.event(event_id))
    entries = _safely(lambda: desk.registrations(event_id))
    batch = _safely(lambda: event_batch(ev, entries))
    try:
        written = write_reports(batch, out, lambda: metagame(batch))
    except OSError as exc:
        fail(f"cannot write the reports into {out}: {exc.strerror or exc}")
    if sheets:
        from deckcheck.cli.sheet import write_bytes
        from deckcheck.event.report import sheets as make_sheets

        if not entries:
            fail("no registrations: no sheets written")
        pdf = _safely(lambda: make_sheets(ev, entries))
        try:
            write_bytes(out / "sheets.pdf", pdf)
        except OSError as exc:
            fail(f"cannot write {out / 'sheets.pdf'}: {exc.strerror or exc}")
        written.append("sheets.pdf")
    s = batch.summary
    sys.stdout.write(
        f"{len(batch.rows)} registrations: {s.legal} legal, {s.illegal} illegal, "
        f"{s.unreadable} unreadable\nwrote {', '.join(written)} to "
        f"{clean(str(out))}\n"
    )
    raise typer.Exit(int(batch.exit_code))


@app.command("check")
def check(
    event_id: EventArg,
    played: Annotated[
        str,
        typer.Argument(
            metavar="PLAYED",
            help="The deck played: a file, '-', or the sheet's QR text (ydke://...).",
        ),
    ],
    player_id: Annotated[str, typer.Option("--player-id", help="Player ID.", show_default=False)],
    database: DatabaseOpt = None,
    output: OutputOpt = Output.TEXT,
) -> None:
    """Compare a played deck with the player's registration. Exit 0 same, 1 different."""
    from deckcheck.reporter.text import deck_diff_lines

    text_only(output)
    desk = _desk(database)
    text = _read_deck(played)
    got = _safely(lambda: desk.check(event_id, player_id, text))
    d = got.diff
    if output is Output.JSON:
        from deckcheck.reporter.document.deck import CheckDocument
        from deckcheck.reporter.document.shape import Merged, shape

        print_json(shape(CheckDocument, Merged(got, got.diff)))
    else:
        lines = [
            f"registered {d.registered_fingerprint}  {got.entry.player_id} ({got.entry.player})",
            f"played     {d.played_fingerprint}",
        ]
        if d.same:
            lines.append("SAME: the played deck is the registered one")
        else:
            lines.append("DIFFERENT (the played deck against the registered one):")
            lines += deck_diff_lines(d)
        sys.stdout.write("".join(clean(x) + "\n" for x in lines))
    raise typer.Exit(EXIT_OK if d.same else EXIT_ILLEGAL)


@app.command("audit")
def audit(
    event_id: EventArg, database: DatabaseOpt = None, output: OutputOpt = Output.TEXT
) -> None:
    """Print the event's audit log: every change, who, when, old and new fingerprint."""
    text_only(output)
    desk = _desk(database)
    log = _safely(lambda: desk.audit(event_id))
    if output is Output.JSON:
        from deckcheck.reporter.document import AuditDoc, shape

        print_json({"audit": [shape(AuditDoc, a) for a in log]})
        return
    for a in log:
        change = f"{a.old_fingerprint or '-'} -> {a.new_fingerprint or '-'}"
        sys.stdout.write(
            clean(
                f"{a.at.isoformat()}  {a.action.value:7} {a.actor:20} "
                f"{a.registration_id or '-':14} {change}"
            )
            + "\n"
        )


@app.command("export")
def export(
    event_id: EventArg,
    out: Annotated[
        Path,
        typer.Option("--out", metavar="FILE.zip", help="The zip to write.", show_default=False),
    ],
    database: DatabaseOpt = None,
) -> None:
    """Write the event as a zip: registrations.csv and decks/ ('deckcheck batch FILE.zip'
    reads it) and event.manifest ('deckcheck event import' restores it)."""
    from deckcheck.cli.sheet import write_bytes
    from deckcheck.event.archive import export_event

    desk = _desk(database)
    raw = _safely(lambda: export_event(desk, event_id))
    try:
        write_bytes(out, raw)
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")
    sys.stdout.write(clean(f"wrote {out} ({len(raw)} bytes)") + "\n")


@app.command("import")
def import_(
    archive: Annotated[Path, typer.Argument(metavar="FILE.zip", help="An event export.")],
    database: DatabaseOpt = None,
) -> None:
    """Restore an exported event (ids, tokens, verdicts, audit log) into the database;
    refused if the event is there already."""
    from deckcheck.boundary import read_capped
    from deckcheck.event.archive import MAX_ARCHIVE_BYTES, import_event

    desk = _desk(database)
    try:
        raw = read_capped(archive, MAX_ARCHIVE_BYTES)
    except OSError as exc:
        fail(f"{archive}: cannot read: {exc.strerror or exc}")
    ev = _safely(lambda: import_event(desk, raw))
    n = len(_safely(lambda: desk.registrations(ev.id)))
    sys.stdout.write(clean(f"imported event {ev.id} ({ev.name}): {n} registrations") + "\n")


def register(main: typer.Typer) -> None:
    """Add the ``event`` group to the main app."""
    main.add_typer(app, name="event")
