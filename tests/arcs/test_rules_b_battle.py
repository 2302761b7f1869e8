"""Battle, Outrage and raiding through the engine (digest 7.8-7.10), the dice forced
through `core.chance.roll`: who attacks and defends, the order the symbols resolve in,
self-hits, keys lost with no ship or at the battle's end, raid costs, and each destroyed
city's Outrage then Ransack (also outside battle)."""
from __future__ import annotations

import pytest

import core.chance
from core.engine import legal_actions
from core.errors import IllegalAction, NotYourTurn
from plugins.arcs.content import default_box
from plugins.arcs.state import Building
from tests.arcs.flow_helpers import act, answer, place_first, prompt_of, put
from tests.arcs.test_abilities_in_play import own
from tests.arcs.test_rules_b_pieces import city
from tests.arcs.test_rules_b_turn import bare, lead, refused, slots

BOX = default_box()


def rolls(monkeypatch, faces):
    """Every battle roll shows these (die, face index) pairs; returns the list of rollers."""
    rollers = []

    def roll(ctx, seat, dice, which, why=""):
        rollers.append(seat)
        ctx.emit("roll", seat=seat, why=why, dice=[{"die": d, "face": f} for d, f in faces])
        return list(faces)
    monkeypatch.setattr(core.chance, "roll", roll)
    return rollers


def starport(t, system: str, seat: int) -> None:
    t.state.systems[system].buildings.append(Building(kind="starport", owner=seat))
    t.state.players[seat].starports -= 1


def in_row(t, cards: list[str], agents: dict[str, list[int]]) -> None:
    """These cards take the Court row's first places, with these agents on them."""
    s = t.state
    for i, card in enumerate(cards):
        if card in s.court_row:
            continue
        s.court_deck.remove(card)
        old = s.court_row[i]
        s.court_deck.append(old)
        s.court_agents.pop(old)
        s.court_row[i] = card
        s.court_agents[card] = [0] * len(s.players)
    for card, per_seat in agents.items():
        for seat, n in enumerate(per_seat):
            s.court_agents[card][seat] += n
            s.players[seat].agents -= n


def test_every_loyal_ship_in_the_system_attacks_dice_or_not_ARCS_168(monkeypatch):
    """ARCS-168: a battle in a gate with one die from three ships: the intercept (3 fresh
    defending ships) hits all three attacking ships, not only the one that rolled; a system
    without a Loyal ship cannot be battled in."""
    rolls(monkeypatch, [("raid", 5)])  # INT
    t = bare()
    lead(t, "AGG3")
    put(t, "3G", 0, fresh=3)
    put(t, "3G", 1, fresh=3)
    put(t, "2G", 1, fresh=1)
    refused(t, 0, {"act": "battle", "system": "2G", "defender": 1, "skirmish": 1}, IllegalAction)
    act(t, 0, "battle", system="3G", defender=1, raid=1)
    p = prompt_of(t, 0)
    assert p.kind == "arcs.ship_hits" and p.args == {"owner": 0, "hits": 3}
    answer(t, 0, "assign_hits", damage_fresh=3)
    assert (t.state.systems["3G"].ships[0].fresh, t.state.systems["3G"].ships[0].damaged) == (0, 3)


def test_one_rival_with_a_piece_there_defends_with_all_its_pieces_ARCS_169(monkeypatch):
    """ARCS-169: the defender is one Rival with a piece in the system, a building being
    enough; a Rival with nothing there cannot be chosen; the defender's ship and then its
    starport both take the hits."""
    rolls(monkeypatch, [("assault", 0), ("assault", 0)])  # HIT x4
    t = bare()
    lead(t, "AGG3")
    put(t, "2.3", 0, fresh=2)
    starport(t, "2.3", 1)
    refused(t, 0, {"act": "battle", "system": "2.3", "defender": 2, "assault": 1}, IllegalAction)
    act(t, 0, "battle", system="2.3", defender=1, assault=1)  # a starport alone defends
    assert t.state.systems["2.3"].buildings == []
    put(t, "2.3", 1, fresh=1)
    starport(t, "2.3", 1)
    act(t, 0, "battle", system="2.3", defender=1, assault=2)
    s = t.state
    assert s.systems["2.3"].ships[1].total == 0 and s.systems["2.3"].buildings == []
    assert sorted(x.kind for x in s.players[0].trophies) == ["ship", "starport", "starport"]


def test_a_third_players_pieces_are_not_involved_ARCS_170(monkeypatch):
    """ARCS-170: seat 2's fresh ships and city in the battle system neither intercept nor take
    any hit: the intercept counts seat 1's one fresh ship, the HIT goes to seat 1's ship and
    the BHIT, with no building of seat 1 there, is lost rather than hitting seat 2's city."""
    rolls(monkeypatch, [("assault", 4), ("raid", 3)])  # HIT + INT, BHIT + SELF
    t = bare()
    lead(t, "AGG3")
    put(t, "2.3", 0, fresh=3)
    put(t, "2.3", 1, fresh=1)
    put(t, "2.3", 2, fresh=3)
    city(t, "2.3", 2)
    act(t, 0, "battle", system="2.3", defender=1, assault=1, raid=1)
    p = prompt_of(t, 0)  # SELF damaged one ship; now the intercept: exactly one hit
    assert p.kind == "arcs.ship_hits" and p.args == {"owner": 0, "hits": 1}
    answer(t, 0, "assign_hits", damage_fresh=1)
    s = t.state
    here = s.systems["2.3"]
    assert s.battle is None
    assert (here.ships[1].fresh, here.ships[1].damaged) == (0, 1)
    assert (here.ships[2].fresh, here.ships[2].damaged) == (3, 0)
    assert [(b.owner, b.damaged) for b in here.buildings] == [(2, False)]


def test_symbols_resolve_self_int_hit_bhit_key_in_one_roll_ARCS_176_184(monkeypatch):
    """ARCS-176: SELF first, then the intercept (counting the defender's 2 fresh ships, before
    the HITs touch them), then the HITs on the defender, then the keys; ARCS-184: the whole
    battle is one roll, the attacker's; the defender never rolls nor chooses."""
    rollers = rolls(monkeypatch, [("assault", 1), ("assault", 4), ("raid", 0)])  # HIT 3, SELF, INT 2, KEY 2
    t = bare()
    lead(t, "AGG3")
    put(t, "2.3", 0, fresh=3, damaged=1)
    put(t, "2.3", 1, fresh=2)
    slots(t, 0, [None, None])
    slots(t, 1, [None, "fuel"])
    events = act(t, 0, "battle", system="2.3", defender=1, assault=2, raid=1)
    p = prompt_of(t, 0)
    assert p.kind == "arcs.ship_hits" and p.args == {"owner": 0, "hits": 1}  # SELF first
    assert prompt_of(t, 1) is None
    events += answer(t, 0, "assign_hits", damage_fresh=1)
    p = prompt_of(t, 0)
    assert p.kind == "arcs.ship_hits" and p.args == {"owner": 0, "hits": 2}  # then the intercept
    events += answer(t, 0, "assign_hits", destroy_damaged=2)
    hits = [(e.data["owner"], e.data["damaged"], e.data["destroyed"]) for e in events if e.type == "ships_hit"]
    assert hits == [(0, 1, 0), (0, 0, 2), (1, 1, 1)]  # SELF, INT, then the 3 HITs
    assert prompt_of(t, 0).kind == "raid" and prompt_of(t, 1) is None  # the keys come last
    answer(t, 0, "steal", slot=1)
    place_first(t, 0)  # ARCS-202/209: the thief places it (two empty slots: a choice)
    assert rollers == [0] and sum(e.type == "roll" for e in events) == 1
    assert t.state.players[0].resources[:2] == ["fuel", None] and t.state.players[1].resources[1] is None


def test_each_self_hit_lands_on_an_attacking_ship_of_the_attackers_choice_ARCS_177(monkeypatch):
    """ARCS-177: two SELF hits on one fresh and one damaged attacking ship: the attacker (and
    not the defender) chooses between destroying the fresh one or damaging it and destroying
    the damaged one; a split of more hits than rolled is refused."""
    rolls(monkeypatch, [("raid", 3), ("raid", 3)])  # BHIT + SELF twice
    t = bare()
    lead(t, "AGG3")
    put(t, "2.3", 0, fresh=1, damaged=1)
    put(t, "2.3", 1, fresh=1)
    act(t, 0, "battle", system="2.3", defender=1, raid=2)
    p = prompt_of(t, 0)
    assert p.kind == "arcs.ship_hits" and p.args == {"owner": 0, "hits": 2}
    choices = [a.params for a in legal_actions(t.state, 0, t.rules)]
    assert {"damage_fresh": 1, "destroy_fresh": 0, "destroy_damaged": 1} in choices
    assert {"damage_fresh": 0, "destroy_fresh": 1, "destroy_damaged": 0} in choices
    with pytest.raises(NotYourTurn):
        answer(t, 1, "assign_hits", destroy_fresh=1)
    answer(t, 0, "assign_hits", destroy_fresh=1)
    here = t.state.systems["2.3"]
    assert (here.ships[0].fresh, here.ships[0].damaged) == (0, 1)
    assert [x.kind for x in t.state.players[1].trophies] == ["ship"]


def test_keys_are_lost_without_an_attacking_ship_left_ARCS_182(monkeypatch):
    """ARCS-182: a KEY with a SELF that destroys the only attacking ship raids nothing (the
    battle ends, the defender keeps its resource); with a second ship left the key raids."""
    rolls(monkeypatch, [("raid", 1)])  # KEY + SELF
    t = bare()
    lead(t, "AGG3")
    put(t, "2.3", 0, damaged=1)
    put(t, "2.3", 1, fresh=1)
    slots(t, 1, [None, "fuel"])
    act(t, 0, "battle", system="2.3", defender=1, raid=1)
    s = t.state
    assert s.battle is None and s.systems["2.3"].ships[0].total == 0 and s.players[1].resources[1] == "fuel"
    assert prompt_of(t, 0).kind == "arcs.act"
    put(t, "2.3", 0, damaged=2)
    act(t, 0, "battle", system="2.3", defender=1, raid=1)
    assert prompt_of(t, 0).kind == "raid"


def test_raid_costs_are_the_slots_and_the_cards_ARCS_201_204(monkeypatch):
    """ARCS-201: with 2 keys the defender's token in slot 2 (cost 1), Galactic Bards (BC25,
    printed cost 1) and Elder Broker (BC23, cost 2) can be taken, its token in slot 1 (cost
    3) and Loyal Engineers (BC01, cost 3) cannot; with 1 key left Elder Broker drops out.
    ARCS-204: a key still unspent when the attacker stops is lost: the next battle, rolling
    no key, raids nothing."""
    faces = [("raid", 0)]  # KEY x2 + INT (no fresh defending ship: no intercept hit)
    rolls(monkeypatch, faces)
    t = bare()
    lead(t, "AGG3")
    put(t, "2.3", 0, fresh=1)
    starport(t, "2.3", 1)
    slots(t, 1, ["relic", "fuel"])
    for card in ("BC01", "BC23", "BC25"):
        own(t, 1, card)
    act(t, 0, "battle", system="2.3", defender=1, raid=1)
    p = prompt_of(t, 0)
    assert p.kind == "raid"
    assert [a.params for a in p.options] == [{"slot": 1}, {"card": "BC23"}, {"card": "BC25"}, {}]
    answer(t, 0, "steal", card="BC25")
    assert t.state.battle.key == 1 and "BC25" in t.state.players[0].guild
    assert [a.params for a in prompt_of(t, 0).options] == [{"slot": 1}, {}]
    answer(t, 0, "steal")  # stop with a key left
    assert t.state.battle is None and prompt_of(t, 0).kind == "arcs.act"
    faces[:] = [("skirmish", 5)]  # a blank: no key this time
    act(t, 0, "battle", system="2.3", defender=1, skirmish=1)  # the last pip: the turn ends
    assert t.state.battle is None and all(p.kind != "raid" for p in t.state.prompts)
    assert t.state.players[1].resources[:2] == ["relic", "fuel"]


def test_each_destroyed_city_its_outrage_then_its_ransack_ARCS_190_199(monkeypatch):
    """ARCS-199 (ruling A-R4): two cities of seat 1 destroyed in one battle: the first city's
    Outrage (ARCS-190: before its Ransack, the attacker's Relic is already gone), then its
    Ransack (the attacker takes the Relic Guild card Elder Broker), then the second city's
    Outrage, which discards that card (Outraged already: no second agent), then its Ransack
    of the card left."""
    rolls(monkeypatch, [("assault", 0), ("assault", 0)])  # HIT x4: both fresh cities destroyed
    t = bare()
    lead(t, "AGG3")
    put(t, "2.3", 0, fresh=2)
    city(t, "2.3", 1)
    city(t, "2.3", 1)
    slots(t, 0, ["relic", "fuel"])
    other = next(c for c in t.state.court_deck if BOX.court[c].kind == "guild" and BOX.court[c].suit == "fuel")
    in_row(t, ["BC23", other], {"BC23": [0, 1, 0], other: [0, 1, 0]})
    agents = t.state.players[0].agents
    act(t, 0, "battle", system="2.3", defender=1, assault=2)
    s = t.state
    assert prompt_of(t, 0).kind == "ransack" and {a.params["card"] for a in prompt_of(t, 0).options} == {"BC23", other}
    assert s.players[0].outrage == ["relic"] and s.players[0].resources[0] is None  # Outrage came first
    answer(t, 0, "ransack", card="BC23")
    s = t.state
    assert s.battle is None
    assert "BC23" in s.court_discard and "BC23" not in s.players[0].guild  # discarded by the 2nd Outrage
    assert other in s.players[0].guild  # the second Ransack, forced: the one card left
    assert s.players[0].outrage == ["relic"] and s.players[0].agents == agents - 1
    assert [x.kind for x in s.players[0].trophies].count("agent") == 2


def test_a_city_destroyed_outside_battle_still_outrages_and_ransacks_ARCS_188_190(monkeypatch):
    """ARCS-188, ARCS-190: Fire Rifles (L02, not a battle) destroying a Rival city next door makes
    the firer Outraged in the planet's type and then Ransack a Court card with the owner's
    agent (it becomes a Trophy)."""
    monkeypatch.setattr(core.chance, "roll", lambda ctx, seat, dice, which, why="": [("skirmish", 0)] * len(which))
    t = bare()
    own(t, 0, "L02")
    lead(t, "AGG3")
    put(t, "2G", 0, fresh=2)
    city(t, "2.3", 1)
    slots(t, 0, ["relic", "fuel"])
    card = t.state.court_row[0]
    in_row(t, [card], {card: [0, 1, 0]})
    act(t, 0, "ability", card="L02", index=0, params={"system": "2G", "target": "2.3", "defender": 1})
    split = next(a for a in legal_actions(t.state, 0, t.rules) if a.params["buildings"] == {"0": 2})
    t.act(0, split)
    s = t.state
    assert s.systems["2.3"].buildings == [] and s.players[0].outrage == ["relic"]
    assert s.players[0].resources[0] is None and s.players[0].resources[1] == "fuel"
    assert card not in s.court_row and [x.owner for x in s.players[0].trophies if x.kind == "agent"] == [1]
