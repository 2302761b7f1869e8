"""Turns and battles through the engine: Prelude resources, pips, the dice (core.chance,
forced here), hit assignment as typed decisions, Outrage, Ransack and raiding."""
from __future__ import annotations

import pytest

import core.chance
from core.errors import ActionRejected, BadParameter, IllegalAction, NotYourTurn
from core.state import Action, encode_msgpack
from plugins.arcs.state import Building
from tests.arcs.flow_helpers import act, answer, clear_map, prompt_of, put, restart_round, table


def leading(card: str, players: int = 3):
    t = table(players, setup_card="3SETUP01")  # clusters 1 and 4 out of play
    clear_map(t)
    restart_round(t, [[card], ["MOB2"], ["MOB3"]][:players], initiative=0)
    answer(t, 0, "lead", card=card)
    if prompt_of(t, 0).kind == "declare":
        answer(t, 0, "declare", ambition="")
    return t


def refused(t, seat, params, error=ActionRejected):
    before = encode_msgpack(t.state)
    with pytest.raises(error):
        t.act(seat, Action("act", params))
    assert encode_msgpack(t.state) == before


def test_prelude_resources_and_pips_ARCS_114_116_159_214_215_216_217():
    """ARCS-214/216: a Fuel buys a Move even on a Construction lead; ARCS-116: it waits aside
    until the Prelude closes; ARCS-114: the first pip closes the Prelude; ARCS-217: an
    Outraged resource buys nothing; ARCS-215: a Weapon lets the pips battle."""
    t = leading("CON4")
    s = t.state
    for r in s.players[0].resources[:3]:
        if r:
            s.supply[r] += 1
    s.players[0].resources[:3] = ["fuel", "weapon", "fuel"]
    s.supply["fuel"] -= 2
    s.supply["weapon"] -= 1
    put(t, "2G", 0, fresh=2)
    supply = s.supply["fuel"]
    act(t, 0, "move", pay=0, origin="2G", path=["3G"], fresh=1)
    assert t.state.turn.aside == ["fuel"] and t.state.supply["fuel"] == supply
    refused(t, 0, {"act": "move", "origin": "2G", "path": ["3G"], "fresh": 1})  # a Construction pip cannot move
    t.state.players[0].outrage.append("fuel")
    t.state.players[0].agents -= 1
    refused(t, 0, {"act": "move", "pay": 2, "origin": "2G", "path": ["3G"], "fresh": 1}, IllegalAction)
    refused(t, 0, {"act": "battle", "system": "3G", "defender": 1, "skirmish": 1}, IllegalAction)
    act(t, 0, "spend", pay=1)
    assert t.state.turn.weapon
    put(t, "3G", 1, fresh=1)
    core_roll = core.chance.roll
    try:
        core.chance.roll = lambda ctx, seat, dice, which, why="": [(k, 5) for k in which]  # blanks
        act(t, 0, "battle", system="3G", defender=1, skirmish=1)
    finally:
        core.chance.roll = core_roll
    s = t.state
    assert s.turn.pips == 2 and not s.turn.prelude  # a 3-pip card, one pip spent and s.turn.aside == []
    assert s.supply["fuel"] == supply + 1  # back once the Prelude closed
    refused(t, 0, {"act": "spend", "pay": 2}, IllegalAction)


def forced(faces):
    """A roll that shows the given (die, face index) pairs, whatever was collected."""
    def roll(ctx, seat, dice, which, why=""):
        ctx.emit("roll", seat=seat, why=why, dice=[{"die": d, "face": f} for d, f in faces])
        return list(faces)
    return roll


def test_intercept_vector_and_too_many_hits_ARCS_176_178_183_187_321(monkeypatch):
    """ARCS-321: three INT against 2 fresh and 1 damaged defending ships: exactly 2 hits on the
    attacker, who splits them (ARCS-183); a split of 3 is refused and changes nothing; a
    destroyed attacking ship is the defender's Trophy (ARCS-187)."""
    t = leading("AGG3")
    put(t, "2.1", 0, fresh=3)
    put(t, "2.1", 1, fresh=2, damaged=1)
    monkeypatch.setattr(core.chance, "roll", forced([("raid", 5)] * 3))
    act(t, 0, "battle", system="2.1", defender=1, raid=3)
    p = prompt_of(t, 0)
    assert p.kind == "arcs.ship_hits" and p.args == {"owner": 0, "hits": 2}
    before = encode_msgpack(t.state)
    with pytest.raises(BadParameter):
        answer(t, 0, "assign_hits", damage_fresh=3)
    with pytest.raises(NotYourTurn):
        answer(t, 1, "assign_hits", destroy_fresh=1)
    assert encode_msgpack(t.state) == before
    answer(t, 0, "assign_hits", destroy_fresh=1)
    s = t.state
    assert (s.systems["2.1"].ships[0].fresh, s.systems["2.1"].ships[0].damaged) == (2, 0)
    assert [(x.owner, x.kind) for x in s.players[1].trophies] == [(0, "ship")]
    assert s.battle is None and prompt_of(t, 0).kind == "arcs.act"


def test_hit_order_city_outrage_ransack_and_raid_ARCS_180_181_190_191_196_198_200_322(monkeypatch):
    """ARCS-322: HIT x3 + BHIT against 1 damaged ship and 1 fresh city: the ship dies, two hits
    destroy the city, the BHIT is lost; ARCS-191: the attacker is Outraged in the planet's
    type; ARCS-196: then Ransacks a Court card with the owner's agent (it becomes a Trophy);
    ARCS-198/200: then the key steals a 1-key resource."""
    t = leading("AGG3")
    s = t.state
    put(t, "2.1", 0, fresh=3)
    put(t, "2.1", 1, damaged=1)
    s.systems["2.1"].buildings.append(Building(kind="city", owner=1))
    s.players[1].cities_on_board[1] = False
    guild = next(c for c in s.court_row if t.rules.game.plugin.default_box().court[c].kind == "guild")
    s.court_agents[guild][1] += 1
    s.players[1].agents -= 1
    if s.players[1].resources[1]:
        s.supply[s.players[1].resources[1]] += 1
    s.players[1].resources[1] = "relic"
    s.supply["relic"] -= 1
    monkeypatch.setattr(core.chance, "roll", forced([("assault", 0), ("skirmish", 0), ("raid", 2)]))
    act(t, 0, "battle", system="2.1", defender=1, assault=1, skirmish=1, raid=1)
    s = t.state
    assert s.systems["2.1"].buildings == [] and s.systems["2.1"].ships[1].total == 0
    assert sorted((x.owner, x.kind) for x in s.players[0].trophies) == [(1, "agent"), (1, "city"), (1, "ship")]
    assert s.players[0].outrage == ["psionic"] and guild in s.players[0].guild
    assert [a.params for a in t.legal(0)] == [{"slot": 1}, {}]  # raid: the relic (cost 1) or done
    answer(t, 0, "steal", slot=1)
    s = t.state
    assert "relic" in s.players[0].resources and s.players[1].resources[1] is None
    assert t.rules.hook.conclave_check_invariants(state=s) == [[]]


def test_battle_needs_a_defender_and_dice_per_ship_ARCS_168_169_171_172_173():
    t = leading("AGG3")
    put(t, "2.1", 0, fresh=2)
    put(t, "2.2", 1, fresh=1)
    t.state.systems["3.1"].buildings.append(Building(kind="starport", owner=1))
    t.state.players[1].starports -= 1
    refused(t, 0, {"act": "battle", "system": "2.1", "defender": 1, "assault": 1}, IllegalAction)  # no defender
    put(t, "2.1", 1, fresh=1)
    refused(t, 0, {"act": "battle", "system": "2.1", "defender": 1, "assault": 3}, IllegalAction)
    refused(t, 0, {"act": "battle", "system": "2.1", "defender": 1, "raid": 1}, IllegalAction)  # ARCS-323
    refused(t, 0, {"act": "battle", "system": "2.1", "defender": 0, "assault": 1}, BadParameter)


def test_bad_turn_answers_are_typed_and_change_nothing_ARCS_144_151_161():
    """An impossible move, an unaffordable build (no resource in the slot, no Loyal piece), a
    malformed answer, a seat out of turn."""
    t = leading("CON4")
    for r in t.state.players[0].resources[:2]:
        t.state.supply[r] += 1
    t.state.players[0].resources[:2] = ["material", None]
    t.state.supply["material"] -= 1
    put(t, "2G", 0, fresh=1)
    refused(t, 0, {"act": "build", "system": "2.1", "what": "city"}, IllegalAction)
    refused(t, 0, {"act": "build", "pay": 1, "system": "2.1", "what": "city"}, BadParameter)
    refused(t, 0, {"act": "move", "pay": 0, "origin": "2G", "path": ["2.1"], "fresh": 1}, IllegalAction)
    refused(t, 0, {"act": "fly", "system": "2.1"}, BadParameter)
    refused(t, 1, {"act": "done"}, NotYourTurn)
    put(t, "2.1", 0, fresh=1)
    act(t, 0, "build", system="2.1", what="city")
    assert t.state.systems["2.1"].buildings[0].owner == 0 and t.state.turn.pips == 2


def test_the_safety_net_after_a_turn_with_nothing_on_the_map_ARCS_271():
    """A seat ending its turn with no ships and no starport on the map places 3 fresh ships
    in a gate of its choice."""
    t = leading("CON4")
    put(t, "2.1", 1, fresh=1)
    act(t, 0, "done")
    p = prompt_of(t, 0)
    assert p.kind == "return_fleet" and {a.params["gate"] for a in p.options} == {"2G", "3G", "5G", "6G"}
    answer(t, 0, "place_fleet", gate="5G")
    assert t.state.systems["5G"].ships[0].fresh == 3


def test_tax_a_city_once_per_turn_and_a_rival_city_with_control_ARCS_136_137_139_141():
    t = leading("ADM4")
    s = t.state
    put(t, "2.1", 0, fresh=2)
    put(t, "2.1", 1, fresh=1)
    s.systems["2.1"].buildings.append(Building(kind="city", owner=1))
    s.players[1].cities_on_board[1] = False
    agents = s.players[1].agents
    act(t, 0, "tax", system="2.1", building=0)
    assert t.state.players[0].captives == [1] and t.state.players[1].agents == agents - 1
    refused(t, 0, {"act": "tax", "system": "2.1", "building": 0}, IllegalAction)
