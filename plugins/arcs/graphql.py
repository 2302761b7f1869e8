"""Typed GraphQL view of an Arcs table, built from the viewer's redacted view.

`hand` is the viewer's own (null for a spectator); every other secret is a count only.
"""
from __future__ import annotations

import strawberry


@strawberry.type(name="ArcsPieces")
class Pieces:
    """One player's pieces in one system."""

    seat: int
    fresh_ships: int
    damaged_ships: int


@strawberry.type(name="ArcsBuilding")
class Building:
    kind: str
    owner: int
    damaged: bool


@strawberry.type(name="ArcsSystem")
class System:
    id: str
    ships: list[Pieces]
    buildings: list[Building]


@strawberry.type(name="ArcsTrophy")
class Trophy:
    owner: int
    kind: str


@strawberry.type(name="ArcsPlayer")
class Player:
    seat: int
    power: int
    resources: list[str | None]  # slots 1-6 (null: empty)
    cities_on_board: list[bool]
    cities_on_map: int
    agents_on_map: int  # on Court cards
    ships_in_supply: int
    starports_in_supply: int
    agents_in_supply: int
    outrage: list[str]
    trophies: list[Trophy]
    captives: list[int]
    guild: list[str]
    lore: list[str]
    leader: str | None
    hand_count: int


@strawberry.type(name="ArcsCourtCard")
class CourtCard:
    card: str
    agents: list[int]  # per seat


@strawberry.type(name="ArcsAmbition")
class Ambition:
    ambition: str
    markers: list[str]          # marker ids, "A'" when flipped
    tokens: list[str]           # 2 players: the phantom's tokens


@strawberry.type(name="ArcsPlay")
class Play:
    seat: int
    kind: str
    card: str | None  # null: face down
    seized: bool


@strawberry.type(name="ArcsTurn")
class Turn:
    seat: int
    kind: str
    pips: int
    actions: list[str]
    weapon: bool
    prelude: bool


@strawberry.type(name="ArcsPlacing")
class Placing:
    """Tokens waiting for their owner to place them (ARCS-209; `rearrange`: a returning
    city covered a slot, ARCS-250)."""

    seat: int
    tokens: list[str]
    rearrange: bool


@strawberry.type(name="ArcsState")
class ArcsState:
    setup_card: str
    out_of_play: list[int]
    chapter: int
    initiative: int
    seized: bool
    systems: list[System]
    players: list[Player]
    court: list[CourtCard]
    court_deck_count: int
    court_discard: list[str]
    ambitions: list[Ambition]
    markers_available: list[str]
    lead: str | None
    declared: bool
    plays: list[Play]
    turn: Turn | None
    hand: list[str] | None
    action_deck_count: int
    action_discard_count: int   # the face-down pile: its size only
    split_discard: bool         # the Split Discard variant is on (ARCS-283)
    action_discard_face_up: list[str]  # its public pile of face-up plays, top first (empty when off)
    resources_in_supply: list[str]
    placing: list[Placing]


def _marker(m) -> str:
    return m[0] + ("'" if len(m) > 1 and m[1] else "")


def from_view(view: dict) -> ArcsState:
    n = len(view["players"])
    systems = [System(id=k, ships=[Pieces(seat=i, fresh_ships=(s[0] if s else 0), damaged_ships=(s[1] if len(s) > 1 else 0))
                                   for i, s in enumerate(v.get("ships", []))],
                      buildings=[Building(kind=b[0], owner=b[1], damaged=b[2]) for b in v.get("buildings", [])])
               for k, v in view["systems"].items()]
    on_map = [sum(1 for v in view["systems"].values() for b in v.get("buildings", []) if b[0] == "city" and b[1] == i)
              for i in range(n)]
    court_agents = view["court_agents"]
    hand_counts = view["hand_counts"]  # none before the hands are dealt (the campaign's setup)
    players = [Player(seat=i, power=p.get("power", 0), resources=p.get("resources", [None] * 6),
                      cities_on_board=p.get("cities_on_board", [True] * 5), cities_on_map=on_map[i],
                      agents_on_map=sum(a[i] for a in court_agents.values()),
                      ships_in_supply=p.get("ships", 15), starports_in_supply=p.get("starports", 5),
                      agents_in_supply=p.get("agents", 10), outrage=p.get("outrage", []),
                      trophies=[Trophy(owner=t[0], kind=t[1]) for t in p.get("trophies", [])],
                      captives=p.get("captives", []), guild=p.get("guild", []), lore=p.get("lore", []),
                      leader=p.get("leader"), hand_count=hand_counts[i] if i < len(hand_counts) else 0)
               for i, p in enumerate(view["players"])]
    turn = view.get("turn")
    return ArcsState(
        setup_card=view["setup_card"], out_of_play=view["out_of_play"], chapter=view["chapter"],
        initiative=view["initiative"], seized=view["seized"], systems=systems, players=players,
        court=[CourtCard(card=c, agents=court_agents.get(c, [0] * n)) for c in view["court_row"] if c],
        court_deck_count=view["court_deck_count"], court_discard=view["court_discard"],
        ambitions=[Ambition(ambition=a, markers=[_marker(m) for m in ms], tokens=view["ambition_tokens"].get(a, []))
                   for a, ms in view["ambition_boxes"].items()],
        markers_available=[_marker(m) for m in view["markers_available"]],
        lead=view["lead"] or None, declared=view["declared"],
        plays=[Play(seat=p["seat"], kind=p["kind"], card=p.get("card") or None, seized=p.get("seized", False))
               for p in view["plays"]],
        turn=None if turn is None else Turn(seat=turn["seat"], kind=turn["kind"], pips=turn["pips"],
                                            actions=turn["actions"], weapon=turn.get("weapon", False),
                                            prelude=turn.get("prelude", True)),
        hand=view["hand"], action_deck_count=view["action_deck_count"],
        action_discard_count=view["action_discard_count"],
        split_discard=bool(view["options"].get("split_discard", False)),
        action_discard_face_up=list(view["action_discard_up"]),
        resources_in_supply=[r for r, k in view["supply"].items() for _ in range(k)],
        placing=[Placing(seat=w["seat"], tokens=w.get("tokens", []), rearrange=w.get("rearrange", False))
                 for w in view.get("placing", [])],
    )
