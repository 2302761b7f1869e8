"""Who may act and who may see what, through the real API (embedded and Redis+PostgreSQL):

- only a seat's own token acts for that seat; a rejected attempt changes nothing;
- tokens are stored only as SHA-256 hashes (the SQLite file, the Redis keys and values, the
  PostgreSQL tables and the server log never hold a plaintext token);
- a walk over every field of `table` (generated from `schema.graphql`, so a new field is
  covered automatically) for every seat, a spectator, the host token and a foreign token,
  after every action of a partly played New Capital game, and over every seat's and a
  spectator's WebSocket subscription: no string names a card that viewer may not see.
  The secrets come from the engine's own replay of the action log
  (`plugins.new_capital.views.hidden_from`; for logged events the rule of
  tests/new_capital/test_bot_games.py: only cards secret before *and* after the action).
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
from pathlib import Path

import httpx
from gql import GraphQLRequest
from graphql import GraphQLUnionType, Undefined, build_schema, parse, get_named_type, is_leaf_type, is_non_null_type

from core import create_table, default_registry, replay, to_action, view, view_events
from core.state import encode_state
from plugins.new_capital.views import event_secrets, hidden_from
from tests.api.client import ACT, TABLE, create_and_join, http, run, sessions, ws

ROOT = Path(__file__).resolve().parents[2]
SDL = build_schema((ROOT / "schema.graphql").read_text())
GAME = "new-capital"
RULES = default_registry().rules_for(GAME, [])


# -- every field of a type, from the exported schema -----------------------------------------
def has_default(arg) -> bool:
    return arg.default_value is not Undefined or getattr(arg, "default", None) is not None or (
        arg.ast_node is not None and arg.ast_node.default_value is not None)


def selection(type_name: str, depth: int = 0, skip: set[str] = frozenset()) -> str:
    """A selection set of every field of `type_name` (but `skip`: "Type.field"), nested, every
    union member spread."""
    assert depth < 10, f"unexpected cycle at {type_name}"
    t = SDL.get_type(type_name)
    if isinstance(t, GraphQLUnionType):
        return "{ __typename " + " ".join(f"... on {m.name} {selection(m.name, depth + 1)}" for m in t.types) + " }"
    parts = ["__typename"]
    for name, field in t.fields.items():
        if f"{type_name}.{name}" in skip:
            continue
        required = [a for a, arg in field.args.items() if is_non_null_type(arg.type) and not has_default(arg)]
        assert not required, f"{type_name}.{name} needs arguments {required}"
        inner = get_named_type(field.type)
        parts.append(name if is_leaf_type(inner) else f"{name} {selection(inner.name, depth + 1)}")
    return "{ " + " ".join(parts) + " }"


TABLE_ALL = selection("Table")
VIEW_ALL = "query($t: String!) { table(id: $t) " + TABLE_ALL + """
  tables(game: "new-capital", first: 20) { id viewer stateJson legalActions { type params } prompts { seat options { type params } } } }"""
ACT_ALL = ("mutation($t: String!, $a: ActionInput!, $v: Int) { act(tableId: $t, action: $a, expectedVersion: $v) {"
           " __typename ... on ActOk { version table " + TABLE_ALL + " } ... on ActRejected { code message } } }")
# the subscription's table: every field but `log` (the same resolver as over HTTP, walked there;
# with it each update would carry the whole log again)
UPDATES_ALL = ("subscription($t: String!) { tableUpdates(tableId: $t, afterVersion: 0) { version events table "
               + selection("Table", skip={"Table.log"}) + " } }")
STATE_JSON = "query($t: String!) { table(id: $t) { version viewer stateJson log { version seat } } }"


def test_the_walk_selects_every_field_a_viewer_can_read():
    for needed in ("stateJson", "legalActions", "prompts", "options", "log", "action", "events", "NewCapitalState",
                   "hand", "faceDown", "draftOffer", "pool", "discard", "burned", "resolving", "structures", "flipped",
                   "leader", "crisesDone", "GenericState"):
        assert re.search(rf"\b{needed}\b", TABLE_ALL), needed


def strings(obj, path="$"):
    """(path, string) for every string in a response: values, keys, and the words of sentences."""
    if isinstance(obj, str):
        yield path, obj
        for word in re.findall(r"[A-Za-z0-9:_\-]+", obj):
            if word != obj:
                yield path, word
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from strings(k, f"{path}.<key>")
            yield from strings(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from strings(v, f"{path}[{i}]")


def leaks(obj, secret: set[str], path="$") -> list[tuple[str, str]]:
    return [(p, s) for p, s in strings(obj, path) if s in secret]


def plain(obj):
    return json.loads(json.dumps(obj))


# -- the engine's replay of the server's game -------------------------------------------------
class Mirror:
    """The engine's own copy of the server's table: the state after every version, the events
    of every version. Built as `core.replay` does (create, then apply the log in order)."""

    def __init__(self, players: int, seed: int) -> None:
        self.players, self.seed = players, seed
        self.table = replay(GAME, players, seed, [])
        self.states = [self.table.state]
        self.events: list[list] = [[]]
        self.log: list[tuple[int, dict]] = []
        self.memo: dict = {}

    def _memo(self, kind: str, version: int, viewer: int | None, make):
        key = (kind, version, viewer)
        if key not in self.memo:
            self.memo[key] = make()
        return self.memo[key]

    def act(self, seat: int, action: dict) -> None:
        self.table.act(seat, to_action(action))
        self.log.append((seat, action))
        self.states.append(self.table.state)
        self.events.append(self.table.events)

    def hidden(self, version: int, viewer: int | None) -> set[str]:
        return self._memo("hidden", version, viewer, lambda: hidden_from(self.states[version], viewer))

    def event_secret(self, version: int, viewer: int | None) -> set[str]:
        def make():
            before, after = self.states[version - 1], self.states[version]
            secret = event_secrets(before, viewer) & event_secrets(after, viewer)
            if any(e.type == "reveal" for e in self.events[version]):
                secret -= {c for p in before.players for c in p.face_down}
            return secret

        return self._memo("event_secret", version, viewer, make)

    def view(self, version: int, viewer: int | None) -> dict:
        return self._memo("view", version, viewer, lambda: plain(view(RULES, self.states[version], viewer)))

    def events_for(self, version: int, viewer: int | None) -> list[dict]:
        return self._memo("events", version, viewer, lambda: plain(view_events(self.events[version], viewer)))


def check_table(mirror: Mirror, table: dict, viewer: int | None, where: str) -> None:
    """One viewer's `Table` (every field) against the replay at the table's version."""
    v = table["version"]
    assert table["viewer"] == viewer, where
    # the state, prompts, legal actions: nothing hidden from this viewer now
    rest = {k: val for k, val in table.items() if k != "log"}
    found = leaks(rest, mirror.hidden(v, viewer), where)
    assert not found, f"{where}: viewer {viewer} at version {v} sees hidden cards {found}"
    assert table["stateJson"] == mirror.view(v, viewer), f"{where}: stateJson is not the engine's view"
    for p in table["prompts"]:
        assert (p["options"] is not None) == (p["seat"] == viewer), f"{where}: options of prompt {p}"
    mine = [o for p in table["prompts"] if p["seat"] == viewer for o in p["options"]]
    assert table["legalActions"] == mine
    # the log: each entry as this viewer may see it, naming no card secret around it
    if "log" not in table:
        return
    assert [e["version"] for e in table["log"]] == list(range(1, v + 1)), where
    for e in table["log"]:
        n = e["version"]
        seen = mirror.memo.get(("entry", n, viewer))
        if seen is not None:  # an entry never changes: the same as when it was checked in full
            assert e == seen, f"{where}: the log entry of version {n} changed"
            continue
        mirror.memo[("entry", n, viewer)] = e
        seat, action = mirror.log[n - 1]
        assert e["seat"] == seat
        assert e["action"] == (None if seat != viewer else {"__typename": "LegalAction", "type": action["type"],
                                                             "params": action.get("params", {})}), where
        assert e["events"] == mirror.events_for(n, viewer), f"{where}: log events of version {n}"
        found = leaks(e, mirror.event_secret(n, viewer), f"{where}.log[{n}]")
        assert not found, f"{where}: viewer {viewer} sees {found} in the log entry of version {n}"


# -- who may act --------------------------------------------------------------------------------
async def create_host_and_join(session, game: str, players: int, seed: int):
    """(table id, host token, {seat: seat token})."""
    created = (await run(session, "mutation($i: CreateTableInput!) { createTable(input: $i) {"
                                  " ... on CreateTableOk { hostToken joinCode table { id } } } }",
                         i={"game": game, "players": players, "seed": seed}))["createTable"]
    table_id, tokens = created["table"]["id"], {}
    for seat in range(players):
        joined = (await run(session, "mutation($t: String!, $s: Int!, $c: String) { joinTable(tableId: $t, seat: $s,"
                                     " name: \"P\", code: $c) { ... on JoinOk { seatToken } } }", t=table_id, s=seat,
                            c=created["joinCode"]))["joinTable"]
        tokens[seat] = joined["seatToken"]
    return table_id, created["hostToken"], tokens


async def _snapshot(url, table_id, tokens):
    """Every seat's and the spectator's view (version, stateJson, log)."""
    out = {}
    for key, token in [*tokens.items(), (None, None)]:
        async with http(url, token) as s:
            out[key] = (await run(s, STATE_JSON, t=table_id))["table"]
    return out


def test_only_a_seats_own_token_acts_for_it_and_a_refusal_changes_nothing(server):
    asyncio.run(_only_own_token(server))


async def _only_own_token(server):
    async with http(server.url) as anon:
        table_id, host, tokens = await create_host_and_join(anon, GAME, 2, seed=3)
        other_id, other_tokens = await create_and_join(anon, GAME, 2, seed=4)
    async with sessions(server.url, tokens) as ss:
        draft = (await run(ss[0], TABLE, t=table_id))["table"]
        assert draft["activeSeats"] == [0, 1] and draft["version"] == 0
        action0 = draft["legalActions"][0]
        before = await _snapshot(server.url, table_id, tokens)

        attempts = {}
        async with http(server.url) as anon:  # no token at all
            attempts["none"] = (await run(anon, ACT, t=table_id, a=action0))["act"]
        for name, header in [("garbage", "Bearer not-a-token"), ("basic", f"Basic {tokens[0]}"),
                             ("raw", tokens[0]), ("empty", "Bearer"), ("lowercase-other", f"token {tokens[0]}")]:
            r = httpx.post(server.url, json={"query": ACT, "variables": {"t": table_id, "a": action0}},
                           headers={"Authorization": header})
            body = r.json()
            attempts[name] = body["data"]["act"] if r.status_code == 200 else {
                "__typename": f"HTTP {r.status_code}", "code": body["errors"][0]["extensions"]["code"]}
        for name, token in [("other-table", other_tokens[0]), ("host", host)]:
            async with http(server.url, token) as s:
                attempts[name] = (await run(s, ACT, t=table_id, a=action0))["act"]
        # seat 1 sends seat 0's legal action while both draft: it is not seat 1's to make
        attempts["seat1"] = (await run(ss[1], ACT, t=table_id, a=action0))["act"]

        codes = {k: (a["__typename"], a.get("code")) for k, a in attempts.items()}
        assert codes == {
            "none": ("ActRejected", "UNAUTHORIZED"), "garbage": ("HTTP 401", "UNAUTHORIZED"),  # a token naming nobody
            "basic": ("ActRejected", "UNAUTHORIZED"), "raw": ("ActRejected", "UNAUTHORIZED"),
            "empty": ("ActRejected", "UNAUTHORIZED"), "lowercase-other": ("ActRejected", "UNAUTHORIZED"),
            "other-table": ("ActRejected", "FORBIDDEN"), "host": ("ActRejected", "FORBIDDEN"),
            "seat1": ("ActRejected", "BAD_PARAMETER"),
        }, attempts
        assert await _snapshot(server.url, table_id, tokens) == before  # nothing changed, for anyone
        async with http(server.url, other_tokens[0]) as s:
            assert (await run(s, STATE_JSON, t=other_id))["table"]["version"] == 0

        # the draft through, one seat to move: the other seat's token cannot make its move
        rng = random.Random(3)
        while True:
            t = (await run(ss[0], TABLE, t=table_id))["table"]
            if len(t["activeSeats"]) == 1:
                break
            seat = t["activeSeats"][0]
            mine = (await run(ss[seat], TABLE, t=table_id))["table"]
            assert (await run(ss[seat], ACT, t=table_id, a=rng.choice(mine["legalActions"])))["act"]["__typename"] == "ActOk"
        mover = t["activeSeats"][0]
        idle = 1 - mover
        move = (await run(ss[mover], TABLE, t=table_id))["table"]["legalActions"][0]
        assert (await run(ss[idle], TABLE, t=table_id))["table"]["legalActions"] == []
        before = await _snapshot(server.url, table_id, tokens)
        for v in (None, t["version"]):
            res = (await run(ss[idle], ACT, t=table_id, a=move, v=v))["act"]
            assert res["__typename"] == "ActRejected" and res["code"] == "NOT_YOUR_TURN", res
        assert await _snapshot(server.url, table_id, tokens) == before
        # the mover's own token makes the same move, and the log credits the mover
        res = (await run(ss[mover], ACT, t=table_id, a=move, v=t["version"]))["act"]
        assert res == {"__typename": "ActOk", "version": t["version"] + 1}
        after = await _snapshot(server.url, table_id, tokens)
        assert after[None]["log"][-1] == {"version": t["version"] + 1, "seat": mover}


# -- tokens at rest -------------------------------------------------------------------------------
def sha256(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def stored_blobs(storage: dict, tmp_path: Path) -> dict[str, bytes]:
    """Everything the server wrote: database files or Redis keys and values, and its log."""
    blobs: dict[str, bytes] = {}
    for log in tmp_path.glob("server*.log"):
        blobs[f"log {log.name}"] = log.read_bytes()
    url = storage["DATABASE_URL"]
    if url.startswith("sqlite:///"):
        db = Path(url[len("sqlite:///"):])
        for f in db.parent.glob(db.name + "*"):  # the file, its WAL and shared memory
            blobs[f"sqlite {f.name}"] = f.read_bytes()
    else:
        import psycopg

        with psycopg.connect(url) as conn:
            names = [r[0] for r in conn.execute(
                "select table_name from information_schema.tables where table_schema = 'public'")]
            for name in names:
                rows = conn.execute(f'select row_to_json(t)::text from "{name}" t').fetchall()
                blobs[f"postgres {name}"] = "\n".join(r[0] for r in rows).encode()
    if "REDIS_URL" in storage:
        import redis

        r = redis.Redis.from_url(storage["REDIS_URL"])
        prefix = storage["CONCLAVE_REDIS_PREFIX"]
        keys = list(r.scan_iter(match=f"{prefix}*", count=1000))
        assert keys, "no Redis keys under the server's prefix"
        for key in keys:
            kind = r.type(key).decode()
            if kind == "string":
                value = r.get(key) or b""
            elif kind == "hash":
                value = b"\n".join(k + b"=" + v for k, v in r.hgetall(key).items())
            elif kind == "set":
                value = b"\n".join(sorted(r.smembers(key)))
            elif kind == "list":
                value = b"\n".join(r.lrange(key, 0, -1))
            elif kind == "stream":
                value = b"\n".join(k + b"=" + v for _id, fields in r.xrange(key) for k, v in fields.items())
            elif kind == "zset":
                value = b"\n".join(m for m, _ in r.zrange(key, 0, -1, withscores=True))
            else:
                raise AssertionError(f"unexpected Redis type {kind} of {key!r}")
            blobs[f"redis key {key.decode()}"] = key + b"\n" + value
    return blobs


def test_tokens_are_stored_only_as_sha256_hashes(server, storage, tmp_path):
    asyncio.run(_tokens_hashed(server, storage, tmp_path))


async def _tokens_hashed(server, storage, tmp_path):
    async with http(server.url) as anon:
        table_id, host, seat_tokens = await create_host_and_join(anon, "endless", 2, seed=5)
    for seat, token in seat_tokens.items():  # use them, so every code path that sees a token ran
        async with http(server.url, token) as s:
            res = (await run(s, ACT, t=table_id, a={"type": "tick", "params": {"n": 1}}))["act"]
            assert res["__typename"] == "ActOk", res
            assert (await run(s, STATE_JSON, t=table_id))["table"]["viewer"] == seat
    async with http(server.url, host) as s:  # the host token reads the public view and acts for no seat
        assert (await run(s, STATE_JSON, t=table_id))["table"]["viewer"] is None
        res = (await run(s, ACT, t=table_id, a={"type": "tick", "params": {"n": 1}}))["act"]
        assert res["__typename"] == "ActRejected" and res["code"] == "FORBIDDEN", res
    await asyncio.sleep(0.2)  # let the log lines land
    blobs = stored_blobs(storage, tmp_path)
    everything = b"\n".join(blobs.values())
    for name, token in [("host", host), ("seat 0", seat_tokens[0]), ("seat 1", seat_tokens[1])]:
        plain_found = [where for where, blob in blobs.items() if token.encode() in blob]
        assert not plain_found, f"the plaintext {name} token is stored in {plain_found}"
        assert sha256(token).encode() in everything, f"the {name} token's SHA-256 is not stored"


# -- the walk: every field, every viewer, every version ---------------------------------------------
PLAYERS, SEED, ACTIONS = 4, 5, 60


def test_no_viewer_ever_reads_another_seats_secrets_over_http_or_websocket(server):
    asyncio.run(_walk(server))


async def _follow(url, table_id, token, got: list, legacy: bool) -> None:
    async with ws(url, token, legacy=legacy) as session:
        async for update in session.subscribe(GraphQLRequest(parse(UPDATES_ALL), variable_values={"t": table_id})):
            got.append(update["tableUpdates"])
            if update["tableUpdates"]["version"] >= ACTIONS:
                return


async def _walk(server):
    async with http(server.url) as anon:
        created = (await run(anon, "mutation($i: CreateTableInput!) { createTable(input: $i) { __typename"
                                   " ... on CreateTableOk { hostToken joinCode table " + TABLE_ALL + " } } }",
                             i={"game": GAME, "players": PLAYERS, "seed": SEED}))["createTable"]
        table_id, host = created["table"]["id"], created["hostToken"]
        mirror = Mirror(PLAYERS, SEED)
        check_table(mirror, created["table"], None, "createTable")
        tokens = {}
        for seat in range(PLAYERS):
            joined = (await run(anon, "mutation($t: String!, $s: Int!, $c: String) { joinTable(tableId: $t, seat: $s,"
                                      " name: \"P\", code: $c) { __typename ... on JoinOk { seatToken table "
                                      + TABLE_ALL + " } } }", t=table_id, s=seat, c=created["joinCode"]))["joinTable"]
            check_table(mirror, joined["table"], seat, f"joinTable {seat}")
            tokens[seat] = joined["seatToken"]
        _, foreign = await create_and_join(anon, "endless", 1)

    got = {k: [] for k in [*range(PLAYERS), None]}
    subs = [asyncio.create_task(_follow(server.ws_url, table_id, tokens.get(k), got[k], legacy=k is None))
            for k in got]
    viewers = {**{s: tokens[s] for s in range(PLAYERS)}, None: None, "host": host, "foreign": foreign[0]}
    seen_own = {s: set() for s in range(PLAYERS)}
    rng = random.Random(SEED)
    view_doc, act_doc = parse(VIEW_ALL), parse(ACT_ALL)  # parsed once: the client re-parses a str each time
    async with sessions(server.url, viewers) as ss:
        for step in range(ACTIONS + 1):
            reads = await asyncio.gather(*(s.execute(GraphQLRequest(view_doc, variable_values={"t": table_id}))
                                           for s in ss.values()))
            for key, res in zip(ss, reads):
                viewer = key if isinstance(key, int) else None
                where = f"version {step}, viewer {key}"
                table = res["table"]
                assert table["version"] == step, where
                check_table(mirror, table, viewer, where)
                [listed] = [t for t in res["tables"] if t["id"] == table_id]
                assert listed["viewer"] == viewer and listed["stateJson"] == table["stateJson"], where
                assert not leaks(listed, mirror.hidden(step, viewer), where)
                if viewer is not None:
                    seen_own[viewer] |= {s for _, s in strings(table)} & set(mirror.states[step].players[viewer].hand)
            if step == ACTIONS:
                break
            public = reads[list(ss).index(None)]["table"]
            assert public["status"] == "playing"
            seat = rng.choice(public["activeSeats"])
            action = rng.choice(reads[list(ss).index(seat)]["table"]["legalActions"])
            action = {"type": action["type"], "params": action["params"]}
            res = (await ss[seat].execute(GraphQLRequest(act_doc, variable_values={"t": table_id, "a": action,
                                                                                  "v": step})))["act"]
            assert res["__typename"] == "ActOk", res
            mirror.act(seat, action)
            check_table(mirror, res["table"], seat, f"act {step + 1} by seat {seat}")

    await asyncio.wait_for(asyncio.gather(*subs), timeout=30)
    for key, updates in got.items():
        assert [u["version"] for u in updates] == list(range(1, ACTIONS + 1)), key
        for u in updates:
            where = f"subscription of viewer {key}, update {u['version']}"
            assert u["events"] == mirror.events_for(u["version"], key), where
            found = leaks(u["events"], mirror.event_secret(u["version"], key), where)
            assert not found, f"{where}: events name {found}"
            check_table(mirror, u["table"], key, where)

    # the walk was not vacuous: there were secrets, each seat saw its own hand, there was a reveal
    assert all(mirror.hidden(v, s) for v in range(ACTIONS + 1) for s in [None, *range(PLAYERS)])
    assert all(seen_own.values()), seen_own
    assert any(e.type == "reveal" for evs in mirror.events for e in evs)
    again = replay(GAME, PLAYERS, SEED, [(s, to_action(a)) for s, a in mirror.log])
    assert encode_state(again.state) == encode_state(mirror.states[-1])
    assert encode_state(create_table(GAME, PLAYERS, seed=SEED).state) == encode_state(mirror.states[0])
