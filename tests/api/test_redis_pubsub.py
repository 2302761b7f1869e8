"""The live store's subscription connection (api/live/redis_pubsub.py), against the real
Redis: messages arrive, a killed connection is reported and re-opened with its channels,
an unsubscribed channel goes quiet."""
from __future__ import annotations

import asyncio
import os
import uuid

import redis.asyncio as redis

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
