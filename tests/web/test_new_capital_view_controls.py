"""Every legal action has a control in the New Capital view, in states no scripted test
reaches: random bot games (core/bot.py's RandomBot) are played headless, then replayed
through the server on a table with the same seed while each seat's page follows live; before
every action the acting page's #board must hold a control that sends each of that seat's
legal actions exactly, and no control that sends anything else. Games: 3 seats with all
three modules, 2 seats with Guildmasters and Dilemmas, 4 seats with Faction Heroes, and a
solo game (Faction Heroes and Dilemmas; Guildmasters is multiplayer only)."""
from __future__ import annotations

import json

import msgspec
import pytest

from core.bot import play_game
from tests.api.client import CREATE, JOIN
from tests.web.driver import STATUS, Seat, api
from tests.web.test_new_capital_view import missing_controls, view_controls

LEGAL = "query($t: String!) { table(id: $t) { version legalActions { type params } } }"
ACT = """mutation($t: String!, $a: ActionInput!, $v: Int) { act(tableId: $t, action: $a, expectedVersion: $v) {
  __typename ... on ActOk { version } ... on ActRejected { code message } } }"""
ALL = ["guildmasters", "faction-heroes", "dilemmas"]
# (players, seed, modules, actions replayed at most, action types the game must offer: the
# seeds were chosen so that together the games offer all 30 of the game's and modules' types)
GAMES = [
    (3, 31, ALL, 120, {"guildmaster", "dilemma_vote", "dilemma_reinforce", "bribe"}),
    (2, 25, ALL, 170, {"recruit_hero", "extra_action", "choice", "diplomacy", "reset_track", "attr_track"}),
    (2, 32, ["guildmasters", "dilemmas"], 110, {"unrest_column", "extra_action"}),
    (3, 62, ["faction-heroes", "dilemmas"], 130, {"decline", "upgrade_card", "diplomacy"}),
    (1, 34, ["faction-heroes", "dilemmas"], 200, {"scout", "skip", "choice", "displace"}),
]


def open_seat(browser, server, table_id: str, seat: int, token: str) -> Seat:
    """A page seated by its token, as the client stores it after joining."""
    page_seat = Seat(browser, server.base, width=1100)
    page_seat.table_id = table_id
    page = page_seat.page
    page.goto(f"{server.base}/play/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"conclave.seat.{table_id}", json.dumps({"seat": seat, "token": token})])
    page.goto(f"{server.base}/play/#/table/{table_id}")
    page_seat.wait_seated(seat)
    page.wait_for_selector("#board .nc-view")
    return page_seat


def extra_controls(legal: list[dict], controls: list[dict]) -> list[dict]:
    """Controls of the view that would send an action that is not legal now."""
    allowed = {(a["type"], json.dumps(a["params"] or {}, sort_keys=True)) for a in legal}
    out = []
    for c in controls:
        for params in c["choices"] or [c["params"]]:
            if (c["type"], json.dumps(params, sort_keys=True)) not in allowed:
                out.append({"type": c["type"], "params": params})
    return out


@pytest.mark.parametrize("players,seed,modules,limit,expected", GAMES)
def test_every_legal_action_of_a_bot_game_has_a_control_in_the_view(browser, web_server, players, seed, modules, limit,
                                                                    expected):
    played = play_game("new-capital", players, seed, modules=modules)
    created = api(web_server, CREATE, input={"game": "new-capital", "players": players, "seed": seed,
                                             "options": {}, "modules": modules})["createTable"]
    assert created["__typename"] == "CreateTableOk", created
    table_id = created["table"]["id"]
    tokens = {}
    for seat in range(players):
        joined = api(web_server, JOIN, t=table_id, s=seat, n=f"Bot {seat + 1}", c=created["joinCode"])["joinTable"]
        tokens[seat] = joined["seatToken"]
    pages = {seat: open_seat(browser, web_server, table_id, seat, token) for seat, token in tokens.items()}
    seen: set[str] = set()
    try:
        for number, (seat, action) in enumerate(played.table.log[:limit]):
            version = api(web_server, STATUS, t=table_id)["table"]["version"]
            page = pages[seat]
            page.wait_version(version)
            legal = api(web_server, LEGAL, tokens[seat], t=table_id)["table"]["legalActions"]
            controls = [c for c in view_controls(page.page) if not c["disabled"]]
            assert not missing_controls(legal, controls), (number, seat, missing_controls(legal, controls)[:4])
            assert not extra_controls(legal, controls), (number, seat, extra_controls(legal, controls)[:4])
            seen.update(a["type"] for a in legal)
            if page.page.locator("#board .nc-heroes button[data-action=recruit]").count():
                seen.add("recruit_hero")  # a Faction Hero offered, with its button on its stack
            sent = msgspec.to_builtins(action)
            result = api(web_server, ACT, tokens[seat], t=table_id, a={"type": sent["type"], "params": sent.get("params", {})},
                         v=version)["act"]
            assert result["__typename"] == "ActOk", (number, sent, result)  # the same seed: the same game
        if len(played.table.log) <= limit:  # replayed to its end: every page says how it ended
            final = api(web_server, STATUS, t=table_id)["table"]
            assert final["status"] == "finished"
            for page in pages.values():
                page.wait_version(final["version"])
                assert "The " in page.page.locator("#board .nc-result").inner_text() and " over" in \
                    page.page.locator("#board .nc-result").inner_text()
        for page in pages.values():
            assert not page.errors, page.errors
        # a solo game shows its own parts: the end round, the target, the phantom die
        solo = pages[0].page.locator("#board .nc-solo")
        assert solo.count() == (1 if players == 1 else 0)
        if players == 1:
            assert solo.locator("[data-solo=die] .nc-die").count() == 1 and "Target:" in solo.inner_text()
    finally:
        for page in pages.values():
            page.close()
    assert {"play", "board", "bid_power", "bid_control", "build", "research", "recruit", "leader_slot"} | expected <= seen, \
        sorted(expected - seen)
