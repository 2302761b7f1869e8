"""The Queen's Dilemma Chronicle card symbology: triggers and targets as pure functions.

A Chronicle effect fires when its trigger holds on the Ideology board, for the players its
target selects. Players are described by plain data: `Councilor` fields (resources, power,
points), the Buildings each owns (by type), the Character and the kept Ideology card.
"""
from __future__ import annotations

from typing import Iterable

from plugins.queens_dilemma.scoring import HALF, IdeologyBoard, IdeologyCard, axis_of, winning

TRIGGERS = ("win", "max", "lose")
POINTS = ("hegemony", "independence", "infamy")


def triggered(kind: str, ideology: str, board: IdeologyBoard) -> bool:
    """QD-365..367: win (its half), max (its last space), lose (the other half; the centre
    is neither)."""
    axis, direction = axis_of(ideology)
    position = board.sliders[axis] * direction
    if kind == "win":
        return winning(board, ideology)
    if kind == "max":
        return position == HALF
    if kind == "lose":
        return position < 0
    raise ValueError(f"unknown trigger {kind!r}")


def amount_of(councilor, what: str) -> int:
    if what == "power":
        return councilor.power
    if what in POINTS:
        return getattr(councilor, what)
    return councilor.resources[what]


def majority(councilors: Iterable, what: str) -> list[int]:
    """QD-369: the most of a Resource, points or Power; every tied player."""
    councilors = list(councilors)
    best = max(amount_of(c, what) for c in councilors)
    return [c.seat for c in councilors if amount_of(c, what) == best]


def minority(councilors: Iterable, what: str) -> list[int]:
    """QD-370: the least; every tied player."""
    councilors = list(councilors)
    least = min(amount_of(c, what) for c in councilors)
    return [c.seat for c in councilors if amount_of(c, what) == least]


def building_count(buildings: dict[int, list[str]], building_type: str, at_least: int) -> list[int]:
    """QD-371: every player with at least `at_least` Buildings of the type (base Buildings
    included: they are in the lists)."""
    return sorted(seat for seat, owned in buildings.items() if owned.count(building_type) >= at_least)


def scoring_for(cards: dict[int, IdeologyCard], ideology: str) -> list[int]:
    """QD-373: players whose kept card lists the Ideology as Favored (Balanced pairs do not count)."""
    return sorted(seat for seat, card in cards.items() if any(f.ideology == ideology for f in card.favored))
