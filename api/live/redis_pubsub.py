"""The live store's subscription to published versions: one Redis connection in subscribe
mode, its replies parsed by hiredis (the parser redis-py uses too).

Every accepted action is published once and received once by every server process. Through
redis-py's `PubSub.get_message` each message cost about 50 us of CPU (its parse, timeout
and handler layers); here it is a parser call and a dispatch. Commands are few (SUBSCRIBE,
UNSUBSCRIBE, AUTH at connect) and written with `hiredis.pack_command`.

A lost connection is reported through `on_error` and re-opened with every channel
subscribed again; messages published in between are not replayed (followers notice the gap
at the next version and read the log).
"""
from __future__ import annotations

import asyncio
import logging
from typing import Callable

import hiredis

from api.live.redis_address import RedisAddress

log = logging.getLogger("conclave.redis")

RECONNECT_DELAY = 0.2
CONNECT_TIMEOUT = 10.0


class _Protocol(asyncio.Protocol):
    def __init__(self, owner: "Subscriber") -> None:
        self.owner = owner
        self.reader = hiredis.Reader()
        self.transport: asyncio.Transport | None = None
        self.lost = asyncio.get_running_loop().create_future()

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        reader = self.reader
        reader.feed(data)
        deliver = self.owner.on_message
        while True:
            try:
                reply = reader.gets()
            except hiredis.ProtocolError as exc:
                self.owner.on_error(exc)
                self.transport.close()
                return
            if reply is False:
                return
            if isinstance(reply, list) and len(reply) == 3 and reply[0] == b"message":
                deliver(reply[1], reply[2])
            elif isinstance(reply, hiredis.ReplyError):
                self.owner.on_error(reply)

    def connection_lost(self, exc) -> None:
        if not self.lost.done():
            self.lost.set_result(exc)


class Subscriber:
    """Channels subscribed on one connection; `on_message(channel, data)` for each message."""

    def __init__(self, url: str, on_message: Callable[[bytes, bytes], None],
                 on_error: Callable[[Exception], None], name: str = "conclave-live") -> None:
        self.address = RedisAddress(url)
        self.name = name  # CLIENT SETNAME: the connection is recognisable in CLIENT LIST
        self.on_message, self.on_error = on_message, on_error
        self.channels: set[str] = set()
        self._protocol: _Protocol | None = None
        self._ready = asyncio.Event()
        self._task: asyncio.Task | None = None

    def _write(self, *command) -> None:
        if self._protocol is not None and self._protocol.transport is not None:
            self._protocol.transport.write(hiredis.pack_command(command))

    async def subscribe(self, channel: str) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())
        try:
            await asyncio.wait_for(self._ready.wait(), CONNECT_TIMEOUT)
        except asyncio.TimeoutError:
            raise ConnectionError(f"no Redis subscription connection within {CONNECT_TIMEOUT} s") from None
        self.channels.add(channel)
        self._write("SUBSCRIBE", channel)

    def unsubscribe(self, channel: str) -> None:
        if channel in self.channels:
            self.channels.discard(channel)
            self._write("UNSUBSCRIBE", channel)

    async def _connect(self) -> _Protocol:
        protocol = await self.address.open(lambda: _Protocol(self))
        for command in (*self.address.greeting(select_db=False), ("CLIENT", "SETNAME", self.name)):
            protocol.transport.write(hiredis.pack_command(command))
        return protocol

    async def _run(self) -> None:
        while True:
            try:
                self._protocol = await self._connect()
                if self.channels:
                    self._write("SUBSCRIBE", *sorted(self.channels))
                self._ready.set()
                exc = await self._protocol.lost
                if exc is not None:
                    raise exc
                raise ConnectionError("Redis closed the subscription connection")
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - note it, reconnect, subscribe again
                self._ready.clear()
                self.on_error(exc)
                log.warning("redis pubsub error: %s", exc)
                await asyncio.sleep(RECONNECT_DELAY)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - closing
                pass
        if self._protocol is not None and self._protocol.transport is not None:
            self._protocol.transport.close()
