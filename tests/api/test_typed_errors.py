"""Every failure a client can cause is typed, through a real server: bad table options and
Queen's Dilemma Characters are `Rejected`, GraphQL errors outside a result union carry
`extensions.code`, both WebSocket protocols answer a bad subscription with their error
message, malformed HTTP requests get a JSON error body, tokens mean what they say, and the
log keeps one structured line per client mistake and no traceback. Each case is one the
issue's tester found (issue 13, point 3 and 4)."""
from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from tests.api.client import create_and_join, http

CREATE = """mutation($input: CreateTableInput!) { createTable(input: $input) {
  __typename ... on CreateTableOk { hostToken table { id } } ... on Rejected { code message } } }"""
CAMPAIGN = """mutation($input: CreateCampaignInput!) { createCampaign(input: $input) {
  __typename ... on CampaignOk { campaign { id } } ... on Rejected { code message } } }"""
SUBSCRIBE = "subscription($t: String!) { tableUpdates(tableId: $t) { version } }"
QD = "queens-dilemma"


def post(server, body, token: str | None = None, raw: bytes | None = None) -> httpx.Response:
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    content = raw if raw is not None else json.dumps(body).encode()
    return httpx.post(server.url, content=content, headers=headers, timeout=10)


def codes(body: dict) -> list[str]:
    return [(e.get("extensions") or {}).get("code") for e in body.get("errors") or []]


def log_records(server) -> list[dict]:
    return [json.loads(line) for line in server.log_path.read_text().splitlines() if line.startswith("{")]


def assert_no_traceback(server) -> None:
    text = server.log_path.read_text()
    assert "Traceback" not in text and '"exc"' not in text, text[-4000:]


def new_endless(server) -> tuple[str, dict]:
    async def go():
        async with http(server.url) as anon:
            return await create_and_join(anon, "endless", 2)

    return asyncio.run(go())


# -- point 3: option and campaign checks are Rejected ----------------------------------------------
BAD_CHARACTERS = {
    "unknown": ["Aesyas", "Nobody", "Syd"],
    "duplicate": ["Aesyas", "Aesyas", "Syd"],  # QD-017: two players cannot share a Character
    "too-few": ["Aesyas", "Syd"],
    "nested-lists": [["Aesyas"], ["Syd"], ["Jilian"]],  # was "sequence item 0: expected str", a traceback
    "numbers": [1, 2, 3],
    "null-inside": [None, "Syd", "Jilian"],
    "object": {"Aesyas": 1},
    "number": 7,
}
BAD_OPTIONS = {"list": [1, 2], "number": 5, "string": "x", "nested": [["characters", "Syd"]], "false": False,
               "absent-nested": {"absent": [[0]]}, "absent-huge": {"absent": [2 ** 70]},
               "defected-text": {"defected": "all"}, "unknown-key": {"nope": 1}}


@pytest.mark.parametrize("mutation", ["createTable", "createCampaign"])
def test_bad_queens_dilemma_characters_and_options_are_rejected_with_bad_option_QD_017(embedded_server, mutation):
    """QD-017 (one Character per player) and the shape of every option: a `Rejected`
    BAD_OPTION for each bad value, for createTable and createCampaign alike, and the log
    says one line for each, no traceback."""
    server = embedded_server
    query = CREATE if mutation == "createTable" else CAMPAIGN
    cases = {f"characters-{k}": {"characters": v} for k, v in BAD_CHARACTERS.items()}
    cases.update({f"options-{k}": v for k, v in BAD_OPTIONS.items()})
    for name, options in cases.items():
        r = post(server, {"query": query, "variables": {"input": {"game": QD, "players": 3, "options": options}}})
        assert r.status_code == 200, (name, r.text)
        answer = r.json()["data"][mutation]
        assert answer["__typename"] == "Rejected" and answer["code"] == "BAD_OPTION", (name, answer)
    ok = post(server, {"query": query, "variables": {"input": {"game": QD, "players": 3, "options": {
        "characters": ["Aesyas", "Jilian", "Syd"]}}}}).json()["data"][mutation]
    assert ok["__typename"] in ("CreateTableOk", "CampaignOk"), ok  # a good set still starts
    lines = [r for r in log_records(server) if r.get("msg") == "client error"]
    assert [(r["code"], r["path"]) for r in lines] == [("BAD_OPTION", [mutation])] * len(cases), lines
    assert_no_traceback(server)


def test_names_with_control_characters_and_ids_with_nul_are_refused_not_500(embedded_server):
    """A NUL byte cannot be stored in PostgreSQL text: a name with one is BAD_NAME, an id
    with one names nothing (as any unknown id)."""
    server = embedded_server
    table_id, _tokens = new_endless(server)
    r = post(server, {"query": CAMPAIGN, "variables": {"input": {"game": QD, "players": 3, "name": "a\x00b"}}})
    assert r.json()["data"]["createCampaign"]["code"] == "BAD_NAME"
    join = 'mutation($t: String!) { joinTable(tableId: $t, seat: 1, name: "x\\u0000") { ... on Rejected { code } } }'
    assert post(server, {"query": join, "variables": {"t": table_id}}).json()["data"]["joinTable"]["code"] in (
        "BAD_NAME", "SEAT_TAKEN")
    r = post(server, {"query": 'query { campaign(id: "ab\\u0000") { id } }'})
    assert r.json() == {"data": {"campaign": None}}
    start = 'mutation { startNextGame(campaignId: "\\u0000") { ... on Rejected { code } } }'
    assert post(server, {"query": start}).json()["data"]["startNextGame"]["code"] == "UNKNOWN_CAMPAIGN"
    assert_no_traceback(server)


# -- point 3: GraphQL errors outside a union carry a code -------------------------------------------
def test_parse_validation_and_limit_errors_carry_their_codes(make_server):
    server = make_server(CONCLAVE_MAX_QUERY_DEPTH="4", CONCLAVE_MAX_ALIASES="3", CONCLAVE_MAX_TOKENS="200")
    table_id, _tokens = new_endless(server)
    cases = {
        "{ games { id ": "GRAPHQL_PARSE_FAILED",
        "{ nope }": "GRAPHQL_VALIDATION_FAILED",
        "{ a: games { id } b: games { id } c: games { id } d: games { id } }": "TOO_MANY_ALIASES",  # "4 aliases found"
        "{ table(id: \"x\") { state { ... on NewCapitalState { players { columns { slots { leader } } } } } } }":
            "QUERY_TOO_DEEP",
        "{ games { " + "id " * 300 + "} }": "TOO_MANY_TOKENS",
    }
    for query, code in cases.items():
        body = post(server, {"query": query}).json()
        assert body["data"] is None and codes(body) == [code], (query[:40], body)
    body = post(server, {"query": "query($t: String!) { table(id: $t) { id } }", "variables": {"t": 5}}).json()
    assert codes(body) == ["BAD_USER_INPUT"], body
    assert post(server, {"query": "{ table(id: \"%s\") { id } }" % table_id}).json()["data"]["table"]["id"] == table_id
    mistakes = [r for r in log_records(server) if r.get("msg") == "client error"]
    assert [r["code"] for r in mistakes] == [*cases.values(), "BAD_USER_INPUT"]  # one line each, with its code
    assert_no_traceback(server)


def test_malformed_http_requests_get_a_json_error_with_a_code(embedded_server):
    server = embedded_server
    for raw, code in [(b"{not json", "BAD_REQUEST"), (b"5", "BAD_REQUEST"), (b"null", "BAD_REQUEST"),
                      (b'"query"', "BAD_REQUEST"), (b'[{"query": "{ games { id } }"}]', "BAD_REQUEST"),
                      (b'{"variables": {}}', "BAD_REQUEST"), (b'{"query": 5}', "BAD_REQUEST")]:
        r = post(server, None, raw=raw)
        assert r.status_code == 400 and r.headers["content-type"] == "application/json", (raw, r.status_code, r.text)
        assert codes(r.json()) == [code], (raw, r.text)
    r = httpx.post(server.url, content=b"{ games { id } }", headers={"content-type": "text/plain"})
    assert r.status_code == 400 and codes(r.json()) == ["BAD_REQUEST"], r.text
    r = post(server, {"query": SUBSCRIBE, "variables": {"t": "x"}})  # a subscription needs a stream
    assert r.status_code == 400 and codes(r.json()) == ["BAD_REQUEST"], r.text
    assert_no_traceback(server)


# -- point 3: bad subscriptions get the protocol's error message ----------------------------------------
async def first_answer(url: str, protocol: str, query: str, variables: dict, init: dict | None = None):
    async with websockets.connect(url, subprotocols=[protocol]) as ws:
        await ws.send(json.dumps({"type": "connection_init", "payload": init or {}}))
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        start = "subscribe" if protocol == "graphql-transport-ws" else "start"
        await ws.send(json.dumps({"id": "1", "type": start, "payload": {"query": query, "variables": variables}}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if message["type"] != "ka":
                return message


@pytest.mark.parametrize("protocol", ["graphql-transport-ws", "graphql-ws"])
def test_a_bad_subscription_gets_the_protocols_error_message_with_a_code(embedded_server, protocol):
    """A syntax error got only `complete` (graphql-transport-ws) or nothing at all
    (graphql-ws); an unknown table an untyped "no table"."""
    server = embedded_server
    for query, variables, code in [
        ("subscription { tableUpdates(tableId: \"x\" { version } }", {}, "GRAPHQL_PARSE_FAILED"),
        ("subscription { tableUpdates(tableId: \"x\") { nope } }", {}, "GRAPHQL_VALIDATION_FAILED"),
        (SUBSCRIBE, {"t": "no-such-table"}, "UNKNOWN_TABLE"),
        (SUBSCRIBE, {"t": 5}, "BAD_USER_INPUT"),
    ]:
        message = asyncio.run(first_answer(server.ws_url, protocol, query, variables))
        assert message["type"] == "error" and message["id"] == "1", (query, message)
        errors = message["payload"] if protocol == "graphql-transport-ws" else [message["payload"]]
        assert [e["extensions"]["code"] for e in errors] == [code], (query, message)
    assert_no_traceback(server)


# -- point 4: tokens mean what they say ------------------------------------------------------------------
def test_a_token_that_names_nobody_is_refused_over_http_and_websocket_and_no_token_is_a_spectator(embedded_server):
    server = embedded_server
    table_id, tokens = new_endless(server)
    other_id, _other = new_endless(server)
    read = {"query": "query($t: String!) { table(id: $t) { viewer } }", "variables": {"t": table_id}}
    r = post(server, read, token="junk")
    assert r.status_code == 401 and codes(r.json()) == ["UNAUTHORIZED"], r.text
    assert "unknown token" in r.json()["errors"][0]["message"]
    assert r.headers["www-authenticate"].startswith("Bearer")
    act = {"query": 'mutation($t: String!) { act(tableId: $t, action: {type: "tick", params: {n: 1}}) { __typename } }',
           "variables": {"t": table_id}}
    assert post(server, act, token="junk").status_code == 401
    assert post(server, read).json() == {"data": {"table": {"viewer": None}}}  # no token: a spectator
    assert post(server, read, token=tokens[1]).json() == {"data": {"table": {"viewer": 1}}}
    other = {**read, "variables": {"t": other_id}}
    assert post(server, other, token=tokens[1]).json() == {"data": {"table": {"viewer": None}}}  # a valid token

    async def init(protocol: str, token: str):
        async with websockets.connect(server.ws_url, subprotocols=[protocol]) as ws:
            await ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}}))
            try:
                return json.loads(await asyncio.wait_for(ws.recv(), 5))
            except websockets.ConnectionClosed as exc:
                return exc.rcvd.code

    assert asyncio.run(init("graphql-transport-ws", "junk")) == 4403
    refused = asyncio.run(init("graphql-ws", "junk"))
    assert refused["type"] == "connection_error" and refused["payload"]["extensions"]["code"] == "UNAUTHORIZED"
    assert asyncio.run(init("graphql-transport-ws", tokens[0]))["type"] == "connection_ack"
    assert_no_traceback(server)


def test_act_with_a_junk_token_says_the_token_is_unknown(tmp_path):
    """In the service (a WebSocket connection or a caller past the HTTP check): UNAUTHORIZED,
    saying the token is unknown, not that acting needs one."""
    from api.db import Database
    from api.live.memory import MemoryStore
    from api.service import Rejected, TableService
    from api.settings import Settings
    from core.plugins import BUILTIN_PLUGINS, Registry

    registry = Registry([*BUILTIN_PLUGINS, "tests.api.endless"], load_entry_points=False)
    db = Database(f"sqlite:///{tmp_path / 's.sqlite3'}")
    service = TableService(registry, MemoryStore(db), db, Settings())

    async def scenario():
        loaded = (await service.create_table("endless", 2)).table
        answers = {}
        for token in ("junk", None):
            with pytest.raises(Rejected) as refused:
                await service.act(loaded.id, token, {"type": "tick", "params": {"n": 1}})
            answers[token] = (refused.value.code, refused.value.message)
        return answers

    answers = asyncio.run(scenario())
    assert answers["junk"][0] == "UNAUTHORIZED" and "unknown token" in answers["junk"][1]
    assert answers[None][0] == "UNAUTHORIZED" and "needs a seat token" in answers[None][1]


def test_each_refused_action_is_counted_by_its_code_once(tmp_path):
    """`conclave_rejections{code}` counts refused actions in the service, whoever calls it
    (the schema's `act` no longer counts them itself: it cannot reach api's metrics)."""
    from api.db import Database
    from api.live.memory import MemoryStore
    from api.metrics import METRICS
    from api.service import Rejected, TableService
    from api.settings import Settings
    from core.plugins import BUILTIN_PLUGINS, Registry

    registry = Registry([*BUILTIN_PLUGINS, "tests.api.endless"], load_entry_points=False)
    db = Database(f"sqlite:///{tmp_path / 's.sqlite3'}")
    service = TableService(registry, MemoryStore(db), db, Settings())

    def counted() -> float:
        return METRICS.registry.get_sample_value("conclave_rejections_total", {"code": "UNAUTHORIZED"}) or 0.0

    async def scenario():
        loaded = (await service.create_table("endless", 2)).table
        before = counted()
        with pytest.raises(Rejected):
            await service.act(loaded.id, "junk", {"type": "tick", "params": {"n": 1}})
        return counted() - before

    assert asyncio.run(scenario()) == 1
