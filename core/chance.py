"""Chance that logs itself: dice, shuffles and random picks from the table's seeded RNG,
each announced as a public event so any client can show it (and a replay draws the same).

Dice are content data: a die is a name and its faces (any JSON-like value per face).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from core.flow import Ctx


def roll(ctx: Ctx, seat: int | None, dice: Mapping[str, Sequence[Any]], which: Sequence[str],
         why: str = "") -> list[tuple[str, int]]:
    """Roll one die of each name in `which`: (die, face index) per die, in order; the event
    `roll` says publicly who rolled what and which faces came up."""
    rolled = [(name, ctx.rng.below(len(dice[name]))) for name in which]
    ctx.emit("roll", seat=seat, why=why,
             dice=[{"die": name, "face": face, "shows": dice[name][face]} for name, face in rolled])
    return rolled


def shuffle(ctx: Ctx, items: list, what: str) -> None:
    """Shuffle in place; the event says what was shuffled and how many cards, never the order."""
    ctx.rng.shuffle(items)
    ctx.emit("shuffle", what=what, count=len(items))


def pick(ctx: Ctx, items: Sequence[Any], what: str, to: list[int] | None = None) -> Any:
    """One item at random, announced (a random first player, a random setup card). With
    `to`, what was picked is shown only to those seats (none: a card drawn face down);
    everyone else learns that a pick was made and from how many."""
    index = ctx.rng.below(len(items))
    if to is None:
        ctx.emit("random_pick", what=what, index=index, picked=items[index])
    else:
        ctx.emit("random_pick", to=list(to), public={"what": what, "count": len(items)},
                 what=what, count=len(items), picked=items[index])
    return items[index]
