"""The Admiral's Fate Set (F701-F721) through the engine: each test names the card it
proves and the BR checklist IDs where the checklist has them. A refused choice raises a
typed error and changes nothing."""
from __future__ import annotations

import msgspec
import pytest

from core.errors import ActionRejected
from core.flow import Ctx, run
from core.state import Action
from plugins.arcs.rounds import round_start
from plugins.arcs.state import Building, Ships, Trophy
from plugins.blighted_reach import empire, event_flow
from plugins.blighted_reach.state import Pieces
from tests.blighted_reach.flow_helpers import ready

STEWARD, ADMIRAL = "FATE01", "FATE07"
HANDS = [["AGG3", "CON4"], ["MOB3", "CON5"], ["ADM4", "CON6"], ["ADM2", "CON3"]]


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def admiral_table(players: int = 3, seed: int = 1, steward: bool = True):
    """Act I's first round with the Admiral at seat 1 (and the Steward at seat 0)."""
    wanted = {1: ADMIRAL, **({0: STEWARD} if steward else {})}
    return ready(players, seed, wanted=wanted)


def sound(t):
    problems = [p for found in t.rules.hook.conclave_check_invariants(state=t.state) for p in found]
    assert problems == [], problems


def resolve_edicts(t):
    """The round's end chose the Edicts (as a Council's securer or the event die may): run
    them, then a new round (the hands as HANDS)."""
    s = t.state
    everything = [c for h in s.hands for c in h] + s.action_discard
    hands = HANDS[:len(s.players)]
    for card in (c for h in hands for c in h):
        everything.remove(card)
    s.hands, s.action_discard = [list(h) for h in hands], everything
    s.initiative, s.prompts, s.stack = 0, [], []
    ctx = Ctx(s, t.rules)
    ctx.push(round_start)
    ctx.push(event_flow.edicts_begin)
    run(ctx)
    events = list(ctx.events)
    govern = next((p for p in t.state.prompts if p.kind == "govern"), None)
    if govern is not None:  # the First Regent changes the Policy: no Demand to collect
        change = next(o for o in govern.options if "change" in o.params)
        events += t.act(govern.seat, change)
    return events


def starport_for(t, seat: int, system: str):
    """Turn the seat's city in `system` into a starport (the city back on its board)."""
    s = t.state
    here = s.systems[system]
    i = next(i for i, b in enumerate(here.buildings) if b.owner == seat)
    here.buildings[i] = Building(kind="starport", owner=seat)
    s.players[seat].starports -= 1
    board = s.players[seat].cities_on_board
    board[board.index(False)] = True


# -- F701 Admiral Act I Setup --------------------------------------------------------------


def test_F701_setup_gains_imperial_officers_and_adds_the_foundries_edict():
    t = admiral_table()
    s = t.state
    assert s.players[1].guild == ["F702"] and ["F703"] in s.booklet
    assert s.first_regent == 0  # the Steward is in play: no tile for the Admiral


def test_F701_the_admiral_takes_the_first_regent_tile_without_the_steward():
    t = admiral_table(steward=False)
    assert t.state.first_regent == 1 and STEWARD not in t.state.fates


# -- F702 Imperial Officers -----------------------------------------------------------------


def test_F702_ignores_the_presence_and_movement_laws_and_is_buried_for_an_outlaw():
    t = admiral_table()
    s = t.state
    from plugins.blighted_reach.content import default_box

    assert empire.laws_ignored(default_box(), s, 1) == frozenset({"presence", "movement"})
    far = next(x for x in sorted(s.imperial) if not s.systems[x].ships_of(1).total
               and not any(b.owner == 1 for b in s.systems[x].buildings))
    assert empire.commands(s, 1, far, ignore_presence=True)   # any Imperial ships (BR-125)
    assert not empire.commands(s, 2, far)                     # a Regent without the card
    empire.become_outlaw(s, 1)
    events = resolve_edicts(t)
    assert "F702" not in t.state.players[1].guild and "F702" in t.state.court_deck
    assert any(e.type == "card_buried" and e.data["card"] == "F702" for e in events)
    assert any(e.type == "edict_lapsed" and e.data["card"] == "F703" for e in events)  # nobody holds it now
    sound(t)


# -- F703 Use Imperial Foundries -------------------------------------------------------------


def _foundry_table(players: int = 3):
    t = admiral_table(players)
    s = t.state
    system = next(x for x, here in sorted(s.systems.items()) if any(b.owner == 1 for b in here.buildings))
    starport_for(t, 1, system)
    assert s.systems[system].ships_of(1).total == 3  # the starting placement's ships
    s.systems[system].ships[1] = Ships(fresh=2, damaged=1)
    return t, system


def test_F703_the_officers_holder_replaces_a_ship_at_each_starport_with_an_imperial_ship():
    t, system = _foundry_table()
    before = t.state.imperial.get(system, Pieces())
    supply, ships = t.state.imperial_supply, t.state.players[1].ships
    resolve_edicts(t)
    prompt = next(p for p in t.state.prompts if p.kind == "imperial_foundry")
    assert prompt.seat == 1  # the holder resolves it, not the First Regent (seat 0)
    assert sorted(o.params["replace"] for o in prompt.options) == ["", "damaged", "fresh"]
    events = t.act(1, Action("imperial_foundry", {"system": system, "replace": "damaged"}))
    s = t.state
    assert s.imperial[system] == Pieces(fresh=before.fresh, damaged=before.damaged + 1)
    assert s.systems[system].ships_of(1) == Ships(fresh=2, damaged=0)
    assert s.imperial_supply == supply - 1 and s.players[1].ships == ships + 1
    assert any(e.type == "imperial_ship_replaced" for e in events)
    sound(t)


def test_F703_declining_changes_nothing_and_a_wrong_answer_is_refused():
    t, system = _foundry_table()
    resolve_edicts(t)
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(1, Action("imperial_foundry", {"system": system, "replace": "both"}))
    with pytest.raises(ActionRejected):
        t.act(0, Action("imperial_foundry", {"system": system, "replace": "fresh"}))  # not the holder
    assert snapshot(t) == before
    imperial = dict(t.state.imperial)
    t.act(1, Action("imperial_foundry", {"system": system, "replace": ""}))
    assert t.state.imperial == imperial


def test_F703_with_no_imperial_ship_in_supply_only_declining_is_offered():
    t, system = _foundry_table()
    s = t.state
    s.imperial["1G"] = Pieces(fresh=s.imperial_supply)
    s.imperial_supply = 0
    events = resolve_edicts(t)
    assert not any(p.kind == "imperial_foundry" for p in t.state.prompts)  # the one option taken
    assert not any(e.type == "imperial_ship_replaced" for e in events)


def test_F703_advances_the_admirals_objective_while_winning_an_ambition_BR_093():
    """Prove Yourself as a New Admiral: a Regent winning a declared ambition advances 1 for
    each Imperial ship placed, here by Use Imperial Foundries."""
    t, system = _foundry_table()
    s = t.state
    s.objective_markers = [10, 13, 10]
    s.ambition_boxes["warlord"].append(s.markers_available.pop(0))  # Warlord declared
    s.players[1].trophies.append(Trophy(owner=2, kind="agent"))  # the Admiral leads Warlord
    s.players[2].agents -= 1
    resolve_edicts(t)
    t.act(1, Action("imperial_foundry", {"system": system, "replace": "fresh"}))
    assert t.state.objective_markers == [10, 12, 10]
