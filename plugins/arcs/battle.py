"""Battle arithmetic (digest 7.8): which dice may be taken, what a roll's symbols add up to,
and how the attacker's hit assignments are checked and applied.

The attacker makes every choice (ARCS-183). Hits on ships are a typed decision: how many
fresh ships take one hit (damaged), how many fresh ships take two (destroyed) and how many
damaged ships take one (destroyed). Hits on buildings name each building and its hits.
Every hit that has a legal target must be assigned; the rest are lost (ARCS-186).
"""
from __future__ import annotations

from dataclasses import dataclass

from core.errors import BadParameter
from plugins.arcs.content import Die
from plugins.arcs.state import Building, Ships, SystemState

RESOLVE_ORDER = ("self_hit", "intercept", "hit", "building_hit", "key")  # ARCS-176


# A game built on Arcs may keep a seat's ship outside the systems' `Ships` counts (the
# campaign's Flagship): fn(state, seat, system) -> how many more of the seat's ships are there.
# They attack with the seat's other ships; an empty list leaves the base counts alone.
OTHER_SHIPS: list = []
# ... and may change the Raid Dice Limit against a defender (a Flagship's owner, BR-286):
# fn(state, system, defender) -> whether raid dice may be collected, None to leave it to ARCS-173.
RAID_DICE_RULES: list = []
# ... and may let an attacker collect raid dice where that limit bars them (the campaign's
# Pirate Fleet): fn(state, attacker, system, defender) -> True to open them.
RAID_DICE_OPENERS: list = []


def ships_present(state, seat: int, system: str) -> int:
    """The seat's ships in the system, those a game keeps elsewhere (`OTHER_SHIPS`) included."""
    return state.systems[system].ships_of(seat).total + sum(rule(state, seat, system) for rule in OTHER_SHIPS)


def raid_dice_open(state, battle_system: str, defender: int, attacker: int = -1) -> bool:
    """ARCS-173, or the rule of the game built on Arcs (`RAID_DICE_RULES`); where that bars
    them, an opener for the attacker (`RAID_DICE_OPENERS`) may still allow them."""
    if raid_dice_limit(state, battle_system, defender):
        return True
    return attacker >= 0 and any(rule(state, attacker, battle_system, defender) for rule in RAID_DICE_OPENERS)


def raid_dice_limit(state, battle_system: str, defender: int) -> bool:
    """Whether the Raid Dice Limit itself (ARCS-173 or a game's `RAID_DICE_RULES`) allows them."""
    for rule in RAID_DICE_RULES:
        verdict = rule(state, battle_system, defender)
        if verdict is not None:
            return verdict
    return raid_dice_allowed(state.systems, battle_system, defender)


def raid_dice_allowed(systems: dict[str, SystemState], battle_system: str, defender: int) -> bool:
    """ARCS-173: only if the defender has a building in the battle system, or none anywhere."""
    if any(b.owner == defender for b in systems[battle_system].buildings):
        return True
    return not any(b.owner == defender for s in systems.values() for b in s.buildings)


@dataclass(frozen=True)
class Roll:
    """The summed symbols of one roll."""

    hit: int = 0
    building_hit: int = 0
    self_hit: int = 0
    intercept: int = 0
    key: int = 0


def total(dice: dict[str, Die], faces: list[tuple[str, int]]) -> Roll:
    """Sum the symbols of rolled (die kind, face index) pairs."""
    sums = dict.fromkeys(RESOLVE_ORDER, 0)
    for kind, index in faces:
        face = dice[kind].faces[index]
        for symbol in RESOLVE_ORDER:
            sums[symbol] += getattr(face, symbol)
    return Roll(**sums)


def intercept_hits(system: SystemState, defender: int, intercepts: int) -> int:
    """ARCS-178/179: any intercept rolled means one hit per fresh defending ship, once."""
    return system.ships_of(defender).fresh if intercepts > 0 else 0


def ship_capacity(ships: Ships) -> int:
    """How many hits it takes to destroy every one of these ships (ARCS-128)."""
    return 2 * ships.fresh + ships.damaged


@dataclass(frozen=True)
class ShipHits:
    """The attacker's split of hits over one player's ships."""

    damage_fresh: int = 0    # fresh ships hit once: damaged
    destroy_fresh: int = 0   # fresh ships hit twice: destroyed
    destroy_damaged: int = 0  # damaged ships hit once: destroyed

    @property
    def hits(self) -> int:
        return self.damage_fresh + 2 * self.destroy_fresh + self.destroy_damaged

    @property
    def destroyed(self) -> int:
        return self.destroy_fresh + self.destroy_damaged


def check_ship_hits(ships: Ships, hits: int, split: ShipHits) -> int:
    """Refuse a split that is not exactly the hits these ships must absorb; return the hits
    left over once every ship is destroyed (they may go on to buildings: ARCS-180)."""
    if min(split.damage_fresh, split.destroy_fresh, split.destroy_damaged) < 0:
        raise BadParameter("hit counts cannot be negative")
    if split.damage_fresh + split.destroy_fresh > ships.fresh or split.destroy_damaged > ships.damaged:
        raise BadParameter(f"only {ships.fresh} fresh and {ships.damaged} damaged ships are there")
    absorbed = min(hits, ship_capacity(ships))
    if split.hits != absorbed:
        raise BadParameter(f"{absorbed} hit(s) must go to these ships, not {split.hits}")
    return hits - absorbed


def apply_ship_hits(ships: Ships, split: ShipHits) -> Ships:
    return Ships(fresh=ships.fresh - split.damage_fresh - split.destroy_fresh,
                 damaged=ships.damaged + split.damage_fresh - split.destroy_damaged)


def check_building_hits(buildings: list[Building], defender: int, hits: int, assignment: dict[int, int]) -> None:
    """`assignment`: index in the system's buildings -> hits on it. Only the defender's
    buildings, at most what destroys each (2 fresh, 1 damaged), and every hit that can land."""
    capacity = sum(1 if b.damaged else 2 for b in buildings if b.owner == defender)
    for index, n in assignment.items():
        if not 0 <= index < len(buildings) or buildings[index].owner != defender:
            raise BadParameter(f"building {index} is not a defending building")
        if n < 1 or n > (1 if buildings[index].damaged else 2):
            raise BadParameter(f"building {index} cannot take {n} hit(s)")
    if sum(assignment.values()) != min(hits, capacity):
        raise BadParameter(f"{min(hits, capacity)} hit(s) must go to the defending buildings")


def destroyed_indexes(buildings: list[Building], assignment: dict[int, int]) -> list[int]:
    """Which of the buildings (by index) these hits destroy."""
    return [i for i, b in enumerate(buildings) if assignment.get(i, 0) >= (1 if b.damaged else 2)]


def apply_building_hits(buildings: list[Building], assignment: dict[int, int]) -> tuple[list[Building], list[Building]]:
    """(buildings left, buildings destroyed), in the system's order."""
    left, destroyed = [], []
    for i, b in enumerate(buildings):
        n = assignment.get(i, 0)
        if n == 0:
            left.append(b)
        elif n == 1 and not b.damaged:
            left.append(Building(kind=b.kind, owner=b.owner, damaged=True))
        else:
            destroyed.append(b)
    return left, destroyed
