"""A Summit as steps (rulebook "Summits", BR-185..BR-210, ruling A-R6) over the pure rules
in `summits`: the seat the round's end names may call it; the caller takes Call to Order
actions until moving on; then the seats negotiate (a `br.negotiate`
decision on its turn), proposing deals that the seats they affect accept or decline through
the kernel's consent groups (`core.groups.propose`), or saying "done"; a deal is applied,
all at once, when the last seat accepts."""
from __future__ import annotations

from typing import Literal

import msgspec

from core.errors import ActionRejected, BadParameter, IllegalAction
from core.groups import propose
from core.state import Action
from plugins.arcs.content import box_for
from plugins.blighted_reach import summits
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.tables import decisions, steps

PROPOSALS_LISTED = 1  # single-part deals listed per Rival for bots and menus (any deal may be sent)


def offer(ctx, seat: int, via: str) -> None:
    """BR-154, BR-166: the seat may call a Summit, or not."""
    ctx.prompt(seat, "call_summit", [Action("call_summit", {"call": True}), Action("call_summit", {"call": False})],
               resume=summit_called, via=via)


@steps("summit_called")
def summit_called(ctx, seat, params, via: str):
    if not params["call"]:
        return
    state = ctx.state
    council = seat if via == "council" else -1
    summits.call_summit(state, seat, event_played=via == "event", council_securer=council)
    ctx.emit("summit_called", seat=seat, via=via)
    ctx.push(call_to_order)


@steps("call_to_order")
def call_to_order(ctx):
    state = ctx.state
    seat = state.summit_caller
    options = summits.options_call_to_order(box_for(state), campaign_box(), state, seat)
    ctx.prompt(seat, "call_to_order", [Action("call_to_order", o) for o in _listed(options)], resume=ordered)


def _listed(options: list[dict]) -> list[dict]:
    """Return Favors is listed once per part it can force (one part per answer); the rules
    take several parts in one Return Favors too, through `summits.return_favors`."""
    out = []
    for o in options:
        if o["kind"] == "return_favors":
            out += [{"kind": "return_favors", "rival": o["rival"], "parts": [f["part"]]} for f in o["parts"]]
        else:
            out.append(o)
    return out


@steps("ordered")
def ordered(ctx, seat, params):
    state, box, cbox = ctx.state, box_for(ctx.state), campaign_box()
    kind = params["kind"]
    if kind == "start_negotiations":
        summits.start_negotiations(state, seat)
        ctx.emit("negotiations", caller=seat)
        ctx.push(negotiation_turn, seat=seat)
        return
    if kind == "petition_council":
        summits.petition_council(state, seat)
    elif kind == "leave_the_empire":
        lost = summits.leave_the_empire(state, seat)
        ctx.emit("left_the_empire", seat=seat, first_regent=state.first_regent, power_lost=lost)
    elif kind == "revive_the_empire":
        summits.revive_the_empire(state, seat)
    elif kind == "forgive":  # F1411: without consent, for a Psionic
        done = summits.forgive(box, cbox, state, seat, params["rival"], params["resource"],
                               return_favor_now=bool(params.get("return_favor")))
        ctx.emit("forgiven", seat=seat, **done)
    elif kind == "return_favors":
        parts = [msgspec.convert(p, summits.Part) for p in params["parts"]]
        for done in summits.return_favors(box, cbox, state, seat, params["rival"], parts):
            ctx.emit("favor_forced", seat=seat, **{k: v for k, v in done.items() if k != "seat"})
    ctx.emit("call_to_order", seat=seat, kind=kind)
    ctx.push(call_to_order)


# -- Negotiations (BR-197..BR-210) -------------------------------------------------------------
# Reading of A-R6 ("every player has said done in turn"): the seats take turns clockwise from
# the caller; on its turn a seat proposes a deal or says "done". A deal's consents are asked
# at once (blocking) and the turn passes when they are in. Negotiations end when every seat
# has said "done" since the last completed deal; the caller may end them (a standing choice)
# whenever no deal is open.
class Negotiate(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A seat's turn in Negotiations: propose a deal (`parts`), say `done`, or make a move a
    Fate adds (`fate`: the move's `name` and its `choice`, `summits.FATE_NEGOTIATIONS`)."""

    move: Literal["propose", "done", "fate"]
    parts: list[dict] = []
    name: str = ""
    choice: dict = {}


@steps("negotiation_turn")
def negotiation_turn(ctx, seat: int):
    state = ctx.state
    if state.summit_caller < 0:
        return  # the caller ended them
    if summits.negotiations_over(state):
        _end(ctx)
        return
    if not any(p.kind == "end_negotiations" for p in state.prompts):
        ctx.prompt(state.summit_caller, "end_negotiations", [Action("end_negotiations", {})], resume=ended,
                   blocking=False)
    ctx.decide(seat, "br.negotiate", resume=negotiated)


@decisions.kind("negotiate", answer="negotiate", params=Negotiate,
                describe="Negotiations, on your turn: propose a deal of one or more parts, or say done.")
def check_negotiate(state, seat, prompt, answer: Negotiate):
    if answer.move != "fate" and (answer.name or answer.choice):
        raise BadParameter("only a Fate's move has a name and a choice")
    if answer.move == "propose":
        summits.check_proposal(box_for(state), campaign_box(), state, _proposal(seat, answer))
    elif answer.move == "fate":
        if answer.parts:
            raise BadParameter("only a proposal has parts")
        summits.check_fate_negotiation(box_for(state), campaign_box(), state, seat, answer.name, answer.choice)
    else:
        summits.check_say_done(state, seat)
        if answer.parts:
            raise BadParameter("only a proposal has parts")


def _proposal(seat: int, answer: Negotiate) -> summits.Proposal:
    if not answer.parts:
        raise BadParameter("a deal has at least one part")
    return summits.proposal_from({"proposer": seat, "parts": list(answer.parts)})


@check_negotiate.candidates
def _negotiate_options(state, seat, prompt):
    """Saying done, and the first single-part deal with each Rival (menus and bots; any deal
    of any parts may be sent)."""
    yield {"move": "done"}
    box, cbox = box_for(state), campaign_box()
    for name, fate_move in summits.FATE_NEGOTIATIONS.items():
        for choice in fate_move.options(box, cbox, state, seat)[:PROPOSALS_LISTED]:
            yield {"move": "fate", "name": name, "choice": choice}
    for rival in range(len(state.players)):
        if rival != seat:
            for part in summits.options_parts(box, cbox, state, seat, rival)[:PROPOSALS_LISTED]:
                yield {"move": "propose", "parts": [part]}


@steps("negotiated")
def negotiated(ctx, seat, params: Negotiate):
    state = ctx.state
    n = len(state.players)
    ctx.push(negotiation_turn, seat=(seat + 1) % n)  # after the deal's answers, if any
    if params.move == "done":
        summits.say_done(state, seat)
        ctx.emit("negotiation_done", seat=seat)
        return
    if params.move == "fate":
        summits.check_fate_negotiation(box_for(state), campaign_box(), state, seat, params.name, params.choice)
        summits.FATE_NEGOTIATIONS[params.name].apply(ctx, seat, params.choice)
        return
    proposal = _proposal(seat, params)
    seats = summits.consents_needed(campaign_box(), state, proposal)
    if not seats:
        raise IllegalAction("a deal affects at least one Rival")
    state.prompts = [p for p in state.prompts if p.kind != "end_negotiations"]  # not while a deal is open
    group = propose(ctx, seat, seats, summits.proposal_data(proposal), resume=deal_accepted)
    for p in state.prompts:
        if p.group == group and p.kind == "consent":
            p.blocking = True  # the turn waits for the deal's answers


@steps("negotiations_ended")
def ended(ctx, seat, params):
    summits.end_negotiations(ctx.state, seat)  # refused while a deal is open
    ctx.state.prompts = [p for p in ctx.state.prompts if p.kind != "br.negotiate"]
    ctx.emit("summit_over", by=seat)


def _end(ctx) -> None:
    summits.end_summit(ctx.state)
    ctx.state.prompts = [p for p in ctx.state.prompts if p.kind != "end_negotiations"]
    ctx.emit("summit_over")


@steps("deal_accepted")
def deal_accepted(ctx, proposer: int, proposal: dict):
    """The last consent arrived: every part at once, checked again (the table may have changed)."""
    state = ctx.state
    try:
        done = summits.apply_proposal(box_for(state), campaign_box(), state, summits.proposal_from(proposal))
    except ActionRejected as exc:  # no longer possible as agreed: nothing of it happens
        ctx.emit("deal_lapsed", proposer=proposer, reason=str(exc))
        return
    ctx.emit("deal_done", proposer=proposer, parts=done)
    ctx.hook.arcs_summit_deal_done(ctx=ctx, proposal=summits.proposal_from(proposal), parts=done)
