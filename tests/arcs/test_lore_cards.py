"""The 14 base Lore cards (L01-L14) played on small tables: each card's effect, and each
refusal typed and leaving the state as it was. Lore is permanent, has no suit or raid cost
and is never stolen (ARCS-261, ARCS-203)."""
from __future__ import annotations

import copy

import pytest

from core.errors import ActionRejected, BadParameter, CannotAfford, IllegalAction
from core.flow import Ctx
from plugins.arcs import lore_ops
from plugins.arcs.abilities import Env, OPS, held, modifiers
from plugins.arcs.actions import Move, do_move
from plugins.arcs.battle import ShipHits, total
from plugins.arcs.invariants import problems
from plugins.arcs.outrage import steal_guild_card
from plugins.arcs.scoring import ambition_count
from plugins.arcs.state import ArcsState, Building, Ships
from tests.arcs.test_actions import BOX, bare, put
from tests.arcs.court_helpers import use


def env_for(state: ArcsState) -> Env:
    """An Env whose chance is a Ctx on the state (dice come from the table's RNG, as events)."""
    ctx = Ctx(state, rules=None)
    return Env(state=state, box=BOX, chance=ctx, emit=ctx.emit)


def give(state: ArcsState, seat: int, card: str) -> None:
    """The seat holds that Lore or Leader card (as the draft leaves it)."""
    if card in BOX.leaders:
        state.players[seat].leader = card
    else:
        state.players[seat].lore.append(card)
        lore_ops.grant_lore_slot(state, BOX, seat)


def ability(state: ArcsState, seat: int, op_name: str):
    (found,) = modifiers(state, BOX, seat, op_name)
    return found


def refused(fn, state, *args, error=ActionRejected):
    before = copy.deepcopy(state)
    with pytest.raises(error):
        fn(*args)
    assert state == before


def refused_use(env, u, params, error=ActionRejected):
    refused(use, env.state, env, u, params, error=error)


def test_every_lore_and_leader_op_is_implemented_ARCS_006_259_260():
    """ARCS-006/259/260: every ability of the 14 Lore cards and 8 Leaders is either a usable
    op in the registry or a standing-rule helper the rules call."""
    ops = {a.do for c in (*BOX.lore.values(), *BOX.leaders.values()) for a in c.abilities}
    assert len(BOX.lore) == 14 and len(BOX.leaders) == 8
    for name in ops:
        assert name in OPS or callable(lore_ops.STANDING.get(name)), name


# -- L01 Tool-Priests ----------------------------------------------------------------------------
def test_L01_summon_builds_a_ship_at_a_controlled_rival_city_once_a_turn_ARCS_120_146():
    """L01 Summon (a new action for a Build pip, ARCS-120): a ship at a city in a system the
    holder controls, a Rival's city too; fresh, as the holder controls it (ARCS-146); once a turn."""
    state = bare()
    give(state, 0, "L01")
    put(state, "2.3", 0, fresh=2)
    put(state, "2.3", 1, fresh=1, buildings=[("city", False)])
    env = env_for(state)
    u = ability(state, 0, "build_ship_at_controlled_city")
    assert list(OPS[u.ability.do].candidates(env, u)) == [{"system": "2.3"}]
    supply = state.players[0].ships
    use(env, u, {"system": "2.3"})
    assert state.systems["2.3"].ships[0] == Ships(fresh=3) and state.players[0].ships == supply - 1
    refused_use(env, u, {"system": "2.3"}, error=IllegalAction)  # once per turn
    lore_ops.clear_turn(state)
    use(env, u, {"system": "2.3"})
    assert state.systems["2.3"].ships[0].fresh == 4
    assert problems(BOX, state) == []


def test_L01_summon_refusals_change_nothing():
    state = bare()
    give(state, 0, "L01")
    put(state, "2.3", 0, fresh=1)
    put(state, "2.3", 1, fresh=1, buildings=[("city", False)])  # a tie: nobody controls
    put(state, "3.1", 0, fresh=2)                               # control, but no city
    env = env_for(state)
    u = ability(state, 0, "build_ship_at_controlled_city")
    refused_use(env, u, {"system": "2.3"}, error=IllegalAction)
    refused_use(env, u, {"system": "3.1"}, error=IllegalAction)
    refused_use(env, u, {"system": "1.1"}, error=BadParameter)  # out of play
    refused_use(env, u, {"system": "2.3", "extra": 1}, error=BadParameter)


# -- L02 Galactic Rifles -----------------------------------------------------------------------
def test_L02_fire_rifles_rolls_skirmish_per_fresh_ship_and_hits_next_door_ARCS_172_180_187():
    """L02: one skirmish die per fresh Loyal ship (damaged ones roll nothing; at most 6,
    ARCS-172) against a defender in an adjacent system; each HIT is a hit, ships first
    (ARCS-180), destroyed pieces become Trophies (ARCS-187)."""
    state = bare()
    give(state, 0, "L02")
    put(state, "2G", 0, fresh=8, damaged=2)
    put(state, "2.3", 1, fresh=1, buildings=[("city", False)])
    env = env_for(state)
    u = ability(state, 0, "fire_rifles")
    use(env, u, {"system": "2G", "target": "2.3", "defender": 1})
    (roll,) = [e for e in env.chance.events if e.type == "roll"]
    assert [d["die"] for d in roll.data["dice"]] == ["skirmish"] * 6
    hits = total(BOX.dice, [(d["die"], d["face"]) for d in roll.data["dice"]]).hit
    assert lore_ops.pending_rifle_hits(state)["hits"] == hits
    # the firer splits: the ship takes what it can absorb, the rest falls on the city
    ship_hits = min(hits, 2)
    split = ShipHits(destroy_fresh=1) if ship_hits == 2 else ShipHits(damage_fresh=ship_hits)
    left = hits - ship_hits
    with pytest.raises(BadParameter):  # every hit that can land on a ship must
        lore_ops.assign_rifle_hits(copy.deepcopy(state), 0, ShipHits(), {})
    destroyed = lore_ops.assign_rifle_hits(state, 0, split, {0: min(left, 2)} if left else {})
    assert state.systems["2.3"].ships[1].total == (0 if ship_hits == 2 else 1)
    assert len(destroyed) == (1 if left >= 2 else 0)
    assert len(state.players[0].trophies) == split.destroyed + len(destroyed)
    assert lore_ops.pending_rifle_hits(state) is None


def test_L02_fire_rifles_refusals_change_nothing():
    state = bare()
    give(state, 0, "L02")
    put(state, "2G", 0, damaged=3)  # damaged ships collect no dice
    put(state, "3G", 0, fresh=2)
    put(state, "2.3", 1, fresh=1)
    env = env_for(state)
    u = ability(state, 0, "fire_rifles")
    refused_use(env, u, {"system": "2G", "target": "2.3", "defender": 1}, error=IllegalAction)
    refused_use(env, u, {"system": "3G", "target": "2.3", "defender": 1}, error=BadParameter)  # not adjacent
    refused_use(env, u, {"system": "3G", "target": "2G", "defender": 1}, error=IllegalAction)  # nothing of 1's
    refused_use(env, u, {"system": "3G", "target": "2G", "defender": 7}, error=BadParameter)
    refused(lore_ops.assign_rifle_hits, state, state, 0, ShipHits(), {}, error=IllegalAction)


# -- L03 Sprinter Drives ---------------------------------------------------------------------------
def test_L03_sprinter_drives_fresh_movers_step_once_more():
    """L03: after a move, the fresh ships that moved (not the damaged ones) may each move one
    more time, in groups, once each; the window closes with the move."""
    state = bare()
    give(state, 0, "L03")
    put(state, "2.1", 0, fresh=3, damaged=1)
    move = Move(origin="2.1", fresh=3, damaged=1, path=("2G",))
    do_move(state, 0, move)
    assert lore_ops.open_move_window(state, BOX, 0, move) == held(state, BOX, 0, "move")
    env = env_for(state)
    u = ability(state, 0, "extra_move_fresh")
    refused_use(env, u, {"origin": "2G", "to": "3G", "fresh": 4}, error=IllegalAction)  # the damaged one stays
    refused_use(env, u, {"origin": "2G", "to": "5G", "fresh": 1}, error=BadParameter)  # not adjacent
    use(env, u, {"origin": "2G", "to": "3G", "fresh": 2})
    use(env, u, {"origin": "2G", "to": "2.3", "fresh": 1})
    assert state.systems["3G"].ships[0] == Ships(fresh=2)
    assert state.systems["2.3"].ships[0] == Ships(fresh=1)
    assert state.systems["2G"].ships[0] == Ships(damaged=1)
    refused_use(env, u, {"origin": "3G", "to": "2G", "fresh": 1}, error=IllegalAction)  # no second sprint


def test_L03_catapult_drops_may_sprint_from_where_they_were_left():
    move = Move(origin="2.1", fresh=3, damaged=0, path=("2G", "3G"), drops=((1, 0), (0, 0)))
    assert lore_ops.moved_fresh(move) == {"2G": 1, "3G": 2}


# -- L04 Mirror Plating, L06 Signal Breaker ------------------------------------------------------
def test_L04_mirror_plating_and_L06_signal_breaker_change_the_intercepts_ARCS_178():
    """ARCS-178: any INT means one intercept. L04: the defender adds one INT when assault dice
    were rolled; L06: an attacker whose ships were all fresh at the start ignores one rolled INT."""
    state = bare()
    give(state, 1, "L04")
    assert lore_ops.intercepts(state, BOX, 0, 1, 0, ["assault", "raid"], False) == 1
    assert lore_ops.intercepts(state, BOX, 0, 1, 0, ["skirmish"], False) == 0
    assert lore_ops.intercepts(state, BOX, 1, 0, 0, ["assault"], False) == 0  # only the holder defending
    give(state, 0, "L06")
    assert lore_ops.intercepts(state, BOX, 0, 1, 1, ["skirmish"], True) == 0
    assert lore_ops.intercepts(state, BOX, 0, 1, 1, ["skirmish"], False) == 1  # a damaged attacker
    assert lore_ops.intercepts(state, BOX, 0, 1, 1, ["assault"], True) == 1    # one added, one ignored
    assert lore_ops.intercepts(state, BOX, 0, 2, 2, ["assault"], True) == 1
    # the card library's FAQ: Signal Breaker ignores a rolled intercept, never Mirror Plating's
    assert lore_ops.intercepts(state, BOX, 0, 1, 0, ["assault"], True) == 1


# -- L05 Hidden Harbors ----------------------------------------------------------------------------
def test_L05_hidden_harbors_fresh_ships_and_no_raid_dice_against_a_fresh_starport_ARCS_146_173():
    """L05: the holder's built ships are fresh even in a Rival-controlled system (ARCS-146),
    and raid dice (ARCS-173) are barred against it while it has a fresh defending starport."""
    state = bare()
    give(state, 1, "L05")
    assert lore_ops.builds_ships_fresh(state, BOX, 1) and not lore_ops.builds_ships_fresh(state, BOX, 0)
    put(state, "2.3", 1, buildings=[("starport", False)])
    put(state, "3.3", 1, buildings=[("starport", True)])
    assert lore_ops.raid_dice_barred(state, BOX, "2.3", 1)
    assert not lore_ops.raid_dice_barred(state, BOX, "3.3", 1)  # damaged starport
    assert not lore_ops.raid_dice_barred(state, BOX, "2.3", 0)


# -- L07 Repair Drones -------------------------------------------------------------------------------
def test_L07_repair_drones_repairs_one_attacking_ship_after_battle_ARCS_150():
    state = bare()
    give(state, 0, "L07")
    put(state, "2.3", 0, fresh=1, damaged=2)
    put(state, "3.1", 1, damaged=2)
    assert lore_ops.repair_drones(state, BOX, 0, "2.3")
    assert state.systems["2.3"].ships[0] == Ships(fresh=2, damaged=1)
    assert not lore_ops.repair_drones(state, BOX, 1, "3.1")  # not a holder
    assert state.systems["3.1"].ships[1] == Ships(damaged=2)
    put(state, "3.2", 0, fresh=1)
    assert not lore_ops.repair_drones(state, BOX, 0, "3.2")  # nothing damaged


# -- L08 Gate Ports, L11 Gate Stations ------------------------------------------------------------
def test_L08_gate_ports_starports_in_gates_and_captures_ARCS_030_139():
    """ARCS-030: gates have no slots, but Gate Ports lets its holder build one starport per
    gate; a Rival moving into such a gate the holder controls loses one agent to its Captives."""
    state = bare()
    give(state, 0, "L08")
    assert lore_ops.gate_build_allowed(state, BOX, 0, "2G", "starport")
    assert not lore_ops.gate_build_allowed(state, BOX, 0, "2G", "city")
    assert not lore_ops.gate_build_allowed(state, BOX, 1, "2G", "starport")
    assert not lore_ops.gate_build_allowed(state, BOX, 0, "2.3", "starport")  # a planet: slots as usual
    put(state, "2G", 0, fresh=2, buildings=[("starport", False)])
    assert not lore_ops.gate_build_allowed(state, BOX, 0, "2G", "starport")  # one per gate
    agents = state.players[1].agents
    assert lore_ops.gate_port_capture(state, BOX, 1, "2G", controller_before=0) == 0
    assert state.players[1].agents == agents - 1 and state.players[0].captives == [1]
    assert lore_ops.gate_port_capture(state, BOX, 1, "2G", controller_before=None) is None
    assert lore_ops.gate_port_capture(state, BOX, 0, "2G", controller_before=0) is None
    state.systems["2G"].buildings[0] = Building(kind="starport", owner=0, damaged=True)
    assert lore_ops.gate_port_capture(state, BOX, 1, "2G", controller_before=0) is None
    assert problems(BOX, state) == []


def test_L11_gate_stations_city_in_a_gate_has_its_cluster_city_types_ARCS_030_138():
    """L11: one city per gate; it has the type of every city's planet in its cluster, the
    taxer picking one (ARCS-138); Nurture (L10) may tax it."""
    state = bare()
    give(state, 0, "L11")
    give(state, 0, "L10")
    assert lore_ops.gate_build_allowed(state, BOX, 0, "2G", "city")
    put(state, "2G", 0, fresh=1, buildings=[("city", False)])
    assert not lore_ops.gate_build_allowed(state, BOX, 0, "2G", "city")
    assert lore_ops.city_types(state, BOX, "2G") == []
    put(state, "2.1", 1, buildings=[("city", False)])   # Psionic
    put(state, "2.3", 2, buildings=[("city", False)])   # Relic
    assert lore_ops.city_types(state, BOX, "2G") == ["psionic", "relic"]
    assert lore_ops.city_types(state, BOX, "2.3") == ["relic"]
    env = env_for(state)
    u = ability(state, 0, "tax_loyal_city")
    refused_use(env, u, {"system": "2G", "building": 0, "resource": "fuel"}, error=BadParameter)
    use(env, u, {"system": "2G", "building": 0, "resource": "relic"})
    assert "relic" in state.players[0].resources


# -- L09 Cloud Cities ---------------------------------------------------------------------------------
def test_L09_cloud_city_one_beyond_the_slots_for_a_resource_of_the_planet_ARCS_029():
    """ARCS-029: a slot holds one building; Cloud Cities adds one city beyond a full planet's
    slots (one per planet), paid with a resource of the planet's type."""
    state = bare()
    give(state, 0, "L09")
    put(state, "2.1", 1, buildings=[("city", False)])  # 2.1: Psionic, one slot, full
    put(state, "2.1", 0, fresh=1)
    assert lore_ops.cloud_city_allowed(state, BOX, 0, "2.1")
    assert not lore_ops.cloud_city_allowed(state, BOX, 1, "2.1")
    assert not lore_ops.cloud_city_allowed(state, BOX, 0, "2.3")  # slots free: build as usual
    assert not lore_ops.cloud_city_allowed(state, BOX, 0, "2G")
    state.players[0].resources[0] = "fuel"
    state.supply["fuel"] -= 1
    refused(lore_ops.pay_cloud_city, state, state, BOX, 0, "2.1", 0, error=CannotAfford)
    state.players[0].resources[1] = "psionic"
    state.supply["psionic"] -= 1
    lore_ops.pay_cloud_city(state, BOX, 0, "2.1", 1)
    assert state.players[0].resources[1] is None
    put(state, "2.1", 0, buildings=[("city", False)])
    assert not lore_ops.cloud_city_allowed(state, BOX, 0, "2.1")  # one per planet
    assert problems(BOX, state) == []


# -- L10 Living Structures ------------------------------------------------------------------------
def test_L10_nurture_taxes_a_loyal_city_once_ARCS_120_138_141():
    """L10 Nurture (a Build pip): tax a Loyal city (ARCS-138), at most once a turn per city
    (ARCS-141); never a Rival's."""
    state = bare()
    give(state, 0, "L10")
    put(state, "2.3", 0, buildings=[("city", False)])  # Relic; no ship needed for a Loyal city
    put(state, "3.1", 1, buildings=[("city", False)])
    put(state, "3.1", 0, fresh=3)
    env = env_for(state)
    u = ability(state, 0, "tax_loyal_city")
    assert list(OPS[u.ability.do].candidates(env, u)) == [{"system": "2.3", "building": 0, "resource": ""}]
    refused_use(env, u, {"system": "2.3", "building": 0, "resource": "relic"}, error=BadParameter)
    refused_use(env, u, {"system": "3.1", "building": 0}, error=IllegalAction)  # a Rival's
    use(env, u, {"system": "2.3", "building": 0})
    assert state.players[0].resources.count("relic") == 1
    refused_use(env, u, {"system": "2.3", "building": 0}, error=IllegalAction)  # taxed this turn
    assert problems(BOX, state) == []


def test_L10_prune_replaces_a_starport_with_a_city_and_back_ARCS_277_249():
    """L10 Prune (a Repair pip): a replace (ARCS-277): same spot, same damage; the city comes
    off the board leftmost and goes back rightmost (ARCS-249)."""
    state = bare()
    give(state, 0, "L10")
    put(state, "2.3", 0, buildings=[("starport", True)])
    env = env_for(state)
    u = ability(state, 0, "swap_starport_city")
    ports, board = state.players[0].starports, list(state.players[0].cities_on_board)
    use(env, u, {"system": "2.3", "building": 0})
    assert state.systems["2.3"].buildings == [Building(kind="city", owner=0, damaged=True)]
    assert state.players[0].starports == ports + 1
    assert state.players[0].cities_on_board == [False] + board[1:]
    use(env, u, {"system": "2.3", "building": 0})
    assert state.systems["2.3"].buildings == [Building(kind="starport", owner=0, damaged=True)]
    assert state.players[0].cities_on_board == board
    assert problems(BOX, state) == []


def test_L10_prune_refusals_change_nothing():
    state = bare()
    give(state, 0, "L10")
    put(state, "2.3", 0, buildings=[("starport", False)])
    put(state, "3.3", 1, buildings=[("city", False)])
    env = env_for(state)
    u = ability(state, 0, "swap_starport_city")
    refused_use(env, u, {"system": "3.3", "building": 0}, error=BadParameter)  # a Rival's
    refused_use(env, u, {"system": "2.3", "building": 3}, error=BadParameter)
    state.players[0].cities_on_board = [False] * 5
    refused_use(env, u, {"system": "2.3", "building": 0}, error=IllegalAction)  # no city left to place


# -- L12 Railgun Arrays -------------------------------------------------------------------------------
def test_L12_railgun_arrays_one_hit_before_dice_if_a_defending_ship_is_fresh():
    state = bare()
    give(state, 1, "L12")
    put(state, "2.3", 1, fresh=1)
    put(state, "3.1", 1, damaged=2)
    assert lore_ops.railgun_hits(state, BOX, "2.3", 1) == 1
    assert lore_ops.railgun_hits(state, BOX, "3.1", 1) == 0
    put(state, "2.3", 2, fresh=1)
    assert lore_ops.railgun_hits(state, BOX, "2.3", 2) == 0  # not a holder


# -- L13 Ancient Holdings -----------------------------------------------------------------------------
def test_L13_ancient_holdings_a_seventh_slot_raid_cost_4_counting_for_ambitions_ARCS_208_212_230():
    """L13: one more always-open slot (ARCS-208) with raid cost 4 (beside the board's,
    ARCS-212); its resource is spendable and counts for ambitions (ARCS-230)."""
    state = bare()
    give(state, 0, "L13")
    assert len(state.players[0].resources) == 7
    assert lore_ops.lore_open_slots(BOX, state, 0)[-1] == lore_ops.LORE_SLOT
    assert lore_ops.lore_empty_slots(BOX, state, 0)[-1] == lore_ops.LORE_SLOT
    assert lore_ops.slot_raid_cost(BOX, state, 0, lore_ops.LORE_SLOT) == 4
    assert lore_ops.slot_raid_cost(BOX, state, 0, 0) == 3
    state.players[0].resources[lore_ops.LORE_SLOT] = "relic"
    state.supply["relic"] -= 1
    assert ambition_count(BOX, state, state.players[0], "keeper") == 1
    assert problems(BOX, state) == []
    lore_ops.grant_lore_slot(state, BOX, 0)
    assert len(state.players[0].resources) == 7  # one slot, however often asked


def test_lore_is_never_stolen_ARCS_203_261():
    """ARCS-203/261: a raid can take Guild cards, never Lore (no suit, no raid cost)."""
    state = bare()
    give(state, 1, "L13")
    assert all(not hasattr(BOX.lore["L13"], name) for name in ("suit", "raid_cost"))
    refused(steal_guild_card, state, BOX, state, 0, 1, "L13", 9, error=BadParameter)


# -- L14 Seeker Torpedoes ----------------------------------------------------------------------------
def test_L14_seeker_torpedoes_reroll_an_assault_die_per_fresh_attacker():
    """L14: after rolling, up to one assault die per fresh Loyal attacking ship is rolled again."""
    state = bare()
    give(state, 0, "L14")
    put(state, "2.3", 0, fresh=2, damaged=3)
    assert lore_ops.reroll_limit(state, BOX, 0, "2.3", "assault") == 2
    assert lore_ops.reroll_limit(state, BOX, 0, "2.3", "skirmish") == 0
    assert lore_ops.reroll_limit(state, BOX, 1, "2.3", "assault") == 0
    env = env_for(state)
    rolled = [("assault", 5), ("skirmish", 4), ("assault", 5), ("assault", 5)]
    refused(lore_ops.reroll, state, env, 0, "2.3", rolled, [0, 2, 3], error=IllegalAction)  # over the limit
    refused(lore_ops.reroll, state, env, 0, "2.3", rolled, [1], error=IllegalAction)       # a skirmish die
    refused(lore_ops.reroll, state, env, 0, "2.3", rolled, [0, 0], error=BadParameter)
    out = lore_ops.reroll(env, 0, "2.3", rolled, [0, 3])
    (roll,) = [e for e in env.chance.events if e.type == "roll"]
    assert [d["die"] for d in roll.data["dice"]] == ["assault", "assault"]
    assert out[1:3] == rolled[1:3]
    assert [out[0], out[3]] == [("assault", d["face"]) for d in roll.data["dice"]]
