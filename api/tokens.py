"""Seat and host tokens, join and invitation codes: random, shown once, stored only as a
SHA-256 hash."""
from __future__ import annotations

import hashlib
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_code() -> str:
    """A table's join code or a seat's invitation: shorter than a token (it travels in share
    links), still 96 random bits."""
    return secrets.token_urlsafe(12)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bearer(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer …` header, or None."""
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None

