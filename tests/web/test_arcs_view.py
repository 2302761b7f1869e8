"""The Arcs table view (plugins/arcs/client) in headless Chromium: a 3-player table created in
the lobby and joined by link, played for two chapters by clicking inside #board only (hand
cards to lead and follow, the ambitions to declare, systems on the map to move ships, battle,
assign hits and build, the Court's cards to influence and secure), never the generic #actions
panel; a page reloaded mid-round carries on; each page shows only its own seat's hand;
screenshots at desktop and phone width, with no horizontal scroll at 390 px."""
from __future__ import annotations

import json
import re

from tests.web.arcs_steer import FEATURES, choose
from tests.web.driver import (
    Seat, api, check_private_information, create_in_lobby, join_by_link, no_horizontal_scroll, sync,
    take_seat_from_lobby,
)

BOARD = "#board .arcs-view"
SEED = 57  # a deal whose steered play reaches every control the test needs within two chapters
TABLE = """query($t: String!) { table(id: $t) { version status activeSeats legalActions { type params } stateJson } }"""


def table_of(server, seat: Seat | None, table_id: str) -> dict:
    return api(server, TABLE, seat.token() if seat else None, t=table_id)["table"]


def focus_key(action: dict) -> str:
    """The view's data-focus of the button that sends exactly this action."""
    return f"arcs:{action['type']}:{json.dumps(action['params'], separators=(',', ':'))}"


def board(seat: Seat, selector: str):
    found = seat.page.locator(f"{BOARD} {selector}")
    assert found.count(), f"seat {seat.seat}: no {selector!r} in the view"
    return found.first


def select_system(seat: Seat, system: str) -> None:
    """Click a system on the map unless it is selected already (a second click unselects it)."""
    node = board(seat, f"g.arcs-system[data-system='{system}']")
    if node.get_attribute("aria-pressed") != "true":
        node.click()
    board(seat, f".arcs-system-panel[data-system='{system}']").wait_for()


def choose_value(seat: Seat, control: str, value) -> None:
    found = seat.page.locator(f"{BOARD} {control}")
    if found.count():
        found.select_option(str(value))


def click_action(seat: Seat, action: dict, state: dict) -> str:
    """Send `action` by the view's own controls, the way a player would; returns what was used."""
    t, p = action["type"], action["params"]
    if t == "lead":
        board(seat, f".arcs-hand-card[data-card='{p['card']}'] button[data-action=lead]").click()
        return "hand: lead"
    if t == "pass":
        board(seat, ".arcs-hand button[data-action=pass]").click()
        return "hand: pass"
    if t == "play":
        board(seat, f".arcs-hand-card[data-card='{p['card']}'] button[data-action=play][data-kind={p['kind']}]").click()
        return f"hand: {p['kind']}"
    if t == "seize":
        where = f".arcs-hand-card[data-card='{p['card']}']" if p["card"] else ".arcs-hand"
        board(seat, f"{where} button[data-action=seize][data-card='{p['card']}']").click()
        return "hand: seize"
    if t == "declare":
        if p["ambition"]:
            board(seat, f".arcs-ambition[data-ambition={p['ambition']}] button[data-action=declare]").click()
        else:
            board(seat, ".arcs-ambitions button[data-action=declare][data-ambition='']").click()
        return "ambitions: declare"
    if t in ("assign_hits", "assign_building_hits"):
        select_system(seat, state["battle"]["system"])  # the battle's system on the map
        pending = next(x for x in state["hits_to_assign"] if x["chooser"] == seat.seat)
        heading = board(seat, ".arcs-hits h4").inner_text()
        assert f"Assign {pending['hits']} hit" in heading and f"Seat {pending['owner'] + 1}" in heading, heading
        board(seat, f".arcs-hits button[data-focus='{focus_key(action)}']").click()
        return "map: hits"
    if t != "act":
        board(seat, f".arcs-decisions button[data-focus='{focus_key(action)}']").click()
        return f"decisions: {t}"
    kind = p["act"]
    if kind in ("influence", "secure"):
        board(seat, f".arcs-court-card[data-card='{p['card']}'] button[data-act={kind}]").click()
        return f"court: {kind}"
    if kind == "move":
        select_system(seat, p["origin"])
        choose_value(seat, "#arcs-move-fresh", p["fresh"])
        choose_value(seat, "#arcs-move-damaged", p["damaged"])
        board(seat, "[data-control=move-start]").click()
        dest = p["path"][-1]
        board(seat, f"g.arcs-system.dest[data-system='{dest}']").click()  # the marked destination
        paths = seat.page.locator(f"{BOARD} [data-part=move-here] button[data-focus='{focus_key(action)}']")
        if paths.count():  # more than one way there: the path is chosen in the system's panel
            paths.first.click()
        return "map: move"
    if kind == "battle":
        select_system(seat, p["system"])
        choose_value(seat, "#arcs-defender", p["defender"])
        for die in ("assault", "skirmish", "raid"):
            choose_value(seat, f"#arcs-dice-{die}", p[die])
        board(seat, f"[data-part=battle] button[data-focus='{focus_key(action)}']").click()
        return "map: battle"
    if kind in ("tax", "build", "repair"):
        select_system(seat, p["system"])
        board(seat, f".arcs-system-panel button[data-focus='{focus_key(action)}']").click()
        return f"map: {kind}"
    board(seat, f".arcs-decisions button[data-focus='{focus_key(action)}']").click()
    return f"decisions: {kind}"


MAP_ACTS = ("tax", "build", "repair", "battle", "move")


def assert_every_action_has_a_control(seat: Seat, legal: list[dict]) -> None:
    """Each legal action's type has a control in the view; a turn's map actions (paid with a
    pip) are marked on their systems, its Court actions are the cards' buttons."""
    page = seat.page
    types = set(page.locator(f"{BOARD} [data-action]").evaluate_all("els => els.map(e => e.dataset.action)"))
    assert {a["type"] for a in legal} <= types, ({a["type"] for a in legal} - types)
    marked = set(page.locator(f"{BOARD} g.arcs-system.can-act").evaluate_all("els => els.map(e => e.dataset.system)"))
    for a in legal:
        p = a["params"]
        if a["type"] == "act" and p["act"] in MAP_ACTS and p["pay"] == -1:
            assert (p.get("system") or p.get("origin")) in marked, a
        if a["type"] == "act" and p["act"] in ("influence", "secure") and p["pay"] == -1:
            assert page.locator(f"{BOARD} .arcs-court-card[data-card='{p['card']}'] button[data-act={p['act']}]").count(), a


def acting(server, table_id, seats) -> tuple[Seat, dict]:
    status = api(server, "query($t: String!) { table(id: $t) { version activeSeats } }", t=table_id)["table"]
    seat = next(s for s in seats if s.seat in status["activeSeats"])
    seat.wait_version(status["version"])
    return seat, table_of(server, seat, table_id)


def assert_hands_private(server, table_id, seats) -> None:
    """Each page draws its own hand as cards and no other seat's cards, anywhere."""
    sync(server, table_id, seats)
    check_private_information(server, table_id, seats)
    hands = {s.seat: table_of(server, s, table_id)["stateJson"]["hand"] for s in seats}
    for seat in seats:
        drawn = seat.page.locator(f"{BOARD} .arcs-hand-card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert drawn == hands[seat.seat], (seat.seat, drawn, hands[seat.seat])
        text = seat.text()
        for other in seats:
            if other is not seat:
                for card in hands[other.seat]:
                    assert not re.search(rf"(?<![\w-]){card}(?![\w-])", text), f"seat {seat.seat}'s page shows {card}"


def test_arcs_view_plays_two_chapters_by_its_own_controls(browser, web_server, artifacts):
    seats = [Seat(browser, web_server.base, width=1280) for _ in range(3)]
    try:
        table_id, links = create_in_lobby(seats[0], game="Arcs", players=3, seed=SEED, name="Ada")
        take_seat_from_lobby(seats[0], table_id, 0)
        for number in (1, 2):
            join_by_link(seats[number], table_id, links[number], number, f"Captain {number + 1}")
        for seat in seats:
            seat.page.wait_for_selector(f".table-view.has-view[data-status='playing'] {BOARD}")
        page = seats[0].page
        first = table_of(web_server, seats[0], table_id)["stateJson"]
        # The whole map: 6 gates and 18 planets, the out-of-play clusters greyed.
        assert page.locator(f"{BOARD} g.arcs-system").count() == 24
        assert page.locator(f"{BOARD} g.arcs-system.out").count() == 4 * len(first["out_of_play"])
        assert page.locator(f"{BOARD} .arcs-court-card").count() == len([c for c in first["court_row"] if c])
        # A system is a keyboard control: Enter selects it (its panel opens), Enter again unselects it.
        home = next(s for s, here in first["systems"].items() if here["ships"][0][0])
        node = page.locator(f"{BOARD} g.arcs-system[data-system='{home}']")
        node.focus()
        page.keyboard.press("Enter")
        page.locator(f"{BOARD} .arcs-system-panel[data-system='{home}']").wait_for()
        assert page.locator(f"{BOARD} g.arcs-system[data-system='{home}']").get_attribute("aria-pressed") == "true"
        page.keyboard.press("Enter")  # the focus stayed on the redrawn system
        assert page.locator(f"{BOARD} .arcs-system-panel[data-system='{home}']").count() == 0
        assert_hands_private(web_server, table_id, seats)

        needs, used, reloaded = set(FEATURES), [], False
        for _ in range(120):
            seat, table = acting(web_server, table_id, seats)
            state = table["stateJson"]
            if state["chapter"] >= 3 or table["status"] != "playing":
                break
            if not reloaded and len(state["plays"]) == 2:  # mid-round: this page starts over from the server
                seat.page.reload()
                seat.wait_seated(seat.seat)
                seat.wait_version(table["version"])
                seat.page.wait_for_selector(f"{BOARD} .arcs-play")
                assert seat.page.locator(f"{BOARD} .arcs-play").count() == 2
                reloaded = True
            assert_every_action_has_a_control(seat, table["legalActions"])
            action, feature = choose(state, table["legalActions"], seat.seat, needs)
            used.append(click_action(seat, action, state))
            seat.wait_version(table["version"] + 1)
            assert not seat.errors, seat.errors
            if feature:
                needs.discard(feature)
                if feature == "counts":
                    needs.discard("move")
            if feature == "declare":
                after = table_of(web_server, seat, table_id)["stateJson"]
                assert after["ambition_declared"] == action["params"]["ambition"]
                for other in seats:  # every page shows the marker in that ambition's box
                    other.wait_version(table["version"] + 1)
                    box = other.page.locator(f"{BOARD} .arcs-ambition[data-ambition={action['params']['ambition']}]")
                    assert box.locator(".arcs-marker").count() == len(after["ambition_boxes"][action["params"]["ambition"]])
        table = sync(web_server, table_id, seats)
        state = table_of(web_server, seats[0], table_id)["stateJson"]
        assert state["chapter"] >= 3 or table["status"] == "finished", "two chapters were not played"
        assert not needs, f"not exercised: {sorted(needs)}"
        assert reloaded
        for control in ("hand: lead", "hand: pass", "ambitions: declare", "map: move", "map: battle", "map: hits",
                        "map: build", "court: influence", "court: secure"):
            assert control in used, (control, used)
        assert not any(u.startswith("decisions:") and "done" not in u for u in used), used
        assert_hands_private(web_server, table_id, seats)
        spectator = Seat(browser, web_server.base, width=1280)  # no seat: the table, no hand, no controls
        try:
            spectator.table_id = table_id
            spectator.page.goto(f"{web_server.base}/play/#/table/{table_id}")
            spectator.page.wait_for_selector(f".table-view[data-viewer=''] {BOARD}")
            assert spectator.page.locator(f"{BOARD} .arcs-hand, {BOARD} button[data-action]").count() == 0
            assert spectator.page.locator(f"{BOARD} g.arcs-system").count() == 24
            check_private_information(web_server, table_id, [*seats, spectator])
            assert not spectator.errors, spectator.errors
        finally:
            spectator.close()

        # The log says it in words, with names (no card ids), dice drawn as dice.
        log = seats[1].page.locator("ol.log").inner_text()
        assert re.search(r"Seat \d \([^)]*\) declares (Tycoon|Tyrant|Warlord|Keeper|Empath)", log), log
        assert " moves " in log and " attacks " in log and " rolls" in log and " secures " in log and " builds a " in log
        assert "— Chapter 2 begins —" in log and "Chapter 1 is scored" in log
        assert seats[1].page.locator("ol.log .arcs-die").count() > 0
        assert not re.search(r"\b(ADM|AGG|CON|MOB)\d\b|\bBC\d\d\b", log), "a card id in the log instead of its name"
        for seat in seats:
            assert seat.page.locator("#actions").count() == 1  # the generic panel stays as the fallback
            assert not seat.errors, seat.errors

        # Screenshots: desktop, then phone width without a horizontal page scroll.
        page.screenshot(path=str(artifacts / "arcs-desktop.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        assert no_horizontal_scroll(page), "the Arcs view needs a horizontal scroll at 390 px"
        page.screenshot(path=str(artifacts / "arcs-phone.png"), full_page=True)
    finally:
        for seat in seats:
            seat.close()
