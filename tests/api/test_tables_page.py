"""`tables` and `tablesPage` are paginated (issue 13, point 6: `tables` was unpaginated, 1.2-1.6 s
for 2,834 live tables): at most `first` (1-100, default 50) tables per page in id order, a
cursor to the next page, and a page reads only its own tables from the store."""
from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.api.client import CREATE, JOIN

CODES: dict[str, str] = {}  # table id -> its join code

BOTH = pytest.mark.parametrize("mode", ["embedded", "redis"])
PAGE = """query($first: Int!, $after: String, $status: String) { tablesPage(first: $first, after: $after, status: $status) {
  nextCursor tables { id status } } }"""


def gql(server, query: str, **variables) -> dict:
    r = httpx.post(server.url, json={"query": query, "variables": variables}, timeout=30)
    assert r.status_code == 200, r.text
    return r.json()


def create_tables(server, n: int) -> list[str]:
    async def go():
        async with httpx.AsyncClient(timeout=30) as c:
            rs = await asyncio.gather(*(c.post(server.url, json={"query": CREATE, "variables": {
                "input": {"game": "endless", "players": 2}}}) for _ in range(n)))
        made = [r.json()["data"]["createTable"] for r in rs]
        CODES.update((m["table"]["id"], m["joinCode"]) for m in made)
        return [m["table"]["id"] for m in made]

    return asyncio.run(go())


@BOTH
def test_pages_walk_every_table_once_in_a_stable_order_with_a_cursor(make_server):
    server = make_server()
    ids = sorted(create_tables(server, 23))
    seen, after, pages = [], None, 0
    while True:
        page = gql(server, PAGE, first=10, after=after)["data"]["tablesPage"]
        seen += [t["id"] for t in page["tables"]]
        pages += 1
        after = page["nextCursor"]
        if after is None:
            break
    assert seen == ids and pages == 3
    # the list field pages the same way, and defaults to 50
    assert [t["id"] for t in gql(server, "{ tables(first: 5) { id } }")["data"]["tables"]] == ids[:5]
    assert [t["id"] for t in gql(server, "query($a: String) { tables(first: 5, after: $a) { id } }",
                                  a=ids[4])["data"]["tables"]] == ids[5:10]
    assert len(gql(server, "{ tables { id } }")["data"]["tables"]) == 23
    # a filter: the one table with every seat taken is not open
    for seat in (0, 1):
        assert gql(server, JOIN, t=ids[7], s=seat, n="p", c=CODES[ids[7]])["data"]["joinTable"]["__typename"] == "JoinOk"
    opened = gql(server, PAGE, first=100, status="open")["data"]["tablesPage"]
    assert [t["id"] for t in opened["tables"]] == ids[:7] + ids[8:] and opened["nextCursor"] is None


def test_a_page_over_the_maximum_is_refused_with_a_code(embedded_server):
    server = embedded_server
    create_tables(server, 2)
    for first in (0, -1, 101, 5000):
        body = gql(server, PAGE, first=first)
        assert body["data"] is None and body["errors"][0]["extensions"]["code"] == "BAD_PAGE", body
        assert "1-100" in body["errors"][0]["message"]
    assert len(gql(server, PAGE, first=100)["data"]["tablesPage"]["tables"]) == 2


def test_a_page_reads_only_its_own_tables_from_the_store():
    """The service asks the store for one page of ids and loads only those tables."""
    from api.service import TableService

    loaded = []

    class Store:
        async def page_ids(self, after, limit):
            ids = [f"t{i:04d}" for i in range(3000)]
            start = 0 if after is None else ids.index(after) + 1
            return ids[start:start + limit]

        async def table_ids(self):
            raise AssertionError("a page must not list every table")

    class Table:
        meta, status = {"game": "endless"}, "open"

    service = TableService.__new__(TableService)
    service.store = Store()

    async def load(tid, fresh=True):
        loaded.append(tid)
        return Table()

    service.load = load
    tables, cursor = asyncio.run(service.tables_page(first=10, after="t0100"))
    assert len(tables) == 10 and loaded == [f"t{i:04d}" for i in range(101, 111)] and cursor == "t0110"
    loaded.clear()
    tables, cursor = asyncio.run(service.tables_page(status="playing", first=10))  # nothing matches
    assert tables == [] and len(loaded) == 200 and cursor == "t0199"  # bounded, with a cursor to go on
