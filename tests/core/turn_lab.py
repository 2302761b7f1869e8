"""A test-only game for a typed decision answered by several action types, one of whose
answers only the game's hooks can name (the shape of a voting turn: vote, raise, stay or a
card's pass).

Seats take turns, seat order, for `TURNS` turns in all. On a turn a seat either bids more
than the standing bid (at most its coins), folds (out of the game), or plays a card from
its hand that it can pay for: which cards are playable is a hook's answer
(`tlab_playable`), not the decision's. Most coins wins.
"""
from __future__ import annotations

import sys

import msgspec
import pluggy

from core import GameSpec, TableState, hookimpl
from core.decisions import DecisionTable
from core.errors import BadParameter
from core.flow import StepTable
from core.state import Action

steps = StepTable("tlab")
decisions = DecisionTable("tlab")
TURNS = 6
COST = {"fox": 1, "owl": 2, "elk": 4}  # what a card costs to play


class Specs:
    @pluggy.HookspecMarker("conclave")
    def tlab_playable(self, state, seat: int) -> list:
        """The cards of `seat`'s hand it may play now."""


class TurnState(TableState, kw_only=True):
    visible = ("coins", "bid", "folded", "hands")
    coins: list[int] = []
    bid: int = 0
    folded: list[int] = []
    hands: list[list[str]] = []
    turns: int = 0


class Bid(msgspec.Struct, forbid_unknown_fields=True):
    n: int


class Fold(msgspec.Struct, forbid_unknown_fields=True):
    pass


class Play(msgspec.Struct, forbid_unknown_fields=True):
    card: str


@hookimpl
def conclave_register_games():
    return [GameSpec(id="turn-lab", name="Turn lab", min_players=2, max_players=4, plugin=sys.modules[__name__],
                     description="kernel test game", state_type=TurnState, hookspecs=Specs)]


@hookimpl
def conclave_initial_state(game, seats, seed, options, modules):
    n = len(seats)
    return TurnState(game=game, seats=seats, seed=seed, options=options, modules=modules,
                     coins=[3 + i for i in range(n)], hands=[["fox", "owl", "elk"] for _ in range(n)])


@hookimpl
def conclave_setup(ctx):
    ctx.push(turn, seat=0)


@hookimpl
def conclave_step_handlers():
    return steps


@hookimpl
def conclave_decisions():
    return decisions


@hookimpl
def tlab_playable(state, seat):
    return [c for c in state.hands[seat] if COST[c] <= state.coins[seat]]


@steps("turn")
def turn(ctx, seat):
    ctx.prompt(seat, "turn", [], played, decision="tlab.turn", text="Bid, fold or play a card")


@decisions.kind("turn", answers={"bid": Bid, "fold": Fold, "play": Play}, hooks=True)
def check_turn(state, seat, prompt, type, answer, hook):
    """A bid above the standing one and within the coins held, a fold, or a playable card."""
    if type == "bid" and not state.bid < answer.n <= state.coins[seat]:
        raise BadParameter(f"bid: more than {state.bid}, at most {state.coins[seat]}, not {answer.n}")
    if type == "play" and answer.card not in _playable(state, seat, hook):
        raise BadParameter(f"play: {answer.card!r} is not a card seat {seat} may play now")


def _playable(state, seat, hook) -> list[str]:
    return [c for found in hook.tlab_playable(state=state, seat=seat) for c in found]


@check_turn.candidates
def turn_answers(state, seat, prompt, hook):
    yield from (Action("bid", {"n": n}) for n in range(state.bid + 1, state.coins[seat] + 1))
    yield Action("fold")
    yield from (Action("play", {"card": c}) for c in _playable(state, seat, hook))


@steps("played")
def played(ctx, seat, params):
    state = ctx.state
    if isinstance(params, Bid):
        state.bid = params.n
    elif isinstance(params, Fold):
        state.folded.append(seat)
    elif isinstance(params, Play):
        state.hands[seat].remove(params.card)
        state.coins[seat] -= COST[params.card]
    else:
        raise TypeError(f"{params!r} is no answer of tlab.turn")
    ctx.emit("turn", seat=seat, answer=type(params).__name__.lower())
    state.turns += 1
    n = len(state.seats)
    following = [s % n for s in range(seat + 1, seat + 1 + n) if s % n not in state.folded]
    if state.turns >= TURNS or not following:
        best = max(state.coins)
        ctx.finish({"winners": [s for s, c in enumerate(state.coins) if c == best]})
        return
    ctx.push(turn, seat=following[0])
