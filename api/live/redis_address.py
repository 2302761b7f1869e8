"""Where the live store's own Redis connections go (api/live/redis_commands.py,
api/live/redis_pubsub.py): one reading of REDIS_URL, with redis-py's own URL parser, and
one way to open a connection and greet the server."""
from __future__ import annotations

import asyncio
import ssl as ssl_module

from redis.connection import parse_url


class RedisAddress:
    def __init__(self, url: str) -> None:
        self.params = parse_url(url)
        self.tls = url.startswith("rediss://")

    async def open(self, protocol_factory):
        """A connected protocol (TCP, TLS for rediss://, or a unix socket); OSError if none."""
        p = self.params
        loop = asyncio.get_running_loop()
        if p.get("path"):
            _, protocol = await loop.create_unix_connection(protocol_factory, p["path"])
        else:
            _, protocol = await loop.create_connection(
                protocol_factory, p.get("host", "localhost"), p.get("port", 6379),
                ssl=ssl_module.create_default_context() if self.tls else None)
        return protocol

    def greeting(self, select_db: bool = True) -> list[tuple]:
        """The commands a new connection sends first: AUTH when the URL has a password, SELECT
        when it names a database other than 0 (subscriptions ignore databases)."""
        p, out = self.params, []
        if p.get("password"):
            out.append(("AUTH", p["username"], p["password"]) if p.get("username") else ("AUTH", p["password"]))
        if select_db and p.get("db"):
            out.append(("SELECT", str(p["db"])))
        return out
