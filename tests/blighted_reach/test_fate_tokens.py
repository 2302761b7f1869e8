"""Tokens added by Fates (BR-324..BR-326), through the engine on tables with those Fates:
the Pacifist's Witnesses are neither harmed nor Loyal; the Survivalist's Bunkers say they are
Loyal, so they count as their owner's pieces (buildings may be built at one alone)."""
from __future__ import annotations

from core.state import Action
from plugins.blighted_reach.board import has_loyal_pieces
from tests.blighted_reach.flow_helpers import options
from tests.blighted_reach.test_fate_pacifist import (
    act_two_table, all_outlaws, battle, rolls, ships_to, sound, turn,
)
from tests.blighted_reach.test_fate_survivalist import free_planet, lead, put_bunker, survivalist_table


def witness_alone(t) -> str:
    """A system holding a Witness token and no piece of the Pacifist (seat 0)."""
    s = t.state
    return next(x for x in sorted(s.witnesses) if s.witnesses[x] and not s.systems[x].ships_of(0).total
                and not any(b.owner == 0 for b in s.systems[x].buildings))


def test_BR_325_a_witness_token_is_no_loyal_piece_of_its_holder():
    """BR-325: the Witness says nothing of being Loyal: where the Pacifist has only a Witness it
    has no Loyal piece, so it may not build there."""
    t = act_two_table()
    system = witness_alone(t)
    assert not has_loyal_pieces(t.state, 0, system)
    turn(t, 0, "CON6")
    assert not [a for a in options(t, 0) if a.params.get("act") == "build" and a.params.get("system") == system]


def test_BR_324_a_battle_where_a_witness_lies_leaves_the_token_unharmed(monkeypatch):
    """BR-324: hits in a battle fall on ships and buildings; the Witness token there stays."""
    t = act_two_table()
    all_outlaws(t)
    s = t.state
    system = witness_alone(t)
    ships_to(s, 1, system, 2)
    ships_to(s, 2, system, 1)
    witnesses = dict(s.witnesses)
    turn(t, 1, "AGG6")
    rolls(monkeypatch, [("assault", 0)])  # 2 hits: the defender's one ship and more
    battle(t, 1, system, 2, assault=1)
    while any(p.seat in (1, 2) and p.kind.endswith("hits") for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind.endswith("hits"))
        t.act(p.seat, options(t, p.seat)[0])
    assert t.state.systems[system].ships_of(2).total == 0
    assert t.state.witnesses == witnesses
    sound(t)


def test_BR_326_a_bunker_counts_as_its_owners_piece_buildings_may_be_built_at_it_alone():
    """BR-326: the Bunker says it is Loyal: with no ship there its owner has a Loyal piece and
    may build a city at it (F1803 shows its repair)."""
    t = survivalist_table()
    planet = free_planet(t)
    put_bunker(t, planet)
    assert has_loyal_pieces(t.state, 0, planet) and not has_loyal_pieces(t.state, 1, planet)
    lead(t, 0, "CON2")
    city = Action("act", {"act": "build", "pay": -1, "system": planet, "what": "city"})
    assert any(a.params == {**city.params, "cost_slot": -1, "slot": -1, "layer": ""} for a in options(t, 0))
    t.act(0, city)
    assert any(b.owner == 0 and b.kind == "city" for b in t.state.systems[planet].buildings)
    sound(t)
