"""Turn clocks in /play (issue 21): a table created in the lobby with a per-decision clock
shows each seat's time, counting down for the seat to act; when it runs out the page says
a bot plays that seat, and its player takes the seat back with one click."""
from __future__ import annotations

import re

from tests.web.driver import STATUS, Seat, api, create_in_lobby, join_by_link, take_seat_from_lobby

CLOCKS = """query($t: String!) { table(id: $t) { version activeSeats clocks { seat remainingMs running away } } }"""


def test_a_clock_runs_out_a_bot_takes_over_and_the_player_returns(browser, web_server, artifacts):
    seats = [Seat(browser, web_server.base, width=390) for _ in range(2)]
    try:
        table_id, links = create_in_lobby(seats[0], game="Arcs", players=2, seed=9, name="Ann",
                                          options={"Clock": "Time per decision", "Clock seconds": "5 seconds"})
        take_seat_from_lobby(seats[0], table_id, 0)
        join_by_link(seats[1], table_id, links[1], 1, "Bob")
        for seat in seats:
            seat.page.wait_for_selector(".table-view[data-status='playing']")
        table = api(web_server, CLOCKS, t=table_id)["table"]
        acting = table["activeSeats"][0]
        page = seats[acting].page
        running = page.locator(f".seats .clock.running[data-seat='{acting}']")
        running.wait_for()
        assert re.fullmatch(r"0:0[0-5]", running.inner_text())
        assert page.locator(f".seats .clock[data-seat='{1 - acting}']").inner_text() == "0:05"
        # Nobody acts: the seat is taken over, and its own page offers it back.
        page.locator(".seats .badge.away").wait_for(timeout=10_000)
        back = page.locator(".seats button.resume")
        back.wait_for()
        assert seats[1 - acting].page.locator(".seats button.resume").count() == 0  # only on its own page
        page.screenshot(path=str(artifacts / "clock-taken-over-390.png"), full_page=True)
        back.click()
        page.wait_for_function(
            "seat => !document.querySelector(`.seats li[data-seat='${seat}'] .badge.away`)", arg=acting)
        clocks = api(web_server, CLOCKS, t=table_id)["table"]["clocks"]
        assert clocks[acting]["away"] is False
        log = page.locator("ol.log").inner_text()
        assert api(web_server, STATUS, t=table_id)["table"]["version"] >= 3  # start, timeout, resume (and bot moves)
        for seat in seats:
            assert not seat.errors, seat.errors
        assert "taken over" in log.lower() and "returned" in log.lower(), log[-600:]
    finally:
        for seat in seats:
            seat.close()
