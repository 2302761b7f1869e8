"""A test game that holds The Queen's Dilemma votes, one per round, over the real voting
rules (plugins/queens_dilemma/voting.py). Options set the table: seat order is seat order
(clockwise), `leader`, `moderator`, each seat's `power` and `resources`, the `pool`, and
how many `votes` to hold. It is a harness, not the game."""
from __future__ import annotations

import sys
from typing import ClassVar

from core import GameSpec, OptionSpec, hookimpl
from core.flow import StepTable
from plugins.queens_dilemma import economy, voting
from plugins.queens_dilemma.voting import Council, Councilor

steps = StepTable("council")


class CouncilState(Council, kw_only=True):
    visible: ClassVar[tuple[str, ...]] = Council.visible + ("rounds",)
    rounds: int = 1


@hookimpl
def conclave_register_games():
    options = {name: OptionSpec(default=None) for name in ("leader", "moderator", "power", "resources", "pool", "votes", "forced")}
    return [GameSpec(id="qd-council", name="Council votes (test)", min_players=3, max_players=6,
                     plugin=sys.modules[__name__], state_type=CouncilState, options=options)]


@hookimpl
def conclave_initial_state(game, seats, seed, options, modules):
    if game != "qd-council":
        return None
    n = len(seats)
    opt = {k: v for k, v in options.items() if v is not None}
    state = CouncilState(game=game, seats=seats, seed=seed, options=options, modules=modules,
                         leader=opt.get("leader", 0), moderator=opt.get("moderator", n - 1),
                         power_pool=opt.get("pool", 3), rounds=opt.get("votes", 1))
    for s in range(n):
        c = Councilor(seat=s, power=opt.get("power", [7] * n)[s])
        c.resources.update(opt.get("resources", [{}] * n)[s])
        state.councilors.append(c)
    return state


@hookimpl(tryfirst=True)
def conclave_setup(ctx):
    if ctx.state.game == "qd-council":
        ctx.push(round_)
        for seat, resource, amount in reversed(ctx.state.options.get("forced") or []):
            ctx.push(economy.forced, seat=seat, resource=resource, amount=amount, reason="test effect")


@hookimpl
def conclave_step_handlers():
    return {**steps, **voting.steps, **economy.steps}


@hookimpl
def conclave_decisions():
    return {**voting.decisions, **economy.decisions}


@steps("round")
def round_(ctx):
    state = ctx.state
    if len(state.votes) >= state.rounds:
        ctx.finish({"votes": state.votes})
        return
    state.round += 1
    ctx.push(round_)
    ctx.push(voting.begin)
