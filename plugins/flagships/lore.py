"""Lore and Flagships (BR-294, BR-296, BR-297), through the base Lore's registries so a table
where nobody has a Flagship reads the map alone:

- Building checks (BR-294): Lore looking for the seat's Loyal buildings in a system counts
  the Upgrades and Armor in the Flagship's system (`lore_ops.LOYAL_BUILDINGS_APART`): a
  fresh starport on the board stops raid dice with Hidden Harbors and captures at Gate Ports
  with the Flagship in a gate. Lore that says "on the map" is read there alone; none of the
  base Lore in this box says so. Force Beams is no card of this box.
- Dice collection (BR-297): where Lore collects one die per fresh Loyal ship (Galactic
  Rifles) the Flagship collects one per fresh starport on its board, not one for itself
  (`lore_ops.FRESH_SHIP_DICE_APART`).
- Ship improvements (BR-296): the Flagship is a fresh Loyal ship, so Mirror Plating's added
  intercept is read for a battle it defends as for any: the intercept symbol it adds makes
  the defending side intercept (`flagships.battle.resolve_flagships`). After a move that took
  the Flagship, Sprinter Drives' window also offers it one more step into an adjacent system
  (`flagship_sprint`, an ability of the aid card every Flagship owner holds,
  `slipstream.SPRINT`), once, as the Lore lets each fresh ship that moved step once more.
Building on the map with Lore (BR-295) is the Build's (`flagships.engine.check_build`).
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, IllegalAction
from plugins.arcs import abilities, lore_ops
from plugins.arcs.state import Building
from plugins.blighted_reach.state import BlightedReachState
from plugins.flagships import rules
from plugins.flagships.slipstream import SPRINT
from plugins.flagships.state import board_of, flagship_system, store


def board_buildings_here(state, seat: int, system: str) -> list[Building]:
    """The board's pieces as the seat's buildings of the Flagship's system (BR-294)."""
    if not isinstance(state, BlightedReachState) or flagship_system(state, seat) != system:
        return []
    return [Building(kind=p.kind, owner=seat, damaged=p.damaged) for _, _, p in board_of(state, seat).pieces()]


def flagship_rifle_dice(state, seat: int, system: str) -> int:
    """BR-297: one die per fresh starport on the board where the Flagship stands."""
    if not isinstance(state, BlightedReachState) or flagship_system(state, seat) != system:
        return 0
    return rules.fresh_starports(state, seat)


for _registry, _rule in ((lore_ops.LOYAL_BUILDINGS_APART, board_buildings_here),
                         (lore_ops.FRESH_SHIP_DICE_APART, flagship_rifle_dice)):
    if _rule not in _registry:
        _registry.append(_rule)


class FlagshipSprint(msgspec.Struct, forbid_unknown_fields=True):
    to: str  # the system next to the Flagship's it steps into


def _tag(u) -> str:
    return f"{u.card}:{u.index}"


def sprint_open(state, seat: int, u) -> bool:
    """The move window this answer belongs to followed a move of the Flagship, and its step
    is still unused there."""
    ship = board_of(state, seat) if isinstance(state, BlightedReachState) else None
    w = lore_ops.window(state, seat, "move")
    just_moved = ship is not None and ship.sprint_at and state.version - (ship.sprint_at - 1) in (0, 1)
    return bool(just_moved and w is not None and _tag(u) in w["open"])


def _sprint_candidates(env, u):
    from plugins.arcs.turn import reach_of

    where = flagship_system(env.state, u.seat)
    for to in sorted(reach_of(env.box, env.state).neighbours.get(where, ())):
        yield {"to": to}


@abilities.op(SPRINT.do, params=FlagshipSprint, candidates=_sprint_candidates,
              usable=lambda env, u: sprint_open(env.state, u.seat, u))
def flagship_sprint(env, u, choice: FlagshipSprint) -> None:
    """BR-296: Sprinter Drives' step for the Flagship, into a bordering system in play, once
    after the move that took it; a Rival's Gate Ports there captures as for any ship."""
    from plugins.arcs.turn import reach_of

    state, seat = env.state, u.seat
    if not sprint_open(state, seat, u):
        raise IllegalAction("the Flagship steps on only right after a move that took it")
    ship = board_of(state, seat)
    reach = reach_of(env.box, state)
    if choice.to not in reach.systems or not reach.adjacent(ship.system, choice.to):
        raise BadParameter(f"{choice.to} does not border {ship.system}")
    before = lore_ops.gates_before(state, [choice.to])
    origin, ship.system, ship.sprint_at = ship.system, choice.to, 0
    store(state, seat, ship)
    lore_ops.window(state, seat, "move")["open"].remove(_tag(u))
    env.emit("flagship_sprint", seat=seat, origin=origin, into=choice.to)
    lore_ops.capture_at_gates(state, env.box, seat, before, env.emit)
