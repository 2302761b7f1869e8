"""Favors: a Rival's agents lying on a player's Fate card. They are real agents, so each is
in exactly one place: its owner's supply, the Court, a Captives or Trophies box, an Outrage
slot, or one Fate card as a Favor. The Imperial Demand takes them (BR-249); Summits return
and give them (another module); a player taking a new Fate returns all of theirs.

`state.favors[holder]` lists the owners of the agents on the holder's Fate card.
"""
from __future__ import annotations

from core.errors import BadParameter, IllegalAction
from core.seats import seat_name
from plugins.arcs.outrage import agent_returns
from plugins.blighted_reach.state import BlightedReachState


def favors_of(state: BlightedReachState, holder: int) -> list[int]:
    """The owners of the Favors on the holder's Fate card (a copy)."""
    return list(state.favors[holder]) if holder < len(state.favors) else []


def favor_row(state: BlightedReachState, holder: int) -> list[int]:
    """The holder's Favors, as the list itself (made as long as the table first)."""
    while len(state.favors) < len(state.players):
        state.favors.append([])
    return state.favors[holder]


def check_take_favor(state: BlightedReachState, holder: int, owner: int) -> None:
    if not (0 <= holder < len(state.players) and 0 <= owner < len(state.players)):
        raise BadParameter("no such seat")
    if holder == owner:
        raise IllegalAction("a Favor is a Rival's agent")
    if state.players[owner].agents <= 0:
        raise IllegalAction(f"{seat_name(owner)} has no agent in supply")


def take_favor(state: BlightedReachState, holder: int, owner: int) -> None:
    """One agent leaves the owner's supply for the holder's Fate card."""
    check_take_favor(state, holder, owner)
    state.players[owner].agents -= 1
    favor_row(state, holder).append(owner)


def check_return_favor(state: BlightedReachState, holder: int, owner: int) -> None:
    if owner not in favors_of(state, holder):
        raise IllegalAction(f"{seat_name(holder)} holds no Favor of {seat_name(owner)}")


def return_favor(state: BlightedReachState, holder: int, owner: int) -> None:
    """One of the owner's agents goes from the holder's Fate card back to the owner's supply."""
    check_return_favor(state, holder, owner)
    state.favors[holder].remove(owner)
    agent_returns(state, owner)  # home, filling an Outrage placeholder first (ARCS-194)


def return_all_favors(state: BlightedReachState, holder: int) -> dict[int, int]:
    """Every Favor the holder has goes home (a new Fate, Intermission F). Returns owner -> count."""
    back: dict[int, int] = {}
    for owner in favors_of(state, holder):
        return_favor(state, holder, owner)
        back[owner] = back.get(owner, 0) + 1
    return back


def favor_problems(state: BlightedReachState) -> list[str]:
    """A Favor must be a real seat's agent on a Rival's card, and no seat has a row beyond the table."""
    out = []
    n = len(state.players)
    if len(state.favors) > n:
        out.append("Favors are recorded for a seat not at the table")
    for holder, owners in enumerate(state.favors):
        if any(not 0 <= o < n for o in owners):
            out.append(f"{seat_name(holder)} holds a Favor of no seat")
        if holder in owners:
            out.append(f"{seat_name(holder)} holds its own agent as a Favor")
    return out


def favors_owned(state: BlightedReachState, owner: int) -> int:
    """How many of the owner's agents lie on Rivals' Fate cards."""
    return sum(row.count(owner) for row in state.favors)
