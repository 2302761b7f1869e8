"""The generic client's "Take back my last action" button (issue 21's undo in /play): shown
only to the seat whose last action the server says may be taken back (never to the other
seat), and a click restores the table as it was on every page, one step back only."""
from __future__ import annotations

import random

from tests.web.driver import STATUS, Seat, api, create_in_lobby, join_by_link, step, sync, take_seat_from_lobby

UNDO_STATE = """query($t: String!) { table(id: $t) { version canUndo stateJson } }"""


def test_take_back_button(browser, web_server):
    seats = [Seat(browser, web_server.base) for _ in range(2)]
    try:
        table_id, links = create_in_lobby(seats[0], game="Arcs", players=2, seed=8, name="Ann")
        take_seat_from_lobby(seats[0], table_id, 0)
        join_by_link(seats[1], table_id, links[1], 1, "Bob")
        for seat in seats:
            seat.page.wait_for_selector(".table-view[data-status='playing']")
        rng = random.Random(8)
        for _ in range(30):
            table = sync(web_server, table_id, seats)
            before = {s.seat: api(web_server, UNDO_STATE, s.token(), t=table_id)["table"] for s in seats}
            done = step(web_server, table_id, seats, rng)
            actor = seats[done["seat"]]
            other = seats[1 - done["seat"]]
            sync(web_server, table_id, seats)
            assert other.page.locator("#actions button.undo").count() == 0  # never for the other seat
            if api(web_server, UNDO_STATE, actor.token(), t=table_id)["table"]["canUndo"]:
                break
        else:
            raise AssertionError("no action in 30 could be taken back")
        button = actor.page.locator("#actions button.undo")
        button.wait_for()
        assert button.inner_text() == "Take back my last action"
        button.click()
        version = done["version"] + 1
        for seat in seats:
            seat.wait_version(version)
            now = api(web_server, UNDO_STATE, seat.token(), t=table_id)["table"]
            was = dict(before[seat.seat]["stateJson"], version=version)
            assert now["stateJson"] == was
        assert actor.page.locator("#actions button.undo").count() == 0  # one step back only
        assert api(web_server, STATUS, t=table_id)["table"]["version"] == version
        for seat in seats:
            assert not seat.errors, seat.errors
    finally:
        for seat in seats:
            seat.close()
