"""The Queen's New Capital's own table view (plugins/new_capital/client, with the parts of the
Guildmasters, Faction Heroes and Dilemmas modules) in headless Chromium: a 3-seat table with
all three modules (Guildmasters needs 2-4 players; 3 is allowed by all three) created in the
lobby and joined by link, played through two whole rounds by clicking the view's controls
inside #board only (never the generic #actions panel); at every step the acting page shows a
control for each of its legal actions; a page reloaded mid-round carries on; each page shows
only its own seat's secrets; screenshots at desktop and phone width."""
from __future__ import annotations

import json
import random
import re

from core.glossary import strings_in
from tests.web.driver import (
    Seat, api, check_private_information, create_in_lobby, join_by_link, no_horizontal_scroll, seat_view,
    status, sync, take_seat_from_lobby,
)

NEW_CAPITAL = "The Queen's New Capital"
MODULES = ("Guildmasters", "Faction Heroes", "Dilemmas")
BOARD = "#board .nc-view"
CONTROLS = "#board button[data-action]"
LEGAL = "query($t: String!) { table(id: $t) { version activeSeats legalActions { type params } } }"


def view_controls(page) -> list[dict]:
    """Every action control inside #board: its type, its params, and for a form (the Scout)
    every answer its selects can send."""
    return page.locator(CONTROLS).evaluate_all("""els => els.map(e => ({
        type: e.dataset.action, params: JSON.parse(e.dataset.params || "{}"),
        choices: e.closest("form[data-choices]") ? JSON.parse(e.closest("form").dataset.choices) : null,
        disabled: e.disabled }))""")


def missing_controls(legal: list[dict], controls: list[dict]) -> list[dict]:
    """The legal actions no control of the view can send (exactly, type and params)."""
    sendable = set()
    for c in controls:
        for params in c["choices"] or [c["params"]]:
            sendable.add((c["type"], json.dumps(params, sort_keys=True)))
    return [a for a in legal if (a["type"], json.dumps(a["params"] or {}, sort_keys=True)) not in sendable]


def act_in_view(server, table_id, seats, rng, types_seen: set, keyboard: bool = False) -> str:
    """One action by a page whose seat is to act: every legal action of that seat has a
    control in the view; one of them is clicked, or with `keyboard` focused and pressed with
    Enter (a Scout through its form's selects)."""
    table = status(server, table_id)
    acting = [s for s in seats if s.seat in table["activeSeats"]]
    assert acting, table
    seat = rng.choice(acting)
    seat.wait_version(table["version"])
    legal = api(server, LEGAL, seat.token(), t=table_id)["table"]["legalActions"]
    controls = view_controls(seat.page)
    assert not missing_controls(legal, controls), (seat.seat, missing_controls(legal, controls)[:5])
    types_seen.update(a["type"] for a in legal)
    buttons = seat.page.locator(f"{CONTROLS}:not([disabled])")
    index = rng.randrange(buttons.count())
    button = buttons.nth(index)
    kind = button.get_attribute("data-action")
    form = button.locator("xpath=ancestor::form[1]")
    if form.count():  # a Scout: choose the row, then what to look for, as a player would
        rows = form.locator("select[data-control=row] option").evaluate_all("os => os.map(o => o.value)")
        form.locator("select[data-control=row]").select_option(rng.choice(rows))
        matches = form.locator("select[data-control=match] option").evaluate_all("os => os.map(o => o.value)")
        form.locator("select[data-control=match]").select_option(rng.choice(matches))
        button = form.locator("button[type=submit]")
    if keyboard:
        button.focus()
        seat.page.keyboard.press("Enter")
    else:
        button.click()
    seat.wait_version(table["version"] + 1)
    assert not seat.errors, seat.errors
    return kind


def secret_ids(view: dict, seat: int) -> set[str]:
    """The card ids only `seat` sees: its hand, its draft offer, its cards face down before
    the reveal and the Guildmasters dealt to it (another seat's view holds counts there)."""
    me = view["stateJson"]["players"][seat]
    out = set()
    for key in ("hand", "draft_offer", "face_down"):
        if isinstance(me[key], list):
            out.update(me[key])
    gm = view["stateJson"]["module_state"].get("guildmasters", {})
    if isinstance(gm.get("zones", {}).get("dealt"), list):
        out.update(gm["zones"]["dealt"])
    return out


def assert_secrets_kept(server, table_id, seats) -> int:
    """The generic check of every page, then the view's own panels: each page's province
    shows its own hand by name; no page's #board holds a card only another seat may see."""
    sync(server, table_id, seats)
    check_private_information(server, table_id, seats)
    views = {s.seat: seat_view(server, s, table_id) for s in seats}
    checked = 0
    for seat in seats:
        mine = views[seat.seat]
        hand = mine["stateJson"]["players"][seat.seat]["hand"]
        panel = seat.page.locator(f"{BOARD} .nc-hand")
        shown = set(panel.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
        assert shown == set(hand), (seat.seat, shown, hand)
        for card in hand:
            assert mine["glossary"][card]["name"] in panel.inner_text()
        on_board = set(seat.page.locator("#board [data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
        board_text = seat.page.locator("#board").inner_text()
        my_words = " | ".join(f"{e['name']} | {e.get('text') or ''}" for e in mine["glossary"].values())
        visible = strings_in(mine["stateJson"])
        for other in seats:
            if other is seat:
                continue
            theirs = secret_ids(views[other.seat], other.seat) - visible
            assert not theirs & on_board, f"seat {seat.seat}'s view shows seat {other.seat}'s {theirs & on_board}"
            for card in theirs:
                name = views[other.seat]["glossary"][card]["name"]
                if len(name.split()) >= 2 and name not in my_words:
                    assert name not in board_text, f"seat {seat.seat}'s view names seat {other.seat}'s {name!r}"
                checked += 1
    return checked


def test_new_capital_view_plays_two_rounds_with_all_modules_by_its_own_controls(browser, web_server, artifacts):
    seats = [Seat(browser, web_server.base, width=1280) for _ in range(3)]
    rng = random.Random(17)
    try:
        table_id, links = create_in_lobby(seats[0], game=NEW_CAPITAL, players=3, seed=23, name="Ada", modules=MODULES)
        take_seat_from_lobby(seats[0], table_id, 0)
        for number in (1, 2):
            join_by_link(seats[number], table_id, links[number], number, f"Builder {number + 1}")
        for seat in seats:
            seat.page.wait_for_selector(f".table-view.has-view[data-status='playing'] {BOARD}")
            assert seat.page.locator("#board .view-part[data-module]").count() == 3  # the three modules' parts
        # The draft: each page offers its own two leaders, which no other page names.
        sync(web_server, table_id, seats)
        checked = assert_secrets_kept(web_server, table_id, seats)
        assert checked >= 6  # two draft leaders of each of the two other seats, per page
        for seat in seats:
            assert seat.page.locator(f"{BOARD} .nc-decision[data-prompt=draft_leader] button[data-action=draft_leader]").count() == 2

        types: set[str] = set()
        kinds: list[str] = []
        reloaded = secrets_mid_round = False
        for _ in range(400):
            table = status(web_server, table_id)
            if table["status"] != "playing" or table["phase"]["round"] >= 3:
                break
            round_number, phase = table["phase"]["round"], table["phase"]["name"]
            if round_number == 1 and phase == "development" and not secrets_mid_round:
                views = [seat_view(web_server, s, table_id)["stateJson"] for s in seats]
                if any(isinstance(p["face_down"], list) and p["face_down"] for v in views for p in v["players"]):
                    assert assert_secrets_kept(web_server, table_id, seats) > 0  # hands and face-down cards
                    secrets_mid_round = True
                    for seat in seats:  # mid-round, with hands and decisions open: readable on a phone
                        seat.page.set_viewport_size({"width": 390, "height": 844})
                        assert no_horizontal_scroll(seat.page), f"seat {seat.seat}'s page scrolls sideways at 390 px"
                        seat.page.set_viewport_size({"width": 1280, "height": 900})
            if round_number == 2 and phase == "development" and not reloaded and len(kinds) % 5 == 0:
                # Mid-round one page is reloaded: the same table, the same controls.
                page = seats[1].page
                before = page.locator(f"{BOARD} .nc-province").inner_text()
                page.reload()
                seats[1].wait_seated(1)
                seats[1].wait_version(table["version"])
                page.wait_for_selector(BOARD)
                assert page.locator(f"{BOARD} .nc-province").inner_text() == before
                reloaded = True
            kinds.append(act_in_view(web_server, table_id, seats, rng, types, keyboard=len(kinds) % 4 == 3))
        table = sync(web_server, table_id, seats)
        assert table["status"] == "finished" or table["phase"]["round"] >= 3, table
        assert reloaded and secrets_mid_round
        # the modules' own decisions were played through their parts, the game's through its own
        assert {"draft_leader", "play", "guildmaster", "dilemma_vote", "bid_power"} <= types, types
        assert {"play", "guildmaster", "dilemma_vote"} <= set(kinds), kinds
        assert_secrets_kept(web_server, table_id, seats)

        # A spectator (the lobby's Watch link) sees the public table: no hand, no controls.
        watcher = Seat(browser, web_server.base)
        watcher.table_id = table_id
        watcher.page.goto(f"{web_server.base}/play/")
        watcher.page.locator(f"li[data-table='{table_id}']").get_by_role("link", name="Watch").click()
        watcher.wait_version(table["version"])
        watcher.page.wait_for_selector(BOARD)
        assert watcher.page.locator(f"{BOARD} .nc-hand, {BOARD} .nc-province, {CONTROLS}").count() == 0
        assert watcher.page.locator(f"{BOARD} .nc-seat").count() == 3  # every province in summary
        check_private_information(web_server, table_id, seats + [watcher])
        assert not watcher.errors, watcher.errors
        watcher.close()

        # The table as the view draws it: the Crisis, the rows, the die, the modules' parts.
        page = seats[0].page
        state = seat_view(web_server, seats[0], table_id)["stateJson"]
        glossary = seat_view(web_server, seats[0], table_id)["glossary"]
        crisis = page.locator(f"{BOARD} .nc-crisis-card")
        assert crisis.get_attribute("data-crisis") == state["crisis"]
        assert glossary[state["crisis"]]["name"] in page.locator(f"{BOARD} .nc-crisis").inner_text()
        for key, row in state["rows"].items():
            shown = page.locator(f"{BOARD} .nc-row[data-row={key}] [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
            assert shown == row["pool"], (key, shown)
        assert page.locator(f"{BOARD} .nc-die[role=img]").first.get_attribute("aria-label").endswith(f"shows {state['die']}")
        assert page.locator(f"{BOARD} .nc-seat").count() == 2  # the other two provinces in summary
        assert page.locator(f"{BOARD} .nc-dilemmas .nc-dilemma-card, {BOARD} .nc-dilemmas li").count() >= 1
        gm = state["module_state"]["guildmasters"]
        if gm["active"]:
            assert page.locator(f"{BOARD} .nc-guildmasters .nc-active-gm [data-card]").get_attribute("data-card") == gm["active"]
        else:  # round 3's pair is being chosen from
            assert page.locator(f"{BOARD} .nc-guildmasters .nc-gm-choice").get_attribute("data-chooser") == str(gm["chooser"])

        # The log says it in words: card names, never ids.
        for seat in seats:
            log = seat.page.locator("ol.log").inner_text()
            assert "Dilemma is revealed:" in log and "the active Guildmaster" in log and "crisis (needs" in log
            assert not re.search(r"\b(?:\d:B-[A-Z]+|[A-Z]{1,2}\d{2}|C\d[A-C]|DL\d{2}|DS\d|GM\d{2}|DI\d{2}|FH\d{2})\b", log), \
                "a card id in the log instead of its name"
            assert seat.page.locator("#actions").count() == 1  # the generic panel stays as the fallback
            assert not seat.errors, seat.errors

        # Screenshots: desktop, then phone width without a horizontal page scroll.
        page.screenshot(path=str(artifacts / "new-capital-desktop.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        assert no_horizontal_scroll(page), "the New Capital view needs a horizontal scroll at 390 px"
        page.screenshot(path=str(artifacts / "new-capital-phone.png"), full_page=True)
    finally:
        for seat in seats:
            seat.close()
