"""The Queen's Dilemma: seat-order rules of the one-time campaign setup and of each game's
setup, as pure functions of the seating (seats are numbered clockwise).

The turn orders are not one simple cycle: Main Regions go clockwise from the Leader, then
counter-clockwise from the Moderator; the Investment draft goes from least to most
Hegemony, ties by nearness to the Leader clockwise.
"""
from __future__ import annotations

from core.turn_order import by_key, clockwise, counter_clockwise

# Seat bonuses by clockwise position from the Leader (position 1 = the Leader): QD-039..044.
SEAT_BONUS = {
    1: {},
    2: {"power": 1},
    3: {"independence": 1},
    4: {"power": 1, "independence": 1},
    5: {"power": 1, "gold": 1, "independence": 1},
    6: {"power": 1, "gold": 1, "independence": 1},  # as printed: the same as seat 5 (QD-044 flag)
}
REGIONS = ("allwed", "natar", "blodyn", "olwyn", "coden", "solad",
           "crann", "tiryll", "dualak", "tork", "gamam", "wylio")  # QD-049 (Aontas is never owned)
INVESTMENTS_USED = {6: 7, 5: 6, 4: 5, 3: 5}  # QD-105..107


def seat_bonuses(players: int, leader: int) -> tuple[dict[int, dict], int]:
    """({seat: bonus}, moderator): bonuses by position from the Leader; the last position
    (the Leader's right) also takes the Moderator token (QD-045, QD-046)."""
    order = clockwise(leader, players)
    return {seat: dict(SEAT_BONUS[pos + 1]) for pos, seat in enumerate(order)}, order[-1]


def region_pick_order(players: int, leader: int, moderator: int) -> list[tuple[int, str]]:
    """Who picks, in order, and whether the pick is a Main or a Vassal Region (QD-050..058).
    With 5 players the last Vassal Region goes to the Moderator's right without a choice,
    so it is listed as an automatic pick ("vassal-auto")."""
    first = [(s, "main") for s in clockwise(leader, players)]
    second = [(s, "main") for s in counter_clockwise(moderator, players)]
    if players == 6:
        return first + second
    if players == 5:
        right_of_moderator = (moderator - 1) % players
        return first + second + [(moderator, "vassal"), (right_of_moderator, "vassal-auto")]
    if players == 4:
        return first + second + [(s, "vassal") for s in counter_clockwise(moderator, players)]
    if players == 3:
        third = [(s, "main") for s in clockwise(leader, players)]
        return first + second + third + [(s, "vassal") for s in counter_clockwise(moderator, players)]
    raise ValueError("The Queen's Dilemma takes 3 to 6 players")


def investment_draft_order(hegemony: list[int], leader: int) -> list[int]:
    """Least Hegemony first; ties in clockwise order from the Leader, who counts as nearest
    (QD-108..110)."""
    players = len(hegemony)
    nearness = {seat: i for i, seat in enumerate(clockwise(leader, players))}
    return by_key(range(players), key=lambda s: hegemony[s], tie=lambda s: nearness[s])


def kept_ideology_card(drawn: list[tuple[str, int]]) -> str:
    """Of the two drawn (card id, number), keep the higher number; on a tie either (the first
    drawn): QD-088, QD-089."""
    best = max(n for _, n in drawn)
    return next(card for card, n in drawn if n == best)
