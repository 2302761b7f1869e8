"""How a person reads a seat: "Seat N", counted from 1.

The convention, one for the page, the server's messages and the README: wherever a person
reads a seat, it is "Seat N" and Seat 1 is the first seat. The API's integer `seat` fields
(arguments, results, event data, state) stay 0-based indexes, so `seat: 0` is Seat 1. Every
message that names a seat by its index goes through `seat_name`, so "seat 0" never reaches
a reader who would count from 1. A message about the integer itself (an index out of range)
says "seat index" instead.
"""
from __future__ import annotations

from typing import Any, Iterable


def seat_name(index: Any) -> str:
    """ "Seat 1" for index 0. None (no seat: a spectator's view) is "a spectator"; a negative
    int names no seat, so it reads "seat index -1"; anything that is not an int (a bad
    argument) names no seat either and is quoted as given (its repr), as messages quote bad input."""
    if index is None:
        return "a spectator"
    if isinstance(index, bool) or not isinstance(index, int):
        return repr(index)
    if index < 0:
        return f"seat index {index}"
    return f"Seat {index + 1}"


def seat_names(indexes: Iterable[Any], none: str = "nobody") -> str:
    """Several seats for a sentence, in the order given: "Seat 1, Seat 3"; `none` if empty."""
    return ", ".join(seat_name(i) for i in indexes) or none


def no_such_seat(index: Any, count: int) -> str:
    """The refusal for an index outside the table: it speaks of the integer the caller sent
    (an index, not a seat's name) and shows both counts, so either reading finds its mistake."""
    return f"there is no seat at index {index!r} (this table's seats are indexes 0-{count - 1}, Seat 1 to {seat_name(count - 1)})"
