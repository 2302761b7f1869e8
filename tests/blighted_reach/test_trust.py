"""The Imperial Trust and Favors on real Act I tables: frozen but counted, out of a raid's
reach, stolen only by effects, back to the supply at the Intermission; and the invariants
that keep every Trust token and every Favor in exactly one place."""
from __future__ import annotations

import pytest

from core.errors import BadParameter, IllegalAction
from plugins.arcs.battle_flow import raid_options
from plugins.arcs.outrage import provoke_outrage
from plugins.arcs.scoring import ambition_count
from plugins.blighted_reach import favors, trust
from plugins.blighted_reach.invariants import problems
from tests.blighted_reach.edict_tables import BOX, CBOX, clear_row, give, snapshot, sound, table


def refused(state, error, call, *args):
    before = snapshot(state)
    with pytest.raises(error):
        call(*args)
    assert snapshot(state) == before


def with_trust(n=3, first_regent=0, resources=("relic", "relic", "psionic", "fuel")):
    state = table(n, seed=13, first_regent=first_regent)
    for r in resources:
        state.supply[r] -= 1
        state.trust.append(r)
    sound(state)
    return state


def test_trust_is_frozen_even_when_provoking_outrage_BR_260():
    """BR-260: the Trust is never among what its holder may spend, and Provoking Outrage in
    its type discards the row's tokens but leaves the Trust alone."""
    state = with_trust()
    clear_row(state, 0)
    give(state, 0, "relic", "material")
    assert trust.frozen_resources(state, 0) == ["relic", "relic", "psionic", "fuel"]
    assert trust.spendable(BOX, state, 0) == [0, 1]
    assert trust.frozen_resources(state, 1) == []
    provoke_outrage(BOX, state, 0, "relic")
    assert state.players[0].resources[:2] == [None, "material"]
    assert state.trust == ["relic", "relic", "psionic", "fuel"]
    sound(state)


def test_trust_counts_toward_the_first_regents_ambitions_BR_261():
    """BR-261: Relics in the Trust count for Keeper, Fuel for Tycoon, Psionic for Empath,
    for the First Regent only; the campaign's counting includes the tile."""
    state = with_trust()
    clear_row(state, 0)
    give(state, 0, "relic")
    base = ambition_count(BOX, state, state.players[0], "keeper")
    assert base == 1
    assert trust.ambition_extra(state, 0, "keeper") == 2
    assert trust.ambition_extra(state, 0, "tycoon") == 1
    assert trust.ambition_extra(state, 0, "empath") == 1
    assert trust.ambition_extra(state, 0, "warlord") == 0
    assert trust.ambition_extra(state, 1, "keeper") == 0
    assert sorted(trust.held_resources(state, 0)) == ["fuel", "psionic", "relic", "relic", "relic"]
    state.first_regent = 1  # the tile (and the Trust on it) changes hands
    assert trust.ambition_extra(state, 0, "keeper") == 0 and trust.ambition_extra(state, 1, "keeper") == 2


def test_a_raid_cannot_reach_the_trust_BR_262():
    """BR-262: no raid cost, so a battle's raid never offers a Trust resource."""
    state = with_trust()
    clear_row(state, 0)
    give(state, 0, "material")
    offered = raid_options(state, BOX, 1, 0, keys=12)
    assert [o.params for o in offered] == [{"slot": 0}, {}]  # the row's token, or done: never the Trust


def test_card_effects_can_steal_from_the_trust_BR_263():
    """BR-263: a card that steals a resource (Silver-Tongues) may take one from the Trust;
    the token comes to the thief to place. The First Regent cannot rob themself."""
    state = with_trust()
    assert trust.trust_theft_options(state, 2) == [{"resource": r} for r in ("fuel", "psionic", "relic")]
    assert trust.trust_theft_options(state, 0) == []
    refused(state, IllegalAction, trust.steal_from_trust, state, 2, "weapon")
    refused(state, IllegalAction, trust.steal_from_trust, state, 0, "relic")
    refused(state, BadParameter, trust.steal_from_trust, state, 7, "relic")
    trust.steal_from_trust(state, 2, "relic")
    assert state.trust == ["relic", "psionic", "fuel"]
    assert [(p.seat, p.tokens) for p in state.placing] == [(2, ["relic"])]
    sound(state)


def test_trust_returns_to_the_supply_at_intermission_BR_264():
    """BR-264: every Trust resource goes back to the supply."""
    state = with_trust()
    supply = dict(state.supply)
    assert trust.return_trust(state) == {"fuel": 1, "psionic": 1, "relic": 2}
    assert state.trust == []
    assert state.supply == {**supply, "relic": supply["relic"] + 2, "psionic": supply["psionic"] + 1,
                            "fuel": supply["fuel"] + 1}
    sound(state)


def test_trust_tokens_are_counted_once():
    """The invariants count Trust tokens with the box's 5 of each type, and a Trust needs a
    First Regent to lie on."""
    state = with_trust()
    state.trust.append("weapon")
    assert any("weapon" in p for p in problems(BOX, CBOX, state))
    state.trust.pop()
    state.first_regent = -1
    assert any("First Regent tile" in p for p in problems(BOX, CBOX, state))


def test_each_favor_is_an_agent_in_exactly_one_place():
    """A Favor leaves its owner's supply for one Rival's Fate card and goes back the same way;
    the invariants count it among the owner's 10 agents."""
    state = table(3)
    agents = state.players[1].agents
    favors.take_favor(state, 0, 1)
    favors.take_favor(state, 2, 1)
    assert favors.favors_of(state, 0) == [1] and favors.favors_owned(state, 1) == 2
    assert state.players[1].agents == agents - 2
    sound(state)
    refused(state, IllegalAction, favors.take_favor, state, 0, 0)
    refused(state, IllegalAction, favors.return_favor, state, 0, 2)
    favors.return_favor(state, 2, 1)
    assert favors.return_all_favors(state, 0) == {1: 1}
    assert state.players[1].agents == agents and favors.favors_owned(state, 1) == 0
    sound(state)
    state.favors[0].append(1)  # an agent on a Fate card that never left its supply
    assert any("agents" in p for p in problems(BOX, CBOX, state))
    state.favors[0] = [0]
    state.players[0].agents -= 1
    assert any("own agent" in p for p in problems(BOX, CBOX, state))
