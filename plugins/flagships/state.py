"""A seat's Flagship as the table keeps it: the piece's system and the board's six slots,
each an Upgrade with an Armor above it (BR-272), every one empty or a Loyal city or
starport, fresh or damaged.

It lives in `state.module_state["flagships"]` (seat number as text -> the board), not in a
field of the campaign state: a campaign in which nobody has a Flagship carries no trace of
it, whether the module is on or a Fate grants one with the module off. The kernel's
`module_state` holds plain data, so the rules read a board through `board_of` (typed) and
write it back through `store`.
"""
from __future__ import annotations

from typing import Iterator, Literal

import msgspec

from plugins.blighted_reach.state import BlightedReachState

KEY = "flagships"
Layer = Literal["upgrade", "armor"]
LAYERS: tuple[Layer, Layer] = ("upgrade", "armor")


class BoardPiece(msgspec.Struct, array_like=True, frozen=True):
    """A Loyal city or starport built into a slot of the board."""

    kind: Literal["city", "starport"]
    damaged: bool = False


class Slot(msgspec.Struct, omit_defaults=True):
    """One Upgrade slot and the Armor slot above it."""

    upgrade: BoardPiece | None = None
    armor: BoardPiece | None = None

    def piece(self, layer: Layer) -> BoardPiece | None:
        return self.upgrade if layer == "upgrade" else self.armor

    def put(self, layer: Layer, piece: BoardPiece | None) -> None:
        if layer == "upgrade":
            self.upgrade = piece
        else:
            self.armor = piece


class Flagship(msgspec.Struct, omit_defaults=True):
    """The Flagship piece (a fresh Loyal ship that never leaves the map, BR-267) and its
    board; `slots` left to right as the content lists the Upgrades."""

    system: str
    slots: list[Slot] = msgspec.field(default_factory=lambda: [Slot() for _ in range(6)])

    def pieces(self) -> Iterator[tuple[int, Layer, BoardPiece]]:
        """Every built piece: (slot, layer, piece)."""
        for i, slot in enumerate(self.slots):
            for layer in LAYERS:
                found = slot.piece(layer)
                if found is not None:
                    yield i, layer, found


def boards(state: BlightedReachState) -> dict[str, dict]:
    return state.module_state.get(KEY, {})


def board_of(state: BlightedReachState, seat: int) -> Flagship | None:
    """The seat's Flagship, typed, or None if it has none."""
    raw = boards(state).get(str(seat))
    return None if raw is None else msgspec.convert(raw, Flagship)


def flagship_system(state: BlightedReachState, seat: int) -> str | None:
    """Where the seat's Flagship stands (None: it has none), read without typing the board:
    control asks this for every system and seat."""
    raw = state.module_state.get(KEY)
    found = raw.get(str(seat)) if raw else None
    return None if found is None else found["system"]


def store(state: BlightedReachState, seat: int, flagship: Flagship | None) -> None:
    """Write the seat's Flagship back (None: it has none any more); the module's part of the
    state disappears with the last Flagship, so nothing is left behind."""
    table = dict(boards(state))
    if flagship is None:
        table.pop(str(seat), None)
    else:
        table[str(seat)] = msgspec.to_builtins(flagship)
    if table:
        state.module_state[KEY] = table
    else:
        state.module_state.pop(KEY, None)


def flagship_seats(state: BlightedReachState) -> list[int]:
    return sorted(int(s) for s in boards(state))
