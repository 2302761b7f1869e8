"""GraphQL over Server-Sent Events (the graphql-sse protocol, distinct connections mode).

Strawberry's HTTP view speaks the protocol itself (strawberry 0.320+, `GRAPHQL_SSE_PROTOCOL`
in the view's `subscription_protocols`, api/app.py): a request to /graphql with `Accept:
text/event-stream` - POST with the GraphQL JSON body, or GET with `query`, `variables`,
`operationName` as query parameters - runs through `Schema.stream` and answers
`Content-Type: text/event-stream`, one `event: next` / `data: {ExecutionResult}` per result,
then `event: complete`. Errors found before execution (syntax, validation, the cost limit,
an unknown table) come as a `next` event carrying `errors`, as the protocol asks (a 400
would make a browser's EventSource fail the connection without saying why), and a comment
(`: ping`) every keep-alive interval keeps proxies from closing a quiet stream.

So `tableUpdates` over SSE is the WebSocket path's subscription, not a second one: the same
resolver (the viewer is the seat of the `Authorization: Bearer` token, as for any HTTP
request: api/app.py refuses a token that names nobody with 401 before a stream opens), the
same `api.feeds.FeedSubscription` iterated - the service's `follow`, every version once, in
order, resumed after `afterVersion` from the log - and the same document limits (depth,
aliases, tokens, cost: schema/validation.py, schema/streaming.py). Each SSE request counts
at the per-token and per-address rate limits like any request (api/limits.py).

What this module adds:
- `sse_transport`: strawberry's transport with the operator's keep-alive interval.
- `StreamLimits`: how many streams may stand open at once. A WebSocket connection holds at
  most strawberry's `max_subscriptions_per_connection` (100) operations and every
  connection counts at its address's rate; over SSE every operation is a connection of its
  own, so the open streams are capped per token and per client address instead, and one
  over the cap is refused (429, code `TOO_MANY_STREAMS`) before anything runs. Like the rate
  limits, each server process counts its own streams.

A client ends a subscription by closing the connection: Starlette's `StreamingResponse`
hears `http.disconnect` (uvicorn speaks ASGI 2.3) and cancels the stream, which closes the
generators down to `follow` (unsubscribed from the store) - the open-subscription and
open-stream gauges on /metrics go back down.
"""
from __future__ import annotations

from strawberry.http.streaming import SSETransport

from api.metrics import METRICS
from api.refusals import refuse
from api.tokens import bearer

TOO_MANY_STREAMS = "TOO_MANY_STREAMS"


def sse_transport(keepalive: float) -> type[SSETransport]:
    """Strawberry's SSE transport, its keep-alive comment every `keepalive` seconds
    (strawberry builds its transports from classes, without arguments)."""

    class ConclaveSSETransport(SSETransport):
        def __init__(self) -> None:
            super().__init__(heartbeat_interval=keepalive)

    return ConclaveSSETransport


def wants_event_stream(accept: bytes) -> bool:
    """Whether an `Accept` header asks for `text/event-stream` (as strawberry's transport
    decides it, so exactly the requests it streams are counted)."""
    return any(part.split(b";", 1)[0].strip().lower() == b"text/event-stream" for part in accept.split(b","))


class StreamLimits:
    """ASGI middleware: at most `per_token` open SSE streams per bearer token and
    `per_address` per client address (many players may share a NAT: keep it generous)."""

    def __init__(self, app, per_token: int, per_address: int) -> None:
        self.app, self.per_token, self.per_address = app, per_token, per_address
        self.open_by_token: dict[str, int] = {}
        self.open_by_address: dict[str, int] = {}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("path") != "/graphql" or scope.get("method") not in ("GET", "POST"):
            return await self.app(scope, receive, send)
        accept = authorization = b""
        for name, value in scope.get("headers") or ():
            if name == b"accept":
                accept = value
            elif name == b"authorization":
                authorization = value
        if not wants_event_stream(accept):
            return await self.app(scope, receive, send)
        token = bearer(authorization.decode("latin-1")) if authorization else None
        address = (scope.get("client") or ("?", 0))[0]
        if token is not None and self.open_by_token.get(token, 0) >= self.per_token:
            return await self.refuse(send, f"this token already has {self.per_token} open event streams")
        if self.open_by_address.get(address, 0) >= self.per_address:
            return await self.refuse(send, f"this address already has {self.per_address} open event streams")
        self._add(token, address, 1)
        METRICS.sse_streams.inc()
        try:
            await self.app(scope, receive, send)
        finally:
            METRICS.sse_streams.dec()
            self._add(token, address, -1)

    def _add(self, token: str | None, address: str, n: int) -> None:
        for counts, key in ((self.open_by_token, token), (self.open_by_address, address)):
            if key is None:
                continue
            left = counts.get(key, 0) + n
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)  # bound memory: only keys with open streams are kept

    async def refuse(self, send, message: str) -> None:
        METRICS.rate_limited.inc()
        await refuse(send, 429, f"{message}; close one first", TOO_MANY_STREAMS, [(b"retry-after", b"1")])
