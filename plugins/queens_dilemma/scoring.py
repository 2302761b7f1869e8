"""The Queen's Dilemma end-of-game scoring rules that are pure arithmetic: Ideology scoring,
Power scoring and Infamy tiers. Inputs are plain data; nothing here reads content files."""
from __future__ import annotations

import msgspec

AXES = (("tradition", "progress"), ("force", "diplomacy"), ("order", "liberty"))  # QD-015
HALF = 4          # ruling QD-R1 (data): 9 spaces, the centre and 4 on each side
SILVER = 1        # the centre and its two neighbours are silver (QD-083, QD-R1)
INFAMY_TIER = 5   # a penalty tier for every 5 Infamy (QD-271)


class IdeologyBoard(msgspec.Struct, gc=False, kw_only=True):
    """Slider position per axis (negative: toward the first Ideology of the pair) and the
    Hegemony tokens beside each Ideology."""

    sliders: dict[str, int] = msgspec.field(default_factory=lambda: {a: 0 for a, _ in AXES})
    tokens: dict[str, int] = msgspec.field(default_factory=lambda: {i: 0 for pair in AXES for i in pair})


class Favored(msgspec.Struct, gc=False, forbid_unknown_fields=True):
    ideology: str
    bonus: int  # 3 or 1 Hegemony when it is winning


class Balanced(msgspec.Struct, gc=False, forbid_unknown_fields=True):
    pair: list[str]
    bonus: int = 2  # Hegemony when the Slider is on a silver space


class IdeologyCard(msgspec.Struct, gc=False, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    character: str
    number: int
    favored: list[Favored] = []
    balanced: list[Balanced] = []


def axis_of(ideology: str) -> tuple[str, int]:
    """(axis key, direction): the axis is keyed by its first Ideology; direction -1 or +1."""
    for first, second in AXES:
        if ideology == first:
            return first, -1
        if ideology == second:
            return first, 1
    raise KeyError(ideology)


def winning(board: IdeologyBoard, ideology: str) -> bool:
    """The Slider is on this Ideology's half; the exact centre wins for nobody (QD-228)."""
    axis, direction = axis_of(ideology)
    return board.sliders[axis] * direction > 0


def push(board: IdeologyBoard, ideology: str, spaces: int) -> int:
    """Move the Slider toward `ideology`, stopping at the end (movement past it is wasted),
    and add the Hegemony token for the winning Ideology. Returns the spaces really moved."""
    axis, direction = axis_of(ideology)
    before = board.sliders[axis]
    board.sliders[axis] = max(-HALF, min(HALF, before + direction * spaces))
    board.tokens[ideology] += 1
    return abs(board.sliders[axis] - before)


def ideology_score(card: IdeologyCard, board: IdeologyBoard) -> dict[str, int]:
    """Hegemony and Independence from an Ideology card (QD-229..234)."""
    hegemony = independence = 0
    for f in card.favored:
        tokens = board.tokens[f.ideology]
        if tokens:
            hegemony += tokens
        else:
            independence += 1  # QD-231 reading: in place of the token points; the win bonus still applies
        if winning(board, f.ideology):
            hegemony += f.bonus
    for b in card.balanced:
        smaller = min(board.tokens[i] for i in b.pair)
        if smaller:
            hegemony += smaller
        else:
            independence += 1
        if abs(board.sliders[axis_of(b.pair[0])[0]]) <= SILVER:
            hegemony += b.bonus
    return {"hegemony": hegemony, "independence": independence}


def power_scoring(power_left: list[int]) -> list[int]:
    """Independence for leftover Power (QD-238..240, ruling QD-R6): every player is ranked by
    the Power left, 0 included, with dense ranks (after a tie for the most, the next amount is
    still second-most): the most gets 2, the second-most 1, and tied players share their
    rank's bonus; so when everyone holds the same Power, 0 too, everyone gets 2."""
    amounts = sorted(set(power_left), reverse=True)  # QD-R6: 0 Power ranks like any amount
    bonus = {amount: award for amount, award in zip(amounts, (2, 1))}
    return [bonus.get(p, 0) for p in power_left]


def infamy_tier(infamy: int) -> int:
    """The last fully unlocked penalty tier: only it counts at the end (QD-271/272)."""
    return infamy // INFAMY_TIER
