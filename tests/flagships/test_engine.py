"""The Flagship rules played through the engine (issue 19, second slice): real campaign tables
(Act I set up by `ready`, pieces arranged through their supplies), real turns answered with
`t.act`. Each test names the BR IDs it plays through; every refusal is a typed error that
leaves the state byte-identical, and the campaign's invariants hold after every change.

Seed 3, 3 players (as `tests.blighted_reach.test_empire_flow`): every seat is a Regent,
seat 0 has cities at 2.1 and 3.2 and 3 ships at each. Seat 0's Flagship is granted at 1.3 (a
Material planet outside the Empire's clusters, a Free city there) unless a test says else.
"""
from __future__ import annotations

import pytest

from core.engine import create_table, legal_actions
from core.errors import BadParameter, CannotAfford, IllegalAction
from core.state import Action
from plugins.arcs.content import default_box
from plugins.arcs.control import controls
from plugins.arcs.placing import open_slots
from plugins.blighted_reach import board
from plugins.blighted_reach.state import FREE
from plugins.flagships import rules
from plugins.flagships.state import board_of
from tests.blighted_reach.empire_tables import give_free, set_ships
from tests.blighted_reach.flow_helpers import choose_fates, place_all
from tests.blighted_reach.test_empire_flow import act, campaign_table, refused, settle, snapshot, sound, turn
from tests.flagships.tables import put

BOX = default_box()
SEAT, RIVAL = 0, 1
HOME = "1.3"  # Material, a Free city, outside the Imperial clusters
CRANE = 3     # the Ship Crane slot (content order)


def flagship_table(system: str = HOME):
    """Seat 0 granted its Flagship; the resources its returned cities covered go back to the
    seat's open slots, or to the supply (what its placement would do with a first choice)."""
    t = campaign_table()
    s = t.state
    rules.grant(BOX, s, SEAT, system)
    for record in [r for r in s.placing if r.seat == SEAT]:
        for token in record.tokens:
            empty = [i for i in open_slots(BOX, s.players[SEAT]) if s.players[SEAT].resources[i] is None]
            if empty:
                s.players[SEAT].resources[empty[0]] = token
            else:
                s.supply[token] += 1
        s.placing.remove(record)
    sound(t)
    return t


def build(t, seat: int = SEAT, **params):
    return act(t, seat, **{"act": "build", "system": HOME, **params})


def piece(t, slot: int, layer: str, seat: int = SEAT):
    return board_of(t.state, seat).slots[slot].piece(layer)


# -- granting (BR-004, BR-265, BR-267) ---------------------------------------------------------
def test_with_the_module_on_every_seat_places_a_flagship_in_act_one_setup_BR_004_265_267():
    """BR-004, BR-265, BR-267.
    After the starting placements each seat in turn order places its Flagship where it has
    Loyal ships; its Loyal buildings on the map become Free ones. A system without its
    ships is refused, typed, changing nothing. Without the module nobody is asked."""
    t = create_table("blighted-reach", 3, seed=1, modules=["flagships"])
    choose_fates(t)
    place_all(t)
    order = [(t.state.initiative + i) % 3 for i in range(3)]
    for seat in order:
        prompt = next(p for p in t.state.prompts if p.seat == seat)
        assert prompt.decision == "br.place_flagship"
        empty = next(s for s, here in sorted(t.state.systems.items()) if here.ships_of(seat).total == 0)
        before = snapshot(t)
        try:
            t.act(seat, Action("place_flagship", {"system": empty}))
        except IllegalAction:
            pass
        else:
            raise AssertionError("a system without the seat's ships was taken")
        assert snapshot(t) == before
        options = legal_actions(t.state, seat, t.rules)
        assert options and all(t.state.systems[a.params["system"]].ships_of(seat).total for a in options)
        t.act(seat, options[0])
        settle(t)  # a city back on its board may open a resource slot
        assert board_of(t.state, seat).system == options[0].params["system"]
        assert not any(b.owner == seat for here in t.state.systems.values() for b in here.buildings)
        sound(t)
    assert any(p.decision != "br.place_flagship" for p in t.state.prompts)
    plain = create_table("blighted-reach", 3, seed=1)
    choose_fates(plain)
    place_all(plain)
    assert not any(p.decision == "br.place_flagship" for p in plain.state.prompts)
    assert "flagships" not in plain.state.module_state


# -- control (BR-267) --------------------------------------------------------------------------
def test_the_flagship_counts_as_a_fresh_loyal_ship_for_control_and_tax_BR_267():
    """BR-267.
    Alone, the Flagship controls its system: its owner taxes the Free city there (a Free city
    needs control). Against a Rival's fresh ship it ties (nobody controls, the tax is
    refused, typed and unchanged); one more fresh ship of its owner breaks the tie. Card
    effects read the same control (`arcs.control.controls`)."""
    t = flagship_table()
    s = t.state
    city = next(i for i, b in enumerate(s.systems[HOME].buildings) if b.owner == FREE)
    assert board.controller(s, HOME) == SEAT and controls(s, SEAT, HOME)
    set_ships(s, RIVAL, HOME, fresh=1)
    assert board.controller(s, HOME) is None and not controls(s, SEAT, HOME)
    turn(t, SEAT, "ADM3")
    refused(t, SEAT, {"act": "tax", "system": HOME, "building": city}, IllegalAction)
    set_ships(t.state, SEAT, HOME, fresh=1)
    assert board.controller(t.state, HOME) == SEAT
    act(t, SEAT, **{"act": "tax", "system": HOME, "building": city})
    assert t.state.turn.taxed == [[HOME, city]]
    sound(t)


def test_a_table_without_a_flagship_counts_control_as_the_base_rules_do():
    """BR-267 (its absence): with nobody's Flagship in play the controller is the base count."""
    t = campaign_table()
    from plugins.arcs.control import controller as base
    for system, here in t.state.systems.items():
        if not board.empire_controls(t.state, system):
            assert board.controller(t.state, system) == base(here)


# -- building on the board (BR-268, BR-273..BR-277) -------------------------------------------
def test_the_ship_crane_example_through_the_build_and_repair_actions_BR_268_273_274_275_276_277():
    """BR-268, BR-273, BR-274, BR-275, BR-276, BR-277.
    The rulebook's Ship Crane example played with a turn's actions: the Flagship at a
    Material planet a Rival controls builds a starport as the Ship Crane Upgrade, placed
    damaged; Armor over it is refused while it is damaged; a Repair stands it up; at a Fuel
    planet the Ship Crane Armor is built. A city on the map, a slot of the wrong planet type,
    a board build named in another system and a malformed layer are refused, typed, with
    nothing changed."""
    t = flagship_table()
    set_ships(t.state, RIVAL, HOME, fresh=2)  # the Rival controls the Flagship's system
    turn(t, SEAT, "CON2")
    refused(t, SEAT, {"act": "build", "system": "2.1", "what": "city"}, IllegalAction)  # BR-268
    refused(t, SEAT, {"act": "build", "system": HOME, "what": "city", "slot": 0, "layer": "upgrade"},
            IllegalAction)  # Slipstream Drive: a Fuel planet (BR-273)
    refused(t, SEAT, {"act": "build", "system": "2.1", "what": "starport", "slot": CRANE, "layer": "upgrade"},
            BadParameter)
    refused(t, SEAT, {"act": "build", "system": HOME, "what": "starport", "slot": CRANE, "layer": "top"},
            BadParameter)
    refused(t, SEAT, {"act": "build", "system": HOME, "what": "city", "slot": CRANE, "layer": "armor"},
            IllegalAction)  # no Upgrade under it (BR-274)
    starports = t.state.players[SEAT].starports
    events = build(t, what="starport", slot=CRANE, layer="upgrade")
    assert piece(t, CRANE, "upgrade") == rules.BoardPiece(kind="starport", damaged=True)  # BR-275
    assert t.state.players[SEAT].starports == starports - 1
    assert any(e.type == "built" and e.data.get("slot") == CRANE for e in events)
    refused(t, SEAT, {"act": "build", "system": HOME, "what": "city", "slot": CRANE, "layer": "armor"},
            IllegalAction)  # over a damaged Upgrade (BR-274)
    refused(t, SEAT, {"act": "repair", "system": HOME, "piece": "armor", "building": CRANE}, IllegalAction)
    act(t, SEAT, **{"act": "repair", "system": HOME, "piece": "upgrade", "building": CRANE})  # BR-277
    assert piece(t, CRANE, "upgrade") == rules.BoardPiece(kind="starport")
    sound(t)
    turn(t, SEAT, "MOB3")
    act(t, SEAT, **{"act": "move", "origin": HOME, "path": ["1.2"], "flagship": True})  # a Fuel planet
    assert board_of(t.state, SEAT).system == "1.2"
    turn(t, SEAT, "CON2")
    build(t, system="1.2", what="city", slot=CRANE, layer="armor")
    assert piece(t, CRANE, "armor") == rules.BoardPiece(kind="city")  # nobody else controls: fresh
    sound(t)


def test_a_board_build_needs_a_building_in_supply_and_a_flagship_BR_268():
    """BR-268.
    With no starport left the board build is refused as unaffordable; a seat without a
    Flagship cannot name a board slot; the base game knows no board at all."""
    t = flagship_table()
    turn(t, SEAT, "CON2")
    t.state.players[SEAT].starports, spare = 0, t.state.players[SEAT].starports
    refused(t, SEAT, {"act": "build", "system": HOME, "what": "starport", "slot": CRANE, "layer": "upgrade"},
            CannotAfford)
    t.state.players[SEAT].starports = spare
    turn(t, RIVAL, "CON2")
    refused(t, RIVAL, {"act": "build", "system": "2.2", "what": "city", "slot": 1, "layer": "upgrade"}, IllegalAction)
    base = create_table("arcs", 2, seed=1)
    while base.state.turn is None:
        p = base.state.prompts[0]
        base.act(p.seat, legal_actions(base.state, p.seat, base.rules)[0])
    seat = base.state.turn.seat
    legal = next(a.params for a in legal_actions(base.state, seat, base.rules) if a.params.get("act") == "build")
    assert legal["slot"] == -1 and legal["layer"] == ""  # what a base build names: no board
    before = snapshot(base)
    with pytest.raises(BadParameter):
        base.act(seat, Action("act", {**legal, "slot": 0, "layer": "upgrade"}))
    assert snapshot(base) == before


def test_legal_actions_list_the_board_builds_and_repairs_BR_273_277():
    """BR-273, BR-277: the turn's legal actions offer exactly the board builds the rules allow
    (here the Material and Any-planet slots) and the repair of a damaged board piece."""
    t = flagship_table()
    put(t.state, SEAT, "hull", "upgrade", "city", damaged=True)
    turn(t, SEAT, "CON2")
    listed = [a.params for a in legal_actions(t.state, SEAT, t.rules) if a.type == "act"]
    board_builds = {(p["slot"], p["layer"], p["what"]) for p in listed if p.get("act") == "build" and p.get("slot", -1) >= 0}
    assert board_builds == {(CRANE, "upgrade", "city"), (CRANE, "upgrade", "starport")}
    assert {"act": "repair", "pay": -1, "system": HOME, "piece": "upgrade", "building": 5} in listed
    assert not any(p.get("act") == "build" and p["what"] in ("city", "starport") and p.get("slot", -1) < 0
                   for p in listed)


# -- ships at the Flagship (BR-269, BR-270, BR-298) ---------------------------------------------
def test_one_ship_a_turn_at_the_flagship_two_with_a_ship_crane_and_free_starports_beside_BR_269_270_298():
    """BR-269, BR-270, BR-298.
    Whatever starports its board holds, the Flagship builds 1 ship a turn (the second Build
    there is refused, typed, unchanged); with a Ship Crane 2, each its own Build action. A
    Free starport in a system its owner controls still builds beside that limit."""
    t = flagship_table()
    put(t.state, SEAT, "hull", "upgrade", "starport")
    put(t.state, SEAT, "hull", "armor", "starport")
    turn(t, SEAT, "CON2")
    ships = t.state.players[SEAT].ships
    build(t, what="ship")
    assert t.state.systems[HOME].ships_of(SEAT).fresh == 1 and t.state.players[SEAT].ships == ships - 1
    refused(t, SEAT, {"act": "build", "system": HOME, "what": "ship"}, IllegalAction)
    sound(t)
    turn(t, SEAT, "CON2")
    put(t.state, SEAT, "ship_crane", "upgrade", "city", damaged=True)  # damaged, it still works (BR-280)
    build(t, what="ship")
    build(t, what="ship")
    assert t.state.systems[HOME].ships_of(SEAT).fresh == 3
    refused(t, SEAT, {"act": "build", "system": HOME, "what": "ship"}, IllegalAction)
    port = give_free(t.state, HOME, "starport")
    build(t, what="ship")  # the Free starport of a system it controls (BR-270)
    assert t.state.systems[HOME].ships_of(SEAT).fresh == 4
    assert [HOME, port] in t.state.turn.starports_used
    sound(t)


# -- moving (BR-267) -----------------------------------------------------------------------------
def test_the_flagship_moves_as_a_loyal_ship_alone_or_with_the_ships_beside_it_BR_267():
    """BR-267.
    A Move action takes the Flagship to an adjacent system, with the seat's ships there or
    alone; its old system is no longer its to control. A move from elsewhere, two systems
    at once, or a seat without a Flagship naming one are refused, typed, nothing changed;
    the legal actions list its moves."""
    t = flagship_table()
    set_ships(t.state, SEAT, HOME, fresh=2)
    turn(t, SEAT, "MOB3")
    listed = [a.params for a in legal_actions(t.state, SEAT, t.rules) if a.params.get("flagship")]
    assert {(tuple(p["path"]), p["fresh"]) for p in listed} == {(("1.2",), 0), (("1.2",), 2), (("1G",), 0),
                                                                 (("1G",), 2)}
    refused(t, SEAT, {"act": "move", "origin": "2.1", "path": ["2G"], "flagship": True}, BadParameter)
    refused(t, SEAT, {"act": "move", "origin": HOME, "path": ["1G", "2G"], "flagship": True}, IllegalAction)
    refused(t, RIVAL, {"act": "move", "origin": "2.2", "path": ["2G"], "flagship": True})
    act(t, SEAT, **{"act": "move", "origin": HOME, "path": ["1G"], "fresh": 2, "flagship": True})
    s = t.state
    assert board_of(s, SEAT).system == "1G" and s.systems["1G"].ships[SEAT].fresh == 2
    assert board.controller(s, HOME) is None
    act(t, SEAT, **{"act": "move", "origin": "1G", "path": ["1.1"], "flagship": True})
    assert board_of(t.state, SEAT).system == "1.1" and t.state.systems["1G"].ships[SEAT].fresh == 2
    sound(t)


# -- Control Array (BR-302, BR-280) ----------------------------------------------------------------
def test_a_control_array_in_a_gate_taxes_any_city_of_its_cluster_like_a_loyal_one_BR_302_280():
    """BR-280, BR-302.
    The Flagship in gate 2G with a (damaged) Control Array: its owner taxes the Rival's city
    at 2.2, which it does not control, taking no Captive; a city of another cluster is
    refused, typed, nothing changed; without the Control Array the 2.2 tax is refused too."""
    t = flagship_table(system="2G")
    put(t.state, SEAT, "control_array", "upgrade", "city", damaged=True)
    city = next(i for i, b in enumerate(t.state.systems["2.2"].buildings) if b.owner == RIVAL)
    far = next(i for i, b in enumerate(t.state.systems["3.1"].buildings) if b.owner == RIVAL)
    turn(t, SEAT, "ADM3")
    refused(t, SEAT, {"act": "tax", "system": "3.1", "building": far}, IllegalAction)
    agents = t.state.players[RIVAL].agents
    act(t, SEAT, **{"act": "tax", "system": "2.2", "building": city})
    s = t.state
    assert s.turn.taxed == [["2.2", city]] and s.players[SEAT].captives == [] and s.players[RIVAL].agents == agents
    refused(t, SEAT, {"act": "tax", "system": "2.2", "building": city}, IllegalAction)  # once a turn (ARCS-141)
    sound(t)
    bare = flagship_table(system="2G")
    turn(bare, SEAT, "ADM3")
    refused(bare, SEAT, {"act": "tax", "system": "2.2", "building": city}, IllegalAction)
