"""Plugin-contributed client views (issue 17): a third-party game installed as its own
distribution ships a view folder that /play loads for its tables (Nim: heaps of stones to
click), while a game without one (Pig) still plays to the end in the generic view."""
from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.api.conftest import server_factory, storage_env
from tests.api.services import ROOT
from tests.web.driver import STATUS, Seat, api, create_in_lobby, join_by_link, step, take_seat_from_lobby

PARLOUR = Path(__file__).resolve().parents[1] / "thirdparty" / "parlour_games"
GAMES = "{ games { id clientView modules { id clientView } } }"


@pytest.fixture(scope="module")
def parlour_server(tmp_path_factory):
    """A real server with the parlour games installed through pip, found by their entry points."""
    target = tmp_path_factory.mktemp("parlour-site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "--target", str(target), str(PARLOUR)], check=True)
    tmp = tmp_path_factory.mktemp("parlour-web")
    with storage_env("embedded", tmp) as env, server_factory(env, tmp) as make:
        yield make(PYTHONPATH=f"{ROOT}:{target}")


def two_seats(browser, server, game: str):
    ada, bob = Seat(browser, server.base), Seat(browser, server.base)
    table_id, links = create_in_lobby(ada, game=game, players=2, seed=3, name="Ada")
    take_seat_from_lobby(ada, table_id, 0)
    join_by_link(bob, table_id, links[1], 1, "Bob")
    ada.page.wait_for_selector(".table-view[data-status='playing']")
    return table_id, [ada, bob]


def test_the_games_query_names_each_view_and_the_app_serves_it(parlour_server):
    games = {g["id"]: g for g in api(parlour_server, GAMES)["games"]}
    assert games["nim"]["clientView"] == "/play/views/game/nim/view.js"
    assert games["pig"]["clientView"] is None  # no view shipped: the generic one
    module = httpx.get(parlour_server.base + games["nim"]["clientView"])
    assert module.status_code == 200 and "javascript" in module.headers["content-type"]
    assert "export function render" in module.text
    assert httpx.get(f"{parlour_server.base}/play/views/game/nim/view.css").status_code == 200
    # only the view's own folder is served: no way out of it, no view for a game without one
    for path in ["/play/views/game/nim/../../../../pyproject.toml", "/play/views/game/nim/%2e%2e/nim.py",
                 "/play/views/game/pig/view.js", "/play/views/game/nope/view.js"]:
        assert httpx.get(parlour_server.base + path).status_code == 404, path


def test_a_third_party_games_own_view_plays_it_by_clicking_its_pieces(browser, parlour_server, artifacts):
    table_id, seats = two_seats(browser, parlour_server, "Nim")
    rng = random.Random(5)
    try:
        for seat in seats:
            seat.page.wait_for_selector("#board .nim-heap")
            assert seat.page.locator("#details").count() == 1  # the generic sections fold below the view
        moves = 0
        while True:
            table = api(parlour_server, STATUS, t=table_id)["table"]
            if table["status"] == "finished":
                break
            (seat,) = [s for s in seats if s.seat in table["activeSeats"]]
            seat.wait_version(table["version"])
            stones = seat.page.locator("#board button.nim-stone:not([disabled])")
            other = seats[1 - seats.index(seat)]
            assert other.page.locator("#board button.nim-stone:not([disabled])").count() == 0  # not its turn
            stones.nth(rng.randrange(stones.count())).click()
            seat.wait_version(table["version"] + 1)
            moves += 1
            if moves == 2:
                seat.page.screenshot(path=str(artifacts / "nim-desktop.png"), full_page=True)
        assert moves >= 2
        for seat in seats:
            seat.wait_version(table["version"])
            lines = seat.page.locator("ol.log > li > .line").all_inner_texts()
            assert len([line for line in lines if " took " in line and "from heap" in line]) == moves, lines
            assert seat.page.locator(".table-view").get_attribute("data-status") == "finished"
            assert not seat.errors, seat.errors
    finally:
        for seat in seats:
            seat.close()


def test_a_game_without_a_view_plays_to_its_end_in_the_generic_view(browser, parlour_server):
    table_id, seats = two_seats(browser, parlour_server, "Pig")
    rng = random.Random(8)
    try:
        for seat in seats:
            assert seat.page.locator("#board").count() == 0 and seat.page.locator("#standing").is_visible()
        for _ in range(400):
            if api(parlour_server, STATUS, t=table_id)["table"]["status"] == "finished":
                break
            step(parlour_server, table_id, seats, rng)
        assert api(parlour_server, STATUS, t=table_id)["table"]["status"] == "finished"
        lines = seats[0].page.locator("ol.log").inner_text()
        assert re.search(r"Seat [12] \((Ada|Bob)\): Rolled [\u2680-\u2685] [1-6]", lines), lines[-400:]  # dice as dice
    finally:
        for seat in seats:
            seat.close()
