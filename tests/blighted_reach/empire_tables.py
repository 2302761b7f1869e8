"""Real Act I tables for the Empire and Free States tests, and small arrangements of pieces
that keep every piece counted once (ships and buildings come from and go to supplies), so
`problems(...)` stays empty on every arranged table."""
from __future__ import annotations

import msgspec

from core.rng import Rng, seed_state
from core.state import Seat
from plugins.arcs.content import default_box as arcs_box
from plugins.arcs.setup import place_building
from plugins.arcs.state import Ships
from plugins.blighted_reach import setup as br
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.invariants import problems
from plugins.blighted_reach.state import FREE, BlightedReachState, Pieces

BOX, CBOX = arcs_box(), campaign_box()


def table(n: int = 3, seed: int = 1, number: int = 1, symbol: str = "arrow") -> BlightedReachState:
    """A set-up table: Imperial clusters `number` and the next, Fates kept, the First
    Regent given, every starting placement made (first open Imperial planet, city then
    starport)."""
    state = BlightedReachState(game="blighted_reach", seats=[Seat(index=i) for i in range(n)], rng=seed_state(seed))
    br.set_up_act_one(BOX, CBOX, state, Rng(state), lambda die, faces: number if die == "number" else symbol)
    for seat in range(n):
        br.choose_fate(state, seat, state.fate_offers[seat][0])
    br.give_first_regent(state)
    while state.placement_order:
        seat = state.placement_order[0]
        system = next(s for s in sorted(state.imperial)
                      if BOX.systems[s] is not None and len(state.systems[s].buildings) < BOX.systems[s].slots)
        br.place_start(BOX, CBOX, state, seat, system, "city" if state.placements_done % 2 == 0 else "starport")
    sound(state)
    return state


def sound(state: BlightedReachState) -> None:
    assert problems(BOX, CBOX, state) == []


def snapshot(state: BlightedReachState) -> bytes:
    return msgspec.msgpack.encode(state)


def set_ships(state: BlightedReachState, seat: int, system: str, fresh: int = 0, damaged: int = 0) -> None:
    """The seat's ships in `system` become exactly these, through its supply."""
    here = state.systems[system].ships[seat]
    state.players[seat].ships += here.total - fresh - damaged
    state.systems[system].ships[seat] = Ships(fresh=fresh, damaged=damaged)
    assert state.players[seat].ships >= 0


def set_imperial(state: BlightedReachState, system: str, fresh: int = 0, damaged: int = 0) -> None:
    """The Imperial ships in `system` become exactly these, through the Imperial supply."""
    here = state.imperial.get(system, Pieces())
    state.imperial_supply += here.total - fresh - damaged
    if fresh + damaged:
        state.imperial[system] = Pieces(fresh=fresh, damaged=damaged)
    else:
        state.imperial.pop(system, None)
    assert state.imperial_supply >= 0


def clear_system(state: BlightedReachState, system: str) -> None:
    """No ship of anyone in `system` (buildings stay)."""
    for seat in range(len(state.players)):
        set_ships(state, seat, system)
    set_imperial(state, system)
    state.blight_supply += state.blight.pop(system, Pieces()).total


def remove_building(state: BlightedReachState, system: str, index: int) -> None:
    """Take a building off the map back to its supply (a Free one to the Free supply)."""
    b = state.systems[system].buildings.pop(index)
    if b.owner == FREE:
        if b.kind == "city":
            state.free_city_supply += 1
        else:
            state.free_starport_supply += 1
    elif b.kind == "city":
        cities = state.players[b.owner].cities_on_board
        cities[len(cities) - 1 - cities[::-1].index(False)] = True
    else:
        state.players[b.owner].starports += 1


def give_building(state: BlightedReachState, seat: int, system: str, kind: str, damaged: bool = False) -> int:
    """The seat gets a building in `system`, a Free building making room if the slots are
    full. Returns its index."""
    if len(state.systems[system].buildings) >= BOX.systems[system].slots:
        index = next(i for i, b in enumerate(state.systems[system].buildings) if b.owner == FREE)
        remove_building(state, system, index)
    assert place_building(state, system, seat, kind, damaged=damaged)
    return len(state.systems[system].buildings) - 1


def give_free(state: BlightedReachState, system: str, kind: str, damaged: bool = False) -> int:
    """A Free building in `system` from the Free supply, a player's or Free city making room."""
    from plugins.arcs.state import Building

    if len(state.systems[system].buildings) >= BOX.systems[system].slots:
        remove_building(state, system, 0)
    if kind == "city":
        state.free_city_supply -= 1
    else:
        state.free_starport_supply -= 1
    state.systems[system].buildings.append(Building(kind=kind, owner=FREE, damaged=damaged))
    return len(state.systems[system].buildings) - 1


def free_planet(state: BlightedReachState, system: str) -> None:
    """No building at all in `system`."""
    while state.systems[system].buildings:
        remove_building(state, system, 0)
