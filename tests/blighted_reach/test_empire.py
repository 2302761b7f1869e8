"""The Empire's rules (BR-114..BR-141, BR-323) on real Act I tables: Imperial clusters 1
and 2 (one fresh Imperial ship in each of their systems), 3 or 4 players placed.
Each test names the checklist IDs it proves; a refusal raises a typed error and leaves the
state byte-identical."""
from __future__ import annotations

import pytest

from core.errors import BadParameter, IllegalAction, UnknownSeat
from plugins.arcs.actions import Move, check_move, do_move
from plugins.arcs.reach import reach_for
from plugins.arcs.state import Ships, Trophy
from plugins.blighted_reach import board, empire
from plugins.blighted_reach.empire import ImperialGroup, Side
from plugins.blighted_reach.invariants import problems
from plugins.blighted_reach.state import FREE, Pieces
from tests.blighted_reach.empire_tables import (
    BOX, CBOX, clear_system, give_building, give_free, set_imperial, set_ships, snapshot, sound, table)


def refused(state, error, fn, *args, **kw):
    """`fn` raises `error` and the state is unchanged."""
    before = snapshot(state)
    with pytest.raises(error):
        fn(*args, **kw)
    assert snapshot(state) == before


def outlaw(state, seat):
    empire.become_outlaw(state, seat)
    assert board.is_outlaw(state, seat)


# -- titles -------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_everyone_starts_a_regent_and_one_is_first_regent_BR_114_115(n):
    """BR-114: every title starts on its Regent side; BR-115: exactly one Regent holds
    the First Regent tile."""
    state = table(n)
    assert board.regents(state) == list(range(n)) and board.outlaws(state) == []
    assert board.is_regent(state, state.first_regent)


def test_a_regent_leaves_the_empire_BR_117_118():
    """BR-117/BR-118: Leave the Empire flips a Regent (not the First Regent) to Outlaw;
    the First Regent and the Trust stay as they were."""
    state = table(3)
    first = state.first_regent
    other = (first + 1) % 3
    done = empire.become_outlaw(state, other)
    assert state.titles[other] == "outlaw" and board.outlaws(state) == [other]
    assert done == {"seat": other, "first_regent": first, "returned": [], "power_lost": 0}
    sound(state)


def test_becoming_outlaw_twice_or_an_unknown_seat_is_refused_BR_117():
    """BR-117."""
    state = table(3)
    outlaw(state, 1)
    refused(state, IllegalAction, empire.become_outlaw, state, 1)
    refused(state, UnknownSeat, empire.become_outlaw, state, 3)
    refused(state, IllegalAction, empire.become_regent, state, 0)


def test_an_outlaw_becomes_a_regent_again_BR_119():
    """BR-119: the Outlaw side flips back to Regent (when is the Summit's business)."""
    state = table(3)
    outlaw(state, 2)
    empire.become_regent(state, 2)
    assert board.regents(state) == [0, 1, 2]
    sound(state)


def test_first_regent_leaving_hands_tile_and_trust_to_most_power_BR_115_194():
    """BR-194 (and BR-115: one First Regent at a time): the tile with every Trust resource
    goes to the Regent with the most Power."""
    state = table(4)
    first = state.first_regent
    state.trust = ["relic", "fuel"]
    for r in state.trust:
        state.supply[r] -= 1
    powers = {(first + 1) % 4: 3, (first + 2) % 4: 5, (first + 3) % 4: 1}
    for seat, power in powers.items():
        state.players[seat].power = power
    done = empire.become_outlaw(state, first)
    heir = (first + 2) % 4
    assert done["first_regent"] == heir == state.first_regent
    assert state.trust == ["relic", "fuel"] and state.players[first].power == 0
    sound(state)


def test_first_regent_tile_tie_goes_in_turn_order_from_initiative_BR_194():
    """BR-194, with the base game's tiebreak (turn order from the initiative holder)."""
    state = table(4)
    state.first_regent = state.initiative
    leaver = state.initiative
    for seat in range(4):
        state.players[seat].power = 2
    state.players[(leaver + 1) % 4].power = 1
    assert empire.successor(state, leaver) == (leaver + 2) % 4
    empire.become_outlaw(state, leaver)
    assert state.first_regent == (leaver + 2) % 4
    sound(state)


def test_last_regent_leaving_returns_the_trust_and_loses_power_BR_195():
    """BR-195: no Regent left: the Trust goes back to the supply, the leaver loses 1 Power
    per resource (here below zero) and nobody is First Regent."""
    state = table(3)
    first = state.first_regent
    for seat in range(3):
        if seat != first:
            outlaw(state, seat)
    state.trust = ["weapon", "weapon", "psionic"]
    for r in state.trust:
        state.supply[r] -= 1
    state.players[first].power = 2
    supply = dict(state.supply)
    done = empire.become_outlaw(state, first)
    assert done == {"seat": first, "first_regent": -1, "returned": ["weapon", "weapon", "psionic"], "power_lost": 3}
    assert state.first_regent == -1 and state.trust == [] and state.players[first].power == -1
    assert state.supply["weapon"] == supply["weapon"] + 2 and state.supply["psionic"] == supply["psionic"] + 1
    assert empire.trophy_owner_for_outlaw_losses(state) is None
    sound(state)


def test_invariants_catch_an_outlaw_first_regent_BR_115():
    """BR-115."""
    state = table(3)
    state.titles[state.first_regent] = "outlaw"
    assert problems(BOX, CBOX, state) == ["the First Regent is not a Regent"]


def test_outlaws_pay_no_demand_battle_regents_freely_and_face_imperial_attacks_BR_116():
    """BR-116: an Outlaw owes no Imperial Demand, may harm a Regent where Imperial ships
    are, and a Regent may attack the Outlaw with the Imperial ships there."""
    state = table(3)
    outlaw(state, 1)
    assert empire.owes_imperial_demand(state, 0) and not empire.owes_imperial_demand(state, 1)
    assert empire.may_harm(state, 1, 0, "1.1", harm="defend")  # 1.1: seats 0 and 1, an Imperial ship
    attacking, _ = empire.battle_sides(state, 0, 1, "1.1")
    assert attacking.imperial == Pieces(fresh=1)


# -- control and command ------------------------------------------------------------------


def test_one_fresh_imperial_ship_controls_whatever_loyal_ships_BR_120():
    """BR-120: 1 fresh Imperial ship beats 6 fresh Loyal ships; damaged ones control nothing."""
    state = table(3)
    set_ships(state, 1, "1G", fresh=6)
    assert board.empire_controls(state, "1G") and board.controller(state, "1G") == board.EMPIRE
    set_imperial(state, "1G", damaged=2)
    assert not board.empire_controls(state, "1G") and board.controller(state, "1G") == 1
    sound(state)


def test_first_regent_counts_empire_systems_for_scoring_BR_121():
    """BR-121: the First Regent counts each Empire system as theirs; another Regent does
    not; after a hand-over the new First Regent does."""
    state = table(3)
    first, other = state.first_regent, (state.first_regent + 1) % 3
    empire_systems = [s for s in state.systems if board.empire_controls(state, s)]
    assert len(empire_systems) == 8
    assert all(board.controls_for_scoring(state, first, s) for s in empire_systems)
    assert not any(board.controls_for_scoring(state, other, s) for s in empire_systems)
    state.players[other].power = 9
    empire.become_outlaw(state, first)
    assert all(board.controls_for_scoring(state, other, s) for s in empire_systems)
    assert not board.controls_for_scoring(state, first, "1G")


def test_presence_law_control_on_a_regents_turn_BR_122():
    """BR-122: on its own turn a Regent with Loyal pieces in an Empire system controls it;
    without pieces, or as an Outlaw, it does not."""
    state = table(3)
    assert board.controls_on_turn(state, 0, "2.1")  # seat 0's starport and ships
    assert not board.controls_on_turn(state, 1, "2.1")  # no piece of seat 1 there
    assert board.controls_on_turn(state, 1, "1.3")
    outlaw(state, 1)
    assert not board.controls_on_turn(state, 1, "1.3")


def test_outlaw_and_regent_share_an_empire_system_BR_126_122():
    """BR-126: an Outlaw with 4 fresh ships, a Regent with 2 and 1 fresh Imperial ship: the
    Empire controls; the Regent on its turn; the Outlaw's builds are placed damaged, the
    Regent's fresh."""
    state = table(3)
    regent, rebel = 0, 1
    outlaw(state, rebel)
    set_ships(state, rebel, "1.1", fresh=4)
    set_ships(state, regent, "1.1", fresh=2)
    assert state.imperial["1.1"] == Pieces(fresh=1)
    assert board.controller(state, "1.1") == board.EMPIRE
    assert board.controls_on_turn(state, regent, "1.1") and not board.controls_on_turn(state, rebel, "1.1")
    assert empire.builds_damaged(state, rebel, "1.1") and not empire.builds_damaged(state, regent, "1.1")
    sound(state)


def test_command_needs_a_regent_and_loyal_pieces_BR_123_124():
    """BR-123: with Loyal pieces there a Regent commands the Imperial ships; BR-124: without
    them (or as an Outlaw, or where none are) it is refused."""
    state = table(3)
    empire.check_command(state, 0, "2.1")
    refused(state, IllegalAction, empire.check_command, state, 1, "2.1")  # no Loyal piece of seat 1
    refused(state, IllegalAction, empire.check_command, state, 0, "3G")   # no Imperial ship
    outlaw(state, 2)
    refused(state, IllegalAction, empire.check_command, state, 2, "1.2")
    refused(state, BadParameter, empire.check_command, state, 0, "9G")
    assert empire.commandable_systems(state, 0) == ["1.1", "2.1"]


def test_ignoring_the_presence_law_commands_everywhere_BR_125():
    """BR-125: ignoring the Presence Law (Imperial Officers held) commands the Imperial
    ships of every system, Loyal pieces or not; building there is open too (BR-123)."""
    state = table(3)
    state.players[1].guild.append("F702")  # Imperial Officers: presence and movement
    ignored = empire.laws_ignored(CBOX, state, 1)
    assert ignored == {"presence", "movement"}
    assert empire.commandable_systems(state, 1, "presence" in ignored) == sorted(state.imperial)
    empire.check_command(state, 1, "2G", ignore_presence=True)
    assert not empire.may_build_building_at(state, 1, "2.2")
    assert empire.may_build_building_at(state, 1, "2.2", ignore_presence=True)


def test_ignoring_the_presence_law_controls_every_empire_system_BR_125_122():
    """BR-125 (reading: control follows command): a Regent holding Imperial Authority
    (presence and truce ignored) controls Empire systems without Loyal pieces on its turn,
    so it taxes a Rival Regent's city there and builds fresh; without the card it may not."""
    state = table(3)
    state.players[2].lore.append("F102")
    ignored = empire.laws_ignored(CBOX, state, 2)
    assert ignored == {"presence", "truce"}
    city = next(i for i, b in enumerate(state.systems["1.1"].buildings) if b.owner == 0)
    refused(state, IllegalAction, empire.check_tax, state, 2, "1.1", city)
    empire.check_tax(state, 2, "1.1", city, ignore_truce=True, ignore_presence=True)
    refused(state, IllegalAction, empire.check_tax, state, 2, "1.1", city, ignore_presence=True)  # the Truce
    assert board.controls_on_turn(state, 2, "2.2", ignore_presence=True)
    assert empire.builds_damaged(state, 2, "2.2") and not empire.builds_damaged(state, 2, "2.2", ignore_presence=True)
    outlaw(state, 2)
    assert not board.controls_on_turn(state, 2, "2.2", ignore_presence=True)


def test_a_regent_repairs_imperial_ships_it_commands_BR_123():
    """BR-123."""
    state = table(3)
    set_imperial(state, "2.1", fresh=0, damaged=1)
    refused(state, IllegalAction, empire.repair_imperial, state, 1, "2.1")  # no Loyal piece
    empire.repair_imperial(state, 0, "2.1")
    assert state.imperial["2.1"] == Pieces(fresh=1)
    refused(state, IllegalAction, empire.repair_imperial, state, 0, "2.1")  # nothing damaged
    sound(state)


def test_a_regent_taxes_a_rival_city_it_controls_by_the_presence_law_BR_123():
    """BR-123: an Outlaw's city in an Empire system where the Regent has Loyal pieces is
    taxable by the Regent; the Outlaw cannot tax the Regent's city there (the Empire
    controls on its turn)."""
    state = table(3)
    outlaw(state, 1)
    city = next(i for i, b in enumerate(state.systems["1.3"].buildings) if b.owner == 1 and b.kind == "city")
    empire.check_tax(state, 2, "1.3", city)
    set_ships(state, 1, "1.1", fresh=5)
    mine = next(i for i, b in enumerate(state.systems["1.1"].buildings) if b.owner == 0)
    refused(state, IllegalAction, empire.check_tax, state, 1, "1.1", mine)
    empire.check_tax(state, 0, "1.1", mine)  # a Loyal city, always
    refused(state, IllegalAction, empire.check_tax, state, 0, "1.1", mine, taxed=[["1.1", mine]])


# -- movement -----------------------------------------------------------------------------


def test_movement_law_one_imperial_per_loyal_ship_BR_127():
    """BR-127: as many Imperial ships as Loyal ones at most, and never alone."""
    empire.check_movement_law([(2, 2), (3, 0), (1, 1)])
    for legs in ([(1, 2)], [(0, 1)], [(3, 3), (2, 3)]):
        with pytest.raises(IllegalAction):
            empire.check_movement_law(legs)


def test_catapult_worked_example_leg_by_leg_BR_128_127_129():
    """BR-128: from its starport the Regent Catapults 3 Loyal + 2 Imperial ships, drops a
    Loyal one (2 + 2 go on), drops an Imperial one (2 + 1 go on) and ends; the Empire's
    gates do not stop a Regent (BR-129). Dropping 2 Loyal ships first breaks the Movement
    Law (BR-127) and changes nothing."""
    state = table(3)
    set_imperial(state, "2.1", fresh=2)
    move = Move(origin="2.1", fresh=3, damaged=0, path=("2G", "1G", "1.1"), drops=((1, 0), (0, 0), (0, 0)))
    imperial = ImperialGroup(fresh=2, drops=((0, 0), (1, 0), (0, 0)))
    assert empire.movement_legs(move, imperial) == [(3, 2), (2, 2), (2, 1)]
    bad = Move(origin="2.1", fresh=3, damaged=0, path=("2G", "1G", "1.1"), drops=((2, 0), (0, 0), (0, 0)))
    refused(state, IllegalAction, empire.apply_imperial_move, state, 0, bad, imperial)
    check_move(state, reach_for(BOX), 0, move)
    empire.check_catapult_path(state, 0, move, imperial)
    empire.apply_imperial_move(state, 0, move, imperial)
    do_move(state, 0, move)
    assert state.systems["2G"].ships[0] == Ships(fresh=1) and state.imperial["2G"] == Pieces(fresh=1)
    assert state.imperial["1G"] == Pieces(fresh=2) and state.imperial["1.1"] == Pieces(fresh=2)
    assert state.systems["1.1"].ships[0] == Ships(fresh=5) and "2.1" not in state.imperial
    sound(state)


def test_imperial_moves_refused_for_outlaws_missing_ships_or_ships_alone_BR_127_124():
    """BR-127."""
    state = table(3)
    one = Move(origin="2.1", fresh=1, damaged=0, path=("2G",))
    refused(state, BadParameter, empire.apply_imperial_move, state, 0, one, ImperialGroup(fresh=2))
    none = Move(origin="2.1", fresh=0, damaged=0, path=("2G",))
    refused(state, IllegalAction, empire.apply_imperial_move, state, 0, none, ImperialGroup(fresh=1))
    refused(state, IllegalAction, empire.apply_imperial_move, state, 1, one, ImperialGroup(fresh=1))
    outlaw(state, 0)
    refused(state, IllegalAction, empire.apply_imperial_move, state, 0, one, ImperialGroup(fresh=1))


def test_ignoring_the_movement_law_moves_imperial_ships_alone_BR_127():
    """BR-127."""
    state = table(3)
    lone = Move(origin="2.1", fresh=0, damaged=0, path=("2G",))
    empire.apply_imperial_move(state, 0, lone, ImperialGroup(fresh=1), ignore_movement=True)
    assert state.imperial["2G"] == Pieces(fresh=2)
    sound(state)


def test_empire_gates_stop_outlaws_only_BR_129():
    """BR-129: a gate the Empire controls ends an Outlaw's Catapult, not a Regent's, mixed
    or Imperial-only group's."""
    state = table(3)
    set_ships(state, 2, "1G", fresh=2)  # a Loyal majority there changes nothing: the Empire controls
    outlaw(state, 1)
    assert empire.catapult_stops(state, 1, False, True, "1G")
    assert not empire.catapult_stops(state, 0, False, True, "1G")
    assert not empire.catapult_stops(state, 0, True, True, "1G")
    assert not empire.catapult_stops(state, 0, True, False, "1G")
    refused(state, BadParameter, empire.catapult_stops, state, 0, False, False, "1G")


def test_regent_gates_stop_outlaws_and_rival_regents_alone_BR_130():
    """BR-130: a Regent's gate ends the Catapults of Outlaws and of a Rival Regent's Loyal
    ships alone, not of Imperial-only or mixed groups, nor the Regent's own."""
    state = table(4)
    set_ships(state, 2, "3G", fresh=2)
    outlaw(state, 3)
    assert empire.catapult_stops(state, 3, False, True, "3G")
    assert empire.catapult_stops(state, 1, False, True, "3G")
    assert not empire.catapult_stops(state, 1, True, True, "3G")
    assert not empire.catapult_stops(state, 1, True, False, "3G")
    assert not empire.catapult_stops(state, 2, False, True, "3G")


def test_outlaw_gates_stop_regent_and_imperial_ships_alike_BR_131():
    """BR-131: an Outlaw's gate ends Regent, mixed and Imperial-only Catapults (and another
    Outlaw's), not the Outlaw's own; a gate nobody controls stops nobody."""
    state = table(4)
    outlaw(state, 2)
    outlaw(state, 3)
    set_ships(state, 2, "4G", fresh=2)
    for group in ((False, True), (True, True), (True, False)):
        assert empire.catapult_stops(state, 1, *group, "4G")
    assert empire.catapult_stops(state, 3, False, True, "4G")
    assert not empire.catapult_stops(state, 2, False, True, "4G")
    assert not empire.catapult_stops(state, 3, False, True, "5G")


def test_catapult_path_stops_an_outlaw_at_an_empire_gate_BR_129_130():
    """The path check applies the stops leg by leg: an Outlaw may not Catapult through an (BR-129)
    Empire gate; a Regent's Loyal-only group may not pass a Rival Regent's gate, but the
    same group with an Imperial ship may."""
    state = table(3)
    set_imperial(state, "2G")
    set_ships(state, 1, "2G", fresh=2)  # seat 1, a Regent, controls 2G
    set_imperial(state, "2.1", fresh=2)
    alone = Move(origin="2.1", fresh=2, damaged=0, path=("2G", "3G"))
    refused(state, IllegalAction, empire.check_catapult_path, state, 0, alone)
    empire.check_catapult_path(state, 0, alone, ImperialGroup(fresh=1))
    set_imperial(state, "2G", fresh=1)
    outlaw(state, 0)
    refused(state, IllegalAction, empire.check_catapult_path, state, 0, alone)


# -- the Truce Law and harm -------------------------------------------------------------


def test_regents_never_harm_imperial_ships_but_their_own_attackers_hits_BR_132():
    """BR-132: a Regent may not harm Imperial ships, except hits it assigns to the Imperial
    ships attacking with it; an Outlaw may."""
    state = table(3)
    for harm in empire.HARMS:
        refused(state, IllegalAction, empire.check_harm, state, 0, "empire", "2.1", harm=harm)
    for harm in ("hit", "damage", "destroy"):
        empire.check_harm(state, 0, "empire", "2.1", harm=harm, attacking_imperial=True)
    refused(state, BadParameter, empire.check_harm, state, 0, "empire", "2.1", harm="defend", attacking_imperial=True)
    refused(state, BadParameter, empire.check_harm, state, 0, 1, "2.1", attacking_imperial=True)
    outlaw(state, 1)
    empire.check_harm(state, 1, "empire", "2.1")


def test_regents_never_harm_or_tax_rival_regents_where_imperial_ships_are_BR_133():
    """BR-133: no harm between Regents in a system with Imperial ships (damaged ones too),
    nor taxing there; without Imperial ships, or against an Outlaw, they may."""
    state = table(3)
    for harm in empire.HARMS:
        refused(state, IllegalAction, empire.check_harm, state, 0, 1, "1.1", harm=harm)
    set_imperial(state, "1.1", damaged=1)
    refused(state, IllegalAction, empire.check_harm, state, 0, 1, "1.1")
    set_imperial(state, "1.1")
    empire.check_harm(state, 0, 1, "1.1")
    set_imperial(state, "1.3", fresh=1)
    city = next(i for i, b in enumerate(state.systems["1.3"].buildings) if b.owner == 1)
    set_ships(state, 2, "1.3", fresh=5)  # seat 2 controls by the Presence Law, on its turn
    refused(state, IllegalAction, empire.check_tax, state, 2, "1.3", city)
    empire.check_tax(state, 2, "1.3", city, ignore_truce=True)
    outlaw(state, 1)
    empire.check_tax(state, 2, "1.3", city)
    empire.check_harm(state, 0, 1, "1.3")


def test_truce_law_does_not_limit_crises_BR_134():
    """BR-134."""
    state = table(3)
    empire.check_harm(state, 0, 1, "1.1", crisis=True)
    empire.check_harm(state, 0, "empire", "1.1", harm="destroy", crisis=True)


def test_harm_means_defender_hit_damage_or_destroy_BR_323():
    """BR-323: the Truce Law refuses each kind of harm alike, choosing as defender included:
    the shielded Rival Regent is no defender option; anything else is no harm."""
    state = table(3)
    assert empire.HARMS == ("defend", "hit", "damage", "destroy")
    assert {"defender": 1} not in empire.defender_options(state, 0, "1.1")
    refused(state, BadParameter, empire.check_harm, state, 0, 1, "1.1", harm="tax")
    refused(state, BadParameter, empire.check_harm, state, 0, "blight", "1.1")


# -- battle sides ---------------------------------------------------------------------------


def worked_example():
    """BR-141's table: a Regent's 2 Loyal ships and 1 Imperial ship; an Outlaw's ships."""
    state = table(3)
    regent, rebel = 0, 2
    outlaw(state, rebel)
    clear_system(state, "1G")
    set_ships(state, regent, "1G", fresh=2)
    set_imperial(state, "1G", fresh=1)
    set_ships(state, rebel, "1G", fresh=3)
    sound(state)
    return state, regent, rebel


def test_outlaw_battles_worked_example_BR_141_136_138_135():
    """BR-141: the Outlaw battling the Regent faces 3 defending ships (BR-136: the Imperial
    ship must join), battling the Empire 1 (BR-138: the Imperial ships only); the Regent
    battling the Outlaw may attack with 2 Loyal + 1 Imperial (BR-135), or leave it out."""
    state, regent, rebel = worked_example()
    _, defending = empire.battle_sides(state, rebel, regent, "1G")
    assert defending == Side(who=regent, loyal=Ships(fresh=2), imperial=Pieces(fresh=1)) and defending.ships == 3
    _, defending = empire.battle_sides(state, rebel, "empire", "1G")
    assert defending == Side(who="empire", imperial=Pieces(fresh=1)) and defending.ships == 1
    attacking, defending = empire.battle_sides(state, regent, rebel, "1G")
    assert attacking == Side(who=regent, loyal=Ships(fresh=2), imperial=Pieces(fresh=1)) and attacking.ships == 3
    assert defending == Side(who=rebel, loyal=Ships(fresh=3))
    attacking, _ = empire.battle_sides(state, regent, rebel, "1G", attacking_imperial=Pieces())
    assert attacking.ships == 2


def test_battle_sides_refusals_change_nothing_BR_135_137():
    """BR-135."""
    state, regent, rebel = worked_example()
    refused(state, BadParameter, empire.battle_sides, state, regent, rebel, "1G", attacking_imperial=Pieces(fresh=2))
    refused(state, IllegalAction, empire.battle_sides, state, rebel, regent, "1G", attacking_imperial=Pieces(fresh=1))
    refused(state, IllegalAction, empire.battle_sides, state, regent, "empire", "1G")
    refused(state, BadParameter, empire.battle_sides, state, regent, regent, "1G")
    refused(state, IllegalAction, empire.battle_sides, state, rebel, 1, "1G")  # seat 1 has no piece there


def test_defending_imperial_ships_intercept_with_the_regent_BR_136():
    """BR-136: the added Imperial ships are defending ships: a fresh one intercepts."""
    state, regent, rebel = worked_example()
    _, defending = empire.battle_sides(state, rebel, regent, "1G")
    assert defending.fresh_ships == 3
    _, alone = empire.battle_sides(state, regent, rebel, "1G")
    assert alone.fresh_ships == 3 and alone.imperial == Pieces()


def test_defender_options_by_title_BR_137_180():
    """BR-137: an attacking Outlaw may pick the Regent or the Empire; the Regent picks the
    Outlaw only (not the Empire); BR-180: anyone may pick the Free States where Free
    buildings stand."""
    state, regent, rebel = worked_example()
    assert empire.defender_options(state, rebel, "1G") == [{"defender": regent}, {"defender": "empire"}]
    assert empire.defender_options(state, regent, "1G") == [{"defender": rebel}]
    set_ships(state, 1, "1G", fresh=1)  # a Rival Regent, shielded by the Truce Law
    assert empire.defender_options(state, regent, "1G") == [{"defender": rebel}]
    set_ships(state, rebel, "2.3", fresh=1)
    set_ships(state, regent, "2.3", fresh=1)
    assert {"defender": "free"} in empire.defender_options(state, rebel, "2.3")
    assert {"defender": "free"} in empire.defender_options(state, regent, "2.3")


def test_ignoring_the_truce_a_regent_battles_a_regent_and_the_imperials_defend_BR_133_136():
    """With the Truce Law ignored (Rogue Admirals) a Regent may battle a Rival Regent where (BR-133)
    Imperial ships are; those ships defend the defender (BR-136), never both sides."""
    state = table(3)
    state.players[0].guild.append("F706")
    assert "truce" in empire.laws_ignored(CBOX, state, 0)
    attacking, defending = empire.battle_sides(state, 0, 1, "1.1", ignore_truce=True)
    assert attacking.imperial == Pieces() and defending.imperial == Pieces(fresh=1)
    refused(state, IllegalAction, empire.battle_sides, state, 0, 1, "1.1",
            attacking_imperial=Pieces(fresh=1), ignore_truce=True)


def test_outlaw_losses_against_the_empire_go_to_the_first_regent_BR_139():
    """BR-139: the First Regent takes them as Trophies; with no First Regent, nobody (they
    go back to the Outlaw)."""
    state, regent, rebel = worked_example()
    first = state.first_regent
    assert empire.trophy_owner_for_outlaw_losses(state) == first
    assert empire.trophy_taker(state, rebel, "empire", "attacking") == first
    assert empire.trophy_taker(state, rebel, regent, "attacking") == regent
    assert empire.trophy_taker(state, rebel, "empire", "defending") == rebel
    assert empire.trophy_taker(state, regent, "free", "attacking") is None
    state.first_regent = -1
    assert empire.trophy_owner_for_outlaw_losses(state) is None


def test_building_hits_wait_for_every_defending_ship_imperials_too_BR_140():
    """BR-140: the Outlaw's HITs reach the Regent's buildings only once its ships and the
    Imperial ships there are destroyed; an Outlaw's buildings need only its own gone."""
    state = table(3)
    regent, rebel = 0, 1
    outlaw(state, rebel)
    set_ships(state, regent, "1.1")
    assert not empire.building_hits_allowed(state, regent, "1.1")  # the Imperial ship is left
    set_imperial(state, "1.1")
    assert empire.building_hits_allowed(state, regent, "1.1")
    set_imperial(state, "1.3", fresh=1)
    set_ships(state, rebel, "1.3")
    assert empire.building_hits_allowed(state, rebel, "1.3")
    assert not empire.building_hits_allowed(state, "empire", "1.3")


def test_returned_imperial_and_free_trophies_go_to_their_supplies_BR_139_179():
    """Imperial ships and Free buildings taken as Trophies stay counted, and return to the (BR-139)
    Empire's and Free supplies, not to a seat."""
    state = table(3)
    set_imperial(state, "2G")
    state.imperial_supply -= 1
    state.players[2].trophies.append(Trophy(owner=board.EMPIRE, kind="ship"))
    sound(state)
    trophy = state.players[2].trophies.pop()
    assert empire.return_campaign_trophy(state, trophy)
    assert not empire.return_campaign_trophy(state, Trophy(owner=1, kind="ship"))
    sound(state)
    city = give_free(state, "3.1", "city")  # then destroyed: a Trophy of seat 0
    state.systems["3.1"].buildings.pop(city)
    state.players[0].trophies.append(Trophy(owner=FREE, kind="city"))
    sound(state)
    supply = state.free_city_supply
    assert empire.return_campaign_trophy(state, state.players[0].trophies.pop())
    assert state.free_city_supply == supply + 1
    sound(state)


def test_a_regent_builds_a_city_at_imperial_ships_only_ignoring_presence_BR_123_125():
    """Building at Imperial ships (BR-123) opens a system without Loyal pieces only to a
    seat that ignores the Presence Law (BR-125)."""
    state = table(3)
    give_building(state, 0, "2.2", "city")
    assert empire.may_build_building_at(state, 0, "2.2")
    assert not empire.may_build_building_at(state, 1, "2.3")
    assert empire.may_build_building_at(state, 1, "2.3", ignore_presence=True)
    outlaw(state, 1)
    assert not empire.may_build_building_at(state, 1, "2.3", ignore_presence=True)
    sound(state)
