"""Who controls a system (ARCS-130..132): strictly more fresh ships than every other
single player. Damaged ships and buildings count for nothing."""
from __future__ import annotations

from typing import Callable

from plugins.arcs.state import ArcsState, SystemState


def controller(system: SystemState) -> int | None:
    """The controlling seat, or None when the most fresh ships are tied or there are none."""
    best, best_count, tied = None, 0, False
    for seat, ships in enumerate(system.ships):
        if ships.fresh > best_count:
            best, best_count, tied = seat, ships.fresh, False
        elif ships.fresh == best_count and ships.fresh > 0:
            tied = True
    return None if tied else best


# A game built on Arcs may read control its own way where a card's effect asks for it (the
# campaign: Empire control, and a Regent's control through the Presence Law on its own
# turn). Each reader(state, seat, system, on_turn) returns whether the seat controls the
# system, or None when the table is not its game's.
CONTROL_READERS: list[Callable[[ArcsState, int, str, bool], bool | None]] = []


def controls(state: ArcsState, seat: int, system: str, on_turn: bool = True) -> bool:
    """Whether `seat` controls `system` for a card's effect: on its own turn (the default), or
    while a Rival acts (`on_turn=False`, e.g. Gate Ports). ARCS-130, or the rule of the game
    built on these rules."""
    for reader in CONTROL_READERS:
        verdict = reader(state, seat, system, on_turn)
        if verdict is not None:
            return verdict
    return controller(state.systems[system]) == seat


def controlling_seat(state: ArcsState, system: str) -> int | None:
    """The seat that controls `system` while a Rival acts, or None."""
    return next((s for s in range(len(state.players)) if controls(state, s, system, on_turn=False)), None)
