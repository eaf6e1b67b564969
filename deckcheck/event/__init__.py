"""Events: decklists submitted until a deadline, locked, checked at the table, published.

The stage above the reporters and below the front ends: :mod:`~deckcheck.event.store` (the
repository over SQLite or PostgreSQL, :mod:`~deckcheck.event.migration` its versioned schema),
:mod:`~deckcheck.event.token` (random tokens, stored hashed), :mod:`~deckcheck.event.model` (the
records), :mod:`~deckcheck.event.desk` (the operations and their rules: who, the deadline, the
audit log), :mod:`~deckcheck.event.report` (the stored decks as batch reports, sheets and the
metagame) and :mod:`~deckcheck.event.archive` (an export that ``deckcheck batch`` reads, and its
import). The HTTP routes (:mod:`deckcheck.service.routes.event`) and ``deckcheck event``
(:mod:`deckcheck.cli.event`) are thin faces over :class:`~deckcheck.event.desk.Desk`.
"""
