"""The Judge (FATE24, a C Fate: Act III only): its Fate Set's rules that the card data
cannot say.

- F2401 Setup side: Resettle (`fate_c`), gain Vow of Fairness, The Arbiter and Judge's
  Chosen, Judge Sets Agenda into the booklet. Objective side, the final objective "Balance
  the Reach": at each chapter's end 1 space per declared ambition whose first place is tied
  (`ambitions_tied_for_first`).
- F2402 Vow of Fairness (Lore): a raid on its holder may steal its Trophies and Captives, 1
  key each (`judge_raid_options`, `judge_raided`); a stolen piece Loyal to the thief goes
  back to the thief's supply.
- F2403 The Arbiter (Guild, protected): at the start of scoring (`arbiter_before_scoring`,
  around the chapter's end step) its holder may give its Trophies, Captives and resources to
  Rivals, to each at most as many as the Rival had empty resource slots when the giving
  began; a piece Loyal to the Rival goes back to its supply, a resource is placed by the
  Rival as any token received.
- F2404 Judge's Chosen (title): passed on by the Edict (below). ITS RULES FOR THE HOLDER
  (acting with the Judge's Loyal ships, adding them to an attack) ARE NOT BUILT: the Fate's
  `effects_complete` stays false.
- F2405 Judge Sets Agenda (Edict): the Judge may declare any ambition with any Available
  marker and then loses that marker's second-place Power; then Judge's Chosen returns to the
  Judge, who must give it to a Rival (`judge_sets_agenda`).

Readings:
- "Each ambition where any players are tied for first place" is each declared ambition,
  first place needing a count of at least 1 (BR-088); the 2-player ambition tokens tie like
  a player (the card's note); the Commonwealth ambition counts its members one by one (the
  standings are per seat).
- The Arbiter's limit is counted once, when its holder starts giving: every piece given to a
  Rival (a resource, a Trophy or a Captive) uses one of that Rival's empty slots.
- Judge Sets Agenda's declaration is a declaration by a card (the Ire cards' bans apply);
  its lost Power is the second-place value the marker shows when placed.
"""
from __future__ import annotations

import functools

from core.errors import IllegalAction
from core.hookspecs import hookimpl
from core.state import Action
from plugins.arcs import placing
from plugins.arcs.abilities import standing
from plugins.arcs.chapter import return_city
from plugins.arcs.content import box_for
from plugins.arcs.court_ops import declare_barred
from plugins.arcs.outrage import agent_returns
from plugins.arcs.scoring import marker_values
from plugins.arcs.setup import open_slots
from plugins.arcs.state import Trophy
from plugins.blighted_reach import fates, objectives
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.fate_c import is_campaign, seat_of
from plugins.blighted_reach.fate_steps import lift
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

JUDGE = "FATE24"
VOW = "F2402"
ARBITER = "F2403"
CHOSEN = "F2404"
VOW_KEYS = 1  # F2402: each Trophy or Captive's raid cost

# Standing rules read where they apply (the raid hooks, the chapter's end). Judge's Chosen's
# "act_with_the_judges_ships" is not registered: no rule reads it yet.
standing("trophies_and_captives_stealable", "give_pieces_at_scoring")


# -- F2401 the final objective ---------------------------------------------------------------
def ambitions_tied_for_first(box, cbox, state: BlightedReachState, seat: int, score=None, ambition="") -> int:
    """Balance the Reach: the declared ambitions whose first place (at least 1) is shared."""
    tied = 0
    for declared in objectives.declared_ambitions(state):
        counts = objectives.standings(box, cbox, state, declared)
        best = max(counts.values(), default=0)
        tied += best > 0 and sum(n == best for n in counts.values()) > 1
    return tied


objectives.COUNT_RULES["ambition_tied_for_first"] = ambitions_tied_for_first


# -- pieces changing hands (Vow of Fairness, The Arbiter) ------------------------------------
def hand_over_trophy(state: BlightedReachState, giver: int, taker: int, trophy: Trophy) -> bool:
    """One of `giver`'s Trophies to `taker`: back to the taker's supply if it is the taker's
    own piece (True), else among its Trophies."""
    box = box_for(state)
    state.players[giver].trophies.remove(trophy)
    if trophy.owner != taker:
        state.players[taker].trophies.append(trophy)
        return False
    player = state.players[taker]
    if trophy.kind == "ship":
        player.ships += 1
    elif trophy.kind == "starport":
        player.starports += 1
    elif trophy.kind == "agent":
        agent_returns(state, taker)
    else:
        return_city(box, state, taker)
    return True


def hand_over_captive(state: BlightedReachState, giver: int, taker: int, owner: int) -> bool:
    """One of `giver`'s Captives (an agent of `owner`) to `taker`: home if it is the taker's."""
    state.players[giver].captives.remove(owner)
    if owner == taker:
        agent_returns(state, taker)
        return True
    state.players[taker].captives.append(owner)
    return False


def _trophy_keys(state: BlightedReachState, seat: int) -> list[str]:
    return sorted({f"{t.owner}:{t.kind}" for t in state.players[seat].trophies})


def _trophy(state: BlightedReachState, seat: int, key: str) -> Trophy:
    owner, kind = key.split(":")
    return next(t for t in state.players[seat].trophies if t.owner == int(owner) and t.kind == kind)


# -- F2402 Vow of Fairness -------------------------------------------------------------------
def vow_options(state, thief: int, victim: int, keys: int) -> list[dict]:
    if not is_campaign(state) or not 0 <= victim < len(state.players) or keys < VOW_KEYS:
        return []
    if VOW not in state.players[victim].lore:
        return []
    return ([{"vow_trophy": k} for k in _trophy_keys(state, victim)]
            + [{"vow_captive": o} for o in sorted(set(state.players[victim].captives))])


@hookimpl(specname="arcs_raid_options")
def judge_raid_options(state, thief, victim, keys):
    return vow_options(state, thief, victim, keys)


@hookimpl(specname="arcs_raided")
def judge_raided(ctx, thief, victim, params, keys):
    state = ctx.state
    if not is_campaign(state) or not ({"vow_trophy", "vow_captive"} & set(params)):
        return None
    if params not in vow_options(state, thief, victim, keys):
        raise IllegalAction(f"that raid answer {params} is not open to seat {thief}")
    if "vow_trophy" in params:
        home = hand_over_trophy(state, victim, thief, _trophy(state, victim, params["vow_trophy"]))
        ctx.emit("stolen", thief=thief, victim=victim, trophy=params["vow_trophy"], home=home, why=VOW)
    else:
        home = hand_over_captive(state, victim, thief, params["vow_captive"])
        ctx.emit("stolen", thief=thief, victim=victim, captive=params["vow_captive"], home=home, why=VOW)
    return keys - VOW_KEYS


# -- F2403 The Arbiter -----------------------------------------------------------------------
def arbiter_holder(state) -> int:
    if not is_campaign(state):
        return -1
    return next((s for s, p in enumerate(state.players) if ARBITER in p.guild), -1)


def empty_slots(state: BlightedReachState, seat: int) -> int:
    player = state.players[seat]
    return sum(player.resources[i] is None for i in open_slots(box_for(state), player))


def _has_gifts(state: BlightedReachState, seat: int) -> bool:
    p = state.players[seat]
    return bool(p.trophies or p.captives or any(r is not None for r in p.resources))


def arbiter_before_scoring(handlers: dict) -> dict:
    """The step table with the chapter's end preceded, once a chapter, by The Arbiter's gifts
    (when its holder has something to give and a Rival has room)."""
    from plugins.arcs.rounds import chapter_end as chapter_end_step

    scoring = handlers[chapter_end_step.step_name]

    @functools.wraps(scoring)  # its registered name kept
    def chapter_end(ctx, **args):
        state = ctx.state
        holder = arbiter_holder(state)
        if holder >= 0 and state.arbiter_chapter != state.chapter:
            state.arbiter_chapter = state.chapter
            room = {str(r): empty_slots(state, r) for r in range(len(state.players)) if r != holder}
            if _has_gifts(state, holder) and any(room.values()):
                ctx.push(chapter_end_step)  # the scoring again, its gifts offered (this wrapper)
                ctx.push(arbiter_offer, seat=holder, room=room)
                return None
        return scoring(ctx, **args)

    return {**handlers, chapter_end_step.step_name: chapter_end}


def gift_options(state: BlightedReachState, seat: int, room: dict[str, int]) -> list[Action]:
    p = state.players[seat]
    pieces = ([f"trophy:{k}" for k in _trophy_keys(state, seat)]
              + [f"captive:{o}" for o in sorted(set(p.captives))]
              + [f"resource:{r}" for r in sorted({r for r in p.resources if r is not None})])
    return [Action("arbiter_give", {"rival": int(r), "piece": piece})
            for r, left in sorted(room.items()) if left > 0 for piece in pieces]


@steps("arbiter_offer")
def arbiter_offer(ctx, seat: int, room: dict):
    options = gift_options(ctx.state, seat, room)
    if options:
        done = Action("arbiter_give", {"rival": -1, "piece": ""})
        ctx.prompt(seat, "arbiter_give", [done, *options], resume=arbiter_gave, room=room)


@steps("arbiter_gave")
def arbiter_gave(ctx, seat, params, room: dict):
    rival, piece = params["rival"], params["piece"]
    if rival < 0:
        return
    state = ctx.state
    kind, _, what = piece.partition(":")
    home = False
    if kind == "trophy":
        home = hand_over_trophy(state, seat, rival, _trophy(state, seat, what))
    elif kind == "captive":
        home = hand_over_captive(state, seat, rival, int(what))
    else:
        row = state.players[seat].resources
        row[row.index(what)] = None
        placing.receive(state, rival, what)  # the Rival places it (ARCS-202)
    ctx.emit("arbiter_gave", seat=seat, rival=rival, piece=piece, home=home, why=ARBITER)
    room = {**room, str(rival): room[str(rival)] - 1}
    ctx.push(arbiter_offer, seat=seat, room=room)


# -- F2405 Judge Sets Agenda -----------------------------------------------------------------
@fates.handler("judge_sets_agenda")
def judge_sets_agenda(ctx, seat: int, card_id: str, effect) -> None:
    state = ctx.state
    judge = seat_of(state, JUDGE)
    if judge < 0:
        ctx.emit("edict_lapsed", card=card_id, why="nobody is the Judge")
        return
    ctx.push(chosen_returns, judge=judge, card=card_id)
    options = [Action("judge_declare", {"ambition": "", "marker": ""})]
    options += [Action("judge_declare", {"ambition": a, "marker": m.id})
                for a in state.ambition_boxes if not declare_barred(state, judge, a)
                for m in sorted(state.markers_available, key=lambda m: m.id)]
    ctx.ask(judge, "judge_declare", options, resume=judge_declared, card=card_id)


@steps("judge_declared")
def judge_declared(ctx, seat, params, card: str):
    ambition = params["ambition"]
    if not ambition:
        return
    state = ctx.state
    marker = next(m for m in state.markers_available if m.id == params["marker"])
    state.markers_available.remove(marker)
    state.ambition_boxes[ambition].append(marker)
    lost = marker_values(box_for(state), [marker])[1]
    state.players[seat].power -= lost
    ctx.emit("ambition_declared", seat=seat, ambition=ambition, marker=marker.id, card=card)
    ctx.emit("power_lost", seat=seat, power=lost, why=card)
    ctx.hook.arcs_declared_by_card(ctx=ctx, seat=seat, ambition=ambition)


@steps("judge_chosen_returns")
def chosen_returns(ctx, judge: int, card: str):
    """Judge's Chosen back to the Judge, who must give it to a Rival."""
    state = ctx.state
    lift(state, CHOSEN)
    state.play_area[judge].append(CHOSEN)
    rivals = [r for r in range(len(state.players)) if r != judge]
    ctx.ask(judge, "judge_chosen", [Action("give_title", {"rival": r}) for r in rivals], resume=chosen_given, card=card)


@steps("judge_chosen_given")
def chosen_given(ctx, seat, params, card: str):
    state = ctx.state
    state.play_area[seat].remove(CHOSEN)
    state.play_area[params["rival"]].append(CHOSEN)
    ctx.emit("title_given", seat=seat, rival=params["rival"], card=CHOSEN, why=card)


def chosen_holder(state: BlightedReachState) -> int:
    """The Rival of the Judge holding Judge's Chosen (-1: the Judge holds it, or nobody)."""
    judge = seat_of(state, JUDGE) if is_campaign(state) else -1
    holder = next((s for s, area in enumerate(state.play_area) if CHOSEN in area), -1)
    return holder if holder != judge else -1
