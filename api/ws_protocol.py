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
import struct

try:  # the schedule this overrides is uvicorn's sans-I/O protocol's own (uvicorn 0.54)
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover - another uvicorn: its own protocol, unspread
    WebSocketsSansIOProtocol = None

SPREAD = (0.75, 1.0)
SEND_TEXT_NOWAIT = "conclave.send_text_nowait"  # the scope extension's key


def text_frame(payload: bytes) -> bytes:
    """One unmasked, unfragmented text frame, as a server sends it (RFC 6455, 5.2)."""
    n = len(payload)
    if n < 126:
        return struct.pack("!BB", 0x81, n) + payload
    if n < 1 << 16:
        return struct.pack("!BBH", 0x81, 126, n) + payload
    return struct.pack("!BBQ", 0x81, 127, n) + payload


if WebSocketsSansIOProtocol is not None and callable(getattr(WebSocketsSansIOProtocol, "schedule_ping", None)):
    from websockets.protocol import OPEN

    class SpreadPingWebSocketProtocol(WebSocketsSansIOProtocol):
        def schedule_ping(self) -> None:
            assert self.ping_interval is not None
            delay = max(0.0, self.ping_interval - self.last_ping_rtt) * random.uniform(*SPREAD)
            self.ping_timer = self.loop.call_later(delay, self.send_keepalive_ping)

        async def run_asgi(self) -> None:
            # An ASGI server extension: subscriptions write their updates through it in one
            # synchronous step (api/feeds.py) instead of one task step per update.
            self.scope["extensions"][SEND_TEXT_NOWAIT] = self.send_text_nowait
            await super().run_asgi()

        def send_text_nowait(self, data: bytes) -> bool:
            """Write one text message (UTF-8 bytes) now, if the connection takes it as it is:
            open, writable (not paused by flow control), no extensions, nothing half sent.
            False changes nothing: the caller then sends the usual, awaiting way."""
            if (self.writable.is_set() and not self.disconnected and self.handshake_complete
                    and not self.close_sent and self.initial_response is None):
                conn = self.conn
                if conn._state is OPEN and not conn.expect_continuation_frame and not conn.extensions \
                        and not conn.writes and not conn.debug:
                    self.transport.write(text_frame(data))
                    return True
            return False

        async def send(self, message) -> None:
            """A text message on an open connection without extensions is framed here in
            one step (every subscription update is one); the websockets protocol object
            builds the same bytes through a frame object and its own buffer. Anything
            else - handshake, close, binary, a paused or closing transport - goes the
            usual way."""
            if (message["type"] == "websocket.send" and message.get("bytes") is None
                    and type(message.get("text")) is str and self.send_text_nowait(message["text"].encode())):
                return
            await super().send(message)
else:  # pragma: no cover
    SpreadPingWebSocketProtocol = None


def websocket_protocol():
    """uvicorn's `ws` setting: the spread-ping protocol, else uvicorn's own choice."""
    return SpreadPingWebSocketProtocol or "auto"
