"""The Flagship rules (rulebook "Flagships" to "Flagship Upgrade Benefits", BR-265..BR-304,
BR-341) as pure functions of the campaign state, for the module and for a Fate that grants a
Flagship with the module off.

Each `check_*` raises a typed error from `core.errors` and changes nothing; its twin checks
then applies. A slot is named by its index on the board (0..5, left to right) or by its
Upgrade's id; `layer` is "upgrade" or "armor".

The Flagship piece is not one of the seat's 15 ships: it stands in `Flagship.system`, off
the base `Ships` counts, so everything that counts fresh Loyal ships for control asks
`fresh_ships` here. Board pieces are the seat's own cities and starports: a city built there
leaves the player board (opening resource slots, BR-304), one destroyed or cleared goes back
to it, as on the map.
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, CannotAfford, IllegalAction, UnknownSeat
from core.seats import no_such_seat, seat_name
from plugins.arcs.battle import OTHER_SHIPS, RAID_DICE_RULES
from plugins.arcs.chapter import return_city
from plugins.arcs.content import Box, box_for
from plugins.arcs.state import Building, Ships, Trophy
from plugins.arcs.turn import BATTLE_DICE
from plugins.blighted_reach import board
from plugins.blighted_reach.blight import CRISIS_HIT_TAKERS
from plugins.blighted_reach.board import EMPIRE, command_barred, is_regent
from plugins.blighted_reach.state import FREE, BlightedReachState
from plugins.flagships.content import FlagshipContent, default_content
from plugins.flagships.state import (
    LAYERS, BoardPiece, Flagship, Layer, board_of, flagship_seats, flagship_system, store,
)

FLAGSHIP_MARK = "flagship"  # a `starports_used` record [FLAGSHIP_MARK, seat]: a ship built at the Flagship


def _seat(state: BlightedReachState, seat: int) -> None:
    if not 0 <= seat < len(state.players):
        raise UnknownSeat(no_such_seat(seat, len(state.players)))


def flagship(state: BlightedReachState, seat: int) -> Flagship:
    """The seat's Flagship, or a refusal if it has none."""
    _seat(state, seat)
    found = board_of(state, seat)
    if found is None:
        raise IllegalAction(f"{seat_name(seat)} has no Flagship")
    return found


def slot_index(content: FlagshipContent, slot: int | str) -> int:
    if isinstance(slot, str):
        try:
            return content.slot_of(slot)
        except KeyError:
            raise BadParameter(f"{slot!r} is not an Upgrade of the Flagship board") from None
    if not 0 <= slot < len(content.upgrades):
        raise BadParameter(f"the Flagship board has no slot {slot}")
    return slot


def _layer(layer: str) -> Layer:
    if layer not in LAYERS:
        raise BadParameter(f"{layer!r} is neither 'upgrade' nor 'armor'")
    return layer  # type: ignore[return-value]


def has_upgrade(state: BlightedReachState, seat: int, upgrade: str, content: FlagshipContent | None = None) -> bool:
    """The seat's board holds that Upgrade, fresh or damaged: both give the benefit (BR-280)."""
    found = board_of(state, seat)
    if found is None:
        return False
    content = content or default_content()
    return found.slots[content.slot_of(upgrade)].upgrade is not None


def fresh_starports(state: BlightedReachState, seat: int) -> int:
    found = board_of(state, seat)
    return 0 if found is None else sum(1 for _, _, p in found.pieces() if p.kind == "starport" and not p.damaged)


def flagships_in(state: BlightedReachState, system: str) -> list[int]:
    """Seats whose Flagship stands in the system."""
    return [s for s in flagship_seats(state) if board_of(state, s).system == system]


# -- control with the Flagship counted (BR-267) ------------------------------------------


def fresh_ships(state: BlightedReachState, seat: int, system: str) -> int:
    """The seat's fresh Loyal ships in the system, its Flagship included."""
    return board.fresh_loyal_ships(state, seat, system)


def flagship_here(state: BlightedReachState, seat: int, system: str) -> int:
    """1 where the seat's Flagship stands (a fresh Loyal ship off the `Ships` counts), else
    0: what `board.EXTRA_FRESH_SHIPS` asks of the module."""
    return int(flagship_system(state, seat) == system)


def loyal_controller(state: BlightedReachState, system: str) -> int | None:
    """ARCS-130 over the fresh Loyal ships with Flagships counted: strictly the most."""
    return board.loyal_controller(state, system)


def controller(state: BlightedReachState, system: str) -> int | None:
    """The Empire where a fresh Imperial ship stands (BR-120), else the Loyal controller."""
    return board.controller(state, system)


def rival_controls(state: BlightedReachState, seat: int, system: str) -> bool:
    """Whether something other than the seat controls the system on its turn: another seat,
    or the Empire unless the seat is a Regent (its Flagship is a Loyal piece there, so the
    Presence Law makes an Empire system its own, BR-122)."""
    who = controller(state, system)
    if who == EMPIRE:
        return not (is_regent(state, seat) and not command_barred(state, seat))
    return who is not None and who != seat


# -- getting a Flagship (BR-004, BR-265, BR-267) --------------------------------------------


def check_grant(state: BlightedReachState, seat: int, system: str) -> None:
    _seat(state, seat)
    if board_of(state, seat) is not None:
        raise IllegalAction(f"{seat_name(seat)} already has a Flagship")
    if system not in state.systems:
        raise BadParameter(f"{system!r} is not a system in play")


def _take_free(state: BlightedReachState, kind: str) -> None:
    """One Free building leaves its supply; with none left a proxy stands in (BR-182)."""
    left = state.free_city_supply if kind == "city" else state.free_starport_supply
    if left <= 0:
        state.free_proxies[kind] = state.free_proxies.get(kind, 0) + 1
    elif kind == "city":
        state.free_city_supply -= 1
    else:
        state.free_starport_supply -= 1


def grant(box: Box, state: BlightedReachState, seat: int, system: str) -> list[tuple[str, int]]:
    """The seat gets its Flagship piece in `system` and an empty board (BR-004); each of its
    Loyal buildings on the map becomes a Free building of the same type in the same slot,
    damaged if it was (BR-265), and goes home: a starport to the supply, a city to the
    player board (which may open a resource placement, ARCS-250). Returns the slots freed."""
    check_grant(state, seat, system)
    freed = []
    for where, here in state.systems.items():
        for i, b in enumerate(here.buildings):
            if b.owner != seat:
                continue
            here.buildings[i] = Building(kind=b.kind, owner=FREE, damaged=b.damaged)
            _take_free(state, b.kind)
            freed.append((where, i, b.kind))
    for _, _, kind in freed:
        if kind == "starport":
            state.players[seat].starports += 1
        else:
            return_city(box, state, seat)
    store(state, seat, Flagship(system=system))
    return [(where, i) for where, i, _ in freed]


# -- building Upgrades and Armor (BR-268, BR-273..BR-276) ------------------------------------


def _planet_fits(box: Box, system: str, wanted: str) -> bool:
    planet = box.systems.get(system)
    return planet is not None and (wanted == "any" or planet.type == wanted)


def check_build_piece(box: Box, state: BlightedReachState, seat: int, slot: int | str, layer: str, kind: str,
                      content: FlagshipContent | None = None) -> int:
    """Build a city or starport into a slot: the Flagship at a planet of the slot's type
    (BR-273), the slot empty, Armor only over a fresh Upgrade (BR-274), a building of that
    kind in the seat's supply (a city still on its board). Returns the slot index."""
    content = content or default_content()
    ship = flagship(state, seat)
    index, layer = slot_index(content, slot), _layer(layer)
    if kind not in ("city", "starport"):
        raise BadParameter(f"cannot build {kind!r} on a Flagship board: city or starport")
    upgrade = content.upgrades[index]
    wanted = upgrade.upgrade_planet if layer == "upgrade" else upgrade.armor_planet
    if not _planet_fits(box, ship.system, wanted):
        raise IllegalAction(f"the {upgrade.name} {layer} is built at a {wanted} planet; the Flagship is in {ship.system}")
    here = ship.slots[index]
    if here.piece(layer) is not None:
        raise IllegalAction(f"the {upgrade.name} {layer} slot is taken")
    if layer == "armor" and (here.upgrade is None or here.upgrade.damaged):
        raise IllegalAction(f"Armor needs a fresh {upgrade.name} Upgrade under it")
    player = state.players[seat]
    if (kind == "city" and True not in player.cities_on_board) or (kind == "starport" and player.starports <= 0):
        raise CannotAfford(f"{seat_name(seat)} has no {kind} left to build")
    return index


def build_piece(box: Box, state: BlightedReachState, seat: int, slot: int | str, layer: str, kind: str,
                content: FlagshipContent | None = None, damaged: bool | None = None) -> BoardPiece:
    """Place it, damaged where a Rival controls the Flagship's system (BR-275; `damaged`:
    that verdict as the table's laws give it, None to read `rival_controls`); a city leaves
    the player board's leftmost city slot (ARCS-144)."""
    index = check_build_piece(box, state, seat, slot, layer, kind, content)
    ship = board_of(state, seat)
    player = state.players[seat]
    if kind == "city":
        player.cities_on_board[player.cities_on_board.index(True)] = False
    else:
        player.starports -= 1
    if damaged is None:
        damaged = rival_controls(state, seat, ship.system)
    piece = BoardPiece(kind=kind, damaged=damaged)
    ship.slots[index].put(layer, piece)
    store(state, seat, ship)
    return piece


def build_options(box: Box, state: BlightedReachState, seat: int,
                  content: FlagshipContent | None = None) -> list[dict]:
    """Every build open to the seat's board now, for a prompt: {"slot", "layer", "kind"}."""
    content = content or default_content()
    out = []
    for index in range(len(content.upgrades)):
        for layer in LAYERS:
            for kind in ("city", "starport"):
                try:
                    check_build_piece(box, state, seat, index, layer, kind, content)
                except (IllegalAction, CannotAfford):
                    continue
                out.append({"slot": index, "layer": layer, "kind": kind})
    return out


def check_repair_piece(state: BlightedReachState, seat: int, slot: int | str, layer: str,
                       content: FlagshipContent | None = None) -> int:
    content = content or default_content()
    ship = flagship(state, seat)
    index, layer = slot_index(content, slot), _layer(layer)
    piece = ship.slots[index].piece(layer)
    if piece is None or not piece.damaged:
        raise IllegalAction(f"the {content.upgrades[index].name} {layer} is not a damaged piece")
    return index


def repair_piece(state: BlightedReachState, seat: int, slot: int | str, layer: str,
                 content: FlagshipContent | None = None) -> None:
    """BR-277: repairing the Flagship stands up one damaged Upgrade or Armor."""
    index = check_repair_piece(state, seat, slot, layer, content)
    ship = board_of(state, seat)
    piece = ship.slots[index].piece(layer)
    ship.slots[index].put(layer, BoardPiece(kind=piece.kind))
    store(state, seat, ship)


# -- ships built at the Flagship (BR-269, BR-270, BR-298) --------------------------------------


def ship_limit(state: BlightedReachState, seat: int, content: FlagshipContent | None = None) -> int:
    """Ships the seat may build at its Flagship per turn, whatever starports its board has:
    1, or 2 with a Ship Crane (fresh or damaged, BR-280)."""
    content = content or default_content()
    return content.ship_limit_with_crane if has_upgrade(state, seat, "ship_crane", content) else content.ship_limit


def ships_built(starports_used: list, seat: int) -> int:
    return sum(1 for record in starports_used if record == [FLAGSHIP_MARK, seat])


def check_flagship_ship(state: BlightedReachState, seat: int, starports_used: list,
                        content: FlagshipContent | None = None) -> None:
    """One Build action builds one ship (BR-298: a Ship Crane still needs two builds);
    `starports_used`: the turn's records, where ships built at the Flagship are marked.
    Free starports the seat controls build as well, beside this limit (BR-270)."""
    flagship(state, seat)
    limit = ship_limit(state, seat, content)
    if ships_built(starports_used, seat) >= limit:
        raise IllegalAction(f"the Flagship built {limit} ship(s) this turn already")


def build_flagship_ship(state: BlightedReachState, seat: int, starports_used: list,
                        content: FlagshipContent | None = None, damaged: bool | None = None) -> bool:
    """A ship from the seat's supply into the Flagship's system, damaged where a Rival
    controls it (ARCS-146; `damaged` as in `build_piece`); False with no ship left
    (ARCS-148: the action is still taken)."""
    check_flagship_ship(state, seat, starports_used, content)
    system = board_of(state, seat).system
    starports_used.append([FLAGSHIP_MARK, seat])
    player = state.players[seat]
    if player.ships <= 0:
        return False
    if damaged is None:
        damaged = rival_controls(state, seat, system)
    here = state.systems[system]
    mine = here.ships[seat]
    player.ships -= 1
    here.ships[seat] = Ships(fresh=mine.fresh + (not damaged), damaged=mine.damaged + damaged)
    return True


# -- battle: dice, intercepts, raid dice (BR-271, BR-283, BR-286, BR-287, BR-299, BR-303) ---


def attack_dice(state: BlightedReachState, seat: int) -> int:
    """BR-283: an attacking Flagship collects dice up to its fresh starports on the board
    (none without one); BR-297: dice-collecting lore counts it the same way."""
    return fresh_starports(state, seat) if board_of(state, seat) is not None else 0


def intercept_hits(state: BlightedReachState, seat: int, intercepts: int) -> int:
    """BR-271/BR-287: a defending Flagship deals no intercept hits, unless it has a Defense
    Array (BR-299): then one per fresh starport on its board, if any intercept was rolled.
    The seat's other fresh ships intercept as usual (the base rule, not counted here)."""
    if intercepts <= 0 or not has_upgrade(state, seat, "defense_array"):
        return 0
    return fresh_starports(state, seat)


def raid_dice_allowed(state: BlightedReachState, defender: int, system: str) -> bool | None:
    """Against a Flagship owner the Raid Dice Limit changes (BR-286): raid dice only if the
    defender has buildings in the battle system or its Flagship defends there; a defending
    Flagship with a Tractor Beam allows none (BR-303). None: the defender has no Flagship,
    so the base limit stands."""
    ship = board_of(state, defender) if 0 <= defender < len(state.players) else None
    if ship is None:
        return None
    defending = ship.system == system
    if defending and has_upgrade(state, defender, "tractor_beam"):
        return False
    return defending or any(b.owner == defender for b in state.systems[system].buildings)


# -- hits on the board (BR-281, BR-282, BR-284, BR-288..BR-292) ------------------------------


def defending_order(ship: Flagship) -> list[tuple[int, Layer]]:
    """The fixed order hits take on a defending (or Crisis-hit) board: the top row (Armor)
    right to left, then the bottom row (Upgrades) right to left (BR-288, BR-292)."""
    order = [(i, "armor") for i in reversed(range(len(ship.slots)))]
    order += [(i, "upgrade") for i in reversed(range(len(ship.slots)))]
    return [(i, layer) for i, layer in order if ship.slots[i].piece(layer) is not None]


def board_capacity(ship: Flagship) -> int:
    """Hits it takes to destroy every piece on the board (2 a fresh one, 1 a damaged one)."""
    return sum(1 if p.damaged else 2 for _, _, p in ship.pieces())


def hit_piece(ship: Flagship, index: int, layer: Layer) -> BoardPiece | None:
    """One hit on the piece: fresh becomes damaged, damaged is destroyed (returned)."""
    piece = ship.slots[index].piece(layer)
    if piece.damaged:
        ship.slots[index].put(layer, None)
        return piece
    ship.slots[index].put(layer, BoardPiece(kind=piece.kind, damaged=True))
    return None


def send_home(box: Box, state: BlightedReachState, seat: int, destroyed: list[BoardPiece], taker: int | None) -> None:
    """Destroyed board pieces: the taker's Trophies in battle, else back to the owner's
    supply (a city to its board). No Outrage, no Ransack, ever (BR-279)."""
    for piece in destroyed:
        if taker is not None:
            state.players[taker].trophies.append(Trophy(owner=seat, kind=piece.kind))
        elif piece.kind == "starport":
            state.players[seat].starports += 1
        else:
            return_city(box, state, seat)


def hit_in_order(box: Box, state: BlightedReachState, seat: int, hits: int, taker: int | None) -> dict:
    ship = flagship(state, seat)
    destroyed: list[BoardPiece] = []
    hit: list[list] = []
    for _ in range(hits):
        order = defending_order(ship)
        if not order:
            break
        index, layer = order[0]
        hit.append([index, layer])
        gone = hit_piece(ship, index, layer)
        if gone is not None:
            destroyed.append(gone)
    store(state, seat, ship)
    send_home(box, state, seat, destroyed, taker)
    return {"hit": hit, "destroyed": [p.kind for p in destroyed], "lost": hits - len(hit)}


def defending_hits(box: Box, state: BlightedReachState, seat: int, attacker: int, hits: int) -> dict:
    """Hits on a defending board, the attacker choosing nothing (BR-288, BR-289): building
    hits, and ship hits once the Flagship is the only defending ship left, in the fixed order;
    destroyed pieces become the attacker's Trophies. Hits beyond the board are lost, the
    Flagship itself stays (BR-267). Returns {"hit": [[slot, layer]...], "destroyed", "lost"}."""
    _seat(state, attacker)
    if hits < 0:
        raise BadParameter("hits cannot be negative")
    return hit_in_order(box, state, seat, hits, attacker)


def check_attacking_hits(state: BlightedReachState, seat: int, ships: Ships, hits: int, ship_hits: int,
                         picks: list[int | str], content: FlagshipContent | None = None) -> list[tuple[int, Layer]]:
    """The attacker's own hits (self-hits, intercepts), its choice as on ships (BR-282,
    BR-284): `ship_hits` of them on its other attacking `ships`, one hit per entry of
    `picks` on the board, each on the named slot's Armor while it stands, then its Upgrade
    (BR-281). Every hit that can land must: on the board when no other ship can take it.
    Returns the (slot, layer) each pick lands on."""
    content = content or default_content()
    ship = flagship(state, seat)
    if hits < 0 or ship_hits < 0:
        raise BadParameter("hits cannot be negative")
    ship_room = 2 * ships.fresh + ships.damaged
    if ship_hits > ship_room:
        raise BadParameter(f"the other attacking ships take at most {ship_room} hit(s)")
    landing = min(hits, ship_room + board_capacity(ship))
    if ship_hits + len(picks) != landing:
        raise BadParameter(f"{landing} hit(s) must be taken, not {ship_hits + len(picks)}")
    trial = msgspec.convert(msgspec.to_builtins(ship), Flagship)  # a trial run: nothing is stored
    out = []
    for pick in picks:
        index = slot_index(content, pick)
        here = trial.slots[index]
        layer: Layer = "armor" if here.armor is not None else "upgrade"
        if here.piece(layer) is None:
            raise BadParameter(f"the {content.upgrades[index].name} slot has nothing left to hit")
        hit_piece(trial, index, layer)
        out.append((index, layer))
    return out


def attacking_board_hits(box: Box, state: BlightedReachState, seat: int, defender: int, ships: Ships, hits: int,
                         ship_hits: int, picks: list[int | str], content: FlagshipContent | None = None) -> dict:
    """Apply the board's part of the attacker's choice; destroyed pieces become the
    defender's Trophies (as self-hit ships do). The ships' part is the base battle's."""
    landed = check_attacking_hits(state, seat, ships, hits, ship_hits, picks, content)
    _seat(state, defender)
    ship = board_of(state, seat)
    destroyed = [gone for index, layer in landed if (gone := hit_piece(ship, index, layer)) is not None]
    store(state, seat, ship)
    send_home(box, state, seat, destroyed, defender)
    return {"hit": [list(x) for x in landed], "destroyed": [p.kind for p in destroyed]}


# -- Crises (BR-291, BR-292) ----------------------------------------------------------------


def crisis_hits_flagship(state: BlightedReachState, seat: int, system: str) -> bool:
    """BR-291: in a Crisis the Flagship takes hits only when no other fresh Loyal ship of its
    owner is left in the system."""
    ship = board_of(state, seat)
    return ship is not None and ship.system == system and state.systems[system].ships_of(seat).fresh == 0


def crisis_hits(box: Box, state: BlightedReachState, seat: int, system: str, hits: int) -> dict:
    """The hits a Crisis puts on the seat's Flagship: each on the rightmost Armor, then the
    rightmost Upgrade (BR-292); destroyed pieces go home, as a Crisis takes no Trophies."""
    if not crisis_hits_flagship(state, seat, system):
        raise IllegalAction(f"{seat_name(seat)}'s Flagship takes no Crisis hits in {system} now")
    return hit_in_order(box, state, seat, hits, None)


def blight_crisis_hits(state: BlightedReachState, seat: int, system: str, hits: int) -> int | None:
    """For `blight.CRISIS_HIT_TAKERS`: the seat's Flagship in the system takes up to `hits`
    once no other fresh Loyal ship of its owner is left there (the Blight Crisis asks after
    hitting those), rightmost Armor first (BR-291, BR-292). None: no Flagship there."""
    if flagship_system(state, seat) != system:
        return None
    if hits <= 0 or not crisis_hits_flagship(state, seat, system):
        return 0
    return len(crisis_hits(box_for(state), state, seat, system, hits)["hit"])


# -- the Intermission (BR-341) --------------------------------------------------------------


def destroy_damaged(box: Box, state: BlightedReachState) -> dict[int, list[str]]:
    """Intermission D: every damaged Upgrade and Armor is destroyed, back to its owner's
    supply. Returns, per seat, the kinds destroyed."""
    out = {}
    for seat in flagship_seats(state):
        ship = board_of(state, seat)
        gone = []
        for index, layer, piece in list(ship.pieces()):
            if piece.damaged:
                ship.slots[index].put(layer, None)
                gone.append(piece)
        if gone:
            store(state, seat, ship)
            send_home(box, state, seat, gone, None)
            out[seat] = [p.kind for p in gone]
    return out


def board_buildings(state: BlightedReachState) -> list[tuple[int, str]]:
    """(owner, kind) of every city and starport on a Flagship board, for the piece counts."""
    return [(seat, p.kind) for seat in flagship_seats(state) for _, _, p in board_of(state, seat).pieces()]


def battle_dice(state, seat: int, system: str) -> int:
    """For `arcs.turn.BATTLE_DICE`: an attacking Flagship's dice, one per fresh starport on
    its board, where it stands (BR-283)."""
    return attack_dice(state, seat) if flagship_system(state, seat) == system else 0


def raid_rule(state, system: str, defender: int) -> bool | None:
    """For `arcs.battle.RAID_DICE_RULES`: the Raid Dice Limit against a Flagship owner and
    the Tractor Beam (BR-286, BR-303); None for a defender of no seat or without one."""
    if not 0 <= defender < len(state.players):
        return None
    return raid_dice_allowed(state, defender, system)


# Registered as these rules load (the campaign's invariants and hooks load them), so no
# campaign table can miss them; each answers nothing where nobody has a Flagship. Control
# counts the Flagship where it stands (BR-267); it attacks with the seat's ships and rolls its
# own dice; the Raid Dice Limit changes against its owner; a Blight Crisis reaches its board.
for _registry, _rule in ((board.EXTRA_FRESH_SHIPS, flagship_here), (OTHER_SHIPS, flagship_here),
                         (BATTLE_DICE, battle_dice), (RAID_DICE_RULES, raid_rule),
                         (CRISIS_HIT_TAKERS, blight_crisis_hits)):
    if _rule not in _registry:
        _registry.append(_rule)
