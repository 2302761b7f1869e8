"""The Flagship rules on a turn's actions: what the campaign's `arcs_*` hooks
(`plugins.blighted_reach.empire_hooks`) ask first for a seat that has a Flagship, module on
or off (a Fate may grant one). For a seat without one each answers None and the campaign's
own rules stand, so a table where nobody has a Flagship plays as before.

Build (BR-268..BR-270, BR-273..BR-276): a `Build` naming a board `slot` and `layer` (its
`what` the kind, city or starport) builds on the board, in the Flagship's system; a city or
starport on the map is refused unless lore places it off the building slots (a gate with
Gate Ports, beyond a full planet with Cloud Cities: BR-295); a ship in the Flagship's system
is built at the Flagship while the turn's limit allows (1, 2 with a Ship Crane), beside the
Free starports the seat controls. Repair (BR-277): `Repair(piece="upgrade"|"armor",
building=slot)` in the Flagship's system stands one board piece up. Move: `MoveShips(flagship=True)`
takes the Flagship along (alone, or with the seat's ships there).
"""
from __future__ import annotations

from core.errors import ActionRejected, BadParameter, IllegalAction
from core.seats import seat_name
from plugins.arcs.content import Box, box_for
from plugins.blighted_reach import empire
from plugins.blighted_reach.state import BlightedReachState
from plugins.flagships import lore, resettle, rules, slipstream  # lore, resettle, slipstream: registered as they load
from plugins.flagships.state import LAYERS, board_of, flagship_system, store


def _in_flagship_system(state: BlightedReachState, seat: int, system: str) -> None:
    where = flagship_system(state, seat)
    if system != where:
        raise BadParameter(f"{seat_name(seat)}'s Flagship board is built and repaired in {where}, not {system!r}")


def _beyond_slots(box: Box, state: BlightedReachState, system: str, what: str, in_gate: bool,
                  off_slots: bool) -> bool:
    """Lore placing a Loyal building outside the building slots: in a gate (`in_gate`), or a
    city beyond a full planet's slots (`off_slots` with every slot taken)."""
    if in_gate:
        return True
    planet = box.systems.get(system)
    full = planet is not None and system in state.systems and len(state.systems[system].buildings) >= planet.slots
    return off_slots and what == "city" and full


def ship_at_flagship(state: BlightedReachState, seat: int, system: str, starports_used: list) -> bool:
    """Whether this ship is built at the Flagship: in its system, within the turn's limit."""
    if flagship_system(state, seat) != system:
        return False
    try:
        rules.check_flagship_ship(state, seat, starports_used)
    except ActionRejected:
        return False
    return True


def check_build(box: Box, state: BlightedReachState, seat: int, system: str, what: str, starports_used: list,
                in_gate: bool, off_slots: bool, slot: int, layer: str) -> bool | None:
    """True: the Flagship rules checked the Build (on the board, or a ship at the Flagship);
    None: the campaign's checks decide (no Flagship, a ship elsewhere, lore's building)."""
    on_board = slot >= 0 or bool(layer)
    if board_of(state, seat) is None:
        if on_board:
            raise IllegalAction(f"{seat_name(seat)} has no Flagship board to build on")
        return None
    if on_board:
        _in_flagship_system(state, seat, system)
        rules.check_build_piece(box, state, seat, slot, layer, what)
        return True
    if what in ("city", "starport"):
        if _beyond_slots(box, state, system, what, in_gate, off_slots):
            return None
        raise IllegalAction("with a Flagship, cities and starports are built on its board, not on the map (BR-268)")
    if what == "ship" and ship_at_flagship(state, seat, system, starports_used):
        return True
    return None


def build(box: Box, state: BlightedReachState, seat: int, system: str, what: str, starports_used: list, fresh: bool,
          slot: int, layer: str, ignore_presence: bool) -> bool | None:
    """Apply a Build `check_build` took: the piece on the board, or the ship at the
    Flagship; damaged where the campaign's laws say another controls (BR-275, ARCS-146)."""
    if board_of(state, seat) is None:
        return None
    damaged = empire.builds_damaged(state, seat, system, ignore_presence)
    if slot >= 0 or layer:
        rules.build_piece(box, state, seat, slot, layer, what, damaged=damaged)
        return True
    if what == "ship" and ship_at_flagship(state, seat, system, starports_used):
        return rules.build_flagship_ship(state, seat, starports_used, damaged=damaged and not fresh)
    return None


# Another seat's Flagship a seat may build its ships at (the campaign's Judge's Chosen, the
# Judge's Flagship): fn(state, seat) -> those seats.
SHIP_SITE_LENDERS: list = []


def lent_ship_site(state: BlightedReachState, seat: int, system: str, starports_used: list) -> int:
    """The owner of another Flagship in `system` the seat may build a ship at now, within that
    Flagship's limit for the turn (1, 2 with its Ship Crane: BR-269, BR-298); -1: none."""
    for owner in (o for rule in SHIP_SITE_LENDERS for o in rule(state, seat)):
        if owner == seat or flagship_system(state, owner) != system:
            continue
        try:
            rules.check_flagship_ship(state, owner, starports_used)
        except ActionRejected:
            continue
        return owner
    return -1


def build_at_lent_flagship(state: BlightedReachState, seat: int, owner: int, starports_used: list,
                           damaged: bool) -> bool:
    """A ship of the seat's own supply built at `owner`'s Flagship (the build marked against
    that Flagship's limit); False with no ship left (ARCS-148: the action is still taken)."""
    from plugins.arcs.state import Ships

    starports_used.append([rules.FLAGSHIP_MARK, owner])
    player = state.players[seat]
    if player.ships <= 0:
        return False
    here = state.systems[flagship_system(state, owner)]
    mine = here.ships_of(seat)
    player.ships -= 1
    here.ships[seat] = Ships(fresh=mine.fresh + (not damaged), damaged=mine.damaged + damaged)
    return True


def check_repair(state: BlightedReachState, seat: int, system: str, piece: str, building: int | None) -> bool | None:
    if piece not in LAYERS:
        return None
    rules.flagship(state, seat)  # a refusal for a seat without one
    _in_flagship_system(state, seat, system)
    if building is None:
        raise BadParameter("name the board slot of the piece to repair")
    rules.check_repair_piece(state, seat, building, piece)
    return True


def repair(state: BlightedReachState, seat: int, system: str, piece: str, building: int | None) -> bool | None:
    if piece not in LAYERS:
        return None
    rules.repair_piece(state, seat, building, piece)
    return True


def _cluster(system: str) -> str:
    return system[:-1] if system.endswith("G") else system.split(".")[0]


def control_array_tax(box: Box, state: BlightedReachState, seat: int, system: str, building: int,
                      taxed) -> bool:
    """BR-302: with a Control Array (fresh or damaged, BR-280) and its Flagship in a gate,
    the seat may tax any city of that gate's cluster as if it were Loyal (once a turn each,
    ARCS-141). False where that does not apply."""
    where = flagship_system(state, seat)
    if where is None or box.systems.get(where, 0) is not None or not rules.has_upgrade(state, seat, "control_array"):
        return False
    here = state.systems.get(system)
    if here is None or _cluster(system) != _cluster(where):
        return False
    if not 0 <= building < len(here.buildings) or here.buildings[building].kind != "city":
        return False
    return [system, building] not in list(taxed)


# Another seat's Flagship whose Control Array a seat may tax with (the campaign's Judge's
# Chosen, the Judge's Flagship): fn(state, seat) -> those seats.
CONTROL_ARRAY_LENDERS: list = []


def _array_tax(box: Box, state: BlightedReachState, seat: int, system: str, building: int, taxed) -> bool:
    """The seat's own Control Array allows this tax, or one it may use (`CONTROL_ARRAY_LENDERS`)."""
    lenders = [other for rule in CONTROL_ARRAY_LENDERS for other in rule(state, seat)]
    return any(control_array_tax(box, state, owner, system, building, taxed) for owner in [seat, *lenders])


def check_tax(box: Box, state: BlightedReachState, seat: int, system: str, building: int, taxed, campaign_check) -> None:
    """The campaign's tax check, or else a Control Array's (`campaign_check` raises)."""
    try:
        campaign_check(taxed)
    except ActionRejected:
        if not _array_tax(box, state, seat, system, building, taxed):
            raise


def taxes_like_loyal(box: Box, state: BlightedReachState, seat: int, system: str, building: int,
                     campaign_check) -> bool:
    """Whether this tax stands by a Control Array alone: then it takes no Captive (BR-302)."""
    try:
        campaign_check(())
    except ActionRejected:
        return _array_tax(box, state, seat, system, building, ())
    return False


def check_move(box: Box, state: BlightedReachState, reach, seat: int, act) -> None:
    """The Flagship moves as a fresh Loyal ship (BR-267), from its system, with any of the
    seat's ships there along (theirs is the base check's). It Catapults on past the first
    system only from a Free starport its owner controls (BR-301; its own board's starports
    never start one, BR-278); the Slipstream Drive's free Catapult is a Prelude ability
    (`slipstream`, BR-300). Reading: no Imperial ship goes along and nothing is dropped."""
    where = flagship_system(state, seat)
    if where is None:
        raise IllegalAction(f"{seat_name(seat)} has no Flagship to move")
    if act.origin != where:
        raise BadParameter(f"{seat_name(seat)}'s Flagship is in {where}, not {act.origin!r}")
    if act.imperial_fresh or act.imperial_damaged or act.imperial_drops or act.drops:
        raise BadParameter("a Flagship's move takes no Imperial ships and drops nothing")
    if not act.path:
        raise BadParameter("a move goes to an adjacent system")
    if len(act.path) > 1 and not slipstream.free_starport_catapult(state, seat, where):
        raise IllegalAction("the Flagship Catapults from a Free starport its owner controls, "
                            "or with its Slipstream Drive in the Prelude; else it moves one system")
    slipstream.check_legs(box, state, seat, where, list(act.path))


def move(state: BlightedReachState, seat: int, act) -> None:
    """The Flagship goes; the move window this action opens, answered by the next action,
    may take Sprinter Drives' step with it (`flagships.lore.sprint_open`)."""
    ship = board_of(state, seat)
    ship.system = act.path[-1]
    if slipstream.holds_sprinter_drives(box_for(state), state, seat):
        ship.sprint_at = state.version + 1  # 0 stays "none" at a table's first version
    store(state, seat, ship)


def candidates(box: Box, state: BlightedReachState, seat: int, pay: int, kinds, build_type, repair_type,
               move_type=None, reach=None) -> list:
    """The Flagship's answers for bots and legalActions: every board build and repair open
    now, and a ship at the Flagship (each still passes the turn's check)."""
    where = flagship_system(state, seat)
    if where is None:
        return []
    out: list = []
    if "build" in kinds:
        for option in rules.build_options(box, state, seat):
            out.append(build_type(pay=pay, system=where, what=option["kind"], slot=option["slot"],
                                  layer=option["layer"]))
        out.append(build_type(pay=pay, system=where, what="ship"))
    if "repair" in kinds:
        for index, layer, piece in board_of(state, seat).pieces():
            if piece.damaged:
                out.append(repair_type(pay=pay, system=where, piece=layer, building=index))
    if "move" in kinds and move_type is not None:
        ships = state.systems[where].ships_of(seat)
        for nxt in sorted(reach.neighbours.get(where, ())):
            out.append(move_type(pay=pay, origin=where, path=[nxt], flagship=True))
            if ships.total:
                out.append(move_type(pay=pay, origin=where, path=[nxt], fresh=ships.fresh, damaged=ships.damaged,
                                     flagship=True))
    return out

