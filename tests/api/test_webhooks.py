"""Turn notifications through real `conclave serve` processes to a real HTTP receiver on
loopback (tests/api/webhook_receiver.py), signatures checked with the scheme the README
documents (api/webhooks/signing.py)."""
from __future__ import annotations

import asyncio
import random
import time

import pytest

from api.webhooks.signing import EVENT_ID, SIGNATURE, TIMESTAMP, verify
from tests.api.client import ACT, create_and_join, http, run, sessions
from tests.api.webhook_receiver import Receiver

FAST_RETRIES = {"CONCLAVE_WEBHOOK_RETRY_SECONDS": "0.2", "CONCLAVE_WEBHOOK_POLL_SECONDS": "0.1",
                "CONCLAVE_WEBHOOK_LEASE_SECONDS": "2", "CONCLAVE_WEBHOOK_TIMEOUT": "2"}
REGISTER = """mutation($t: String!, $u: String!, $s: WebhookScope! = TABLE) {
  registerWebhook(tableId: $t, url: $u, scope: $s) {
    __typename ... on WebhookRegistered { secret webhook { id url scope seat tableId campaignId } }
    ... on Rejected { code message } } }"""
LIST = "query($t: String!) { webhooks(tableId: $t) { id url seat } }"
REMOVE = """mutation($t: String!, $id: String!) { removeWebhook(tableId: $t, id: $id) {
  __typename ... on WebhookRemoved { id } ... on Rejected { code message } } }"""
SEEN = """query($t: String!) { table(id: $t) { version status activeSeats legalActions { type params }
  prompts { id seat blocking } } }"""
PAYLOAD_KEYS = {"eventId", "kind", "tableId", "campaignId", "seat", "version", "registrationId"}


@pytest.fixture
def receiver():
    r = Receiver(fail_first=2)
    yield r
    r.close()


async def until(check, seconds: float = 20.0, why=lambda: ""):
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"timed out {why()}"
        await asyncio.sleep(0.05)


def test_one_signed_delivery_per_decision_through_a_game_with_a_crash_and_a_failing_receiver(make_server, receiver):
    server = make_server(**FAST_RETRIES)
    asyncio.run(_whole_game(server, receiver))


async def _whole_game(server, receiver):
    async with http(server.url) as anon:
        table_id, tokens = await create_and_join(anon, "new-capital", 2, seed=5)
    secrets = {}
    async with sessions(server.url, tokens) as ss:
        for seat in (0, 1):
            res = (await run(ss[seat], REGISTER, t=table_id, u=receiver.url(f"/hook/{seat}")))["registerWebhook"]
            assert res["__typename"] == "WebhookRegistered", res
            assert res["webhook"]["seat"] == seat and res["webhook"]["tableId"] == table_id
            secrets[seat] = res["secret"]
            mine = (await run(ss[seat], LIST, t=table_id))["webhooks"]
            assert [w["seat"] for w in mine] == [seat]  # its own only
        # not a private network's address (loopback only by default): refused, nothing registered
        for url in ("http://10.0.0.7/hook", "http://192.168.1.1:8080/x", "http://169.254.169.254/latest",
                    "http://[fd00::1]/x", "http://0.0.0.0:9/"):
            res = (await run(ss[0], REGISTER, t=table_id, u=url))["registerWebhook"]
            assert res == {"__typename": "Rejected", "code": "WEBHOOK_ADDRESS_REFUSED", "message": res["message"]}
        res = (await run(ss[0], REGISTER, t=table_id, u="ftp://127.0.0.1/x"))["registerWebhook"]
        assert res["code"] == "BAD_WEBHOOK_URL"
        assert len((await run(ss[0], LIST, t=table_id))["webhooks"]) == 1
        # another seat's registration is out of reach
        other = (await run(ss[1], LIST, t=table_id))["webhooks"][0]["id"]
        res = (await run(ss[0], REMOVE, t=table_id, id=other))["removeWebhook"]
        assert res["code"] == "UNKNOWN_WEBHOOK"

    decisions = {0: set(), 1: set()}  # every blocking prompt each seat held, as the API showed it
    rng = random.Random(5)
    actions, crashed = 0, False
    killed_at = None
    while True:
        async with sessions(server.url, tokens) as ss:
            while True:
                t = (await run(ss[0], SEEN, t=table_id))["table"]
                for p in t["prompts"]:
                    if p["blocking"]:
                        decisions[p["seat"]].add(p["id"])
                if t["status"] == "finished":
                    break
                seat = rng.choice(t["activeSeats"])
                mine = (await run(ss[seat], SEEN, t=table_id))["table"]
                if actions == 39 and not crashed:
                    # the receiver goes down before the action after which the server dies, so what
                    # is in flight then gets a 500. (A POST answered 2xx whose sender dies before
                    # recording it is sent again after its lease, as from any at-least-once sender:
                    # receivers de-duplicate by Conclave-Event-Id. The pause lets what the receiver
                    # answered before going down be recorded.)
                    receiver.down = True
                    await asyncio.sleep(0.3)
                res = (await run(ss[seat], ACT, t=table_id, a=rng.choice(mine["legalActions"]),
                                 v=mine["version"]))["act"]
                assert res["__typename"] == "ActOk", res
                actions += 1
                if actions == 40 and not crashed:
                    break
        if t["status"] == "finished":
            break
        # mid-game: the server dies right after an action (SIGKILL), its receiver down
        crashed = True
        killed_at = time.time()
        server.kill()
        server.start()
        receiver.down = False
    assert crashed and actions > 60

    expected = {seat: {f"{table_id}.decision.{pid}" for pid in decisions[seat]} | {f"{table_id}.ended.{seat}"}
                for seat in (0, 1)}
    await until(lambda: all({r.headers[EVENT_ID] for r in receiver.accepted(f"/hook/{s}")} >= expected[s]
                            for s in (0, 1)))
    await asyncio.sleep(1.0)  # anything extra would come now (retries are 0.2 s apart)

    got = receiver.all()
    assert [r.status for r in got[:2]] == [500, 500]  # its first two attempts failed ...
    for seat in (0, 1):
        accepted = receiver.accepted(f"/hook/{seat}")
        ids = [r.headers[EVENT_ID] for r in accepted]
        extra, dup = set(ids) - expected[seat], {i for i in ids if ids.count(i) > 1}
        assert (extra, dup, expected[seat] - set(ids)) == (set(), set(), set()), (seat, killed_at, [(r.headers[EVENT_ID], r.status, r.at) for r in got if r.headers[EVENT_ID] in dup])
        assert sorted(ids) == sorted(expected[seat])  # exactly one per decision, and the end
        for r in accepted:
            assert verify(secrets[seat], r.headers, r.body), r.headers
            assert not verify(secrets[1 - seat], r.headers, r.body)
            p = r.payload
            assert set(p) == PAYLOAD_KEYS  # names, never state: no hands, no views
            assert p["seat"] == seat and p["tableId"] == table_id and p["eventId"] == r.headers[EVENT_ID]
            assert p["kind"] == ("game_ended" if p["eventId"].endswith(".ended.%d" % seat) else "decision")
    failed_ids = {r.headers[EVENT_ID] for r in got if r.status == 500}
    assert failed_ids <= {r.headers[EVENT_ID] for r in receiver.accepted()}  # ... and were retried to success
    assert all(r.headers[SIGNATURE].startswith("v1=") and r.headers[TIMESTAMP].isdigit() for r in got)


async def _play(url: str, table_id: str, tokens: dict, rng: random.Random, decisions: dict, max_actions=None,
                servers: list | None = None) -> dict:
    """Bots from legalActions; every blocking prompt each seat held is noted. With `servers`,
    the actions go to each server's URL in turn."""
    urls = servers or [url]
    actions = 0
    while max_actions is None or actions < max_actions:
        async with sessions(urls[actions % len(urls)], tokens) as ss:
            t = (await run(ss[next(iter(ss))], SEEN, t=table_id))["table"]
            for p in t["prompts"]:
                if p["blocking"]:
                    decisions.setdefault(p["seat"], set()).add(p["id"])
            if t["status"] == "finished":
                return t
            seat = rng.choice(t["activeSeats"])
            mine = (await run(ss[seat], SEEN, t=table_id))["table"]
            res = (await run(ss[seat], ACT, t=table_id, a=rng.choice(mine["legalActions"]), v=mine["version"]))["act"]
            assert res["__typename"] == "ActOk", res
            actions += 1
    return t


def test_two_server_processes_send_each_delivery_once(make_redis_server):
    """Two processes share one outbox (PostgreSQL) and one live store (Redis); both poll it,
    the actions land on both, and each delivery is claimed (compare-and-set) and sent once."""
    servers = [make_redis_server(**FAST_RETRIES), make_redis_server(**FAST_RETRIES)]
    receiver = Receiver()
    try:
        asyncio.run(_two_servers(servers, receiver))
    finally:
        receiver.close()


async def _two_servers(servers, receiver):
    async with http(servers[0].url) as anon:
        table_id, tokens = await create_and_join(anon, "new-capital", 2, seed=9)
    async with http(servers[1].url, tokens[0]) as s0:
        res = (await run(s0, REGISTER, t=table_id, u=receiver.url("/hook/0")))["registerWebhook"]
        assert res["__typename"] == "WebhookRegistered", res
    decisions: dict = {}
    await _play("", table_id, tokens, random.Random(9), decisions, max_actions=40,
                servers=[s.url for s in servers])
    expected = {f"{table_id}.decision.{pid}" for pid in decisions.get(0, set())}
    assert len(expected) > 5
    await until(lambda: {r.headers[EVENT_ID] for r in receiver.accepted()} >= expected)
    await asyncio.sleep(1.0)
    ids = [r.headers[EVENT_ID] for r in receiver.all()]
    assert sorted(ids) == sorted(expected)  # no extra, no twice (and the receiver never failed)


def test_a_campaign_webhook_hears_of_its_seat_in_the_next_game(embedded_server):
    asyncio.run(_campaign(embedded_server))


async def _campaign(server):
    from tests.api.test_campaigns import JOIN as JOIN_CAMPAIGN, NEW, NEXT

    receiver = Receiver()
    try:
        async with http(server.url) as anon:
            cid = (await run(anon, NEW, i={"game": "sealed-bids", "players": 2}))["createCampaign"]["campaign"]["id"]
        tables, tokens, decisions, secret = [], [], [], None
        for n in range(2):
            async with http(server.url) as anon:
                started = (await run(anon, NEXT, c=cid, s=200 + n))["startNextGame"]
                tid = started["table"]["id"]
                tok = {s: (await run(anon, JOIN_CAMPAIGN, t=tid, s=s, c=started["joinCode"]))["joinTable"]["seatToken"]
                       for s in range(2)}
            tables.append(tid)
            tokens.append(tok)
            if n == 0:
                async with sessions(server.url, tok) as ss:
                    res = (await run(ss[0], REGISTER, t=tid, u=receiver.url("/campaign"), s="CAMPAIGN"))["registerWebhook"]
                    assert res["webhook"]["campaignId"] == cid and res["webhook"]["tableId"] is None, res
                    secret = res["secret"]
                    res = (await run(ss[1], REGISTER, t=tid, u=receiver.url("/table")))["registerWebhook"]
                    assert res["__typename"] == "WebhookRegistered", res
            else:  # the same seat's token of the next game lists the campaign's webhook; the other seat's does not
                async with sessions(server.url, tok) as ss:
                    assert [w["url"] for w in (await run(ss[0], LIST, t=tid))["webhooks"]] == [receiver.url("/campaign")]
                    assert (await run(ss[1], LIST, t=tid))["webhooks"] == []
            seen: dict = {}
            final = await _play(server.url, tid, tok, random.Random(n), seen)
            assert final["status"] == "finished"
            decisions.append(seen)
        expected = {f"{t}.decision.{pid}" for t, seen in zip(tables, decisions) for pid in seen.get(0, set())}
        expected |= {f"{t}.ended.0" for t in tables} | {f"{cid}.{tables[1]}.started.0"}
        expected_table = {f"{tables[0]}.decision.{pid}" for pid in decisions[0].get(1, set())} | {f"{tables[0]}.ended.1"}
        await until(lambda: {r.headers[EVENT_ID] for r in receiver.accepted()} >= expected | expected_table,
                    why=lambda: (expected | expected_table) - {r.headers[EVENT_ID] for r in receiver.accepted()})
        await asyncio.sleep(0.5)
        # the first game's own start may be heard too: it is written to the outbox in a batch up
        # to 50 ms later (api/webhooks/dispatcher.py), by when the registration may exist
        campaign = [r for r in receiver.accepted("/campaign") if r.headers[EVENT_ID] != f"{cid}.{tables[0]}.started.0"]
        assert sorted(r.headers[EVENT_ID] for r in campaign) == sorted(expected)
        assert all(verify(secret, r.headers, r.body) and r.payload["campaignId"] == cid for r in campaign)
        started = [r.payload for r in campaign if r.payload["kind"] == "game_started"]
        assert started == [{**started[0], "tableId": tables[1], "seat": 0, "version": 0}]
        # the table's webhook ended with its table: nothing of the next game (its own game's start
        # may be heard, as the campaign's may: the same 50 ms batch window)
        table = [r.headers[EVENT_ID] for r in receiver.accepted("/table")
                 if r.headers[EVENT_ID] != f"{cid}.{tables[0]}.started.1"]
        assert sorted(table) == sorted(expected_table)
    finally:
        receiver.close()


def test_the_allow_list_is_checked_again_at_send_time_after_resolution(tmp_path):
    """Registered while loopback was allowed, a name's delivery is refused once the operator
    allows loopback no more: the name resolves to 127.0.0.1 at send time, and the POST is
    never made. Registering the name now is refused too. (The live store plays no part: the
    embedded default only.)"""
    from tests.api.conftest import server_factory, storage_env

    receiver = Receiver()
    try:
        with storage_env("embedded", tmp_path) as env, server_factory(env, tmp_path) as make:
            asyncio.run(_send_time(make(**FAST_RETRIES), receiver))
    finally:
        receiver.close()


async def _send_time(server, receiver):
    async with http(server.url) as anon:
        table_id, tokens = await create_and_join(anon, "new-capital", 2, seed=5)
    port = receiver.server.server_address[1]
    async with http(server.url, tokens[0]) as s0:
        res = (await run(s0, REGISTER, t=table_id, u=f"http://localhost:{port}/hook"))["registerWebhook"]
        assert res["__typename"] == "WebhookRegistered", res
    server.stop()
    before = len(receiver.all())
    server.env["CONCLAVE_WEBHOOK_ALLOW"] = "192.0.2.0/24"  # loopback no longer allowed
    server.start()
    async with http(server.url, tokens[0]) as s0:
        res = (await run(s0, REGISTER, t=table_id, u=f"http://localhost:{port}/hook"))["registerWebhook"]
        assert res["code"] == "WEBHOOK_ADDRESS_REFUSED", res  # a name resolving to a refused address
        assert len((await run(s0, LIST, t=table_id))["webhooks"]) == 1
    await _play(server.url, table_id, tokens, random.Random(1), {}, max_actions=6)
    await asyncio.sleep(1.5)  # several retries' worth
    assert len(receiver.all()) == before  # not one POST since
    from sqlmodel import Session, create_engine, select

    from api.db import WebhookDelivery
    engine = create_engine(server.env["DATABASE_URL"].replace("postgresql://", "postgresql+psycopg://"))
    with Session(engine) as s:
        rows = s.exec(select(WebhookDelivery).where(WebhookDelivery.status == "pending",
                                                    WebhookDelivery.attempts > 0)).all()
    engine.dispose()
    assert rows and all(r.last_error.startswith("WEBHOOK_ADDRESS_REFUSED") for r in rows), rows


def test_the_allow_list_judges_resolved_addresses():
    from api.webhooks.addresses import AllowList

    default = AllowList.parse("127.0.0.0/8,::1/128")
    assert default.allows("127.0.0.1") and default.allows("::1") and default.allows("::ffff:127.0.0.1")
    for private in ("10.0.0.1", "192.168.0.1", "172.16.0.1", "169.254.169.254", "fd00::1", "::ffff:10.0.0.1",
                    "0.0.0.0", "93.184.216.34"):
        assert not default.allows(private), private
    public = AllowList.parse("public")
    assert public.allows("93.184.216.34") and public.allows("2606:2800:220:1::1")
    for private in ("10.0.0.1", "127.0.0.1", "169.254.169.254", "fd00::1", "::ffff:192.168.1.1", "100.64.0.1"):
        assert not public.allows(private), private
    with pytest.raises(ValueError):
        AllowList.parse("10.0.0.0/8,intranet")
