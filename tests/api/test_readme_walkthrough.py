"""README's "Playing through GraphQL: a walk-through" (steps 1-6), run as written against a
real server with the default settings (the server draws the seed): each GraphQL block in
order, with the placeholders a reader fills in (TABLE_ID, JOIN_CODE, SEAT_TOKEN, YOUR_CARD) taken
from the earlier answers. No answer may be an error or a Rejected / ActRejected. The
section's worked seed-commitment example must compute."""
from __future__ import annotations

import asyncio
import re
import textwrap

import httpx
import pytest
from gql import GraphQLRequest

from core.seeds import commitment
from tests.api.client import ws
from tests.api.conftest import server_factory, storage_env
from tests.api.services import ROOT

README = (ROOT / "README.md").read_text()
SECTION = "## Playing through GraphQL: a walk-through"


def walkthrough() -> str:
    start = README.index(SECTION)
    end = README.index("\n## ", start + len(SECTION))
    return README[start:end]


def blocks(text: str, lang: str) -> list[str]:
    return [textwrap.dedent(b) for b in re.findall(rf"^[ ]*```{lang}\n(.*?)^[ ]*```", text, re.S | re.M)]


def steps() -> list[str]:
    """The GraphQL blocks of steps 1-6, before the section's sub-headings."""
    part = walkthrough().split("\n### ", 1)[0]
    found = blocks(part, "graphql")
    assert len(found) == 6, f"expected steps 1-6, one GraphQL block each; found {len(found)}"
    return found


def refusals(data, path="$") -> list[str]:
    """Every Rejected-shaped answer ({code, message}) anywhere in the data."""
    out = []
    if isinstance(data, dict):
        if "code" in data and "message" in data:
            out.append(f"{path}: {data['code']}: {data['message']}")
        for k, v in data.items():
            out.extend(refusals(v, f"{path}.{k}"))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.extend(refusals(v, f"{path}[{i}]"))
    return out


def fill(block: str, values: dict) -> str:
    for name, value in values.items():
        block = block.replace(name, value)
    left = sorted(set(re.findall(r'"([A-Z][A-Z_]{3,})"', block)))
    assert not left, f"placeholders the walk-through does not say how to fill: {left}"
    return block


@pytest.fixture
def default_server(tmp_path):
    """A server as `./dev serve` runs it: chosen seeds not allowed."""
    with storage_env("embedded", tmp_path) as env, server_factory(env, tmp_path) as make:
        yield make(CONCLAVE_ALLOW_CHOSEN_SEEDS="0")


def ask(server, query: str, token: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    body = httpx.post(server.url, json={"query": query}, headers=headers, timeout=30).json()
    assert not body.get("errors"), (query, body["errors"])
    assert not refusals(body["data"]), (query, refusals(body["data"]))
    return body["data"]


def test_the_readme_walkthrough_runs_as_written(default_server):
    games, create, join, read, act, follow = steps()
    assert ask(default_server, games)["games"]
    created = ask(default_server, create)["createTable"]
    table_id = created["table"]["id"]
    assert created["table"]["seedCommitment"] and created["table"]["version"] == 0
    values = {"TABLE_ID": table_id, "JOIN_CODE": created["joinCode"]}
    token = ask(default_server, fill(join, values))["joinTable"]["seatToken"]
    values["SEAT_TOKEN"] = token
    mine = ask(default_server, fill(read, values), token)["table"]
    drafts = [a for a in mine["legalActions"] if a["type"] == "draft_leader"]
    assert drafts and mine["version"] == 0, mine["legalActions"]  # what step 5 tells the reader to copy
    values["YOUR_CARD"] = drafts[0]["params"]["card"]
    assert ask(default_server, fill(act, values), token)["act"] == {"version": 1}
    asyncio.run(first_update(default_server, fill(follow, values), token))


async def first_update(server, subscription: str, token: str) -> None:
    async with ws(server.ws_url, token) as session:
        async for update in session.subscribe(GraphQLRequest(subscription)):
            assert not refusals(update), update
            assert update["tableUpdates"]["version"] == 1 and update["tableUpdates"]["table"]["version"] == 1
            return


def test_the_readme_seed_commitment_example_computes():
    [example] = [b for b in blocks(walkthrough(), "sh") if "conclave-seed-v1" in b]
    table_id, seed = re.search(r"printf '[^']*' (\S+) (\d+)", example).groups()
    digest = re.search(r"# ([0-9a-f]{64})", example).group(1)
    assert commitment(table_id, int(seed)) == digest
    assert f"for table `{table_id}` and seed `{seed}`" in walkthrough()
