"""An event as a zip that ``deckcheck batch`` reads, and back.

The zip holds ``registrations.csv`` (``player_id, player, deck`` and the registration's id,
times, version, verdict and fingerprint), each deck exactly as submitted under ``decks/`` (named
by :func:`deckcheck.event.report.deck_file`), and ``event.manifest`` (JSON, not a deck file:
the event, every registration's stored facts and the SHA-256 of its deck, and the audit log),
from which :func:`import_event` restores the event whole: same ids, same tokens (their hashes),
same verdicts, the audit log with an ``import`` entry after it. The decks are read back through
the one zip reader (:func:`deckcheck.source.archive.read_archive`, its caps and refusals) and
checked against the manifest's hashes; a mismatch refuses the whole import.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import zipfile
from datetime import date
from typing import TYPE_CHECKING, Any

from deckcheck.boundary import parse_json
from deckcheck.error import ConflictError, EventInputError
from deckcheck.event.desk import Desk
from deckcheck.event.model import Action, Entry, Event, parse_moment
from deckcheck.event.report import CSV_NAME, deck_file
from deckcheck.event.store import StoredEntry, StoredEvent
from deckcheck.event.token import Role
from deckcheck.reporter.document import AuditDoc, EventDoc, event_at, shape

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset

MANIFEST = "event.manifest"
"""The export's description of the event (JSON; its name is no deck file's, so ``deckcheck
batch`` leaves it out)."""
KIND = "deckcheck-event"
"""``kind`` of a manifest."""
VERSION = 1
"""Version of the manifest's shape."""
MAX_MANIFEST_BYTES = 256 << 20
"""Largest manifest read back."""
MAX_ARCHIVE_BYTES = 1 << 30
"""Largest export read back."""
CSV_COLUMNS = (
    "player_id",
    "player",
    "deck",
    "registration_id",
    "submitted_legal",
    "submitted_fingerprint",
    "submitted_at",
    "updated_at",
    "version",
)
"""Columns of the export's ``registrations.csv``."""


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def export_event(desk: Desk, event_id: str) -> bytes:
    """The event as a zip (see the module's docstring)."""
    with desk.store.transaction(write=False) as tx:  # one consistent view
        stored = tx.event(event_id)
        if stored is None:
            from deckcheck.error import EventNotFoundError

            raise EventNotFoundError(f"no event {event_id!r}")
        entries = tx.entries(event_id)
        log = tx.audit(event_id)
    ev = stored.event
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    regs: list[dict[str, Any]] = []
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for n, s in enumerate(entries, start=1):
            name = deck_file(n, s.entry)
            writer.writerow(_csv_row(s.entry, name))
            zf.writestr(name, s.entry.deck.encode("utf-8", "surrogatepass"))
            regs.append(_manifest_entry(s, name))
        zf.writestr(CSV_NAME, buffer.getvalue().encode("utf-8"))
        manifest = {
            "kind": KIND,
            "version": VERSION,
            "event": {
                **shape(EventDoc, event_at(ev, desk.clock())),
                "created_at": ev.created_at.isoformat(),
                "organiser_hash": stored.organiser_hash,
                "judge_hash": stored.judge_hash,
            },
            "registrations": regs,
            "audit": [shape(AuditDoc, a) for a in log],
        }
        zf.writestr(MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1))
    return out.getvalue()


def _csv_row(e: Entry, name: str) -> list[object]:
    """A registration's row of ``registrations.csv`` (its deck in the file ``name``)."""
    return [
        _cell(e.player_id),
        _cell(e.player),
        name,
        e.id,
        "true" if e.legal else "false",
        e.fingerprint,
        e.created_at.isoformat(),
        e.updated_at.isoformat(),
        e.version,
    ]


def _manifest_entry(s: StoredEntry, name: str) -> dict[str, Any]:
    """A registration in the manifest: everything a restore needs, its deck's checksum."""
    e = s.entry
    return {
        "id": e.id,
        "player": e.player,
        "player_id": e.player_id,
        "deck_file": name,
        "deck_sha256": _sha(e.deck),
        "deck_format": e.deck_format,
        "fingerprint": e.fingerprint,
        "legal": e.legal,
        "verdict": e.verdict,
        "created_at": e.created_at.isoformat(),
        "updated_at": e.updated_at.isoformat(),
        "version": e.version,
        "edit_hash": s.edit_hash,
    }


def _cell(text: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula: text starting ``=``, ``+``, ``@``
    or ``-`` (not a number) gets a leading ``'`` (the manifest keeps the text as it is)."""
    if text[:1] in ("=", "+", "@", "\t", "\r") or (text[:1] == "-" and not text[1:2].isdigit()):
        return "'" + text
    return text


def import_event(desk: Desk, raw: bytes, *, data: Dataset | None = None) -> Event:
    """Restore an exported event into the desk's store; :class:`ConflictError` if an event
    with its id is there already, :class:`EventInputError` for a zip that is not a whole,
    intact export."""
    from deckcheck.source.archive import ArchiveError, read_archive

    if len(raw) > MAX_ARCHIVE_BYTES:
        raise EventInputError(f"the export is over {MAX_ARCHIVE_BYTES} bytes")
    manifest = _manifest(raw)
    try:
        found = read_archive(raw, label="the export", data=data)
    except ArchiveError as exc:
        raise EventInputError(str(exc)) from None
    decks: dict[str, str] = {}
    for src in found:
        reg = src.registration
        if reg is None or src.error is not None or src.content is None:
            raise EventInputError(f"{src.label}: {src.error or 'not a registered deck'}")
        raw_deck = src.content if isinstance(src.content, bytes) else src.content.encode()
        decks[reg.deck] = raw_deck.decode("utf-8", "surrogatepass")
    ev, stored_event = _event_of(manifest)
    entries = [_entry_of(r, ev.id, decks) for r in manifest["registrations"]]
    now = desk.clock()
    with desk.store.transaction(write=True) as tx:
        if tx.event(ev.id) is not None:
            raise ConflictError(f"event {ev.id!r} is already in {desk.store.url}")
        tx.insert_event(stored_event)
        for s in entries:
            tx.insert_entry(s)
        for a in manifest["audit"]:
            tx.log(
                ev.id,
                a["registration_id"],
                Action(a["action"]),
                str(a["actor"]),
                parse_moment(a["at"]),
                a["old_fingerprint"],
                a["new_fingerprint"],
            )
        tx.log(ev.id, None, Action.IMPORT, Role.CLI.value, now)
    return ev


def _manifest(raw: bytes) -> dict[str, Any]:
    from deckcheck.source.archive import entry_problem

    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            try:
                info = zf.getinfo(MANIFEST)
            except KeyError:
                raise EventInputError(f"not an event export: no {MANIFEST} in the zip") from None
            problem = entry_problem(info, MAX_MANIFEST_BYTES)
            if problem is not None:
                raise EventInputError(f"{MANIFEST}: {problem}")
            with zf.open(info) as handle:
                text = handle.read(MAX_MANIFEST_BYTES + 1)
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise EventInputError(f"not a readable zip: {exc}") from None
    if len(text) > MAX_MANIFEST_BYTES:
        raise EventInputError(f"{MANIFEST}: over {MAX_MANIFEST_BYTES} bytes")
    try:
        got = parse_json(text.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise EventInputError(f"{MANIFEST}: not JSON: {exc}") from None
    if not isinstance(got, dict) or got.get("kind") != KIND:
        raise EventInputError(f"{MANIFEST}: not a deckcheck event export")
    if got.get("version") != VERSION:
        raise EventInputError(
            f"{MANIFEST}: version {got.get('version')!r}; this deckcheck reads version {VERSION}"
        )
    return got


def _event_of(manifest: dict[str, Any]) -> tuple[Event, StoredEvent]:
    try:
        e = manifest["event"]
        ev = Event(
            id=str(e["id"]),
            name=str(e["name"]),
            format=str(e["format"]),
            date=date.fromisoformat(e["date"]),
            deadline=parse_moment(e["deadline"]),
            tcg_region=e.get("tcg_region"),
            created_at=parse_moment(e["created_at"]),
            locked_at=parse_moment(e["locked_at"]) if e.get("locked_at") else None,
            published_at=parse_moment(e["published_at"]) if e.get("published_at") else None,
        )
        return ev, StoredEvent(ev, str(e["organiser_hash"]), str(e["judge_hash"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise EventInputError(f"{MANIFEST}: the event is incomplete ({exc})") from None


def _entry_of(r: dict[str, Any], event_id: str, decks: dict[str, str]) -> StoredEntry:
    try:
        name = str(r["deck_file"])
        if name not in decks:
            raise EventInputError(f"{name}: named by {MANIFEST} but not in {CSV_NAME}")
        deck = decks[name]
        if _sha(deck) != r["deck_sha256"]:
            raise EventInputError(f"{name}: the deck does not match its SHA-256 in {MANIFEST}")
        entry = Entry(
            id=str(r["id"]),
            event_id=event_id,
            player=str(r["player"]),
            player_id=str(r["player_id"]),
            deck=deck,
            deck_format=str(r["deck_format"]),
            fingerprint=str(r["fingerprint"]),
            legal=bool(r["legal"]),
            verdict_json=json.dumps(r["verdict"], ensure_ascii=False, separators=(",", ":")),
            created_at=parse_moment(r["created_at"]),
            updated_at=parse_moment(r["updated_at"]),
            version=int(r["version"]),
        )
        return StoredEntry(entry, str(r["edit_hash"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise EventInputError(f"{MANIFEST}: a registration is incomplete ({exc})") from None
