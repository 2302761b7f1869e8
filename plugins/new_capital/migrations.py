"""Saved New Capital states of earlier releases, brought to the current format as plain data
(`GameSpec.migrations[n]` turns format n into n + 1). The modules' pending steps live in the
same table state, so the game's migration covers theirs too."""
from __future__ import annotations

from core.turn_order import clockwise

# Steps that walked the turn order once by position `i` (format 0) and now carry the seat
# that last acted (`after`).
ONCE_ROUND = ("nc.burn_step", "nc.bid", "nc.bribes", "dil.first_pass")
# Steps that went round and round by position `i` until every seat passed.
ROUND_AND_ROUND = ("nc.extra", "dil.reinforce")


def _lap(next_step: list, players: int) -> int:
    """The lap of the turn a format-0 `next_step` follows: ("nc.turn", {"k": k}) comes after
    regular turn k - 1; ("nc.extra", ...) after an Extra Action turn (lap 0)."""
    name, args = next_step
    return (args["k"] - 1) // players + 1 if name == "nc.turn" else 0


def _turn_args(args: dict, players: int) -> dict:
    """A turn prompt's or a re-offered turn's arguments: the lap instead of the next step."""
    out = {k: v for k, v in args.items() if k != "next_step"}
    out["lap"] = _lap(args["next_step"], players)
    return out


def format_0_to_1(raw: dict) -> dict:
    """Format 1: the round's loops carry the seat that last acted, not a position in the turn
    order (core.turn_order); a turn prompt names its lap, not the step that follows it."""
    players = len(raw["players"])
    order = clockwise(raw["first"], players)
    for step in raw["stack"]:
        name, args = step[0], step[1]
        if name == "nc.turn":
            k = args["k"]
            step[1] = {} if k == 0 else {"after": order[(k - 1) % players], "lap": (k - 1) // players + 1}
        elif name in ONCE_ROUND:
            i = args["i"]
            step[1] = {} if i == 0 else {"after": order[min(i, players) - 1]}
        elif name in ROUND_AND_ROUND:
            i = args["i"]
            step[1] = {} if i == 0 else {"after": order[(i - 1) % players]}
        elif name == "nc.reoffer":
            step[1] = _turn_args(args, players)
    for prompt in raw["prompts"]:
        if prompt["resume"] == "nc.on_turn":
            prompt["args"] = _turn_args(prompt["args"], players)
        elif prompt["resume"] == "nc.use_extra":
            prompt["args"] = {k: v for k, v in prompt["args"].items() if k != "i"}
    return raw


MIGRATIONS = {0: format_0_to_1}
