"""A GraphQL load client on bare asyncio protocols, for benchmarks/api_load.py.

The load generator shares the 2-core machine with the server it measures: every bit of the
client's CPU is taken from the server's machine, and a busier machine lengthens the tail of
the server's latency. aiohttp costs about 0.7 ms of client CPU per action (one POST, five
WebSocket messages) when paced; this client speaks only what the benchmark needs, and only
to a loopback server:

- HTTP/1.1 POSTs of JSON on kept-alive connections (one pooled connection per request in
  flight), answers read by their Content-Length;
- WebSocket (RFC 6455) with the `graphql-transport-ws` subprotocol: the handshake, masked
  client frames, unmasked server frames, pong for every ping, a close ends the subscription.
  Each `next` message is handed to the caller in the step that reads it.

Anything unexpected (a status other than 200/101, a missing Content-Length, a fragmented
frame, an `error` message) raises `LoadError`, which the benchmark counts: a wrong answer is
never measured as a fast one.
"""
from __future__ import annotations

import asyncio
import base64
import os
import struct
import time
from urllib.parse import urlparse

import msgspec

HANDSHAKE_TIMEOUT = 10.0
IDLE_REUSE = 2.0  # seconds a kept-alive connection is reused after its last answer: well
                  # under uvicorn's 5 s keep-alive, so the server never closes one as it is sent on


class LoadError(Exception):
    """A request or subscription that did not go as a correct client expects."""


def _mask(payload: bytes) -> bytes:
    """One client frame's mask and masked payload (RFC 6455, 5.3)."""
    key = os.urandom(4)
    n = len(payload)
    repeated = (key * (n // 4 + 1))[:n]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(n, "big") if n else b""
    return key + masked


def client_frame(opcode: int, payload: bytes) -> bytes:
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    return head + _mask(payload)


class _HttpConnection(asyncio.Protocol):
    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.waiting: asyncio.Future | None = None
        self.closed = False

    def connection_made(self, transport) -> None:
        self.transport = transport

    def connection_lost(self, exc) -> None:
        self.closed = True
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_exception(LoadError(f"connection lost: {exc}"))

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0 or self.waiting is None or self.waiting.done():
            return
        head = bytes(self.buffer[:end]).decode("latin-1").split("\r\n")
        length = None
        for line in head[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        if length is None:
            self.waiting.set_exception(LoadError(f"no Content-Length: {head[0]}"))
            return
        if len(self.buffer) < end + 4 + length:
            return
        body = bytes(self.buffer[end + 4:end + 4 + length])
        del self.buffer[:end + 4 + length]
        status = int(head[0].split(" ", 2)[1])
        self.waiting.set_result((status, body))

    async def request(self, raw: bytes) -> tuple[int, bytes]:
        self.waiting = asyncio.get_running_loop().create_future()
        self.transport.write(raw)
        return await self.waiting


class _WebSocket(asyncio.Protocol):
    """One graphql-transport-ws connection; `on_message(data, t)` gets each text message."""

    def __init__(self, on_message) -> None:
        self.on_message = on_message
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.upgraded = asyncio.get_running_loop().create_future()
        self.ended = asyncio.get_running_loop().create_future()

    def connection_made(self, transport) -> None:
        self.transport = transport

    def connection_lost(self, exc) -> None:
        for f in (self.upgraded, self.ended):
            if not f.done():
                f.set_exception(LoadError(f"websocket connection lost: {exc}"))

    def fail(self, error: str) -> None:
        for f in (self.upgraded, self.ended):
            if not f.done():
                f.set_exception(LoadError(error))
        self.transport.close()

    def send_text(self, text: str) -> None:
        self.transport.write(client_frame(0x1, text.encode()))

    def data_received(self, data: bytes) -> None:
        t = time.monotonic()
        buf = self.buffer
        buf += data
        if not self.upgraded.done():
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(buf[:buf.find(b"\r\n")])
            del buf[:end + 4]
            if not status.startswith(b"HTTP/1.1 101"):
                self.fail(f"websocket upgrade refused: {status!r}")
                return
            self.upgraded.set_result(None)
        while len(buf) >= 2:
            first, second = buf[0], buf[1]
            n, start = second & 0x7F, 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, start = struct.unpack_from("!H", buf, 2)[0], 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, start = struct.unpack_from("!Q", buf, 2)[0], 10
            if second & 0x80 or not first & 0x80:
                self.fail("a masked or fragmented frame from the server")
                return
            if len(buf) < start + n:
                return
            payload = bytes(buf[start:start + n])
            del buf[:start + n]
            opcode = first & 0x0F
            if opcode == 0x1:
                self.on_message(payload, t)
            elif opcode == 0x9:
                self.transport.write(client_frame(0xA, payload))
            elif opcode == 0x8:
                code = struct.unpack_from("!H", payload)[0] if len(payload) >= 2 else None
                self.fail(f"websocket closed by the server: {code} {payload[2:]!r}")
                return


class LeanClient:
    name = "lean"

    def __init__(self, url: str, ws_url: str) -> None:
        self.url, self.ws_url = urlparse(url), urlparse(ws_url)
        self.idle: list[tuple[_HttpConnection, float]] = []  # (connection, when its answer came)

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()

    async def close(self) -> None:
        for conn, _ in self.idle:
            conn.transport.close()
        self.idle.clear()

    async def _connection(self) -> _HttpConnection:
        fresh_after = time.monotonic() - IDLE_REUSE
        while self.idle:
            conn, since = self.idle.pop()
            if not conn.closed and since > fresh_after:
                return conn
            conn.transport.close()
        _transport, conn = await self.loop.create_connection(_HttpConnection, self.url.hostname, self.url.port)
        return conn

    async def post(self, query: str, variables: dict, token: str | None = None) -> dict:
        body = msgspec.json.encode({"query": query, "variables": variables})
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        raw = (f"POST {self.url.path} HTTP/1.1\r\nHost: {self.url.netloc}\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(body)}\r\n{auth}\r\n").encode() + body
        conn = await self._connection()
        try:
            status, answer = await conn.request(raw)
        except BaseException:
            conn.transport.close()
            raise
        self.idle.append((conn, time.monotonic()))
        if status != 200:
            raise LoadError(f"HTTP {status}: {answer[:200]!r}")
        doc = msgspec.json.decode(answer)
        if doc.get("errors"):
            raise LoadError(f"GraphQL errors: {doc['errors']}")
        return doc["data"]

    async def subscribe(self, query: str, variables: dict, token: str | None, on_next, on_open) -> None:
        """Run one subscription until the server completes it (or the task is cancelled)."""
        acked = self.loop.create_future()
        ws: _WebSocket | None = None  # the connection, set below; messages come only after it is

        def on_message(data: bytes, t: float) -> None:
            m = msgspec.json.decode(data)
            kind = m.get("type")
            if kind == "next":
                payload = m["payload"]
                if payload.get("errors"):
                    ws.fail(f"subscription errors: {payload['errors']}")
                else:
                    on_next(payload["data"], t)
            elif kind == "connection_ack":
                acked.done() or acked.set_result(None)
            elif kind == "complete":
                ws.ended.done() or ws.ended.set_result(None)
            elif kind == "ping":
                ws.send_text('{"type":"pong"}')
            else:
                ws.fail(f"subscription message: {m}")

        key = base64.b64encode(os.urandom(16)).decode()
        transport, ws = await self.loop.create_connection(lambda: _WebSocket(on_message), self.ws_url.hostname,
                                                          self.ws_url.port)
        try:
            transport.write((f"GET {self.ws_url.path} HTTP/1.1\r\nHost: {self.ws_url.netloc}\r\nUpgrade: websocket\r\n"
                             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                             f"Sec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n").encode())
            await asyncio.wait_for(asyncio.shield(ws.upgraded), HANDSHAKE_TIMEOUT)
            init = {"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"} if token else {}}
            ws.send_text(msgspec.json.encode(init).decode())
            await asyncio.wait_for(asyncio.wait({acked, ws.ended}, return_when=asyncio.FIRST_COMPLETED),
                                   HANDSHAKE_TIMEOUT)
            if ws.ended.done():
                ws.ended.result()  # raises why
            if not acked.done():
                raise LoadError("no connection_ack")
            ws.send_text(msgspec.json.encode({"id": "1", "type": "subscribe",
                                              "payload": {"query": query, "variables": variables}}).decode())
            on_open()
            await ws.ended
        finally:
            transport.close()
