"""The Flagship rules as pure functions on arranged Act I tables (issue 19, first slice):
getting a Flagship, building and repairing Upgrades and Armor, ships built at the Flagship,
battle dice, intercepts, raid dice, hits when attacking, defending and in Crises, and the
Intermission. The rulebook's worked examples BR-276, BR-285 and BR-290 are played here as
pure steps; a bad answer is a typed error that leaves the state as it was."""
from __future__ import annotations

import msgspec
import pytest

from core.errors import ActionRejected, BadParameter, CannotAfford, IllegalAction, UnknownSeat
from plugins.arcs.battle import ShipHits, apply_ship_hits, check_ship_hits, intercept_hits
from plugins.arcs.battle import raid_dice_allowed as base_raid_dice_allowed
from plugins.arcs.state import Ships, Trophy
from plugins.blighted_reach.board import EMPIRE
from plugins.blighted_reach.state import FREE
from plugins.flagships import rules
from plugins.flagships.state import BoardPiece, Slot, board_of
from tests.blighted_reach.crisis_tables import set_imperial, snapshot
from tests.flagships.tables import (
    BOX, DANE, FUEL, GATE, LOTUS, MATERIAL, MIKAH, PSIONIC, RELIC, WEAPON, assert_sound, clear,
    flagship_table, move_flagship, put, set_ships,
)


def board(state, seat=LOTUS):
    return board_of(state, seat)


def refused(state, error, call, *args, **kw):
    """The call raises `error` and the state is exactly as before."""
    before = snapshot(state)
    with pytest.raises(error):
        call(*args, **kw)
    assert snapshot(state) == before


# -- getting a Flagship -----------------------------------------------------------------


def test_BR_004_265_267_getting_a_flagship_frees_every_loyal_building():
    """BR-004: the seat gets its Flagship piece on the map and a board; BR-265: each of its
    Loyal buildings on the map becomes a Free building of the same type in the same slot, the
    Loyal pieces going home; BR-267: the Flagship counts as a fresh Loyal ship there."""
    from tests.blighted_reach.crisis_tables import played_table

    state = played_table()
    clear(state, MATERIAL)
    mine = {(s, i, b.kind) for s, here in state.systems.items() for i, b in enumerate(here.buildings) if b.owner == LOTUS}
    assert mine == {("1.1", 0, "city"), ("2.1", 0, "starport")}
    free_cities, free_ports = state.free_city_supply, state.free_starport_supply
    freed = rules.grant(BOX, state, LOTUS, MATERIAL)
    assert sorted(freed) == [("1.1", 0), ("2.1", 0)]
    assert state.systems["1.1"].buildings[0].owner == FREE and state.systems["1.1"].buildings[0].kind == "city"
    assert state.systems["2.1"].buildings[0].owner == FREE and state.systems["2.1"].buildings[0].kind == "starport"
    assert (state.free_city_supply, state.free_starport_supply) == (free_cities - 1, free_ports - 1)
    assert state.players[LOTUS].cities_on_board == [True] * 5 and state.players[LOTUS].starports == 5
    assert board(state).system == MATERIAL and all(s == Slot() for s in board(state).slots)
    assert rules.fresh_ships(state, LOTUS, MATERIAL) == 1 and rules.loyal_controller(state, MATERIAL) == LOTUS
    assert_sound(state)
    refused(state, IllegalAction, rules.grant, BOX, state, LOTUS, FUEL)  # one Flagship a seat


def test_a_campaign_without_flagships_keeps_no_trace_of_them():
    """No Flagship: the module's part of the state does not exist, and goes when the last
    Flagship goes."""
    from plugins.flagships.state import store
    from tests.blighted_reach.crisis_tables import played_table

    state = played_table()
    assert "flagships" not in state.module_state
    state = flagship_table()
    assert list(state.module_state["flagships"]) == [str(LOTUS)]
    store(state, LOTUS, None)
    assert "flagships" not in state.module_state


# -- Upgrades and Armor -------------------------------------------------------------------


def test_BR_276_273_274_275_277_ship_crane_built_damaged_repaired_then_armored_at_fuel():
    """The rulebook's example (BR-276): at a Material planet Lotus builds a starport as the
    Ship Crane Upgrade (BR-273), damaged because Dane controls the system (BR-275); its Armor
    is refused while the Upgrade is damaged (BR-274); a repair stands it up (BR-277); Armor
    needs a Fuel planet (BR-273), where it is built fresh."""
    state = flagship_table()
    set_ships(state, DANE, MATERIAL, 2)  # 2 fresh ships to Lotus's Flagship: Dane controls
    assert rules.rival_controls(state, LOTUS, MATERIAL)
    piece = rules.build_piece(BOX, state, LOTUS, "ship_crane", "upgrade", "starport")
    assert piece == BoardPiece("starport", damaged=True) and state.players[LOTUS].starports == 4
    assert_sound(state)
    move_flagship(state, LOTUS, FUEL)
    refused(state, IllegalAction, rules.build_piece, BOX, state, LOTUS, "ship_crane", "armor", "city")
    rules.repair_piece(state, LOTUS, "ship_crane", "upgrade")
    assert board(state).slots[3].upgrade == BoardPiece("starport")
    move_flagship(state, LOTUS, MATERIAL)
    refused(state, IllegalAction, rules.build_piece, BOX, state, LOTUS, "ship_crane", "armor", "city")
    move_flagship(state, LOTUS, FUEL)
    assert {"slot": 3, "layer": "armor", "kind": "city"} in rules.build_options(BOX, state, LOTUS)
    rules.build_piece(BOX, state, LOTUS, "ship_crane", "armor", "city")
    assert board(state).slots[3].armor == BoardPiece("city")
    assert state.players[LOTUS].cities_on_board == [False, True, True, True, True]  # leftmost city left
    assert_sound(state)


def test_BR_273_304_hull_at_any_planet_never_in_a_gate_and_armor_needs_an_upgrade():
    """BR-304: the Hull is built at any planet; a gate is no planet. BR-274: no Armor over an
    empty slot."""
    state = flagship_table(system=WEAPON)
    refused(state, IllegalAction, rules.build_piece, BOX, state, LOTUS, "hull", "armor", "starport")
    rules.build_piece(BOX, state, LOTUS, "hull", "upgrade", "starport")
    rules.build_piece(BOX, state, LOTUS, "hull", "armor", "starport")
    assert board(state).slots[5] == Slot(BoardPiece("starport"), BoardPiece("starport"))
    clear(state, GATE)
    move_flagship(state, LOTUS, GATE)
    refused(state, IllegalAction, rules.build_piece, BOX, state, LOTUS, "defense_array", "upgrade", "city")
    assert rules.build_options(BOX, state, LOTUS) == []
    assert_sound(state)


def test_bad_flagship_input_is_a_typed_error_that_changes_nothing():
    """An Upgrade the seat cannot pay (no starport left), a slot or layer that does not
    exist, a seat without a Flagship, repairing a fresh piece: refused, state unchanged."""
    state = flagship_table()
    state.players[LOTUS].starports = 0
    state.players[MIKAH].starports += 5  # arranged: the starports are elsewhere, counts kept
    refused(state, CannotAfford, rules.build_piece, BOX, state, LOTUS, "ship_crane", "upgrade", "starport")
    state.players[LOTUS].starports, state.players[MIKAH].starports = 5, state.players[MIKAH].starports - 5
    refused(state, BadParameter, rules.build_piece, BOX, state, LOTUS, "warp_core", "upgrade", "city")
    refused(state, BadParameter, rules.build_piece, BOX, state, LOTUS, 6, "upgrade", "city")
    refused(state, BadParameter, rules.build_piece, BOX, state, LOTUS, 3, "keel", "city")
    refused(state, BadParameter, rules.build_piece, BOX, state, LOTUS, 3, "upgrade", "ship")
    refused(state, IllegalAction, rules.build_piece, BOX, state, DANE, 3, "upgrade", "city")
    refused(state, UnknownSeat, rules.build_piece, BOX, state, 7, 3, "upgrade", "city")
    rules.build_piece(BOX, state, LOTUS, "ship_crane", "upgrade", "city")
    refused(state, IllegalAction, rules.build_piece, BOX, state, LOTUS, "ship_crane", "upgrade", "city")  # taken
    refused(state, IllegalAction, rules.repair_piece, state, LOTUS, "ship_crane", "upgrade")  # fresh
    refused(state, IllegalAction, rules.repair_piece, state, LOTUS, "hull", "upgrade")  # empty
    assert_sound(state)


def test_BR_275_an_empire_system_builds_damaged_for_an_outlaw_only():
    """BR-275 with the Empire: a fresh Imperial ship controls; the Presence Law makes the
    system a Regent's own (its Flagship is a Loyal piece there), not an Outlaw's."""
    state = flagship_table()
    set_imperial(state, MATERIAL, 1)
    assert rules.controller(state, MATERIAL) == EMPIRE
    assert rules.build_piece(BOX, state, LOTUS, "ship_crane", "upgrade", "city").damaged is False
    state.titles[LOTUS], state.first_regent = "outlaw", DANE  # the tile passes to a Regent (BR-115)
    move_flagship(state, LOTUS, MATERIAL)
    assert rules.build_piece(BOX, state, LOTUS, "hull", "upgrade", "city").damaged is True
    assert_sound(state)


# -- ships built at the Flagship -------------------------------------------------------------


def test_BR_269_298_280_one_ship_a_turn_two_with_a_ship_crane_even_damaged():
    """BR-269: 1 ship per turn at the Flagship, whatever starports its board has; BR-298: 2
    with a Ship Crane, each its own build; BR-280: a damaged Ship Crane still counts."""
    state = flagship_table()
    put(state, LOTUS, "hull", "upgrade", "starport")
    put(state, LOTUS, "hull", "armor", "starport")
    used: list = []
    assert rules.build_flagship_ship(state, LOTUS, used)
    assert state.systems[MATERIAL].ships[LOTUS] == Ships(fresh=1)
    refused(state, IllegalAction, rules.build_flagship_ship, state, LOTUS, used)
    put(state, LOTUS, "ship_crane", "upgrade", "city", damaged=True)
    assert rules.ship_limit(state, LOTUS) == 2
    assert rules.build_flagship_ship(state, LOTUS, used)
    refused(state, IllegalAction, rules.build_flagship_ship, state, LOTUS, used)
    assert state.systems[MATERIAL].ships[LOTUS] == Ships(fresh=2) and rules.ships_built(used, LOTUS) == 2
    assert rules.build_flagship_ship(state, LOTUS, []) is True  # a new turn: the limit again
    assert_sound(state)


def test_BR_270_free_starports_still_build_beside_the_flagship():
    """BR-270: the Flagship's ship does not use up the Free starports the seat controls."""
    from plugins.blighted_reach.free_states import build_free_ship

    state = flagship_table()
    port = "2.1"  # Lotus's starport there became Free when it got its Flagship
    set_imperial(state, port, 0)
    used: list = []
    rules.build_flagship_ship(state, LOTUS, used)
    assert build_free_ship(state, LOTUS, port, 0, used)
    assert state.systems[port].ships[LOTUS] == Ships(fresh=4)
    assert_sound(state)


# -- battle -------------------------------------------------------------------------------------


def test_BR_283_285_two_fresh_starports_two_dice_self_hit_on_the_ship_crane():
    """The rulebook's example (BR-285): a Flagship with 2 fresh starports collects 2 dice
    beside the other attacking ships' (BR-283), and Lotus puts a self-hit on the Ship Crane
    although its other attacking ships could take it (BR-284)."""
    state = flagship_table()
    assert rules.attack_dice(state, LOTUS) == 0  # no fresh starport: no dice (BR-283)
    put(state, LOTUS, "ship_crane", "upgrade", "starport")
    put(state, LOTUS, "hull", "upgrade", "starport")
    put(state, LOTUS, "defense_array", "upgrade", "starport", damaged=True)  # a damaged one adds none
    set_ships(state, LOTUS, MATERIAL, 2)
    assert rules.attack_dice(state, LOTUS) == 2
    ships = state.systems[MATERIAL].ships[LOTUS]
    result = rules.attacking_board_hits(BOX, state, LOTUS, DANE, ships, 1, 0, ["ship_crane"])
    assert result == {"hit": [[3, "upgrade"]], "destroyed": []}
    assert board(state).slots[3].upgrade == BoardPiece("starport", damaged=True)
    assert state.systems[MATERIAL].ships[LOTUS] == Ships(fresh=2)
    assert rules.attack_dice(state, LOTUS) == 1
    assert_sound(state)


def test_BR_281_282_284_attacking_hits_armor_first_and_must_land_on_the_board():
    """BR-282/BR-281: a pick on a slot hits its Armor while it stands, then the Upgrade;
    BR-284: once no other attacking ship can take a hit it must go to the board; a hit on an
    empty slot is refused, nothing changed. The destroyed piece is Dane's Trophy."""
    state = flagship_table()
    put(state, LOTUS, "hull", "upgrade", "city")
    put(state, LOTUS, "hull", "armor", "starport")
    none = Ships()
    refused(state, BadParameter, rules.attacking_board_hits, BOX, state, LOTUS, DANE, none, 2, 0, [])
    refused(state, BadParameter, rules.attacking_board_hits, BOX, state, LOTUS, DANE, none, 1, 0, ["tractor_beam"])
    refused(state, BadParameter, rules.attacking_board_hits, BOX, state, LOTUS, DANE, none, 1, 1, [])
    result = rules.attacking_board_hits(BOX, state, LOTUS, DANE, none, 3, 0, ["hull", "hull", "hull"])
    assert result == {"hit": [[5, "armor"], [5, "armor"], [5, "upgrade"]], "destroyed": ["starport"]}
    assert board(state).slots[5] == Slot(BoardPiece("city", damaged=True))
    assert state.players[DANE].trophies[-1] == Trophy(owner=LOTUS, kind="starport")
    assert_sound(state)


def test_BR_286_303_raid_dice_limit_and_tractor_beam():
    """BR-286: a Rival battling a Flagship owner collects raid dice only with defending
    buildings or the Flagship defending (not the base "no buildings anywhere" case);
    BR-303: a defending Flagship with a Tractor Beam (even damaged) allows none."""
    state = flagship_table()
    assert base_raid_dice_allowed(state.systems, FUEL, LOTUS)  # the base rule would allow it
    assert rules.raid_dice_allowed(state, LOTUS, FUEL) is False
    assert rules.raid_dice_allowed(state, LOTUS, MATERIAL) is True
    assert rules.raid_dice_allowed(state, DANE, FUEL) is None  # no Flagship: the base rule
    put(state, LOTUS, "tractor_beam", "upgrade", "city", damaged=True)
    assert rules.raid_dice_allowed(state, LOTUS, MATERIAL) is False
    assert_sound(state)


def test_BR_271_287_299_intercepts_only_with_a_defense_array():
    """BR-271/BR-287: a defending Flagship deals no intercept hits, its other fresh ships do;
    BR-299: with a Defense Array, one per fresh starport on the board."""
    state = flagship_table()
    put(state, LOTUS, "hull", "upgrade", "starport")
    set_ships(state, LOTUS, MATERIAL, 1)
    here = state.systems[MATERIAL]
    assert intercept_hits(here, LOTUS, 1) + rules.intercept_hits(state, LOTUS, 1) == 1
    put(state, LOTUS, "defense_array", "upgrade", "starport")
    assert rules.intercept_hits(state, LOTUS, 1) == 2
    assert rules.intercept_hits(state, LOTUS, 0) == 0  # no intercept rolled
    assert_sound(state)


def test_BR_290_287_289_288_defending_fresh_ship_then_hull_armor_destroyed():
    """The rulebook's example (BR-290): Lotus defends with a fresh ship and a Flagship with
    no Defense Array; Dane takes 1 intercept hit (BR-287); two hits destroy the fresh ship,
    the third lands on the board as the Flagship is the only defending ship left (BR-289), on
    the Hull Armor, rightmost of the top row; the building hit (BR-288) destroys it."""
    state = flagship_table()
    for slot in ("ship_crane", "hull"):
        put(state, LOTUS, slot, "upgrade", "city")
    put(state, LOTUS, "hull", "armor", "starport")
    set_ships(state, LOTUS, MATERIAL, 1)
    set_ships(state, DANE, MATERIAL, 3)
    here = state.systems[MATERIAL]
    assert intercept_hits(here, LOTUS, 1) + rules.intercept_hits(state, LOTUS, 1) == 1
    split = ShipHits(destroy_fresh=1)
    left = check_ship_hits(here.ships[LOTUS], 3, split)
    here.ships[LOTUS] = apply_ship_hits(here.ships[LOTUS], split)
    state.players[DANE].trophies.append(Trophy(owner=LOTUS, kind="ship"))
    assert left == 1 and here.ships[LOTUS].total == 0
    assert rules.defending_hits(BOX, state, LOTUS, DANE, left) == {"hit": [[5, "armor"]], "destroyed": [], "lost": 0}
    assert rules.defending_hits(BOX, state, LOTUS, DANE, 1) == {"hit": [[5, "armor"]], "destroyed": ["starport"], "lost": 0}
    assert board(state).slots[5] == Slot(BoardPiece("city")) and board(state).slots[3] == Slot(BoardPiece("city"))
    assert state.players[DANE].trophies[-1] == Trophy(owner=LOTUS, kind="starport")
    assert_sound(state)


def test_BR_288_fixed_order_top_row_right_to_left_then_bottom_row():
    """BR-288: defending, every Armor (right to left) before any Upgrade (right to left);
    hits beyond the board are lost, the Flagship stays (BR-267)."""
    state = flagship_table()
    put(state, LOTUS, "slipstream_drive", "upgrade", "city")
    put(state, LOTUS, "slipstream_drive", "armor", "starport", damaged=True)
    put(state, LOTUS, "ship_crane", "upgrade", "starport", damaged=True)
    put(state, LOTUS, "control_array", "upgrade", "city")
    result = rules.defending_hits(BOX, state, LOTUS, DANE, 7)
    assert result["hit"] == [[0, "armor"], [4, "upgrade"], [4, "upgrade"], [3, "upgrade"], [0, "upgrade"], [0, "upgrade"]]
    assert result["lost"] == 1 and sorted(result["destroyed"]) == ["city", "city", "starport", "starport"]
    assert list(board(state).pieces()) == [] and board(state).system == MATERIAL
    assert_sound(state)


# -- Crises, cities and the Intermission -----------------------------------------------------------


def test_BR_291_292_crisis_hits_only_without_other_fresh_ships_rightmost_armor_first():
    """BR-291: the Flagship takes Crisis hits only when no other fresh Loyal ship of its
    owner is in the system; BR-292: the rightmost Armor, then the rightmost Upgrade.
    Destroyed pieces go home, not to anyone's Trophies."""
    state = flagship_table()
    put(state, LOTUS, "slipstream_drive", "upgrade", "city")
    put(state, LOTUS, "slipstream_drive", "armor", "city")
    put(state, LOTUS, "tractor_beam", "upgrade", "starport")
    put(state, LOTUS, "tractor_beam", "armor", "starport")
    set_ships(state, LOTUS, MATERIAL, 1)
    assert not rules.crisis_hits_flagship(state, LOTUS, MATERIAL)
    refused(state, IllegalAction, rules.crisis_hits, BOX, state, LOTUS, MATERIAL, 2)
    set_ships(state, LOTUS, MATERIAL, 0, 1)  # a damaged ship does not shield it
    result = rules.crisis_hits(BOX, state, LOTUS, MATERIAL, 3)
    assert result["hit"] == [[2, "armor"], [2, "armor"], [0, "armor"]] and result["destroyed"] == ["starport"]
    assert state.players[LOTUS].starports == 5 - 2 + 1
    assert all(t.owner != LOTUS for p in state.players for t in p.trophies)
    assert_sound(state)


def test_BR_279_destroying_a_board_city_provokes_no_outrage_and_ransacks_nothing():
    """BR-279: Dane destroys a city on Lotus's board: it is his Trophy, with no Outrage on him
    and the Court's agents untouched."""
    state = flagship_table()
    put(state, LOTUS, "hull", "upgrade", "city")
    outrage, court = list(state.players[DANE].outrage), msgspec.json.encode(state.court_agents)
    rules.defending_hits(BOX, state, LOTUS, DANE, 2)
    assert state.players[DANE].outrage == outrage and msgspec.json.encode(state.court_agents) == court
    assert state.players[DANE].trophies[-1] == Trophy(owner=LOTUS, kind="city")
    assert_sound(state)


def test_BR_341_intermission_destroys_damaged_upgrades_and_armor():
    """BR-341: at Intermission D every damaged Upgrade and Armor is destroyed (back to the
    owner's supply); fresh ones stay."""
    state = flagship_table()
    put(state, LOTUS, "hull", "upgrade", "city")
    put(state, LOTUS, "hull", "armor", "starport", damaged=True)
    put(state, LOTUS, "ship_crane", "upgrade", "city", damaged=True)
    assert rules.destroy_damaged(BOX, state) == {LOTUS: ["city", "starport"]}
    assert board(state).slots[5] == Slot(BoardPiece("city")) and board(state).slots[3] == Slot()
    assert state.players[LOTUS].starports == 5 and state.players[LOTUS].cities_on_board.count(True) == 4
    assert_sound(state)


def test_the_invariants_find_a_broken_board():
    """Armor without its Upgrade, or a Flagship off the map, is reported."""
    from plugins.blighted_reach.invariants import problems
    from plugins.flagships.state import store
    from tests.flagships.tables import CBOX

    state = flagship_table()
    put(state, LOTUS, "hull", "upgrade", "city")
    ship = board(state)
    ship.slots[5] = Slot(armor=ship.slots[5].upgrade)
    ship.system = "9.9"
    store(state, LOTUS, ship)
    found = problems(BOX, CBOX, state)
    assert any("Armor without its Upgrade" in p for p in found) and any("off the map" in p for p in found)


def test_errors_are_action_rejections():
    assert issubclass(CannotAfford, ActionRejected) and issubclass(IllegalAction, ActionRejected)
