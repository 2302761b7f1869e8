"""The standard actions (digest 7.2-7.7) as checks and effects on the state: tax, build,
repair, move (with Catapult), influence and secure. Battle is in `battle.py`.

Each `check_*` raises a typed error for an answer the rules refuse and changes nothing;
its `do_*` twin applies an answer that passed. The flow calls both; the typed decisions
use the checks as their validators.
"""
from __future__ import annotations

from dataclasses import dataclass

from core.errors import BadParameter, IllegalAction
from core.rng import Rng
from core.seats import seat_name
from plugins.arcs.content import Box
from plugins.arcs.control import controller
from plugins.arcs.reach import Reach
from plugins.arcs.placing import gain
from plugins.arcs.setup import place_building
from plugins.arcs.state import ArcsState, Building, Ships, Trophy


def _system(state: ArcsState, system: str):
    found = state.systems.get(system)
    if found is None:
        raise BadParameter(f"{system!r} is not a system in play")
    return found


# -- tax (ARCS-136..142) ----------------------------------------------------------------
def check_tax(state: ArcsState, seat: int, system: str, building: int, taxed: list[list]) -> None:
    """`taxed`: the (system, building) pairs this seat has taxed this turn (ARCS-141)."""
    here = _system(state, system)
    if not 0 <= building < len(here.buildings) or here.buildings[building].kind != "city":
        raise BadParameter(f"there is no city {building} in {system}")
    city = here.buildings[building]
    if city.owner != seat and controller(here) != seat:
        raise IllegalAction(f"taxing a Rival city needs control of {system}")  # ARCS-137
    if [system, building] in taxed:
        raise IllegalAction(f"that city in {system} was taxed this turn already")


def do_tax(box: Box, state: ArcsState, seat: int, system: str, building: int, resource: str | None = None,
           capture: bool = True) -> dict:
    """Gain the planet's resource if any is left (ARCS-138, ARCS-142; where it goes, or what
    makes room, is its owner's placement, ARCS-209); a
    Rival city also yields one of its owner's agents as a captive, if they have one (ARCS-139/140).
    `resource`: for a city in a gate (Gate Stations) the type chosen among its types;
    `capture` False: a card taxes the city like a Loyal one, taking no Captive."""
    city = state.systems[system].buildings[building]
    planet = box.systems[system]
    resource = planet.type if planet is not None else resource
    gained = gain(state, seat, resource)
    captured = None
    # owner < 0: a city of no player (the campaign's Free cities) has no agents to capture (BR-184)
    if capture and city.owner != seat and city.owner >= 0 and state.players[city.owner].agents > 0:
        state.players[city.owner].agents -= 1
        state.players[seat].captives.append(city.owner)
        captured = city.owner
    return {"resource": resource if gained else None, "captive": captured}


# -- build (ARCS-143..149) --------------------------------------------------------------
def has_loyal_piece(state: ArcsState, seat: int, system: str) -> bool:
    here = state.systems[system]
    return here.ships_of(seat).total > 0 or any(b.owner == seat for b in here.buildings)


# A game built on Arcs may let a seat build a city without a Loyal piece in the system (the
# campaign's Prospectors): fn(box, state, seat, system) -> True to allow it; each answers
# False for a table it does not know.
CITY_WITHOUT_PRESENCE: list = []

# A game built on Arcs may count a piece of no player as a seat's Loyal piece for building (the
# campaign's Members of the Commonwealth at Free buildings): fn(state, seat, system) -> True;
# what is built that way is placed fresh.
BUILD_STAND_INS: list = []


def builds_on_stand_in(state: ArcsState, seat: int, system: str) -> bool:
    """The seat builds in `system` only thanks to a stand-in for its Loyal piece."""
    return not has_loyal_piece(state, seat, system) and any(rule(state, seat, system) for rule in BUILD_STAND_INS)


def check_build(box: Box, state: ArcsState, seat: int, system: str, what: str, starports_used: list,
                in_gate: bool = False, off_slots: bool = False, present: bool | None = None) -> None:
    """`in_gate`: a Lore card lets this building stand in a gate (Gate Ports, Gate
    Stations); `off_slots`: a city beyond the planet's full slots (Cloud Cities);
    `present`: whether the seat may build a building there, for a game that adds other
    pieces to build at (None: a Loyal piece there, ARCS-144)."""
    here = _system(state, system)
    player = state.players[seat]
    if what in ("city", "starport"):
        planet = box.systems[system]
        if planet is None and not in_gate:
            raise IllegalAction("gates have no building slots")  # ARCS-030
        if planet is not None and len(here.buildings) >= planet.slots and not off_slots:
            raise IllegalAction(f"{system} has no empty building slot")  # ARCS-029
        present = has_loyal_piece(state, seat, system) if present is None else present
        if not present and not builds_on_stand_in(state, seat, system) and not (
                what == "city" and any(rule(box, state, seat, system) for rule in CITY_WITHOUT_PRESENCE)):
            raise IllegalAction(f"building in {system} needs a Loyal piece there")  # ARCS-144
    elif what == "ship":
        ports = [i for i, b in enumerate(here.buildings) if b.owner == seat and b.kind == "starport"]
        if not ports:
            raise IllegalAction(f"building a ship needs a Loyal starport in {system}")  # ARCS-145
        if all([system, i] in starports_used for i in ports):
            raise IllegalAction(f"each starport in {system} built a ship this turn already")
    else:
        raise BadParameter(f"cannot build {what!r}: city, starport or ship")
    # ARCS-148: an empty supply still lets the action be taken; nothing is placed


def do_build(state: ArcsState, seat: int, system: str, what: str, starports_used: list, fresh: bool = False,
             damaged: bool | None = None) -> bool:
    """Place the piece, damaged where another player controls the system (ARCS-146/147),
    unless `fresh` (Hidden Harbors' ships) or built at a stand-in (`BUILD_STAND_INS`);
    `damaged`: whether another controls, said by a game with other controllers (the
    campaign's Empire). False when the supply had none (ARCS-148)."""
    here, player = state.systems[system], state.players[seat]
    fresh = fresh or (what != "ship" and builds_on_stand_in(state, seat, system))
    if damaged is None:
        owner = controller(here)
        damaged = owner is not None and owner != seat
    damaged = damaged and not fresh
    if what == "ship":
        if player.ships <= 0:
            return False
        port = next(i for i, b in enumerate(here.buildings)
                    if b.owner == seat and b.kind == "starport" and [system, i] not in starports_used)
        starports_used.append([system, port])
        player.ships -= 1
        mine = here.ships[seat]
        here.ships[seat] = Ships(fresh=mine.fresh + (not damaged), damaged=mine.damaged + damaged)
        return True
    return place_building(state, system, seat, what, damaged=damaged)


# -- repair (ARCS-150) --------------------------------------------------------------------
def check_repair(state: ArcsState, seat: int, system: str, piece: str, building: int | None = None) -> None:
    here = _system(state, system)
    if piece == "ship":
        if here.ships_of(seat).damaged <= 0:
            raise IllegalAction(f"no damaged Loyal ship in {system}")
    elif piece == "building":
        if building is None or not 0 <= building < len(here.buildings):
            raise BadParameter(f"no building {building} in {system}")
        b = here.buildings[building]
        if b.owner != seat or not b.damaged:
            raise IllegalAction(f"building {building} in {system} is not a damaged Loyal building")
    else:
        raise BadParameter("repair a ship or a building")


def do_repair(state: ArcsState, seat: int, system: str, piece: str, building: int | None = None) -> None:
    here = state.systems[system]
    if piece == "ship":
        mine = here.ships[seat]
        here.ships[seat] = Ships(fresh=mine.fresh + 1, damaged=mine.damaged - 1)
    else:
        b = here.buildings[building]
        here.buildings[building] = Building(kind=b.kind, owner=b.owner, damaged=False)


# -- move (ARCS-151..158) ----------------------------------------------------------------
@dataclass(frozen=True)
class Move:
    """One move: `fresh` and `damaged` ships leave `origin` along `path` (each step to an
    adjacent system); `drops[i]` = (fresh, damaged) left in path[i] on the way (Catapult);
    whatever is still moving ends in the last system of the path."""

    origin: str
    fresh: int
    damaged: int
    path: tuple[str, ...]
    drops: tuple[tuple[int, int], ...] = ()


def check_move(state: ArcsState, reach: Reach, seat: int, move: Move, catapult: bool = False, stops=None) -> None:
    """A move's legality; `catapult`: a card's Catapult move, which needs no Loyal starport
    where it starts (the campaign's Seeker Golem); `stops(state, seat, move)`: a game's own
    check of where a Catapult may start and which systems end it, in place of the base one
    (ARCS-152/153, ARCS-155)."""
    here = _system(state, move.origin)
    mine = here.ships_of(seat)
    if move.fresh < 0 or move.damaged < 0 or move.fresh + move.damaged == 0:
        raise BadParameter("a move takes at least one ship")
    if move.fresh > mine.fresh or move.damaged > mine.damaged:
        raise BadParameter(f"only {mine.fresh} fresh and {mine.damaged} damaged Loyal ships are in {move.origin}")
    if not move.path:
        raise BadParameter("a move goes to an adjacent system")
    if len(move.drops) not in (0, len(move.path)):
        raise BadParameter("drops give one (fresh, damaged) pair per system of the path")
    catapult = catapult or any(b.owner == seat and b.kind == "starport" for b in here.buildings)  # ARCS-152, ARCS-155
    if stops is None and len(move.path) > 1 and not catapult:
        raise IllegalAction("moving on past the first system needs a Loyal starport where the move starts")
    at, fresh, damaged = move.origin, move.fresh, move.damaged
    for i, step in enumerate(move.path):
        if step not in reach.systems:
            raise IllegalAction(f"{step} is out of play")  # ARCS-157
        if not reach.adjacent(at, step):
            raise BadParameter(f"{step} does not border {at}")
        last = i == len(move.path) - 1
        if not last and stops is None:  # Catapult stops (ARCS-152/153): a planet, or a gate another player controls
            if "." in step:
                raise IllegalAction(f"entering the planet {step} ends the move")
            holder = controller(state.systems[step])
            if holder is not None and holder != seat:
                raise IllegalAction(f"entering {step}, controlled by {seat_name(holder)}, ends the move")
        if move.drops:
            f, d = move.drops[i]
            if f < 0 or d < 0 or (last and (f, d) != (0, 0)):
                raise BadParameter("drops cannot be negative, and the last system takes every ship still moving")
            fresh, damaged = fresh - f, damaged - d
            if fresh < 0 or damaged < 0 or (not last and fresh + damaged == 0):
                raise BadParameter("more ships dropped than are moving")
        at = step
    if stops is not None:
        stops(state, seat, move)


# What a game built on Arcs does once a Loyal move has happened (the campaign's Breaking
# Gates, the Twisted Passage's event die): pairs (before, after), `before(state, seat, move)`
# read as the ships are about to leave, `after(ctx, seat, move, note)` given its answer
# (`ctx`: the flow's, for its events and dice). Every move of a turn or a card calls them.
AFTER_MOVE: list = []


def move_notes(state: ArcsState, seat: int, move: Move) -> list:
    return [(after, before(state, seat, move)) for before, after in AFTER_MOVE]


def after_move(ctx, seat: int, move: Move, notes: list) -> None:
    if ctx is None:
        return
    for after, note in notes:
        after(ctx, seat, move, note)


def do_move(state: ArcsState, seat: int, move: Move) -> None:
    origin = state.systems[move.origin]
    mine = origin.ships[seat]
    origin.ships[seat] = Ships(fresh=mine.fresh - move.fresh, damaged=mine.damaged - move.damaged)
    fresh, damaged = move.fresh, move.damaged
    for i, step in enumerate(move.path):
        f, d = move.drops[i] if move.drops else (0, 0)
        if i == len(move.path) - 1:
            f, d = fresh, damaged
        there = state.systems[step].ships[seat]
        state.systems[step].ships[seat] = Ships(fresh=there.fresh + f, damaged=there.damaged + d)
        fresh, damaged = fresh - f, damaged - d


# -- influence and secure (ARCS-160..166) ------------------------------------------------------
# A game built on Arcs may close Court cards to some seats (the campaign's Feudal Courts: a
# card with a Court token only for that Fief's Lord and Vassals): fn(state, seat, card, what)
# with `what` "influence" or "secure" returns why it is refused, or ""; each answers "" for a
# table it does not know.
COURT_LIMITS: list = []


def _court_limited(state: ArcsState, seat: int, card: str, what: str) -> None:
    why = next((why for limit in COURT_LIMITS if (why := limit(state, seat, card, what))), "")
    if why:
        raise IllegalAction(why)


def check_influence(state: ArcsState, seat: int, card: str) -> None:
    if not card or card not in state.court_row:
        raise BadParameter(f"{card!r} is not in the Court row")
    if card in state.closed_court_cards:
        raise IllegalAction(f"nobody may influence or secure {card}")
    _court_limited(state, seat, card, "influence")
    if state.players[seat].agents <= 0:
        raise IllegalAction("no agent left in supply")  # ARCS-161


def do_influence(state: ArcsState, seat: int, card: str) -> None:
    state.players[seat].agents -= 1
    state.court_agents[card][seat] += 1


# A game built on Arcs may let a seat secure without the majority (the campaign's Spirit of
# Freedom): each `allows(state, seat, card)` says whether that seat may secure that card anyway.
SECURE_WITHOUT_MAJORITY: list = []


def check_secure(state: ArcsState, seat: int, card: str) -> None:
    if not card or card not in state.court_row:
        raise BadParameter(f"{card!r} is not in the Court row")
    if card in state.closed_court_cards:
        raise IllegalAction(f"nobody may influence or secure {card}")
    _court_limited(state, seat, card, "secure")
    agents = state.court_agents[card]
    if not all(agents[seat] > n for s, n in enumerate(agents) if s != seat) or agents[seat] == 0:
        if not any(allows(state, seat, card) for allows in SECURE_WITHOUT_MAJORITY):
            raise IllegalAction(f"securing {card} needs strictly more agents on it than each Rival")  # ARCS-162


def take_court_card(box: Box, state: ArcsState, seat: int, card: str, rivals_to: str) -> int:
    """The card leaves the row (its place is returned, for `refill_court`): the taker's own
    agents go home, Rival agents to their Captives (secure, ARCS-163) or Trophies (ransack,
    ARCS-196), a Guild card joins the play area (ARCS-164). A Vox card waits in `state.resolving`
    for its effect, then `dispose_vox` (ARCS-165)."""
    agents = state.court_agents.pop(card)
    for owner, n in enumerate(agents):
        if owner == seat:
            state.players[seat].agents += n
        elif rivals_to == "captives":
            state.players[seat].captives.extend([owner] * n)
        else:
            state.players[seat].trophies.extend([Trophy(owner=owner, kind="agent")] * n)
    position = state.court_row.index(card)
    state.court_row[position] = ""
    kind = box.court[card].kind
    if kind == "guild":
        state.players[seat].guild.append(card)
    elif kind == "lore":  # a Court that holds Lore cards (the campaign): taken as the seat's Lore
        state.players[seat].lore.append(card)
    elif kind == "action":  # an action card in such a Court (the campaign's Faithful cards): into the hand
        state.hands[seat].append(card)
    else:
        state.resolving.append(card)
    return position


def dispose_vox(box: Box, state: ArcsState, card: str) -> None:
    """After its effect a Vox card is discarded face up, or shuffled into the Court deck when it says so
    (unless its effect sent it somewhere already: a card offering a choice of where it goes)."""
    if card not in state.resolving:
        return
    state.resolving.remove(card)
    after = box.court[card].after_secured
    if after == "shuffle_into_court":
        state.court_deck.append(card)
        Rng(state).shuffle(state.court_deck)
    elif after == "bury":  # the bottom of the Court deck (index 0 is the top)
        state.court_deck.append(card)
    else:
        state.court_discard.append(card)


# A game's cards with a "When Drawn" effect (the campaign's Passage Storms): fn(state,
# position) once a refill drew a card into the row there (the rule notes what is due).
DRAWN: list = []


def refill_court(state: ArcsState, position: int) -> None:
    """ARCS-166: the deck's top card fills the place; with the deck empty the place stays
    empty and the row shrinks. ARCS-229 is UNCERTAIN in the digest (18, item 13): ruling A-R3
    is taken, so no discard pile is reshuffled into an empty deck."""
    if state.court_deck:
        state.court_row[position] = state.court_deck.pop(0)
        state.court_agents[state.court_row[position]] = [0] * len(state.players)
        for rule in DRAWN:
            rule(state, position)
    else:
        del state.court_row[position]
