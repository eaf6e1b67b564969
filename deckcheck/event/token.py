"""Tokens: random, stored hashed, compared in constant time.

A token is 32 random bytes from :mod:`secrets` (256 bits) written URL-safe with a prefix naming
its role (``dco_`` organiser, ``dcj_`` judge, ``dcp_`` a player's edit token), so a token pasted
in the wrong place is easy to tell. Only its SHA-256 is stored: a copy of the database opens
nothing. Tokens are high-entropy, so a plain hash is enough (no salt or slow hash is needed
against guessing); comparison uses :func:`hmac.compare_digest`.
"""

from __future__ import annotations

import base64
import enum
import hashlib
import hmac
import secrets

TOKEN_BYTES = 32
"""Random bytes per token (256 bits; the contract asks for at least 128)."""
ID_BYTES = 10
"""Random bytes of an event or registration id (80 bits: 16 characters of ``a-z2-7``, safe
in URLs, file names and command lines)."""
MAX_TOKEN_CHARS = 200
"""Longest ``Authorization`` token looked at (longer ones are wrong without hashing)."""


class Role(enum.StrEnum):
    """Who a request speaks for (public API: the audit log's ``actor``)."""

    ADMIN = "admin"
    """The service's operator (``DECKCHECK_ADMIN_TOKEN``): creates events."""
    ORGANISER = "organiser"
    JUDGE = "judge"
    PLAYER = "player"
    """A player, with the edit token of their own registration."""
    PUBLIC = "public"
    """Anyone (a first submission, the published decklists)."""
    CLI = "cli"
    """The organiser's own machine (``deckcheck event ...``)."""


PREFIX = {Role.ORGANISER: "dco_", Role.JUDGE: "dcj_", Role.PLAYER: "dcp_"}
"""The prefix of each role's tokens."""


def new_token(role: Role) -> str:
    """A fresh random token for ``role``."""
    return PREFIX.get(role, "dc_") + secrets.token_urlsafe(TOKEN_BYTES)


def new_id() -> str:
    """A fresh random id (events, registrations): 80 bits in lowercase base32."""
    return base64.b32encode(secrets.token_bytes(ID_BYTES)).decode("ascii").lower()


def hash_token(token: str) -> str:
    """The stored form of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token: str | None, stored: str | None) -> bool:
    """True when ``token`` hashes to ``stored``, compared in constant time."""
    if not token or not stored or len(token) > MAX_TOKEN_CHARS:
        return False
    return hmac.compare_digest(hash_token(token), stored)


def same_secret(given: str | None, expected: str | None) -> bool:
    """True when ``given`` equals the configured secret ``expected`` (the admin token),
    compared in constant time over their hashes (so their lengths leak nothing)."""
    if not given or not expected or len(given) > MAX_TOKEN_CHARS:
        return False
    return hmac.compare_digest(hash_token(given), hash_token(expected))
