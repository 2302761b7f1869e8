"""One pipelined Redis connection for the live store's hot command: the commit script.

Every accepted action is one commit. Through redis-py each cost about 50-100 us of CPU in
the server (connection pool, command packing and parsing layers, a timeout per read); here
a command is packed and written at once, and replies - parsed by hiredis, as redis-py's do -
resolve the waiting futures in the order the commands were sent, which is the order Redis
answers them on one connection. Concurrent commits share the connection.

A lost connection fails every command in flight with `redis.ConnectionError` (a commit then
reports the error, as before; whether Redis ran it is unknown, as with any client) and the
next command connects again. Redis error replies raise `redis.ResponseError`.
"""
from __future__ import annotations

import asyncio
import collections

import hiredis
from redis.exceptions import ConnectionError as RedisConnectionError, ResponseError

from api.live.redis_address import RedisAddress


class _Protocol(asyncio.Protocol):
    def __init__(self) -> None:
        self.reader = hiredis.Reader()
        self.waiting: collections.deque[asyncio.Future] = collections.deque()
        self.transport: asyncio.Transport | None = None
        self.closed = False

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        reader, waiting = self.reader, self.waiting
        reader.feed(data)
        while True:
            try:
                reply = reader.gets()
            except hiredis.ProtocolError as exc:
                self.transport.close()
                self._fail(RedisConnectionError(f"Redis protocol error: {exc}"))
                return
            if reply is False:
                return
            future = waiting.popleft()
            if future.done():  # its caller gave up; the reply still takes its turn
                continue
            if isinstance(reply, hiredis.ReplyError):
                future.set_exception(ResponseError(str(reply)))
            else:
                future.set_result(reply)

    def connection_lost(self, exc) -> None:
        self._fail(RedisConnectionError(f"Redis connection lost: {exc or 'closed'}"))

    def _fail(self, error: Exception) -> None:
        self.closed = True
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_exception(error)


class CommandConnection:
    def __init__(self, url: str) -> None:
        self.address = RedisAddress(url)
        self._protocol: _Protocol | None = None
        self._connecting = asyncio.Lock()

    async def _connected(self) -> _Protocol:
        protocol = self._protocol
        if protocol is not None and not protocol.closed:
            return protocol
        async with self._connecting:
            if self._protocol is not None and not self._protocol.closed:
                return self._protocol
            try:
                protocol = await self.address.open(_Protocol)
            except OSError as exc:
                raise RedisConnectionError(f"cannot connect to Redis: {exc}") from exc
            for command in self.address.greeting():
                await self._send(protocol, command)
            self._protocol = protocol
            return protocol

    @staticmethod
    def _send(protocol: _Protocol, command) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        protocol.waiting.append(future)
        protocol.transport.write(hiredis.pack_command(command))
        return future

    async def call(self, *command):
        return await self._send(await self._connected(), command)

    async def eval_script(self, sha: str, script: str, keys: list, args: list):
        """EVALSHA, and EVAL when Redis does not know the script yet (after a restart)."""
        try:
            return await self.call("EVALSHA", sha, len(keys), *keys, *args)
        except ResponseError as exc:
            if not str(exc).startswith("NOSCRIPT"):
                raise
            return await self.call("EVAL", script, len(keys), *keys, *args)

    async def close(self) -> None:
        if self._protocol is not None and self._protocol.transport is not None:
            self._protocol.transport.close()
