"""Ships held as Captives (Happy Hosts' Pacify, F1012): one place that says how such a
Captive is held, lifted out of its holder's Captives box and sent home, so every rule that
reads Captives (Prison Wardens' Pressgang and Execute, BC12 and its reprints F1007/F1008;
Summits' Transfer Asset; the Collect Demand of a Policy of War, the Steward's too) treats a
captured ship as the Captive it is.

`state.ship_captives` maps a holder seat (as text) to the owners of its captured ships: a
seat, or the Empire (`board.EMPIRE`) for an Imperial ship.
# Reading: a ship Captive that goes "home" (returned, or given to its owner) goes to its
# owner's supply, the Empire's for an Imperial one, as an agent Captive goes to its owner's
# supply; one moved to Trophies becomes a ship Trophy of its owner. Pacify is an Act III
# card and no Intermission follows Act III, so the Intermission never meets a ship Captive.
"""
from __future__ import annotations

from plugins.arcs import court_ops
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


def any_captives(state: BlightedReachState, seat: int) -> bool:
    """The seat has a Captive of either kind."""
    return bool(state.players[seat].captives or held(state, seat))


court_ops.SHIP_CAPTIVES.append(court_ops.ShipCaptives(held=held, take=take, send_home=send_home))
