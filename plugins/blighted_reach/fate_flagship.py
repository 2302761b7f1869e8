"""Fates whose Act II setup gives their player a Flagship (the Pathfinder, the Hegemon, the
Planet Breaker, the Pirate): where it stands, its grant on the Flagship rules, and the
starports their setups put on its Upgrades.

A seat that already has a Flagship (the `flagships` module on) keeps it: "you gain a
Flagship" gives it nothing new, and the rest of the setup goes on with that one.
# Reading: the board's back (which places the piece) is not in the rules text; as the
# Flagships module's setup reads it, the piece joins the seat's ships; a seat with no ship on
# the map may name any system in play.
"""
from __future__ import annotations

from core.flow import step_name
from core.state import Action
from plugins.arcs.content import box_for
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps
from plugins.flagships import rules as flagship_rules
from plugins.flagships.content import default_content as flagship_content
from plugins.flagships.state import BoardPiece, board_of, store


def flagship_sites(state: BlightedReachState, seat: int) -> list[str]:
    """Where the Flagship may stand: a system holding the seat's Loyal ships (any system in
    play when it has none)."""
    mine = sorted(s for s, here in state.systems.items() if here.ships_of(seat).total)
    return mine or sorted(state.systems)


def grant_then(ctx, seat: int, why: str, then) -> None:
    """The seat gains its Flagship where it chooses (asked), then the step `then(seat, why)`
    runs at once, in the answer's own step; a seat that has one already goes straight to it."""
    if board_of(ctx.state, seat) is not None:
        ctx.call(then, seat=seat, why=why)
        return
    options = [Action("place_flagship", {"system": s}) for s in flagship_sites(ctx.state, seat)]
    ctx.ask(seat, "place_flagship", options, resume=flagship_site_chosen, why=why, then=step_name(then))


@steps("fate_flagship_site_chosen")
def flagship_site_chosen(ctx, seat, params, why: str, then: str):
    state = ctx.state
    freed = flagship_rules.grant(box_for(state), state, seat, params["system"])
    ctx.emit("flagship_granted", seat=seat, system=params["system"], freed=[list(f) for f in freed], why=why)
    ctx.rules.handlers[then](ctx, seat=seat, why=why)


def seat_starports(state: BlightedReachState, seat: int, upgrades) -> list[str]:
    """A fresh starport from the seat's supply on each named Upgrade slot still empty (setup
    places them, so the planet an Upgrade is built at does not matter). Returns those placed.
    # Reading: with no starport left in the supply, that Upgrade stays unbuilt."""
    ship, content, player = board_of(state, seat), flagship_content(), state.players[seat]
    placed = []
    for upgrade in upgrades:
        slot = ship.slots[content.slot_of(upgrade)]
        if slot.upgrade is None and player.starports > 0:
            player.starports -= 1
            slot.put("upgrade", BoardPiece(kind="starport"))
            placed.append(upgrade)
    store(state, seat, ship)
    return placed
