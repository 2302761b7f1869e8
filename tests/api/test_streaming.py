"""`schema.streaming` streams subscriptions exactly as strawberry's `Schema.stream` does.

In process, one service and two schemas: one with a document cache (the lean path, as the
app builds it) and one without (strawberry's own pipeline). The same subscriptions, with
the same tokens, at the same table: the backlog and then live updates, a selection whose
`log` needs graphql-core's own completion, variables that do not coerce, an unknown table
and a document that does not validate must all give the same results, formatted.
"""
from __future__ import annotations

import asyncio

import pytest

from api.app import limit_rules, schema_extensions
from api.db import Database
from api.live.memory import MemoryStore
from api.service import TableService
from api.settings import Settings
from core.plugins import BUILTIN_PLUGINS, Registry
from schema.build import build_schema
from schema.execution import FastExecutionContext
from schema.prepared import DocumentCache
from schema.streaming import ConclaveSchema

UPDATES = """subscription($t: String!, $after: Int!) { tableUpdates(tableId: $t, afterVersion: $after) {
  version events table { version status activeSeats legalActions { type params } prompts { kind seat options { type } }
  phase { name round } stateJson } } }"""
WITH_LOG = """subscription($t: String!) { tableUpdates(tableId: $t, afterVersion: 2) {
  version table { log(afterVersion: 1) { version seat action { type } } } } }"""
INVALID = "subscription { tableUpdates(tableId: 5) { version nope } }"


def formatted(result) -> dict:
    out = {"data": result.data}
    if result.errors:
        out["errors"] = [e.formatted for e in result.errors]
    return out


async def take(schema, query: str, variables: dict, token: str | None, service, count: int) -> list[dict]:
    stream = await schema.subscribe(query, variable_values=variables, context_value={"service": service, "token": token})
    got = []
    async for result in stream:
        got.append(formatted(result))
        if len(got) == count or result.errors:
            break
    await stream.aclose()
    return got


@pytest.fixture
def world(tmp_path, monkeypatch):
    registry = Registry([*BUILTIN_PLUGINS, "tests.api.endless"], load_entry_points=False)
    db = Database(f"sqlite:///{tmp_path / 's.sqlite3'}")
    settings = Settings(rate_per_second=1e9, rate_burst=10**9, allow_chosen_seeds=True)
    service = TableService(registry, MemoryStore(db), db, settings)
    rules = limit_rules(settings)
    lean = build_schema(registry, schema_extensions(settings, rules))
    lean.documents = DocumentCache(lean, settings.max_tokens, rules)
    stock = build_schema(registry, schema_extensions(settings, rules))
    streams = []
    original = ConclaveSchema._events

    def counting(self, *args):
        streams.append(self)
        return original(self, *args)

    monkeypatch.setattr(ConclaveSchema, "_events", counting)
    executed = []  # schemas whose events graphql-core executed from the root
    original_execute = FastExecutionContext.execute_operation

    def execute_operation(self, *args):
        executed.append(self.schema)
        return original_execute(self, *args)

    monkeypatch.setattr(FastExecutionContext, "execute_operation", execute_operation)
    return service, lean, stock, streams, executed


def test_backlog_and_live_updates_are_the_same_for_every_viewer(world):
    """Also: the lean path completes healthy events itself; only the selection with `log`
    (an async field) falls back to graphql-core, once per event."""
    service, lean, stock, streams, executed = world

    async def scenario():
        loaded, _host, code = await service.create_table("endless", 2, seed=3)
        tokens = [(await service.join(loaded.id, s, f"P{s}", code))[0] for s in range(2)]
        for i in range(4):
            await service.act(loaded.id, tokens[i % 2], {"type": "tick", "params": {"n": 1}})
        results = {}
        for name, schema in (("lean", lean), ("stock", stock)):
            for viewer, token in (("seat0", tokens[0]), ("seat1", tokens[1]), ("public", None)):
                task = asyncio.create_task(take(schema, UPDATES, {"t": loaded.id, "after": 1}, token, service, 6))
                await asyncio.sleep(0.05)
                results[name, viewer] = task
            results[name, "log"] = asyncio.create_task(take(schema, WITH_LOG, {"t": loaded.id}, tokens[1], service, 2))
        await asyncio.sleep(0.05)
        for i in range(3):
            await service.act(loaded.id, tokens[i % 2], {"type": "tick", "params": {"n": 2}})
        return {k: await asyncio.wait_for(t, 10) for k, t in results.items()}

    got = asyncio.run(scenario())
    for viewer in ("seat0", "seat1", "public", "log"):
        assert got["lean", viewer] == got["stock", viewer], viewer
    assert [r["data"]["tableUpdates"]["version"] for r in got["lean", "seat0"]] == [2, 3, 4, 5, 6, 7]
    assert got["lean", "seat0"] != got["lean", "public"]  # the views differ: the comparison is per viewer
    assert len(streams) == 4 and all(s is lean for s in streams)
    assert executed.count(lean._schema) == len(got["lean", "log"]) == 2
    assert executed.count(stock._schema) == 3 * 6 + 2


@pytest.mark.parametrize("query,variables", [
    (UPDATES, {"t": 5, "after": 0}),                 # variables that do not coerce: strawberry answers
    (UPDATES, {"t": "no-such-table", "after": 0}),   # the source fails: one error, then the end
    (INVALID, {}),                                    # fails validation: strawberry answers
    ("subscription { tableUpdates(tableId: ", {}),   # a syntax error: it ended the stream's task with a traceback
], ids=["bad-variables", "unknown-table", "invalid", "syntax"])
def test_failures_end_the_same_way(world, query, variables):
    """Also: each ends with one error result whose errors all carry a code (issue 13)."""
    service, lean, stock, streams, executed = world
    lean_got = asyncio.run(take(lean, query, variables, None, service, 3))
    stock_got = asyncio.run(take(stock, query, variables, None, service, 3))
    assert lean_got == stock_got and lean_got and lean_got[-1].get("errors")
    assert all(e["extensions"]["code"] for e in lean_got[-1]["errors"]), lean_got
