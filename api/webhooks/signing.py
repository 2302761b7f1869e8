"""The signature a webhook receiver verifies (the README's "Turn notifications" says the same).

Every delivery is a POST with a JSON body and these headers:

- `Conclave-Event-Id`: the event's id, the same on every retry (receivers de-duplicate by it);
- `Conclave-Timestamp`: when this attempt was signed, in whole seconds since the Unix epoch;
- `Conclave-Signature`: `v1=` and the lowercase hex HMAC-SHA256, keyed with the registration's
  secret (its UTF-8 bytes), of the timestamp's decimal digits, one `.`, then the body's exact
  bytes.

A receiver recomputes the HMAC over the bytes it received, compares in constant time, and
refuses a timestamp too far from its clock (replays).
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from typing import Mapping

EVENT_ID = "Conclave-Event-Id"
TIMESTAMP = "Conclave-Timestamp"
SIGNATURE = "Conclave-Signature"
TOLERANCE_SECONDS = 300


def new_secret() -> str:
    """A registration's signing secret: 256 random bits, shown to the registering seat once."""
    return "whsec_" + secrets.token_urlsafe(32)


def sign(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256)
    return "v1=" + mac.hexdigest()


def headers(secret: str, event_id: str, body: bytes, timestamp: int | None = None) -> dict[str, str]:
    timestamp = int(time.time()) if timestamp is None else timestamp
    return {"Content-Type": "application/json", "User-Agent": "conclave-webhooks/1",
            EVENT_ID: event_id, TIMESTAMP: str(timestamp), SIGNATURE: sign(secret, timestamp, body)}


def verify(secret: str, received: Mapping[str, str], body: bytes, now: float | None = None,
           tolerance: int = TOLERANCE_SECONDS) -> bool:
    """What a receiver does (and what the tests do): the signature matches and is recent."""
    try:
        timestamp = int(received[TIMESTAMP])
        signature = received[SIGNATURE]
    except (KeyError, ValueError):
        return False
    now = time.time() if now is None else now
    if abs(now - timestamp) > tolerance:
        return False
    return hmac.compare_digest(sign(secret, timestamp, body), signature)
