"""Keepalive pings are spread (api/ws_protocol.py): each comes after 75-100% of the
interval (less the last round trip), so connections opened together drift apart."""
from __future__ import annotations

import random

from websockets.frames import Frame, Opcode

from api.ws_protocol import SpreadPingWebSocketProtocol, text_frame, websocket_protocol


class FakeLoop:
    def __init__(self) -> None:
        self.delays: list[float] = []

    def call_later(self, delay, callback):
        self.delays.append(delay)
        return object()


def test_pings_come_after_a_random_three_quarters_to_all_of_the_interval():
    assert websocket_protocol() is SpreadPingWebSocketProtocol
    protocol = SpreadPingWebSocketProtocol.__new__(SpreadPingWebSocketProtocol)
    protocol.loop, protocol.ping_interval, protocol.last_ping_rtt = FakeLoop(), 20.0, 0.5
    random.seed(3)
    for _ in range(400):
        protocol.schedule_ping()
    delays = protocol.loop.delays
    assert all(0.75 * 19.5 <= d <= 19.5 for d in delays)
    assert max(delays) - min(delays) > 4.0  # spread, not one schedule for every connection


def test_a_text_frame_is_the_websockets_librarys_own():
    """The one-step framing of subscription messages gives byte for byte the frame the
    websockets library builds, at every length boundary."""
    for n in (0, 1, 125, 126, 127, 65535, 65536, 70000):
        payload = ("é" * n).encode()[:n] if n else b""
        assert text_frame(payload) == Frame(Opcode.TEXT, payload, True).serialize(mask=False, extensions=[])
