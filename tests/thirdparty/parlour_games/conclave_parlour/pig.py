"""Pig for two to four: roll a die as often as you dare; a 1 loses the turn's points, holding
banks them; the first to 30 wins. Ships no client view: the generic one plays it."""
from __future__ import annotations

import sys

from core.flow import StepTable
from core.hookspecs import hookimpl
from core.plugins import GameSpec
from core.state import Action, TableState

GAME_ID = "pig"
GOAL = 30
steps = StepTable("pig")


class PigState(TableState, kw_only=True):
    visible = ("scores", "turn", "pot")
    scores: list[int] = []
    turn: int = 0
    pot: int = 0  # the points at risk this turn


@hookimpl
def conclave_register_games():
    return [GameSpec(id=GAME_ID, name="Pig", min_players=2, max_players=4, plugin=sys.modules[__name__],
                     description=f"Roll or hold; a 1 loses the turn's points; {GOAL} wins.", state_type=PigState)]


@hookimpl
def conclave_initial_state(game, seats, seed, options, modules, content):
    if game != GAME_ID:
        return None
    return PigState(game=game, seats=seats, seed=seed, options=options, modules=modules, scores=[0] * len(seats))


@hookimpl
def conclave_setup(ctx):
    ctx.push(turn)


@hookimpl
def conclave_step_handlers():
    return steps


@steps("turn")
def turn(ctx):
    s = ctx.state
    ctx.prompt(s.turn, "roll_or_hold", [Action("play", {"choice": c}) for c in ("roll", "hold")], resume=chose,
               text=f"Roll again or hold ({s.pot} at stake)")


@steps("chose")
def chose(ctx, seat, params):
    s = ctx.state
    if params["choice"] == "roll":
        die = ctx.rng.randint(1, 6)
        ctx.emit("rolled", seat=seat, die=die)
        if die == 1:
            s.pot = 0
            s.turn = (seat + 1) % len(s.seats)
        else:
            s.pot += die
    else:
        s.scores[seat] += s.pot
        ctx.emit("held", seat=seat, banked=s.pot, score=s.scores[seat])
        s.pot = 0
        if s.scores[seat] >= GOAL:
            ctx.finish({"winners": [seat], "scores": list(s.scores)})
            return
        s.turn = (seat + 1) % len(s.seats)
    ctx.push(turn)
