"""Ships held as Captives (Happy Hosts' Pacify, F1012): one place that says how such a
Captive is held, lifted out of its holder's Captives box and sent home, so every rule that
reads Captives (Prison Wardens' Pressgang and Execute, BC12 and its reprints F1007/F1008;
Summits' Transfer Asset; the Collect Demand of a Policy of War, the Steward's too) treats a
captured ship as the Captive it is.

`state.ship_captives` maps a holder seat (as text) to the owners of its captured ships: a
seat, or the Empire (`board.EMPIRE`) for an Imperial ship. The base game's Prison Wardens
read them through `court_ops.SHIP_CAPTIVES` (registered with the Hegemon's rules).
# Reading: a ship Captive that goes "home" (returned, or given to its owner) goes to its
# owner's supply, the Empire's for an Imperial one, as an agent Captive goes to its owner's
# supply; one moved to Trophies becomes a ship Trophy of its owner. Pacify is an Act III
# card and no Intermission follows Act III, so the Intermission never meets a ship Captive.
"""
from __future__ import annotations

from plugins.blighted_reach import board
from plugins.blighted_reach.state import BlightedReachState


def held(state, seat: int) -> list[int]:
    """The owners of the seat's ship Captives ([] outside the campaign)."""
    return list(state.ship_captives.get(str(seat), [])) if isinstance(state, BlightedReachState) else []


def add(state: BlightedReachState, seat: int, owner: int) -> None:
    state.ship_captives = {**state.ship_captives, str(seat): [*held(state, seat), owner]}


def take(state: BlightedReachState, seat: int, owner: int) -> None:
    """One of the seat's ship Captives of `owner` leaves its Captives box (the caller says where to)."""
    left = held(state, seat)
    left.remove(owner)
    state.ship_captives = {k: v for k, v in {**state.ship_captives, str(seat): left}.items() if v}


def send_home(state: BlightedReachState, owner: int) -> None:
    """A ship back to its owner's supply: a player's, or the Empire's."""
    if owner == board.EMPIRE:
        state.imperial_supply += 1
    else:
        state.players[owner].ships += 1


def hand_over(state: BlightedReachState, giver: int, taker: int, owner: int) -> bool:
    """One of `giver`'s ship Captives of `owner` to `taker`: home to the taker's supply when it
    is the taker's own ship (True), else among the taker's Captives."""
    take(state, giver, owner)
    if owner == taker:
        send_home(state, owner)
        return True
    add(state, taker, owner)
    return False


def count(state, seat: int) -> int:
    """The seat's Captives of both kinds."""
    return len(state.players[seat].captives) + len(held(state, seat))


def any_captives(state: BlightedReachState, seat: int) -> bool:
    """The seat has a Captive of either kind."""
    return bool(state.players[seat].captives or held(state, seat))


# Rules that let a seat keep ship Captives when Tyrant's Captives return (Happy Hosts, Vow of
# Survival), as `chapter.CAPTIVES_KEPT` does for agents: fn(state, seat) -> the owners of the
# ship Captives the seat keeps, or None to leave it to the next rule (none: all go home).
KEPT: list = []


def kept(state: BlightedReachState, seat: int) -> list[int]:
    for rule in KEPT:
        owners = rule(state, seat)
        if owners is not None:
            return list(owners)
    return []


def tokens(state: BlightedReachState, seat: int) -> list[tuple[str, int]]:
    """The seat's Captives, each as (kind, owner): ("agent", o) and ("ship", o)."""
    return [*(("agent", o) for o in state.players[seat].captives), *(("ship", o) for o in held(state, seat))]

