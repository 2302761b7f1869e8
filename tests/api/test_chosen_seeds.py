"""Who chooses a table's seed: the server, from a cryptographic source, unless it runs with
CONCLAVE_ALLOW_CHOSEN_SEEDS=1 (tests and tournaments); then a chosen seed is accepted and the
table says publicly that its creator chose it. `serverInfo` tells clients which it is."""
from __future__ import annotations

import httpx
import pytest

from core.seeds import SEED_MAX
from tests.api.conftest import server_factory, storage_env

CREATE = """mutation($i: CreateTableInput!) { createTable(input: $i) { __typename
  ... on CreateTableOk { table { id seed seedCommitment seedChosenByCreator stateJson } }
  ... on Rejected { code message } } }"""
CAMPAIGN = """mutation { createCampaign(input: {game: "queens-dilemma", players: 3}) {
  ... on CampaignOk { campaign { id } } } }"""
NEXT = """mutation($c: String!, $s: Int) { startNextGame(campaignId: $c, seed: $s) { __typename
  ... on CreateTableOk { table { id seedChosenByCreator } } ... on Rejected { code message } } }"""
INFO = "{ serverInfo { chosenSeedsAllowed } }"


def gql(server, query: str, **variables) -> dict:
    body = httpx.post(server.url, json={"query": query, "variables": variables}, timeout=30).json()
    assert not body.get("errors"), body
    return body["data"]


@pytest.fixture
def server_with(tmp_path):
    """make(allowed) -> an embedded server with chosen seeds allowed or not."""
    with storage_env("embedded", tmp_path) as env, server_factory(env, tmp_path) as make:
        yield lambda allowed: make(CONCLAVE_ALLOW_CHOSEN_SEEDS="1" if allowed else "0")


def test_by_default_a_chosen_seed_is_refused_and_the_server_says_so(server_with):
    server = server_with(False)
    assert gql(server, INFO) == {"serverInfo": {"chosenSeedsAllowed": False}}
    for game, players in (("new-capital", 2), ("queens-dilemma", 3)):
        res = gql(server, CREATE, i={"game": game, "players": players, "seed": 42})["createTable"]
        assert res["__typename"] == "Rejected" and res["code"] == "SEED_NOT_ALLOWED", res
        assert "CONCLAVE_ALLOW_CHOSEN_SEEDS" in res["message"]
    campaign = gql(server, CAMPAIGN)["createCampaign"]["campaign"]["id"]
    res = gql(server, NEXT, c=campaign, s=42)["startNextGame"]
    assert res["__typename"] == "Rejected" and res["code"] == "SEED_NOT_ALLOWED", res
    res = gql(server, NEXT, c=campaign)["startNextGame"]
    assert res["__typename"] == "CreateTableOk" and res["table"]["seedChosenByCreator"] is False


def test_two_tables_without_a_seed_get_different_shuffles(server_with):
    server = server_with(False)
    tables = [gql(server, CREATE, i={"game": "new-capital", "players": 2})["createTable"]["table"] for _ in range(2)]
    assert all(t["seed"] is None and t["seedChosenByCreator"] is False for t in tables)
    assert tables[0]["seedCommitment"] != tables[1]["seedCommitment"]
    a, b = (t["stateJson"] for t in tables)
    assert a["rows"] != b["rows"] or a["crisis"] != b["crisis"]  # the public face-up cards differ


def test_with_the_setting_a_chosen_seed_is_accepted_and_said_publicly(server_with):
    server = server_with(True)
    assert gql(server, INFO) == {"serverInfo": {"chosenSeedsAllowed": True}}
    chosen = [gql(server, CREATE, i={"game": "new-capital", "players": 2, "seed": 42})["createTable"]["table"]
              for _ in range(2)]
    assert all(t["seedChosenByCreator"] is True and t["seed"] is None for t in chosen)
    assert chosen[0]["stateJson"] == chosen[1]["stateJson"]  # the same seed deals the same game
    drawn = gql(server, CREATE, i={"game": "new-capital", "players": 2})["createTable"]["table"]
    assert drawn["seedChosenByCreator"] is False
    for bad in (-1, -(2**31)):
        res = gql(server, CREATE, i={"game": "new-capital", "players": 2, "seed": bad})["createTable"]
        assert res["__typename"] == "Rejected" and res["code"] == "BAD_SEED", res
    campaign = gql(server, CAMPAIGN)["createCampaign"]["campaign"]["id"]
    res = gql(server, NEXT, c=campaign, s=7)["startNextGame"]
    assert res["__typename"] == "CreateTableOk" and res["table"]["seedChosenByCreator"] is True, res


def test_the_seed_bound_fits_a_signed_64_bit_column():
    assert SEED_MAX == 2**63 - 1
