"""The HTTP service: a FastAPI app over the library, and the static web deck builder.

::

    deckcheck serve --port 8000 --workers 4
    uvicorn --factory deckcheck.service.app:app_from_env     # the same app

:func:`create_app` builds the app for one :class:`~deckcheck.data.dataset.Dataset` (read-only,
loaded
once per process) and one :class:`Settings` (limits, CORS). The app keeps no other state, so it
scales out as processes or replicas behind any load balancer. This package is the only place
(with the ``serve`` command) that imports FastAPI; it needs the ``service`` extra.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from deckcheck.service.config import Settings

if TYPE_CHECKING:
    from deckcheck.service.app import app_from_env, create_app

__all__ = ["Settings", "app_from_env", "create_app"]


def __getattr__(name: str) -> Any:
    if name in ("create_app", "app_from_env"):
        from deckcheck.service import app

        return getattr(app, name)
    raise AttributeError(f"module 'deckcheck.service' has no attribute {name!r}")
