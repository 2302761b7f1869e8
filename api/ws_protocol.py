"""uvicorn's WebSocket protocol with spread keepalive pings.

uvicorn pings every connection `ws_ping_interval` after its previous pong, so connections
opened together - a reconnect storm after a deploy, a load test's setup - ping together on
every round, for as long as they live. At 900 actions/s, 1,000 connections opened within a
few seconds put a burst of ping work on the server every round, and the backlog it left
raised act and delivery latency (~25 ms) for a second or more (benchmarks/api_load.py:
delivery p99 44 ms with pings every 5 s, 30 ms spread). Each ping here comes after a random
75-100% of the interval, so rounds drift apart; a dead connection is still found within
the interval plus uvicorn's ping timeout.
"""
from __future__ import annotations

import random

try:  # the schedule this overrides is uvicorn's sans-I/O protocol's own (uvicorn 0.54)
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover - another uvicorn: its own protocol, unspread
    WebSocketsSansIOProtocol = None

SPREAD = (0.75, 1.0)

if WebSocketsSansIOProtocol is not None and callable(getattr(WebSocketsSansIOProtocol, "schedule_ping", None)):
    class SpreadPingWebSocketProtocol(WebSocketsSansIOProtocol):
        def schedule_ping(self) -> None:
            assert self.ping_interval is not None
            delay = max(0.0, self.ping_interval - self.last_ping_rtt) * random.uniform(*SPREAD)
            self.ping_timer = self.loop.call_later(delay, self.send_keepalive_ping)
else:  # pragma: no cover
    SpreadPingWebSocketProtocol = None


def websocket_protocol():
    """uvicorn's `ws` setting: the spread-ping protocol, else uvicorn's own choice."""
    return SpreadPingWebSocketProtocol or "auto"
