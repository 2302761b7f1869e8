"""The compiled completion path (`schema.fast_completion`) gives graphql-core's answers.

Differential tests: the same document, root value and context executed with the stock
executor and with `FastExecutionContext` must give the same formatted result (data and
errors, with paths and null propagation), for
- every field of `Table` (from schema.graphql, every union member spread) over real table
  states of every game, with and without modules, for every seat and the public view;
- a small schema built to hit each edge: resolver errors, nulls in non-null fields and list
  items, unions, leaves that cannot serialise, async fields, arguments, directives.
And the fast path really serves the healthy cases: each resolver below the root runs once.
"""
from __future__ import annotations

import asyncio
import gc
import inspect
from typing import Annotated, Union

import pytest
import strawberry
from graphql import execute, parse
from graphql.execution.executor import Executor

from api.service import Loaded
from core import create_table, default_registry
from core.bot import RandomBot
from core.engine import active_seats
from schema.build import build_schema
from schema.execution import PLANS, FastExecutionContext, PerEventMemoExecutionContext
from tests.api.test_auth_and_secrets import selection

REGISTRY = default_registry()
SCHEMA = build_schema(REGISTRY)
EVERY_FIELD = parse("subscription { tableUpdates(tableId: \"t\", afterVersion: 0) { version events table "
                    + selection("Table") + " } }")
SEAT_UPDATES = parse("""subscription($t: String!, $after: Int!) { tableUpdates(tableId: $t, afterVersion: $after) {
  version events table { version status activeSeats legalActions { type params } } } }""")


class LogOnly:
    """The service calls `Table` makes below the root: `log`, and `undo_refusal` (a fixed
    answer: both executors must give the same one)."""

    def __init__(self, entries: list[dict]) -> None:
        self.entries = entries

    async def log(self, table_id: str, after_version: int) -> list[dict]:
        return [e for e in self.entries if e["version"] > after_version]

    async def undo_refusal(self, loaded, seat) -> str | None:
        return "UNDO_NOT_YOURS" if seat is None else None


def run(schema, document, root, context, executor_class, variables=None) -> dict:
    result = execute(schema, document, root_value=root, context_value=context, variable_values=variables,
                     executor_class=executor_class)
    if inspect.isawaitable(result):
        result = asyncio.run(result)
    return result.formatted


def both(schema, document, root, context, variables=None) -> tuple[dict, dict]:
    return (run(schema, document, root, context, PerEventMemoExecutionContext, variables),
            run(schema, document, root, context, FastExecutionContext, variables))


def update(loaded: Loaded, viewer: int | None):
    update_type = SCHEMA.get_type_by_name("TableUpdate").origin
    table_type = SCHEMA.get_type_by_name("Table").origin
    return update_type(version=loaded.version, events=[{"type": "demo"}], table=table_type(_t=loaded, _viewer=viewer))


GAMES = [("new-capital", 4, []), ("new-capital", 3, ["guildmasters", "faction-heroes", "dilemmas"]),
         ("new-capital", 1, []), ("queens-dilemma", 4, ["age-of-disorder"])]


@pytest.mark.parametrize("game,players,modules", GAMES)
def test_every_table_field_completes_as_graphql_core_does_for_every_viewer(game, players, modules):
    table = create_table(game, players, seed=4, modules=modules)
    bot = RandomBot(4)
    entries: list[dict] = []
    compared = 0
    for step in range(60):
        if table.state.finished:
            break
        if step % 15 == 0:
            meta = {"game": game, "modules": modules, "players": players, "seed": table.state.seed,
                    "seats": {i: {"name": f"P{i}"} for i in range(players)}}
            loaded = Loaded(id="t", meta=meta, version=step, state=table.state, rules=table.rules)
            for viewer in [None, *range(players)]:
                stock, fast = both(SCHEMA._schema, EVERY_FIELD, update(loaded, viewer), {"service": LogOnly(entries)})
                assert "errors" not in stock, stock.get("errors")
                assert fast == stock, f"{game} step {step} viewer {viewer}"
                compared += 1
        seat, action = bot.choose(table)
        table.act(seat, action)
        entries.append({"version": len(entries) + 1, "seat": seat, "events": [],
                        "action": {"type": action.type, "params": dict(action.params)}})
    assert compared >= 2 * (players + 1)


def test_a_seats_update_is_served_by_the_compiled_path():
    table = create_table("new-capital", 4, seed=2)
    loaded = Loaded(id="t", meta={"game": "new-capital", "modules": [], "players": 4, "seats": {}, "seed": 2},
                    version=0, state=table.state, rules=table.rules)
    seat = active_seats(table.state)[0]
    root = update(loaded, seat)
    variables = {"t": "t", "after": 0}
    stock, fast = both(SCHEMA._schema, SEAT_UPDATES, root, {}, variables)
    assert fast == stock and fast["data"]["tableUpdates"]["table"]["legalActions"]
    details = [entry for entry in PLANS.entries.values() if entry[1] is not None]
    assert any(nodes[0].name.value == "tableUpdates" for nodes, _, _ in details)


# -- the edges, on a schema built for them ------------------------------------------------------
CALLS: dict[str, int] = {}


def counted(name: str) -> None:
    CALLS[name] = CALLS.get(name, 0) + 1


@strawberry.type
class Item:
    name: str
    rank: int = 0

    @strawberry.field
    def shout(self) -> str:
        counted("shout")
        return self.name.upper()

    @strawberry.field
    def boom(self) -> str:
        raise ValueError(f"boom {self.name}")

    @strawberry.field
    def quiet_boom(self) -> str | None:
        raise ValueError(f"quiet {self.name}")

    @strawberry.field
    def must(self) -> str:
        return None  # type: ignore[return-value] - a null where the schema forbids one

    @strawberry.field
    def bad_leaf(self) -> int:
        return "not a number"  # type: ignore[return-value]

    @strawberry.field
    def big(self) -> int:
        return 2 ** 40  # outside GraphQL's 32-bit Int: an error

    @strawberry.field
    def truth(self) -> int:
        return True  # type: ignore[return-value] - graphql-core serialises a bool as 1

    @strawberry.field
    def number_text(self) -> str:
        return 7  # type: ignore[return-value] - and an int as "7"

    @strawberry.field
    def times(self, n: int = 2) -> list[str]:
        counted("times")
        return [self.name] * n

    @strawberry.field
    async def later(self) -> str:
        return self.name + " later"


@strawberry.type
class Other:
    code: int


Either = Annotated[Union[Item, Other], strawberry.union("Either")]


@strawberry.type
class Query:
    @strawberry.field
    def items(self) -> list[Item | None]:
        return [Item(name="a", rank=1), None, Item(name="b")]

    @strawberry.field
    def strict(self) -> list[Item]:
        return [Item(name="a"), None]  # type: ignore[list-item]

    @strawberry.field
    def mixed(self) -> list[Either]:
        return [Item(name="x"), Other(code=7)]

    @strawberry.field
    def wrong_member(self) -> Either:
        return "neither"  # type: ignore[return-value]

    @strawberry.field
    def one(self) -> Item:
        return Item(name="solo", rank=3)


EDGE_SCHEMA = {cls: strawberry.Schema(query=Query, execution_context_class=cls)._schema
               for cls in (PerEventMemoExecutionContext, FastExecutionContext)}

EDGE_DOCUMENTS = [
    "{ items { name rank shout } one { name shout times } }",
    "{ one { a: name b: name times(n: 3) } items { __typename name } }",
    "{ items { name boom } }",
    "{ items { name quietBoom } one { quietBoom } }",
    "{ items { must } }",
    "{ one { must } }",
    "{ strict { name } }",
    "{ one { badLeaf } }",
    "{ one { big } items { name } }",
    "{ one { truth numberText rank } }",
    "{ mixed { __typename ... on Item { name shout } ... on Other { code } } }",
    "{ wrongMember { __typename ... on Other { code } } }",
    "{ one { name later } items { later } }",
    "query($n: Int!) { one { times(n: $n) } }",
    "query($skip: Boolean!) { one { name @skip(if: $skip) rank } }",
    "fragment F on Item { name shout } { items { ...F } one { ...F rank } }",
]


@pytest.mark.parametrize("document", EDGE_DOCUMENTS)
def test_edge_cases_give_graphql_cores_data_errors_and_paths(document):
    variables = {"n": 4, "skip": True}
    results = [run(EDGE_SCHEMA[cls], parse(document), None, {}, cls, variables)
               for cls in (PerEventMemoExecutionContext, FastExecutionContext)]
    assert results[1] == results[0]


def test_healthy_documents_never_reach_graphql_cores_completion(monkeypatch):
    """A miss re-runs a subtree on graphql-core's path (resolvers there only read); a healthy
    document is completed by the compiled path alone, each resolver running once per value,
    while an erring one falls back."""
    stock_completions = []
    original = Executor.complete_value

    def spy(self, *args):
        stock_completions.append(args[0])
        return original(self, *args)

    monkeypatch.setattr(Executor, "complete_value", spy)
    document = parse("{ items { name shout times } one { shout times(n: 1) } mixed { ... on Item { shout } } }")
    CALLS.clear()
    run(EDGE_SCHEMA[FastExecutionContext], document, None, {}, FastExecutionContext)
    assert CALLS == {"shout": 4, "times": 3}
    assert stock_completions == []
    run(EDGE_SCHEMA[FastExecutionContext], parse("{ items { name boom } }"), None, {}, FastExecutionContext)
    assert stock_completions
    stock_completions.clear()
    CALLS.clear()
    run(EDGE_SCHEMA[PerEventMemoExecutionContext], document, None, {}, PerEventMemoExecutionContext)
    assert CALLS == {"shout": 4, "times": 3}


def test_an_executed_request_leaves_nothing_for_the_cycle_collector():
    """graphql-core's executor holds its resolver helpers as bound methods (a cycle); the
    fast executor's helpers hold it weakly, so a request's objects go with the request."""
    document = parse("{ one { name shout } items { name } }")

    def garbage_after(cls) -> int:
        for _ in range(3):  # first runs compile plans and fill caches: not per request
            run(EDGE_SCHEMA[cls], document, None, {}, cls)
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            for _ in range(20):
                run(EDGE_SCHEMA[cls], document, None, {}, cls)
            gc.collect()
            return len(gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()

    assert garbage_after(PerEventMemoExecutionContext) >= 20  # the control: one cycle per request
    assert garbage_after(FastExecutionContext) == 0


def test_variable_signatures_are_graphql_cores_kept_per_definition():
    """schema.execution.VariableSignatures: the same signatures (and errors) as graphql-core's
    own function, worked out once per (schema, definition)."""
    from graphql import build_schema as sdl_schema, parse
    from graphql.execution import values as graphql_values

    from schema.execution import VariableSignatures

    cached = graphql_values.get_variable_signature
    assert isinstance(cached, VariableSignatures)
    schema = sdl_schema("input In { a: Int } type Query { f(x: In, y: [Int!]): Int } type T { a: Int }")
    document = parse("query($x: In = {a: 1}, $y: [Int!]!, $bad: T) { f(x: $x, y: $y) }")
    calls = []

    def counting(s, node):
        calls.append(node)
        return cached.original(s, node)

    fresh = VariableSignatures(counting)
    for var_def in document.definitions[0].variable_definitions:
        first, again = fresh(schema, var_def), fresh(schema, var_def)
        expected = cached.original(schema, var_def)
        assert again is first and type(first) is type(expected)
        if isinstance(expected, Exception):  # `$bad: T` is not an input type
            assert first.message == expected.message
        else:
            assert (first.name, str(first.type), first.default_value) == (expected.name, str(expected.type),
                                                                           expected.default_value)
            assert (first.default and first.default.literal) is (expected.default and expected.default.literal)
    assert len(calls) == 3  # once each
