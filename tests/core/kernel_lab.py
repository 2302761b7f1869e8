"""A test-only game for the kernel's newer parts: a `collect` group (every seat pledges in
secret, revealed together), `consent` proposals (a deal of several coin transfers that
takes effect only when every seat it touches accepts), and a typed decision too large to
list in full (spread hits over targets, the shape of an Arcs battle).

Four seats start with 5 coins; they pledge 0-3 in secret; the pledges are paid. Then seat 0
either proposes a deal or spreads `hits` (3) over the other seats' shields (capacities
1-2 each), or ends the game. Most coins wins.
"""
from __future__ import annotations

import sys

import msgspec

from core import GameSpec, TableState, hookimpl
from core.decisions import DecisionTable
from core.errors import BadParameter, CannotAfford, IllegalAction
from core.flow import StepTable
from core.groups import collect, propose
from core.state import Action

steps = StepTable("lab")
decisions = DecisionTable("lab")


class LabState(TableState, kw_only=True):
    visible = ("coins", "shields", "pledges")
    coins: list[int] = []
    shields: list[int] = []  # hits each seat's shield can still take
    pledges: dict[str, int] = {}
    hits: int = 3


class Part(msgspec.Struct, forbid_unknown_fields=True):
    giver: int
    taker: int
    coins: int


class Deal(msgspec.Struct, forbid_unknown_fields=True):
    parts: list[Part]


class Spread(msgspec.Struct, forbid_unknown_fields=True):
    hits: dict[str, int]  # seat -> hits on its shield


class End(msgspec.Struct, tag_field="kind", tag="end", forbid_unknown_fields=True):
    pass


class DealMove(msgspec.Struct, tag_field="kind", tag="deal", forbid_unknown_fields=True):
    deal: Deal


class SpreadMove(msgspec.Struct, tag_field="kind", tag="spread", forbid_unknown_fields=True):
    spread: Spread


Move = End | DealMove | SpreadMove  # one answer type, told apart by `kind`


@hookimpl
def conclave_register_games():
    return [GameSpec(id="kernel-lab", name="Kernel lab", min_players=2, max_players=5,
                     plugin=sys.modules[__name__], description="kernel test game", state_type=LabState)]


@hookimpl
def conclave_initial_state(game, seats, seed, options, modules):
    return LabState(game=game, seats=seats, seed=seed, options=options, modules=modules,
                    coins=[5] * len(seats), shields=[1 + i % 2 for i in range(len(seats))])


@hookimpl
def conclave_setup(ctx):
    ctx.push(pledge)


@hookimpl
def conclave_step_handlers():
    return steps


@hookimpl
def conclave_decisions():
    return decisions


@steps("pledge")
def pledge(ctx):
    seats = list(range(len(ctx.state.seats)))
    options = {s: [Action("pledge", {"n": n}) for n in range(4)] for s in seats}
    collect(ctx, seats, "pledge", options, pledged)


@steps("pledged")
def pledged(ctx, answers):
    state = ctx.state
    for seat, answer in answers.items():
        state.pledges[str(seat)] = answer["n"]
        state.coins[seat] -= answer["n"]
    ctx.push(turn)


@steps("turn")
def turn(ctx):
    ctx.decide(0, "lab.move", moved)


@decisions.kind("move", answer="move", params=Move)
def check_move(state, seat, prompt, answer):
    """End the game, propose a deal of coin transfers, or spread hits over shields."""
    if isinstance(answer, DealMove):
        check_deal(state, seat, answer.deal)
    elif isinstance(answer, SpreadMove):
        check_spread(state, answer.spread)


@check_move.candidates
def move_candidates(state, seat, prompt):
    yield {"kind": "end"}
    n = len(state.seats)
    for other in range(1, n):
        if state.coins[other] >= 1:
            yield {"kind": "deal", "deal": {"parts": [{"giver": other, "taker": 0, "coins": 1}]}}
    yield from ({"kind": "spread", "spread": {"hits": h}} for h in spreads(state))


def check_deal(state, proposer: int, deal: Deal) -> None:
    n = len(state.seats)
    if not deal.parts:
        raise BadParameter("a deal has at least one part")
    owed = [0] * n
    for part in deal.parts:
        if not (0 <= part.giver < n and 0 <= part.taker < n) or part.giver == part.taker:
            raise BadParameter("each part moves coins between two different seats")
        if part.coins < 1:
            raise BadParameter("each part moves at least one coin")
        if proposer not in (part.giver, part.taker):
            raise IllegalAction("a deal may only move the proposer's coins or coins to the proposer")
        owed[part.giver] += part.coins
    for s in range(n):
        if owed[s] > state.coins[s]:
            raise CannotAfford(f"seat {s} has {state.coins[s]} coins, not {owed[s]}")


def check_spread(state, spread: Spread) -> None:
    n = len(state.seats)
    total = 0
    for key, hits in spread.hits.items():
        if not key.isdigit() or not 1 <= int(key) < n:
            raise BadParameter(f"{key!r} is not another seat")
        if not 1 <= hits <= state.shields[int(key)]:
            raise BadParameter(f"seat {key}'s shield takes 1-{state.shields[int(key)]} hits, not {hits}")
        total += hits
    room = sum(state.shields[1:])
    if total != min(state.hits, room):
        raise BadParameter(f"{min(state.hits, room)} hits must be spread, not {total}")


def spreads(state):
    """Every valid spread (small here, but generated, never stored)."""
    n, need = len(state.seats), min(state.hits, sum(state.shields[1:]))

    def go(seat, left, acc):
        if seat == n:
            if left == 0:
                yield dict(acc)
            return
        yield from go(seat + 1, left, acc)
        for h in range(1, min(left, state.shields[seat]) + 1):
            acc[str(seat)] = h
            yield from go(seat + 1, left - h, acc)
            del acc[str(seat)]

    yield from go(1, need, {})


@steps("moved")
def moved(ctx, seat, params):
    state = ctx.state
    if isinstance(params, End):
        best = max(state.coins)
        ctx.finish({"winners": [s for s, c in enumerate(state.coins) if c == best]})
        return
    if isinstance(params, SpreadMove):
        for key, hits in params.spread.hits.items():
            state.shields[int(key)] -= hits
        ctx.emit("spread", hits=params.spread.hits)
        ctx.push(turn)
        return
    affected = sorted({s for p in params.deal.parts for s in (p.giver, p.taker)} - {seat})
    propose(ctx, seat, affected, msgspec.to_builtins(params.deal), deal_done)
    ctx.push(turn)


@steps("deal_done")
def deal_done(ctx, proposer, proposal):
    for part in proposal["parts"]:
        if ctx.state.coins[part["giver"]] < part["coins"]:
            ctx.emit("deal_failed", proposer=proposer)  # coins moved since: nothing of it happens
            return
    for part in proposal["parts"]:
        ctx.state.coins[part["giver"]] -= part["coins"]
        ctx.state.coins[part["taker"]] += part["coins"]
