"""The Event action cards (rulebook "Events", BR-142..BR-151): what a player may do with
one, and what playing one buys. Pure reads of the round as the table sees it."""
from __future__ import annotations

from plugins.arcs import plays as cards
from plugins.arcs.content import Box
from plugins.blighted_reach.setup import is_event_card
from plugins.blighted_reach.state import BlightedReachState


def follow_kinds(card: str) -> list[str] | None:
    """BR-145, BR-149: an Event follows only as an Event play (never a Copy, a Pivot or a
    Surpass, so it never takes the initiative by itself)."""
    return ["event"] if is_event_card(card) else None


def another_event_first(state: BlightedReachState, seat: int) -> bool:
    """BR-147: a Rival played an Event card earlier this round, or secured the Council."""
    earlier = state.plays[:-1] if state.plays and state.plays[-1].seat == seat else state.plays
    return (any(p.kind == "event" and p.seat != seat for p in earlier)
            or state.council_secured_by not in (-1, seat))


def buys(box: Box, state: BlightedReachState, seat: int) -> tuple[int, list[str]]:
    """BR-146, BR-147: the lead card's actions, as many as its pips, or none after a
    Rival's Event or Council this round (the Prelude stays open either way, BR-148)."""
    lead = cards.card(box, state.lead)
    actions = list(box.actions.suits[lead.suit])
    return (0 if another_event_first(state, seat) else lead.pips), actions


def events_played(state: BlightedReachState) -> bool:
    return any(p.kind == "event" for p in state.plays)
