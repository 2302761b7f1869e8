"""The lobby's "Seed (optional)" field is offered only where the server allows chosen seeds
(`serverInfo { chosenSeedsAllowed }`); elsewhere a table is created with a seed the server
draws, and it says its seed was not chosen by its creator."""
from __future__ import annotations

import httpx
import pytest

from tests.api.conftest import server_factory, storage_env
from tests.web.driver import Seat, create_in_lobby

NEW_CAPITAL = "The Queen's New Capital"
CHOSEN = "query($t: String!) { table(id: $t) { seedChosenByCreator seed seedCommitment } }"


@pytest.fixture
def strict_server(tmp_path):
    with storage_env("embedded", tmp_path) as env, server_factory(env, tmp_path) as make:
        yield make(CONCLAVE_ALLOW_CHOSEN_SEEDS="0")


def table_seed(server, table_id: str) -> dict:
    body = httpx.post(server.url, json={"query": CHOSEN, "variables": {"t": table_id}}, timeout=30).json()
    return body["data"]["table"]


def test_without_chosen_seeds_the_lobby_has_no_seed_field(browser, strict_server):
    ada = Seat(browser, strict_server.base)
    try:
        page = ada.page
        page.goto(f"{strict_server.base}/play/")
        page.get_by_role("button", name="Create table").wait_for()
        assert page.get_by_label("Seed (optional)").count() == 0
        page.get_by_role("radio", name=NEW_CAPITAL, exact=True).check()
        page.get_by_role("button", name="Create table").click()
        page.wait_for_selector("#created:not([hidden])")
        link = page.locator("#created input.link").first.input_value()
        table_id = link.split("#/join/")[1].split("/")[0]
        seed = table_seed(strict_server, table_id)
        assert seed["seedChosenByCreator"] is False and seed["seed"] is None and len(seed["seedCommitment"]) == 64
        assert not ada.errors
    finally:
        ada.close()


def test_with_chosen_seeds_the_lobby_offers_the_field_and_the_table_says_so(browser, web_server):
    ada = Seat(browser, web_server.base)
    try:
        table_id, _links = create_in_lobby(ada, game=NEW_CAPITAL, players=2, seed=42, name="Ada")
        assert table_seed(web_server, table_id)["seedChosenByCreator"] is True
        assert not ada.errors
    finally:
        ada.close()
