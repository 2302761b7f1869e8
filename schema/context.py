"""What the schema reads from the GraphQL context, the one way services reach it.

The server (api/app.py, api/fast_http.py) builds the context per request or connection:
`service` (a `schema.service.TableService`), `token` (the HTTP bearer token), `request`
(the ASGI request or WebSocket), and over WebSocket strawberry adds `connection_params`
(the connection-init payload) once the client sends it.
"""
from __future__ import annotations

from strawberry.types import Info

from schema.service import TableService


def from_connection_params(params) -> str | None:
    """The token of a WebSocket connection-init payload: `Authorization` ("Bearer …" or the
    bare token) or `token`."""
    if not isinstance(params, dict):
        return None
    raw = params.get("Authorization") or params.get("authorization") or params.get("token")
    if isinstance(raw, str):
        return (raw.split(" ", 1)[1] if raw.lower().startswith("bearer ") else raw) or None
    return None


def token_of(info: Info) -> str | None:
    """The bearer token: the HTTP Authorization header, or the WebSocket connection-init payload."""
    ctx = info.context
    return ctx.get("token") or from_connection_params(ctx.get("connection_params"))


def address_of(info: Info) -> str | None:
    """The client's address: the ASGI scope's `client` of the request or WebSocket."""
    client = getattr(info.context.get("request"), "client", None)
    return client.host if client is not None else None


def service_of(info: Info) -> TableService:
    return info.context["service"]
