"""A tiny test game that stresses the kernel the way Arcs and The Queen's Dilemma will:
simultaneous secret choices (every seat bids at once, hidden from the others) and a
standing, non-blocking offer open to many seats (a gift of a coin) while the bids are open.

Each seat starts with 5 coins; for 3 rounds everyone bids secretly; the highest bid wins a
point (ties: the lowest seat, ruling G-1); bids are paid. Most points wins.
"""
from __future__ import annotations

import sys
from typing import ClassVar

from core import GameSpec, ModuleSpec, TableState, hookimpl
from core.flow import StepTable
from core.state import Action

steps = StepTable("sb")


class SealedBidState(TableState, kw_only=True):
    visible: ClassVar[tuple[str, ...]] = ("coins", "points", "bids", "rounds")  # bids: sealed by conclave_view
    coins: list[int] = []
    points: list[int] = []
    bids: dict[str, int] = {}
    rounds: int = 3


@hookimpl
def conclave_register_games():
    return [GameSpec(id="sealed-bids", name="Sealed Bids", min_players=2, max_players=5,
                     plugin=sys.modules[__name__], description="kernel test game",
                     state_type=SealedBidState)]


@hookimpl
def conclave_register_modules():
    return [
        ModuleSpec(id="long-game", game="sealed-bids", name="Long game", plugin=LongGame,
                   description="5 rounds instead of 3", incompatible_with=("short-game",)),
        ModuleSpec(id="short-game", game="sealed-bids", name="Short game", plugin=ShortGame,
                   description="1 round", max_players=3),
    ]


@hookimpl
def conclave_initial_state(game, seats, seed, options, modules):
    if game == "sealed-bids":
        return SealedBidState(game=game, seats=seats, seed=seed, options=options, modules=modules,
                              coins=[5] * len(seats), points=[0] * len(seats))


@hookimpl(tryfirst=True)
def conclave_setup(ctx):
    if ctx.state.game == "sealed-bids":
        ctx.push(round_)


@hookimpl
def conclave_step_handlers():
    return steps


@hookimpl
def conclave_view(state, viewer, view):
    if state.game == "sealed-bids":
        view["bids"] = {k: (v if int(k) == viewer else "sealed") for k, v in view["bids"].items()}


@steps("round")
def round_(ctx):
    state = ctx.state
    if state.round == state.rounds:
        best = max(state.points)
        ctx.finish({"winners": [i for i, p in enumerate(state.points) if p == best]})
        return
    state.round += 1
    ctx.enter_phase("bidding")
    state.bids = {}
    ctx.push(settle)
    for seat in range(len(state.seats)):
        ctx.prompt(seat, "bid", [Action("bid", {"n": n}) for n in range(state.coins[seat] + 1)], bid)
        if state.coins[seat]:
            others = [Action("gift", {"to": o}) for o in range(len(state.seats)) if o != seat]
            ctx.prompt(seat, "gift", others, gift, blocking=False)


@steps("bid")
def bid(ctx, seat, params):
    ctx.state.bids[str(seat)] = params["n"]
    ctx.emit("bid_placed", seat=seat)  # public: that a bid was made, not its size
    ctx.emit("my_bid", to=[seat], seat=seat, n=params["n"])


@steps("gift")
def gift(ctx, seat, params):
    state = ctx.state
    state.coins[seat] -= 1
    state.coins[params["to"]] += 1
    ctx.emit("gift", seat=seat, recipient=params["to"])


@steps("settle")
def settle(ctx):
    state = ctx.state
    ctx.close_prompts("gift")  # the standing offer ends with the bidding window
    bids = {int(k): v for k, v in state.bids.items()}
    best = max(bids.values())
    winner = min(s for s, v in bids.items() if v == best)  # G-1
    state.points[winner] += 1
    for s, v in bids.items():
        state.coins[s] -= min(v, state.coins[s])
    ctx.emit("settled", bids=bids, winner=winner)
    ctx.push(round_)


class LongGame:
    @staticmethod
    @hookimpl
    def conclave_setup(ctx):
        ctx.state.rounds = 5


class ShortGame:
    @staticmethod
    @hookimpl
    def conclave_setup(ctx):
        ctx.state.rounds = 1


# -- a three-game campaign: totals of points carry over; the leader starts with a coin less
CAMPAIGN_GAMES = 3


@hookimpl
def conclave_campaign_new(game, seats, options):
    if game == "sealed-bids":
        return {"totals": [0] * len(seats), "games": 0}


@hookimpl
def conclave_campaign_begin(ctx, campaign):
    state = ctx.state
    if state.game == "sealed-bids" and any(campaign["totals"]):
        best = max(campaign["totals"])
        for seat, total in enumerate(campaign["totals"]):
            if total == best:
                state.coins[seat] -= 1  # the campaign leader's handicap: state carried in


@hookimpl
def conclave_campaign_save(state, campaign):
    if state.game == "sealed-bids":
        for seat, points in enumerate(state.points):
            campaign["totals"][seat] += points
        campaign["games"] += 1


@hookimpl
def conclave_campaign_standings(game, campaign):
    if game == "sealed-bids":
        return [{"seat": s, "points": p} for s, p in enumerate(campaign["totals"])]


@hookimpl
def conclave_campaign_over(game, campaign):
    if game == "sealed-bids":
        return campaign["games"] >= CAMPAIGN_GAMES
