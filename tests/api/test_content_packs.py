"""Content packs by name (issue 13, point 5): a table's `pack` names a registered pack, never a
path; whatever else it names gets one and the same typed refusal, which says nothing about the
server's files. A registered pack that cannot load fails only its own tables, never the
server's start nor other tables' reads."""
from __future__ import annotations

import shutil

import httpx
import pytest

from api.settings import Settings
from core.content import PackSetting, parse_pack_settings
from core.errors import PluginError
from plugins.new_capital.content import DEFAULT_PACK
from tests.api.client import JOIN
from tests.content_files import registry_with_pack

CREATE_NC = """mutation($pack: JSON!) { createTable(input: {game: "new-capital", players: 2, seed: 3,
  options: {pack: $pack}}) { __typename ... on CreateTableOk { joinCode table { id } } ... on Rejected { code message } } }"""
TABLES = "{ tables { id version stateJson } }"
ONE = "query($t: String!) { table(id: $t) { id stateJson } }"


@pytest.fixture
def mode():
    return "embedded"  # the packs live in the registry and the service, not the live stores


def gql(server, query: str, token: str | None = None, **variables) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.post(server.url, json={"query": query, "variables": variables}, headers=headers, timeout=20)
    assert r.status_code == 200, (r.status_code, r.text)
    return r.json()


def test_a_path_or_any_unknown_name_as_pack_gets_one_answer_that_says_nothing_of_the_files(embedded_server, tmp_path):
    """The file-existence oracle is closed: an existing folder, a missing one, a file, a real
    pack's folder, a NUL byte, a relative path and a plain unknown name all get the very same
    `BAD_OPTION`, echoing none of them."""
    (tmp_path / "a_file").write_text("{}")
    values = ["/etc", "/no/such/folder", str(tmp_path / "a_file"), str(DEFAULT_PACK), "demo\x00", "../content",
              "demo/", "nope", 7, ["demo"]]
    answers = []
    for value in values:
        res = gql(embedded_server, CREATE_NC, pack=value)
        assert "errors" not in res, res
        answers.append(res["data"]["createTable"])
    assert all(a == answers[0] for a in answers), answers
    assert answers[0]["__typename"] == "Rejected" and answers[0]["code"] == "BAD_OPTION"
    assert "/" not in answers[0]["message"] and "directory" not in answers[0]["message"].lower()
    assert gql(embedded_server, CREATE_NC, pack="demo")["data"]["createTable"]["__typename"] == "CreateTableOk"


def test_the_registered_packs_are_the_pack_options_choices(make_server, tmp_path):
    server = make_server(CONCLAVE_CONTENT_PACKS=f"winter={tmp_path}")
    games = gql(server, "{ games { id options { name default choices } } }")["data"]["games"]
    pack = next(o for g in games if g["id"] == "new-capital" for o in g["options"] if o["name"] == "pack")
    assert pack == {"name": "pack", "default": "demo", "choices": ["demo", "winter"]}


def test_a_broken_registered_pack_fails_its_own_tables_only_and_never_the_start(make_server, tmp_path):
    """A table on an operator's pack plays a few actions (so a restart replays its log with the
    pack's rules); the pack's folder then breaks. The server still starts; the other table's
    `tables { stateJson }` and `table` work; the broken table's reads say
    `CONTENT_UNAVAILABLE` and creating a table on that pack is refused alike, and no answer
    names a file."""
    folder = tmp_path / "winter"
    shutil.copytree(DEFAULT_PACK, folder)
    server = make_server(CONCLAVE_CONTENT_PACKS=f"winter={folder}")
    ids, codes = {}, {}
    for pack in ("winter", "demo"):
        created = gql(server, CREATE_NC, pack=pack)["data"]["createTable"]
        assert created["__typename"] == "CreateTableOk", created
        ids[pack], codes[pack] = created["table"]["id"], created["joinCode"]
    table_id = ids["winter"]
    tokens = [gql(server, JOIN, t=table_id, s=s, n="p", c=codes["winter"])["data"]["joinTable"]["seatToken"]
              for s in range(2)]
    for seat in (0, 1, 0):  # three draft choices: not a snapshot version, so a restart replays
        legal = gql(server, "query($t: String!) { table(id: $t) { legalActions { type params } } }",
                    tokens[seat], t=table_id)["data"]["table"]["legalActions"]
        if not legal:
            continue
        act = gql(server, "mutation($t: String!, $a: ActionInput!) { act(tableId: $t, action: $a) { __typename } }",
                  tokens[seat], t=table_id, a=legal[0])
        assert act["data"]["act"]["__typename"] == "ActOk", act
    server.stop()
    (folder / "board.json").unlink()

    server.start()  # before: "Application startup failed" (the replay raised at start-up)
    listed = gql(server, TABLES)
    assert "errors" not in listed, listed
    assert [t["id"] for t in listed["data"]["tables"]] == [ids["demo"]]
    assert listed["data"]["tables"][0]["stateJson"]["pack"] == "demo"
    assert gql(server, ONE, t=ids["demo"])["data"]["table"]["id"] == ids["demo"]
    broken = gql(server, ONE, t=table_id)
    assert broken["data"]["table"] is None
    assert [e["extensions"]["code"] for e in broken["errors"]] == ["CONTENT_UNAVAILABLE"]
    joined = gql(server, JOIN, t=table_id, s=1, n="late", c=codes["winter"])["data"]["joinTable"]
    assert joined["code"] == "CONTENT_UNAVAILABLE"
    refused = gql(server, CREATE_NC, pack="winter")["data"]["createTable"]
    assert refused["code"] == "CONTENT_UNAVAILABLE"
    for answer in (broken["errors"][0]["message"], joined["message"], refused["message"]):
        assert str(tmp_path) not in answer and "board.json" not in answer
    assert "board.json" in server.log_path.read_text()  # the operator is told which file


def test_the_operators_packs_setting_is_parsed_and_bad_entries_are_refused(monkeypatch, tmp_path):
    monkeypatch.setenv("CONCLAVE_CONTENT_PACKS", f"winter={tmp_path}, new-capital:summer=/srv/summer")
    assert Settings.from_env().content_packs == (PackSetting("winter", tmp_path),
                                                  PackSetting("summer", tmp_path.__class__("/srv/summer"), "new-capital"))
    for bad in ("winter", "=/x", "Winter=/x", "a/b=/x", "w=", "w\x00=/x"):
        with pytest.raises(ValueError, match="CONCLAVE_CONTENT_PACKS"):
            parse_pack_settings(bad)


def test_a_pack_name_registered_twice_stops_the_registry(tmp_path):
    with pytest.raises(PluginError, match="registered twice"):
        registry_with_pack(tmp_path, name="demo")
