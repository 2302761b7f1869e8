"""Seats are taken only with the table's join code or a seat's invitation (issue 13, point 6):
anyone could take every free seat of every open table anonymously. `createTable` and
`startNextGame` show the host a join code once; the host token reserves seats with
`inviteSeat`, whose code takes that seat only. Both live stores."""
from __future__ import annotations

import httpx
import pytest

from tests.api.client import CREATE, JOIN

BOTH = pytest.mark.parametrize("mode", ["embedded", "redis"])
INVITE = """mutation($t: String!, $s: Int!) { inviteSeat(tableId: $t, seat: $s) {
  __typename ... on InviteOk { seat code } ... on Rejected { code message } } }"""
SEATS = "query($t: String!) { table(id: $t) { version seats { seat name taken } } }"


def gql(server, query: str, token: str | None = None, **variables) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.post(server.url, json={"query": query, "variables": variables}, headers=headers, timeout=20)
    assert r.status_code == 200, (r.status_code, r.text)
    body = r.json()
    assert "errors" not in body, body
    return body["data"]


def create(server, players: int = 2) -> dict:
    created = gql(server, CREATE, input={"game": "endless", "players": players, "seed": 1})["createTable"]
    assert created["__typename"] == "CreateTableOk", created
    return created


def join(server, table_id: str, seat: int, code: str | None, name: str = "p") -> dict:
    return gql(server, JOIN, t=table_id, s=seat, n=name, c=code)["joinTable"]


@BOTH
def test_no_seat_is_taken_without_the_join_code_or_with_a_wrong_one(make_server):
    """The tester's case: ten open tables listed publicly, twenty seats; an anonymous client
    without the codes takes none of them (a missing code, a made-up one, another table's),
    and nothing changes; with its own table's code each seat is taken."""
    server = make_server()
    tables = [create(server) for _ in range(10)]
    listed = gql(server, '{ tables(status: "open") { id } }')["tables"]
    assert sorted(t["id"] for t in listed) == sorted(t["table"]["id"] for t in tables)
    other_code = tables[1]["joinCode"]
    for t in listed:
        for seat in range(2):
            for code in (None, "", "not-the-code", other_code if t["id"] != tables[1]["table"]["id"] else "x" * 16):
                refused = join(server, t["id"], seat, code)
                assert (refused["__typename"], refused["code"]) == ("Rejected", "BAD_JOIN_CODE"), refused
    for t in tables:
        assert gql(server, SEATS, t=t["table"]["id"])["table"]["seats"] == [
            {"seat": s, "name": None, "taken": False} for s in range(2)]
    first = tables[0]
    ok = join(server, first["table"]["id"], 0, first["joinCode"], "Ada")
    assert ok["__typename"] == "JoinOk", ok
    assert join(server, first["table"]["id"], 0, first["joinCode"])["code"] == "SEAT_TAKEN"
    assert join(server, first["table"]["id"], 1, first["joinCode"])["__typename"] == "JoinOk"


@BOTH
def test_the_host_reserves_a_seat_for_an_invitation_that_takes_only_that_seat(make_server):
    server = make_server()
    created = create(server, players=3)
    table_id, host, code = created["table"]["id"], created["hostToken"], created["joinCode"]
    invited = gql(server, INVITE, host, t=table_id, s=2)["inviteSeat"]
    assert invited["__typename"] == "InviteOk" and invited["seat"] == 2 and invited["code"] not in (code, host)

    reserved = join(server, table_id, 2, code)  # the join code no longer takes it
    assert reserved["code"] == "SEAT_RESERVED" and reserved["message"].startswith("Seat 3 of table "), reserved
    elsewhere = join(server, table_id, 1, invited["code"])  # an invitation is for its seat
    assert elsewhere["code"] == "BAD_JOIN_CODE" and elsewhere["message"].endswith("an invitation to Seat 2"), elsewhere
    guest = join(server, table_id, 2, invited["code"], "Guest")
    assert guest["__typename"] == "JoinOk", guest
    assert join(server, table_id, 2, invited["code"])["code"] == "BAD_JOIN_CODE"  # used up
    seat0 = join(server, table_id, 0, code)
    assert seat0["__typename"] == "JoinOk"

    # only the host reserves, only free seats, only seats that exist
    assert gql(server, INVITE, t=table_id, s=1)["inviteSeat"]["code"] == "UNAUTHORIZED"
    assert gql(server, INVITE, seat0["seatToken"], t=table_id, s=1)["inviteSeat"]["code"] == "FORBIDDEN"
    other = create(server)
    assert gql(server, INVITE, other["hostToken"], t=table_id, s=1)["inviteSeat"]["code"] == "FORBIDDEN"
    taken = gql(server, INVITE, host, t=table_id, s=0)["inviteSeat"]
    assert taken["code"] == "SEAT_TAKEN" and taken["message"] == f"Seat 1 of table {table_id} is taken", taken
    missing = gql(server, INVITE, host, t=table_id, s=3)["inviteSeat"]  # the message speaks of the index sent
    assert missing["code"] == "UNKNOWN_SEAT" and "no seat at index 3" in missing["message"], missing
    assert "indexes 0-2, Seat 1 to Seat 3" in missing["message"], missing
    # inviting a seat again replaces its invitation: the first code no longer takes it
    first = gql(server, INVITE, host, t=table_id, s=1)["inviteSeat"]["code"]
    second = gql(server, INVITE, host, t=table_id, s=1)["inviteSeat"]["code"]
    assert join(server, table_id, 1, first)["code"] == "BAD_JOIN_CODE"
    assert join(server, table_id, 1, second)["__typename"] == "JoinOk"
    assert [s["name"] for s in gql(server, SEATS, t=table_id)["table"]["seats"]] == ["p", "p", "Guest"]


def test_a_campaigns_next_game_answers_with_its_own_join_code(embedded_server):
    server = embedded_server
    campaign = gql(server, 'mutation { createCampaign(input: {game: "sealed-bids", players: 3}) {'
                           ' ... on CampaignOk { campaign { id } } } }')["createCampaign"]["campaign"]["id"]
    started = gql(server, 'mutation($c: String!) { startNextGame(campaignId: $c) { ... on CreateTableOk {'
                          ' hostToken joinCode table { id } } } }', c=campaign)["startNextGame"]
    table_id = started["table"]["id"]
    assert join(server, table_id, 0, None)["code"] == "BAD_JOIN_CODE"
    assert join(server, table_id, 0, started["joinCode"])["__typename"] == "JoinOk"
