"""Catapulting with a Flagship (BR-278, BR-300, BR-301).

The Slipstream Drive (fresh or damaged, BR-280) lets its owner, once a turn in the Prelude,
Catapult either the Flagship alone or other Loyal ships from the Flagship's system, paying
nothing: the benefit the Flagship Upgrades aid card describes. It is a Prelude ability of
that aid card (`AID`, the side naming the Slipstream Drive), which every Flagship owner holds
through the base `abilities.HELD_SOURCES` registry, usable while the board holds the
Upgrade; so the turn's usual `UseAbility` answer (checked on a copy, once per turn) carries
it and bots list it.

The stops are the campaign's (`empire.catapult_stops`, Blighted gates): every system before
the last is a gate whose entry does not end the move. The start is the Flagship, not a
starport, so no starport is needed there. Reading: "other ships" are the seat's Loyal ones
(no Imperial ship goes along), and the Flagship alone drops nothing on the way.

Without the Drive the Flagship still Catapults like any Loyal ship from a Free starport its
owner controls (BR-301, `free_starport_catapult`); the starports on its own board never
start one (BR-278): they are not on the map.
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, IllegalAction
from core.seats import seat_name
from plugins.arcs import abilities, lore_ops
from plugins.arcs.actions import Move, check_move, do_move
from plugins.arcs.content import Ability
from plugins.arcs.court_ops import used_this_turn
from plugins.blighted_reach import empire, free_states
from plugins.blighted_reach.blight import check_catapult_blight
from plugins.blighted_reach.state import BlightedReachState
from plugins.flagships import rules
from plugins.flagships.state import board_of, flagship_system, store

AID = "AID10A"  # the Flagship Upgrades aid card side that describes the Slipstream Drive
OP = "slipstream_catapult"
SLIPSTREAM = Ability(when="prelude", do=OP, limit="once_per_turn")


SPRINT = Ability(when="move", do="flagship_sprint")  # Sprinter Drives for the Flagship (`flagships.lore`)


def holds_sprinter_drives(box, state, seat: int) -> bool:
    """The seat's Lore includes a Sprinter Drives step (read on its cards, not through
    `abilities.modifiers`, which asks this source in turn)."""
    lore = getattr(box, "lore", {})
    return any(ab.do == "extra_move_fresh" for card in state.players[seat].lore if card in lore
               for ab in lore[card].abilities)


def _held(state, box, seat: int) -> list:
    """The aid card every Flagship owner holds: its Slipstream Drive Catapult (usable with
    the Upgrade built) at index 0, and the Flagship's Sprinter Drives step at index 1 while
    that Lore is held, so each keeps its index."""
    if not isinstance(state, BlightedReachState) or flagship_system(state, seat) is None:
        return []
    return [(AID, [SLIPSTREAM, SPRINT] if holds_sprinter_drives(box, state, seat) else [SLIPSTREAM])]


if _held not in abilities.HELD_SOURCES:
    abilities.HELD_SOURCES.append(_held)


def _key(u) -> str:
    """How a once-a-turn use is recorded on the turn (as the base's limited abilities are)."""
    return f"{u.card}:{u.index}"


class SlipstreamMove(msgspec.Struct, forbid_unknown_fields=True):
    """`fresh`/`damaged` 0: the Flagship alone; else those Loyal ships from its system,
    `drops` as a base move's."""

    path: list[str]
    fresh: int = 0
    damaged: int = 0
    drops: list[tuple[int, int]] = []


def check_legs(box, state: BlightedReachState, seat: int, origin: str, path: list[str]) -> None:
    """Every system of the path in play and bordering the one before; every one before the
    last a gate whose entry does not end a Loyal group's Catapult (BR-129..BR-131, Blight)."""
    from plugins.arcs.turn import reach_of

    reach, at = reach_of(box, state), origin
    for i, step in enumerate(path):
        if step not in reach.systems:
            raise IllegalAction(f"{step} is out of play")
        if not reach.adjacent(at, step):
            raise BadParameter(f"{step} does not border {at}")
        if i < len(path) - 1:
            if "." in step:
                raise IllegalAction(f"entering the planet {step} ends the move")
            if empire.catapult_stops(state, seat, False, True, step):
                raise IllegalAction(f"entering {step} ends the move")
        at = step
    check_catapult_blight(box, state, Move(origin=origin, fresh=1, damaged=0, path=tuple(path)))


def _move(origin: str, choice: SlipstreamMove) -> Move:
    return Move(origin=origin, fresh=choice.fresh, damaged=choice.damaged, path=tuple(choice.path),
                drops=tuple(tuple(d) for d in choice.drops))


# A game's rules around this Catapult (the campaign's Breaking Gates): `CHECKS` fn(state,
# seat, origin, path) refuse one (raising); `AFTER` fn(env, seat, origin, path) follow it.
CHECKS: list = []
AFTER: list = []


def destroy_drive(state: BlightedReachState, seat: int) -> list[str]:
    """The Slipstream Drive Upgrade and the Armor above it leave the board, destroyed with
    no Trophy taken (back to the owner, as `rules.send_home` without a taker)."""
    from plugins.arcs.content import box_for
    from plugins.flagships.content import default_content

    ship = board_of(state, seat)
    slot = ship.slots[default_content().slot_of("slipstream_drive")]
    gone = [p for p in (slot.upgrade, slot.armor) if p is not None]
    slot.upgrade = slot.armor = None
    store(state, seat, ship)
    rules.send_home(box_for(state), state, seat, gone, None)
    return [p.kind for p in gone]


def check(env, u, choice: SlipstreamMove, owner: int | None = None) -> str:
    """The Flagship's system, once the Catapult passes every rule (changes nothing).
    `owner`: whose Flagship and ships Catapult (the user's own unless another's lends them:
    the campaign's Judge's Chosen); the once-a-turn use is the user's."""
    state = env.state
    seat = u.seat if owner is None else owner
    origin = flagship_system(state, seat)
    if origin is None:
        raise IllegalAction(f"{seat_name(seat)} has no Flagship")
    if not rules.has_upgrade(state, seat, "slipstream_drive"):
        raise IllegalAction("Catapulting from the Flagship needs its Slipstream Drive")
    if _key(u) in used_this_turn(env, u):
        raise IllegalAction("the Slipstream Drive Catapults once a turn")
    if not choice.path:
        raise BadParameter("a Catapult goes to an adjacent system at least")
    for rule in CHECKS:
        rule(state, seat, origin, list(choice.path))
    if choice.fresh or choice.damaged:
        from plugins.arcs.turn import reach_of

        check_move(state, reach_of(env.box, state), seat, _move(origin, choice),
                   stops=lambda s, who, m: check_legs(env.box, s, who, origin, list(m.path)))
    else:
        if choice.drops:
            raise BadParameter("the Flagship alone drops nothing on the way")
        check_legs(env.box, state, seat, origin, choice.path)
    return origin


def candidates(env, u, owner: int | None = None) -> list[dict]:
    """The Flagship alone, or every ship there, to each system two steps on through a gate."""
    from plugins.arcs.turn import reach_of

    state = env.state
    seat = u.seat if owner is None else owner
    origin = flagship_system(state, seat)
    reach = reach_of(env.box, state)
    ships = state.systems[origin].ships_of(seat)
    out = []
    for gate in sorted(reach.neighbours.get(origin, ())):
        for far in sorted(reach.neighbours.get(gate, ())) if "." not in gate else ():
            if far == origin:
                continue
            out.append({"path": [gate, far]})
            if ships.total:
                out.append({"path": [gate, far], "fresh": ships.fresh, "damaged": ships.damaged})
    return out


def usable(env, u, owner: int | None = None) -> bool:
    seat = u.seat if owner is None else owner
    return (flagship_system(env.state, seat) is not None and rules.has_upgrade(env.state, seat, "slipstream_drive")
            and _key(u) not in used_this_turn(env, u))


def catapult(env, u, choice: SlipstreamMove, owner: int | None = None) -> None:
    """BR-300: the Catapult, free, once a turn; a Rival's Gate Ports on the way captures as
    it does for any move (L08), the moved ships' owner's agent."""
    state = env.state
    seat = u.seat if owner is None else owner
    origin = check(env, u, choice, owner)
    before = lore_ops.gates_before(state, choice.path)
    if choice.fresh or choice.damaged:
        do_move(state, seat, _move(origin, choice))
        moved = "ships"
    else:
        ship = board_of(state, seat)
        ship.system = choice.path[-1]
        store(state, seat, ship)
        moved = "flagship"
    used_this_turn(env, u).append(_key(u))
    env.emit("slipstream_catapult", seat=seat, origin=origin, path=list(choice.path), moved=moved,
             fresh=choice.fresh, damaged=choice.damaged, **({} if owner is None else {"by": u.seat}))
    lore_ops.capture_at_gates(state, env.box, seat, before, env.emit)  # a Rival's Gate Ports, as for any move
    for rule in AFTER:
        rule(env, seat, origin, list(choice.path))


@abilities.op(OP, params=SlipstreamMove, candidates=candidates, usable=usable)
def slipstream_catapult(env, u, choice: SlipstreamMove) -> None:
    catapult(env, u, choice)


def free_starport_catapult(state: BlightedReachState, seat: int, origin: str) -> bool:
    """BR-301: a Move may Catapult the Flagship from a Free starport its owner controls (or a
    Loyal one lore put on the map), no Slipstream Drive needed."""
    return free_states.catapult_origin(state, seat, origin)
