"""Catapulting with a Flagship through the engine (issue 19, third slice): the Slipstream
Drive's free Prelude Catapult of the Flagship alone or of the ships beside it, and the
Catapult from a Free starport that needs no Drive. Real campaign tables (seed 3, 3 players,
seat 0's Flagship at 1.3 as in `test_engine`), real turns through `t.act`; refusals typed,
the state byte-identical; the invariants hold after each change.

The map here: 1.3 borders gate 1G (damaged Blight on it), 1G borders 2G (the Empire's gate),
2G borders 2.1 (seat 0's three ships) and 3G (the Empire's too), 3G borders 3.2."""
from __future__ import annotations

from core.engine import legal_actions
from core.errors import BadParameter, IllegalAction
from plugins.flagships.slipstream import AID
from plugins.flagships.state import board_of
from tests.blighted_reach.crisis_tables import clear, set_blight
from tests.blighted_reach.empire_tables import give_free
from tests.blighted_reach.test_empire_flow import act, refused, sound, turn
from tests.flagships.tables import put
from tests.flagships.test_engine import HOME, SEAT, flagship_table


def slipstream(t, seat: int = SEAT, **params):
    return act(t, seat, **{"act": "ability", "card": AID, "index": 0, "params": params})


def ability(params: dict) -> dict:
    return {"act": "ability", "card": AID, "index": 0, "params": params}


def test_the_slipstream_drive_catapults_the_flagship_alone_once_a_turn_in_the_prelude_BR_300_280_278():
    """BR-278, BR-280, BR-300.
    Without a Slipstream Drive nobody holds the Catapult (refused, typed, unchanged), and the
    starports on the board do not start one either. With the Drive built (damaged: it still
    works) the Flagship, alone, Catapults from 1.3 through the gates to 2.1 in the Prelude,
    paying no pip; a Blighted gate on the way ends it (refused), a planet before the end
    too; a second Catapult that turn is refused; the legal actions list it."""
    t = flagship_table()
    put(t.state, SEAT, "hull", "upgrade", "starport")
    turn(t, SEAT, "ADM3")
    refused(t, SEAT, ability({"path": ["1G", "2G"]}), IllegalAction)
    refused(t, SEAT, {"act": "move", "origin": HOME, "path": ["1G", "2G"], "flagship": True}, IllegalAction)
    put(t.state, SEAT, "slipstream_drive", "upgrade", "city", damaged=True)
    refused(t, SEAT, ability({"path": ["1G", "2G"]}), IllegalAction)  # 1G's Blight ends it
    refused(t, SEAT, ability({"path": ["1G", "1.1", "1G"]}), IllegalAction)  # a planet ends it
    refused(t, SEAT, ability({"path": ["2G"]}), BadParameter)  # 2G does not border 1.3
    set_blight(t.state, "1G", 0)
    listed = [a.params for a in legal_actions(t.state, SEAT, t.rules) if a.params.get("card") == AID]
    assert {"act": "ability", "pay": -1, "card": AID, "index": 0, "params": {"path": ["1G", "2G"]}} in listed
    pips = t.state.turn.pips
    slipstream(t, path=["1G", "2G", "2.1"])
    s = t.state
    assert board_of(s, SEAT).system == "2.1" and s.turn.pips == pips and s.turn.prelude
    assert s.systems["2.1"].ships_of(SEAT).fresh == 3  # the ships there stayed put
    refused(t, SEAT, ability({"path": ["2G", "3G", "3.2"]}), IllegalAction)  # once a turn
    sound(t)


def test_the_slipstream_drive_catapults_other_ships_from_the_flagship_leaving_it_BR_300():
    """BR-300.
    With the Flagship at 2.1 beside three ships, the Catapult takes two of them through the
    Empire's gates to 3.2 (a Regent's Loyal group passes them), dropping none, the Flagship
    staying; more ships than stand there are refused. Once a pip is spent the Prelude has
    closed and the Catapult is refused (typed, unchanged)."""
    t = flagship_table(system="2.1")
    put(t.state, SEAT, "slipstream_drive", "upgrade", "city")
    turn(t, SEAT, "MOB3")
    refused(t, SEAT, ability({"path": ["2G", "3G", "3.2"], "fresh": 4}), BadParameter)
    before = t.state.systems["3.2"].ships_of(SEAT).fresh
    slipstream(t, path=["2G", "3G", "3.2"], fresh=2)
    s = t.state
    assert board_of(s, SEAT).system == "2.1" and s.systems["2.1"].ships_of(SEAT).fresh == 1
    assert s.systems["3.2"].ships_of(SEAT).fresh == before + 2
    sound(t)
    turn(t, SEAT, "MOB3")
    act(t, SEAT, **{"act": "move", "origin": "2.1", "path": ["2G"], "fresh": 1})
    refused(t, SEAT, ability({"path": ["2G", "3G"]}), IllegalAction)  # the Prelude is over
    sound(t)


def test_the_flagship_catapults_from_a_free_starport_it_controls_without_a_slipstream_drive_BR_301():
    """BR-301.
    A Free starport at 1.3, where the Flagship alone gives its owner control: a Move action
    Catapults the Flagship through 1G (its Blight cleared) and 2G to 2.1, no Drive on the
    board. With a Rival's fresh ship tying the control at 1.3 the same Catapult is refused."""
    t = flagship_table()
    give_free(t.state, HOME, "starport")
    set_blight(t.state, "1G", 0)
    clear(t.state, "2.1")
    turn(t, SEAT, "MOB3")
    before = t.state.players[SEAT].ships
    from tests.blighted_reach.empire_tables import set_ships
    set_ships(t.state, 1, HOME, fresh=1)
    refused(t, SEAT, {"act": "move", "origin": HOME, "path": ["1G", "2G"], "flagship": True}, IllegalAction)
    set_ships(t.state, 1, HOME, fresh=0)
    act(t, SEAT, **{"act": "move", "origin": HOME, "path": ["1G", "2G", "2.1"], "flagship": True})
    s = t.state
    assert board_of(s, SEAT).system == "2.1" and s.players[SEAT].ships == before
    sound(t)


def test_a_slipstream_catapult_into_a_rivals_gate_ports_gate_loses_an_agent_BR_300():
    """BR-300 (with Gate Ports, L08).
    The Rival controls gate 1G with a fresh Loyal starport there and holds Gate Ports: its
    gate ends a Regent's Catapult (a longer path is refused, typed, unchanged), and the
    Flagship Catapulting into it loses seat 0 an agent to the Rival, as any move would."""
    from plugins.arcs.state import Building
    from tests.blighted_reach.empire_tables import set_ships
    from tests.blighted_reach.test_empire_flow import lore_for

    t = flagship_table()
    s = t.state
    put(s, SEAT, "slipstream_drive", "upgrade", "city")
    set_blight(s, "1G", 0)
    s.systems["1G"].buildings.append(Building(kind="starport", owner=1))
    s.players[1].starports -= 1
    set_ships(s, 1, "1G", fresh=1)
    lore_for(t, 1, "L08")
    sound(t)
    turn(t, SEAT, "ADM3")
    refused(t, SEAT, ability({"path": ["1G", "2G"]}), IllegalAction)
    agents = t.state.players[SEAT].agents
    slipstream(t, path=["1G"])
    s = t.state
    assert board_of(s, SEAT).system == "1G"
    assert s.players[1].captives == [SEAT] and s.players[SEAT].agents == agents - 1
    sound(t)
