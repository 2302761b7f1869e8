"""Arranged Act I campaign tables with a Flagship (issue 19): the real set-up state of
`tests.blighted_reach.crisis_tables`, a Flagship granted through the rules, and moves
that keep every piece count, so the campaign's invariants hold after each one."""
from __future__ import annotations

from plugins.blighted_reach.state import BlightedReachState
from plugins.flagships import rules
from plugins.flagships.state import BoardPiece, board_of, store
from tests.blighted_reach.crisis_tables import BOX, CBOX, DANE, LOTUS, MIKAH, assert_sound, clear, played_table, set_ships

__all__ = ["BOX", "CBOX", "DANE", "LOTUS", "MIKAH", "assert_sound", "clear", "set_ships",
           "flagship_table", "move_flagship", "put", "MATERIAL", "FUEL", "WEAPON", "RELIC", "PSIONIC", "GATE"]

# Planets of the map no Imperial ship stands at in this set-up (the Blight there is cleared).
MATERIAL, FUEL, WEAPON, RELIC, PSIONIC, GATE = "4.3", "4.2", "3.3", "4.1", "5.3", "4G"


def flagship_table(seat: int = LOTUS, system: str = MATERIAL, n: int = 3) -> BlightedReachState:
    """Act I with `seat` granted a Flagship in `system`, emptied of ships and Blight."""
    state = played_table(n)
    clear(state, system)
    rules.grant(BOX, state, seat, system)
    assert_sound(state)
    return state


def move_flagship(state: BlightedReachState, seat: int, system: str) -> None:
    """The Flagship moves (its move is the base Move action's, not this slice's)."""
    ship = board_of(state, seat)
    ship.system = system
    store(state, seat, ship)


def put(state: BlightedReachState, seat: int, slot: int | str, layer: str, kind: str, damaged: bool = False) -> None:
    """Build straight into a slot, the piece taken from the seat's supply as a build does
    (arranging a board without walking the Flagship around the map)."""
    from plugins.flagships.content import default_content

    index = rules.slot_index(default_content(), slot)
    player = state.players[seat]
    if kind == "city":
        player.cities_on_board[player.cities_on_board.index(True)] = False
    else:
        player.starports -= 1
    ship = board_of(state, seat)
    ship.slots[index].put(layer, BoardPiece(kind=kind, damaged=damaged))
    store(state, seat, ship)
