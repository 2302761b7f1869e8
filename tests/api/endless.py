"""A test game that never ends: one prompt per seat, answered forever. It gives a
subscription as many versions as a test wants (memory and load tests)."""
from __future__ import annotations

import sys
from typing import ClassVar

from core import GameSpec, TableState, hookimpl
from core.flow import StepTable
from core.state import Action

steps = StepTable("endless")


class EndlessState(TableState, kw_only=True):
    visible: ClassVar[tuple[str, ...]] = ("ticks", "secret")  # secret: each seat's own, by conclave_view
    ticks: int = 0
    secret: list[str] = []


@hookimpl
def conclave_register_games():
    return [GameSpec(id="endless", name="Endless", min_players=1, max_players=4,
                     plugin=sys.modules[__name__], description="test game", state_type=EndlessState)]


@hookimpl
def conclave_initial_state(game, seats, seed, options, modules):
    if game == "endless":
        return EndlessState(game=game, seats=seats, seed=seed, options=options, modules=modules,
                            secret=[f"s{i}-secret" for i in range(len(seats))])


@hookimpl(tryfirst=True)
def conclave_setup(ctx):
    if ctx.state.game == "endless":
        ctx.push(open_)


@hookimpl
def conclave_step_handlers():
    return steps


@hookimpl
def conclave_view(state, viewer, view):
    if state.game == "endless":
        view["secret"] = [s if i == viewer else None for i, s in enumerate(view["secret"])]


@steps("open")
def open_(ctx):
    for seat in range(len(ctx.state.seats)):
        if not any(p.seat == seat for p in ctx.state.prompts):
            ctx.prompt(seat, "tick", [Action("tick", {"n": 1}), Action("tick", {"n": 2})], tick)


@steps("tick")
def tick(ctx, seat, params):
    ctx.state.ticks += params["n"]
    ctx.emit("ticked", seat=seat, ticks=ctx.state.ticks)
    ctx.emit("secret_tick", to=[seat], secret=ctx.state.secret[seat])
    ctx.push(open_)
