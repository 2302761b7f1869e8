"""Simultaneous effects through the engine (ARCS-270): ordered by the player whose turn it is,
outside any turn by the initiative holder, and asked only when the order matters."""
from __future__ import annotations

import pytest

from core.errors import IllegalAction
from core.state import Action
from plugins.arcs import abilities
from plugins.arcs.simultaneous import chooser
from plugins.arcs.state import Turn
from tests.arcs.flow_helpers import act, answer, prompt_of, restart_round, table
from tests.arcs.test_abilities_in_play import listed, own, refused, set_slots


def end_chapter(t, ambition: str = "") -> None:
    """One last round: seat 0 leads CON2 (declaring `ambition`), the others Copy, so seat 0
    keeps the initiative (ARCS-107) and the chapter ends (ARCS-109)."""
    restart_round(t, [["CON2"], ["ADM3"], ["MOB3"]], initiative=0)
    answer(t, 0, "lead", card="CON2")
    answer(t, 0, "declare", ambition=ambition)
    act(t, 0, "done")
    answer(t, 1, "play", card="ADM3", kind="copy")
    act(t, 1, "done")
    answer(t, 2, "play", card="MOB3", kind="copy")
    act(t, 2, "done")


def test_after_scoring_effects_that_commute_are_not_asked_about_ARCS_270_315():
    """The Fuel Cartel (seat 1) and Lavish (seat 2, the Fuel-Drinker, Tycoon scored) both
    discard Fuel: every order leaves the same table, so nobody is asked and the chapter
    goes on; every Rival of seat 1 has lost its Fuel, the Fuel-Drinker all of it."""
    t = table(3, setup_card="3SETUP01")
    own(t, 1, "BC06")
    own(t, 2, "LEAD03")
    set_slots(t, 0, ["fuel", None])
    set_slots(t, 1, ["fuel", None])
    set_slots(t, 2, ["fuel", "fuel"])
    end_chapter(t, ambition="tycoon")
    s = t.state
    assert not any(p.kind == "arcs.effect_order" for p in s.prompts)
    assert s.chapter == 2
    assert "fuel" not in s.players[0].resources and "fuel" not in s.players[2].resources
    assert s.players[1].resources.count("fuel") == 1


def _last_relic(env, u, _):
    """A test double for an order-sensitive after-scoring effect (no base card has one): the
    holder takes one Relic from the supply if any is left."""
    state = env.state
    if state.supply["relic"]:
        state.supply["relic"] -= 1
        player = state.players[u.seat]
        player.resources[player.resources.index(None)] = "relic"


@pytest.fixture
def order_sensitive(monkeypatch):
    monkeypatch.setitem(abilities.OPS, "rivals_discard_all",
                        abilities.OpImpl(op="rivals_discard_all", apply=_last_relic))


def pick(t, holder: int) -> Action:
    (found,) = [a for a in listed(t, 0) if a.params["seat"] == holder]
    return found


def _contest(t):
    own(t, 1, "BC03")
    own(t, 2, "BC06")
    for seat in range(3):
        set_slots(t, seat, [None, None])
    t.state.supply["relic"] = 1


def test_an_order_that_matters_is_chosen_by_the_initiative_holder_outside_a_turn_ARCS_270(order_sensitive):
    """Two after-scoring effects that compete for the last Relic: outside any turn, the
    initiative holder (seat 0, holding neither card) is asked which resolves first; the
    answers listed are exactly the pending effects; an effect not pending is refused and
    changes nothing; the pick resolves first, the last one without a question."""
    t = table(3, setup_card="3SETUP01")
    _contest(t)
    end_chapter(t)
    s = t.state
    p = prompt_of(t, 0)
    assert p is not None and p.kind == "arcs.effect_order" and s.turn is None and s.initiative == 0
    assert prompt_of(t, 1) is None and prompt_of(t, 2) is None
    options = sorted((a.params["seat"], a.params["card"]) for a in listed(t, 0))
    assert options == [(1, "BC03"), (2, "BC06")]
    refused(t, 0, Action("resolve_first", {"seat": 0, "card": "BC03", "index": 1}), IllegalAction)
    t.act(0, pick(t, 2))
    s = t.state
    assert s.players[2].resources[0] == "relic" and "relic" not in s.players[1].resources
    assert s.chapter == 2 and not any(p.kind == "arcs.effect_order" for p in s.prompts)


def test_the_other_order_gives_the_other_outcome_ARCS_270(order_sensitive):
    """The same position, the other pick: seat 1's effect first, seat 1 takes the Relic."""
    t = table(3, setup_card="3SETUP01")
    _contest(t)
    end_chapter(t)
    t.act(0, pick(t, 1))
    s = t.state
    assert s.players[1].resources[0] == "relic" and "relic" not in s.players[2].resources


def test_during_a_turn_the_player_taking_it_orders_ARCS_270():
    """Within a turn the chooser is that turn's player, not the initiative holder."""
    t = table(3, setup_card="3SETUP01")
    s = t.state
    s.initiative, s.turn = 0, None
    assert chooser(s) == 0
    s.turn = Turn(seat=2, kind="copy", pips=1, actions=["tax"], lead_actions=["tax"])
    assert chooser(s) == 2
