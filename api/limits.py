"""Abuse limits at the HTTP edge: request body size and a token-bucket rate limit per
token and per client address (in-process; each server process limits on its own)."""
from __future__ import annotations

import time

from api.metrics import METRICS
from api.refusals import refuse
from api.tokens import bearer
from schema.validation import PENALTY


class TokenBucket:
    __slots__ = ("rate", "burst", "buckets")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        tokens, last = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            return False
        self.buckets[key] = (tokens - 1, now)
        if len(self.buckets) > 100_000:  # bound memory: forget the idle
            self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < 60}
        return True

    def charge(self, key: str, tokens: float) -> float:
        """Take `tokens` more from the key's bucket (it may go below zero: refused until it
        refills); returns the seconds until it holds a token again (0: it does)."""
        now = time.monotonic()
        left, last = self.buckets.get(key, (self.burst, now))
        left = min(self.burst, left + (now - last) * self.rate) - tokens
        self.buckets[key] = (left, now)
        return 0.0 if left >= 1 or self.rate <= 0 else (1 - left) / self.rate


# Addresses penalized past their rate (a flood of refused documents): until when this
# process drops their new connections as soon as they are made (api/http_protocol.py), before
# any HTTP parsing or WebSocket handshake, which cost more than the refusal itself. Behind a
# proxy the connection's peer is the proxy, never a shut-out address: the proxy's own
# connection limits do this job there.
SHUT_OUT: dict[str, float] = {}


def shut_out(address: str, seconds: float) -> None:
    if seconds <= 0:
        return
    now = time.monotonic()
    if len(SHUT_OUT) > 100_000:  # bound memory: forget the expired
        for key in [k for k, until in SHUT_OUT.items() if until <= now]:
            del SHUT_OUT[key]
    SHUT_OUT[address] = now + seconds


def is_shut_out(address: str) -> bool:
    until = SHUT_OUT.get(address)
    return until is not None and until > time.monotonic()


class LimitsMiddleware:
    """ASGI middleware: 413 for a body over the limit, 429 for a flood; a WebSocket connect
    counts at its address's rate."""

    def __init__(self, app, max_body: int, rate: float, burst: int, address_rate: float, address_burst: int) -> None:
        self.app, self.max_body = app, max_body
        self.per_token = TokenBucket(rate, burst)
        self.per_address = TokenBucket(address_rate, address_burst)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            return await self.websocket(scope, receive, send)
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = authorization = None
        for name, value in scope.get("headers") or ():
            if name == b"content-length":
                length = value
            elif name == b"authorization":
                authorization = value
        declared = int(length) if length is not None and length.isdigit() else None
        if declared is not None and declared > self.max_body:
            return await refuse(send, 413, f"request body over {self.max_body} bytes")
        if scope.get("path", "").startswith("/graphql") and scope.get("method") in ("POST", "GET"):
            token = bearer((authorization or b"").decode("latin-1"))
            address = (scope.get("client") or ("?", 0))[0]
            if (token and not self.per_token.allow(token)) or not self.per_address.allow(address):
                METRICS.rate_limited.inc()
                return await refuse(send, 429, "too many requests; slow down", headers=[(b"retry-after", b"1")])
        if declared is not None:  # the server reads exactly that many bytes: nothing more to count
            await self.app(scope, receive, send)
            if PENALTY in scope:
                self.penalize(scope)
            return
        received = 0
        max_body = self.max_body

        async def limited_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > max_body:
                    raise BodyTooLarge()
            return message

        try:
            await self.app(scope, limited_receive, send)
        except BodyTooLarge:
            await refuse(send, 413, f"request body over {max_body} bytes")
        if PENALTY in scope:
            self.penalize(scope)

    def penalize(self, scope) -> None:
        """A request the GraphQL layer refused for its cost set the scope key PENALTY to how
        many requests it counts as (schema/validation.py, api/fast_http.py): a flood of
        over-complex documents from one address meets the address's rate limit after a few,
        and is answered 429 before its body is read."""
        address = (scope.get("client") or ("?", 0))[0]
        shut_out(address, self.per_address.charge(address, scope[PENALTY]))


    async def websocket(self, scope, receive, send):
        """A WebSocket connect counts as one request at its address's rate (a refused one
        is closed before the handshake completes: HTTP 403); a connection the GraphQL layer
        closed for its refusals counts its penalty when it ends."""
        address = (scope.get("client") or ("?", 0))[0]
        if not self.per_address.allow(address):
            METRICS.rate_limited.inc()
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 1008})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            if PENALTY in scope:
                self.penalize(scope)


class BodyTooLarge(Exception):
    pass
