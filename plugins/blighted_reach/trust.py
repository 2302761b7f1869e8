"""The Imperial Trust (BR-260..BR-264): the resources the Imperial Demand piles on the First
Regent tile. They belong to whoever holds the tile, and travel with it, but are frozen:
never spent, given or discarded (not even by Provoking Outrage), though they count toward
that player's ambitions and resource counts. They have no raid cost, so a battle cannot
steal them; card effects (Silver-Tongues) and an Outlaw resolving the Council can. At the
Intermission they go back to the supply.

The Trust is kept off the resource row (`state.trust`), so the base game's spending,
discarding and raiding, which all work on slots, cannot reach it. `frozen_resources` and
`spendable` are the queries a spending hook consults.
"""
from __future__ import annotations

from collections import Counter

from core.errors import BadParameter, IllegalAction
from core.seats import no_such_seat
from plugins.arcs.content import Box
from plugins.arcs.placing import receive
from plugins.arcs.scoring import ICONS
from plugins.blighted_reach.state import BlightedReachState


def holder(state: BlightedReachState) -> int:
    """The seat holding the Trust (the First Regent), -1 when the tile lies in the supply."""
    return state.first_regent


def frozen_resources(state: BlightedReachState, seat: int) -> list[str]:
    """The seat's resources that cannot be spent, given or discarded: the Trust for the First
    Regent, nothing for anyone else."""
    return list(state.trust) if seat == holder(state) and seat >= 0 else []


def spendable(box: Box, state: BlightedReachState, seat: int) -> list[int]:
    """The resource slots whose token the seat may spend, give or discard: every filled slot.
    The Trust is on the tile, not in a slot, so it is never among them (BR-260)."""
    return [i for i, r in enumerate(state.players[seat].resources) if r is not None]


def held_resources(state: BlightedReachState, seat: int) -> list[str]:
    """Everything the seat has when a rule counts its resources: its row and, for the First
    Regent, the Trust on the tile (the campaign's counting rule)."""
    row = [r for r in state.players[seat].resources if r is not None]
    return row + frozen_resources(state, seat)


def ambition_extra(state: BlightedReachState, seat: int, ambition: str) -> int:
    """What the Trust adds to the seat's count for an ambition (BR-261): its resources of the
    ambition's kinds, for the First Regent only. Warlord and Tyrant count no resources."""
    kinds = ICONS.get(ambition, ())
    return sum(1 for r in frozen_resources(state, seat) if r in kinds)


def add_to_trust(state: BlightedReachState, resource: str) -> None:
    if holder(state) < 0:
        raise IllegalAction("nobody holds the First Regent tile")
    state.trust.append(resource)


# -- stealing (BR-262, BR-263) ----------------------------------------------------------


def trust_theft_options(state: BlightedReachState, thief: int) -> list[dict]:
    """What a card that steals a resource may take from the Trust: one of each kind there.
    A battle's raid never calls this: the Trust has no raid cost (BR-262)."""
    if thief == holder(state) or holder(state) < 0:
        return []
    return [{"resource": r} for r in sorted(set(state.trust))]


def check_steal_from_trust(state: BlightedReachState, thief: int, resource: str) -> None:
    if not 0 <= thief < len(state.players):
        raise BadParameter(no_such_seat(thief, len(state.players)))
    if holder(state) < 0:
        raise IllegalAction("nobody holds the First Regent tile")
    if thief == holder(state):
        raise IllegalAction("the First Regent cannot steal their own Trust")
    if resource not in state.trust:
        raise IllegalAction(f"the Imperial Trust holds no {resource}")


def steal_from_trust(state: BlightedReachState, thief: int, resource: str) -> None:
    """A card effect steals one Trust resource: it leaves the tile and comes to the thief to
    place like any stolen token (it is no longer frozen)."""
    check_steal_from_trust(state, thief, resource)
    state.trust.remove(resource)
    receive(state, thief, resource)


def take_from_trust(state: BlightedReachState, resource: str) -> None:
    """One Trust resource leaves the tile for a rule that hands it on (Distribute Arms gives
    Weapons from the Trust once the supply has none); the caller says where it goes."""
    if resource not in state.trust:
        raise IllegalAction(f"the Imperial Trust holds no {resource}")
    state.trust.remove(resource)


# -- Intermission (BR-264) --------------------------------------------------------------


def return_trust(state: BlightedReachState) -> dict[str, int]:
    """Every Trust resource goes back to the supply (Intermission C2; also when the tile
    returns to the supply). Returns what went back, by type."""
    back = Counter(state.trust)
    for resource, n in back.items():
        state.supply[resource] = state.supply.get(resource, 0) + n
    state.trust = []
    return dict(sorted(back.items()))
