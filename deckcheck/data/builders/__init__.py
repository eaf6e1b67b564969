"""The data builders: the card index and the ban lists, from the source data.

:mod:`~deckcheck.data.builders.card_index` and :mod:`~deckcheck.data.builders.banlists` read a
folder laid out like the shared source data (``cards/``, ``lflists/``);
:func:`deckcheck.data.bundle.build` runs both in this process. ``scripts/build_card_index.py``
and ``scripts/build_banlists.py`` are their command lines.
:mod:`~deckcheck.data.builders.projection` makes the projected source files (the per-card
repositories, one line a card) that the project publishes for them
(``scripts/project_sources.py``).
"""
