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


async def until(check, seconds: float = 20.0):
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
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
