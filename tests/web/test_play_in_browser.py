"""The reference web client (/play) in headless Chromium against a real server: lobby, seats
in separate browser contexts, play by clicking legal actions, reload and reconnect, and no
seat's page showing another seat's private information. The client has no game-specific
code; the same driver plays The Queen's New Capital (with and without all its modules) and
The Queen's Dilemma. Screenshots go to test-artifacts/."""
from __future__ import annotations

import json
import random
import re

import httpx

from tests.web.driver import (
    STATUS, Seat, api, check_private_information, create_in_lobby, join_by_link, no_horizontal_scroll, step,
    sync, take_seat_from_lobby,
)

NEW_CAPITAL = "The Queen's New Capital"
QUEENS_DILEMMA = "The Queen's Dilemma"


def assert_log_complete(seat: Seat, version: int) -> None:
    """Every version once, in order: nothing lost over a reload or a reconnect, nothing twice."""
    assert seat.log_versions() == list(range(1, version + 1))


def test_served_at_play_with_its_assets(web_server):
    assert httpx.get(f"{web_server.base}/", follow_redirects=False).headers["location"].endswith("/play/")
    page = httpx.get(f"{web_server.base}/play/")
    assert page.status_code == 200 and '<main id="main"' in page.text
    for asset, kind in [("app.js", "javascript"), ("api.js", "javascript"), ("style.css", "css")]:
        res = httpx.get(f"{web_server.base}/play/{asset}")
        assert res.status_code == 200 and kind in res.headers["content-type"], asset


def test_new_capital_two_seats_play_reload_reconnect_and_keep_secrets(browser, web_server, artifacts):
    rng = random.Random(7)
    ada = Seat(browser, web_server.base)
    bob = Seat(browser, web_server.base, proxy=True)  # bob's live updates pass a proxy the test controls
    seats = [ada, bob]
    try:
        table_id, links = create_in_lobby(ada, game=NEW_CAPITAL, players=2, seed=42, name="Ada",
                                          options={"Scenario": "learning"}, screenshot=artifacts / "lobby.png")
        assert all(link.startswith(f"{web_server.base}/play/#/join/{table_id}/") for link in links)
        take_seat_from_lobby(ada, table_id, 0)
        ada.page.wait_for_selector(".table-view[data-status='open']")
        join_by_link(bob, table_id, links[1], 1, "Bob")
        ada.page.wait_for_selector(".table-view[data-status='playing']")  # learns that the last seat was taken
        assert "Seat 2 (Bob)" in ada.page.locator("#seats").inner_text()
        assert ada.page.locator(".you-are").inner_text() == "Seat 1 (Ada)"

        # At the start each seat drafts from its own secret offer.
        assert check_private_information(web_server, table_id, seats) > 0

        # A page that has fallen behind acts: the server refuses, and the page says why, with the code.
        table = sync(web_server, table_id, seats)
        assert set(table["activeSeats"]) == {0, 1}, table  # both draft at once
        bob.proxy.hold()
        ada.act_randomly(rng)
        ada.wait_version(1)
        assert bob.shown_version() == 0
        bob.act_randomly(rng)
        alert = bob.page.locator(".table-view > .alerts")
        alert.get_by_text(re.compile(r"STALE_VERSION: ")).wait_for()
        bob.proxy.release()
        bob.wait_version(1)

        actions, checks, shot = 1, 0, False
        reloaded = cut = False
        while True:
            table = api(web_server, STATUS, t=table_id)["table"]
            if table["status"] != "playing" or actions >= 160 or (table["phase"]["round"] >= 3 and actions >= 45):
                break
            if actions >= 12 and not reloaded:  # a reload mid-game resumes the same seat, whole log included
                ada.page.reload()
                ada.wait_seated(0)
                ada.wait_version(table["version"])
                assert_log_complete(ada, table["version"])
                reloaded = True
            if actions >= 24 and not cut and 0 in table["activeSeats"]:
                # Bob's connection goes silent while Ada plays on, then drops; Bob's page
                # reconnects by itself and resumes after the last version it applied.
                bob.proxy.hold()
                before = bob.shown_version()
                for _ in range(4):
                    table = api(web_server, STATUS, t=table_id)["table"]
                    if 0 not in table["activeSeats"] or table["status"] != "playing":
                        break
                    ada.wait_version(table["version"])
                    ada.act_randomly(rng)
                    ada.wait_version(table["version"] + 1)
                    actions += 1
                assert bob.shown_version() == before
                bob.proxy.cut()  # the messages held back are lost with the connection
                table = sync(web_server, table_id, seats)
                assert bob.proxy.connections >= 2
                assert_log_complete(bob, table["version"])
                cut = True
                continue
            if table["phase"]["round"] >= 2 and not shot:
                ada.page.screenshot(path=str(artifacts / "table-midgame.png"), full_page=True)
                ada.page.set_viewport_size({"width": 375, "height": 800})
                assert no_horizontal_scroll(ada.page), "the table view needs a horizontal scroll at 375 px"
                ada.page.screenshot(path=str(artifacts / "table-midgame-phone.png"), full_page=False)
                ada.page.set_viewport_size({"width": 1100, "height": 900})
                shot = True
            if actions % 15 == 0:
                checks += check_private_information(web_server, table_id, seats)
            elif actions % 5 == 0:
                sync(web_server, table_id, seats)  # every page follows the game live
            step(web_server, table_id, seats, rng, keyboard=actions % 5 == 0)
            actions += 1

        table = sync(web_server, table_id, seats)
        assert reloaded and cut and shot, (reloaded, cut, shot, actions, table)
        assert table["phase"]["round"] >= 3 or table["status"] == "finished", table
        check_private_information(web_server, table_id, seats)
        for seat in seats:
            assert_log_complete(seat, table["version"])
            assert not seat.errors, seat.errors
        # A spectator (the lobby's Watch link) sees the public view: no seat's secrets.
        watcher = Seat(browser, web_server.base)
        seats.append(watcher)
        watcher.table_id = table_id
        watcher.page.goto(f"{web_server.base}/play/")
        watcher.page.locator(f"li[data-table='{table_id}']").get_by_role("link", name="Watch").click()
        watcher.wait_version(table["version"])
        # (the game has its own view: the generic sections are folded into "Details", so not rendered text)
        assert "Spectators hold no private information" in watcher.page.locator("#private").text_content()
        assert watcher.page.locator("#actions button.act").count() == 0
        check_private_information(web_server, table_id, seats)
        # The log reads as lines with seat names and card names, not raw ids.
        lines = ada.page.locator("ol.log > li > .line").all_inner_texts()
        assert any(re.match(r"Seat 2 \(Bob\)[: ]", line) for line in lines), lines[:5]  # the view's words or the generic line
        glossary = api(web_server, "query($t: String!) { table(id: $t) { glossary } }", ada.token(), t=table_id)["table"]["glossary"]
        log_text = ada.page.locator("ol.log").inner_text()
        assert any(e["name"] in log_text for e in glossary.values()), log_text[-500:]
        assert not re.search(r"\b\d+:[A-Z]+-[A-Z]+", log_text), "a card id in the log instead of its name"
    finally:
        for seat in seats:
            seat.close()


def play_table(web_server, table_id: str, seats: list[Seat], rng, *, rounds: int, min_actions: int, max_actions: int) -> dict:
    actions = 0
    while True:
        table = api(web_server, STATUS, t=table_id)["table"]
        if table["status"] != "playing" or actions >= max_actions or (table["phase"]["round"] >= rounds and actions >= min_actions):
            return table
        if actions % 20 == 0:
            check_private_information(web_server, table_id, seats)
        elif actions % 5 == 0:
            sync(web_server, table_id, seats)  # every page follows the game live
        step(web_server, table_id, seats, rng, keyboard=actions % 7 == 0)
        actions += 1


def test_queens_dilemma_three_seats_play_several_rounds(browser, web_server, artifacts):
    rng = random.Random(11)
    seats = [Seat(browser, web_server.base) for _ in range(3)]
    try:
        table_id, links = create_in_lobby(seats[0], game=QUEENS_DILEMMA, players=3, seed=5, name="Aesyas")
        take_seat_from_lobby(seats[0], table_id, 0)
        for number in (1, 2):
            join_by_link(seats[number], table_id, links[number], number, f"Councilor {number + 1}")
        seats[0].page.wait_for_selector(".table-view[data-status='playing']")
        table = play_table(web_server, table_id, seats, rng, rounds=3, min_actions=30, max_actions=120)
        assert table["phase"]["round"] >= 3 or table["status"] == "finished", table
        table = sync(web_server, table_id, seats)
        check_private_information(web_server, table_id, seats)
        for seat in seats:
            assert_log_complete(seat, table["version"])
            assert not seat.errors, seat.errors
        # Per-seat records of any game become the standing table.
        assert seats[1].page.locator("#standing table.standing tbody tr").count() >= 3
        seats[1].page.screenshot(path=str(artifacts / "queens-dilemma-midgame.png"), full_page=True)
    finally:
        for seat in seats:
            seat.close()


def test_new_capital_with_every_module(browser, web_server):
    """All three modules together: none is incompatible with another (the games query says so),
    guildmasters and dilemmas are only "not recommended" together, which the table shows."""
    games = api(web_server, "{ games { id modules { id incompatibleWith } } }")["games"]
    modules = next(g for g in games if g["id"] == "new-capital")["modules"]
    assert {m["id"] for m in modules} == {"guildmasters", "faction-heroes", "dilemmas"}
    assert all(not m["incompatibleWith"] for m in modules)

    rng = random.Random(3)
    seats = [Seat(browser, web_server.base) for _ in range(2)]
    try:
        table_id, links = create_in_lobby(seats[0], game=NEW_CAPITAL, players=2, seed=9, name="Ada",
                                          modules=["Guildmasters", "Faction Heroes", "Dilemmas"])
        take_seat_from_lobby(seats[0], table_id, 0)
        join_by_link(seats[1], table_id, links[1], 1, "Bob")
        seats[0].page.wait_for_selector(".table-view[data-status='playing']")
        header = seats[0].page.locator(".table-header").inner_text()
        assert "dilemmas" in header and "guildmasters" in header and "faction-heroes" in header
        assert "not recommended" in header
        assert "module_state" in seats[0].text()
        table = play_table(web_server, table_id, seats, rng, rounds=99, min_actions=24, max_actions=24)
        table = sync(web_server, table_id, seats)
        check_private_information(web_server, table_id, seats)
        for seat in seats:
            assert_log_complete(seat, table["version"])
            assert not seat.errors, seat.errors
    finally:
        for seat in seats:
            seat.close()


def test_lobby_refuses_what_the_api_refuses_and_shows_rejections(browser, web_server, artifacts):
    """Modules: an incompatible pair cannot both be checked, a module outside its player counts
    cannot be checked; a table the server refuses shows the server's code. At phone width."""
    seat = Seat(browser, web_server.base, width=375)
    try:
        page = seat.page
        page.goto(f"{web_server.base}/play/")
        page.get_by_role("radio", name="Sealed Bids", exact=True).check()  # the test game's modules
        long_game = page.get_by_role("checkbox", name="Long game", exact=True)
        short_game = page.get_by_role("checkbox", name="Short game", exact=True)
        page.get_by_label("Players", exact=True).select_option("2")
        assert "Cannot be combined with Short game" in page.locator("fieldset.modules").inner_text()
        long_game.check()
        assert short_game.is_disabled()
        assert "cannot be combined with Long game" in page.locator("fieldset.modules").inner_text()
        long_game.uncheck()
        assert short_game.is_enabled()
        page.get_by_label("Players", exact=True).select_option("4")
        assert short_game.is_disabled() and "needs" in page.locator("fieldset.modules").inner_text()
        assert no_horizontal_scroll(page)
        page.screenshot(path=str(artifacts / "lobby-phone.png"), full_page=True)

        page.get_by_role("radio", name=NEW_CAPITAL, exact=True).check()
        packs = page.get_by_label("Pack", exact=True).locator("option").all_inner_texts()
        assert packs == ["(game default: demo)", "demo"], packs  # packs by name: the registered ones
        # A choice the server refuses (a 2-player setup card at a 3-player table): its typed code, no table.
        page.get_by_role("radio", name="Arcs", exact=True).check()
        page.get_by_label("Players", exact=True).select_option("3")
        page.get_by_label("Setup card", exact=True).select_option(label="2 Player Frontiers (2 players)")
        page.get_by_role("button", name="Create table").click()
        page.locator("form.create .alerts").get_by_text(re.compile(r"^[A-Z_]+: ")).wait_for()
        assert page.locator("#created").is_hidden()
        assert not seat.errors, seat.errors
    finally:
        seat.close()


def test_a_finished_campaign_game_shows_standings_and_starts_the_next_game(browser, web_server):
    """A legacy game in the generic client: a Queen's Dilemma game played to its end (by bots,
    over the API), opened by seat 1's browser: the page shows the campaign's standings and a
    button that starts the campaign's next game (startNextGame); the player takes the same
    seat there and lands in game 2 of the campaign. No game-specific code: any campaign game."""
    created = api(web_server, """mutation { createTable(input: {game: "queens-dilemma", players: 3, seed: 4}) {
      ... on CreateTableOk { joinCode table { id campaignId } } } }""")["createTable"]
    table_id, campaign_id = created["table"]["id"], created["table"]["campaignId"]
    assert campaign_id
    tokens = [api(web_server, 'mutation($t: String!, $s: Int!, $c: String) { joinTable(tableId: $t, seat: $s, name: "C", '
                  'code: $c) { ... on JoinOk { seatToken } } }', t=table_id, s=s, c=created["joinCode"])["joinTable"]["seatToken"]
              for s in range(3)]
    rng = random.Random(4)
    for _ in range(2000):
        t = api(web_server, 'query($t: String!) { table(id: $t) { status version activeSeats } }', t=table_id)["table"]
        if t["status"] == "finished":
            break
        seat = rng.choice(t["activeSeats"])
        mine = api(web_server, 'query($t: String!) { table(id: $t) { legalActions { type params } } }', tokens[seat],
                   t=table_id)["table"]["legalActions"]
        action = rng.choice([a for a in mine if a["type"] != "pay"] or mine)
        api(web_server, 'mutation($t: String!, $a: ActionInput!, $v: Int) { act(tableId: $t, action: $a, '
            'expectedVersion: $v) { __typename } }', tokens[seat], t=table_id, a=action, v=t["version"])
    assert t["status"] == "finished"

    player = Seat(browser, web_server.base)
    try:
        player.page.goto(f"{web_server.base}/play/")
        player.page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                             [f"conclave.seat.{table_id}", json.dumps({"seat": 1, "token": tokens[1]})])
        player.page.goto(f"{web_server.base}/play/#/table/{table_id}")
        player.page.wait_for_selector("#campaign:not([hidden]) button.next")
        assert "1 game(s) played" in player.page.locator("#campaign").inner_text()
        player.page.click("#campaign button.next")
        player.page.click("text=Take seat 2 in the next game")
        player.page.get_by_role("button", name="Take seat 2").click()  # the join page, as from a shared link
        player.page.wait_for_selector(".table-view[data-viewer='1']")
        next_id = player.page.locator(".table-view").get_attribute("data-table")
        assert next_id != table_id
        state = api(web_server, 'query($t: String!) { table(id: $t) { campaignId stateJson } }', t=next_id)["table"]
        assert state["campaignId"] == campaign_id and state["stateJson"]["game_number"] == 2
        assert not player.errors, player.errors
    finally:
        player.close()
