"""Service settings: every limit of the HTTP API, with its default and environment variable.

A :class:`Settings` is frozen; :meth:`Settings.from_env` reads the ``DECKCHECK_*`` variables
below (``deckcheck serve`` sets them from its options, so every worker process gets the same).

==============================  ===============================  ==========================
setting                         environment variable             default
==============================  ===============================  ==========================
``max_body_bytes``              ``DECKCHECK_MAX_BODY_BYTES``     2 MiB (413 over it)
``max_batch_bytes``             ``DECKCHECK_MAX_BATCH_BYTES``    16 MiB (``POST /v1/batch``)
``max_cards``                   ``DECKCHECK_MAX_CARDS``          200 cards per deck (422)
``max_trials``                  ``DECKCHECK_MAX_TRIALS``         1,000,000 per going (422)
``simulation_seconds``          ``DECKCHECK_SIMULATION_SECONDS`` 10 s per simulation (422)
``exact_bytes``                 ``DECKCHECK_EXACT_BYTES``        64 MiB of exact-engine states
``max_batch_decks``             ``DECKCHECK_MAX_BATCH_DECKS``    1,000 decks per batch (422)
``max_zip_entries``             ``DECKCHECK_MAX_ZIP_ENTRIES``    2,000 entries per zip (422)
``max_zip_bytes``               ``DECKCHECK_MAX_ZIP_BYTES``      64 MiB uncompressed (422)
``max_zip_ratio``               ``DECKCHECK_MAX_ZIP_RATIO``      100 (compression ratio)
``cors_origins``                ``DECKCHECK_CORS_ORIGINS``       none: CORS off
``compute_seconds``             ``DECKCHECK_COMPUTE_SECONDS``    10 CPU s per computing request
``compute_memory_bytes``        ``DECKCHECK_COMPUTE_MEMORY_BYTES`` 512 MiB per computing request
``max_computing``               ``DECKCHECK_MAX_COMPUTING``      2 at once per worker (429)
``header_timeout``              ``DECKCHECK_HEADER_TIMEOUT``     10 s for a request's headers
``body_timeout``                ``DECKCHECK_BODY_TIMEOUT``       10 s grace, then the body rate
``min_body_rate``               ``DECKCHECK_MIN_BODY_RATE``      4,096 bytes/s after the grace
``keep_alive_timeout``          ``DECKCHECK_KEEP_ALIVE_TIMEOUT`` 5 s idle between requests
``max_header_bytes``            ``DECKCHECK_MAX_HEADER_BYTES``   16 KiB of headers (431)
``max_headers``                 ``DECKCHECK_MAX_HEADERS``        100 header lines (431)
``image_url``                   ``DECKCHECK_IMAGE_URL``          none: no card images
==============================  ===============================  ==========================

Computing routes (``POST /v1/simulate``, ``/v1/simulate/sweep``, ``/v1/simulate/side``,
``/v1/batch``, ``/v1/meta``) run in a child process of the worker with its CPU time and memory
capped (:mod:`deckcheck.service.limit`); the timeouts and header caps are applied to every
connection (:mod:`deckcheck.service.protocol`).

``DECKCHECK_CORS_ORIGINS`` is a comma-separated list of origins (``*`` for any).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields

from deckcheck.error import InputError

MIB = 1 << 20


@dataclass(frozen=True, slots=True)
class Settings:
    """Limits and options of the HTTP service (see the module docstring for the defaults)."""

    max_body_bytes: int = 2 * MIB
    """Largest request body, except ``POST /v1/batch`` (413 over it)."""
    max_batch_bytes: int = 16 * MIB
    """Largest ``POST /v1/batch`` body (413 over it)."""
    max_cards: int = 200
    """Most cards in one deck, all sections together (422 over it)."""
    max_trials: int = 1_000_000
    """Most simulated games per going (422 over it)."""
    simulation_seconds: float = 10.0
    """Time budget of one simulation: a request projected to take longer gets 422. The exact
    engine gets the same time; past it (or past ``exact_bytes``) ``exact="auto"`` simulates."""
    exact_bytes: int = 64 * MIB
    """Memory budget of the exact engine per request (estimated before allocating)."""
    max_batch_decks: int = 1000
    """Most decks in one batch (422 over it)."""
    max_zip_entries: int = 2000
    """Most entries in an uploaded zip (422 over it)."""
    max_zip_bytes: int = 64 * MIB
    """Most uncompressed bytes of the decks in an uploaded zip (422 over it)."""
    max_zip_ratio: int = 100
    """Highest compression ratio of one zip entry (a zip bomb gets 422)."""
    cors_origins: tuple[str, ...] = ()
    """Origins allowed by CORS; empty: no CORS headers at all."""
    compute_seconds: float = 10.0
    """CPU seconds one computing request may use (its wall time is capped at 3 times this)."""
    compute_memory_bytes: int = 512 * MIB
    """Memory one computing request may add to its worker's (resident, and address space)."""
    max_computing: int = 2
    """Computing requests one worker process runs at once; more get 429 with Retry-After."""
    header_timeout: float = 10.0
    """Seconds a client has to send a request's whole header block (then the connection closes)."""
    body_timeout: float = 10.0
    """Seconds of grace for a request body; after them it must arrive at ``min_body_rate``."""
    min_body_rate: int = 4096
    """Bytes per second a request body must average once ``body_timeout`` has passed."""
    keep_alive_timeout: float = 5.0
    """Seconds an idle keep-alive connection stays open between requests."""
    max_header_bytes: int = 16 * 1024
    """Largest header block of a request, request line included (431 over it)."""
    max_headers: int = 100
    """Most header lines in a request (431 over it)."""
    image_url: str = ""
    """URL template of card images for the builder (``{passcode}`` in it); empty: no images."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``DECKCHECK_*`` variables (defaults for those unset).

        Raises :class:`~deckcheck.error.InputError` naming a variable that is not a positive
        number.
        """
        env = os.environ if env is None else env
        values: dict[str, object] = {}
        for f in fields(cls):
            name = env_name(f.name)
            raw = env.get(name)
            if raw is None or not raw.strip():
                continue
            if f.name == "cors_origins":
                values[f.name] = tuple(o.strip() for o in raw.split(",") if o.strip())
                continue
            if f.name == "image_url":
                values[f.name] = image_template(raw.strip(), name)
                continue
            kind = float if f.type in (float, "float") else int
            try:
                value = kind(raw.strip())
            except ValueError:
                raise InputError(f"{name}={raw!r}: expected a number") from None
            if value <= 0:
                raise InputError(f"{name}={raw!r}: must be greater than 0")
            values[f.name] = value
        return cls(**values)  # type: ignore[arg-type]

    def to_env(self) -> dict[str, str]:
        """The environment variables that give these settings back (for worker processes)."""
        out: dict[str, str] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[env_name(f.name)] = ",".join(value) if isinstance(value, tuple) else str(value)
        return out


def env_name(setting: str) -> str:
    """The environment variable of a setting: ``max_cards`` -> ``DECKCHECK_MAX_CARDS``."""
    return "DECKCHECK_" + setting.upper()


def image_template(url: str, name: str = "DECKCHECK_IMAGE_URL") -> str:
    """An image URL template checked: ``http(s)://host/...{passcode}...``; :class:`InputError`
    otherwise (the builder's CSP allows images from that origin only)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url.replace("{passcode}", "0"))
    if parts.scheme not in ("http", "https") or not parts.netloc or "{passcode}" not in url:
        raise InputError(f"{name}={url!r}: expected an http(s) URL with {{passcode}} in it")
    if any(c in url for c in " \"'<>;"):
        raise InputError(f"{name}={url!r}: spaces, quotes, '<', '>' and ';' are not allowed")
    return url


def image_origin(url: str) -> str:
    """The origin (``scheme://host[:port]``) of an image URL template."""
    from urllib.parse import urlsplit

    parts = urlsplit(url.replace("{passcode}", "0"))
    return f"{parts.scheme}://{parts.netloc}"
