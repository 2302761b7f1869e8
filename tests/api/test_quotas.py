"""Per-address quotas for table creation and open tables, over HTTP and WebSocket, and the
expiry of tables nobody joins (issue 13, point 6: anyone created tables without limit,
2,500 in 4 s over one WebSocket, none expiring before its game ended)."""
from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from tests.api.client import CREATE, JOIN, run, ws

BOTH = pytest.mark.parametrize("mode", ["embedded", "redis"])
DEFAULTS = {"CONCLAVE_CREATES_PER_MINUTE": "", "CONCLAVE_CREATE_BURST": "", "CONCLAVE_OPEN_TABLES_PER_ADDRESS": ""}


@pytest.fixture
def mode():
    return "embedded"


JOIN_CODES: dict[str, str] = {}  # table id -> the join code its host was given


def create(server, players: int = 2) -> dict:
    r = httpx.post(server.url, json={"query": CREATE, "variables": {"input": {"game": "endless", "players": players}}},
                   timeout=30)
    assert r.status_code == 200, r.text
    made = r.json()["data"]["createTable"]
    if made["__typename"] == "CreateTableOk":
        JOIN_CODES[made["table"]["id"]] = made["joinCode"]
    return made


def join(server, table_id: str, seat: int) -> dict:
    r = httpx.post(server.url, json={"query": JOIN, "variables": {"t": table_id, "s": seat, "n": f"p{seat}",
                                                                  "c": JOIN_CODES.get(table_id)}},
                   timeout=30)
    return r.json()["data"]["joinTable"]


def listed(server) -> list[str]:
    r = httpx.post(server.url, json={"query": "{ tables(first: 100) { id } }"}, timeout=30)
    return [t["id"] for t in r.json()["data"]["tables"]]


def test_with_the_default_settings_one_address_holds_at_most_ten_open_tables(make_server):
    server = make_server(**DEFAULTS)  # the settings' own defaults, not the test servers' raised ones
    made = [create(server) for _ in range(10)]
    assert all(m["__typename"] == "CreateTableOk" for m in made), made
    refused = create(server)
    assert refused["__typename"] == "Rejected" and refused["code"] == "QUOTA_EXCEEDED", refused
    assert "10 open tables" in refused["message"]
    assert len(listed(server)) == 10  # the refused one was not created
    # a table whose seats are all taken is no longer open: room for one more
    first = made[0]["table"]["id"]
    assert [join(server, first, s)["__typename"] for s in (0, 1)] == ["JoinOk", "JoinOk"]
    assert create(server)["__typename"] == "CreateTableOk"
    assert create(server)["code"] == "QUOTA_EXCEEDED"


def test_the_creation_rate_is_limited_per_address_over_http_and_websocket(make_server):
    server = make_server(CONCLAVE_CREATES_PER_MINUTE="0.001", CONCLAVE_CREATE_BURST="4")
    assert [create(server, 1)["__typename"] for _ in range(2)] == ["CreateTableOk"] * 2

    async def over_ws():
        async with ws(server.ws_url) as session:
            return [(await run(session, CREATE, input={"game": "endless", "players": 1}))["createTable"]
                    for _ in range(4)]

    results = asyncio.run(over_ws())
    assert [r["__typename"] for r in results] == ["CreateTableOk", "CreateTableOk", "Rejected", "Rejected"], results
    assert results[2]["code"] == "QUOTA_EXCEEDED" and "a minute" in results[2]["message"]
    assert create(server, 1)["code"] == "QUOTA_EXCEEDED"  # the same address over HTTP
    assert len(listed(server)) == 4
    # a refused creation costs nothing else: other requests are served
    assert httpx.post(server.url, json={"query": "{ games { id } }"}).json()["data"]["games"]


def test_a_flood_of_concurrent_creations_from_one_address_opens_no_more_than_the_quota(make_server):
    server = make_server(CONCLAVE_OPEN_TABLES_PER_ADDRESS="5")

    async def flood():
        async with httpx.AsyncClient(timeout=30) as c:
            rs = await asyncio.gather(*(c.post(server.url, json={"query": CREATE, "variables": {
                "input": {"game": "endless", "players": 2}}}) for _ in range(40)))
        return [r.json()["data"]["createTable"]["__typename"] for r in rs]

    kinds = asyncio.run(flood())
    assert kinds.count("CreateTableOk") == 5 and kinds.count("Rejected") == 35
    assert len(listed(server)) == 5


@BOTH
def test_an_open_table_nobody_joins_expires_and_a_joined_one_stays(make_server):
    server = make_server(CONCLAVE_UNJOINED_TTL="2")
    lonely = create(server)["table"]["id"]
    joined = create(server)["table"]["id"]
    assert join(server, joined, 0)["__typename"] == "JoinOk"
    assert sorted(listed(server)) == sorted([lonely, joined])
    deadline = time.monotonic() + 15
    while lonely in listed(server) and time.monotonic() < deadline:
        time.sleep(0.3)
    assert listed(server) == [joined]
    table = "query($t: String!) { table(id: $t) { id seats { taken } } }"
    gone = httpx.post(server.url, json={"query": table, "variables": {"t": lonely}}).json()
    assert gone == {"data": {"table": None}}
    assert join(server, lonely, 0)["code"] == "UNKNOWN_TABLE"
    time.sleep(1)  # well past the expiry of both
    stays = httpx.post(server.url, json={"query": table, "variables": {"t": joined}}).json()["data"]["table"]
    assert stays == {"id": joined, "seats": [{"taken": True}, {"taken": False}]}
    assert join(server, joined, 1)["__typename"] == "JoinOk"


def test_an_unjoined_table_restored_after_a_restart_still_expires_on_time(make_server):
    """The embedded store restores tables from its checkpoints: one nobody joined expires
    at its creation time plus the TTL, not the TTL after the restart, and never not at all."""
    server = make_server(CONCLAVE_UNJOINED_TTL="2")
    lonely = create(server)["table"]["id"]
    joined = create(server)["table"]["id"]
    assert join(server, joined, 0)["__typename"] == "JoinOk"
    server.kill()
    time.sleep(2.2)
    server.start()
    deadline = time.monotonic() + 5
    while lonely in listed(server) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert listed(server) == [joined]
