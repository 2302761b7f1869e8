"""Turn orders as data: who acts in what order, without step arguments carrying an index.

Every order is a list of seats; games keep what they need in their state (the start seat,
the passed seats) and ask for the order again when it may have changed, e.g. after the
initiative was seized mid-round.
"""
from __future__ import annotations

from typing import Callable, Iterable


def clockwise(start: int, players: int, skip: Iterable[int] = ()) -> list[int]:
    """From `start` round the table in seat order, leaving out `skip` (passed seats)."""
    gone = set(skip)
    return [s for s in ((start + i) % players for i in range(players)) if s not in gone]


def counter_clockwise(start: int, players: int, skip: Iterable[int] = ()) -> list[int]:
    """From `start` the other way round (a reverse-order draft starts at the seat to the right)."""
    gone = set(skip)
    return [s for s in ((start - i) % players for i in range(players)) if s not in gone]


def by_key(seats: Iterable[int], key: Callable[[int], object], reverse: bool = False,
           tie: Callable[[int], object] | None = None) -> list[int]:
    """Seats ordered by `key` (e.g. least Hegemony first); ties by `tie`, else by seat order."""
    seats = list(seats)
    tie = tie or (lambda s: s)
    ordered = sorted(seats, key=tie)
    return sorted(ordered, key=key, reverse=reverse)


def next_in(order: list[int], after: int) -> int | None:
    """The seat after `after` in `order` (None at its end): the order is asked afresh each turn."""
    if after not in order:
        return order[0] if order else None
    i = order.index(after)
    return order[i + 1] if i + 1 < len(order) else None
