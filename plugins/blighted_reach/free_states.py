"""The Free States (rulebook "The Free States", BR-177..BR-184): the neutral cities and
starports, `Building(owner=FREE)` in a system's slots.

A seat acts with the Free buildings of a system it controls on its own turn (a Regent's
control includes the Presence Law's, BR-122): it taxes Free cities (capturing nobody),
builds ships at Free starports and Catapults from them, and repairs them. Free buildings are
harmed like a player's: destroyed ones become the destroyer's Trophies and a destroyed Free
city provokes Outrage; the Free States have no agents, so nothing is captured or ransacked.

Proxies (BR-182): the supply counters never go below zero. A Free building placed while its
supply is empty is a proxy, counted in `state.free_proxies[kind]`; a Free building coming
back off the map (or out of the Trophies) retires a proxy first. So, per kind: on the map +
in Trophies == the box's count - supply + proxies.

Pure functions; each `check_*` raises a typed error and changes nothing, its twin applies.
The seat named `seat` is the one acting and deciding, on its own turn.
"""
from __future__ import annotations

from typing import Iterable

from core.errors import BadParameter, IllegalAction, UnknownSeat
from core.seats import no_such_seat
from plugins.arcs.content import Box
from plugins.arcs.lore_ops import buildings_removed, city_types
from plugins.arcs.outrage import provoke_outrage
from plugins.arcs.placing import gain
from plugins.arcs.state import Building, Ships, Trophy
from plugins.blighted_reach.board import controls_on_turn, free_buildings
from plugins.blighted_reach.state import FREE, BlightedReachState

KINDS = ("city", "starport")
# Reading: the rulebook's key count for raiding the Free States is an icon lost in the text
# extraction; one key (a single icon, the lowest raid cost) is read.
FREE_RAID_KEYS = 1


def _seat(state: BlightedReachState, seat: int) -> None:
    if not 0 <= seat < len(state.players):
        raise UnknownSeat(no_such_seat(seat, len(state.players)))


def _free(state: BlightedReachState, system: str, building: int, kind: str | None = None) -> Building:
    here = state.systems.get(system)
    if here is None:
        raise BadParameter(f"{system!r} is not a system in play")
    if not 0 <= building < len(here.buildings) or here.buildings[building].owner != FREE:
        raise BadParameter(f"building {building} in {system} is not a Free building")
    found = here.buildings[building]
    if kind is not None and found.kind != kind:
        raise BadParameter(f"building {building} in {system} is not a Free {kind}")
    return found


# Fate rules that let a seat act with a system's Free buildings as if they were Loyal, control
# or not (the Founder's Members of the Commonwealth): `waives(state, seat, system) -> bool`.
CONTROL_WAIVERS: list = []


def acts_with_free_buildings(state: BlightedReachState, seat: int, system: str, ignore_presence: bool = False) -> bool:
    """BR-177: the seat controls the system on its turn, or a rule in `CONTROL_WAIVERS` lets it."""
    return controls_on_turn(state, seat, system, ignore_presence) or any(
        waives(state, seat, system) for waives in CONTROL_WAIVERS)


def check_control(state: BlightedReachState, seat: int, system: str, ignore_presence: bool = False) -> None:
    """BR-177: acting with Free buildings needs control of their system on your turn."""
    _seat(state, seat)
    if not acts_with_free_buildings(state, seat, system, ignore_presence):
        raise IllegalAction(f"acting with the Free buildings of {system} needs control of it")


# -- acting with Free buildings (BR-177, BR-184) ----------------------------------------


def check_free_tax(state: BlightedReachState, seat: int, system: str, building: int,
                   taxed: Iterable[list] = (), ignore_presence: bool = False,
                   without_control: bool = False) -> None:
    """Tax a Free city of a system the seat controls (`without_control`: a Fate's rule lets
    it tax there anyway); `taxed`: the [system, building] pairs taxed this turn (once per
    city per turn, ARCS-141)."""
    _free(state, system, building, "city")
    if not without_control:
        check_control(state, seat, system, ignore_presence)
    if [system, building] in list(taxed):
        raise IllegalAction(f"that city in {system} was taxed this turn already")


def tax_captive(state: BlightedReachState, seat: int, system: str, building: int) -> int | None:
    """Whose agent taxing this city captures: a Rival player's with an agent in supply
    (ARCS-139/140), never the Free States' (BR-184) nor the taxer's own. The base `do_tax`
    indexes players by the city's owner, so a Free city (owner -1) must be taxed through
    this answer, not that one."""
    owner = state.systems[system].buildings[building].owner
    if owner == seat or owner < 0 or state.players[owner].agents <= 0:
        return None
    return owner


def check_free_ship(state: BlightedReachState, seat: int, system: str, building: int,
                    starports_used: Iterable[list] = ()) -> None:
    """Build a ship at a Free starport of a controlled system, once per starport per turn
    (ARCS-145); `starports_used`: the [system, building] pairs that built this turn."""
    _free(state, system, building, "starport")
    check_control(state, seat, system)
    if [system, building] in list(starports_used):
        raise IllegalAction(f"that starport in {system} built a ship this turn already")


def build_free_ship(state: BlightedReachState, seat: int, system: str, building: int,
                    starports_used: list) -> bool:
    """Place one of the seat's ships, fresh (the seat controls the system, so nobody else
    does: ARCS-146), and record the starport's use. False when the seat has no ship left
    (ARCS-148): the action is still taken."""
    check_free_ship(state, seat, system, building, starports_used)
    player = state.players[seat]
    if player.ships <= 0:
        return False
    starports_used.append([system, building])
    player.ships -= 1
    here = state.systems[system]
    mine = here.ships[seat]
    here.ships[seat] = Ships(fresh=mine.fresh + 1, damaged=mine.damaged)
    return True


# Fate rules that let a seat Catapult from other starports (the Gate Wraith's Catapult
# Overdrive): fn(state, seat, system) -> True when the seat may Catapult from there.
CATAPULT_ORIGINS: list = []


def catapult_origin(state: BlightedReachState, seat: int, system: str) -> bool:
    """A Catapult may start here: at a Loyal starport (ARCS-152, a Rival's never, ARCS-155)
    or at a Free starport of a system the seat controls on its turn (BR-177), or where a
    Fate's rule (`CATAPULT_ORIGINS`) allows it."""
    here = state.systems[system]
    if any(b.owner == seat and b.kind == "starport" for b in here.buildings):
        return True
    if (any(b.owner == FREE and b.kind == "starport" for b in here.buildings)
            and acts_with_free_buildings(state, seat, system)):
        return True
    return any(rule(state, seat, system) for rule in CATAPULT_ORIGINS)


# Fate rules under which entering a gate never ends a seat's Catapult (the Gate Wraith's
# Catapult Overdrive in the Twisted Passage): fn(state, seat, move, i) -> True when entering
# move.path[i] ends the move neither by control nor by Blight.
CATAPULT_GOES_ON: list = []


def catapult_goes_on(state: BlightedReachState, seat: int, move, i: int) -> bool:
    return any(rule(state, seat, move, i) for rule in CATAPULT_GOES_ON)


def check_free_repair(state: BlightedReachState, seat: int, system: str, building: int) -> None:
    if not _free(state, system, building).damaged:
        raise IllegalAction(f"the Free building {building} in {system} is not damaged")
    check_control(state, seat, system)


def repair_free_building(state: BlightedReachState, seat: int, system: str, building: int) -> None:
    check_free_repair(state, seat, system, building)
    b = state.systems[system].buildings[building]
    state.systems[system].buildings[building] = Building(kind=b.kind, owner=FREE, damaged=False)


def free_actions(state: BlightedReachState, seat: int, taxed: Iterable[list] = (),
                 starports_used: Iterable[list] = ()) -> list[dict]:
    """Every use of a Free building open to the seat now, for a prompt: {"action": "tax" |
    "build_ship" | "catapult" | "repair", "system", "building"}."""
    taxed, starports_used = list(taxed), list(starports_used)
    out = []
    for system in sorted(state.systems):
        indexes = free_buildings(state, system)
        if not indexes or not acts_with_free_buildings(state, seat, system):
            continue
        for i in indexes:
            b = state.systems[system].buildings[i]
            if b.kind == "city" and [system, i] not in taxed:
                out.append({"action": "tax", "system": system, "building": i})
            if b.kind == "starport":
                if [system, i] not in starports_used:
                    out.append({"action": "build_ship", "system": system, "building": i})
                out.append({"action": "catapult", "system": system, "building": i})
            if b.damaged:
                out.append({"action": "repair", "system": system, "building": i})
    return out


# -- placing and returning (BR-182) -----------------------------------------------------


def _supply(state: BlightedReachState, kind: str) -> int:
    if kind not in KINDS:
        raise BadParameter(f"{kind!r} is not a building")
    return state.free_city_supply if kind == "city" else state.free_starport_supply


def _set_supply(state: BlightedReachState, kind: str, value: int) -> None:
    if kind == "city":
        state.free_city_supply = value
    else:
        state.free_starport_supply = value


# A Fate may take a planet's building slots away (the Planet Breaker's Broken Worlds):
# fn(state, system) -> True when the planet has none now. Empty: the box's slots stand.
SLOTLESS: list = []


def check_place_free_building(box: Box, state: BlightedReachState, system: str, kind: str) -> None:
    _supply(state, kind)
    planet = box.systems.get(system)
    if system not in state.systems or planet is None:
        raise BadParameter(f"{system!r} is not a planet in play")
    if len(state.systems[system].buildings) >= planet.slots or any(rule(state, system) for rule in SLOTLESS):
        raise IllegalAction(f"{system} has no empty building slot")


def place_free_building(box: Box, state: BlightedReachState, system: str, kind: str,
                        damaged: bool = False) -> bool:
    """Place a Free building in an empty slot; with its supply empty a proxy stands in
    (BR-182). True when a proxy was used."""
    check_place_free_building(box, state, system, kind)
    left = _supply(state, kind)
    if left > 0:
        _set_supply(state, kind, left - 1)
    else:
        state.free_proxies[kind] = state.free_proxies.get(kind, 0) + 1
    state.systems[system].buildings.append(Building(kind=kind, owner=FREE, damaged=damaged))
    return left <= 0


def return_free_building(state: BlightedReachState, kind: str) -> None:
    """A Free building leaves the map or the Trophies: a proxy goes first, else the piece
    rejoins its supply."""
    left = _supply(state, kind)
    if state.free_proxies.get(kind, 0) > 0:
        state.free_proxies[kind] -= 1
        if not state.free_proxies[kind]:
            del state.free_proxies[kind]
    else:
        _set_supply(state, kind, left + 1)


# -- harm: destruction, Trophies and Outrage (BR-178, BR-179, BR-183) --------------------


def free_city_outrage(box: Box, state: BlightedReachState, seat: int, system: str) -> list[str]:
    """BR-183: a destroyed Free city provokes Outrage of its planet's type on the destroyer,
    as a player's city does (the base `provoke_outrage`). Returns the types provoked. No
    Ransack follows: the Free States have no agents on the Court (ARCS-197); the base
    `city_lost` must not be given owner -1, whose index would read the last seat's agents."""
    types = city_types(state, box, system) or []
    for resource in types:
        provoke_outrage(box, state, seat, resource)
    return types


def check_destroy_free_building(state: BlightedReachState, seat: int, system: str, building: int) -> None:
    _seat(state, seat)
    _free(state, system, building)


def destroy_free_building(box: Box, state: BlightedReachState, seat: int, system: str, building: int) -> dict:
    """The seat destroys a Free building outside the battle flow (a card's effect): it
    leaves the map as the seat's Trophy (BR-179, owner FREE) and, a city, provokes Outrage
    (BR-183). Returns {"kind", "outrage": [types provoked]}."""
    check_destroy_free_building(state, seat, system, building)
    here = state.systems[system]
    buildings_removed(state, system, [building])  # the turn's tax records follow the slots
    gone = here.buildings.pop(building)
    state.players[seat].trophies.append(Trophy(owner=FREE, kind=gone.kind))
    outrage = free_city_outrage(box, state, seat, system) if gone.kind == "city" else []
    return {"kind": gone.kind, "outrage": outrage}


# -- raiding the Free States (BR-181) ---------------------------------------------------


def check_free_raid(box: Box, state: BlightedReachState, seat: int, system: str, keys: int) -> None:
    """Once per battle against the Free States, FREE_RAID_KEYS buy 1 resource of the battle
    planet's type. Reading: with that supply empty the raid is refused, so no key is spent
    for nothing."""
    _seat(state, seat)
    battle = state.battle
    if battle is not None and (battle.defender != FREE or battle.system != system or battle.attacker != seat):
        raise IllegalAction("only the attacker of a battle against the Free States raids them")
    if state.free_raided:
        raise IllegalAction("the Free States were raided in this battle already")
    planet = box.systems.get(system)
    if planet is None:
        raise IllegalAction(f"{system} is no planet: the Free States yield nothing there")
    if keys < FREE_RAID_KEYS:
        raise IllegalAction(f"raiding the Free States costs {FREE_RAID_KEYS} key(s); {keys} left")
    if state.supply.get(planet.type, 0) <= 0:
        raise IllegalAction(f"no {planet.type} is left in the supply")


def raid_free_states(box: Box, state: BlightedReachState, seat: int, system: str, keys: int) -> int:
    """Gain the resource (the seat places it, ARCS-209) and mark the battle as raided.
    Returns the keys left."""
    check_free_raid(box, state, seat, system, keys)
    gain(state, seat, box.systems[system].type)
    state.free_raided = True
    return keys - FREE_RAID_KEYS


def clear_free_raid(state: BlightedReachState) -> None:
    """The battle is over: the next one may raid the Free States again."""
    state.free_raided = False
