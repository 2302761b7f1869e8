"""The New Capital table state (plain data: msgspec Structs)."""
from __future__ import annotations

from typing import ClassVar

import msgspec

from core.state import TableState

ROWS = ("t1", "t2", "t3", "adv", "leaders")
BOARD_ACTIONS = ("resupply", "scout", "faction", "support")


class Slot(msgspec.Struct, gc=False, kw_only=True):
    """A leader slot: the face-up leader and any flipped-down leaders under it."""

    leader: str | None = None
    flipped: list[str] = []


class Column(msgspec.Struct, gc=False, kw_only=True):
    structures: list[str]            # bottom to top; the last is the column's top card
    slots: list[Slot] = msgspec.field(default_factory=lambda: [Slot(), Slot()])  # 0 = top slot
    upgrades: int = 0
    rebellion: int = 0


class Row(msgspec.Struct, gc=False, kw_only=True):
    """A common pool with its deck and discard pile."""

    deck: list[str] = []
    pool: list[str] = []
    discard: list[str] = []


class Player(msgspec.Struct, gc=False, kw_only=True):
    seat: int
    color: str
    deck: list[str] = []
    hand: list[str] = []
    discard: list[str] = []          # last element is the top (face-up) card
    burned: list[str] = []
    face_down: list[str] = []        # crisis cards played this round
    resolving: list[str] = []        # improvement cards being resolved (face up)
    columns: list[Column] = []
    tracks: dict[str, int] = {}
    seal_slots: list[bool] = []      # True where a seal sits
    seals_reserve: int = 9
    honorary: bool = False
    diplomacy: list[int] = msgspec.field(default_factory=lambda: [0, 0])  # cube position per faction track, -5..5 (0 = centre)
    board_cube: str = "top"          # "top" or the board action it covers
    extra_actions: int = 0
    reserve_power: int = 0
    reserve_control: int = 0
    played: int = 0                  # regular turns taken this round
    rewards: int = 0                 # crisis outperform rewards won (Swift Game objective)
    bid_power: int = 0
    bid_control: int = 0
    bribes: list[str] = []           # crises ("warfare"/"political") protected this round
    draft_offer: list[str] = []      # the two draft leaders dealt at setup (secret)

    @property
    def seals(self) -> int:
        return sum(self.seal_slots) + (1 if self.honorary else 0)


class HonoraryEntry(msgspec.Struct, gc=False, kw_only=True):
    seats: list[int]
    round: int
    phase: str


class NewCapitalState(TableState, kw_only=True):
    # Seen by viewers; views.redact then hides decks, hands and face-down cards per seat.
    visible: ClassVar[tuple[str, ...]] = (
        "scenario", "pack", "first", "die", "rows", "crisis_deck", "crisis", "crises_done", "hunger_deck", "box",
        "revealed", "honorary_chart", "extra_out", "firsts", "players")
    scenario: str = "learning"
    pack: str = ""
    first: int = 0
    die: int = 1
    rows: dict[str, Row] = {}
    crisis_deck: list[str] = []
    crisis: str = ""
    crises_done: list[str] = []
    hunger_deck: list[str] = []
    box: list[str] = []              # out of the game, face down (unused crises, draft leftovers)
    revealed: bool = False           # face-down crisis cards of this round are face up
    honorary_chart: list[HonoraryEntry] = []
    extra_out: list[int] = []
    firsts: dict[str, list[int]] = {}  # first_play modifier id -> seats that used it this round
    players: list[Player] = []
