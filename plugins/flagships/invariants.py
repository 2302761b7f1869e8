"""What must hold of every Flagship on a campaign table, module on or off: the piece stands
in a system in play (it never leaves the map, BR-267), its board has the six slots of the
content (BR-272) and no Armor stands without its Upgrade (BR-274). The board's cities and
starports are counted with the seat's other pieces by the campaign's invariants."""
from __future__ import annotations

from core.seats import seat_name
from plugins.arcs.content import Box
from plugins.blighted_reach.state import BlightedReachState
from plugins.flagships.content import default_content
from plugins.flagships.state import board_of, flagship_seats


def flagship_problems(box: Box, state: BlightedReachState) -> list[str]:
    out = []
    slots = len(default_content().upgrades)
    for seat in flagship_seats(state):
        if seat >= len(state.players):
            out.append(f"a Flagship belongs to no seat (seat index {seat})")
            continue
        ship = board_of(state, seat)
        if ship.system not in state.systems:
            out.append(f"{seat_name(seat)}'s Flagship is off the map")
        if len(ship.slots) != slots:
            out.append(f"{seat_name(seat)}'s Flagship board has {len(ship.slots)} slots, not {slots}")
        if any(s.armor is not None and s.upgrade is None for s in ship.slots):
            out.append(f"{seat_name(seat)}'s Flagship board has Armor without its Upgrade")
    return out
