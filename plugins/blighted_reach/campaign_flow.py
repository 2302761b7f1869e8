"""The campaign around the Acts, as steps: an Act's chapter ends (objectives advanced,
Act III's grand ambitions and the campaign's winner), the Intermission after Acts I and II
(steps A-F, the new Fates chosen in secret, A-R7), the table's end, and Acts II and III
set up from the campaign's log sheet (`conclave_campaign_begin`).

The rules are the pure modules (`objectives`, `intermission`, `later_acts`, `campaign`);
this module asks the players and announces what happened."""
from __future__ import annotations

from core.groups import collect
from core.rng import Rng
from core.state import Action
from plugins.arcs import rounds
from plugins.arcs.content import box_for
from plugins.arcs.content import default_box as arcs_box
from plugins.blighted_reach import campaign, council, intermission, later_acts, objectives
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.setup import chance_roll
from plugins.blighted_reach.tables import steps


# -- a chapter's end (BR-085..BR-111) -----------------------------------------------------------
def chapter_scoring(ctx) -> None:
    """`arcs_chapter_scoring`, before the ambitions' Power is added: objective markers advance
    for ambitions won and for the chapter's end (BR-086, BR-087)."""
    state, box, cbox = ctx.state, box_for(ctx.state), campaign_box()
    score = objectives.chapter_score(box, cbox, state)
    moved = objectives.advance_for_ambitions(box, cbox, state, score)
    later = objectives.advance_at_chapter_end(box, cbox, state)
    for seat in range(len(state.players)):
        spaces = moved.get(seat, 0) + later.get(seat, 0)
        if spaces:
            ctx.emit("objective_advanced", seat=seat, spaces=spaces, marker=state.objective_markers[seat])


def chapter_scored(ctx) -> None:
    """`arcs_chapter_scored`: in Act III, the grand ambitions score with the declared ones
    (BR-099), then a final objective (BR-107) or, after the last chapter, the most Power
    (BR-081) wins the campaign."""
    state, cbox = ctx.state, campaign_box()
    if state.act != objectives.acts(cbox):
        return
    from plugins.blighted_reach.fate_caretaker import golem_goal_steps
    from plugins.blighted_reach.fate_pirate_rumors import haven_guess_steps

    # the Caretaker's choices first (F520B), then the Pirate's Rivals' guesses at the Act's end (F1208B)
    ctx.push_all([*golem_goal_steps(state), *haven_guess_steps(state), (grand_ambitions_scored, {})])


@steps("grand_ambitions_scored")
def grand_ambitions_scored(ctx):
    state, box, cbox = ctx.state, box_for(ctx.state), campaign_box()
    gains = objectives.score_grand_ambitions(box, cbox, state)
    if any(gains.values()):
        ctx.emit("grand_ambitions", power={str(s): p for s, p in gains.items() if p})
    winner = objectives.campaign_winner(cbox, state)
    if winner is not None:
        ctx.push(campaign_won, winner=winner)


@steps("campaign_won")
def campaign_won(ctx, winner: int):
    state = ctx.state
    campaign.end_campaign(campaign_box(), state, winner)  # Act III's log lines and the winner
    ctx.finish({"act": state.act, "campaign_winner": winner, "winners": [winner],
                "power": [p.power for p in state.players], "chapter": state.chapter})


def game_ending(ctx) -> bool:
    """`arcs_game_ending`: after Acts I and II the Intermission runs on this table, and the
    table ends with it (its log sheet goes to the campaign)."""
    state, cbox = ctx.state, campaign_box()
    if objectives.after_act(cbox, state.act) != "intermission":
        return False
    ctx.emit("act_over", act=state.act, power=[p.power for p in state.players])
    ctx.push_all([(resolve_fates, {}), (clear_court, {}), (clear_pieces, {}), (repair_and_destroy, {}),
                  (shift_initiative_and_power, {}), (choose_fates, {}), (act_done, {})])
    return True


# -- the Intermission (BR-327..BR-351) ---------------------------------------------------------
@steps("intermission_resolve_fates")
def resolve_fates(ctx):
    results = intermission.resolve_fates(ctx, campaign_box())
    ctx.emit("fates_resolved", results={str(s): r for s, r in sorted(results.items())},
             power=[p.power for p in ctx.state.players])


@steps("intermission_clear_court")
def clear_court(ctx):
    intermission.clear_court(campaign_box(), ctx.state)
    ctx.emit("court_cleared")


@steps("intermission_clear_pieces")
def clear_pieces(ctx):
    intermission.clear_pieces(box_for(ctx.state), campaign_box(), ctx.state)
    ctx.emit("pieces_cleared")


@steps("intermission_repair_and_destroy")
def repair_and_destroy(ctx):
    state = ctx.state
    for seat in intermission.repair_and_destroy(box_for(state), campaign_box(), state):
        ctx.push(place_fleet, seat=seat)  # BR-343: a seat left off the map places 3 ships at a gate
    ctx.emit("repaired_and_destroyed", eliminated=list(state.elimination_pending))


@steps("intermission_place_fleet")
def place_fleet(ctx, seat: int):
    options = intermission.options_elimination(box_for(ctx.state), ctx.state, seat)
    ctx.prompt(seat, "place_fleet", [Action("place_fleet", o) for o in options], resume=fleet_placed)


@steps("intermission_fleet_placed")
def fleet_placed(ctx, seat, params):
    intermission.place_after_elimination(box_for(ctx.state), campaign_box(), ctx.state, seat, params["system"])
    ctx.emit("fleet_placed", seat=seat, gate=params["system"])


@steps("intermission_shift")
def shift_initiative_and_power(ctx):
    state = ctx.state
    intermission.shift_initiative_and_power(campaign_box(), state)
    ctx.emit("initiative_and_power", initiative=state.initiative, power=[p.power for p in state.players])


@steps("intermission_choose_fates")
def choose_fates(ctx):
    """BR-348..BR-350, A-R7: each seat's two Fates, its own to see; the picks stay secret
    until every seat has picked (a collect group), then are revealed together."""
    state = ctx.state
    intermission.offer_fates(campaign_box(), state, Rng(state))
    seats = list(range(len(state.players)))
    options = {s: [Action("choose_fate", o) for o in intermission.options_fate(state, s)] for s in seats}
    collect(ctx, seats, "choose_fate", options, resume=fates_picked)


@steps("intermission_fates_picked")
def fates_picked(ctx, answers: dict):
    state = ctx.state
    for seat in sorted(answers):
        intermission.pick_fate(state, seat, answers[seat]["fate"])
    ctx.emit("fates_revealed", fates=intermission.reveal_fates(campaign_box(), state))


@steps("act_done")
def act_done(ctx):
    state = ctx.state
    ctx.finish({"act": state.act, "power": [p.power for p in state.players], "chapter": state.chapter,
                "fates": list(state.fates)})


# -- Acts II and III (BR-066..BR-076) -----------------------------------------------------------
@steps("later_act")
def later_act(ctx, log: dict):
    """Table steps A-E from the log sheet, each Fate's Setup side in turn order, the
    objective markers, the first chapter's hands; then the chapter runs on the Arcs rules."""
    state, cbox = ctx.state, campaign_box()
    sheet = campaign.from_json(log)
    later_acts.set_up_later_act(arcs_box(), cbox, state, sheet, Rng(state), chance_roll(ctx, "act_setup"))
    council.start_act(state)  # BR-161, BR-173: In Session at every Act's start
    ctx.emit("act_setup", act=state.act, initiative=state.initiative, rolls=dict(state.rolls))
    later_acts.check_setup_sides(cbox, state)
    plan = [(setup_side, {"seat": s}) for s in later_acts.setup_order(state)]
    ctx.push_all([*plan, (first_chapter, {}), (rounds.chapter_start, {})])


@steps("setup_side")
def setup_side(ctx, seat: int):
    later_acts.apply_setup_side(ctx, campaign_box(), seat)


# Reading: the Act II objective cards of the A Fates print a start space that neither the
# card library nor the other data sources give (fates.json's note). Where none is recorded,
# the seat holding the card reads it off the card: asked, publicly, from the track's spaces.
TRACK_SPACES = range(1, 31)


def unrecorded_starts(cbox, state) -> list[int]:
    """The seats whose objective for this Act has no start space in the data."""
    n = len(state.players)
    out = []
    for seat in range(n):
        objective = objectives.current_objective(cbox, state, seat)
        if objective is not None and objective.kind != "grand" and objectives.objective_start(objective, n) is None:
            out.append(seat)
    return out


@steps("first_chapter")
def first_chapter(ctx, starts: dict | None = None):
    """G: the objective markers (a start the data lacks asked of its seat), then H: the hands."""
    state, cbox = ctx.state, campaign_box()
    starts = dict(starts or {})
    missing = [s for s in unrecorded_starts(cbox, state) if str(s) not in starts]
    if missing:
        seat = missing[0]
        ctx.prompt(seat, "objective_start", [Action("objective_start", {"space": k}) for k in TRACK_SPACES],
                   resume=start_given, starts=starts)
        return
    later_acts.start_objectives(cbox, state, {int(s): v for s, v in starts.items()})
    later_acts.start_first_chapter(cbox, state, Rng(state))


@steps("start_given")
def start_given(ctx, seat, params, starts: dict):
    ctx.emit("objective_start", seat=seat, space=params["space"])
    ctx.push(first_chapter, starts={**starts, str(seat): params["space"]})
