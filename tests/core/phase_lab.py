"""A test-only game whose phases are declared as data (core/phases.py).

Each round: `deal` (counted before it is entered: every seat gains a coin), then `play`
(each seat in turn takes 0-2 coins more); after it `tally` decides: another round, or after
`ROUNDS` rounds the `final` phase, then the game ends (`award`). The game records every
phase hook it receives, so tests can check where the kernel enters and leaves.
"""
from __future__ import annotations

import sys

from core import GameSpec, TableState, hookimpl
from core.flow import StepTable
from core.phases import Phase, Phases, start_phase
from core.state import Action

steps = StepTable("plab")
ROUNDS = 2


class PhaseLabState(TableState, kw_only=True):
    visible = ("coins", "hooks")
    coins: list[int] = []
    hooks: list[list] = []  # [hook, phase, round] as the phase hooks arrived


@steps("count_round")
def count_round(ctx) -> None:
    ctx.state.round += 1


@steps("deal")
def deal(ctx) -> None:
    state = ctx.state
    state.coins = [c + 1 for c in state.coins]
    ctx.emit("dealt", coins=list(state.coins))


@steps("play")
def play(ctx, after: int = -1) -> None:
    seat = after + 1
    if seat == len(ctx.state.seats):
        return
    ctx.push(play, after=seat)
    ctx.prompt(seat, "take", [Action("take", {"n": n}) for n in range(3)], took)


@steps("took")
def took(ctx, seat: int, params: dict) -> None:
    ctx.state.coins[seat] += params["n"]


@steps("tally")
def tally(ctx) -> None:
    ctx.push(start_phase, name="final" if ctx.state.round >= ROUNDS else "deal")


@steps("score")
def score(ctx) -> None:
    ctx.emit("scored", coins=list(ctx.state.coins))


@steps("award")
def award(ctx) -> None:
    best = max(ctx.state.coins)
    ctx.finish({"winners": [s for s, c in enumerate(ctx.state.coins) if c == best]})


ROUND = Phases((Phase("deal", ((deal, {}),), before=((count_round, {}),)), Phase("play", ((play, {}),))),
               then=tally)
FINAL = Phases((Phase("final", ((score, {}),)),), then=award)


@hookimpl
def conclave_register_games():
    return [GameSpec(id="phase-lab", name="Phase lab", min_players=1, max_players=4, plugin=sys.modules[__name__],
                     description="kernel test game", state_type=PhaseLabState, phases=(ROUND, FINAL))]


@hookimpl
def conclave_initial_state(game, seats, seed, options, modules):
    return PhaseLabState(game=game, seats=seats, seed=seed, options=options, modules=modules,
                         coins=[0] * len(seats))


@hookimpl
def conclave_setup(ctx):
    ctx.push(start_phase, name="deal")


@hookimpl
def conclave_step_handlers():
    return steps


@hookimpl
def conclave_phase_enter(ctx, phase):
    if ctx.state.game == "phase-lab":
        ctx.state.hooks.append(["enter", phase, ctx.state.round])


@hookimpl
def conclave_phase_exit(ctx, phase):
    if ctx.state.game == "phase-lab":
        ctx.state.hooks.append(["exit", phase, ctx.state.round])
