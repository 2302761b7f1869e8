"""The Free States (BR-177..BR-184) on real Act I tables (Imperial clusters 1 and 2, 3
players placed: 2.2 holds one Free city and 2.3 two, each with an Imperial ship). Each test
names the checklist IDs it proves; refusals raise a typed error and change nothing."""
from __future__ import annotations

import pytest

from core.errors import BadParameter, IllegalAction
from plugins.arcs.actions import Move
from plugins.arcs.battle import apply_building_hits, check_building_hits
from plugins.arcs.state import Battle, Ships, Trophy
from plugins.blighted_reach import empire, free_states
from plugins.blighted_reach.empire import Side
from plugins.blighted_reach.invariants import problems
from plugins.blighted_reach.state import FREE
from tests.blighted_reach.empire_tables import BOX, CBOX, give_free, set_imperial, set_ships, snapshot, sound, table


def refused(state, error, fn, *args, **kw):
    before = snapshot(state)
    with pytest.raises(error):
        fn(*args, **kw)
    assert snapshot(state) == before


def free_index(state, system, kind="city"):
    return next(i for i, b in enumerate(state.systems[system].buildings) if b.owner == FREE and b.kind == kind)


def test_a_regent_taxes_a_free_city_it_controls_capturing_nobody_BR_177_184():
    """BR-177: the Regent with a ship in the Empire system 2.2 controls it on its turn and
    taxes the Free city there; BR-184: no agent is captured. Without control (no piece,
    or an Outlaw under the Empire) it is refused."""
    state = table(3)
    city = free_index(state, "2.2")
    set_ships(state, 0, "2.2", fresh=1)
    empire.check_tax(state, 0, "2.2", city)
    assert free_states.tax_captive(state, 0, "2.2", city) is None
    refused(state, IllegalAction, empire.check_tax, state, 1, "2.2", city)
    empire.become_outlaw(state, 2)
    set_ships(state, 2, "2.2", fresh=5)
    refused(state, IllegalAction, free_states.check_free_tax, state, 2, "2.2", city)
    refused(state, IllegalAction, empire.check_tax, state, 0, "2.2", city, taxed=[["2.2", city]])
    refused(state, BadParameter, free_states.check_free_tax, state, 0, "2.1", 0)  # seat 0's starport
    sound(state)


def test_outside_the_empire_control_by_ships_taxes_a_free_city_BR_177():
    """BR-177."""
    state = table(3)
    city = give_free(state, "3.1", "city")
    set_ships(state, 1, "3.1", fresh=2)
    set_ships(state, 2, "3.1", fresh=1)
    empire.check_tax(state, 1, "3.1", city)
    refused(state, IllegalAction, empire.check_tax, state, 2, "3.1", city)
    sound(state)


def test_taxing_a_rival_city_captures_its_owner_only_BR_184():
    """BR-184 against the base rule: a Rival's city yields a captive while the Rival has an
    agent; a Free city or one's own never does."""
    state = table(3)
    rival = next(i for i, b in enumerate(state.systems["1.1"].buildings) if b.owner == 0)
    assert free_states.tax_captive(state, 1, "1.1", rival) == 0
    assert free_states.tax_captive(state, 0, "1.1", rival) is None
    state.players[0].agents, spare = 0, state.players[0].agents
    assert free_states.tax_captive(state, 1, "1.1", rival) is None
    state.players[0].agents = spare
    assert free_states.tax_captive(state, 1, "2.3", free_index(state, "2.3")) is None


def test_ships_built_at_a_controlled_free_starport_once_per_turn_BR_177():
    """BR-177: a fresh ship at a Free starport of a controlled system, once per starport
    per turn; a seat without control is refused."""
    state = table(3)
    port = give_free(state, "3.1", "starport")
    set_ships(state, 1, "3.1", fresh=2)
    used: list = []
    assert free_states.build_free_ship(state, 1, "3.1", port, used)
    assert state.systems["3.1"].ships[1] == Ships(fresh=3) and used == [["3.1", port]]
    refused(state, IllegalAction, free_states.build_free_ship, state, 1, "3.1", port, used)
    refused(state, IllegalAction, free_states.build_free_ship, state, 2, "3.1", port, [])
    refused(state, BadParameter, free_states.build_free_ship, state, 1, "3.1", port + 1, [])
    sound(state)


def test_catapult_from_a_controlled_free_starport_BR_177():
    """BR-177: a Free starport starts a Catapult for the seat controlling its system only;
    a Loyal starport always does."""
    state = table(3)
    port = give_free(state, "3.1", "starport")
    set_ships(state, 1, "3.1", fresh=2)
    set_ships(state, 2, "3.1", fresh=1)
    assert free_states.catapult_origin(state, 1, "3.1")
    assert not free_states.catapult_origin(state, 2, "3.1")
    assert free_states.catapult_origin(state, 0, "2.1")  # seat 0's own starport
    move = Move(origin="3.1", fresh=2, damaged=0, path=("3G", "4G"))
    empire.check_catapult_path(state, 1, move)
    refused(state, IllegalAction, empire.check_catapult_path, state, 2,
            Move(origin="3.1", fresh=1, damaged=0, path=("3G", "4G")))
    assert state.systems["3.1"].buildings[port].owner == FREE


def test_repair_free_buildings_in_a_controlled_system_BR_177():
    """BR-177."""
    state = table(3)
    port = give_free(state, "3.3", "starport", damaged=True)
    set_ships(state, 2, "3.3", fresh=1)
    refused(state, IllegalAction, free_states.repair_free_building, state, 1, "3.3", port)
    free_states.repair_free_building(state, 2, "3.3", port)
    assert not state.systems["3.3"].buildings[port].damaged
    refused(state, IllegalAction, free_states.repair_free_building, state, 2, "3.3", port)
    sound(state)


def test_free_actions_lists_what_the_controller_may_do_BR_177():
    """BR-177."""
    state = table(3)
    port = give_free(state, "3.3", "starport", damaged=True)
    set_ships(state, 2, "3.3", fresh=1)
    set_ships(state, 2, "2.2", fresh=1)
    city = free_index(state, "2.2")
    assert free_states.free_actions(state, 2) == [
        {"action": "tax", "system": "2.2", "building": city},
        {"action": "build_ship", "system": "3.3", "building": port},
        {"action": "catapult", "system": "3.3", "building": port},
        {"action": "repair", "system": "3.3", "building": port},
    ]
    assert free_states.free_actions(state, 2, taxed=[["2.2", city]], starports_used=[["3.3", port]]) == [
        {"action": "catapult", "system": "3.3", "building": port},
        {"action": "repair", "system": "3.3", "building": port},
    ]
    assert free_states.free_actions(state, 1) == []


def test_free_buildings_are_harmed_by_anyone_even_where_imperial_ships_are_BR_178():
    """BR-178: Free buildings can be chosen as defender, hit, damaged, destroyed, by a
    Regent as by an Outlaw, Imperial ships there or not."""
    state = table(3)
    set_ships(state, 0, "2.3", fresh=1)
    for harm in empire.HARMS:
        empire.check_harm(state, 0, "free", "2.3", harm=harm)
    empire.become_outlaw(state, 1)
    empire.check_harm(state, 1, "free", "2.3")
    assert {"defender": "free"} in empire.defender_options(state, 0, "2.3")
    assert {"defender": "free"} not in empire.defender_options(state, 0, "2.1")  # no Free building


def test_free_states_defend_with_every_free_building_BR_180_178():
    """BR-180: the defending pieces are the Free buildings there, no ship: HITs go straight
    to them, no intercept; the base hit assignment then damages and destroys them."""
    state = table(3)
    set_ships(state, 0, "2.3", fresh=2)
    attacking, defending = empire.battle_sides(state, 0, "free", "2.3")
    assert defending == Side(who="free", buildings=(0, 1)) and defending.fresh_ships == 0
    assert attacking.imperial.total == 1  # the Regent may bring the Imperial ship along
    assert empire.building_hits_allowed(state, "free", "2.3")
    buildings = state.systems["2.3"].buildings
    check_building_hits(buildings, FREE, 3, {0: 2, 1: 1})
    left, destroyed = apply_building_hits(buildings, {0: 2, 1: 1})
    assert [b.damaged for b in left] == [True] and [b.owner for b in destroyed] == [FREE]


def test_destroying_a_free_city_is_a_trophy_and_provokes_outrage_BR_179_183():
    """BR-179: the destroyer takes the Free city as a Trophy; BR-183: it provokes Outrage of
    the planet's type (2.3: relic): relics held are discarded, an agent covers the slot.
    A Free starport is a Trophy without Outrage."""
    state = table(3)
    state.supply["relic"] -= 1
    state.players[0].resources[5] = "relic"
    agents = state.players[0].agents
    done = free_states.destroy_free_building(BOX, state, 0, "2.3", free_index(state, "2.3"))
    assert done == {"kind": "city", "outrage": ["relic"]}
    assert state.players[0].trophies == [Trophy(owner=FREE, kind="city")]
    assert state.players[0].outrage == ["relic"] and "relic" not in state.players[0].resources
    assert state.players[0].agents == agents - 1
    sound(state)
    port = give_free(state, "3.3", "starport")
    done = free_states.destroy_free_building(BOX, state, 1, "3.3", port)
    assert done == {"kind": "starport", "outrage": []} and state.players[1].outrage == []
    assert state.players[1].trophies == [Trophy(owner=FREE, kind="starport")]
    sound(state)
    refused(state, BadParameter, free_states.destroy_free_building, BOX, state, 0, "2.1", 0)


def test_raiding_the_free_states_gains_one_resource_per_battle_BR_181():
    """BR-181: the keys buy exactly 1 resource of the planet's type, once per battle; too
    few keys, an empty supply, a gate or another battle's defender are refused."""
    state = table(3)
    set_ships(state, 0, "2.3", fresh=2)
    state.battle = Battle(attacker=0, defender=FREE, system="2.3")
    refused(state, IllegalAction, free_states.raid_free_states, BOX, state, 0, "2.3", 0)
    assert free_states.raid_free_states(BOX, state, 0, "2.3", 3) == 3 - free_states.FREE_RAID_KEYS
    assert [w.tokens for w in state.placing if w.seat == 0] == [["relic"]]
    refused(state, IllegalAction, free_states.raid_free_states, BOX, state, 0, "2.3", 2)
    sound(state)
    free_states.clear_free_raid(state)
    state.battle = Battle(attacker=0, defender=1, system="2.3")
    refused(state, IllegalAction, free_states.raid_free_states, BOX, state, 0, "2.3", 2)
    state.battle = None
    refused(state, IllegalAction, free_states.raid_free_states, BOX, state, 0, "2G", 2)
    state.supply["relic"] = 0
    refused(state, IllegalAction, free_states.raid_free_states, BOX, state, 0, "2.3", 2)


def test_a_proxy_stands_in_when_the_free_supply_is_empty_BR_182():
    """BR-182: with every Free city out of the supply (here in Trophies), placing one uses
    a proxy, counted apart; the supply never goes below zero, and a returning Free city
    retires the proxy first."""
    state = table(3)
    for _ in range(state.free_city_supply):
        state.players[1].trophies.append(Trophy(owner=FREE, kind="city"))
    state.free_city_supply = 0
    sound(state)
    assert free_states.place_free_building(BOX, state, "3.2", "city")
    assert state.free_proxies == {"city": 1} and state.free_city_supply == 0
    sound(state)
    refused(state, IllegalAction, free_states.place_free_building, BOX, state, "3.2", "city")  # full
    refused(state, BadParameter, free_states.place_free_building, BOX, state, "3G", "city")
    refused(state, BadParameter, free_states.place_free_building, BOX, state, "3.3", "palace")
    empire.return_campaign_trophy(state, state.players[1].trophies.pop())
    assert state.free_proxies == {} and state.free_city_supply == 0
    sound(state)
    empire.return_campaign_trophy(state, state.players[1].trophies.pop())
    assert state.free_city_supply == 1
    assert not free_states.place_free_building(BOX, state, "3.3", "city")
    sound(state)


def test_invariants_refuse_a_proxy_beside_a_supply_or_a_lost_free_building_BR_182():
    """BR-182."""
    state = table(3)
    state.free_proxies = {"starport": 1}
    state.free_starport_supply -= 1
    assert problems(BOX, CBOX, state) == ["Free starports are not 14"]
    state = table(3)
    state.systems["2.2"].buildings.pop(free_index(state, "2.2"))
    assert problems(BOX, CBOX, state) == ["Free cities are not 28"]


def test_free_city_use_follows_control_on_each_turn_BR_177_122():
    """BR-177 with BR-122: the Regent uses the Free city of the Empire system 2.2 only while
    its ship is there; with the Imperial ship gone too, nobody controls 2.2 and the Free
    city is nobody's to tax."""
    state = table(3)
    set_ships(state, 0, "2.2", fresh=1)
    city = free_index(state, "2.2")
    free_states.check_free_tax(state, 0, "2.2", city)
    set_ships(state, 0, "2.2")
    refused(state, IllegalAction, free_states.check_free_tax, state, 0, "2.2", city)
    set_imperial(state, "2.2")
    refused(state, IllegalAction, free_states.check_free_tax, state, 0, "2.2", city)
