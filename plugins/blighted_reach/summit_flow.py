"""A Summit as steps (rulebook "Summits", BR-185..BR-210, ruling A-R6) over the pure rules
in `summits`: the seat the round's end names may call it; the caller takes Call to Order
actions until moving on; then every seat negotiates at once (a blocking `br.negotiate`
decision each), proposing deals that the seats they affect accept or decline through the
kernel's consent groups (`core.groups.propose`), or saying "done". A deal waits for its
answers (its consent prompts are made blocking: A-R6, Negotiations are not over while a
deal is open); it is applied, all at once, when the last seat accepts. Negotiations end
when every seat has said "done" since the last completed deal, or when the caller ends
them with no deal open."""
from __future__ import annotations

from typing import Literal

import msgspec

from core.errors import BadParameter, EngineError, IllegalAction
from core.groups import propose
from core.state import Action
from plugins.arcs.content import box_for
from plugins.blighted_reach import summits
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.tables import decisions, steps

PROPOSALS_LISTED = 3  # single-part deals listed per Rival for bots and menus (any deal may be sent)


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
        ctx.push_all([(negotiations, {}), (negotiations_close, {})])
        return
    if kind == "petition_council":
        summits.petition_council(state, seat)
    elif kind == "leave_the_empire":
        lost = summits.leave_the_empire(state, seat)
        ctx.emit("left_the_empire", seat=seat, first_regent=state.first_regent, power_lost=lost)
    elif kind == "revive_the_empire":
        summits.revive_the_empire(state, seat)
    elif kind == "return_favors":
        parts = [msgspec.convert(p, summits.Part) for p in params["parts"]]
        for done in summits.return_favors(box, cbox, state, seat, params["rival"], parts):
            ctx.emit("favor_forced", seat=seat, **{k: v for k, v in done.items() if k != "seat"})
    ctx.emit("call_to_order", seat=seat, kind=kind)
    ctx.push(call_to_order)


# -- Negotiations (BR-197..BR-210) -------------------------------------------------------------
class Negotiate(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A seat's move in Negotiations: propose a deal (`parts`), say `done`, or (the caller,
    no deal open) `end` them."""

    move: Literal["propose", "done", "end"]
    parts: list[dict] = []


@steps("negotiations")
def negotiations(ctx):
    """Every seat not yet done has its standing `br.negotiate` decision open (run as a step
    when Negotiations open, called directly when a move or a deal reopens them)."""
    state = ctx.state
    if state.summit_caller < 0:
        return
    waiting = {p.seat for p in state.prompts if p.kind == "br.negotiate"}
    for seat in range(len(state.players)):
        if seat not in state.summit_done and seat not in waiting:
            ctx.decide(seat, "br.negotiate", resume=negotiated)


@decisions.kind("negotiate", answer="negotiate", params=Negotiate,
                describe="Negotiations: propose a deal of one or more parts, say done, or end them (the caller).")
def check_negotiate(state, seat, prompt, answer: Negotiate):
    if answer.move == "propose":
        summits.check_proposal(box_for(state), campaign_box(), state, _proposal(seat, answer))
    elif answer.move == "done":
        summits.check_say_done(state, seat)
    else:
        summits.check_end_negotiations(state, seat)
    if answer.move != "propose" and answer.parts:
        raise BadParameter("only a proposal has parts")


def _proposal(seat: int, answer: Negotiate) -> summits.Proposal:
    if not answer.parts:
        raise BadParameter("a deal has at least one part")
    return summits.proposal_from({"proposer": seat, "parts": list(answer.parts)})


@check_negotiate.candidates
def _negotiate_options(state, seat, prompt):
    yield {"move": "done"}
    if seat == state.summit_caller and not summits.open_proposals(state):
        yield {"move": "end"}
    box, cbox = box_for(state), campaign_box()
    for rival in range(len(state.players)):
        if rival == seat:
            continue
        for part in summits.options_parts(box, cbox, state, seat, rival)[:PROPOSALS_LISTED]:
            yield {"move": "propose", "parts": [part]}


@steps("negotiated")
def negotiated(ctx, seat, params: Negotiate):
    state = ctx.state
    if params.move == "done":
        summits.say_done(state, seat)
        ctx.emit("negotiation_done", seat=seat)
        return
    elif params.move == "end":
        summits.end_negotiations(state, seat)
        _close_negotiations(ctx)
        ctx.emit("summit_over", by=seat)
        return
    else:
        proposal = _proposal(seat, params)
        seats = summits.consents_needed(campaign_box(), state, proposal)
        if not seats:
            raise IllegalAction("a deal affects at least one Rival")
        group = propose(ctx, seat, seats, summits.proposal_data(proposal), resume=deal_accepted)
        for p in state.prompts:
            if p.group == group and p.kind == "consent":
                p.blocking = True  # the deal waits for its answers (A-R6)
    negotiations(ctx)  # at once: with prompts open, a pushed step would wait behind them


@steps("negotiations_close")
def negotiations_close(ctx):
    """Runs once no Negotiation prompt or deal is open (they all block): every seat has said
    "done" since the last completed deal (or the caller ended them): the Summit ends."""
    state = ctx.state
    if state.summit_caller < 0:
        return
    if not summits.negotiations_over(state):
        raise EngineError("Negotiations left with nobody asked")
    summits.end_summit(state)
    ctx.emit("summit_over")


def _close_negotiations(ctx) -> None:
    ctx.state.prompts = [p for p in ctx.state.prompts if p.kind != "br.negotiate"]


@steps("deal_accepted")
def deal_accepted(ctx, proposer: int, proposal: dict):
    """The last consent arrived: every part at once, checked again (the table may have changed)."""
    state = ctx.state
    try:
        done = summits.apply_proposal(box_for(state), campaign_box(), state, summits.proposal_from(proposal))
    except (BadParameter, IllegalAction) as exc:
        ctx.emit("deal_lapsed", proposer=proposer, reason=str(exc))
        return
    ctx.emit("deal_done", proposer=proposer, parts=done)
    negotiations(ctx)  # a completed deal clears every "done": everyone is asked again
