"""Resettling a Flagship (BR-305..BR-307), which the "C" Fates offer: the seat gives up its
Flagship and comes back to the map as a player of Loyal buildings.

1. The board is cleared (its cities and starports to the seat's supply, a city to its player
   board), the board leaves play, and a Loyal ship from the supply stands where the Flagship
   stood (`clear_board`).
2. The seat places 1 city and then 1 starport, each in an empty building slot of a planet;
   only where no slot on the map is empty does it replace a Free building, which goes back
   to the Free supply (`place_options`, `place`).
3. With fewer than 8 Loyal ships on the map it adds ships from its supply, each in a system
   holding its Loyal pieces, up to 8 (`ships_wanted`, `check_ships`).

Readings: the pieces are placed, not built, so they are fresh and no Build rule applies; a
piece the supply lacks is not placed (ARCS-148); the systems for step 3 are those holding
the seat's Loyal ships or buildings once step 2 is done.

Through the engine: a Fate pushes `resettle_steps(seat)`; each choice is a typed decision
(`br.resettle_building`, `br.resettle_ships`) with its candidates listed for bots.
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, IllegalAction
from core.seats import seat_name
from plugins.arcs.chapter import return_city
from plugins.arcs.content import Box, box_for
from plugins.arcs.setup import place_building
from plugins.arcs.state import Building, Ships
from plugins.blighted_reach.state import FREE, BlightedReachState
from plugins.blighted_reach.tables import decisions, steps
from plugins.flagships import rules
from plugins.flagships.state import store

SHIPS_ON_MAP = 8  # BR-307


def clear_board(box: Box, state: BlightedReachState, seat: int) -> dict:
    """Step 1 (BR-305): what the board held goes home, the board leaves, a Loyal ship takes
    the Flagship's place (if the supply has one). Returns what was done."""
    ship = rules.flagship(state, seat)
    kinds = [p.kind for _, _, p in ship.pieces()]
    for kind in kinds:
        if kind == "starport":
            state.players[seat].starports += 1
        else:
            return_city(box, state, seat)
    store(state, seat, None)
    player, here = state.players[seat], state.systems[ship.system]
    placed = player.ships > 0
    if placed:
        player.ships -= 1
        mine = here.ships[seat]
        here.ships[seat] = Ships(fresh=mine.fresh + 1, damaged=mine.damaged)
    return {"system": ship.system, "returned": kinds, "ship": placed}


def _empty_slots(box: Box, state: BlightedReachState) -> list[str]:
    return [s for s, here in sorted(state.systems.items())
            if box.systems.get(s) is not None and len(here.buildings) < box.systems[s].slots]


def place_options(box: Box, state: BlightedReachState) -> list[tuple[str, int]]:
    """Where step 2 may put a building: (planet, -1) for each planet with an empty slot;
    only when there is none, (system, index) of each Free building to replace (BR-306)."""
    empty = _empty_slots(box, state)
    if empty:
        return [(s, -1) for s in empty]
    return [(s, i) for s, here in sorted(state.systems.items()) for i, b in enumerate(here.buildings) if b.owner == FREE]


def has_in_supply(state: BlightedReachState, seat: int, kind: str) -> bool:
    player = state.players[seat]
    return (True in player.cities_on_board) if kind == "city" else player.starports > 0


def check_place(box: Box, state: BlightedReachState, seat: int, kind: str, system: str, slot: int) -> None:
    if not has_in_supply(state, seat, kind):
        raise IllegalAction(f"{seat_name(seat)} has no {kind} in supply")
    if (system, slot) not in place_options(box, state):
        if system not in state.systems:
            raise BadParameter(f"{system!r} is not a system on the map")
        raise IllegalAction(f"a {kind} goes in an empty building slot, or over a Free building only where no "
                            f"slot on the map is empty: not {system} slot {slot}")


def place(box: Box, state: BlightedReachState, seat: int, kind: str, system: str, slot: int) -> str | None:
    """Place the building (step 2); returns the kind of the Free building it replaced."""
    check_place(box, state, seat, kind, system, slot)
    if slot < 0:
        place_building(state, system, seat, kind)
        return None
    here = state.systems[system]
    replaced = here.buildings[slot].kind
    if replaced == "city":
        state.free_city_supply += 1
    else:
        state.free_starport_supply += 1
    player = state.players[seat]
    if kind == "city":
        player.cities_on_board[player.cities_on_board.index(True)] = False  # leftmost first (ARCS-144)
    else:
        player.starports -= 1
    here.buildings[slot] = Building(kind=kind, owner=seat)
    return replaced


def ships_on_map(state: BlightedReachState, seat: int) -> int:
    return sum(here.ships_of(seat).total for here in state.systems.values())


def ships_wanted(state: BlightedReachState, seat: int) -> int:
    """How many ships step 3 adds: up to 8 on the map, as far as the supply goes (BR-307)."""
    return max(0, min(SHIPS_ON_MAP - ships_on_map(state, seat), state.players[seat].ships))


def loyal_systems(state: BlightedReachState, seat: int) -> list[str]:
    return [s for s, here in sorted(state.systems.items())
            if here.ships_of(seat).total or any(b.owner == seat for b in here.buildings)]


def check_ships(state: BlightedReachState, seat: int, systems: list[str]) -> None:
    want = ships_wanted(state, seat)
    if len(systems) != want:
        raise BadParameter(f"name {want} system(s), one per ship placed, not {len(systems)}")
    allowed = set(loyal_systems(state, seat))
    wrong = [s for s in systems if s not in allowed]
    if wrong:
        raise IllegalAction(f"ships go to systems holding {seat_name(seat)}'s Loyal pieces, not {wrong}")


def add_ships(state: BlightedReachState, seat: int, systems: list[str]) -> None:
    check_ships(state, seat, systems)
    for system in systems:
        state.players[seat].ships -= 1
        mine = state.systems[system].ships[seat]
        state.systems[system].ships[seat] = Ships(fresh=mine.fresh + 1, damaged=mine.damaged)


# -- through the engine --------------------------------------------------------------------
class ResettleBuilding(msgspec.Struct, forbid_unknown_fields=True):
    """Where the building goes: a planet and -1 (an empty slot), or the index of the Free
    building it replaces."""

    system: str
    slot: int = -1


class ResettleShips(msgspec.Struct, forbid_unknown_fields=True):
    systems: list[str]  # one per ship placed


def resettle_steps(seat: int) -> list:
    """What a Fate pushes for a seat that Resettles."""
    return [(flagship_resettle, {"seat": seat})]


@steps("flagship_resettle")
def flagship_resettle(ctx, seat: int):
    done = clear_board(box_for(ctx.state), ctx.state, seat)
    ctx.emit("flagship_resettled", seat=seat, **done)
    ctx.push_all([(resettle_place, {"seat": seat, "kind": "city"}), (resettle_place, {"seat": seat, "kind": "starport"}),
                  (resettle_ships, {"seat": seat})])


@steps("flagship_resettle_place")
def resettle_place(ctx, seat: int, kind: str):
    """Step 2 for one building, asked unless the supply lacks it or the map has no place."""
    state = ctx.state
    if has_in_supply(state, seat, kind) and place_options(box_for(state), state):
        ctx.decide(seat, "br.resettle_building", resume=resettle_placed, building=kind)


@decisions.kind("resettle_building", answer="resettle_building", params=ResettleBuilding,
                describe="Resettling: place your city or starport in an empty building slot (a Free building "
                         "only where none is empty).")
def check_resettle_building(state, seat, prompt, answer: ResettleBuilding):
    check_place(box_for(state), state, seat, prompt.args["building"], answer.system, answer.slot)


@check_resettle_building.candidates
def _resettle_building_options(state, seat, prompt):
    for system, slot in place_options(box_for(state), state):
        yield {"system": system, "slot": slot}


@steps("flagship_resettle_placed")
def resettle_placed(ctx, seat, params: ResettleBuilding, building: str):
    replaced = place(box_for(ctx.state), ctx.state, seat, building, params.system, params.slot)
    ctx.emit("resettle_placed", seat=seat, kind=building, system=params.system, replaced=replaced)


@steps("flagship_resettle_ships")
def resettle_ships(ctx, seat: int):
    """Step 3, asked when ships are wanted and a system can take them."""
    state = ctx.state
    if ships_wanted(state, seat) and loyal_systems(state, seat):
        ctx.decide(seat, "br.resettle_ships", resume=resettle_ships_placed)


@decisions.kind("resettle_ships", answer="resettle_ships", params=ResettleShips,
                describe="Resettling: add Loyal ships up to 8 on the map, each in a system holding your Loyal pieces.")
def check_resettle_ships(state, seat, prompt, answer: ResettleShips):
    check_ships(state, seat, answer.systems)


@check_resettle_ships.candidates
def _resettle_ship_options(state, seat, prompt):
    want, systems = ships_wanted(state, seat), loyal_systems(state, seat)
    for system in systems:
        yield {"systems": [system] * want}
    if len(systems) > 1:
        yield {"systems": [systems[i % len(systems)] for i in range(want)]}


@steps("flagship_resettle_ships_placed")
def resettle_ships_placed(ctx, seat, params: ResettleShips):
    add_ships(ctx.state, seat, params.systems)
    ctx.emit("resettle_ships", seat=seat, systems=list(params.systems))
