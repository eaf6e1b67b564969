"""Sources: where decks come from (paths, folders, zips, registration CSVs, stdin, URLs, uploads),
turned into records a run reads and validates.

``records(paths)`` (:func:`deckcheck.source.scan.records`) is the stream every front end reads:
``Found`` (a :class:`~deckcheck.source.record.Source` to read) | ``Skipped`` | ``Unreadable``.
"""
