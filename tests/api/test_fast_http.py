"""`api.fast_http` answers exactly as strawberry's view does.

Two apps, one with the fast path (the default) and one without (`lean_paths=False`), each
with its own embedded store, receive the same requests: tables created with the same seed,
the same seats joined, the same actions. Every response - status, content type and JSON
body, with ids and tokens replaced by their role - must be equal, for well-formed queries
and mutations (answered by the fast path: counted) and for every kind of refusal (answered
by the view behind it).
"""
from __future__ import annotations

import gc
import json
import logging

import pytest
from starlette.testclient import TestClient

import api.fast_http
from api.app import create_app
from api.settings import Settings
from core.plugins import default_registry
from tests.api.client import ACT, CREATE, JOIN, TABLE

GAMES = "{ games { id name minPlayers maxPlayers modules { id incompatibleWith } } }"
DEEP = 'mutation { act(tableId: "x", action: {type: "t"}) { ... on ActOk { table { prompts { options { type } } } } } }'


def app_client(tmp_path, name: str, fast: bool) -> TestClient:
    settings = Settings(database_url=f"sqlite:///{tmp_path / name}.sqlite3", lean_paths=fast, max_query_depth=3,
                        max_aliases=3, max_tokens=300, rate_per_second=1e6, rate_burst=10**6,
                        allow_chosen_seeds=True)
    return TestClient(create_app(settings, default_registry()))


class Twin:
    """One client, and what its ids and tokens stand for."""

    def __init__(self, client: TestClient) -> None:
        self.client, self.names = client, {}

    def name(self, value: str, role: str) -> None:
        self.names[value] = role

    def post(self, body, token: str | None = None, content_type: str = "application/json", raw: bytes | None = None):
        headers = {"content-type": content_type}
        if token:
            headers["authorization"] = f"Bearer {token}"
        content = raw if raw is not None else json.dumps(body).encode()
        response = self.client.post("/graphql", content=content, headers=headers)
        text = response.text
        for value, role in self.names.items():
            text = text.replace(value, role)
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = text
        return response.status_code, response.headers.get("content-type"), parsed


@pytest.fixture
def process_state():
    """An app in this process configures logging and tunes the GC for a long-lived server:
    put both back, or later tests in the same worker inherit them (an INFO record kept per
    action broke the subscription memory test)."""
    logger = logging.getLogger("conclave")
    saved = (logger.handlers[:], logger.level, logger.propagate, gc.get_threshold())
    yield
    logger.handlers[:], logger.level, logger.propagate = saved[:3]
    gc.unfreeze()
    gc.set_threshold(*saved[3])


@pytest.fixture
def twins(tmp_path, monkeypatch, process_state):
    executed = []
    original = api.fast_http.execute

    def counting(*args, **kwargs):
        executed.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(api.fast_http, "execute", counting)
    with app_client(tmp_path, "fast", True) as fast, app_client(tmp_path, "stock", False) as stock:
        yield Twin(fast), Twin(stock), executed


def same(twins, body=None, **kw):
    fast, stock, _ = twins
    a, b = fast.post(body, **kw), stock.post(body, **kw)
    assert a == b, f"fast {a}\nstock {b}"
    return a


def test_well_formed_requests_answer_as_the_view_does(twins):
    fast, stock, executed = twins
    same(twins, {"query": GAMES})
    same(twins, {"query": "query($t: String!) { table(id: $t) { id } }", "variables": {"t": "nope"}})
    tables = []
    for twin in (fast, stock):
        status, _, body = twin.post({"query": CREATE, "variables": {"input": {"game": "new-capital", "players": 2,
                                                                            "seed": 7}}})
        ok = body["data"]["createTable"]
        twin.name(ok["table"]["id"], "TABLE")
        twin.name(ok["hostToken"], "HOST")
        twin.name(ok["joinCode"], "CODE")
        tables.append(ok["table"]["id"])
        for seat in range(2):
            _, _, joined = twin.post({"query": JOIN, "variables": {"t": ok["table"]["id"], "s": seat, "n": "P",
                                                                  "c": ok["joinCode"]}})
            twin.name(joined["data"]["joinTable"]["seatToken"], f"SEAT{seat}")
    seats = {twin: {role: value for value, role in twin.names.items()} for twin in (fast, stock)}
    for step in range(12):
        views = [twin.post({"query": TABLE, "variables": {"t": t}}, token=seats[twin]["SEAT0"])
                 for twin, t in zip((fast, stock), tables)]
        assert views[0] == views[1]
        active = views[0][2]["data"]["table"]["activeSeats"][0]
        legal = [twin.post({"query": TABLE, "variables": {"t": t}}, token=seats[twin][f"SEAT{active}"])
                 for twin, t in zip((fast, stock), tables)]
        assert legal[0] == legal[1]
        action = legal[0][2]["data"]["table"]["legalActions"][0]
        version = legal[0][2]["data"]["table"]["version"]
        results = [twin.post({"query": ACT, "variables": {"t": t, "a": action, "v": version}},
                             token=seats[twin][f"SEAT{active}"]) for twin, t in zip((fast, stock), tables)]
        assert results[0] == results[1] and results[0][2]["data"]["act"]["__typename"] == "ActOk"
        # refusals that are data: stale version, another seat's token, a bent action
        for token, act in ((f"SEAT{active}", {"t": None, "a": action, "v": version}),
                           (f"SEAT{1 - active}", {"t": None, "a": action}),
                           (f"SEAT{active}", {"t": None, "a": {"type": "no-such-action", "params": {}}})):
            answers = [twin.post({"query": ACT, "variables": {**act, "t": t}}, token=seats[twin][token])
                       for twin, t in zip((fast, stock), tables)]
            assert answers[0] == answers[1] and answers[0][2]["data"]["act"]["__typename"] == "ActRejected"
    assert len(executed) == 5 + 12 * 6, "the fast path answered every well-formed request"


REFUSED = [
    dict(raw=b"{not json"),
    dict(raw=b"\xff\xfe"),
    dict(body={"variables": {}}),
    dict(body={"query": GAMES, "variables": [1]}),
    dict(body={"query": "{ nope }"}),
    dict(body={"query": "{ games { id "}),
    dict(body={"query": DEEP}),
    dict(body={"query": "{ a: games { id } b: games { id } c: games { id } d: games { id } }"}),
    dict(body={"query": "{ games { " + "id " * 400 + "} }"}),
    dict(body={"query": "query A { games { id } }", "operationName": "C"}),
    dict(body={"query": "subscription { tableUpdates(tableId: \"x\") { version } }"}),
    dict(body={"query": "query($t: String!) { table(id: $t) { id } }", "variables": {"t": 5}}),
    dict(body={"query": "query($t: String!) { table(id: $t) { id } }"}),
    dict(body={"query": GAMES}, content_type="text/plain"),
    dict(body=[{"query": GAMES}]),
]


@pytest.mark.parametrize("request_kw", REFUSED, ids=range(len(REFUSED)))
def test_every_refusal_is_the_views_own(twins, request_kw):
    status, _, body = same(twins, request_kw.get("body"), **{k: v for k, v in request_kw.items() if k != "body"})
    assert status != 200 or body.get("errors"), (status, body)


@pytest.mark.parametrize("body", [
    {"query": GAMES, "extensions": {"persistedQuery": None}},
    {"query": "query A { games { id } } query B { games { name } }", "operationName": "B"},
], ids=["extensions", "two-operations"])
def test_what_the_fast_path_leaves_to_the_view_is_answered_the_same(twins, body):
    status, _, answer = same(twins, body)
    assert status == 200 and answer["data"]["games"]


@pytest.fixture
def error_log():
    """The records of `conclave.errors` (the app's logger does not propagate to pytest's)."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    handler = Keep()
    logger = logging.getLogger("conclave.errors")
    logger.addHandler(handler)
    yield records
    logger.removeHandler(handler)


def test_every_refusal_is_json_with_a_code(twins):
    """Non-JSON, batched, scalar and shapeless bodies, a token that names nobody: the lean
    path and the view give the same JSON error body with a code (issue 13)."""
    for kw in [*REFUSED, dict(raw=b"5"), dict(raw=b"null"), dict(body={"query": GAMES}, token="junk")]:
        status, content_type, body = same(twins, kw.get("body"), **{k: v for k, v in kw.items() if k != "body"})
        assert content_type == "application/json" and isinstance(body, dict), (kw, status, body)
        assert body["errors"] and all(e["extensions"]["code"] for e in body["errors"]), (kw, body)
        assert status != 200 or body.get("data") is None, (kw, body)


def test_an_outage_is_service_unavailable_and_a_bug_internal_and_neither_says_more(twins, monkeypatch, error_log):
    """A database whose connections were killed answered with the raw SQL error and its
    parameters; a store that cannot be reached with its address. Now SERVICE_UNAVAILABLE
    with a fixed message, logged as one line without traceback; an unexpected error is
    INTERNAL_SERVER_ERROR, and only the log has its traceback."""
    import psycopg
    import redis.exceptions
    import sqlalchemy.exc

    from api.db import Database
    from api.live.memory import MemoryStore

    async def killed(*args, **kwargs):
        raise sqlalchemy.exc.OperationalError(
            "SELECT campaigns.id FROM campaigns WHERE campaigns.id = %(pk_1)s::VARCHAR", {"pk_1": "secret-param"},
            psycopg.OperationalError("terminating connection due to administrator command"))

    async def unreachable(*args, **kwargs):
        raise redis.exceptions.ConnectionError("Error 111 connecting to 10.1.2.3:6379. Connection refused.")

    async def bug(*args, **kwargs):
        raise KeyError("/srv/conclave/secret/path")

    for patch, query, code in [
        ((Database, "read", killed), '{ campaign(id: "abc") { id } }', "SERVICE_UNAVAILABLE"),
        ((MemoryStore, "load", unreachable), '{ table(id: "abc") { id } }', "SERVICE_UNAVAILABLE"),
        ((MemoryStore, "page_ids", bug), "{ tables { id } }", "INTERNAL_SERVER_ERROR"),
    ]:
        with monkeypatch.context() as m:
            m.setattr(*patch)
            error_log.clear()
            status, _, body = same(twins, {"query": query})
        assert status == 200 and [e["extensions"]["code"] for e in body["errors"]] == [code], body
        text = json.dumps(body)
        assert not any(leak in text for leak in ("SELECT", "secret", "10.1.2.3", "Traceback", "Error 111")), text
        assert len(error_log) == 2, error_log  # one line per app
        assert all(bool(r.exc_info) == (code == "INTERNAL_SERVER_ERROR") for r in error_log), error_log
