"""`api.feeds`: direct subscriptions get every version once, in order, whatever way each
update takes - written in the feed's step, queued behind flow control or a slow send, read
from the log after a missed notification - and end with the game.

In process: one service on the embedded store, subscribers whose "connection" is a list.
"""
from __future__ import annotations

import asyncio
import random

import pytest

from api.db import Database
from api.feeds import FeedSubscription
from api.live.memory import MemoryStore
from api.metrics import METRICS
from api.service import TableService
from api.settings import Settings
from core.bot import RandomBot
from core.engine import active_seats
from core.plugins import BUILTIN_PLUGINS, Registry


@pytest.fixture
def service(tmp_path):
    registry = Registry([*BUILTIN_PLUGINS, "tests.api.endless"], load_entry_points=False)
    db = Database(f"sqlite:///{tmp_path / 's.sqlite3'}")
    return TableService(registry, MemoryStore(db), db, Settings(rate_per_second=1e9, rate_burst=10**9, allow_chosen_seeds=True))


class Connection:
    """A subscriber's end: what arrived, and which way. `refuse` is how often the synchronous
    write is refused (flow control); `slow` makes the awaiting send take a while."""

    def __init__(self, refuse: float = 0.0, slow: float = 0.0, seed: int = 0) -> None:
        self.got: list[int] = []
        self.direct = self.awaited = 0
        self.refuse, self.slow, self.rng = refuse, slow, random.Random(seed)

    def send_now(self, update) -> bool:
        if self.rng.random() < self.refuse:
            return False
        self.got.append(update)
        self.direct += 1
        return True

    async def send(self, update) -> None:
        if self.slow:
            await asyncio.sleep(self.slow * self.rng.random())
        self.got.append(update)
        self.awaited += 1


def follow(service, table_id, after, conn: Connection) -> asyncio.Task:
    sub = FeedSubscription(service, table_id, after, lambda entry, loaded: entry["version"])
    return asyncio.create_task(sub.run_direct(conn.send_now, conn.send))


async def settle(*conns, until: int, timeout: float = 10) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while any((c.got[-1] if c.got else 0) < until for c in conns):
        assert asyncio.get_running_loop().time() < deadline, [c.got[-3:] for c in conns]
        await asyncio.sleep(0.01)


def test_every_version_once_in_order_whichever_way_it_goes(service):
    async def scenario():
        loaded, _, code = await service.create_table("endless", 2, seed=1)
        tokens = [(await service.join(loaded.id, s, f"P{s}", code))[0] for s in range(2)]

        async def act(n):
            for _ in range(n):
                table = await service.load(loaded.id)
                seat = min(active_seats(table.state))
                await service.act(loaded.id, tokens[seat], {"type": "tick", "params": {"n": 1}})
                # actions arrive apart, as requests do: an embedded commit (SQLite, written on the
                # loop) never yields, and the subscribers' tasks run in between
                await asyncio.sleep(0.002)

        await act(5)
        caught_up, refused, slow, late = Connection(), Connection(refuse=0.3, seed=2), Connection(slow=0.01, seed=3), \
            Connection(refuse=0.1, slow=0.005, seed=4)
        tasks = [follow(service, loaded.id, 5, caught_up), follow(service, loaded.id, 0, refused),
                 follow(service, loaded.id, 2, slow)]
        await asyncio.sleep(0.05)
        await act(20)
        tasks.append(follow(service, loaded.id, 7, late))  # joins mid-stream, from the log
        await act(20)
        # a missed notification: the feed does not hear version 46; 47 shows the gap
        feed = service._feeds[loaded.id]
        service.store.listeners.remove(loaded.id, feed)
        await act(1)
        service.store.listeners.add(loaded.id, feed)
        await act(4)
        await settle(caught_up, refused, slow, late, until=50)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return caught_up, refused, slow, late, feed

    caught_up, refused, slow, late, feed = asyncio.run(scenario())
    assert caught_up.got == list(range(6, 51))
    assert refused.got == list(range(1, 51))
    assert slow.got == list(range(3, 51))
    assert late.got == list(range(8, 51))
    # a caught-up subscriber's updates go the direct way, except the missed 46 and the 47 that
    # showed the gap: both are read from the log and sent by its task
    assert caught_up.direct == 45 - 2 and caught_up.awaited == 2
    assert refused.awaited >= 5 + 10 and refused.direct >= 20  # its catch-up, the refusals, and what queued behind them
    assert feed.subscribers == set() and service._feeds == {}  # all four left: the feed closed


def test_a_direct_subscription_ends_with_the_game_and_stops_listening(service):
    """A whole New Capital game by bots through the service: the update of the last version
    is the last one, the subscription returns by itself, and the table has no listener."""
    async def scenario():
        loaded, _, code = await service.create_table("new-capital", 2, seed=7)
        tokens = [(await service.join(loaded.id, s, f"P{s}", code))[0] for s in range(2)]
        conn = Connection(refuse=0.05, seed=9)
        open_before = METRICS.subscriptions._value.get()
        task = follow(service, loaded.id, 0, conn)
        await asyncio.sleep(0.02)
        assert METRICS.subscriptions._value.get() == open_before + 1
        bot = RandomBot(seed=5)
        table = loaded
        while not table.state.finished:
            seat, action = bot.choose(table)
            table = await service.act(loaded.id, tokens[seat], {"type": action.type, "params": action.params})
        await asyncio.wait_for(task, 10)  # returns by itself
        listeners = service.store.listeners.count()
        return conn, table.version, listeners, METRICS.subscriptions._value.get() - open_before

    conn, last, listeners, still_open = asyncio.run(scenario())
    assert conn.got == list(range(1, last + 1))
    assert listeners == 0 and still_open == 0


def test_an_unknown_table_fails_before_anything_is_sent(service):
    conn = Connection()

    async def scenario():
        with pytest.raises(Exception) as err:
            await follow(service, "no-such-table", 0, conn)
        return err.value

    assert getattr(asyncio.run(scenario()), "code", None) == "UNKNOWN_TABLE"
    assert conn.got == [] and service._feeds == {}
