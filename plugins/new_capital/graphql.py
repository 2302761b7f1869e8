"""Typed GraphQL view of a New Capital table, built from the viewer's redacted view.

Fields another viewer may not see are null for them (`hand`, `faceDown`, `draftOffer`),
with a count beside them.
"""
from __future__ import annotations

import strawberry


@strawberry.type(name="NcSlot")
class Slot:
    leader: str | None
    flipped: list[str]


@strawberry.type(name="NcColumn")
class Column:
    structures: list[str]
    slots: list[Slot]
    upgrades: int
    rebellion: int


@strawberry.type(name="NcTracks")
class Tracks:
    influence: int
    might: int
    morale: int
    wealth: int


@strawberry.type(name="NcPlayer")
class Player:
    seat: int
    color: str
    hand: list[str] | None
    hand_count: int
    deck_count: int
    discard: list[str]
    burned: list[str]
    face_down: list[str] | None
    face_down_count: int
    resolving: list[str]
    draft_offer: list[str] | None
    columns: list[Column]
    tracks: Tracks
    seal_slots: list[bool]
    seals: int
    seals_reserve: int
    honorary: bool
    diplomacy: list[int]
    board_cube: str
    extra_actions: int
    reserve_power: int
    reserve_control: int
    played: int
    rewards: int
    bid_power: int
    bid_control: int


@strawberry.type(name="NcRow")
class Row:
    key: str
    pool: list[str]
    discard: list[str]
    deck_count: int


@strawberry.type(name="NcHonoraryEntry")
class HonoraryEntry:
    seats: list[int]
    round: int
    phase: str


@strawberry.type(name="NcSupply")
class Supply:
    kind: str
    box: int
    in_play: int


@strawberry.type(name="NewCapitalState")
class NewCapitalState:
    scenario: str
    first: int
    die: int
    crisis: str
    crisis_deck_count: int
    crises_done: list[str]
    hunger_deck_count: int
    box_count: int
    revealed: bool
    rows: list[Row]
    players: list[Player]
    honorary_chart: list[HonoraryEntry]
    supply: list[Supply]


def _listed(value) -> tuple[list[str] | None, int]:
    return (value, len(value)) if isinstance(value, list) else (None, value)


def _player(p: dict) -> Player:
    hand, hand_count = _listed(p["hand"])
    face_down, fd_count = _listed(p["face_down"])
    offer, _ = _listed(p["draft_offer"])
    return Player(
        seat=p["seat"], color=p["color"], hand=hand, hand_count=hand_count, deck_count=p["deck"],
        discard=p["discard"], burned=p["burned"], face_down=face_down, face_down_count=fd_count,
        resolving=p["resolving"], draft_offer=offer,
        columns=[Column(structures=c["structures"], slots=[Slot(leader=s["leader"], flipped=s["flipped"])
                                                           for s in c["slots"]],
                        upgrades=c["upgrades"], rebellion=c["rebellion"]) for c in p["columns"]],
        tracks=Tracks(**p["tracks"]), seal_slots=p["seal_slots"], seals=p["seals"],
        seals_reserve=p["seals_reserve"], honorary=p["honorary"], diplomacy=p["diplomacy"],
        board_cube=p["board_cube"], extra_actions=p["extra_actions"], reserve_power=p["reserve_power"],
        reserve_control=p["reserve_control"], played=p["played"], rewards=p["rewards"],
        bid_power=p["bid_power"], bid_control=p["bid_control"],
    )


def from_view(view: dict) -> NewCapitalState:
    return NewCapitalState(
        scenario=view["scenario"], first=view["first"], die=view["die"], crisis=view["crisis"],
        crisis_deck_count=view["crisis_deck"], crises_done=view["crises_done"],
        hunger_deck_count=view["hunger_deck"], box_count=view["box"], revealed=view["revealed"],
        rows=[Row(key=k, pool=r["pool"], discard=r["discard"], deck_count=r["deck"]) for k, r in view["rows"].items()],
        players=[_player(p) for p in view["players"]],
        honorary_chart=[HonoraryEntry(**e) for e in view["honorary_chart"]],
        supply=[Supply(kind=k, box=v["box"], in_play=v["in_play"]) for k, v in view["supply"].items()],
    )
