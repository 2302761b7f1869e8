"""Act I setup as steps (rulebook "Act I Setup", BR-032..BR-065): the table is laid out
with no choice to make, then the Fates are chosen in secret, each Fate's setup is done,
the starting pieces are placed in two rounds, and the hands are dealt; the first chapter
then runs on the Arcs rules (`plugins.arcs.rounds.chapter_start`). A campaign's later Acts
replace this step with `campaign_flow.later_act`."""
from __future__ import annotations

import msgspec

from core.errors import ActionRejected
from core.groups import collect
from core.rng import Rng
from core.state import Action
from plugins.arcs import rounds
from plugins.arcs.content import default_box as arcs_box
from plugins.blighted_reach import fates, objectives
from plugins.blighted_reach import setup as act_one
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.tables import decisions, steps
from plugins.flagships import flow as flagship_flow


@steps("act_one")
def begin_act_one(ctx) -> None:
    """Table steps A-Q and the players' offers (`setup.set_up_act_one`, its die rolls
    announced), then the steps that wait for the players."""
    state = ctx.state
    act_one.set_up_act_one(arcs_box(), campaign_box(), state, Rng(state), act_one.chance_roll(ctx, "act_one_setup"))
    state.play_area = [[] for _ in state.players]
    ctx.emit("act_setup", act=state.act, initiative=state.initiative, imperial_clusters=list(state.imperial_clusters),
             rolls=dict(state.rolls), court=list(state.court_row))
    flagships = [(flagship_flow.flagships_setup, {})] if flagship_flow.module_on(state) else []  # issue 19
    ctx.push_all([(choose_fates, {}), (start_placements, {}), *flagships, (deal, {}), (rounds.chapter_start, {})])


@steps("choose_fates")
def choose_fates(ctx):
    """BR-053: every seat keeps one of its two Fates at once, in secret (a collect group:
    nobody sees a choice before all are in, A-R7)."""
    state = ctx.state
    seats = list(range(len(state.players)))
    options = {s: [Action("choose_fate", {"fate": f}) for f in state.fate_offers[s]] for s in seats}
    collect(ctx, seats, "choose_fate", options, resume=fates_chosen)


@steps("fates_chosen")
def fates_chosen(ctx, answers: dict):
    """The reveal, then each Fate's Act I setup side in turn order (BR-054), then the First
    Regent tile for the initiative holder if no Fate took it (BR-058)."""
    state, cbox = ctx.state, campaign_box()
    for seat in sorted(answers):
        act_one.choose_fate(state, seat, answers[seat]["fate"])
    ctx.emit("fates_revealed", fates=list(state.fates))
    n = len(state.players)
    for seat in [(state.initiative + i) % n for i in range(n)]:
        card = fates.objective_card(cbox, state.fates[seat], state.act)
        fates.run_effects(ctx, cbox, seat, card.id, "setup")
    objectives.start_objectives(cbox, state)  # BR-055: each marker on its card's start space
    had = state.first_regent
    act_one.give_first_regent(state)
    if had < 0:
        ctx.emit("first_regent", seat=state.first_regent, why="initiative")


class PlaceStart(msgspec.Struct, forbid_unknown_fields=True):
    system: str
    building: str  # city | starport


@steps("start_placements")
def start_placements(ctx):
    """BR-059..BR-062: the next seat in the two rounds' order places 3 ships and a building
    at a planet with an Imperial ship; after the last, the Free cities fill the rest."""
    state = ctx.state
    if state.placement_order:
        ctx.decide(state.placement_order[0], "br.place_start", resume=placed)


@decisions.kind("place_start", answer="place_start", params=PlaceStart,
                describe="A starting placement: 3 ships and a building at a planet with an Imperial ship.")
def check_place_start(state, seat, prompt, answer: PlaceStart):
    act_one.check_placement(arcs_box(), state, seat, answer.system, answer.building)  # BR-060


@check_place_start.candidates
def _place_start_options(state, seat, prompt):
    for system in sorted(state.imperial):
        for building in ("city", "starport"):
            try:
                act_one.check_placement(arcs_box(), state, seat, system, building)
            except ActionRejected:  # a refused spot is simply not offered
                continue
            yield {"system": system, "building": building}


@steps("placed")
def placed(ctx, seat, params: PlaceStart):
    state = ctx.state
    act_one.place_start(arcs_box(), campaign_box(), state, seat, params.system, params.building)
    ctx.emit("start_placed", seat=seat, system=params.system, building=params.building)
    ctx.push(start_placements)


@steps("deal")
def deal(ctx):
    """BR-063..BR-065: six cards each; the rest to the discard (after a 2-player mulligan,
    offered by the first chapter's start through `arcs_mulligan`)."""
    act_one.deal_hands(campaign_box(), ctx.state, Rng(ctx.state))
