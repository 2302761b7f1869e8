"""Turn orders as data: who acts in what order, without step arguments carrying an index.

Every order is a list of seats; games keep what they need in their state (the start seat,
the passed seats) and ask for the order again when it may have changed, e.g. after the
initiative was seized mid-round. A step that walks an order carries the seat that last
acted (`after`), never a position in the list: the next seat is found afresh from it.
"""
from __future__ import annotations

from typing import Callable, Iterable


def clockwise(start: int, players: int, skip: Iterable[int] = ()) -> list[int]:
    """From `start` round the table in seat order, leaving out `skip` (passed seats)."""
    if players <= 0:
        return []
    start %= players
    order = [*range(start, players), *range(start)]
    if skip:  # asked for every turn: the common case, nobody left out, stays cheap
        gone = set(skip)
        order = [s for s in order if s not in gone]
    return order


def counter_clockwise(start: int, players: int, skip: Iterable[int] = ()) -> list[int]:
    """From `start` the other way round (a reverse-order draft starts at the seat to the right)."""
    order = [(start - i) % players for i in range(players)]
    if skip:
        gone = set(skip)
        order = [s for s in order if s not in gone]
    return order


def by_key(seats: Iterable[int], key: Callable[[int], object], reverse: bool = False,
           tie: Callable[[int], object] | None = None) -> list[int]:
    """Seats ordered by `key` (e.g. least Hegemony first); ties by `tie`, else by seat order."""
    seats = list(seats)
    tie = tie or (lambda s: s)
    ordered = sorted(seats, key=tie)
    return sorted(ordered, key=key, reverse=reverse)


def next_in(order: list[int], after: int | None) -> int | None:
    """The seat after `after` in `order` (None at its end): the order is asked afresh each turn."""
    try:
        i = order.index(after)
    except ValueError:
        return order[0] if order else None
    return order[i + 1] if i + 1 < len(order) else None


def next_around(order: list[int], after: int | None, able: Iterable[int]) -> int | None:
    """Round and round `order` until nobody can act: the first seat after `after` that is in
    `able` (`after` itself last, a lone able seat keeps acting); None when no seat is able.
    For rounds that run until every seat passed (Extra Actions, adding vote tokens)."""
    can = set(able)
    if not can or not order:
        return None
    start = order.index(after) + 1 if after in order else 0
    for i in range(len(order)):
        seat = order[(start + i) % len(order)]
        if seat in can:
            return seat
    return None


def next_lap(order: list[int], after: int | None, lap: int, laps: int) -> tuple[int, int] | None:
    """Several times round `order` (each seat takes `laps` turns): the (seat, lap) after
    `after` took its turn of lap `lap` (laps count from 1; `after` None: the first turn);
    None after the last seat's last lap."""
    if not order:
        return None
    if after is None:
        return (order[0], 1) if laps >= 1 else None
    seat = next_in(order, after)
    if seat is not None:
        return seat, lap
    return (order[0], lap + 1) if lap < laps else None
