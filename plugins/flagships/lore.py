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
  the defending side intercept (`flagships.battle.resolve_flagships`).
Building on the map with Lore (BR-295) is the Build's (`flagships.engine.check_build`).
"""
from __future__ import annotations

from plugins.arcs import lore_ops
from plugins.arcs.state import Building
from plugins.blighted_reach.state import BlightedReachState
from plugins.flagships import rules
from plugins.flagships.state import board_of, flagship_system


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
