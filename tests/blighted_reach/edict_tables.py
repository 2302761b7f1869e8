"""Real Act I tables for the Edicts, Council and Trust tests: set up, Fates kept, starting
pieces placed, the First Regent tile given; then pieces arranged only by moves the box's
counts allow (tokens from the supply, pieces from a seat's supply), so the campaign's
invariants hold throughout."""
from __future__ import annotations

import msgspec

from core.rng import Rng, seed_state
from core.state import Seat
from plugins.arcs.content import default_box as arcs_box
from plugins.arcs.setup import empty_slots, place_building, take_resource
from plugins.arcs.state import Trophy
from plugins.blighted_reach import setup as br
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.invariants import problems
from plugins.blighted_reach.state import FREE, BlightedReachState

BOX, CBOX = arcs_box(), campaign_box()
PEACE, ESCALATION, WAR = "AID04", "AID05", "AID03"


def sound(state: BlightedReachState) -> None:
    found = problems(BOX, CBOX, state)
    assert not found, found


def snapshot(state: BlightedReachState) -> bytes:
    return msgspec.json.encode(state)


def table(n: int, seed: int = 1, first_regent: int = 0) -> BlightedReachState:
    state = BlightedReachState(game="blighted_reach", seats=[Seat(index=i) for i in range(n)], rng=seed_state(seed))
    br.set_up_act_one(BOX, CBOX, state, Rng(state))
    for seat in range(n):
        br.choose_fate(state, seat, state.fate_offers[seat][0])
    while state.placement_order:
        seat = state.placement_order[0]
        system = next(s for s in sorted(state.imperial)
                      if BOX.systems[s] is not None and len(state.systems[s].buildings) < BOX.systems[s].slots)
        br.place_start(BOX, CBOX, state, seat, system, "city" if state.placements_done % 2 == 0 else "starport")
    state.first_regent = first_regent
    sound(state)
    return state


def set_policy(state: BlightedReachState, policy: str) -> None:
    """Put that Policy card on top of the Govern stack (as changing the Policy would)."""
    stack = next(slot for slot in state.booklet if policy in slot)
    stack.remove(policy)
    stack.insert(0, policy)


def clear_row(state: BlightedReachState, seat: int) -> None:
    row = state.players[seat].resources
    for i, r in enumerate(row):
        if r is not None:
            state.supply[r] += 1
            row[i] = None


def give(state: BlightedReachState, seat: int, *resources: str) -> None:
    for r in resources:
        assert take_resource(BOX, state, seat, r, empty_slots(BOX, state.players[seat])[0])


def room(state: BlightedReachState) -> str:
    """A planet with an empty building slot and no Imperial ship."""
    return next(s for s, p in sorted(BOX.systems.items())
                if p is not None and s not in state.imperial and len(state.systems[s].buildings) < p.slots)


def build_cities(state: BlightedReachState, seat: int, total: int) -> None:
    """Build cities from the board (leftmost first) until `total` are off it."""
    while 5 - sum(state.players[seat].cities_on_board) < total:
        assert place_building(state, room(state), seat, "city")


def trophy_of_ship(state: BlightedReachState, taker: int, owner: int) -> None:
    """One of `owner`'s ships leaves its supply as if destroyed, into `taker`'s Trophies."""
    state.players[owner].ships -= 1
    state.players[taker].trophies.append(Trophy(owner=owner, kind="ship"))


def trophy_of_free_city(state: BlightedReachState, taker: int) -> None:
    state.free_city_supply -= 1
    state.players[taker].trophies.append(Trophy(owner=FREE, kind="city"))


def captive(state: BlightedReachState, taker: int, owner: int) -> None:
    state.players[owner].agents -= 1
    state.players[taker].captives.append(owner)
