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
  Rivals: any number of Trophies and Captives, and to each Rival at most as many resources
  as it had empty resource slots when the giving began (the card's FAQ); a piece Loyal to the Rival goes back to its supply, a resource is placed by the
  Rival as any token received.
- F2404 Judge's Chosen (title): passed on by the Edict (below). Its holder, a Rival of the
  Judge, names the Judge's Loyal ships in its own Move and Battle answers (`judge_fresh`,
  `judge_damaged`, `judge_drops` of `arcs.turn.MoveShips` / `Attack`, as a Regent names
  Imperial ships): a move of the Judge's ships, alone or along with its own
  (`chosen_check_move` in `empire_hooks.MOVE_ALONG_CHECKS`, `chosen_moved_along`); an attack
  on anyone but the Judge with the Judge's ships there added to its own, or alone
  (`chosen_check_attack` in `empire_hooks.ATTACK_ALONG_CHECKS`, `chosen_battle_begun`; their dice, the attacker's split of hits over them and the
  Trophies taken of them are `empire_battle`'s `judge` part). They stay the Judge's pieces:
  control is never the holder's by them. Against the Judge they defend the Judge (the base
  battle), and cannot be added to the attack.
- F2405 Judge Sets Agenda (Edict): the Judge may declare any ambition with any Available
  marker and then loses that marker's second-place Power; then Judge's Chosen returns to the
  Judge, who must give it to a Rival (`judge_sets_agenda`).

Readings:
- "Each ambition where any players are tied for first place" is each declared ambition,
  first place needing a count of at least 1 (BR-088); the 2-player ambition tokens tie like
  a player (the card's note); the Commonwealth ambition counts its members one by one (the
  standings are per seat).
- The Arbiter's limit is counted once, when its holder starts giving: every resource given to
  a Rival uses one of that Rival's empty slots; Trophies and Captives use none (the FAQ:
  the slots limit only resources). A Rival holding a card that holds a resource (Arsenal
  Keepers, Green Vault, Well of Empathy: `card_slots`) has unlimited slots for it (the FAQ):
  that resource is always offered to it and uses none of its counted slots; the card's own
  question or overflow rule then keeps it.
- Judge Sets Agenda's declaration is a declaration by a card (the Ire cards' bans apply);
  its lost Power is the second-place value the marker shows when placed.
- Judge's Chosen's "take actions with the Judge's Loyal ships" is read as moving and
  battling with them (the actions ships take; Build, Tax and Repair act with buildings or on
  ships). A move of the Judge's ships is checked as the Judge's own move: the Judge's
  starports (or Free starports it controls) let them Catapult and the Judge's standing
  decides where a Catapult stops; moving with the holder's ships they share its origin and
  path. A Gate Ports capture for a gate they enter takes the Judge's agent (its FAQ).
- "May add the Judge's Loyal ships": any number of them, fresh or damaged, as the Imperial
  ships a Regent adds (BR-135); each brings a die. Hits on the attacking side are split by
  the attacker over its own, Imperial and the Judge's ships (ARCS-183); the Judge's ships
  destroyed become the defender's Trophies (Judge's pieces), or go back to the Judge's supply
  where the defender takes none.
- The Judge's Flagship is a Loyal ship of the Judge's (the card's FAQ), so the holder uses it
  too: it moves it (`judge_flagship` of `MoveShips`, checked as the Judge's own Flagship
  move); adds it to an attack (`judge_flagship` of `Attack`: its dice, one per fresh
  starport on its board, BR-283; the attacking side's hits may go on its board,
  `flagships.battle.ATTACKING_BOARDS`, `judge_board` of the split); builds ships at it and
  taxes with its Control Array (`flagships.engine.SHIP_SITE_LENDERS`,
  `CONTROL_ARRAY_LENDERS`); and Catapults with its Slipstream Drive in the Prelude (F2404's
  own Prelude ability, `judges_slipstream`, once a turn). Readings: the ship built and the
  resource taxed are the holder's (a Build places the builder's pieces, a tax's resource is
  the taxer's); the Judge's Sprinter Drives give the holder no second step; building
  Upgrades and Armor on the Judge's board is not "an action with a ship" (cities and
  starports are the builder's pieces), so the holder does not.
"""
from __future__ import annotations

import functools

from core.errors import BadParameter, IllegalAction
from core.hookspecs import hookimpl
from core.seats import seat_name
from core.state import Action
from plugins.arcs import battle as arcs_battle
from plugins.arcs import lore_ops, placing
from plugins.arcs.actions import Move, after_move, check_move, do_move, move_notes
from plugins.arcs.abilities import op, standing
from plugins.arcs.chapter import return_city
from plugins.arcs.content import box_for
from plugins.arcs.court_ops import declare_barred
from plugins.arcs.outrage import agent_returns
from plugins.arcs.scoring import marker_values
from plugins.arcs.setup import open_slots
from plugins.arcs.state import Trophy
from plugins.arcs.turn import MAX_DICE_PER_KIND, Attack, Build, MoveShips, dice_allowed, other_ships, reach_of
from plugins.blighted_reach import card_slots, empire, empire_hooks, fates, objectives, ship_captives
from plugins.blighted_reach import blight as blight_rules
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.fate_c import is_campaign, seat_of
from plugins.blighted_reach.fate_steps import lift
from plugins.blighted_reach.state import BlightedReachState, Pieces
from plugins.blighted_reach.tables import steps
from plugins.flagships import battle as flagship_battle
from plugins.flagships import engine as flagship_engine
from plugins.flagships import rules as flagship_rules
from plugins.flagships import slipstream
from plugins.flagships import state as flagship_state

JUDGE = "FATE24"
VOW = "F2402"
ARBITER = "F2403"
CHOSEN = "F2404"
VOW_KEYS = 1  # F2402: each Trophy or Captive's raid cost

# Standing rules read where they apply (the raid hooks, the chapter's end, the move and
# battle hooks of Judge's Chosen below).
standing("trophies_and_captives_stealable", "give_pieces_at_scoring", "act_with_the_judges_ships")


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
            + [{"vow_captive": o} for o in sorted(set(state.players[victim].captives))]
            + [{"vow_ship_captive": o} for o in sorted(set(ship_captives.held(state, victim)))])


@hookimpl(specname="arcs_raid_options")
def judge_raid_options(state, thief, victim, keys):
    return vow_options(state, thief, victim, keys)


@hookimpl(specname="arcs_raided")
def judge_raided(ctx, thief, victim, params, keys):
    state = ctx.state
    if not is_campaign(state) or not ({"vow_trophy", "vow_captive", "vow_ship_captive"} & set(params)):
        return None
    if params not in vow_options(state, thief, victim, keys):
        raise IllegalAction(f"that raid answer {params} is not open to {seat_name(thief)}")
    if "vow_trophy" in params:
        home = hand_over_trophy(state, victim, thief, _trophy(state, victim, params["vow_trophy"]))
        ctx.emit("stolen", thief=thief, victim=victim, trophy=params["vow_trophy"], home=home, why=VOW)
    elif "vow_ship_captive" in params:  # a ship Happy Hosts' Pacify took (F1012) is a Captive too
        home = ship_captives.hand_over(state, victim, thief, params["vow_ship_captive"])
        ctx.emit("stolen", thief=thief, victim=victim, ship_captive=params["vow_ship_captive"], home=home, why=VOW)
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


def arbiter_before_scoring(handlers: dict) -> dict:
    """The step table with the chapter's end preceded, once a chapter, by The Arbiter's gifts
    (when its holder has a Trophy or Captive to give, or a resource and a Rival has room)."""
    from plugins.arcs.rounds import chapter_end as chapter_end_step

    scoring = handlers[chapter_end_step.step_name]

    @functools.wraps(scoring)  # its registered name kept
    def chapter_end(ctx, **args):
        state = ctx.state
        holder = arbiter_holder(state)
        if holder >= 0 and state.arbiter_chapter != state.chapter:
            state.arbiter_chapter = state.chapter
            room = {str(r): empty_slots(state, r) for r in range(len(state.players)) if r != holder}
            if gift_options(state, holder, room):
                ctx.push(chapter_end_step)  # the scoring again, its gifts offered (this wrapper)
                ctx.push(arbiter_offer, seat=holder, room=room)
                return None
        return scoring(ctx, **args)

    return {**handlers, chapter_end_step.step_name: chapter_end}


def gift_options(state: BlightedReachState, seat: int, room: dict[str, int]) -> list[Action]:
    """Each piece to each Rival: Trophies and Captives to any, resources to those with room."""
    p = state.players[seat]
    pieces = ([f"trophy:{k}" for k in _trophy_keys(state, seat)]
              + [f"captive:{o}" for o in sorted(set(p.captives))]
              + [f"ship_captive:{o}" for o in sorted(set(ship_captives.held(state, seat)))])
    mine = sorted({r for r in p.resources if r is not None})
    return [Action("arbiter_give", {"rival": int(r), "piece": piece})
            for r, left in sorted(room.items())
            for piece in [*pieces, *(f"resource:{x}" for x in mine if left > 0 or _unlimited(state, int(r), x))]]


def _unlimited(state: BlightedReachState, rival: int, resource: str) -> bool:
    """The Rival holds a card that holds this resource: slots without limit for it (the
    card's FAQ), so giving it uses none of the Rival's counted empty slots."""
    return resource in card_slots.unlimited_for(state, rival)


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
    elif kind == "ship_captive":
        home = ship_captives.hand_over(state, seat, rival, int(what))
    else:
        row = state.players[seat].resources
        row[row.index(what)] = None
        placing.receive(state, rival, what)  # the Rival places it (ARCS-202)
    ctx.emit("arbiter_gave", seat=seat, rival=rival, piece=piece, home=home, why=ARBITER)
    if kind == "resource" and not _unlimited(state, rival, what):
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


# -- F2404 Judge's Chosen: acting with the Judge's Loyal ships --------------------------------
def acting_judge(state, seat: int) -> int:
    """The Judge's seat, for a holder of Judge's Chosen naming the Judge's ships; refused for
    anyone else (the Judge itself holding the title included)."""
    judge = seat_of(state, JUDGE) if is_campaign(state) else -1
    if judge < 0 or seat < 0 or chosen_holder(state) != seat:
        raise BadParameter("only a Rival of the Judge holding Judge's Chosen acts with the Judge's ships")
    return judge


def judge_move(act: MoveShips) -> Move:
    """The Judge's ships' part of a move: the act's origin and path, their counts and drops."""
    return Move(origin=act.origin, fresh=act.judge_fresh, damaged=act.judge_damaged, path=tuple(act.path),
                drops=tuple(tuple(d) for d in act.judge_drops))


def chosen_check_move(box, state, reach, seat, act) -> int:
    """For `empire_hooks.MOVE_ALONG_CHECKS`: a move naming the Judge's ships has theirs
    checked as the Judge's own move (its ships, drops, Catapult by its starports and its
    stops, the Blight's gates); the rest of the move stays the campaign's check. Returns how
    many of the Judge's ships move."""
    if not other_ships(act):
        return 0
    judge = acting_judge(state, seat)

    def catapult(state_, seat_, move_):
        empire.check_catapult_path(state_, seat_, move_)
        blight_rules.check_catapult_blight(box, state_, move_, seat_)

    if act.judge_flagship:
        flagship_engine.check_move(box, state, reach, judge, judge_flagship_move(act))
        if not (act.judge_fresh or act.judge_damaged):
            return 1  # the Judge's Flagship alone: its own check is the whole of it
    check_move(state, reach, judge, judge_move(act), stops=catapult)
    return act.judge_fresh + act.judge_damaged + act.judge_flagship


def judge_flagship_move(act: MoveShips) -> MoveShips:
    """The Judge's part of a move naming its Flagship, as the Judge's own Flagship move (the
    Flagship rules' check: from its system, one step unless a Free starport the Judge
    controls lets it Catapult, nothing dropped)."""
    return MoveShips(pay=act.pay, origin=act.origin, path=list(act.path), fresh=act.judge_fresh,
                     damaged=act.judge_damaged, drops=list(act.judge_drops), flagship=True)


@hookimpl(specname="arcs_moved_along")
def chosen_moved_along(ctx, seat, act):
    """The Judge's ships of a checked move go; a gate they enter may capture the Judge's agent
    (Gate Ports: they are the Judge's ships)."""
    state = ctx.state
    if not is_campaign(state) or not other_ships(act):
        return
    judge = seat_of(state, JUDGE)
    m = judge_move(act)
    before = lore_ops.gates_before(state, m.path)
    notes = move_notes(state, judge, m)  # a game's rules after a move (the Twisted Passage's reroll)
    if act.judge_flagship:
        # Reading: the Judge's Sprinter Drives (its lore) give the Chosen no second step.
        ship = flagship_state.board_of(state, judge)
        ship.system = m.path[-1]
        flagship_state.store(state, judge, ship)
        ctx.emit("flagship_moved", seat=judge, origin=m.origin, system=m.path[-1], by=seat, why=CHOSEN)
    do_move(state, judge, m)
    after_move(ctx, judge, m, notes)
    ctx.emit("judge_ships_moved", seat=seat, judge=judge, origin=m.origin, path=list(m.path), fresh=m.fresh,
             damaged=m.damaged, why=CHOSEN)
    lore_ops.capture_at_gates(state, box_for(state), judge, before, ctx.emit)


def chosen_check_attack(box, state, seat, act) -> int:
    """For `empire_hooks.ATTACK_ALONG_CHECKS`: an attack naming the Judge's ships, never on
    the Judge (they defend it), no more than are there. Returns how many join: the campaign's
    check counts them as attacking ships (one die each, and an attack by them alone allowed:
    the card's FAQ)."""
    if not other_ships(act):
        return 0
    judge = acting_judge(state, seat)
    here = state.systems.get(act.system)
    if here is None:
        raise BadParameter(f"{act.system!r} is not a system in play")
    if act.defender == judge:
        raise IllegalAction("attacking the Judge, the Judge's ships defend it: they cannot join the attack")
    present = here.ships_of(judge)
    if min(act.judge_fresh, act.judge_damaged) < 0:
        raise BadParameter("ship counts cannot be negative")
    if act.judge_fresh > present.fresh or act.judge_damaged > present.damaged:
        raise BadParameter(f"only {present.fresh} fresh and {present.damaged} damaged ships of the Judge "
                           f"are in {act.system}")
    return act.judge_fresh + act.judge_damaged + judge_flagship_dice(state, judge, act)


def judge_flagship_dice(state, judge: int, act: Attack) -> int:
    """The dice the Judge's Flagship brings to an attack naming it: one per fresh starport on
    its board (BR-283), so a Flagship with none adds no die and, alone, cannot attack."""
    if not act.judge_flagship:
        return 0
    where = flagship_state.flagship_system(state, judge)
    if where != act.system:
        raise BadParameter(f"the Judge's Flagship is not in {act.system}")
    return flagship_rules.attack_dice(state, judge)


@hookimpl(specname="arcs_battle_begun")
def chosen_battle_begun(ctx, judge_fresh, judge_damaged, judge_flagship):
    """Record the Judge's ships (and its Flagship) attacking with the holder (every battle sets
    it, so a raid after the hits still counts them as attacking ships)."""
    state = ctx.state
    if not is_campaign(state):
        return
    state.battle_judge = Pieces(fresh=judge_fresh, damaged=judge_damaged)
    state.battle_judge_flagship = bool(judge_flagship)
    joined = judge_fresh or judge_damaged or judge_flagship
    state.battle_judge_seat = seat_of(state, JUDGE) if joined else -1
    if joined:
        ctx.emit("judge_ships_attack", seat=state.battle.attacker, judge=state.battle_judge_seat,
                 system=state.battle.system, fresh=judge_fresh, damaged=judge_damaged,
                 flagship=bool(judge_flagship), why=CHOSEN)


def judge_board_attacking(state) -> int:
    """For `flagships.battle.ATTACKING_BOARDS`: the Judge's seat while its Flagship attacks
    with the holder of Judge's Chosen (its board then takes hits as the holder chooses)."""
    return state.battle_judge_seat if is_campaign(state) and state.battle_judge_flagship else -1


def judge_ships_attacking(state, seat: int, system: str) -> int:
    """For `arcs.battle.OTHER_SHIPS`: the Judge's ships still attacking with `seat` in the
    battle being fought there (dice are rolled and a raid made for them)."""
    b = getattr(state, "battle", None)
    if not is_campaign(state) or b is None or b.attacker != seat or b.system != system:
        return 0
    flagship_there = state.battle_judge_flagship and flagship_state.flagship_system(state, state.battle_judge_seat) == system
    return state.battle_judge.total + bool(flagship_there)


def judges_flagship_lent(state, seat: int) -> list[int]:
    """For `flagships.engine.CONTROL_ARRAY_LENDERS` and `SHIP_SITE_LENDERS`: the holder of
    Judge's Chosen taxes with the Judge's Flagship's Control Array and builds ships at it (the
    card's FAQ). Reading: the resource and the ship are the holder's, as a tax's resource is
    the taxer's and a Build places the builder's own pieces; no Captive is taken by the
    Control Array (BR-302), the ship is damaged where the holder's builds are (ARCS-146)."""
    if not is_campaign(state) or chosen_holder(state) != seat or seat < 0:
        return []
    return [seat_of(state, JUDGE)]


def _lent_slipstream(env, u) -> int:
    """The Judge's seat when `u`'s user may Catapult with the Judge's Slipstream Drive; -1."""
    state = env.state
    if not is_campaign(state) or chosen_holder(state) != u.seat:
        return -1
    return seat_of(state, JUDGE)


def _slipstream_usable(env, u) -> bool:
    judge = _lent_slipstream(env, u)
    return judge >= 0 and slipstream.usable(env, u, judge)


def _slipstream_candidates(env, u) -> list[dict]:
    return slipstream.candidates(env, u, _lent_slipstream(env, u)) if _slipstream_usable(env, u) else []


@op("judges_slipstream", params=slipstream.SlipstreamMove, candidates=_slipstream_candidates,
    usable=_slipstream_usable)
def judges_slipstream(env, u, choice) -> None:
    """The card's FAQ: the holder of Judge's Chosen Catapults with the Judge's Flagship's
    Slipstream Drive in its Prelude (BR-300, once a turn, free): the Judge's Flagship alone or
    the Judge's ships from its system, checked as the Judge's own (the Judge's stops; a Gate
    Ports on the way captures the Judge's agent)."""
    judge = _lent_slipstream(env, u)
    if judge < 0:
        raise IllegalAction("only a Rival of the Judge holding Judge's Chosen uses the Judge's Flagship")
    slipstream.catapult(env, u, choice, owner=judge)


for _registry, _rule in ((flagship_engine.CONTROL_ARRAY_LENDERS, judges_flagship_lent),
                         (flagship_engine.SHIP_SITE_LENDERS, judges_flagship_lent),
                         (arcs_battle.OTHER_SHIPS, judge_ships_attacking),
                         (flagship_battle.ATTACKING_BOARDS, judge_board_attacking),
                         (empire_hooks.MOVE_ALONG_CHECKS, chosen_check_move),
                         (empire_hooks.ATTACK_ALONG_CHECKS, chosen_check_attack)):
    if _rule not in _registry:
        _registry.append(_rule)


@hookimpl(specname="arcs_act_candidates")
def chosen_candidates(box, state, seat, pay, kinds):
    """For bots and legalActions: the holder's moves of all the Judge's ships of a system to
    each neighbour, and its attacks with them on each defender but the Judge (each still
    checked)."""
    if not is_campaign(state) or chosen_holder(state) != seat or seat_of(state, JUDGE) < 0:
        return []
    judge = seat_of(state, JUDGE)
    theirs = [(s, here.ships_of(judge)) for s, here in state.systems.items() if here.ships_of(judge).total]
    where = flagship_state.flagship_system(state, judge)
    out: list = []
    if "build" in kinds and where is not None:
        out.append(Build(pay=pay, system=where, what="ship"))
    if "move" in kinds:
        reach = reach_of(box, state)
        for s, ships in theirs:
            for nxt in sorted(reach.neighbours.get(s, ())):
                out.append(MoveShips(pay=pay, origin=s, path=[nxt], judge_fresh=ships.fresh,
                                     judge_damaged=ships.damaged))
        if where is not None:  # the Judge's Flagship is a Loyal ship of the Judge's (the card's FAQ)
            for nxt in sorted(reach.neighbours.get(where, ())):
                out.append(MoveShips(pay=pay, origin=where, path=[nxt], judge_flagship=True))
    if "battle" in kinds:
        defenders = [*empire_hooks.DEFENDERS, *(r for r in range(len(state.players)) if r not in (seat, judge))]
        attacks = [(s, ships, False) for s, ships in theirs]
        if where is not None:
            attacks.append((where, state.systems[where].ships_of(judge), True))
        for s, ships, flagship in attacks:
            joining = ships.total + (flagship_rules.attack_dice(state, judge) if flagship else 0)
            n = min(dice_allowed(box, state, seat, s, joining), 3 * MAX_DICE_PER_KIND)
            a = min(n, MAX_DICE_PER_KIND)
            for defender in defenders:
                out.append(Attack(pay=pay, system=s, defender=defender, assault=a, skirmish=min(n - a, 6),
                                  judge_fresh=ships.fresh, judge_damaged=ships.damaged, judge_flagship=flagship))
    return out
