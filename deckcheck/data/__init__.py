"""Data: the ``Dataset`` (cards, lists, formats, as-of date, fingerprint), the user's data store,
updates from a published bundle or from upstream sources, and the bundle builder.

The bundled dataset itself lives in ``deckcheck/data/bundled/``.
"""

from deckcheck.data import store as _store  # noqa: F401  (installs the installed-bundle opener)
