"""The Pirate's Act II Resolution, completed side, step 3 (F1204): before the Hoard's
tokens are kept on the board or returned, the Pirate may spend its Fuel, Material and Relics
for their Prelude actions (Fuel: move; Material: build or repair; Relic: secure), a
Material's ship built past the once-per-starport limit.

Each spend is one action on a turn of its own (`state.turn`, one pip of that action alone),
checked and listed by the base rules (`arcs.turn.candidates`, so the campaign's hooks apply:
Catapults, the Flagship, Closed Economy) and carried out by them (`arcs.rounds.do_act`),
then the turn is closed. A fresh turn for every spend is what lifts the build limit (its
record of starports used starts empty).
# Reading: a Prelude action is still barred by Outrage of its type (ARCS-217), as in any
# Prelude: the card lifts the build limit alone. The spent token returns to the supply, as a
# Prelude's spends do once it closes (ARCS-116).
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter
from core.state import Action
from plugins.arcs.content import box_for
from plugins.arcs.court_ops import prelude_action_allowed
from plugins.arcs.rounds import do_act
from plugins.arcs.state import Turn
from plugins.arcs.turn import Act, candidates
from plugins.blighted_reach import fates
from plugins.blighted_reach.fate_pirate import _hoard_take, hoard, keep_hoard_on_board
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

SPENDABLE = ("fuel", "material", "relic")  # F1204 step 3: Weapons and Psionic are not spent


def spend_turn(seat: int, kind: str) -> Turn:
    """A turn that buys one `kind` action and nothing else (no Prelude: the Hoard pays)."""
    return Turn(seat=seat, kind="lead", pips=1, actions=[kind], lead_actions=[], prelude=False)


def spend_options(state: BlightedReachState, seat: int, hook) -> list[Action]:
    """Every spend the Hoard allows now, then keeping the rest (`hoard_done`)."""
    box = box_for(state)
    out = []
    for resource in sorted(set(hoard(state)) & set(SPENDABLE)):
        if not prelude_action_allowed(state, box, seat, resource):
            continue
        for kind in box.board.prelude_actions.get(resource, []):
            state.turn = spend_turn(seat, kind)
            try:
                out += [Action("hoard_spend", {"resource": resource, "act": act})
                        for act in candidates(box, state, seat, hook) if act["act"] == kind]  # no "done", no ability
            finally:
                state.turn = None
    return [*out, Action("hoard_done", {})]


@fates.handler("hoard_spent_then_kept")
def hoard_spent_then_kept(ctx, seat: int, card_id: str, effect) -> None:
    """Completed, step 3: spends first (asked while any is possible), then the tokens left
    go to the board's empty slots and the rest to the supply."""
    ask_spend(ctx, seat, card_id)


fates.WAITS.add("hoard_spent_then_kept")


def ask_spend(ctx, seat: int, card_id: str) -> None:
    options = spend_options(ctx.state, seat, ctx.hook)
    if len(options) == 1:  # nothing to spend: keep what fits
        keep_hoard_on_board(ctx, seat, card_id)
        return
    ctx.prompt(seat, "hoard_spend", options, resume=hoard_answered, card=card_id,
               text="Spend your Hoard's Fuel, Material or Relics for their actions, or keep the rest")


@steps("pirate_hoard_answered")
def hoard_answered(ctx, seat: int, params, card: str):
    if "act" not in params:
        keep_hoard_on_board(ctx, seat, card)
        return
    resource = params["resource"]
    try:
        act = msgspec.convert(params["act"], Act)
    except msgspec.ValidationError as exc:
        raise BadParameter(f"malformed action: {exc}") from None
    state = ctx.state
    _hoard_take(state, resource)
    state.supply[resource] = state.supply.get(resource, 0) + 1
    ctx.emit("hoard_spent", seat=seat, resource=resource, act=params["act"], why=card)
    state.turn = spend_turn(seat, params["act"]["act"])  # a listed answer: its kind is the token's
    state.turn.pips, state.turn.acted = 0, True
    ctx.push(hoard_next, seat=seat, card=card)
    ctx.push(hoard_turn_closed)
    do_act(ctx, seat, act)


@steps("pirate_hoard_turn_closed")
def hoard_turn_closed(ctx):
    ctx.state.turn = None


@steps("pirate_hoard_next")
def hoard_next(ctx, seat: int, card: str):
    ask_spend(ctx, seat, card)
