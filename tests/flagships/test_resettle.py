"""Resettling a Flagship through the engine (BR-305..BR-307): the steps a "C" Fate pushes
(`resettle.resettle_steps`) run on a real campaign table (seed 3, 3 players, seat 0's
Flagship at 1.3 as in `test_engine`), each choice a typed decision answered with `t.act`;
bad answers are refused, typed, with the state unchanged; the invariants hold after."""
from __future__ import annotations

from core.engine import legal_actions
from core.errors import BadParameter, IllegalAction
from core.flow import Ctx, run
from core.state import Action
from plugins.arcs.content import default_box
from plugins.arcs.rounds import round_start
from plugins.flagships import resettle
from plugins.flagships.state import board_of
from tests.blighted_reach.empire_fate_tables import deal
from tests.blighted_reach.empire_tables import set_ships
from tests.blighted_reach.test_empire_flow import refused, settle, sound
from tests.flagships.tables import put
from tests.flagships.test_engine import HOME, SEAT, flagship_table

BOX = default_box()


def start_resettle(t) -> None:
    """A Fate's Resettle at the round's end: its steps, then the next round."""
    deal(t)
    ctx = Ctx(t.state, t.rules)
    ctx.push(round_start)
    ctx.push_all(resettle.resettle_steps(SEAT))
    run(ctx)
    settle(t)  # a city back on the player board may cover a resource slot (ARCS-250)


def prompt(t):
    return next(p for p in t.state.prompts if p.seat == SEAT)


def test_resettle_clears_the_board_places_a_city_and_a_starport_and_tops_up_ships_BR_305_306_307():
    """BR-305, BR-306, BR-307.
    The board holds a city and a starport: both go back to seat 0's supply, the board
    leaves play and a Loyal ship stands at 1.3 in the Flagship's place. The city then goes
    to an empty slot (an answer naming a Free building while slots are empty is refused),
    the starport too; seat 0 has 7 ships on the map and adds 1 more, in a system holding
    its Loyal pieces (a system without them, or two ships, refused)."""
    t = flagship_table()
    put(t.state, SEAT, "hull", "upgrade", "city")
    put(t.state, SEAT, "hull", "armor", "starport")
    s = t.state
    set_ships(s, SEAT, "2.1", fresh=3)
    set_ships(s, SEAT, "3.2", fresh=3)
    cities, ports, ships = s.players[SEAT].cities_on_board.count(True), s.players[SEAT].starports, s.players[SEAT].ships
    start_resettle(t)
    s = t.state
    assert board_of(s, SEAT) is None and s.systems[HOME].ships_of(SEAT).fresh == 1
    assert s.players[SEAT].cities_on_board.count(True) == cities + 1 and s.players[SEAT].starports == ports + 1
    assert s.players[SEAT].ships == ships - 1
    p = prompt(t)
    assert p.decision == "br.resettle_building" and p.args["building"] == "city"
    free = next((name, i) for name, here in sorted(s.systems.items())
                for i, b in enumerate(here.buildings) if b.owner == -1)
    refused(t, SEAT, {"system": free[0], "slot": free[1]}, IllegalAction, type="resettle_building")
    refused(t, SEAT, {"system": "nowhere"}, BadParameter, type="resettle_building")
    listed = [a.params for a in legal_actions(s, SEAT, t.rules)]
    assert listed and all(a["slot"] == -1 for a in listed)
    t.act(SEAT, Action("resettle_building", {"system": "1.1"}))
    assert [(b.kind, b.owner) for b in t.state.systems["1.1"].buildings] == [("city", SEAT)]
    assert prompt(t).args["building"] == "starport"
    t.act(SEAT, Action("resettle_building", {"system": "1.2"}))
    assert [(b.kind, b.owner) for b in t.state.systems["1.2"].buildings] == [("starport", SEAT)]
    p = prompt(t)
    assert p.decision == "br.resettle_ships" and resettle.ships_wanted(t.state, SEAT) == 1
    refused(t, SEAT, {"systems": ["6.1"]}, IllegalAction, type="resettle_ships")
    refused(t, SEAT, {"systems": ["1.1", "1.1"]}, BadParameter, type="resettle_ships")
    t.act(SEAT, Action("resettle_ships", {"systems": ["1.1"]}))
    s = t.state
    assert resettle.ships_on_map(s, SEAT) == 8 and s.systems["1.1"].ships_of(SEAT).fresh == 1
    assert s.players[SEAT].ships == ships - 2
    assert not any(p.decision.startswith("br.resettle") for p in s.prompts)  # the round goes on
    sound(t)


def test_with_no_empty_slot_resettle_replaces_free_buildings_and_adds_no_ship_past_eight_BR_306_307():
    """BR-306, BR-307.
    Every slot on the map filled: the city and the starport replace Free buildings (each
    back to the Free supply) and no empty-slot answer is listed. With 8 or more Loyal ships
    on the map already, no ship is added and nothing more is asked."""
    t = flagship_table()
    s = t.state
    from tests.blighted_reach.empire_tables import give_free

    for name, here in sorted(s.systems.items()):
        planet = BOX.systems.get(name)
        while planet is not None and len(here.buildings) < planet.slots and (s.free_city_supply or s.free_starport_supply):
            give_free(s, name, "city" if s.free_city_supply else "starport")
    if resettle._empty_slots(BOX, s):
        import pytest

        pytest.skip("the Free supply cannot fill every slot on this map")
    set_ships(s, SEAT, "2.1", fresh=5)
    set_ships(s, SEAT, "3.2", fresh=4)
    sound(t)
    free_cities = s.free_city_supply
    start_resettle(t)
    listed = [a.params for a in legal_actions(t.state, SEAT, t.rules)]
    assert listed and all(a["slot"] >= 0 for a in listed)
    target = next(a for a in listed if t.state.systems[a["system"]].buildings[a["slot"]].kind == "city")
    t.act(SEAT, Action("resettle_building", target))
    assert t.state.systems[target["system"]].buildings[target["slot"]].owner == SEAT
    assert t.state.free_city_supply == free_cities + 1
    t.act(SEAT, legal_actions(t.state, SEAT, t.rules)[0])
    assert resettle.ships_on_map(t.state, SEAT) >= 8
    assert not any(p.decision.startswith("br.resettle") for p in t.state.prompts)
    sound(t)
