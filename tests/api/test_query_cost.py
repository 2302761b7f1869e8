"""The cost limit (schema/cost.py) and validation that cannot run away (schema/validation.py):
counted on the parsed document before graphql-core validates it, with verdicts keyed by
token stream so a different comment or spacing does not defeat the cache; refused with
`extensions.code` QUERY_TOO_COMPLEX over HTTP (lean path and strawberry's) and WebSocket,
for queries, mutations and subscriptions (issue 13, point 6)."""
from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import httpx
import pytest
import websockets
from graphql import get_introspection_query, parse
from hypothesis import given, settings, strategies as st

from schema.cost import CODE, CostLimits, TooComplex, normalized
from tests.api.client import CREATE

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def mode():
    """The limits live in the schema and the ASGI app, not the live stores: embedded is enough."""
    return "embedded"

REPEATED = "{ " + " ".join("games { id }" for _ in range(990)) + " }"  # the tester's 13 KB query
STATE_ALIASES = "{ tables { " + " ".join(f"a{i}: stateJson" for i in range(30)) + " } }"
GLOSSARY_ALIASES = "{ tables { id " + " ".join(f"g{i}: glossary" for i in range(30)) + " } }"
LOG_ALIASES = ('subscription($t: String!) { tableUpdates(tableId: $t) { table { '
               + " ".join(f"l{i}: log {{ version seat events }}" for i in range(29)) + " } } }")


def cost(query: str, **limits) -> int:
    return CostLimits(**limits).cost(parse(query))


def refusal(query: str, **limits) -> str:
    with pytest.raises(TooComplex) as caught:
        cost(query, **limits)
    return caught.value.message


def web_client_operations() -> dict[str, str]:
    """The reference web client's queries, as it sends them (api/static/play/api.js)."""
    source = (ROOT / "api/static/play/api.js").read_text()
    fields = re.search(r"TABLE_FIELDS = `(.*?)`", source, re.S).group(1)
    out = {}
    for name, text in re.findall(r"export const (\w+) = `(.*?)`;", source, re.S):
        out[name] = text.replace("${TABLE_FIELDS}", fields)
    return out


# -- the cost of a document ------------------------------------------------------------------
def test_every_query_the_web_client_and_graphiql_send_is_within_the_default_limit():
    operations = web_client_operations()
    assert {"TABLES", "TABLE", "ACT", "UPDATES", "GAMES", "CREATE", "JOIN"} <= operations.keys()
    for name, query in operations.items():
        if "{" in query:
            assert cost(query) <= 2000, name
    assert cost(get_introspection_query()) <= 2000


def test_repeated_identical_fields_are_refused_whatever_their_cost():
    assert "`games` is selected more than 10 times" in refusal(REPEATED)
    assert cost("{ " + "games { id } " * 10 + "}") == 20  # at the limit: served
    # through fragments too: the selection set after expansion counts
    spread = "{ ...A ...B } fragment A on Query { " + "games { id } " * 6 + "} fragment B on Query { " + \
        "games { id } " * 6 + "}"
    assert "`games`" in refusal(spread)


def test_aliases_of_expensive_fields_weigh_more_and_a_list_multiplies_its_selection():
    assert cost("{ games { id } }") == 2
    assert cost('{ table(id: "x") { stateJson } }') == 3 + 21
    assert cost("{ tables(first: 5) { id } }") == 11 + 5 * 1
    assert cost("{ tables { id } }") == 11 + 50 * 1  # the default page
    assert cost("{ tables(first: 1000) { id } }") == 11 + 100 * 1  # never more than the maximum page
    assert cost("query($n: Int) { tables(first: $n) { id } }") == 11 + 100 * 1  # a variable: the maximum
    assert cost("{ tablesPage(first: 3) { nextCursor tables { id } } }") == 11 + 3 * (1 + 11 + 1)  # the page's own list is the page
    assert "2000" in refusal(STATE_ALIASES)  # 30 aliased stateJson over a page of tables
    assert "2000" in refusal(GLOSSARY_ALIASES)
    assert "2000" in refusal(LOG_ALIASES)  # a subscription: the cost of every event
    acts = "mutation { " + " ".join(f'c{i}: createTable(input: {{game: "endless", players: 1}}) {{ __typename }}'
                                    for i in range(40)) + " }"
    assert "2000" in refusal(acts)


def test_the_message_says_the_cost_and_the_limit():
    message = refusal("{ tables { " + " ".join(f"a{i}: stateJson" for i in range(3)) + " } }", max_cost=500)
    assert message.startswith("query cost is over the limit of 500: at least ")
    assert int(message.rsplit(" ", 1)[1]) > 500


def test_fragments_that_multiply_without_fields_are_still_a_bounded_walk():
    """Five levels of five spreads each: 3,125 expansions of `__typename` (counted as
    repeats), and with distinct aliases per level the expansion work itself is bounded."""
    levels = "".join(f"fragment F{i} on Query {{ {' '.join(f'...F{i + 1}' for _ in range(5))} }} " for i in range(6))
    deep = "{ ...F0 } " + levels + "fragment F6 on Query { __typename }"
    with pytest.raises(TooComplex):
        cost(deep)
    empty = "{ ...F0 } " + levels.replace("...F6", "") + "fragment F6 on Query { __typename }"
    assert cost(empty) == 0  # no field at all: nothing to pay, and the walk ended
    cyclic = "{ ...A games { id } } fragment A on Query { ...A }"
    assert cost(cyclic) == 2  # a cycle is validation's to refuse, not an endless walk


# -- one verdict per token stream -------------------------------------------------------------
def test_documents_that_differ_only_in_ignored_tokens_have_one_key_and_others_do_not():
    a = normalized('query { a(x: "s # t, u", y: -1.5e3) # note\n , b }')
    assert a == normalized('query{a(x:"s # t, u"y:-1.5e3)b}') == normalized('\ufeffquery {\n a ( x : "s # t, u" ,,, y: -1.5e3 ) b }')
    assert normalized("{ a b }") != normalized("{ ab }")
    assert normalized('{ a(x: "a  b") }') != normalized('{ a(x: "a b") }')
    assert normalized('{ a(x: """x "" # y""") }') == normalized('{a(x:"""x "" # y""")}')


IGNORED = st.sampled_from([" ", "\n", "\t", ",", " # c\n", "\r\n", "  ", ",\ufeff"])
TOKENS = st.sampled_from(["{", "}", "(", ")", ":", "$v", "games", "id", "a", "...", "F", '"s, # t"', "1", "-2.5",
                          '"""b "" x"""', "!", "[", "]", "=", "@skip"])


def lexed(source: str) -> list | None:
    """The GraphQL lexer's tokens of a text, None if it refuses it."""
    from graphql.language import Lexer, Source, TokenKind

    lexer, out = Lexer(Source(source)), []
    try:
        while (token := lexer.advance()).kind is not TokenKind.EOF:
            out.append((token.kind, token.value))
    except Exception:  # noqa: BLE001 - a syntax error
        return None
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(TOKENS, IGNORED, IGNORED), max_size=12))
def test_the_same_tokens_with_other_ignored_text_between_them_have_one_key(parts):
    first = "".join(token + a for token, a, _ in parts)
    second = "".join(token + b for token, _, b in parts)
    assert normalized(first) == normalized(second)


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet='ab {}#\n",.1-', max_size=9), st.text(alphabet='ab {}#\n",.1-', max_size=9))
def test_one_key_is_one_token_stream(first, second):
    """Texts with one key that the lexer both accepts lex to the same tokens: a verdict
    kept for one is the other's."""
    if normalized(first) == normalized(second):
        a, b = lexed(first), lexed(second)
        assert a is None or b is None or a == b, (first, second)


def test_a_refused_document_with_another_comment_is_refused_without_a_parse_or_a_validation(monkeypatch):
    import schema.prepared as prepared_module
    import strawberry.schema.schema as strawberry_schema
    from api.app import limit_rules
    from api.settings import Settings
    from core.plugins import default_registry
    from schema.build import build_schema
    from schema.prepared import DocumentCache, Refused

    schema = build_schema(default_registry())
    documents = DocumentCache(schema, 4000, limit_rules(Settings()))
    calls = {"parse": 0, "validate": 0}
    real_parse, real_validate = prepared_module.parse, strawberry_schema.validate_document

    def counted(name, real):
        def call(*args, **kwargs):
            calls[name] += 1
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(prepared_module, "parse", counted("parse", real_parse))
    monkeypatch.setattr(strawberry_schema, "validate_document", counted("validate", real_validate))
    first = documents.prepare("# one\n" + REPEATED)
    assert isinstance(first, Refused) and first.error.extensions["code"] == CODE
    assert calls == {"parse": 1, "validate": 0}  # refused before graphql-core's validation
    for i in range(5):
        again = documents.prepare(f"# another comment {i}\n" + REPEATED.replace(" ", "  " if i % 2 else " ,"))
        assert isinstance(again, Refused)
    assert calls == {"parse": 1, "validate": 0}
    # a valid document is validated once; another spacing of it is parsed, not validated again
    assert documents.prepare("{ games { id } }") is not None
    assert documents.prepare("{games{id}} # again") is not None
    assert calls == {"parse": 3, "validate": 1}


# -- through the real server ---------------------------------------------------------------------
def post(server, query: str, variables: dict | None = None, **kw) -> dict:
    r = httpx.post(server.url, json={"query": query, "variables": variables or {}}, timeout=30, **kw)
    assert r.status_code == 200, r.text
    return r.json()


def assert_too_complex(body: dict, *words: str) -> None:
    assert body.get("data") is None, body
    [error] = body["errors"]
    assert error["extensions"]["code"] == CODE, error
    for word in words:
        assert word in error["message"], error


async def subscribe_errors(server, query: str, variables: dict, legacy: bool = False) -> list:
    """The errors a subscription gets, over either WebSocket protocol."""
    protocol = "graphql-ws" if legacy else "graphql-transport-ws"
    async with websockets.connect(server.ws_url, subprotocols=[protocol]) as socket:
        await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(await socket.recv())["type"] == "connection_ack"
        await socket.send(json.dumps({"id": "1", "type": "start" if legacy else "subscribe",
                                      "payload": {"query": query, "variables": variables}}))
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), 10))
            if message["type"] == "ka":
                continue
            if message["type"] == "error":
                payload = message["payload"]
                return payload if isinstance(payload, list) else [payload]
            if message["type"] == "data" and message["payload"].get("errors"):
                return message["payload"]["errors"]
            raise AssertionError(f"the subscription was not refused: {message}")


@pytest.mark.parametrize("lean", ["1", "0"])
def test_the_attacks_are_refused_over_http_on_both_paths_and_other_requests_are_served(make_server, lean):
    server = make_server(CONCLAVE_LEAN_PATHS=lean)
    created = post(server, CREATE, {"input": {"game": "endless", "players": 2}})["data"]["createTable"]
    for i in range(3):  # a different comment each time
        assert_too_complex(post(server, f"# attempt {i}\n" + REPEATED), "`games`", "10")
    r = httpx.get(server.url, params={"query": "# by GET\n" + REPEATED}, timeout=30)
    assert_too_complex(r.json(), "`games`")
    assert_too_complex(post(server, STATE_ALIASES), "2000")
    assert_too_complex(post(server, GLOSSARY_ALIASES), "2000")
    mutation = "mutation { " + " ".join(f'c{i}: createTable(input: {{game: "endless", players: 1}}) '
                                        "{ ... on CreateTableOk { table { stateJson } } }" for i in range(30)) + " }"
    assert_too_complex(post(server, mutation), "2000")
    assert post(server, "{ tables { id } }")["data"]["tables"] == [{"id": created["table"]["id"]}]  # none created
    assert post(server, "{ games { id } }")["data"]["games"]


@pytest.mark.parametrize("legacy", [False, True])
def test_a_subscription_of_29_aliased_logs_is_refused_over_websocket(embedded_server, legacy):
    server = embedded_server
    created = post(server, CREATE, {"input": {"game": "endless", "players": 2}})["data"]["createTable"]
    errors = asyncio.run(subscribe_errors(server, LOG_ALIASES, {"t": created["table"]["id"]}, legacy))
    assert errors[0]["extensions"]["code"] == CODE and "2000" in errors[0]["message"], errors


def test_the_limits_come_from_the_environment(make_server):
    server = make_server(CONCLAVE_MAX_COST="30", CONCLAVE_MAX_REPEATED_FIELDS="2")
    assert_too_complex(post(server, "{ tables { id } }"), "30")  # 11 + 50
    assert post(server, "{ tables(first: 10) { id } }")["data"] == {"tables": []}  # 11 + 10
    assert_too_complex(post(server, "{ games { id } games { id } games { id } }"), "more than 2 times")


def test_a_websocket_refused_again_and_again_is_closed_with_4429(embedded_server):
    """Over WebSocket the HTTP rate limits (which a refusal counts against) see nothing: a
    connection refused more than 10 times is closed, and a new one is served."""
    server = embedded_server
    created = post(server, CREATE, {"input": {"game": "endless", "players": 2}})["data"]["createTable"]

    async def go():
        async with websockets.connect(server.ws_url, subprotocols=["graphql-transport-ws"]) as socket:
            await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
            assert json.loads(await socket.recv())["type"] == "connection_ack"
            refused = 0
            try:
                for i in range(20):
                    await socket.send(json.dumps({"id": str(i), "type": "subscribe", "payload": {
                        "query": f"# {i}\n" + LOG_ALIASES, "variables": {"t": created["table"]["id"]}}}))
                    message = json.loads(await asyncio.wait_for(socket.recv(), 10))
                    assert message["payload"][0]["extensions"]["code"] == CODE, message
                    refused += 1
            except websockets.ConnectionClosed as closed:
                return refused, closed.rcvd.code if closed.rcvd else None
            return refused, None

    refused, code = asyncio.run(go())
    assert refused == 11 and code == 4429, (refused, code)
    errors = asyncio.run(subscribe_errors(server, LOG_ALIASES, {"t": created["table"]["id"]}))
    assert errors[0]["extensions"]["code"] == CODE


def test_an_address_flooding_refused_documents_is_shut_out_and_other_addresses_are_served(make_server):
    """A refusal counts CONCLAVE_REFUSAL_PENALTY (100) requests at the address's rate: past
    it, the address's new connections, HTTP or WebSocket, are dropped as they open, while
    another address (127.0.0.2, loopback too) is served."""
    server = make_server(CONCLAVE_ADDRESS_RATE_PER_SECOND="1", CONCLAVE_ADDRESS_BURST="50")
    assert post(server, "{ games { id } }")["data"]["games"]
    assert_too_complex(post(server, REPEATED))  # 49 - 100: shut out for about 50 s
    with pytest.raises(httpx.TransportError):
        httpx.post(server.url, json={"query": "{ games { id } }"}, timeout=5)

    async def websocket():
        async with websockets.connect(server.ws_url, subprotocols=["graphql-transport-ws"], open_timeout=5):
            pass

    with pytest.raises((OSError, websockets.exceptions.WebSocketException, asyncio.TimeoutError)):
        asyncio.run(websocket())
    other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))
    assert other.post(server.url, json={"query": "{ games { id } }"}).json()["data"]["games"]


def test_a_token_bucket_charged_past_empty_says_how_long_until_it_refills():
    from api.limits import TokenBucket, is_shut_out, shut_out

    bucket = TokenBucket(rate=10.0, burst=20)
    assert bucket.charge("a", 5) == 0.0  # 15 left
    assert 8.5 < bucket.charge("a", 100) <= 8.6  # -85: (1 + 85) / 10 s
    assert not bucket.allow("a") and bucket.allow("b")
    shut_out("192.0.2.1", 30)
    assert is_shut_out("192.0.2.1") and not is_shut_out("192.0.2.2")
