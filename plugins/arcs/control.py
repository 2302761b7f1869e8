"""Who controls a system (ARCS-130..132): strictly more fresh ships than every other
single player. Damaged ships and buildings count for nothing."""
from __future__ import annotations

from plugins.arcs.state import SystemState


def controller(system: SystemState) -> int | None:
    """The controlling seat, or None when the most fresh ships are tied or there are none."""
    best, best_count, tied = None, 0, False
    for seat, ships in enumerate(system.ships):
        if ships.fresh > best_count:
            best, best_count, tied = seat, ships.fresh, False
        elif ships.fresh == best_count and ships.fresh > 0:
            tied = True
    return None if tied else best
