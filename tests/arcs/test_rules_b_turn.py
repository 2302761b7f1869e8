"""Turn rules proven through the engine (digest sections 6 and 8): the Prelude's spends one
after another, who may not spend, Fuel's Move with Catapult, several battles a turn, what
a spend does to the supply and the other slots, and a resource spent for nothing."""
from __future__ import annotations

import pytest

import core.chance
from core.engine import legal_actions
from core.errors import ActionRejected, IllegalAction
from core.state import Action, encode_msgpack
from plugins.arcs.state import Building
from tests.arcs.flow_helpers import act, answer, clear_map, prompt_of, put, restart_round, set_slots, table


def bare(players: int = 3):
    t = table(players, setup_card="3SETUP01")  # clusters 1 and 4 out of play
    clear_map(t)
    for seat in range(players):  # a ship each far away: no safety net (ARCS-271) interferes
        put(t, "6.3", seat, fresh=1)
    return t


def lead(t, card: str, hands=None):
    restart_round(t, hands or [[card], ["MOB2"], ["MOB3"]], initiative=0)
    answer(t, 0, "lead", card=card)
    if prompt_of(t, 0).kind == "declare":
        answer(t, 0, "declare", ambition="")


slots = set_slots  # the seat's resource slots hold exactly these (flow_helpers)


def refused(t, seat, params, error=ActionRejected):
    before = encode_msgpack(t.state)
    with pytest.raises(error):
        t.act(seat, Action("act", params))
    assert encode_msgpack(t.state) == before


def blanks(ctx, seat, dice, which, why=""):
    ctx.emit("roll", seat=seat, why=why, dice=[{"die": d, "face": 5} for d in which])
    return [(d, 5) for d in which]  # face 6 of every die: assault and skirmish blank, raid INT


def test_prelude_spends_resolve_one_at_a_time_ARCS_115():
    """ARCS-115: two Prelude actions in a row, the second relying on the first having fully
    resolved: a Fuel moves a ship onto an empty planet, then a Material builds a city there
    (which needs that Loyal ship); the Prelude is still open after both, and a pip follows."""
    t = bare()
    lead(t, "CON4")
    slots(t, 0, ["fuel", "material", None])
    put(t, "2G", 0, fresh=1)
    refused(t, 0, {"act": "build", "pay": 1, "system": "2.3", "what": "city"}, IllegalAction)  # no piece there yet
    act(t, 0, "move", pay=0, origin="2G", path=["2.3"], fresh=1)
    assert t.state.systems["2.3"].ships[0].fresh == 1 and t.state.turn.prelude
    act(t, 0, "build", pay=1, system="2.3", what="city")
    s = t.state
    assert [(b.kind, b.owner) for b in s.systems["2.3"].buildings] == [("city", 0)]
    assert s.turn.prelude and s.turn.pips == 3 and s.turn.aside == ["fuel", "material"]
    act(t, 0, "build", system="2.3", what="starport")
    assert not t.state.turn.prelude and t.state.turn.pips == 2


def test_no_prelude_for_a_seat_that_passed_or_has_no_cards_ARCS_119():
    """ARCS-119: the holder who passes gets no turn that round, so no Prelude: nothing is open
    to it and a spend is refused; a seat with an empty hand is skipped and never offered a
    spend either, though it holds resources."""
    t = bare()
    restart_round(t, [["ADM4", "CON3"], ["MOB2"], []], initiative=0)
    slots(t, 0, ["fuel", "material", "relic"])
    slots(t, 2, ["fuel", "material", "relic"])
    answer(t, 0, "pass")
    s = t.state
    assert s.initiative == 1 and s.turn is None and prompt_of(t, 1).kind == "lead"
    assert legal_actions(s, 0, t.rules) == [] and legal_actions(s, 2, t.rules) == []
    before = encode_msgpack(s)
    with pytest.raises(ActionRejected):
        t.act(0, Action("act", {"act": "spend", "pay": 0}))
    assert encode_msgpack(t.state) == before
    answer(t, 1, "lead", card="MOB2")
    if prompt_of(t, 1).kind == "declare":
        answer(t, 1, "declare", ambition="")
    act(t, 1, "done")
    assert prompt_of(t, 0).kind == "follow"  # seat 0 still holds cards: it follows this round
    assert legal_actions(t.state, 2, t.rules) == []
    answer(t, 0, "play", card="CON3", kind="pivot")
    answer(t, 0, "seize", card="")
    act(t, 0, "done")
    # seat 2 (no cards) was skipped: the round is over without it acting or spending
    assert t.state.players[2].resources[:3] == ["fuel", "material", "relic"]
    assert all(p.seat != 2 for p in t.state.prompts)


def test_fuel_in_the_prelude_moves_with_catapult_ARCS_159():
    """ARCS-159: a Fuel spent on an Administration lead (whose pips cannot move) buys a Move
    by the Move rules: from a system with a Loyal starport it Catapults gate to gate, leaves
    a ship behind on the way and ends on entering a planet; without a starport it is one step."""
    t = bare()
    lead(t, "ADM4")
    slots(t, 0, ["fuel", "fuel", None])
    s = t.state
    s.systems["2.2"].buildings.append(Building(kind="starport", owner=0))
    s.players[0].starports -= 1
    put(t, "2.2", 0, fresh=3)
    put(t, "3.2", 0, fresh=1)
    refused(t, 0, {"act": "move", "origin": "2.2", "path": ["2G"], "fresh": 1}, IllegalAction)  # no pip move
    act(t, 0, "move", pay=0, origin="2.2", path=["2G", "3G", "3.1"], fresh=3, drops=[[1, 0], [0, 0], [0, 0]])
    s = t.state
    assert (s.systems["2.2"].ships[0].total, s.systems["2G"].ships[0].fresh, s.systems["3.1"].ships[0].fresh) == (0, 1, 2)
    refused(t, 0, {"act": "move", "pay": 1, "origin": "3.2", "path": ["3G", "2G"], "fresh": 1}, IllegalAction)
    act(t, 0, "move", pay=1, origin="3.2", path=["3G"], fresh=1)
    assert t.state.systems["3G"].ships[0].fresh == 1


def test_several_battles_in_one_turn_in_the_same_system_ARCS_189(monkeypatch):
    """ARCS-189: each Aggression pip pays one Battle; the same system may be battled again
    at once. A Weapon-enabled Construction pip pays a Battle the same way."""
    monkeypatch.setattr(core.chance, "roll", blanks)
    t = bare()
    lead(t, "AGG3")  # 2 pips
    put(t, "2.1", 0, fresh=2)
    put(t, "2.1", 1, fresh=1)
    rolls = 0
    for left in (1, 0):
        events = act(t, 0, "battle", system="2.1", defender=1, skirmish=2)
        rolls += sum(e.type == "roll" for e in events)
        assert t.state.turn is None or t.state.turn.pips == left
    assert rolls == 2
    t = bare()
    lead(t, "CON4")  # 3 pips, none of which battles without a Weapon
    slots(t, 0, ["weapon", None, None])
    put(t, "2.1", 0, fresh=2)
    put(t, "2.1", 1, fresh=1)
    refused(t, 0, {"act": "battle", "system": "2.1", "defender": 1, "skirmish": 1}, IllegalAction)
    act(t, 0, "spend", pay=0)
    for left in (2, 1):
        act(t, 0, "battle", system="2.1", defender=1, skirmish=1)
        assert t.state.turn.pips == left


def test_a_spend_returns_to_the_supply_and_moves_no_other_token_ARCS_213_210():
    """ARCS-213: a spent resource goes back to the general supply (once the Prelude closes,
    ARCS-116); ARCS-210 (the part the engine can show): a token leaving does not let the
    others be rearranged: they stay in their slots, the spent slot stays empty."""
    t = bare()
    lead(t, "CON4")
    slots(t, 0, ["material", "fuel", "relic"])
    put(t, "2.3", 0, fresh=1)
    before = t.state.supply["material"]
    act(t, 0, "build", pay=0, system="2.3", what="city")
    assert t.state.players[0].resources[:3] == [None, "fuel", "relic"]
    act(t, 0, "build", system="2.3", what="starport")  # the first pip closes the Prelude
    s = t.state
    assert s.supply["material"] == before + 1 and s.turn.aside == []
    assert s.players[0].resources[:3] == [None, "fuel", "relic"]


def test_resource_prelude_actions_ignore_the_played_suit_ARCS_216(monkeypatch):
    """ARCS-216: after a Mobilization Pivot on an Aggression lead a Material still buys a
    Build; a Psionic buys an action of the lead suit (a Battle), not one only the played
    Mobilization card offers (Influence)."""
    monkeypatch.setattr(core.chance, "roll", blanks)
    t = bare()
    restart_round(t, [["AGG3"], ["MOB2"], ["MOB3"]], initiative=0)
    answer(t, 0, "lead", card="AGG3")
    answer(t, 0, "declare", ambition="")
    act(t, 0, "done")
    answer(t, 1, "play", card="MOB2", kind="pivot")  # its last card: no seize to offer
    s = t.state
    assert s.turn.seat == 1 and s.turn.actions == ["move", "influence"]
    slots(t, 1, ["material", "psionic", "psionic"])
    put(t, "2.1", 1, fresh=1)
    put(t, "2.1", 0, fresh=1)
    refused(t, 1, {"act": "build", "system": "2.1", "what": "city"}, IllegalAction)  # not with the pip
    act(t, 1, "build", pay=0, system="2.1", what="city")
    assert [(b.kind, b.owner) for b in t.state.systems["2.1"].buildings] == [("city", 1)]
    card = t.state.court_row[0]
    refused(t, 1, {"act": "influence", "pay": 1, "card": card}, IllegalAction)
    events = act(t, 1, "battle", pay=1, system="2.1", defender=0, skirmish=1)
    assert any(e.type == "battle" for e in events)


def test_a_resource_may_be_spent_for_no_effect_ARCS_220():
    """ARCS-220: a Relic with no card to secure, and a Fuel the seat is Outraged in, may
    still be spent in the Prelude for nothing; each leaves its slot for the supply."""
    t = bare()
    lead(t, "CON4")
    slots(t, 0, ["relic", "fuel", None])
    s = t.state
    s.players[0].outrage.append("fuel")
    s.players[0].agents -= 1
    relic, fuel = s.supply["relic"], s.supply["fuel"]
    act(t, 0, "spend", pay=0)
    act(t, 0, "spend", pay=1)
    s = t.state
    assert s.players[0].resources[:2] == [None, None] and s.turn.aside == ["relic", "fuel"]
    assert s.turn.prelude and s.turn.pips == 3 and not s.turn.weapon
    act(t, 0, "done")
    assert (t.state.supply["relic"], t.state.supply["fuel"]) == (relic + 1, fuel + 1)
