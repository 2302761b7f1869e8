"""The standard actions as checks and effects (digest 7.2-7.7): each refusal is typed and
leaves the state as it was; each accepted action keeps every piece in one place."""
from __future__ import annotations

import copy

import pytest

from core.errors import ActionRejected, BadParameter, IllegalAction
from core.rng import seed_state
from core.state import Seat
from plugins.arcs.actions import (
    Move, check_build, check_influence, check_move, check_repair, check_secure, check_tax, dispose_vox, do_build,
    do_influence, do_move, do_repair, do_tax, refill_court, take_court_card,
)
from plugins.arcs.content import default_box
from plugins.arcs.invariants import problems
from plugins.arcs.reach import reach_for
from plugins.arcs.setup import open_slots, set_up
from plugins.arcs.state import ArcsState, Building, Ships, SystemState
from tests.arcs.flow_helpers import place_waiting

BOX = default_box()


def bare(players: int = 3, out_of_play=(1, 4)) -> ArcsState:
    """A set-up table whose map is then emptied, so a test lays out exactly its pieces."""
    state = ArcsState(game="arcs", seats=[Seat(index=i) for i in range(players)], rng=seed_state(1))
    set_up(BOX, state, "3SETUP01" if players == 3 else "")
    for system in state.systems.values():
        for seat, ships in enumerate(system.ships):
            state.players[seat].ships += ships.total
        for b in system.buildings:
            if b.kind == "starport":
                state.players[b.owner].starports += 1
            else:
                board = state.players[b.owner].cities_on_board
                board[board.index(False)] = True
    state.systems = {s: SystemState(ships=[Ships() for _ in range(players)]) for s in state.systems}
    for p in state.players:
        for r in p.resources:
            if r:
                state.supply[r] += 1
        p.resources = [None] * 6
    return state


def put(state: ArcsState, system: str, seat: int, fresh: int = 0, damaged: int = 0, buildings=()) -> None:
    here = state.systems[system]
    here.ships[seat] = Ships(fresh=here.ships[seat].fresh + fresh, damaged=here.ships[seat].damaged + damaged)
    state.players[seat].ships -= fresh + damaged
    for kind, is_damaged in buildings:
        here.buildings.append(Building(kind=kind, owner=seat, damaged=is_damaged))
        if kind == "starport":
            state.players[seat].starports -= 1
        else:
            board = state.players[seat].cities_on_board
            board[board.index(True)] = False


def refused(check, state, *args, error=ActionRejected):
    before = copy.deepcopy(state)
    with pytest.raises(error):
        check(state, *args)
    assert state == before


def test_tax_loyal_and_rival_cities_ARCS_136_to_142():
    """ARCS-136/137: any Loyal city, a Rival city only where you control; ARCS-138: the planet's
    resource; ARCS-139: a Rival city also gives a captive; ARCS-140: none if they have no agent;
    ARCS-141: once per city per turn; ARCS-142: legal with nothing to gain."""
    state = bare()
    put(state, "2.3", 0, fresh=1, buildings=[("city", False)])  # 2.3 is a Relic planet
    put(state, "3.1", 1, buildings=[("city", False)])           # Material, seat 1's city
    put(state, "3.1", 0, fresh=2)
    taxed: list = []
    check_tax(state, 0, "2.3", 0, taxed)
    assert do_tax(BOX, state, 0, "2.3", 0) == {"resource": "relic", "captive": None}
    taxed.append(["2.3", 0])
    refused(check_tax, state, 0, "2.3", 0, taxed, error=IllegalAction)
    check_tax(state, 0, "3.1", 0, taxed)
    assert do_tax(BOX, state, 0, "3.1", 0) == {"resource": "material", "captive": 1}
    place_waiting(state)
    assert state.players[0].resources[:2] == ["relic", "material"] and state.players[0].captives == [1]
    put(state, "3.1", 1, fresh=2)  # now tied: nobody controls
    refused(check_tax, state, 0, "3.1", 0, [], error=IllegalAction)
    refused(check_tax, state, 0, "3.2", 0, [], error=BadParameter)  # no city there
    state.supply["relic"] = 0
    state.players[1].agents = 0
    put(state, "3.1", 0, fresh=1)
    assert do_tax(BOX, state, 0, "2.3", 0) == {"resource": None, "captive": None}
    assert do_tax(BOX, state, 0, "3.1", 0) == {"resource": "material", "captive": None}
    state.supply["relic"], state.players[1].agents = 4, 9  # the emptied supplies, put back
    assert problems(BOX, state) == []


def test_build_buildings_and_ships_ARCS_143_to_149():
    """ARCS-143/144: a building in an empty slot of a planet with a Loyal piece, the leftmost city;
    ARCS-145: a ship at a Loyal starport, one per starport per turn; ARCS-146/147: damaged where
    another player controls, fresh where nobody does; ARCS-148: an empty supply places nothing;
    ARCS-149: the city's board slot opens a resource slot."""
    state = bare()
    put(state, "2.3", 0, damaged=1)
    used: list = []
    check_build(BOX, state, 0, "2.3", "city", used)
    do_build(state, 0, "2.3", "city", used)
    assert state.players[0].cities_on_board == [False, True, True, True, True]
    assert open_slots(BOX, state.players[0]) == [0, 1, 2]
    refused(lambda s, *a: check_build(BOX, s, *a), state, 0, "2G", "city", used, error=IllegalAction)
    refused(lambda s, *a: check_build(BOX, s, *a), state, 0, "3.1", "starport", used, error=IllegalAction)
    put(state, "2.3", 1, fresh=2)  # seat 1 controls 2.3
    check_build(BOX, state, 0, "2.3", "starport", used)
    do_build(state, 0, "2.3", "starport", used)
    assert state.systems["2.3"].buildings[-1] == Building("starport", 0, True)
    refused(lambda s, *a: check_build(BOX, s, *a), state, 0, "2.3", "city", used, error=IllegalAction)  # slots full
    check_build(BOX, state, 0, "2.3", "ship", used)
    do_build(state, 0, "2.3", "ship", used)
    assert state.systems["2.3"].ships[0] == Ships(fresh=0, damaged=2)
    refused(lambda s, *a: check_build(BOX, s, *a), state, 0, "2.3", "ship", used, error=IllegalAction)
    put(state, "2.3", 0, fresh=3)  # now seat 0 controls: a new turn's ship is fresh
    do_build(state, 0, "2.3", "ship", [])
    assert state.systems["2.3"].ships[0] == Ships(fresh=4, damaged=2)
    state.players[0].ships = 0
    check_build(BOX, state, 0, "2.3", "ship", [])
    assert do_build(state, 0, "2.3", "ship", []) is False
    state.players[0].ships = 15 - 6
    assert problems(BOX, state) == []


def test_repair_ARCS_150():
    """ARCS-150: one damaged Loyal ship or building anywhere turns fresh."""
    state = bare()
    put(state, "5.3", 1, damaged=2, buildings=[("city", True)])
    check_repair(state, 1, "5.3", "ship")
    do_repair(state, 1, "5.3", "ship")
    assert state.systems["5.3"].ships[1] == Ships(fresh=1, damaged=1)
    check_repair(state, 1, "5.3", "building", 0)
    do_repair(state, 1, "5.3", "building", 0)
    assert state.systems["5.3"].buildings[0].damaged is False
    refused(check_repair, state, 1, "5.3", "building", 0, error=IllegalAction)
    refused(check_repair, state, 0, "5.3", "ship", error=IllegalAction)


def test_move_and_catapult_ARCS_151_to_158():
    """ARCS-151: any Loyal ships from one system to an adjacent one; ARCS-152: from a Loyal
    starport the group may go on, dropping ships, until it enters a planet or a gate another
    player controls; ARCS-153: control checked before entering; ARCS-154: it may stop, and
    backtrack along gates; ARCS-155: a Rival starport gives no Catapult; ARCS-157: never out of
    play; ARCS-158: Rival pieces do not otherwise restrict moves."""
    state = bare()  # 3SETUP01: clusters 1 and 4 out
    reach = reach_for(BOX, state.out_of_play)
    put(state, "3.1", 0, fresh=3, damaged=1, buildings=[("starport", False)])
    put(state, "3.2", 2, fresh=5)  # Rival ships do not block a single move
    check_move(state, reach, 0, Move("3.1", 1, 0, ("3.2",)))
    # the digest's own example: leave a cluster-3 planet, drop ships at 3G, go on to 5G (4 is out:
    # one step through the path marker), turn back, end on another cluster-3 planet
    trip = Move("3.1", 3, 1, ("3G", "5G", "3G", "3.3"), drops=((1, 0), (0, 0), (0, 0), (0, 0)))
    check_move(state, reach, 0, trip)
    do_move(state, 0, trip)
    assert state.systems["3G"].ships[0] == Ships(fresh=1) and state.systems["3.3"].ships[0] == Ships(fresh=2, damaged=1)
    assert state.systems["3.1"].ships[0] == Ships()
    assert problems(BOX, state) == []
    state = bare()
    put(state, "3.1", 0, fresh=2, buildings=[("starport", False)])
    put(state, "3G", 1, fresh=1)
    refused(check_move, state, reach, 0, Move("3.1", 2, 0, ("3G", "2G")), error=IllegalAction)  # 3G is seat 1's
    refused(check_move, state, reach, 0, Move("3.1", 2, 0, ("3.2", "3G")), error=IllegalAction)  # a planet stops it
    refused(check_move, state, reach, 0, Move("3.1", 2, 0, ("4.1",)), error=IllegalAction)  # out of play
    refused(check_move, state, reach, 0, Move("3.1", 3, 0, ("3G",)), error=BadParameter)  # only 2 ships
    refused(check_move, state, reach, 0, Move("3.1", 1, 0, ("5G",)), error=BadParameter)  # not adjacent
    put(state, "3G", 0, fresh=1)  # tied at 3G: nobody controls it, so the group may pass
    check_move(state, reach, 0, Move("3.1", 2, 0, ("3G", "2G")))
    put(state, "2.3", 0, fresh=1, buildings=[])
    state.systems["2.3"].buildings.append(Building("starport", 1))
    state.players[1].starports -= 1
    refused(check_move, state, reach, 0, Move("2.3", 1, 0, ("2G", "3G")), error=IllegalAction)  # a Rival's starport


def test_influence_and_secure_ARCS_160_to_166():
    """ARCS-160/161: an agent onto a Court card, none without agents; ARCS-162: securing needs
    strictly more agents than each Rival; ARCS-163/164: own agents home, Rival agents captive,
    a Guild card to the play area; ARCS-166: the deck's top card fills the place (A-R3: an empty
    deck leaves it empty)."""
    state = bare()
    guild = next(c for c in state.court_row if BOX.court[c].kind == "guild")
    for seat in (0, 0, 1):
        check_influence(state, seat, guild)
        do_influence(state, seat, guild)
    refused(check_secure, state, 1, guild, error=IllegalAction)
    check_secure(state, 0, guild)
    top = state.court_deck[0]
    refill_court(state, take_court_card(BOX, state, 0, guild, "captives"))
    assert state.players[0].guild == [guild] and state.players[0].captives == [1]
    assert state.players[0].agents == 10 and top in state.court_row
    assert problems(BOX, state) == []
    refused(check_influence, state, 0, guild, error=BadParameter)
    state.players[2].agents = 0
    refused(check_influence, state, 2, top, error=IllegalAction)
    tie = state.court_row[0]
    do_influence(state, 0, tie)
    do_influence(state, 1, tie)
    refused(check_secure, state, 0, tie, error=IllegalAction)
    state.court_deck, state.court_discard = [], state.court_deck
    rows = len(state.court_row)
    do_influence(state, 1, tie)
    refill_court(state, take_court_card(BOX, state, 1, tie, "captives"))
    for card in list(state.resolving):
        dispose_vox(BOX, state, card)
    assert len(state.court_row) == rows - 1
    state.players[2].agents = 10
    assert problems(BOX, state) == []
