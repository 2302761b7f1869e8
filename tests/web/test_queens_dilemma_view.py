"""The Queen's Dilemma's own table view (plugins/queens_dilemma/client) in headless Chromium:
a 3-seat campaign table set up and played through two whole Dilemma votes with the view's
controls only (the map's Region buttons, the decision buttons, the vote controls, the
bargaining form), never the generic #actions panel; a page reloaded mid-vote carries on;
each page shows only its own seat's secret cards; screenshots at desktop and phone width."""
from __future__ import annotations

import re

from tests.web.driver import (
    Seat, api, check_private_information, create_in_lobby, join_by_link, no_horizontal_scroll, seat_view,
    status, sync, take_seat_from_lobby,
)

QUEENS_DILEMMA = "The Queen's Dilemma"
BOARD = "#board .qd-view"


def acting_seat(server, table_id, seats) -> tuple[Seat, dict]:
    table = status(server, table_id)
    acting = [s for s in seats if s.seat in table["activeSeats"]]
    assert acting, table
    seat = acting[0]
    seat.wait_version(table["version"])
    return seat, table


def click_in_view(seat: Seat, selector: str, version: int, keyboard: bool = False) -> None:
    """Click a control of the view (inside #board only) and wait for the page to apply it."""
    control = seat.page.locator(f"{BOARD} {selector}").first
    assert control.count(), f"seat {seat.seat}: no {selector!r} in the view"
    if keyboard:
        control.focus()
        seat.page.keyboard.press("Enter")
    else:
        control.click()
    seat.wait_version(version + 1)
    assert not seat.errors, seat.errors


def decide_in_view(server, table_id, seats) -> dict:
    """One blocking decision that is not a vote, answered through the view: a Region on the map,
    else the first button of the view's decision panel."""
    seat, table = acting_seat(server, table_id, seats)
    page = seat.page
    assert page.locator(f"{BOARD} .qd-vote-controls").count() == 0
    if page.locator(f"{BOARD} .qd-region button[data-action]").count():
        click_in_view(seat, ".qd-region button[data-action]", table["version"])
    else:
        click_in_view(seat, ".qd-decisions button.qd-act", table["version"])
    return table


def vote_turn(seat: Seat, version: int, *, side: str | None = None, power: int = 1, pass_action: str = "gather",
              keyboard: bool = False) -> None:
    """The seat's voting turn through the vote controls: place `power` on `side`, raise, or pass."""
    controls = seat.page.locator(f"{BOARD} .qd-vote-controls")
    controls.wait_for()
    if side is None:
        click_in_view(seat, f".qd-vote-controls button[data-action=pass][data-pass={pass_action}]", version, keyboard)
        return
    seat.page.locator(f"{BOARD} select[data-control=power]").select_option(str(power))
    kind = "vote" if controls.locator("button[data-action=vote]").count() else "raise"
    target = f"button[data-action=vote][data-side={side}]" if kind == "vote" else "button[data-action=raise]"
    assert re.search(rf"{power} Power", controls.locator(target).inner_text())
    click_in_view(seat, f".qd-vote-controls {target}", version, keyboard)


def any_vote(seat: Seat, version: int, side: str = "nay") -> None:
    """A voting turn however it stands: 1 Power on `side` if the seat may vote, else Gather
    Power; once its side is chosen (a second turn), stay."""
    controls = seat.page.locator(f"{BOARD} .qd-vote-controls")
    if controls.locator("button[data-action=vote]").count():
        vote_turn(seat, version, side=side, power=1)
    elif controls.locator("button[data-action=pass][data-pass=gather]").count():
        vote_turn(seat, version, side=None)
    else:
        click_in_view(seat, ".qd-vote-controls button[data-action=stay]", version)


def voting_now(server, table_id) -> bool:
    return any(p["kind"] == "vote" for p in api(server, "query($t: String!) { table(id: $t) { prompts { kind } } }",
                                                 t=table_id)["table"]["prompts"])


def finish_round(server, table_id, seats, round_number: int, limit: int = 40) -> dict:
    """Answer whatever follows a vote (a tie-break, a Pass Bonus, an outcome's choices) through
    the view until the next round's vote opens or the game ends."""
    for _ in range(limit):
        table = status(server, table_id)
        if table["status"] != "playing" or (table["phase"]["round"] > round_number and voting_now(server, table_id)):
            return table
        seat, table = acting_seat(server, table_id, seats)
        if seat.page.locator(f"{BOARD} .qd-vote-controls").count():
            any_vote(seat, table["version"])
        else:
            decide_in_view(server, table_id, seats)
    raise AssertionError("the round did not end")


def other_secret_names(server, table_id, seats) -> dict[int, list[str]]:
    """Per seat, the names of its secret cards (Ideology, Investment, Agendas) as its own view
    names them."""
    out = {}
    for seat in seats:
        view = seat_view(server, seat, table_id)
        state, glossary = view["stateJson"], view["glossary"]
        me = state["councilors"][seat.seat]
        codes = [me["ideology_card"], me["investment"]] + [a["code"] for a in state["campaign"]["diaries"][seat.seat]["agendas"]]
        out[seat.seat] = [glossary[c]["name"] for c in codes if isinstance(c, str) and c in glossary]
    return out


def assert_secrets_kept(server, table_id, seats) -> None:
    """Each page names its own secret cards in the view's secret panel and none of another's
    (a name another seat's card shares with one of mine, or with any public name, proves nothing)."""
    sync(server, table_id, seats)
    check_private_information(server, table_id, seats)
    secrets = other_secret_names(server, table_id, seats)
    for seat in seats:
        panel = seat.page.locator(f"{BOARD} .qd-secrets").inner_text()
        for name in secrets[seat.seat]:
            assert name in panel, (seat.seat, name)
        text = seat.text()
        public = {e["name"] for e in seat_view(server, seat, table_id)["glossary"].values()}
        for other in seats:
            if other is seat:
                continue
            for name in secrets[other.seat]:
                if name not in public:
                    assert name not in text, f"seat {seat.seat}'s page shows seat {other.seat}'s secret card {name!r}"


def test_queens_dilemma_view_plays_two_votes_by_its_own_controls(browser, web_server, artifacts):
    seats = [Seat(browser, web_server.base, width=1280) for _ in range(3)]
    try:
        table_id, links = create_in_lobby(seats[0], game=QUEENS_DILEMMA, players=3, seed=5, name="Aesyas")
        take_seat_from_lobby(seats[0], table_id, 0)
        for number in (1, 2):
            join_by_link(seats[number], table_id, links[number], number, f"Councilor {number + 1}")
        for seat in seats:
            seat.page.wait_for_selector(f".table-view.has-view[data-status='playing'] {BOARD}")
        # The whole map is drawn before anyone chose: twelve Regions, none owned yet.
        assert seats[1].page.locator(f"{BOARD} .qd-region").count() == 12
        assert seats[1].page.locator(f"{BOARD} .qd-region.free").count() == 12

        # The campaign's setup (Regions on the map, Investment draft, Building output) by the view.
        decisions = 0
        while not voting_now(web_server, table_id):
            decide_in_view(web_server, table_id, seats)
            decisions += 1
            assert decisions < 40
        table = sync(web_server, table_id, seats)
        page = seats[0].page
        assert page.locator(f"{BOARD} .qd-region.free").count() == 0  # every Region has its owner
        assert page.locator(f"{BOARD} .qd-region.owner-0").count() >= 3
        assert_secrets_kept(web_server, table_id, seats)

        # Round 1: the Dilemma's front and its two options, the vote so far.
        state = seat_view(web_server, seats[0], table_id)["stateJson"]
        glossary = seat_view(web_server, seats[0], table_id)["glossary"]
        dilemma = glossary[state["dilemma"]]
        card = page.locator(f"{BOARD} .qd-dilemma-card")
        assert card.get_attribute("data-dilemma") == state["dilemma"]
        assert dilemma["name"] in card.inner_text() and dilemma["text"] in card.inner_text()
        for side, colour in (("aye", "blue"), ("nay", "red")):
            option = page.locator(f"{BOARD} .qd-option[data-option={side}]").inner_text()
            for push in state["markers"][colour]["pushes"]:
                assert f"{push['ideology'].title()} +{push['n']}" in option, (side, option)
        leader = state["leader"]
        order = [(leader + i) % 3 for i in range(3)]
        first, second, third = (seats[s] for s in order)

        # A bargain before the vote: the second voter pays the Leader 1 Gold, with the deal's words.
        gold_before = state["councilors"][leader]["resources"]["gold"]
        form = second.page.locator(f"{BOARD} form.qd-payment")
        form.locator("select[data-control=to]").select_option(str(leader))
        form.locator("select[data-control=resource]").select_option("gold")
        form.locator("select[data-control=n]").select_option("1")
        form.locator("input[data-control=reason]").fill("for an Aye from the chair")
        version = status(web_server, table_id)["version"]
        form.locator("button[data-action=pay]").click()
        second.wait_version(version + 1)
        after = seat_view(web_server, first, table_id)["stateJson"]
        assert after["councilors"][leader]["resources"]["gold"] == gold_before + 1

        # The Leader votes Aye with 2 Power (by keyboard); the table shows it on every page.
        vote_turn(first, version + 1, side="aye", power=2, keyboard=True)
        table = sync(web_server, table_id, seats)
        for seat in seats:
            row = seat.page.locator(f"{BOARD} .qd-vote tr[data-seat='{leader}']")
            assert row.get_attribute("data-side") == "aye" and "Aye, 2 Power" in row.inner_text()
            assert "Aye 2" in seat.page.locator(f"{BOARD} .qd-totals").inner_text()

        # Mid-vote the third voter's page is reloaded: the same vote, the same controls.
        third.page.reload()
        third.wait_seated(third.seat)
        third.wait_version(table["version"])
        third.page.wait_for_selector(BOARD)
        assert third.page.locator(f"{BOARD} .qd-vote tr[data-seat='{leader}']").get_attribute("data-side") == "aye"

        second_turn, table = acting_seat(web_server, table_id, seats)
        assert second_turn is second
        vote_turn(second, table["version"], side="nay", power=1)
        seat, table = acting_seat(web_server, table_id, seats)
        assert seat is third
        vote_turn(third, table["version"], side=None, pass_action="gather")
        table = finish_round(web_server, table_id, seats, 1)
        assert table["status"] == "playing" and table["phase"]["round"] == 2, table
        view = seat_view(web_server, first, table_id)["stateJson"]
        assert view["votes"][0]["winner"] == "aye" and view["round_counter"][0][1] == "aye"
        assert_secrets_kept(web_server, table_id, seats)

        # The log says it in words, with names.
        log = seats[2].page.locator("ol.log").inner_text()
        assert f"{first.page.locator('.you-are').inner_text()} votes Aye: 2 Power on the tile." in log
        assert "gives 1 Gold to" in log and "“for an Aye from the chair”" in log
        assert "Aye wins the vote (Aye 2, Nay 1)." in log
        assert f"Dilemma read: {dilemma['name']}." in log
        assert not re.search(r"\bD\d{3}\b", log), "a Dilemma id in the log instead of its name"

        # Round 2: everyone votes or passes through the view; the round ends.
        for _ in range(3):
            seat, table = acting_seat(web_server, table_id, seats)
            if not seat.page.locator(f"{BOARD} .qd-vote-controls").count():
                break
            any_vote(seat, table["version"], side="nay")
        table = finish_round(web_server, table_id, seats, 2)
        assert table["status"] == "finished" or table["phase"]["round"] == 3, table
        table = sync(web_server, table_id, seats)
        assert_secrets_kept(web_server, table_id, seats)
        assert len(seat_view(web_server, first, table_id)["stateJson"]["round_counter"]) == 2
        for seat in seats:
            assert seat.page.locator(f"{BOARD} .qd-slot.side-aye, {BOARD} .qd-slot.side-nay").count() == 2
            assert seat.page.locator("#actions").count() == 1  # the generic panel stays as the fallback
            assert not seat.errors, seat.errors

        # Screenshots: desktop, then phone width without a horizontal page scroll.
        page.screenshot(path=str(artifacts / "queens-dilemma-desktop.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        assert no_horizontal_scroll(page), "the Queen's Dilemma view needs a horizontal scroll at 390 px"
        page.screenshot(path=str(artifacts / "queens-dilemma-phone.png"), full_page=True)
    finally:
        for seat in seats:
            seat.close()
