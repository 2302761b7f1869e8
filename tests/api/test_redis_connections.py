"""The live store's own Redis connections, against the real Redis:
- the subscription connection (api/live/redis_pubsub.py): messages arrive, a killed
  connection is reported and re-opened with its channels, an unsubscribed channel goes quiet;
- the pipelined command connection (api/live/redis_commands.py): concurrent commands get
  their own replies, error replies raise, an unknown script is sent whole, a killed
  connection fails what was in flight and the next command connects again."""
from __future__ import annotations

import asyncio
import hashlib
import os
import uuid

import redis.asyncio as redis

from api.live.redis_commands import CommandConnection
from api.live.redis_pubsub import Subscriber
from tests.api.services import redis_available


async def until(condition, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


async def subscribed(admin, channel: str) -> None:
    while (await admin.pubsub_numsub(channel))[0][1] != 1:
        await asyncio.sleep(0.02)


def test_messages_arrive_and_a_killed_connection_comes_back_subscribed():
    url = redis_available()

    async def scenario():
        got, errors = [], []
        name = f"conclave-test-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        sub = Subscriber(url, lambda channel, data: got.append((channel, data)), errors.append, name=name)
        admin = redis.Redis.from_url(url)
        channel = f"test:{{{uuid.uuid4().hex}}}:updates"
        try:
            await sub.subscribe(channel)
            await subscribed(admin, channel)
            assert await admin.publish(channel, b"one") == 1
            await until(lambda: (channel.encode(), b"one") in got)

            clients = await admin.client_list()
            ours = [c for c in clients if c.get("name") == name]
            assert len(ours) == 1
            await admin.client_kill_filter(_id=ours[0]["id"])
            await until(lambda: errors)  # reported ...
            await asyncio.wait_for(subscribed(admin, channel), 5)  # ... and subscribed again
            assert await admin.publish(channel, b"two") == 1
            await until(lambda: (channel.encode(), b"two") in got)

            sub.unsubscribe(channel)
            await asyncio.sleep(0.1)
            assert await admin.publish(channel, b"three") == 0
        finally:
            await sub.close()
            await admin.aclose()

    asyncio.run(scenario())


def test_pipelined_commands_get_their_own_replies_and_survive_a_lost_connection():
    url = redis_available()
    key = f"test:{{{uuid.uuid4().hex}}}:n"
    script = "return redis.call('INCRBY', KEYS[1], ARGV[1])"

    async def scenario():
        conn = CommandConnection(url)
        admin = redis.Redis.from_url(url)
        try:
            await admin.script_flush()  # the first EVALSHA meets NOSCRIPT and sends the script
            sha = hashlib.sha1(script.encode()).hexdigest()
            replies = await asyncio.gather(*(conn.call("ECHO", f"reply-{i}") for i in range(200)))
            assert replies == [f"reply-{i}".encode() for i in range(200)]
            totals = await asyncio.gather(*(conn.eval_script(sha, script, [key], [1]) for _ in range(50)))
            assert sorted(totals) == list(range(1, 51))
            try:
                await conn.call("INCRBY", key, "not-a-number")
                raise AssertionError("an error reply must raise")
            except redis.ResponseError as exc:
                assert "not an integer" in str(exc)
            assert await conn.call("GET", key) == b"50"  # the connection goes on after an error

            in_flight = asyncio.ensure_future(conn.call("BLPOP", f"{key}:never", 5))
            await asyncio.sleep(0.1)
            blocked = [c for c in await admin.client_list() if c.get("cmd") == "blpop"]
            await admin.client_kill_filter(_id=blocked[0]["id"])
            try:
                await asyncio.wait_for(in_flight, 5)
                raise AssertionError("a command in flight on a lost connection must fail")
            except redis.ConnectionError:
                pass
            assert await conn.call("INCRBY", key, 1) == 51  # connected again
        finally:
            await conn.close()
            await admin.delete(key)
            await admin.aclose()

    asyncio.run(scenario())


async def kill_named(admin, name: str) -> int:
    """CLIENT KILL every connection named `name` (only this test's: the Redis is shared)."""
    ours = [c for c in await admin.client_list() if c.get("name") == name]
    for c in ours:
        await admin.client_kill_filter(_id=c["id"])
    return len(ours)


def test_the_live_stores_reads_retry_once_after_its_connections_are_killed():
    """Issue 13: a read after a `CLIENT KILL` failed once (redis-py finds a pooled connection
    dead only when a command fails on it). Every read of the Redis store - several pooled
    connections idle, all killed - now answers on the first call."""
    from api.live.redis_store import RedisStore

    url = redis_available()
    name = f"conclave-test-store-{os.getpid()}-{uuid.uuid4().hex[:6]}"
    prefix = f"retry-{uuid.uuid4().hex[:8]}"

    async def scenario():
        errors = []
        store = RedisStore(url, prefix, on_error=errors.append, client_name=name)
        admin = redis.Redis.from_url(url)
        try:
            await store.create("t1", {"game": "x", "players": 1, "host_token_hash": "h"}, b"state")
            reads = {
                "version": lambda: store.version("t1"),
                "load": lambda: store.load("t1"),
                "entries": lambda: store.entries("t1", 0),
                "seats": lambda: store.seats("t1"),
                "token_owner": lambda: store.token_owner("h"),
                "table_ids": store.table_ids,
                "ping": store.ping,
            }
            expected = {k: await read() for k, read in reads.items()}
            for what, read in reads.items():
                await asyncio.gather(*(store.version("t1") for _ in range(4)))  # idle pooled connections
                assert await kill_named(admin, name) >= 1
                assert await read() == expected[what], what
            assert len(errors) == len(reads)  # each lost connection was reported
        finally:
            await admin.delete(*[k async for k in admin.scan_iter(f"{prefix}:*")])
            await store.close()
            await admin.aclose()

    asyncio.run(scenario())
