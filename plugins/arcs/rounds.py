"""Chapters, rounds and turns as steps (digest sections 5, 6 and 11).

A chapter: (2 players) the mulligan, then rounds until the hands are empty or every holder
passes in succession. A round: the initiative holder leads (and may declare) or passes;
the others follow clockwise (Surpass, Copy or Pivot, and may seize); the initiative is
checked and the cards discarded. A turn is `arcs.act` answers until the seat is done.
"""
from __future__ import annotations

import msgspec

from core import chance
from core.errors import ActionRejected, IllegalAction
from core.state import Action
from plugins.arcs import abilities, lore_ops
from plugins.arcs import plays as cards
from plugins.arcs.actions import (
    after_move, check_secure, do_build, do_influence, do_move, do_repair, do_tax, move_notes,
)
from plugins.arcs.battle_flow import battle
from plugins.arcs.chapter import clean_up, deal_chapter, game_over, score_chapter, winner
from plugins.arcs.content import box_for
from plugins.arcs.court_flow import (
    FARSEERS_SWAP, after_scoring, after_use, offer, offer_in_window, take, window_closed, window_open,
)
from plugins.arcs.discard import discard_round, reset_for_deal
from plugins.arcs.court_ops import place_ambition_marker, places_zero_marker, settle_unions, show_hand
from plugins.arcs.moments import env_for, write_back
from plugins.arcs.setup import place_ships
from plugins.arcs.state import Play, Turn
from plugins.arcs.tables import decisions, steps
from plugins.arcs.turn import (
    Act, Attack, Build, Done, Influence, MoveShips, Repair, Secure, Spend, Tax, UseAbility, act_kind, candidates,
    check_act, find_use, other_ships, prelude_buys, PRELUDE_TRIGGERS, to_move,
)


def clockwise(state, start: int) -> list[int]:
    n = len(state.players)
    return [(start + i) % n for i in range(n)]


def deal_events(ctx) -> None:
    """Each seat learns its own hand; the others only its size."""
    for seat, hand in enumerate(ctx.state.hands):
        ctx.emit("dealt", to=[seat], public={"seat": seat, "count": len(hand)}, seat=seat, count=len(hand),
                 hand=list(hand))


# -- chapters ---------------------------------------------------------------------------------
@steps("chapter_start")
def chapter_start(ctx):
    state = ctx.state
    ctx.emit("chapter", chapter=state.chapter)
    deal_events(ctx)
    ctx.push(round_start)
    if len(state.players) == 2:  # ARCS-060, ARCS-256: the non-holder may redraw once
        other = 1 - state.initiative
        if ctx.hook.arcs_mulligan(ctx=ctx, seat=other):
            return
        ctx.prompt(other, "mulligan", [Action("mulligan", {"redraw": False}), Action("mulligan", {"redraw": True})],
                   resume=mulligan_done)


@steps("mulligan_done")
def mulligan_done(ctx, seat, params):
    state = ctx.state
    if not params["redraw"]:
        return
    old = state.hands[seat]
    pile = state.action_discard
    state.hands[seat], state.action_discard = pile[:len(old)], pile[len(old):] + old
    chance.shuffle(ctx, state.action_discard, "action discard")
    ctx.emit("mulligan", to=[seat], public={"seat": seat}, seat=seat, hand=list(state.hands[seat]))


@steps("chapter_end")
def chapter_end(ctx):
    """ARCS-246..257: score, clean up, end the game or deal the next chapter."""
    state, box = ctx.state, box_for(ctx.state)
    for hand in state.hands:  # ARCS-079: a chapter ended by passes discards the hands too
        state.action_discard.extend(hand)
    state.hands = [[] for _ in state.players]
    ctx.hook.arcs_chapter_scoring(ctx=ctx)

    def adjust(box_, state_, ambition, gains):  # the Leaders' modifiers, then a game's own rule
        gains = lore_ops.adjust_gains(box_, state_, ambition, gains)
        own = ctx.hook.arcs_ambition_gains(state=state_, ambition=ambition, gains=gains)
        return gains if own is None else own

    gained, scored = score_chapter(box, state, adjust=adjust)
    ctx.emit("scored", chapter=state.chapter, ambitions=scored, power={str(s): p for s, p in gained.items()})
    ctx.push_all([(after_scoring, {"scored": scored}), (chapter_cleanup, {"scored": scored})])
    ctx.hook.arcs_chapter_scored(ctx=ctx)  # what it pushes runs before the clean-up


@steps("chapter_cleanup")
def chapter_cleanup(ctx, scored: list):
    state, box = ctx.state, box_for(ctx.state)
    ctx.hook.arcs_chapter_clean_up(ctx=ctx, scored=scored)  # Trophies of no player (a game built on Arcs)
    clean_up(box, state, scored)
    over = ctx.hook.arcs_game_over(state=state)  # a game built on Arcs may end otherwise (an Act)
    if over if over is not None else game_over(box, state):  # ARCS-252..254
        if ctx.hook.arcs_game_ending(ctx=ctx):
            return  # the game's own ending steps (the campaign's Intermission) finish the table
        result = ctx.hook.arcs_result(ctx=ctx)
        if result is None:
            state.winner = winner(state)
            result = {"winners": [state.winner], "power": [p.power for p in state.players], "chapter": state.chapter}
        ctx.finish(result)
        return
    if not ctx.hook.arcs_chapter_deal(ctx=ctx):  # asked with the chapter's cards still in the discard
        reset_for_deal(state)
        deal_chapter(box, state)
    ctx.push(chapter_start)


# -- rounds -----------------------------------------------------------------------------------
def holders(state) -> list[int]:
    return [s for s in range(len(state.players)) if state.hands[s]]


def next_holder(state, after: int) -> int:
    """ARCS-078: clockwise, the nearest player who still holds a card."""
    for seat in clockwise(state, after)[1:]:
        if state.hands[seat]:
            return seat
    return after


@steps("round_start")
def round_start(ctx):
    state = ctx.state
    if not holders(state):
        ctx.push(chapter_end)
        return
    state.seized, state.lead, state.lead_seat, state.declared = False, "", -1, False
    state.ambition_declared = ""
    state.round += 1  # once-per-turn records are kept per (chapter, round)
    state.plays, state.facedown, state.queue, state.surpasses = [], [], [], []
    holder = state.initiative
    if not state.hands[holder]:  # ARCS-078: an empty hand must pass (not a holder's pass)
        state.initiative = next_holder(state, holder)
        ctx.emit("initiative", seat=state.initiative, why="empty hand")
        holder = state.initiative
    box = box_for(state)
    options = []
    for c in state.hands[holder]:
        sides = ctx.hook.arcs_played_as(state=state, seat=holder, card=c)  # a double-sided card: one id per side
        if sides is not None:
            options += [Action("lead", {"card": side}) for side in sides]
        elif cards.is_action_card(box, c) or ctx.hook.arcs_may_lead(state=state, seat=holder, card=c):
            options.append(Action("lead", {"card": c}))
    ctx.prompt(holder, "lead", options + [Action("pass")], resume=lead_done)


@steps("lead_done")
def lead_done(ctx, seat, params):
    state, box = ctx.state, box_for(ctx.state)
    if "card" not in params:  # pass (ARCS-078, ARCS-079)
        state.passes += 1
        ctx.emit("passed", seat=seat)
        if state.passes >= len(holders(state)):
            state.passes = 0
            ctx.push(chapter_end)
            return
        state.initiative = next_holder(state, seat)
        ctx.push(round_start)
        return
    card = params["card"]
    state.passes = 0
    state.hands[seat].remove(cards.hand_id(card))
    state.lead, state.lead_seat = card, seat
    state.plays = [Play(seat=seat, kind="lead", card=card)]
    state.queue = clockwise(state, seat)[1:]
    ctx.emit("played", seat=seat, kind="lead", card=card)
    ambitions = cards.declarable(box, card) if state.markers_available else []  # ARCS-083, ARCS-085
    if state.markers_available:  # a game's laws may widen or narrow what a lead card declares
        changed = ctx.hook.arcs_declarable(state=state, seat=seat, card=card, ambitions=ambitions)
        ambitions = ambitions if changed is None else changed
    if not lore_ops.can_declare(state, box, seat):  # Generous: declaring costs a Guild card
        ambitions = []
    ctx.push(begin_turn, seat=seat, kind="lead", card=card)
    if ambitions:
        options = [Action("declare", {"ambition": a}) for a in ambitions] + [Action("declare", {"ambition": ""})]
        ctx.prompt(seat, "declare", options, resume=declared)


@steps("declared")
def declared(ctx, seat, params):
    """ARCS-084: the highest Available marker into the box, the zero marker on the lead card
    (unless Secret Order spares it); Generous first hands over a Guild card; then the
    abilities used when declaring (Farseers after its private look, Ambitious, Bold)."""
    ambition = params["ambition"]
    if not ambition:
        return
    state, box = ctx.state, box_for(ctx.state)
    if lore_ops.generous_recipient(state, box, seat) is not None:
        ctx.ask(seat, "generous", [Action("give", {"card": c}) for c in state.players[seat].guild],
                resume=generous_paid, ambition=ambition)
        return
    declare(ctx, seat, ambition)


@steps("generous_paid")
def generous_paid(ctx, seat, params, ambition: str = ""):
    """Generous's Guild card handed over; a lead card's declaration then happens (a card's
    declaration, `ambition` "", happened already and goes on to its abilities)."""
    recipient = lore_ops.pay_generous(ctx.state, box_for(ctx.state), seat, params["card"])
    ctx.emit("guild_given", seat=seat, recipient=recipient, card=params["card"], why="generous")
    if ambition:
        declare(ctx, seat, ambition)
    else:
        declaration_abilities(ctx, seat)


@steps("declared_by_card")
def declared_by_card(ctx, seat: int):
    """A declaration made by a card (Galactic Bards BC25, Populist Demands BC27) is a
    declaration all the same (ARCS-124; the card FAQ: Connected triggers again): Generous
    takes its Guild card, then Farseers, Ambitious and Bold are offered."""
    state, box = ctx.state, box_for(ctx.state)
    ctx.hook.arcs_declared_by_card(ctx=ctx, seat=seat, ambition=state.ambition_declared)
    if lore_ops.generous_recipient(state, box, seat) is not None and state.players[seat].guild:
        ctx.ask(seat, "generous", [Action("give", {"card": c}) for c in state.players[seat].guild],
                resume=generous_paid)
        return
    declaration_abilities(ctx, seat)


def declare(ctx, seat: int, ambition: str) -> None:
    state, box = ctx.state, box_for(ctx.state)
    marker = place_ambition_marker(box, state, ambition)
    state.declared = places_zero_marker(state, box, seat, ambition)  # BC18 Secret Order
    state.ambition_declared = ambition
    ctx.emit("declared", seat=seat, ambition=ambition, marker=marker.id, zero_marker=state.declared)
    ctx.hook.arcs_declared(ctx=ctx, seat=seat, ambition=ambition)
    declaration_abilities(ctx, seat)


def declaration_abilities(ctx, seat: int) -> None:
    """What declaring opens: Farseers' private look first (its swap is offered after it),
    then the `declare` window (Ambitious, Bold, Farseers' swap)."""
    state, box = ctx.state, box_for(ctx.state)
    if any(u.ability.do == FARSEERS_SWAP for u in abilities.held(state, box, seat, "declare")):
        rivals = [r for r in range(len(state.players)) if r != seat]
        ctx.prompt(seat, "farseers_look", [Action("look", {"rival": r}) for r in [-1, *rivals]],
                   resume=farseers_looked)
        return
    ctx.push_all(offer_in_window(seat, "declare"))


@steps("farseers_looked")
def farseers_looked(ctx, seat, params):
    """Farseers (BC17): the chosen Rival's hand is shown to the holder alone, then the swap
    is offered with the other abilities of the declaration."""
    rival = params["rival"]
    if rival >= 0:
        show_hand(env_for(box_for(ctx.state), ctx.state, ctx, seat=seat), seat, rival)
    ctx.push_all(offer_in_window(seat, "declare", look=rival))


def new_turn(state, seat: int, kind: str, card: str, hook=None) -> None:
    """The turn a play opens; a card outside the base deck, or a side of a double-sided card,
    buys what `arcs_play_buys` says (None: as the base rules)."""
    box = box_for(state)
    bought = None
    if (not cards.is_action_card(box, card) or cards.hand_id(card) != card) and hook is not None:
        bought = hook.arcs_play_buys(state=state, seat=seat, kind=kind, card=card)
    count, actions = bought if bought is not None else cards.actions_bought(box, kind, state.lead, card)
    lead_actions = list(box.actions.suits[cards.card(box, state.lead).suit])
    state.turn = Turn(seat=seat, kind=kind, pips=count, actions=actions, lead_actions=lead_actions)


@steps("begin_turn")
def begin_turn(ctx, seat: int, kind: str, card: str):
    new_turn(ctx.state, seat, kind, card, ctx.hook)
    if kind in ("surpass", "pivot"):
        ctx.push(turn_prompt, seat=seat)
        ctx.push(offer, seat=seat, when="surpass_or_pivot")
    else:
        ctx.push(turn_prompt, seat=seat)
    ctx.hook.arcs_turn_begun(ctx=ctx, seat=seat)  # what it pushes runs first


@steps("turn_prompt")
def turn_prompt(ctx, seat: int):
    """The seat's next answer, until it is done or has nothing left to spend."""
    turn = ctx.state.turn
    if turn.pips == 0 and not turn.prelude:
        ctx.push(end_turn, seat=seat)
        return
    ctx.decide(seat, "arcs.act", resume=acted)


@decisions.kind("act", answer="act", params=Act, describe="One action of the turn, a Prelude spend, or done.",
                 hooks=True)
def check_turn_act(state, seat, prompt, answer, hook):
    check_act(box_for(state), state, seat, answer, hook)


@check_turn_act.candidates
def _act_candidates(state, seat, prompt, hook):
    return candidates(box_for(state), state, seat, hook)


def close_prelude(state) -> None:
    """ARCS-114/116: the first pip spent closes the Prelude; what it spent returns to supply."""
    turn = state.turn
    if turn.prelude:
        turn.prelude = False
        for r in turn.aside:
            state.supply[r] += 1
        turn.aside = []


@steps("acted")
def acted(ctx, seat, params):
    state, box = ctx.state, box_for(ctx.state)
    turn = state.turn
    if isinstance(params, Done):
        ctx.push(end_turn, seat=seat)
        return
    use = None
    if isinstance(params, UseAbility):
        use = find_use(box, state, seat, params.card, params.index, (*PRELUDE_TRIGGERS, "new_action"))
    if use is not None:
        # A game's standing restriction (the campaign's Guild Overseers: placing in a declared
        # ambition) is judged as the action is chosen, as its check was: paying its cost (a
        # token spent for the pip) does not take back an action already allowed.
        reason = abilities.restricted(env_for(box, state, ctx, seat=seat), use)
        if reason:
            raise IllegalAction(f"{use.card}: {reason}")
    pip = False
    if use is None or use.ability.when == "new_action":
        pip = pay(ctx, seat, params)
    ctx.push(turn_prompt, seat=seat)
    copy_pivot = pip and turn.kind in ("copy", "pivot")  # ARCS-125: only the Copy/Pivot pip
    if pip and turn.kind == "copy":  # "when you Copy to X" (a game's cards: the campaign's Liaisons)
        ctx.hook.arcs_copied(ctx=ctx, seat=seat, action=act_kind(box, state, seat, params))
    if use is not None:
        env = env_for(box, state, ctx, seat=seat)
        markers = len(state.markers_available)
        abilities.use(env, use, params.params, restrictions_checked=True)
        write_back(state, env.moment)
        ctx.emit("ability", seat=seat, card=use.card, index=use.index, op=use.ability.do)
        ctx.hook.arcs_ability_used(ctx=ctx, seat=seat, card=use.card, when=use.ability.when)
        # a Prelude ability that declared (the campaign's Liaisons) opens the declaration's abilities
        after_use(ctx, seat, use, params.params, declared=len(state.markers_available) < markers)
        if copy_pivot and lore_ops.contained_action(use.ability.do) == "tax":
            copy_pivot_tax(ctx, seat)  # ARCS-125: a new action containing a tax (Nurture)
    turn.acted = True  # after the effect: "before any other action" abilities look at it
    if use is not None:
        return
    do_act(ctx, seat, params, copy_pivot)


# A game built on Arcs may add to an Influence action (the campaign's Feudal Courts: a Court
# token placed on a card influenced while empty): fn(ctx, seat, card, first) after the agent
# is placed, `first` when the card had no agent before; each does nothing on a table it does
# not know.
INFLUENCED: list = []


def do_act(ctx, seat: int, params, copy_pivot: bool = False) -> None:
    """The effect of a standard action already checked and paid for, in the turn being taken
    (`state.turn`). A game built on Arcs may take one outside a round through it (the
    campaign's Pirate spends its Hoard at an Intermission on a turn of its own)."""
    state, box = ctx.state, box_for(ctx.state)
    turn = state.turn
    if isinstance(params, Tax):
        resource = params.resource or None
        repeatable = any(ctx.hook.arcs_tax_repeatable(state=state, seat=seat, system=params.system,
                                                      building=params.building))
        capture = ctx.hook.arcs_tax_captures(state=state, seat=seat, system=params.system, building=params.building)
        got = do_tax(box, state, seat, params.system, params.building, resource=resource, capture=capture is not False)
        if not repeatable:  # ARCS-141, unless a game's rule lets that city be taxed again (Open Economy)
            turn.taxed.append([params.system, params.building])
            lore_ops.note_taxed(state, seat, params.system, params.building)
        ctx.emit("taxed", seat=seat, system=params.system, **got)
        ctx.hook.arcs_taxed(ctx=ctx, seat=seat, system=params.system, building=params.building, got=got)
        if copy_pivot:
            copy_pivot_tax(ctx, seat)
    elif isinstance(params, Build):
        if params.cost_slot >= 0:  # L09 Cloud Cities: a city beyond the planet's slots
            lore_ops.pay_cloud_city(state, box, seat, params.system, params.cost_slot)
        fresh = params.what == "ship" and lore_ops.builds_ships_fresh(state, box, seat)  # L05
        placed = ctx.hook.arcs_build(state=state, seat=seat, system=params.system, what=params.what,
                                     starports_used=turn.starports_used, fresh=fresh, slot=params.slot,
                                     layer=params.layer)
        if placed is None:
            placed = do_build(state, seat, params.system, params.what, turn.starports_used, fresh=fresh)
        board = {"slot": params.slot, "layer": params.layer} if params.slot >= 0 else {}  # a game's board
        ctx.emit("built", seat=seat, system=params.system, what=params.what, placed=placed, **board)
    elif isinstance(params, Repair):
        building = None if params.building < 0 else params.building
        if not ctx.hook.arcs_repair(state=state, seat=seat, system=params.system, piece=params.piece,
                                    building=building):
            do_repair(state, seat, params.system, params.piece, building)
        ctx.emit("repaired", seat=seat, system=params.system, piece=params.piece)
    elif isinstance(params, MoveShips):
        others = other_ships(params)
        if params.imperial_fresh or params.imperial_damaged or params.flagship or others:  # a game checked them
            ctx.hook.arcs_moved_along(ctx=ctx, seat=seat, act=params)
        if params.fresh or params.damaged or params.flagship or not others:  # no Loyal ship moved: no move of its own
            move(ctx, seat, to_move(params))
    elif isinstance(params, Influence):
        first = not any(state.court_agents.get(params.card, ()))
        do_influence(state, seat, params.card)
        ctx.emit("influenced", seat=seat, card=params.card)
        for rule in INFLUENCED:
            rule(ctx, seat, params.card, first)
    elif isinstance(params, Secure):
        if copy_pivot and abilities.held(state, box, seat, "copy_or_pivot_secure"):  # Charismatic
            ctx.push_all([(window_open, {"seat": seat, "when": "copy_or_pivot_secure"}),
                          (offer, {"seat": seat, "when": "copy_or_pivot_secure"}),
                          (secure_step, {"seat": seat, "card": params.card}),
                          (offer, {"seat": seat, "when": "copy_or_pivot_secure"}),
                          (window_closed, {"seat": seat, "when": "copy_or_pivot_secure"})])
        else:
            take(ctx, seat, params.card, rivals_to="captives")
    elif isinstance(params, Attack):
        args = {k: v for k, v in msgspec.to_builtins(params).items() if k not in ("act", "pay")}
        if copy_pivot and abilities.held(state, box, seat, "copy_or_pivot_battle"):  # Tactical
            ctx.push_all([(window_open, {"seat": seat, "when": "copy_or_pivot_battle"}),
                          (offer, {"seat": seat, "when": "copy_or_pivot_battle"}),
                          (battle_if_able, {**args, "seat": seat}),
                          (offer, {"seat": seat, "when": "copy_or_pivot_battle"}),
                          (window_closed, {"seat": seat, "when": "copy_or_pivot_battle"})])
        else:
            ctx.push(battle, **args, seat=seat)


def copy_pivot_tax(ctx, seat: int) -> None:
    """Attuned, Insatiable: a Copy or Pivot pip paid a tax (ARCS-125)."""
    bonus = lore_ops.copy_pivot_tax_bonus(ctx.state, box_for(ctx.state), seat)
    if bonus:
        ctx.emit("resources_gained", seat=seat, resources=bonus, why="copy_or_pivot_tax")


def pay(ctx, seat: int, params) -> bool:
    """Pay for an answer: the resource in slot `pay` for its Prelude action (ARCS-213/214),
    held aside until the Prelude closes; or a pip, which closes the Prelude (ARCS-114).
    Returns True for a pip."""
    state = ctx.state
    turn = state.turn
    if params.pay >= 0:
        player = state.players[seat]
        resource, player.resources[params.pay] = player.resources[params.pay], None
        turn.aside.append(resource)
        ctx.emit("spent", seat=seat, resource=resource)
        if isinstance(params, Spend) and "battle_with_pips" in prelude_buys(box_for(state), state, seat, resource):
            turn.weapon = True  # ARCS-215; a Loyal card may make another token a Weapon, or lift Outrage (ARCS-313)
        return False
    turn.pips -= 1
    close_prelude(state)
    return True


def move(ctx, seat: int, m) -> None:
    """A move, then what it triggers: Gate Ports' capture for each gate entered (L08, its
    controller taken before the ships entered), a game's `actions.AFTER_MOVE` rules and the
    Sprinter Drives window (L03)."""
    state, box = ctx.state, box_for(ctx.state)
    before = lore_ops.gates_before(state, m.path)
    notes = move_notes(state, seat, m)
    do_move(state, seat, m)
    ctx.emit("moved", seat=seat, origin=m.origin, path=list(m.path), fresh=m.fresh, damaged=m.damaged)
    lore_ops.capture_at_gates(state, box, seat, before, ctx.emit)
    after_move(ctx, seat, m, notes)
    if abilities.held(state, box, seat, "move"):
        ctx.push_all(offer_in_window(seat, "move", facts=lore_ops.move_facts(m)))


@steps("secure_step")
def secure_step(ctx, seat: int, card: str):
    """A Secure held back for a window around it (Charismatic): still possible, it happens."""
    try:
        check_secure(ctx.state, seat, card)
    except ActionRejected:
        ctx.emit("secure_lapsed", seat=seat, card=card)
        return
    take(ctx, seat, card, rivals_to="captives")


@steps("battle_if_able")
def battle_if_able(ctx, seat: int, system: str, defender: int, assault: int = 0, skirmish: int = 0, raid: int = 0,
                   imperial_fresh: int = 0, imperial_damaged: int = 0, judge_fresh: int = 0, judge_damaged: int = 0,
                   judge_flagship: bool = False):
    """A battle held back for a window before it (Tactical's move): fought if the attacker
    still has ships there (or the other seat's ships named to join it) and the defender
    pieces; the dice shrink to what is allowed."""
    state = ctx.state
    here = state.systems[system]
    if defender < 0:  # no seat: a game built on Arcs says whether its pieces are still there
        present = bool(ctx.hook.arcs_defender_present(state=state, system=system, defender=defender))
    else:
        present = here.ships_of(defender).total or any(b.owner == defender for b in here.buildings)
    if not (here.ships_of(seat).total or judge_fresh or judge_damaged or judge_flagship) or not present:
        ctx.emit("battle_lapsed", seat=seat, system=system)
        return
    ctx.call(battle, seat=seat, system=system, defender=defender, assault=assault, skirmish=skirmish, raid=raid,
             imperial_fresh=imperial_fresh, imperial_damaged=imperial_damaged, judge_fresh=judge_fresh,
             judge_damaged=judge_damaged, judge_flagship=judge_flagship)


@steps("end_turn")
def end_turn(ctx, seat: int):
    state = ctx.state
    close_prelude(state)
    state.turn = None
    lore_ops.clear_turn(state)
    ctx.push(next_turn)
    if not any(here.ships_of(seat).total or any(b.owner == seat and b.kind == "starport" for b in here.buildings)
               for here in state.systems.values()):  # ARCS-271: the safety net
        gates = [s for s in state.systems if s.endswith("G")]
        ctx.ask(seat, "return_fleet", [Action("place_fleet", {"gate": g}) for g in gates], resume=fleet_placed)


@steps("fleet_placed")
def fleet_placed(ctx, seat, params):
    placed = place_ships(ctx.state, params["gate"], seat, 3)
    ctx.emit("fleet_placed", seat=seat, gate=params["gate"], ships=placed)


@steps("next_turn")
def next_turn(ctx):
    state, box = ctx.state, box_for(ctx.state)
    while state.queue:
        seat = state.queue.pop(0)
        if not state.hands[seat]:  # ARCS-075
            continue
        options = []
        for c in state.hands[seat]:
            sides = ctx.hook.arcs_played_as(state=state, seat=seat, card=c)
            if sides is not None:  # a double-sided card: each side follows as its own card, a Copy once
                for i, side in enumerate(sides):
                    for kind in sorted(cards.follow_kinds(box, state.lead, state.declared, side)):
                        if kind != "copy" or i == 0:
                            options.append(Action("play", {"card": side, "kind": kind}))
                continue
            if cards.is_action_card(box, c):
                kinds = sorted(cards.follow_kinds(box, state.lead, state.declared, c))
            else:
                kinds = ctx.hook.arcs_follow_kinds(state=state, seat=seat, card=c) or []
            for kind in kinds:
                options.append(Action("play", {"card": c, "kind": kind}))
        ctx.prompt(seat, "follow", options, resume=followed)
        return
    ctx.push(round_end)


@steps("followed")
def followed(ctx, seat, params):
    """ARCS-090..104: the card goes down as its play; then the seat may seize."""
    state, box = ctx.state, box_for(ctx.state)
    card, kind = params["card"], params["kind"]
    state.hands[seat].remove(cards.hand_id(card))
    if kind == "copy":
        state.facedown.append(card)
        state.plays.append(Play(seat=seat, kind="copy"))
        ctx.emit("played", to=[seat], public={"seat": seat, "kind": "copy"}, seat=seat, kind="copy", card=card)
    else:
        state.plays.append(Play(seat=seat, kind=kind, card=card))
        ctx.emit("played", seat=seat, kind=kind, card=card)
    if kind == "surpass":
        state.surpasses.append([seat, cards.card(box, card).number])
    may_seize = not (state.seized or seat == state.initiative)  # ARCS-102, ARCS-103
    seven = cards.card(box, card) if kind == "surpass" else None
    if may_seize and seven is not None and seven.number == 7 and seven.seven_seizes:  # ARCS-100/101: a 7 seizes
        seize(ctx, seat)
        may_seize = False
    if may_seize and state.hands[seat] and kind in ("surpass", "pivot") \
            and abilities.held(state, box, seat, "surpass_or_pivot"):
        # Galactic Bards: seize and declare in either order (card FAQ): the turn begins and
        # its offer comes before the seize, and again after it if it was not used
        new_turn(state, seat, kind, card, ctx.hook)
        ctx.push_all([(offer, {"seat": seat, "when": "surpass_or_pivot"}), (seize_offer, {"seat": seat}),
                      (offer, {"seat": seat, "when": "surpass_or_pivot"}), (turn_prompt, {"seat": seat})])
        return
    ctx.push(begin_turn, seat=seat, kind=kind, card=card)
    if may_seize:
        seize_offer(ctx, seat)  # ARCS-099: an extra card face down


@steps("seize_offer")
def seize_offer(ctx, seat: int):
    """ARCS-099: seize by putting an extra card face down, or not."""
    state = ctx.state
    if state.seized or seat == state.initiative:
        return
    if ctx.hook.arcs_seize_offer(ctx=ctx, seat=seat):  # a game's own way to seize (the Partisan's)
        return
    if not state.hands[seat]:
        return
    box = box_for(state)
    usable = [c for c in state.hands[seat]
              if cards.is_action_card(box, c) or ctx.hook.arcs_may_seize_with(state=state, seat=seat, card=c)]
    if not usable:
        return
    options = [Action("seize", {"card": ""})] + [Action("seize", {"card": c}) for c in usable]
    ctx.prompt(seat, "seize", options, resume=seize_done)


def seize(ctx, seat: int) -> None:
    state = ctx.state
    state.initiative, state.seized = seat, True
    state.plays[-1].seized = True
    ctx.emit("seized", seat=seat)


@steps("seize_done")
def seize_done(ctx, seat, params):
    card = params["card"]
    if not card:
        return
    ctx.state.hands[seat].remove(card)
    ctx.state.facedown.append(card)
    seize(ctx, seat)


@steps("round_end")
def round_end(ctx):
    """ARCS-105..109: check the initiative, discard the round's cards (face down, or split
    by how they were played: ARCS-283), go on."""
    state = ctx.state
    if not state.seized:
        state.initiative = cards.initiative_after(state.initiative, None, [tuple(s) for s in state.surpasses])
    ctx.emit("round_over", initiative=state.initiative)
    discard_round(state)
    for card in settle_unions(state):  # ARCS-314: a Union's holder takes its action card
        ctx.emit("union_settled", card=card)
    ctx.push(round_start)
    ctx.hook.arcs_round_end(ctx=ctx)  # sees this round's plays; what it pushes runs before the next round
    state.lead, state.lead_seat, state.declared = "", -1, False  # ARCS-089: the zero marker goes home
    state.ambition_declared = ""
    state.plays, state.facedown, state.surpasses = [], [], []
