"""Typed GraphQL view of a campaign table (`BlightedReachState` in the `GameState` union),
built from the viewer's redacted view: the Arcs table as `arcs`, and what the campaign adds
(the Empire, titles, the Blight, the Free States, the Council, the booklet, the Trust,
Favors, the Fates once revealed, Summits and their open deals). Secrets stay what the view
leaves: the viewer's own Fate offer, nobody else's."""
from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from plugins.arcs.graphql import ArcsState
from plugins.arcs.graphql import from_view as arcs_from_view


@strawberry.type(name="BlightedReachPieces")
class CampaignPieces:
    """Imperial ships or Blight in one system."""

    system: str
    fresh: int
    damaged: int


@strawberry.type(name="BlightedReachActLine")
class ActLine:
    """One line of the campaign log (BR-355): an act played, its Fate, how its objective
    ended, and Power and Outrage when the line was written."""

    act: int
    fate: str
    result: str                # completed | failed | "" (the act still under way)
    power: int
    outrage: list[str]


@strawberry.type(name="FlagshipPiece")
class FlagshipPiece:
    """A Loyal city or starport built into a slot of a Flagship board (issue 19)."""

    kind: str                  # city | starport
    damaged: bool


@strawberry.type(name="FlagshipSlot")
class FlagshipSlot:
    """One Upgrade slot of a Flagship board and the Armor slot above it (BR-272)."""

    index: int                 # 0..5, left to right
    upgrade_kind: str          # slipstream_drive | defense_array | ... (the slot's Upgrade)
    name: str
    upgrade_planet: str        # where the Flagship must be to build the Upgrade (BR-273)
    armor_planet: str          # ... and its Armor
    upgrade: FlagshipPiece | None
    armor: FlagshipPiece | None


@strawberry.type(name="Flagship")
class Flagship:
    """A seat's Flagship: the piece's system and its board, all public."""

    system: str
    slots: list[FlagshipSlot]


@strawberry.type(name="BlightedReachSeat")
class CampaignSeat:
    seat: int
    colour: str                # the colour played, kept by the log sheet (BR-355)
    title: str                 # regent | outlaw
    fate: str | None           # null until every seat has chosen (BR-053, A-R7)
    objective_marker: int | None  # its Power track space; null off the track (Act III's A/B Fates, BR-098)
    fate_result: str | None    # completed | failed, once the Intermission resolved it
    acts: list[ActLine]        # the campaign log so far
    favors: list[int]          # the owners of the Rival agents on this seat's Fate card
    fate_cards: list[str]      # Fate Set cards held that are neither Guild nor Lore
    flagship: Flagship | None  # null for a seat without one (the Flagships module, or a Fate granting one)


@strawberry.type(name="BlightedReachDeal")
class Deal:
    """A Summit deal waiting for consents: who proposed it, who must answer, who has."""

    id: int
    proposer: int
    seats: list[int]
    accepted: list[int]
    parts: JSON


@strawberry.type(name="BlightedReachSummit")
class Summit:
    caller: int
    via: str                   # event | council
    stage: str                 # call_to_order | negotiations
    done: list[int]            # seats that said "done" since the last completed deal (A-R6)
    deals: list[Deal]


@strawberry.type(name="BlightedReachGolem")
class Golem:
    """One of the Caretaker's Golems as the viewer sees it: its type is "" while it sleeps
    (unless the viewer holds it)."""

    place: str                 # map:<system> | hearth:<seat> | held:<seat> | scrapped
    awake: bool
    type: str


@strawberry.type(name="BlightedReachState")
class BlightedReachState:
    arcs: ArcsState
    act: int
    seats: list[CampaignSeat]
    first_regent: int | None
    imperial_clusters: list[int]
    imperial_ships: list[CampaignPieces]
    imperial_supply: int
    blight: list[CampaignPieces]
    blight_supply: int
    free_city_supply: int
    free_starport_supply: int
    council: str               # AID01A In Session | AID01B Decided
    council_secured_by: int | None
    booklet: list[list[str]]   # slots, each top card first: Edicts, Laws, the Govern stack
    imperial_trust: list[str]
    fate_offer: list[str] | None  # the viewer's own two Fates while choosing
    summit: Summit | None
    crisis_roll: JSON
    golems: list[Golem]        # the Caretaker's Golems (none before its setup)
    faithful_stack: list[str]  # the Believer's Faithful cards still stacked, top first
    ideals: JSON               # ambition -> the Ideal's side (zeal | wisdom) on its box
    doctrine: str | None       # the Doctrine's side, null while not in play


def _pieces(where: dict) -> list[CampaignPieces]:
    return [CampaignPieces(system=s, fresh=(p[0] if p else 0), damaged=(p[1] if len(p) > 1 else 0))
            for s, p in sorted(where.items())]


def _board_piece(piece) -> FlagshipPiece | None:
    return None if piece is None else FlagshipPiece(kind=piece.kind, damaged=piece.damaged)


def _flagship(view: dict, i: int) -> Flagship | None:
    """The seat's board read back through its own type (`plugins.flagships.state`), each
    slot named from the module's content."""
    import msgspec

    from plugins.flagships.content import default_content
    from plugins.flagships.state import KEY
    from plugins.flagships.state import Flagship as Stored

    raw = (view.get("module_state") or {}).get(KEY, {}).get(str(i))
    if raw is None:
        return None
    board = msgspec.convert(raw, Stored)
    return Flagship(system=board.system, slots=[
        FlagshipSlot(index=n, upgrade_kind=u.id, name=u.name, upgrade_planet=u.upgrade_planet,
                     armor_planet=u.armor_planet, upgrade=_board_piece(slot.upgrade), armor=_board_piece(slot.armor))
        for n, (u, slot) in enumerate(zip(default_content().upgrades, board.slots))])


def _seat(view: dict, i: int) -> CampaignSeat:
    def at(name: str, default):
        values = view.get(name) or []
        return values[i] if i < len(values) else default

    marker = at("objective_markers", -1)
    return CampaignSeat(
        seat=i, colour=at("colours", ""), title=at("titles", "regent"), fate=at("fates", "") or None,
        objective_marker=marker if marker >= 0 else None, fate_result=at("fate_results", "") or None,
        acts=[ActLine(act=a["act"], fate=a["fate"], result=a.get("result", ""), power=a.get("power", 0),
                      outrage=a.get("outrage", [])) for a in at("act_log", [])],
        favors=at("favors", []), fate_cards=at("play_area", []), flagship=_flagship(view, i))


def from_view(view: dict) -> BlightedReachState:
    n = len(view["players"])
    deals = [Deal(id=g["id"], proposer=g["proposer"], seats=g["seats"], accepted=g["answered"],
                  parts=g["proposal"].get("parts", []))
             for g in view.get("groups", []) if g["mode"] == "consent"]
    summit = None
    if view.get("summit_caller", -1) >= 0:
        summit = Summit(caller=view["summit_caller"], via=view.get("summit_via", ""), stage=view.get("summit_stage", ""),
                        done=view.get("summit_done", []), deals=deals)
    return BlightedReachState(
        arcs=arcs_from_view(view), act=view["act"],
        seats=[_seat(view, i) for i in range(n)],
        first_regent=view["first_regent"] if view["first_regent"] >= 0 else None,
        imperial_clusters=view["imperial_clusters"], imperial_ships=_pieces(view["imperial"]),
        imperial_supply=view["imperial_supply"], blight=_pieces(view["blight"]), blight_supply=view["blight_supply"],
        free_city_supply=view["free_city_supply"], free_starport_supply=view["free_starport_supply"],
        council=view["council"], council_secured_by=view["council_secured_by"] if view["council_secured_by"] >= 0 else None,
        booklet=view["booklet"], imperial_trust=view.get("trust", []), fate_offer=view.get("fate_offer"),
        summit=summit, crisis_roll=view.get("crisis_roll", {}),
        golems=[Golem(**g) for g in view.get("golems", [])], faithful_stack=view.get("faithful_stack", []),
        ideals=view.get("ideals", {}), doctrine=view.get("doctrine") or None,
    )
