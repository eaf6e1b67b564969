"""The event operations: create, submit, edit, lock, publish, list, check at the table.

:class:`Desk` is the one place the contract's rules live, whichever face calls it (the HTTP
routes of :mod:`deckcheck.service.routes.event`, the ``deckcheck event`` commands): who may do what
(:class:`Access`), the deadline and the lock, one registration per player id, the audit log.
Decks are read with :func:`deckcheck.deck.io.read_deck`, checked with
:func:`deckcheck.validation.engine.validate` and fingerprinted with
:func:`deckcheck.deck.model.fingerprint_deck`; compared with
:func:`deckcheck.deck.compare.compare_decks`.

Every write is one transaction of the :class:`~deckcheck.event.store.Store`, committed before
the operation returns: a caller that got an answer has its change on disk. The deadline and the
lock are checked inside that transaction (the event's row locked), so a write that commits saw
the event open. A deck is read and checked before the transaction starts (no lock is held
while checking).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

from deckcheck.error import (
    ConflictError,
    EventInputError,
    EventNotFoundError,
    ForbiddenError,
    LockedError,
    UnauthorizedError,
)
from deckcheck.event.model import Action, AuditEntry, Entry, Event, Phase, utc_text
from deckcheck.event.store import Store, StoredEntry, StoredEvent, Tx
from deckcheck.event.token import Role, hash_token, matches, new_id, new_token, same_secret

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.deck.compare import DeckDiff
    from deckcheck.deck.model import Deck
    from deckcheck.rule.format import Format

MAX_NAME = 200
"""Longest event or player name (characters)."""
MAX_PLAYER_ID = 100
"""Longest player id (characters)."""


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Access:
    """Who a request speaks for on one event: a role (and, for a player, their
    registration)."""

    role: Role
    registration_id: str | None = None


@dataclass(frozen=True, slots=True)
class Created:
    """A new event and its two tokens (shown once: only their hashes are kept)."""

    event: Event
    organiser_token: str
    judge_token: str


@dataclass(frozen=True, slots=True)
class Submitted:
    """A stored registration, its verdict and (for a first submission) its edit token."""

    entry: Entry
    edit_token: str | None


@dataclass(frozen=True, slots=True)
class Check:
    """A played deck compared with the registered one."""

    entry: Entry
    diff: DeckDiff
    locked: bool
    """True when the registration can no longer change (past the deadline or locked)."""


def clean_text(value: str, what: str, limit: int) -> str:
    """``value`` stripped; :class:`EventInputError` if empty, too long or holding control
    characters (they would reach terminals, CSV cells and sheets)."""
    got = value.strip()
    if not got:
        raise EventInputError(f"{what} is empty")
    if len(got) > limit:
        raise EventInputError(f"{what} is over {limit} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in got):
        raise EventInputError(f"{what} holds a control character")
    return got


def parse_deadline(text: str) -> datetime:
    """An ISO 8601 moment with its zone (``2026-06-01T09:00:00+02:00``, ``...Z``);
    :class:`EventInputError` without one."""
    try:
        got = datetime.fromisoformat(text.strip())
    except ValueError:
        raise EventInputError(f"deadline {text!r}: not an ISO 8601 date and time") from None
    if got.tzinfo is None or got.utcoffset() is None:
        raise EventInputError(f"deadline {text!r}: give its time zone (Z or +HH:MM)")
    return got


def parse_day(text: str) -> date:
    """``YYYY-MM-DD``; :class:`EventInputError` otherwise."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise EventInputError(f"date {text!r}: use YYYY-MM-DD") from None


class Desk:
    """The operations on events over one store, with the admin token and a clock."""

    def __init__(
        self,
        store: Store,
        *,
        admin_token: str | None = None,
        clock: Callable[[], datetime] = _now,
        max_cards: int | None = None,
    ) -> None:
        self.store = store
        self.admin_token = admin_token
        """``DECKCHECK_ADMIN_TOKEN``: who may create events over HTTP (None: nobody)."""
        self.clock = clock
        """The time now (injected: tests move it across a deadline)."""
        self.max_cards = max_cards
        """Most cards a submitted deck may have (None: the readers' own cap)."""

    # -- who ---------------------------------------------------------------------------------

    def require_admin(self, token: str | None) -> None:
        """:class:`UnauthorizedError` unless ``token`` is the admin token."""
        if not same_secret(token, self.admin_token):
            raise UnauthorizedError(
                "creating an event needs 'Authorization: Bearer' and the admin token"
                if self.admin_token
                else "no admin token is set (DECKCHECK_ADMIN_TOKEN)"
            )

    def access(self, stored: StoredEvent, token: str | None) -> Access:
        """Who ``token`` speaks for on the event (the public when None);
        :class:`UnauthorizedError` for a token that is none of the event's."""
        if token is None:
            return Access(Role.PUBLIC)
        if matches(token, stored.organiser_hash):
            return Access(Role.ORGANISER)
        if matches(token, stored.judge_hash):
            return Access(Role.JUDGE)
        if token.startswith("dcp_") or not token.startswith(("dco_", "dcj_")):
            with self.store.transaction(write=False) as tx:
                row = tx.one(
                    "SELECT id FROM registrations WHERE event_id = ? AND edit_hash = ?",
                    (stored.event.id, hash_token(token)),
                )
            if row is not None:
                return Access(Role.PLAYER, row[0])
        raise UnauthorizedError("this token opens nothing of this event")

    def authorise(self, event_id: str, token: str | None, *roles: Role) -> StoredEvent:
        """The event, if ``token`` is one of ``roles`` on it: 404 no such event, 401 no token
        or a wrong one, 403 a token of another role."""
        stored = self.stored(event_id)
        if token is None:
            raise UnauthorizedError("this needs 'Authorization: Bearer TOKEN'")
        who = self.access(stored, token)
        if who.role not in roles:
            names = " or ".join(r.value for r in roles)
            raise ForbiddenError(f"this needs the {names} token of the event")
        return stored

    def stored(self, event_id: str) -> StoredEvent:
        """The event with its token hashes; :class:`EventNotFoundError` if there is none."""
        with self.store.transaction(write=False) as tx:
            got = tx.event(event_id)
        if got is None:
            raise EventNotFoundError(f"no event {event_id!r}")
        return got

    # -- events ------------------------------------------------------------------------------

    def create(
        self,
        name: str,
        format: str,
        day: date,
        deadline: datetime,
        tcg_region: str | None = None,
        *,
        data: Dataset | None = None,
        actor: Role = Role.ADMIN,
    ) -> Created:
        """A new event (its format checked to resolve), with fresh organiser and judge tokens."""
        if deadline.tzinfo is None:
            raise EventInputError("the deadline needs a time zone")
        name = clean_text(name, "name", MAX_NAME)
        fmt_name = clean_text(format, "format", MAX_NAME)
        if tcg_region not in (None, "na", "eu"):
            raise EventInputError(f"tcg_region {tcg_region!r}: use na or eu")
        _format(fmt_name, tcg_region, data)  # an unknown format is refused now, not at submission
        now = self.clock()
        organiser, judge = new_token(Role.ORGANISER), new_token(Role.JUDGE)
        ev = Event(new_id(), name, fmt_name, day, deadline, tcg_region, now)
        with self.store.transaction(write=True) as tx:
            tx.insert_event(StoredEvent(ev, hash_token(organiser), hash_token(judge)))
            tx.log(ev.id, None, Action.CREATE, actor.value, now)
        return Created(ev, organiser, judge)

    def event(self, event_id: str) -> Event:
        """The event (public facts); :class:`EventNotFoundError` if there is none."""
        return self.stored(event_id).event

    def events(self) -> list[Event]:
        """Every event in the store, newest first."""
        with self.store.transaction(write=False) as tx:
            return [s.event for s in tx.events()]

    def lock(self, event_id: str, actor: Role = Role.ORGANISER) -> Event:
        """Close submissions now (kept if already locked)."""
        return self._close(event_id, actor, publish=False)

    def publish(self, event_id: str, actor: Role = Role.ORGANISER) -> Event:
        """Make the decklists public (locking the event first if it is still open)."""
        return self._close(event_id, actor, publish=True)

    def _close(self, event_id: str, actor: Role, *, publish: bool) -> Event:
        """Lock (and publish) under the event's row lock: no write commits after it unseen."""
        now = self.clock()
        with self.store.transaction(write=True) as tx:
            stored = tx.event(event_id, self.store.dialect.own_event)
            if stored is None:
                raise EventNotFoundError(f"no event {event_id!r}")
            ev = stored.event
            if ev.locked_at is None:
                tx.set_moment(event_id, "locked_at", now)
                tx.log(event_id, None, Action.LOCK, actor.value, now)
            if publish and ev.published_at is None:
                tx.set_moment(event_id, "published_at", now)
                tx.log(event_id, None, Action.PUBLISH, actor.value, now)
            got = tx.event(event_id)
        assert got is not None
        return got.event

    # -- registrations -----------------------------------------------------------------------

    def submit(
        self,
        event_id: str,
        player: str,
        player_id: str,
        deck: str,
        *,
        data: Dataset | None = None,
        actor: Role = Role.PUBLIC,
    ) -> Submitted:
        """Store a first registration (illegal decks too, with their findings); 423 when
        closed, 409 when the player id is registered (edit that one instead)."""
        player = clean_text(player, "player", MAX_NAME)
        player_id = clean_text(player_id, "player_id", MAX_PLAYER_ID)
        stored = self.stored(event_id)
        self._require_open(stored.event)
        with self.store.transaction(write=False) as tx:
            if tx.entry_of_player(event_id, player_id) is not None:
                raise _taken(player_id)
        read = self._checked(stored.event, deck, player_id, data)
        now = self.clock()
        token = new_token(Role.PLAYER)
        entry = Entry(
            new_id(),
            event_id,
            player,
            player_id,
            deck,
            read.kind,
            read.fingerprint,
            read.legal,
            read.verdict_json,
            now,
            now,
            1,
        )
        who = actor.value if actor is not Role.PUBLIC else f"{Role.PLAYER.value}:{player_id}"
        with self.store.transaction(write=True) as tx:
            self._open_in(tx, event_id, now)
            try:
                tx.insert_entry(StoredEntry(entry, hash_token(token)))
            except ConflictError:
                raise _taken(player_id) from None
            tx.log(event_id, entry.id, Action.SUBMIT, who, now, None, entry.fingerprint)
        return Submitted(entry, token)

    def edit(
        self,
        event_id: str,
        registration_id: str,
        token: str | None,
        deck: str,
        player: str | None = None,
        *,
        data: Dataset | None = None,
    ) -> Submitted:
        """Replace a registration's deck (and name) with its edit token, before the deadline."""
        stored = self.stored(event_id)
        if token is None:
            raise UnauthorizedError("editing needs 'Authorization: Bearer EDIT_TOKEN'")
        who = self.access(stored, token)
        if who.role is not Role.PLAYER:
            raise ForbiddenError("only the player's edit token replaces a registration")
        if who.registration_id != registration_id:
            raise ForbiddenError("this edit token opens another registration")
        self._require_open(stored.event)
        name = clean_text(player, "player", MAX_NAME) if player is not None else None
        with self.store.transaction(write=False) as tx:
            old = tx.entry(event_id, registration_id)
        if old is None:
            raise EventNotFoundError(f"no registration {registration_id!r}")
        read = self._checked(stored.event, deck, old.entry.player_id, data)
        now = self.clock()
        with self.store.transaction(write=True) as tx:
            self._open_in(tx, event_id, now)
            current = tx.entry(event_id, registration_id)
            assert current is not None  # registrations are never deleted
            new = replace(
                current.entry,
                player=name or current.entry.player,
                deck=deck,
                deck_format=read.kind,
                fingerprint=read.fingerprint,
                legal=read.legal,
                verdict_json=read.verdict_json,
                updated_at=now,
                version=current.entry.version + 1,
            )
            tx.replace_entry(new)
            tx.log(
                event_id,
                registration_id,
                Action.EDIT,
                f"{Role.PLAYER.value}:{new.player_id}",
                now,
                current.entry.fingerprint,
                new.fingerprint,
            )
        return Submitted(new, None)

    def registration(self, event_id: str, registration_id: str) -> Entry:
        """One registration; :class:`EventNotFoundError` if there is none."""
        with self.store.transaction(write=False) as tx:
            got = tx.entry(event_id, registration_id)
        if got is None:
            raise EventNotFoundError(f"no registration {registration_id!r} in this event")
        return got.entry

    def registrations(self, event_id: str) -> list[Entry]:
        """The event's registrations, in the order they came in."""
        self.stored(event_id)
        with self.store.transaction(write=False) as tx:
            return [s.entry for s in tx.entries(event_id)]

    def audit(self, event_id: str) -> list[AuditEntry]:
        """The event's audit log, oldest first."""
        self.stored(event_id)
        with self.store.transaction(write=False) as tx:
            return tx.audit(event_id)

    def decklists(self, event_id: str, *, organiser: bool = False) -> list[Entry]:
        """The registrations with their decks, once published (before: only the organiser)."""
        ev = self.event(event_id)
        if ev.published_at is None and not organiser:
            raise EventNotFoundError(f"the decklists of {event_id!r} are not published")
        return self.registrations(event_id)

    def check(
        self, event_id: str, player_id: str, played: str, *, data: Dataset | None = None
    ) -> Check:
        """The played deck (any format, or the sheet's QR text: a ``ydke://`` URL) against the
        registration of ``player_id``."""
        from deckcheck.deck.compare import compare_decks

        ev = self.event(event_id)
        with self.store.transaction(write=False) as tx:
            got = tx.entry_of_player(event_id, player_id.strip())
        if got is None:
            raise EventNotFoundError(f"player id {player_id!r} has no registration")
        fmt = _format(ev.format, ev.tcg_region, data)
        registered = self._read(got.entry.deck, fmt, "registered", data)
        deck = self._read(played, fmt, "played", data)
        diff = compare_decks(registered, deck, data=data)
        return Check(got.entry, diff, not ev.is_open(self.clock()))

    # -- helpers -----------------------------------------------------------------------------

    def _require_open(self, ev: Event) -> None:
        phase = ev.phase(self.clock())
        if phase is not Phase.OPEN:
            raise _closed(ev)

    def _open_in(self, tx: Tx, event_id: str, now: datetime) -> None:
        """Inside a write: the event locked for sharing, still open at ``now``."""
        current = tx.event(event_id, self.store.dialect.share_event)
        if current is None:
            raise EventNotFoundError(f"no event {event_id!r}")
        if current.event.phase(now) is not Phase.OPEN:
            raise _closed(current.event)

    def _read(self, content: str, fmt: Format, source: str, data: Dataset | None) -> Deck:
        from deckcheck.deck.io import read_deck
        from deckcheck.error import LimitError
        from deckcheck.rule.format import Pool

        if not content.strip():
            raise EventInputError(f"{source} deck is empty")
        deck = read_deck(content, source=source, rush=fmt.pool is Pool.RUSH, data=data)
        n = len(deck) + sum(f.count for f in deck.findings if f.passcode is None)
        if self.max_cards is not None and n > self.max_cards:
            raise LimitError(
                f"the deck has {n} cards; the limit is {self.max_cards}",
                "max_cards",
                self.max_cards,
            )
        return deck

    def _checked(self, ev: Event, content: str, player_id: str, data: Dataset | None) -> _Read:
        import json

        from deckcheck.deck.io.detect import detect_text
        from deckcheck.deck.model import fingerprint_deck
        from deckcheck.reporter.document import ResultDoc, shape
        from deckcheck.validation.engine import validate

        fmt = _format(ev.format, ev.tcg_region, data)
        deck = self._read(content, fmt, player_id, data)
        report = validate(deck, fmt, ev.date, path=player_id, data=data)
        kind = detect_text(content).value
        result = shape(ResultDoc, report)
        verdict = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
        return _Read(kind, fingerprint_deck(deck), report.legal, verdict)


@dataclass(frozen=True, slots=True)
class _Read:
    kind: str
    fingerprint: str
    legal: bool
    verdict_json: str


def _format(name: str, region: str | None, data: Dataset | None) -> Format:
    from deckcheck.run.vocab import resolve_format

    return resolve_format(name, data=data, region=region, files=False)


def _taken(player_id: str) -> ConflictError:
    return ConflictError(
        f"player id {player_id!r} is already registered: use the edit link (PUT the "
        "registration with its edit token) to change the deck"
    )


def _closed(ev: Event) -> LockedError:
    if ev.locked_at is not None:
        when = f"locked at {utc_text(ev.locked_at)}"
    else:
        when = f"the deadline passed at {ev.deadline.isoformat()}"
    return LockedError(f"event {ev.id!r} takes no more changes: {when}")
