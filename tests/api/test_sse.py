"""Subscriptions over Server-Sent Events (graphql-sse, distinct connections mode; api/sse.py)
against real `conclave serve` processes, embedded and Redis+PostgreSQL, with a real HTTP
streaming client (httpx + httpx-sse's parser of the event-stream format):

- every version once, in order, while a whole game is played through the API, the stream
  ending with `event: complete` when the game does (POST and GET);
- a cut stream resumed with `afterVersion`: no gap, no duplicate; the cut frees the
  subscription on the server (the open-subscription and open-stream gauges go to zero);
- per viewer, exactly what the WebSocket path sends that viewer - two seats and a spectator,
  every field of every update checked against the engine's replay (no card a viewer may not
  see, tests/api/test_auth_and_secrets.py);
- errors as the protocol says (a `next` event with `errors`, then `complete`), keep-alive
  comments, and the abuse limits of the WebSocket path (cost, rate, open streams).
"""
from __future__ import annotations

import asyncio
import json
import random
import re
import time

import httpx
import pytest
from gql import GraphQLRequest
from graphql import parse
from httpx_sse import aconnect_sse

from tests.api.conftest import server_factory, storage_env
from tests.api.services import ROOT
from tests.api.client import ACT, UPDATES, create_and_join, http, run, ws
from tests.api.test_auth_and_secrets import GAME, UPDATES_ALL, Mirror, check_table, leaks
from tests.api.test_e2e_game import play
from tests.api.test_query_cost import LOG_ALIASES

SSE = {"Accept": "text/event-stream"}
TICK = {"type": "tick", "params": {"n": 1}}


def headers(token: str | None) -> dict:
    return {**SSE, **({"Authorization": f"Bearer {token}"} if token else {})}


async def sse_updates(url: str, query: str, variables: dict, token: str | None, got: list, method: str = "POST",
                      stop=None) -> list:
    """Follow one subscription over SSE: each `next` event's data appended to `got`; returns
    every event as (event, data) up to `complete` (or until `stop(data)` says so)."""
    events = []
    request = ({"json": {"query": query, "variables": variables}} if method == "POST"
               else {"params": {"query": query, "variables": json.dumps(variables)}})
    async with httpx.AsyncClient(timeout=60) as client:
        async with aconnect_sse(client, method, url, headers=headers(token), **request) as source:
            assert source.response.status_code == 200
            assert source.response.headers["content-type"] == "text/event-stream"
            async for event in source.aiter_sse():
                data = json.loads(event.data) if event.data else None
                events.append((event.event, data))
                if event.event == "complete":
                    break
                assert event.event == "next", event
                got.append(data)
                if stop and stop(data):
                    break
    return events


async def ws_updates(url: str, query: str, variables: dict, token: str | None, got: list, until: int) -> None:
    async with ws(url, token) as session:
        async for update in session.subscribe(GraphQLRequest(parse(query), variable_values=variables)):
            got.append(update)
            if update["tableUpdates"]["version"] >= until:
                return


async def gauges(base: str) -> dict[str, float]:
    async with httpx.AsyncClient() as client:
        text = (await client.get(f"{base}/metrics")).text
    return {name: float(line.split()[-1]) for line in text.splitlines()
            for name in ("conclave_open_subscriptions", "conclave_open_sse_streams") if line.startswith(name + " ")}


async def settled(base: str, timeout: float = 5.0) -> dict[str, float]:
    """The gauges once no subscription is open (or what they say at the deadline)."""
    deadline = time.monotonic() + timeout
    while True:
        now = await gauges(base)
        if not any(now.values()) or time.monotonic() > deadline:
            return now
        await asyncio.sleep(0.05)


# -- every version once, in order, through a whole game ----------------------------------------
def test_sse_delivers_every_version_once_in_order_through_a_whole_game(server):
    asyncio.run(_whole_game(server))


async def _whole_game(server):
    async with http(server.url) as anon:
        table_id, tokens = await create_and_join(anon, "new-capital", 2, seed=7)
    got = {0: [], 1: [], "spectator": []}
    finals: dict = {}

    async def follow(key, token, method):
        finals[key] = await sse_updates(server.url, UPDATES, {"t": table_id, "after": 0}, token, got[key], method)

    subs = [asyncio.create_task(follow(0, tokens[0], "POST")), asyncio.create_task(follow(1, tokens[1], "GET")),
            asyncio.create_task(follow("spectator", None, "GET"))]
    await asyncio.sleep(0.3)
    log: list = []
    final = await play(server.url, table_id, tokens, random.Random(7), log)
    assert final["status"] == "finished"
    await asyncio.wait_for(asyncio.gather(*subs), timeout=60)
    versions = [v for v, _, _ in log]
    assert versions == list(range(1, len(log) + 1)) and len(log) > 20
    for key, updates in got.items():
        assert [u["data"]["tableUpdates"]["version"] for u in updates] == versions, key
        assert not any("errors" in u for u in updates), key
        assert updates[-1]["data"]["tableUpdates"]["table"]["status"] == "finished", key
        assert finals[key][-1][0] == "complete", key  # the server ended the stream with the game
    assert await settled(server.base) == {"conclave_open_subscriptions": 0, "conclave_open_sse_streams": 0}


# -- a cut, then afterVersion -----------------------------------------------------------------
def test_a_cut_stream_resumes_with_after_version_without_gap_or_duplicate_and_frees_its_subscription(server):
    asyncio.run(_cut_and_resume(server))


async def _act(url: str, table_id: str, token: str, times: int) -> list[int]:
    async with http(url, token) as session:
        return [(await run(session, ACT, t=table_id, a=TICK))["act"]["version"] for _ in range(times)]


async def _cut_and_resume(server):
    async with http(server.url) as anon:
        table_id, tokens = await create_and_join(anon, "endless", 1)
    token = tokens[0]
    first: list = []
    reader = asyncio.create_task(sse_updates(server.url, UPDATES, {"t": table_id, "after": 0}, token, first,
                                             stop=lambda u: u["data"]["tableUpdates"]["version"] == 5))
    await asyncio.sleep(0.3)
    assert await _act(server.url, table_id, token, 10) == list(range(1, 11))
    await asyncio.wait_for(reader, 10)  # cut after version 5, versions 6-10 on their way or sent
    assert [u["data"]["tableUpdates"]["version"] for u in first] == [1, 2, 3, 4, 5]
    assert await settled(server.base) == {"conclave_open_subscriptions": 0, "conclave_open_sse_streams": 0}

    assert await _act(server.url, table_id, token, 5) == list(range(11, 16))  # while nobody listens
    again: list = []
    reader = asyncio.create_task(sse_updates(server.url, UPDATES, {"t": table_id, "after": 5}, token, again, "GET",
                                             stop=lambda u: u["data"]["tableUpdates"]["version"] == 18))
    await asyncio.sleep(0.3)
    assert await _act(server.url, table_id, token, 3) == [16, 17, 18]  # and live again
    await asyncio.wait_for(reader, 10)
    assert [u["data"]["tableUpdates"]["version"] for u in again] == list(range(6, 19))
    # the version after the last one read is the next one delivered: nothing repeated
    last: list = []
    reader = asyncio.create_task(sse_updates(server.url, UPDATES, {"t": table_id, "after": 18}, token, last,
                                             stop=lambda u: True))
    await asyncio.sleep(0.3)
    await _act(server.url, table_id, token, 1)
    await asyncio.wait_for(reader, 10)
    assert [u["data"]["tableUpdates"]["version"] for u in last] == [19]
    assert await settled(server.base) == {"conclave_open_subscriptions": 0, "conclave_open_sse_streams": 0}
    assert "Traceback" not in server.log_path.read_text()


# -- per viewer, what the WebSocket path sends ---------------------------------------------------
ACTIONS = 30


def test_each_viewer_gets_over_sse_exactly_what_the_websocket_path_sends_it_and_nothing_hidden(server):
    asyncio.run(_redaction(server))


async def _redaction(server):
    players, seed = 2, 5
    async with http(server.url) as anon:
        table_id, tokens = await create_and_join(anon, GAME, players, seed=seed)
    viewers = {0: tokens[0], 1: tokens[1], None: None}
    over_sse = {k: [] for k in viewers}
    over_ws = {k: [] for k in viewers}
    variables = {"t": table_id}
    done = lambda u: u["data"]["tableUpdates"]["version"] >= ACTIONS  # noqa: E731
    subs = [asyncio.create_task(sse_updates(server.url, UPDATES_ALL, variables, token, over_sse[k],
                                            "POST" if k is not None else "GET", stop=done))
            for k, token in viewers.items()]
    subs += [asyncio.create_task(ws_updates(server.ws_url, UPDATES_ALL, variables, token, over_ws[k], ACTIONS))
             for k, token in viewers.items()]
    await asyncio.sleep(0.5)
    log: list = []
    await play(server.url, table_id, tokens, random.Random(seed), log, max_actions=ACTIONS)
    await asyncio.wait_for(asyncio.gather(*subs), timeout=60)

    mirror = Mirror(players, seed)
    for _, seat, action in log:
        mirror.act(seat, {"type": action["type"], "params": action["params"]})
    for key in viewers:
        updates = [u["data"]["tableUpdates"] for u in over_sse[key]]
        assert [u["version"] for u in updates] == list(range(1, ACTIONS + 1)), key
        assert updates == [u["tableUpdates"] for u in over_ws[key]], f"viewer {key}: SSE differs from WebSocket"
        for u in updates:
            where = f"SSE subscription of viewer {key}, update {u['version']}"
            assert u["events"] == mirror.events_for(u["version"], key), where
            assert not leaks(u["events"], mirror.event_secret(u["version"], key), where), where
            check_table(mirror, u["table"], key, where)
    # not vacuous: the three viewers were told different things, and there were secrets
    last = {k: over_sse[k][-1]["data"]["tableUpdates"]["table"]["stateJson"] for k in viewers}
    assert last[0] != last[1] and last[0] != last[None] and last[1] != last[None]
    assert all(mirror.hidden(ACTIONS, k) for k in viewers)


# -- the protocol's errors, keep-alive, and the limits -------------------------------------------
@pytest.fixture
def make_embedded(tmp_path):
    """Servers in the embedded default: the protocol and the limits do not depend on the live store."""
    with storage_env("embedded", tmp_path) as env, server_factory(env, tmp_path) as make:
        yield make


@pytest.mark.parametrize("lean", ["1", "0"])
def test_errors_come_as_next_events_and_the_stream_is_kept_alive_with_comments(make_embedded, lean):
    """On the lean paths (schema/streaming.py) and strawberry's own pipeline alike."""
    server = make_embedded(CONCLAVE_SSE_KEEPALIVE="0.2", CONCLAVE_LEAN_PATHS=lean)
    asyncio.run(_errors_and_keepalive(server))


async def _one_stream(server, query: str, variables: dict, token=None, method="POST") -> list:
    got: list = []
    return await asyncio.wait_for(sse_updates(server.url, query, variables, token, got, method), 10)


async def _errors_and_keepalive(server):
    async with http(server.url) as anon:
        table_id, tokens = await create_and_join(anon, "endless", 1)
    unknown = await _one_stream(server, UPDATES, {"t": "no-such-table", "after": 0})
    assert [e for e, _ in unknown] == ["next", "complete"]
    assert unknown[0][1]["errors"][0]["extensions"]["code"] == "UNKNOWN_TABLE"
    for query, code in [("subscription { tableUpdates(tableId: ", "GRAPHQL_PARSE_FAILED"),
                        ("subscription { tableUpdates(tableId: \"x\") { nope } }", "GRAPHQL_VALIDATION_FAILED"),
                        (LOG_ALIASES, "QUERY_TOO_COMPLEX")]:
        for method in ("POST", "GET"):
            events = await _one_stream(server, query, {"t": table_id}, tokens[0], method)
            assert [e for e, _ in events] == ["next", "complete"], (query, method)
            assert events[0][1]["errors"][0]["extensions"]["code"] == code, (query, method, events)
    # the README's example, as written there
    readme = (ROOT / "README.md").read_text()
    [example] = [b for b in re.findall(r"^```sh\n(.*?)^```", readme, re.S | re.M) if "text/event-stream" in b]
    body = json.loads(re.search(r"-d '(.*?)'", example, re.S).group(1).replace("TABLE_ID", table_id))
    await _act(server.url, table_id, tokens[0], 1)
    seen: list = []
    await asyncio.wait_for(sse_updates(server.url, body["query"], {}, tokens[0], seen, stop=lambda u: True), 10)
    assert seen == [{"data": {"tableUpdates": {"version": 1, "table": {"version": 1}}}}]
    # a query streams too: one result, then complete
    games = await _one_stream(server, "{ games { id } }", {}, method="GET")
    assert [e for e, _ in games] == ["next", "complete"] and games[0][1]["data"]["games"]

    # a quiet subscription: comments, nothing else, until an update comes
    async with httpx.AsyncClient(timeout=10) as client:
        async with client.stream("POST", server.url, headers=headers(tokens[0]),
                                 json={"query": UPDATES, "variables": {"t": table_id, "after": 1}}) as response:
            lines, start = [], time.monotonic()
            async for line in response.aiter_lines():
                lines.append(line)
                if line.startswith(":") and time.monotonic() - start > 0.5:
                    break
            assert lines and all(line.startswith(":") or line == "" for line in lines), lines
            assert sum(line.startswith(":") for line in lines) >= 2
    assert await settled(server.base) == {"conclave_open_subscriptions": 0, "conclave_open_sse_streams": 0}


def test_the_websocket_paths_limits_hold_for_event_streams(make_embedded):
    """Unknown tokens are refused (401), open streams are capped per token (429
    TOO_MANY_STREAMS; one closed makes room), and every stream request counts at the rate
    limit (429 RATE_LIMITED)."""
    server = make_embedded(CONCLAVE_SSE_STREAMS_PER_TOKEN="2", CONCLAVE_RATE_BURST="30", CONCLAVE_RATE_PER_SECOND="0.01")
    asyncio.run(_limits(server))


async def _limits(server):
    async with http(server.url) as anon:
        table_id, tokens = await create_and_join(anon, "endless", 2)
    variables = {"query": UPDATES, "variables": {"t": table_id, "after": 0}}
    async with httpx.AsyncClient(timeout=10) as client:
        refused = await client.post(server.url, headers=headers("not-a-token"), json=variables)
        assert refused.status_code == 401
        assert refused.json()["errors"][0]["extensions"]["code"] == "UNAUTHORIZED"

        first = await client.send(client.build_request("POST", server.url, headers=headers(tokens[0]), json=variables),
                                  stream=True)
        second = await client.send(client.build_request("GET", server.url, headers=headers(tokens[0]),
                                                        params={"query": UPDATES, "variables": json.dumps(
                                                            variables["variables"])}), stream=True)
        assert first.status_code == second.status_code == 200
        third = await client.post(server.url, headers=headers(tokens[0]), json=variables)
        assert third.status_code == 429 and third.json()["errors"][0]["extensions"]["code"] == "TOO_MANY_STREAMS"
        other = await client.send(client.build_request("POST", server.url, headers=headers(tokens[1]), json=variables),
                                  stream=True)  # another seat's streams are its own
        assert other.status_code == 200
        deadline = time.monotonic() + 5  # three streams, three subscriptions of the service
        while await gauges(server.base) != {"conclave_open_subscriptions": 3, "conclave_open_sse_streams": 3}:
            assert time.monotonic() < deadline, await gauges(server.base)
            await asyncio.sleep(0.05)
        await first.aclose()
        await asyncio.sleep(0.3)
        again = await client.send(client.build_request("POST", server.url, headers=headers(tokens[0]), json=variables),
                                  stream=True)
        assert again.status_code == 200
        for response in (second, other, again):
            await response.aclose()
        assert (await settled(server.base))["conclave_open_sse_streams"] == 0

        statuses = []  # a flood of short streams from one token meets its rate limit
        for _ in range(40):
            response = await client.get(server.url, headers=headers(tokens[1]), params={"query": "{ games { id } }"})
            statuses.append(response.status_code)
            if response.status_code == 429:
                assert response.json()["errors"][0]["extensions"]["code"] == "RATE_LIMITED"
        assert 200 in statuses and statuses[-1] == 429, statuses


@pytest.mark.parametrize("lean", ["1", "0"])
def test_an_event_stream_refused_for_its_cost_counts_at_the_address_rate_like_a_refused_post(make_embedded, lean):
    """A refusal counts CONCLAVE_REFUSAL_PENALTY (100) requests at the address's rate
    (api/limits.py), over SSE as over a plain POST: past it the address is shut out."""
    server = make_embedded(CONCLAVE_ADDRESS_RATE_PER_SECOND="1", CONCLAVE_ADDRESS_BURST="50", CONCLAVE_LEAN_PATHS=lean)
    events = asyncio.run(_one_stream(server, LOG_ALIASES, {"t": "x"}))
    assert events[0][1]["errors"][0]["extensions"]["code"] == "QUERY_TOO_COMPLEX"
    with pytest.raises(httpx.TransportError):
        httpx.post(server.url, json={"query": "{ games { id } }"}, timeout=5)
