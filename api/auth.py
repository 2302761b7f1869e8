"""Tokens mean what they say: no token is a spectator; a token that holds no seat and hosts
no table is refused, not taken for a spectator (a client with a stale or mistyped token
would otherwise play on, seeing only the public view, never told why).

Over HTTP the refusal is 401 with a JSON error body (code `UNAUTHORIZED`) before anything
runs; over WebSocket `connection_init` is refused (graphql-transport-ws: close 4403;
graphql-ws: `connection_error`). A valid token of one table reading another is a valid
token: it gets that table's public view. Owners are cached by the service, so the check
costs a hash and a dictionary lookup on the act path.
"""
from __future__ import annotations

import logging

from api.refusals import refuse
from api.service import UNKNOWN_TOKEN, TableService
from schema.errors import FAULTS, UNAVAILABLE, UNAVAILABLE_TYPES

log = logging.getLogger("conclave.auth")

UNAUTHORIZED = "UNAUTHORIZED"
CHALLENGE = (b"www-authenticate", b'Bearer error="invalid_token"')  # RFC 6750 section 3


async def is_refused(service: TableService, token: str | None) -> bool:
    """Whether a request carrying `token` must be refused."""
    return bool(token) and await service.owner(token) is None


async def refused_over_http(service: TableService, token: str | None, send) -> bool:
    """Refuse (401) a request whose token names nobody, or (503) one whose token cannot be
    looked up now; True if it was refused."""
    try:
        if not await is_refused(service, token):
            return False
    except UNAVAILABLE_TYPES as exc:
        log.warning("store unavailable", extra={"code": UNAVAILABLE, "error": f"{type(exc).__name__}: {exc}"[:500]})
        await refuse(send, 503, FAULTS[UNAVAILABLE], UNAVAILABLE)
        return True
    await refuse(send, 401, UNKNOWN_TOKEN, UNAUTHORIZED, [CHALLENGE])
    return True


def rejection_payload(code: str = UNAUTHORIZED) -> dict:
    """What graphql-ws's `connection_error` carries."""
    return {"message": FAULTS.get(code, UNKNOWN_TOKEN), "extensions": {"code": code}}
