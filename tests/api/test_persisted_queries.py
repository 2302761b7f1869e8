"""Automatic persisted queries (api/persisted.py, Apollo's convention) against real server
processes: unknown hash -> PersistedQueryNotFound, hash + text registers it, then the hash
alone runs it - over HTTP POST (the lean path and strawberry's view), HTTP GET and both
WebSocket protocols; a hash that is not its text's is refused; the operator's allow-list
runs only its documents. `gql` sends the hash with the text; a hash alone (which gql cannot
send: it always sends a document) goes as plain HTTP or WebSocket messages."""
from __future__ import annotations

import asyncio
import hashlib
import json

import httpx
import pytest
import websockets
from gql import GraphQLRequest
from starlette.testclient import TestClient

import api.fast_http
from api.app import create_app
from api.persisted import AllowList, PersistedQueries, load_allow_list
from api.settings import Settings
from core.plugins import default_registry
from tests.api.client import ACT, UPDATES as SUBSCRIPTION, create_and_join, http, run, ws
from tests.api.conftest import server_factory, storage_env
from tests.api.test_fast_http import process_state  # noqa: F401 - a fixture: puts logging and the GC back


def sent(text: str) -> str:
    """A document as gql sends it (parsed and printed): the text whose hash a client sends."""
    return GraphQLRequest(text).payload["query"]


TABLES = sent("query Tables($g: String) { tables(game: $g, first: 5) { id game } }")
GAMES = sent("query { games { id } }")
CREATE = sent('mutation { createTable(input: {game: "endless", players: 1}) { __typename } }')
COUNT = 'query { tables(game: "endless", first: 100) { id } }'
UPDATES = sent(SUBSCRIPTION)
TRANSPORT_WS, LEGACY_WS = "graphql-transport-ws", "graphql-ws"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def pq(text: str | None = None, sha: str | None = None) -> dict:
    return {"persistedQuery": {"version": 1, "sha256Hash": sha or digest(text)}}


def codes(body: dict) -> list[str]:
    return [e["extensions"]["code"] for e in body.get("errors", [])]


def assert_not_found(r: httpx.Response) -> None:
    """Apollo's answer, which its clients match on: 200, the message and the code, not cached."""
    assert r.status_code == 200, r.text
    assert r.json() == {"errors": [{"message": "PersistedQueryNotFound",
                                    "extensions": {"code": "PERSISTED_QUERY_NOT_FOUND"}}]}
    assert "no-cache" in r.headers["cache-control"]


async def with_text(url: str, text: str, **variables) -> dict:
    """Hash + text, the way an Apollo-style client retries, sent by gql."""
    async with http(url) as session:
        return await session.execute(GraphQLRequest(text, variable_values=variables, extensions=pq(text)))


def tables_count(server) -> int:
    return len(httpx.post(server.url, json={"query": COUNT}).json()["data"]["tables"])


@pytest.fixture
def make_server(tmp_path):
    """Embedded servers with settings of the test's (the conftest's runs both live stores)."""
    with storage_env("embedded", tmp_path) as env, server_factory(env, tmp_path) as make:
        yield make


@pytest.mark.parametrize("lean", ["1", "0"])
def test_a_persisted_query_round_trip_over_http_post(make_server, lean):
    """Unknown hash -> PersistedQueryNotFound; hash + text (gql) -> data; hash alone -> the
    same data, on the lean POST path (api/fast_http.py) and on strawberry's view."""
    server = make_server(CONCLAVE_LEAN_PATHS=lean)
    alone = {"extensions": pq(TABLES), "variables": {"g": "endless"}, "operationName": "Tables"}
    assert_not_found(httpx.post(server.url, json=alone))
    httpx.post(server.url, json={"query": CREATE})  # one table, so the answer is not empty
    first = asyncio.run(with_text(server.url, TABLES, g="endless"))
    assert len(first["tables"]) == 1 and first["tables"][0]["game"] == "endless"
    r = httpx.post(server.url, json=alone)
    assert r.status_code == 200 and r.json() == {"data": first}
    # a hash in capitals is the same hash; an unsupported version is refused with its code
    upper = {"extensions": {"persistedQuery": {"version": 1, "sha256Hash": digest(TABLES).upper()}}}
    assert httpx.post(server.url, json=upper).json() == {"data": {"tables": first["tables"]}}
    r = httpx.post(server.url, json={"extensions": {"persistedQuery": {"version": 2, "sha256Hash": digest(TABLES)}}})
    assert r.status_code == 400 and codes(r.json()) == ["PERSISTED_QUERY_INVALID"]


def test_a_persisted_query_round_trip_over_http_get_and_no_mutation_by_get(embedded_server):
    """GET with `extensions`, `variables` and `operationName` as query parameters (JSON), as
    Apollo clients send with useGETForHashedQueries, and `Accept: */*`: not GraphiQL. A
    mutation's hash, registered over POST, is refused over GET (405) and creates nothing."""
    server = embedded_server
    params = {"extensions": json.dumps(pq(TABLES)), "variables": json.dumps({"g": "endless"}),
              "operationName": "Tables"}
    headers = {"Accept": "*/*"}
    assert_not_found(httpx.get(server.url, params=params, headers=headers))
    r = httpx.get(server.url, params={**params, "query": TABLES}, headers=headers)
    assert r.status_code == 200 and r.json() == {"data": {"tables": []}}
    r = httpx.get(server.url, params=params, headers=headers)
    assert r.status_code == 200 and r.json() == {"data": {"tables": []}}

    assert asyncio.run(with_text(server.url, CREATE)) == {"createTable": {"__typename": "CreateTableOk"}}
    assert tables_count(server) == 1
    for query in ({}, {"query": CREATE}):  # by hash alone, and with its text
        r = httpx.get(server.url, params={"extensions": json.dumps(pq(CREATE)), **query}, headers=headers)
        assert r.status_code == 405 and codes(r.json()) == ["METHOD_NOT_ALLOWED"], r.text
    assert tables_count(server) == 1  # nothing created
    # the hash alone still creates over POST
    r = httpx.post(server.url, json={"extensions": pq(CREATE)})
    assert r.json() == {"data": {"createTable": {"__typename": "CreateTableOk"}}}
    assert tables_count(server) == 2


async def ws_first(url: str, protocol: str, payload: dict, op_id: str = "1") -> dict:
    """The first answer (not a keepalive) to one operation on a new connection."""
    async with websockets.connect(url, subprotocols=[protocol]) as conn:
        await conn.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(await conn.recv())["type"] == "connection_ack"
        start = "subscribe" if protocol == TRANSPORT_WS else "start"
        await conn.send(json.dumps({"id": op_id, "type": start, "payload": payload}))
        while True:
            message = json.loads(await asyncio.wait_for(conn.recv(), 5))
            if message["type"] != "ka":
                return message


def ws_codes(protocol: str, message: dict) -> list[str]:
    assert message["type"] == "error", message
    errors = message["payload"] if protocol == TRANSPORT_WS else [message["payload"]]
    return [e["extensions"]["code"] for e in errors]


async def gql_first_update(url: str, protocol: str, table_id: str) -> dict:
    """Hash + text of the subscription, sent by gql's WebSocket transport."""
    async with ws(url, legacy=protocol == LEGACY_WS) as session:
        request = GraphQLRequest(UPDATES, variable_values={"t": table_id, "after": 0}, extensions=pq(UPDATES))
        async for result in session.subscribe(request):
            return result
    raise AssertionError("the subscription ended without an update")


@pytest.mark.parametrize("protocol", [TRANSPORT_WS, LEGACY_WS])
def test_a_persisted_subscription_round_trip_over_websocket(embedded_server, protocol):
    """`tableUpdates` by hash: unknown -> the protocol's error message with
    PERSISTED_QUERY_NOT_FOUND (the connection lives on); hash + text (gql) -> updates;
    then the hash alone on a new connection -> the same updates."""
    server = embedded_server

    async def scenario():
        async with http(server.url) as session:
            table_id, tokens = await create_and_join(session, "endless", 1)
        async with http(server.url, tokens[0]) as seat:  # version 1, which `afterVersion: 0` replays
            acted = await run(seat, ACT, t=table_id, a={"type": "tick", "params": {"n": 1}}, v=None)
            assert acted["act"]["__typename"] == "ActOk", acted
        variables = {"t": table_id, "after": 0}
        missing = await ws_first(server.ws_url, protocol, {"extensions": pq(UPDATES), "variables": variables})
        assert ws_codes(protocol, missing) == ["PERSISTED_QUERY_NOT_FOUND"]
        assert missing["id"] == "1"
        first = await asyncio.wait_for(gql_first_update(server.ws_url, protocol, table_id), 10)
        assert first["tableUpdates"]["table"]["version"] >= 1
        again = await ws_first(server.ws_url, protocol, {"extensions": pq(UPDATES), "variables": variables}, "7")
        assert again["type"] in ("next", "data") and again["id"] == "7", again
        assert again["payload"]["data"] == first
        wrong = await ws_first(server.ws_url, protocol, {"query": UPDATES, "extensions": pq(GAMES),
                                                         "variables": variables})
        assert ws_codes(protocol, wrong) == ["PERSISTED_QUERY_HASH_MISMATCH"]

    asyncio.run(scenario())


def test_a_query_over_graphql_transport_ws_by_hash(embedded_server):
    """graphql-transport-ws carries queries too: one by hash alone after its text was sent."""
    server = embedded_server

    async def scenario():
        missing = await ws_first(server.ws_url, TRANSPORT_WS, {"extensions": pq(GAMES)})
        assert ws_codes(TRANSPORT_WS, missing) == ["PERSISTED_QUERY_NOT_FOUND"]
        sent = await ws_first(server.ws_url, TRANSPORT_WS, {"query": GAMES, "extensions": pq(GAMES)})
        alone = await ws_first(server.ws_url, TRANSPORT_WS, {"extensions": pq(GAMES)})
        assert sent["type"] == alone["type"] == "next" and sent["payload"] == alone["payload"]
        assert {"id": "endless"} in alone["payload"]["data"]["games"]

    asyncio.run(scenario())


def test_a_hash_that_is_not_the_texts_is_refused_and_registers_nothing(embedded_server):
    """On the lean POST path, strawberry's view (GET) and with a text the lean path hands
    on (two operations): PERSISTED_QUERY_HASH_MISMATCH, 400; the hash stays unknown and
    nothing runs."""
    server = embedded_server
    stolen = pq(GAMES)  # GAMES's hash, with another text: would make GAMES's hash run CREATE
    r = httpx.post(server.url, json={"query": CREATE, "extensions": stolen})
    assert r.status_code == 400 and codes(r.json()) == ["PERSISTED_QUERY_HASH_MISMATCH"]
    r = httpx.get(server.url, params={"query": COUNT, "extensions": json.dumps(stolen)})
    assert r.status_code == 400 and codes(r.json()) == ["PERSISTED_QUERY_HASH_MISMATCH"]
    two = CREATE + " query Other { games { id } }"
    r = httpx.post(server.url, json={"query": two, "operationName": None, "extensions": stolen})
    assert r.status_code == 400 and codes(r.json()) == ["PERSISTED_QUERY_HASH_MISMATCH"]
    assert_not_found(httpx.post(server.url, json={"extensions": stolen}))
    r = httpx.post(server.url, json={"extensions": {"persistedQuery": {"version": 1, "sha256Hash": "abc"}}})
    assert r.status_code == 400 and codes(r.json()) == ["PERSISTED_QUERY_INVALID"]
    assert tables_count(server) == 0


@pytest.mark.parametrize("form", ["documents", "hashes"])
def test_with_the_allow_list_only_listed_queries_run(make_server, tmp_path, form):
    """CONCLAVE_PERSISTED_QUERY_ALLOWLIST: a file of documents (graphql-codegen's
    `{hash: document}`) lets its queries run by hash alone at once, over POST, GET and
    WebSocket; a file of hashes once a client has sent the text with its hash. Every other
    query - its text, its hash, or both - is refused with PERSISTED_QUERY_NOT_ALLOWED (403)
    and does not run."""
    path = tmp_path / "allowed"
    if form == "documents":
        path.write_text(json.dumps({digest(q): q for q in (TABLES, UPDATES, GAMES)}))
    else:
        path.write_text("# the app's queries\n" + "".join(f"{digest(q)}\n" for q in (TABLES, UPDATES, GAMES)))
    server = make_server(CONCLAVE_PERSISTED_QUERY_ALLOWLIST=str(path))

    for body in ({"query": CREATE}, {"query": CREATE, "extensions": pq(CREATE)}, {"extensions": pq(CREATE)}):
        r = httpx.post(server.url, json=body)
        assert r.status_code == 403 and codes(r.json()) == ["PERSISTED_QUERY_NOT_ALLOWED"], (body, r.text)
    r = httpx.get(server.url, params={"query": COUNT})
    assert r.status_code == 403 and codes(r.json()) == ["PERSISTED_QUERY_NOT_ALLOWED"]

    alone = {"extensions": pq(TABLES), "variables": {"g": "endless"}}
    if form == "hashes":
        assert_not_found(httpx.post(server.url, json=alone))  # listed, text not known yet
        assert asyncio.run(with_text(server.url, TABLES, g="endless")) == {"tables": []}
    r = httpx.post(server.url, json=alone)
    assert r.status_code == 200 and r.json() == {"data": {"tables": []}}
    r = httpx.get(server.url, params={"extensions": json.dumps(alone["extensions"]), "variables": '{"g": "x"}'})
    assert r.status_code == 200 and r.json() == {"data": {"tables": []}}
    r = httpx.post(server.url, json={"query": TABLES})  # a listed document's text runs too
    assert r.status_code == 200 and r.json() == {"data": {"tables": []}}

    async def websocket():
        if form == "hashes":
            await ws_first(server.ws_url, TRANSPORT_WS, {"query": GAMES, "extensions": pq(GAMES)})
        listed = await ws_first(server.ws_url, TRANSPORT_WS, {"extensions": pq(GAMES)})
        assert listed["type"] == "next" and {"id": "endless"} in listed["payload"]["data"]["games"]
        for protocol in (TRANSPORT_WS, LEGACY_WS):
            unlisted = await ws_first(server.ws_url, protocol, {"query": "subscription { tableUpdates(tableId: "
                                                                "\"x\", afterVersion: 0) { version } }"})
            assert ws_codes(protocol, unlisted) == ["PERSISTED_QUERY_NOT_ALLOWED"]

    asyncio.run(websocket())


def test_a_bad_allow_list_stops_the_server_from_starting(tmp_path):
    """A document under a hash that is not its own, a line that is not a hash, an empty
    list: the operator hears of it at start-up, not from refused clients."""
    for name, content in [("wrong.json", json.dumps({digest(GAMES): TABLES})), ("junk.txt", "not-a-hash\n"),
                          ("empty.txt", "# nothing\n"), ("bad.json", "{not json")]:
        (tmp_path / name).write_text(content)
        with pytest.raises(ValueError, match="allow-list"):
            load_allow_list(tmp_path / name)
    manifest = {"format": "apollo-persisted-query-manifest", "version": 1,
                "operations": [{"id": "anything", "name": "Games", "type": "query", "body": GAMES}]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    loaded = load_allow_list(tmp_path / "manifest.json")
    assert loaded.hashes == {digest(GAMES)} and loaded.texts == {digest(GAMES): GAMES}
    (tmp_path / "list.json").write_text(json.dumps([TABLES, digest(GAMES).upper()]))
    loaded = load_allow_list(tmp_path / "list.json")
    assert loaded.hashes == {digest(TABLES), digest(GAMES)} and set(loaded.texts) == {digest(TABLES)}


def test_the_cache_is_a_bounded_lru_by_entries_and_by_characters():
    """The oldest unused text goes first; a text over the character budget is not kept."""
    cache = PersistedQueries(max_entries=2, max_chars=100)
    a, b, c = "query { a }", "query { b }", "query { c }"
    for text in (a, b):
        assert cache.resolve(text, pq(text)) == text
    assert cache.resolve(None, pq(a)) == a  # a is now the most recently used
    cache.resolve(c, pq(c))
    assert set(cache.entries) == {digest(a), digest(c)}
    big = "query { " + "x " * 60 + "}"
    cache.resolve(big, pq(big))
    assert digest(big) not in cache.entries and cache.chars == len(a) + len(c)
    d = "query { " + "d " * 42 + "}"  # fits alone: pushes both out
    cache.resolve(d, pq(d))
    assert list(cache.entries) == [digest(d)] and cache.chars == len(d)
    off = PersistedQueries(max_entries=0)
    off.resolve(a, pq(a))
    with pytest.raises(Exception) as refused:
        off.resolve(None, pq(a))
    assert refused.value.code == "PERSISTED_QUERY_NOT_SUPPORTED"
    listed = PersistedQueries(allow=AllowList(frozenset({digest(a)}), {}))
    with pytest.raises(Exception) as refused:
        listed.resolve(b, None)
    assert refused.value.code == "PERSISTED_QUERY_NOT_ALLOWED"


def test_the_lean_post_path_answers_a_hash_itself(tmp_path, monkeypatch, process_state):
    """In process: hash + text and then the hash alone are executed by api/fast_http.py's
    own graphql-core call, not handed on to strawberry's view."""
    executed = []
    original = api.fast_http.execute
    monkeypatch.setattr(api.fast_http, "execute", lambda *a, **kw: executed.append(1) or original(*a, **kw))
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'lean.sqlite3'}", rate_per_second=1e6, rate_burst=10**6)
    with TestClient(create_app(settings, default_registry())) as client:
        r = client.post("/graphql", json={"extensions": pq(GAMES)})
        assert codes(r.json()) == ["PERSISTED_QUERY_NOT_FOUND"] and executed == []
        with_text_answer = client.post("/graphql", json={"query": GAMES, "extensions": pq(GAMES)}).json()
        assert executed == [1]
        assert client.post("/graphql", json={"extensions": pq(GAMES)}).json() == with_text_answer
        assert executed == [1, 1] and {"id": "new-capital"} in with_text_answer["data"]["games"]


def test_each_process_has_its_own_cache_and_a_miss_is_resent_once(make_server):
    """Two server processes (as behind a load balancer): a hash registered on one is
    unknown to the other, which answers PersistedQueryNotFound; the client's resend with
    the text registers it there too."""
    one, two = make_server(), make_server()
    assert asyncio.run(with_text(one.url, GAMES))["games"]
    alone = {"extensions": pq(GAMES)}
    answer = httpx.post(one.url, json=alone).json()
    assert answer["data"]["games"]
    assert_not_found(httpx.post(two.url, json=alone))
    assert httpx.post(two.url, json={"query": GAMES, **alone}).json() == answer
    assert httpx.post(two.url, json=alone).json() == answer
