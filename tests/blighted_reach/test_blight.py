"""The Blight (BR-213..BR-218, BR-231..BR-238, and its Act II/III setup and Intermission
steps) on real Act I tables: Lotus, Dane and Mikah (seats 0-2) after their starting
placements, the Empire in clusters 1 and 2, damaged Blight everywhere else. Each test
names the checklist IDs it proves; refused choices raise a typed error and leave the state
byte-identical; every table ends with sound piece counts."""
from __future__ import annotations

import pytest

from core.errors import BadParameter, IllegalAction
from plugins.arcs.actions import Move, check_move
from plugins.arcs.battle import total
from plugins.arcs.reach import reach_for
from plugins.arcs.scoring import ambition_count
from plugins.arcs.setup import place_building
from plugins.arcs.state import Building, Ships, Trophy
from plugins.blighted_reach import blight as bl
from plugins.blighted_reach.state import FREE, Pieces

from tests.blighted_reach.crisis_tables import (
    BOX, CBOX, DANE, LOTUS, MIKAH, assert_sound, clear, played_table, set_blight, set_imperial, set_ships,
    snapshot,
)


# -- the Blight Crisis ---------------------------------------------------------------


def test_worked_example_a_fresh_blight_deals_hits_BR_217_BR_214_BR_215_BR_218():
    """BR-217 (the rulebook's example): one fresh Blight, one fresh Imperial ship and each
    player's ships in the system: two hits damage then destroy the Imperial ship, the third
    hits one Loyal ship of each player. BR-214: the Empire first; BR-215: every player
    takes the remaining hit; BR-218: the buildings there are not touched."""
    state = played_table()
    system = "1.1"  # Lotus's city and Dane's starport stand here
    for seat in (LOTUS, DANE, MIKAH):
        set_ships(state, seat, system, 2)
    set_blight(state, system, fresh=1)
    buildings = list(state.systems[system].buildings)
    supply = state.imperial_supply
    result = bl.blight_crisis(state, system)
    assert result["hits"] == 3
    assert system not in state.imperial and state.imperial_supply == supply + 1
    assert [state.systems[system].ships[s] for s in (LOTUS, DANE, MIKAH)] == [Ships(fresh=1, damaged=1)] * 3
    assert state.systems[system].buildings == buildings
    assert state.blight[system] == Pieces(fresh=1)  # the Blight itself is not harmed
    assert_sound(state)


def test_fresh_blight_deals_three_damaged_one_BR_213():
    """BR-213: 2 fresh + 1 damaged Blight deal 7 hits: 4 destroy the 2 fresh Imperial
    ships, 3 go to each player (Lotus's 1 fresh + 1 damaged: all destroyed; Dane's 3 fresh:
    all damaged)."""
    state = played_table()
    system = "1.3"
    set_imperial(state, system, fresh=2)
    set_ships(state, LOTUS, system, 1, 1)
    set_ships(state, DANE, system, 3)
    set_ships(state, MIKAH, system, 0)
    set_blight(state, system, fresh=2, damaged=1)
    ships = state.players[LOTUS].ships
    assert bl.crisis_hits(state.blight[system]) == 7
    bl.blight_crisis(state, system)
    assert system not in state.imperial
    assert state.systems[system].ships[LOTUS] == Ships() and state.players[LOTUS].ships == ships + 2
    assert state.systems[system].ships[DANE] == Ships(fresh=0, damaged=3)
    assert_sound(state)


def test_imperial_ships_absorb_hits_before_any_player_BR_214():
    """BR-214: two damaged Blight deal 2 hits; both go to the lone fresh Imperial ship
    (damaged, then destroyed), none to Mikah's fresh ship beside it."""
    state = played_table()
    system = "1.2"
    set_imperial(state, system, fresh=1)
    set_ships(state, MIKAH, system, 1)
    set_blight(state, system, damaged=2)
    bl.blight_crisis(state, system)
    assert system not in state.imperial
    assert state.systems[system].ships[MIKAH] == Ships(fresh=1)
    assert_sound(state)


def test_fresh_ships_take_hits_before_damaged_BR_216():
    """BR-216: one hit on 1 fresh + 1 damaged Imperial ship damages the fresh one (none is
    destroyed); two hits left on a player's 2 fresh + 1 damaged damage both fresh ones."""
    state = played_table()
    system = "2.1"
    set_imperial(state, system, fresh=1, damaged=1)
    set_blight(state, system, damaged=1)
    bl.blight_crisis(state, system)
    assert state.imperial[system] == Pieces(fresh=0, damaged=2)
    set_imperial(state, system, 0)
    set_ships(state, LOTUS, system, 2, 1)
    set_blight(state, system, damaged=2)
    bl.blight_crisis(state, system)
    assert state.systems[system].ships[LOTUS] == Ships(fresh=0, damaged=3)
    assert_sound(state)


def test_blight_crises_hit_every_blighted_system_and_never_buildings_BR_213_BR_218():
    """BR-213: every system with Blight has a crisis; BR-218: leftover hits in a system
    with buildings and no ships are lost (the Free city at 3.1 stands)."""
    state = played_table()
    set_ships(state, DANE, "4.2", 1)   # a lone ship under damaged Blight
    free = list(state.systems["3.1"].buildings)
    assert free == [Building(kind="city", owner=FREE)]
    results = bl.blight_crises(CBOX, state)
    assert sorted(r["system"] for r in results) == sorted(state.blight)
    assert len(results) == 16
    assert state.systems["4.2"].ships[DANE] == Ships(fresh=0, damaged=1)
    assert state.systems["3.1"].buildings == free
    assert_sound(state)


def test_imperial_protectors_spare_empire_controlled_systems():
    """The Steward's law Imperial Protectors (F108) in the booklet: no Blight Crisis where
    a fresh Imperial ship stands; a damaged one does not protect."""
    state = played_table()
    set_blight(state, "1.1", fresh=1)
    set_blight(state, "2.1", fresh=1)
    set_imperial(state, "2.1", 0, 1)
    assert {"1.1", "2.1"} <= set(bl.blight_crisis_systems(CBOX, state))
    state.booklet.append(["F108"])
    systems = bl.blight_crisis_systems(CBOX, state)
    assert "1.1" not in systems and "2.1" in systems and "3.1" in systems


# -- harming the Blight --------------------------------------------------------------


def test_blight_is_tough_BR_231():
    """BR-231: one hit does nothing, two damage a fresh Blight, two more destroy a damaged
    one; an odd hit is lost (3 hits only damage a fresh Blight)."""
    fresh = Pieces(fresh=1)
    assert bl.options_blight_hits(fresh, 1) == [{"damage_fresh": 0, "destroy_fresh": 0, "destroy_damaged": 0}]
    assert bl.options_blight_hits(fresh, 3) == [{"damage_fresh": 1, "destroy_fresh": 0, "destroy_damaged": 0}]
    assert bl.options_blight_hits(fresh, 4) == [{"damage_fresh": 0, "destroy_fresh": 1, "destroy_damaged": 0}]
    assert bl.options_blight_hits(Pieces(damaged=1), 2) == [{"damage_fresh": 0, "destroy_fresh": 0, "destroy_damaged": 1}]
    with pytest.raises(BadParameter):  # a single hit cannot damage it
        bl.check_blight_hits(fresh, 1, bl.BlightHits(damage_fresh=1))
    with pytest.raises(BadParameter):  # nor can pairs that land be withheld
        bl.check_blight_hits(fresh, 2, bl.BlightHits())


def test_worked_example_two_hits_damage_a_fresh_blight_BR_236_BR_235_BR_234():
    """BR-236 (the rulebook's example): attacking a fresh Blight, two dice show a hit each:
    the attacker takes no hits and the Blight flips to damaged. BR-235: the Blight does not
    intercept, so even a rolled intercept costs nothing; BR-234: building hits do nothing."""
    state = played_table()
    system = "3.2"
    set_blight(state, system, fresh=1)
    set_ships(state, LOTUS, system, 2)
    roll = total(BOX.dice, [("skirmish", 0), ("skirmish", 1)])
    defence = bl.blight_defence(roll)
    assert (defence.hits, defence.intercept_hits) == (2, 0)
    bl.apply_blight_hits(state, LOTUS, system, defence.hits, bl.BlightHits(damage_fresh=1))
    assert state.blight[system] == Pieces(damaged=1)
    assert state.systems[system].ships[LOTUS] == Ships(fresh=2)
    raid = bl.blight_defence(total(BOX.dice, [("raid", 0), ("raid", 2), ("assault", 4)]))  # INT, BHIT, HIT+INT
    assert (raid.hits, raid.intercept_hits, raid.building_hits_lost) == (1, 0, 1)
    assert_sound(state)


def test_every_blight_defends_and_the_destroyer_takes_trophies_BR_233_BR_232():
    """BR-233: chosen as defender, all the system's Blight defends: 2 hits may damage the
    fresh one or destroy the damaged one; BR-232: a destroyed Blight becomes the
    attacker's Trophy (and Warlord counts it)."""
    state = played_table()
    system = "4.3"
    set_blight(state, system, fresh=1, damaged=1)
    defending = bl.defending_blight(state, system)
    assert defending == Pieces(fresh=1, damaged=1)
    options = bl.options_blight_hits(defending, 2)
    assert {"damage_fresh": 1, "destroy_fresh": 0, "destroy_damaged": 0} in options
    assert {"damage_fresh": 0, "destroy_fresh": 0, "destroy_damaged": 1} in options
    before = snapshot(state)
    with pytest.raises(BadParameter):  # more than stands there
        bl.apply_blight_hits(state, DANE, system, 4, bl.BlightHits(destroy_damaged=2))
    assert snapshot(state) == before
    taken = bl.apply_blight_hits(state, DANE, system, 6, bl.BlightHits(destroy_fresh=1, destroy_damaged=1))
    assert taken == 2 and system not in state.blight
    assert state.players[DANE].trophies == [Trophy(owner=bl.BLIGHT, kind="blight")] * 2
    assert ambition_count(BOX, state, state.players[DANE], "warlord") == 2
    assert_sound(state)


def test_blight_ends_catapult_moves_at_its_gates_BR_237():
    """BR-237: from Lotus's starport at 2.1, a Catapult through 2G and 3G (damaged
    Blight) into 3.1 is refused, though the base rules would let it pass; stopping at 3G
    or passing Blight-free gates (2G, 1G) is fine; fresh Blight stops it too."""
    state = played_table()
    assert any(b.owner == LOTUS and b.kind == "starport" for b in state.systems["2.1"].buildings)
    reach = reach_for(BOX)
    through = Move(origin="2.1", fresh=1, damaged=0, path=("2G", "3G", "3.1"))
    check_move(state, reach, LOTUS, through)  # the base game sees no stop at 3G
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        bl.check_catapult_blight(BOX, state, through)
    assert snapshot(state) == before
    bl.check_catapult_blight(BOX, state, Move(origin="2.1", fresh=1, damaged=0, path=("2G", "3G")))
    bl.check_catapult_blight(BOX, state, Move(origin="2.1", fresh=1, damaged=0, path=("2G", "1G", "1.2")))
    set_blight(state, "3G", fresh=1)
    with pytest.raises(IllegalAction):
        bl.check_catapult_blight(BOX, state, through)
    assert not bl.blight_stops_catapult(BOX, state, "3.1")  # a planet ends a Catapult anyway


# -- placing Blight ------------------------------------------------------------------


def test_empty_supply_takes_blight_from_the_most_blight_trophies_BR_238():
    """BR-238: with the supply empty, placing takes from the player with the most Blight
    Trophies (Dane, 2, over Mikah, 1); a tie goes to the first in turn order (ruling G-1);
    with none anywhere nothing is placed (ruling G-3)."""
    state = played_table()
    for system in ("1.1", "1.2", "1.3", "1G", "2.1", "2.2", "2.3", "2G"):
        assert bl.place_blight(state, system)
    assert state.blight_supply == 0
    bl.apply_blight_hits(state, DANE, "5.1", 2, bl.BlightHits(destroy_damaged=1))
    bl.apply_blight_hits(state, DANE, "5.2", 2, bl.BlightHits(destroy_damaged=1))
    bl.apply_blight_hits(state, MIKAH, "5.3", 2, bl.BlightHits(destroy_damaged=1))
    assert bl.place_blight(state, "5.1")
    assert state.blight["5.1"] == Pieces(damaged=1)
    assert (bl.blight_trophies(state, DANE), bl.blight_trophies(state, MIKAH)) == (1, 1)
    state.initiative = MIKAH
    assert bl.place_blight(state, "5.2") and bl.blight_trophies(state, MIKAH) == 0
    assert bl.place_blight(state, "5.3") and bl.blight_trophies(state, DANE) == 0
    before = snapshot(state)
    assert not bl.place_blight(state, "5G")
    assert snapshot(state) == before
    assert_sound(state)


def test_blight_trophies_go_back_to_the_supply():
    """Trophies returning home (Intermission C.1): Blight goes to the Blight supply."""
    state = played_table()
    bl.apply_blight_hits(state, LOTUS, "6.1", 2, bl.BlightHits(destroy_damaged=1))
    supply = state.blight_supply
    assert bl.return_blight_trophies(state) == 1
    assert state.blight_supply == supply + 1 and state.players[LOTUS].trophies == []
    assert_sound(state)


def test_act_two_setup_blight_on_empty_gates_BR_070():
    """BR-070: only gates with neither Blight nor ships get one damaged Blight: 1G once
    its Imperial ship is gone; 2G keeps its Imperial ship; 3G-6G have Blight already."""
    state = played_table()
    set_imperial(state, "1G", 0)
    assert bl.spread_to_empty_gates(BOX, state) == ["1G"]
    assert state.blight["1G"] == Pieces(damaged=1) and "2G" not in state.blight
    assert_sound(state)


def test_act_two_setup_blight_by_rolled_symbol_BR_071_BR_072():
    """BR-071: arrow rolled, 1.1 and 2.1 (no Blight) get one each; BR-072: 4.1 has Blight,
    so every Blight-free planet of cluster 4 (4.2, cleared) gets one instead; clusters
    3, 5, 6 have Blight everywhere: nothing."""
    state = played_table()
    clear(state, "4.2")
    placed = bl.spread_by_symbol(BOX, state, "arrow")
    assert sorted(placed) == ["1.1", "2.1", "4.2"]
    assert all(state.blight[s] == Pieces(damaged=1) for s in placed)
    assert_sound(state)


# -- Blight Looms (CC15) Blight ops --------------------------------------------------


def test_blight_looms_secured_destroys_damaged_blight_where_loyal():
    """CC15 When Secured: the securer may destroy every damaged Blight in a cluster where
    they have Loyal pieces, taking them as Trophies (BR-232); a cluster without them is
    refused and changes nothing; declining does nothing."""
    state = played_table()
    set_ships(state, MIKAH, "3.2", 1)
    set_blight(state, "3.3", fresh=1)
    options = bl.options_destroy_damaged_blight(BOX, state, MIKAH)
    assert {"cluster": 3} in options and {"cluster": 4} not in options and {} in options
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        bl.destroy_damaged_blight_in_cluster(BOX, state, MIKAH, 4)
    with pytest.raises(BadParameter):
        bl.destroy_damaged_blight_in_cluster(BOX, state, MIKAH, 9)
    assert bl.destroy_damaged_blight_in_cluster(BOX, state, MIKAH, None) == 0
    assert snapshot(state) == before
    assert bl.destroy_damaged_blight_in_cluster(BOX, state, MIKAH, 3) == 3  # 3G, 3.1, 3.2
    assert state.blight.get("3.3") == Pieces(fresh=1) and not {"3G", "3.1", "3.2"} & set(state.blight)
    assert bl.blight_trophies(state, MIKAH) == 3
    assert_sound(state)


# -- the Intermission ----------------------------------------------------------------


def test_intermission_repairs_all_blight_BR_339():
    """BR-339."""
    state = played_table()
    set_blight(state, "1.1", fresh=1, damaged=1)
    assert bl.repair_all_blight(state) == 17
    assert all(p.damaged == 0 for p in state.blight.values()) and state.blight["1.1"] == Pieces(fresh=2)
    assert_sound(state)


def test_intermission_blight_destroys_buildings_of_shipless_systems_BR_342():
    """BR-342: with Blight and no ships, every building goes: the Free city at 3.1 to its
    supply, Mikah's city at 1.2 (her ships and the Imperial one gone) back to her board.
    Where ships stand (1.1, Lotus's) or no Blight is, buildings stay. No Trophies."""
    state = played_table()
    clear(state, "1.2")
    set_blight(state, "1.2", damaged=1)
    set_blight(state, "1.1", damaged=1)
    place_building(state, "4.2", DANE, "starport")
    free, board = state.free_city_supply, sum(state.players[MIKAH].cities_on_board)
    starports = state.players[DANE].starports
    gone = bl.destroy_buildings_under_blight(BOX, state)
    assert sorted((g["system"], g["owner"]) for g in gone) == [("1.2", MIKAH), ("3.1", FREE), ("4.1", FREE),
                                                               ("4.2", DANE), ("5.1", FREE), ("6.1", FREE)]
    assert state.free_city_supply == free + 4 and sum(state.players[MIKAH].cities_on_board) == board + 1
    assert state.players[DANE].starports == starports + 1
    assert state.systems["1.1"].buildings and all(p.trophies == [] for p in state.players)
    assert_sound(state)
