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

from api.refusals import refuse
from api.service import UNKNOWN_TOKEN, TableService

UNAUTHORIZED = "UNAUTHORIZED"
CHALLENGE = (b"www-authenticate", b'Bearer error="invalid_token"')  # RFC 6750 section 3


async def is_refused(service: TableService, token: str | None) -> bool:
    """Whether a request carrying `token` must be refused."""
    return bool(token) and await service.owner(token) is None


async def refuse_unknown_token(send) -> None:
    await refuse(send, 401, UNKNOWN_TOKEN, UNAUTHORIZED, [CHALLENGE])


def rejection_payload() -> dict:
    """What graphql-ws's `connection_error` carries."""
    return {"message": UNKNOWN_TOKEN, "extensions": {"code": UNAUTHORIZED}}
