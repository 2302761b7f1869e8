"""Memory stays flat under a long-lived subscription: 20,000 updates on one subscription,
in process with the real service, store and schema. A control run with graphql-core's
stock executor shows the growth this guards against (a memo entry per update)."""
from __future__ import annotations

import asyncio
import gc

import pytest
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

from api.app import limit_rules, schema_extensions
from api.db import Database
from api.live.memory import MemoryStore
from api.service import TableService
from api.settings import Settings
from core.plugins import BUILTIN_PLUGINS, Registry
from schema.build import build_schema
from schema.execution import FastExecutionContext, PerEventMemoExecutionContext
from schema.prepared import DocumentCache

SUBSCRIPTION = """subscription($t: String!) { tableUpdates(tableId: $t, afterVersion: 0) {
  version events table { version status phase { name round } prompts { kind seat } } } }"""


def rss_kib() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4


async def deliver(tmp_path, updates: int, marks: tuple[int, ...], executor,
                  lean: bool = False) -> dict[int, tuple[int, int]]:
    registry = Registry([*BUILTIN_PLUGINS, "tests.api.endless"], load_entry_points=False)
    db = Database(f"sqlite:///{tmp_path / 'mem.sqlite3'}")
    unlimited = Settings(rate_per_second=1e9, rate_burst=10**9, allow_chosen_seeds=True)  # this test measures memory, not limits
    service = TableService(registry, MemoryStore(db), db, unlimited)
    rules = limit_rules(Settings())
    schema = build_schema(registry, schema_extensions(Settings(), rules), execution_context_class=executor)
    if lean:  # as the app builds it: subscriptions on the lean path (schema/streaming.py)
        schema.documents = DocumentCache(schema, Settings().max_tokens, rules)
    loaded, _host, code = await service.create_table("endless", 1, seed=1)
    token, _ = await service.join(loaded.id, 0, "solo", code)
    stream = await schema.subscribe(SUBSCRIPTION, variable_values={"t": loaded.id},
                                    context_value={"service": service, "token": token})
    received = []
    seen: dict[int, tuple[int, int]] = {}

    async def consume():
        async for result in stream:
            assert not result.errors, result.errors
            received.append(result.data["tableUpdates"]["version"])
            if len(received) == updates:
                return

    task = asyncio.create_task(consume())
    for i in range(1, updates + 1):
        await service.act(loaded.id, token, {"type": "tick", "params": {"n": 1}})
        if i % 20 == 0:
            await asyncio.sleep(0)
        if i in marks:
            while len(received) < i:
                await asyncio.sleep(0.001)
            gc.collect()
            seen[i] = (len(gc.get_objects()), rss_kib())
    await asyncio.wait_for(task, 30)
    assert received == list(range(1, updates + 1))
    await stream.aclose()
    return seen


@pytest.mark.parametrize("path", ["lean", "strawberry"])
def test_twenty_thousand_updates_on_one_subscription_keep_objects_and_memory_flat(tmp_path, path):
    """Both ways a subscription can run: the server's own (lean paths, compiled completion)
    and strawberry's pipeline (what any other document gets)."""
    executor = FastExecutionContext if path == "lean" else PerEventMemoExecutionContext
    seen = asyncio.run(deliver(tmp_path, 20_000, (2_000, 20_000), executor, lean=path == "lean"))
    (objs_a, rss_a), (objs_b, rss_b) = seen[2_000], seen[20_000]
    assert objs_b - objs_a < 1_000, seen      # 18,000 more updates, no more live objects
    assert rss_b - rss_a < 16 * 1024, seen    # and no more than noise in resident memory


def test_control_the_stock_executor_grows_with_every_update(tmp_path):
    """Proves the test above can fail: graphql-core's shared per-subscription memo grows."""
    seen = asyncio.run(deliver(tmp_path, 1_500, (500, 1_500), StrawberryGraphQLCoreExecutionContext))
    assert seen[1_500][0] - seen[500][0] > 10 * 1_000  # more than 10 objects per update
