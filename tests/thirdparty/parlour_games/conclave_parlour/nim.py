"""Nim for two: three heaps of 3, 5 and 7 stones; on your turn take one or more stones from
one heap; whoever takes the last stone wins. Ships its own table view (`nim_view/`)."""
from __future__ import annotations

import sys

import msgspec
from pathlib import Path

from core.flow import StepTable
from core.hookspecs import hookimpl
from core.plugins import GameSpec
from core.state import Action, TableState

GAME_ID = "nim"
steps = StepTable("nim")


class NimState(TableState, kw_only=True):
    visible = ("heaps", "turn", "taken")
    heaps: list[int] = msgspec.field(default_factory=lambda: [3, 5, 7])
    turn: int = 0
    taken: list[int] = msgspec.field(default_factory=lambda: [0, 0])  # stones each seat took


@hookimpl
def conclave_register_games():
    return [GameSpec(id=GAME_ID, name="Nim", min_players=2, max_players=2, plugin=sys.modules[__name__],
                     description="Take stones from one heap a turn; the last stone wins.", state_type=NimState,
                     client_view=Path(__file__).resolve().parent / "nim_view")]


@hookimpl
def conclave_initial_state(game, seats, seed, options, modules, content):
    return NimState(game=game, seats=seats, seed=seed, options=options, modules=modules) if game == GAME_ID else None


@hookimpl
def conclave_setup(ctx):
    ctx.push(turn)


@hookimpl
def conclave_step_handlers():
    return steps


@steps("turn")
def turn(ctx):
    s = ctx.state
    options = [Action("take", {"heap": h, "count": n}) for h, size in enumerate(s.heaps) for n in range(1, size + 1)]
    ctx.prompt(s.turn, "take", options, resume=took, text="Take stones from one heap")


@steps("took")
def took(ctx, seat, params):
    s = ctx.state
    s.heaps[params["heap"]] -= params["count"]
    s.taken[seat] += params["count"]
    ctx.emit("took", seat=seat, heap=params["heap"], count=params["count"], left=s.heaps[params["heap"]])
    if not any(s.heaps):
        ctx.finish({"winners": [seat]})
        return
    s.turn = 1 - seat
    ctx.push(turn)
