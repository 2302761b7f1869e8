"""The Intermission after Acts I and II (rulebook "Intermission", BR-327..BR-352): steps A-F,
each a function that refuses to run out of order (BR-327), changes nothing when refused,
and records itself in `state.intermission_done` when finished.

The flow calls, in order:
  A `resolve_fates`                 every Resolution card, and the Power a failure costs
  B `clear_court`
  C `clear_pieces`
  D `repair_and_destroy`            then, per seat in `elimination_pending`,
                                    `place_after_elimination` (that seat chooses the gate)
  E `shift_initiative_and_power`
  F `offer_fates`, then per seat `pick_fate` (each in secret, any order, A-R7),
                                    then `reveal_fates` once all picked
Step A (`resolve_fates`) takes the flow's context, as the Fate machinery (`fates.py`) and
the Fates' handlers do; the other steps are pure functions of the boxes and the state.
The Blight's, the Imperial Trust's, the Free States' and the Favors' parts are their own
modules' functions, called here at their place in the order. Duties of areas not written
yet (frozen resources on other cards, Flagship Upgrades) join `INTERMISSION_HOOKS[step]`;
they run as that step finishes, in the order registered.
"""
from __future__ import annotations

from typing import Callable

from core.errors import BadParameter, EngineError, IllegalAction, NotYourTurn
from core.rng import Rng
from core.seats import no_such_seat, seat_name
from plugins.arcs.chapter import return_city
from plugins.arcs.content import Box
from plugins.arcs.outrage import agent_returns
from plugins.arcs.setup import place_ships
from plugins.blighted_reach import blight, favors, free_states, trust
from plugins.blighted_reach.campaign import record_act, size_lists
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.council import is_council
from plugins.blighted_reach.empire import return_campaign_trophy
from plugins.blighted_reach.fate_steps import RuleMissing, fate_card, missing_rules, run_side, unplayed
from plugins.blighted_reach.objectives import act_over, completed, turn_order, uses_marker
from plugins.blighted_reach.state import FREE, BlightedReachState

STEPS = ("resolve_fate", "clear_court", "clear_pieces", "repair_and_destroy",
         "shift_initiative_and_power", "choose_fate")

Hook = Callable[[BlightedReachState], None]

# Duties of areas not written yet, run as the named step finishes: frozen resources held on
# other cards than the First Regent tile (a Fate's, e.g. Merchant League) under
# "clear_pieces" (BR-337); damaged Flagship Upgrades and Armor under "repair_and_destroy"
# (BR-341, the Flagships module). The Imperial Trust is returned by step C itself.
INTERMISSION_HOOKS: dict[str, list[Hook]] = {step: [] for step in STEPS}


# -- the order of the steps (BR-327) ------------------------------------------------------


def check_step(cbox: CampaignBox, state: BlightedReachState, step: str) -> None:
    """Refuse a step outside an Intermission or out of order."""
    if state.act not in cbox.campaign.intermission_after_acts:
        raise IllegalAction(f"no Intermission follows Act {state.act}")
    if not act_over(cbox, state):
        raise IllegalAction(f"Act {state.act} is not over")
    steps = list(cbox.campaign.intermission_steps)
    done = state.intermission_done
    if len(done) == len(steps):
        raise IllegalAction("the Intermission is over")
    if step != steps[len(done)]:
        raise IllegalAction(f"Intermission step {steps[len(done)]!r} comes first")


def _finish(state: BlightedReachState, step: str) -> None:
    for hook in INTERMISSION_HOOKS.get(step, []):
        hook(state)
    state.intermission_done.append(step)


# -- A. Resolve Fate (BR-328..BR-332) -----------------------------------------------------


def fate_result(cbox: CampaignBox, state: BlightedReachState, seat: int) -> str:
    """"completed" with the marker on 0, else "failed"."""
    if not uses_marker(cbox, state, seat) or state.objective_markers[seat] < 0:
        raise EngineError(f"{seat_name(seat)} has no objective marker on the track")
    return "completed" if completed(state, seat) else "failed"


def resolution_of(cbox: CampaignBox, state: BlightedReachState, seat: int) -> tuple[str, str]:
    """The seat's Resolution card for the current act and the side its result reads."""
    fate = state.fates[seat]
    card = fate_card(cbox, fate, state.act, "resolution")
    if card is None:
        raise RuleMissing(f"{cbox.fates[fate].name} has no Resolution card for Act {state.act}")
    return card.id, "success" if fate_result(cbox, state, seat) == "completed" else "failure"


def check_resolve_fates(cbox: CampaignBox, state: BlightedReachState) -> None:
    """Step A may run: its turn has come and every seat's Resolution has its rules (the
    Fates' handlers are in `fates.HANDLERS`)."""
    check_step(cbox, state, "resolve_fate")
    missing = []
    for seat in range(len(state.players)):
        card, side = resolution_of(cbox, state, seat)
        missing += missing_rules(cbox, state.fates[seat], card, side)
    if missing:
        raise RuleMissing("; ".join(missing))


def resolve_fates(ctx, cbox: CampaignBox) -> dict[int, str]:
    """Step A, in turn order: each Resolution card's side for the result (BR-328), then a
    failed objective costs the Power of its marker's space (BR-090, BR-329; Power may go
    below 0). Every seat's card is checked before the first one resolves."""
    state: BlightedReachState = ctx.state
    check_resolve_fates(cbox, state)
    size_lists(state)
    results = {}
    for seat in turn_order(state):
        result = fate_result(cbox, state, seat)
        card, side = resolution_of(cbox, state, seat)
        run_side(ctx, cbox, seat, state.fates[seat], card, side)
        if result == "failed":
            state.players[seat].power -= state.objective_markers[seat]
        state.fate_results[seat] = results[seat] = result
    _finish(state, "resolve_fate")
    return results


# -- B. Clear Court (BR-333..BR-335) ------------------------------------------------------


def clear_court(cbox: CampaignBox, state: BlightedReachState) -> None:
    """Every Court card but the Imperial Council, attached cards included (on the Council
    too), back to the Court deck; every agent in the Court home; the Court discard pile
    scrapped (BR-333..BR-335)."""
    check_step(cbox, state, "clear_court")
    council = [c for c in state.court_row if is_council(c)]
    state.court_deck.extend(c for c in state.court_row if c and not is_council(c))
    state.court_deck.extend(state.attached.values())
    for agents in state.court_agents.values():
        for owner, n in enumerate(agents):
            agent_returns(state, owner, n)
    state.court_row, state.attached = council, {}
    state.court_agents = {c: [0] * len(state.players) for c in council}
    state.scrapped.extend(state.court_discard)
    state.court_discard = []
    _finish(state, "clear_court")


# -- C. Clear Pieces (BR-336..BR-338) -----------------------------------------------------


def return_piece(box: Box, state: BlightedReachState, owner: int, kind: str) -> None:
    """A seat's piece off the map or out of a Trophies box goes home: ships, starports and
    agents to its supply, a city to its board (which may open a resource placement)."""
    player = state.players[owner]
    if kind == "ship":
        player.ships += 1
    elif kind == "starport":
        player.starports += 1
    elif kind == "agent":
        agent_returns(state, owner)
    elif kind == "city":
        return_city(box, state, owner)
    else:
        raise EngineError(f"no supply takes back a {kind} of {seat_name(owner)}")


def clear_pieces(box: Box, cbox: CampaignBox, state: BlightedReachState) -> None:
    """Trophies and Captives home (Blight to its supply, the Empire's and the Free States'
    pieces to theirs, BR-336); the Imperial Trust to the supply (BR-264, BR-337); with 2
    players the ambition boxes' resources to the supply (BR-338)."""
    check_step(cbox, state, "clear_pieces")
    blight.return_blight_trophies(state)
    for holder in state.players:
        trophies, captives = holder.trophies, holder.captives
        holder.trophies, holder.captives = [], []
        for t in trophies:
            if not return_campaign_trophy(state, t):
                return_piece(box, state, t.owner, t.kind)
        for owner in captives:
            agent_returns(state, owner)
    trust.return_trust(state)
    if len(state.players) == 2:
        for ambition, tokens in state.ambition_tokens.items():
            for resource in tokens:
                state.supply[resource] = state.supply.get(resource, 0) + 1
            state.ambition_tokens[ambition] = []
    _finish(state, "clear_pieces")


# -- D. Repair & Destroy (BR-339, BR-340, BR-342, BR-343) ---------------------------------


def _destroy_damaged_buildings(box: Box, state: BlightedReachState, system: str) -> None:
    # Reading: no player destroys these, so no Outrage, Ransack or Trophy follows (digest
    # 7.9 names a destroying player); each piece goes back to its owner or its supply.
    here = state.systems[system]
    gone = [b for b in here.buildings if b.damaged]
    here.buildings = [b for b in here.buildings if not b.damaged]
    for b in gone:
        if b.owner == FREE:
            free_states.return_free_building(state, b.kind)
        else:
            return_piece(box, state, b.owner, b.kind)


def on_the_map(state: BlightedReachState, seat: int) -> bool:
    """The seat has a ship or a starport on the map (the Elimination check, ARCS-271)."""
    return any(here.ships_of(seat).total or any(b.owner == seat and b.kind == "starport" for b in here.buildings)
               for here in state.systems.values())


def repair_and_destroy(box: Box, cbox: CampaignBox, state: BlightedReachState) -> list[int]:
    """1. every damaged Blight repaired (BR-339); 2. every damaged ship and building
    destroyed, Imperial and Free ones too (BR-340); 3. every building in a system with Blight
    and no ship destroyed (BR-342). Returns the seats left with no ship and no starport on
    the map, who each place 3 fresh ships at a gate next (`place_after_elimination`,
    BR-343); the step ends with them."""
    check_step(cbox, state, "repair_and_destroy")
    if state.elimination_pending:
        raise IllegalAction("the eliminated players still place their ships")
    blight.repair_all_blight(state)
    for system, here in state.systems.items():
        for seat, ships in enumerate(here.ships):
            state.players[seat].ships += ships.damaged
            ships.damaged = 0
        _destroy_damaged_buildings(box, state, system)
    for pieces in state.imperial.values():
        state.imperial_supply += pieces.damaged
        pieces.damaged = 0
    state.imperial = {s: p for s, p in state.imperial.items() if p.total}
    blight.destroy_buildings_under_blight(box, state)
    state.elimination_pending = [s for s in turn_order(state) if not on_the_map(state, s)]
    if not state.elimination_pending:
        _finish(state, "repair_and_destroy")
    return list(state.elimination_pending)


def options_elimination(box: Box, state: BlightedReachState, seat: int) -> list[dict]:
    """The gates the seat may place its 3 ships in (any gate)."""
    if seat not in state.elimination_pending:
        return []
    return [{"system": s} for s in sorted(state.systems) if box.systems[s] is None]


def check_elimination(box: Box, state: BlightedReachState, seat: int, gate: str) -> None:
    if seat not in state.elimination_pending:
        raise NotYourTurn(f"{seat_name(seat)} has no ships to place")
    if gate not in state.systems or box.systems[gate] is not None:
        raise BadParameter(f"{gate} is not a gate")


def place_after_elimination(box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int, gate: str) -> None:
    """BR-343: the seat (its choice of gate) places 3 fresh ships, as many as it has (G-3)."""
    check_elimination(box, state, seat, gate)
    place_ships(state, gate, seat, 3)
    state.elimination_pending.remove(seat)
    if not state.elimination_pending:
        _finish(state, "repair_and_destroy")


# -- E. Shift Initiative & Power (BR-344..BR-347) -----------------------------------------


def shift_initiative_and_power(cbox: CampaignBox, state: BlightedReachState) -> None:
    """The initiative to the most Power (a tie: the first of them in turn order, G-1); then
    Power above 1 loses half, rounded to lose less."""
    check_step(cbox, state, "shift_initiative_and_power")
    best = max(p.power for p in state.players)
    state.initiative = next(s for s in turn_order(state) if state.players[s].power == best)
    for player in state.players:
        if player.power > 1:
            player.power -= player.power // 2
    _finish(state, "shift_initiative_and_power")


def concede_advised(state: BlightedReachState) -> list[int]:
    """BR-347: with 2 players, the seat a Rival leads by 15 Power or more may concede
    (advice only; conceding is the player's call)."""
    if len(state.players) != 2:
        return []
    return [s for s in (0, 1) if state.players[1 - s].power - state.players[s].power >= 15]


# -- F. Choose Fate (BR-348..BR-351) ------------------------------------------------------


def _offers_open(state: BlightedReachState) -> bool:
    return any(len(offer) == 2 for offer in state.fate_offers)


LATER_FATES = ("box", "built", "a-fates")  # the table option `later_fates`, its default first


def _later_fates_mode(state: BlightedReachState) -> str:
    return state.options.get("later_fates", LATER_FATES[0])


def offered_fates(cbox: CampaignBox, state: BlightedReachState) -> list:
    """The Fates the Intermission draws from. The box's rule (option `later_fates: box`, the
    default): the B Fates after Act I, the C Fates after Act II (BR-349). `built` draws the
    box's later Fates whose rules are built (all sixteen now), topped up with the A Fates
    nobody plays where they are too few (`top_up_fates`); `a-fates` offers only those A
    Fates (a house rule kept for the tables and campaigns that chose it)."""
    mode = _later_fates_mode(state)
    if mode in ("box", "built"):
        later = cbox.fates_by_letter(cbox.campaign.next_letter[str(state.act)])
        return later if mode == "box" else [f for f in later if f.effects_complete]
    return _a_fates_not_kept(cbox, state)


def _a_fates_not_kept(cbox: CampaignBox, state: BlightedReachState) -> list:
    kept = {f for s, f in enumerate(state.fates) if s < len(state.fate_results) and state.fate_results[s] == "completed"}
    return [f for f in cbox.fates_by_letter("A") if f.id not in kept]  # a failed Fate is back in the box


def top_up_fates(cbox: CampaignBox, state: BlightedReachState) -> list:
    """`built` only: the A Fates nobody keeps, drawn after the built later Fates run out."""
    return _a_fates_not_kept(cbox, state) if _later_fates_mode(state) == "built" else []


def offer_fates(cbox: CampaignBox, state: BlightedReachState, rng: Rng | None = None) -> None:
    """Each seat's two candidates: a completed objective keeps the Fate and draws 1; a failed
    one returns its Fate to the box and draws 2 (BR-348); from the B Fates after Act I, the
    C Fates after Act II (BR-349). Dealt in turn order from the letter's shuffled Fates."""
    check_step(cbox, state, "choose_fate")
    if _offers_open(state):
        raise IllegalAction("the Fates are already offered")
    rng = rng or Rng(state)
    size_lists(state)
    pool = sorted(f.id for f in offered_fates(cbox, state))
    rng.shuffle(pool)
    extra = sorted(f.id for f in top_up_fates(cbox, state) if f.id not in pool)
    if extra:
        rng.shuffle(extra)
        pool += extra
    draw = cbox.campaign.fate_draw
    offers = [list(o) for o in state.fate_offers] + [[] for _ in range(len(state.players) - len(state.fate_offers))]
    for seat in turn_order(state):
        kept = state.fate_results[seat] == "completed"
        n = draw["completed"] if kept else draw["failed"]
        drawn = [f for f in pool if f != state.fates[seat]][:n]  # never the Fate just failed (BR-348)
        pool = [f for f in pool if f not in drawn]
        offers[seat] = ([state.fates[seat]] if kept else []) + drawn
    state.fate_offers = offers
    state.fate_picks = [""] * len(state.players)


def options_fate(state: BlightedReachState, seat: int) -> list[dict]:
    """The seat's own two candidates (its prompt only: the offer is secret)."""
    if not _offers_open(state) or state.fate_picks[seat]:
        return []
    return [{"fate": f} for f in state.fate_offers[seat]]


def check_pick(state: BlightedReachState, seat: int, fate: str) -> None:
    if not 0 <= seat < len(state.players):
        raise BadParameter(no_such_seat(seat, len(state.players)))
    if not _offers_open(state):
        raise IllegalAction("no Fates are offered")
    if state.fate_picks[seat]:
        raise IllegalAction("you have already chosen your Fate")
    if fate not in state.fate_offers[seat]:
        raise BadParameter(f"{fate} is not one of your two Fates")


def pick_fate(state: BlightedReachState, seat: int, fate: str) -> None:
    """The seat's secret choice (A-R7): out of every view until all have chosen."""
    check_pick(state, seat, fate)
    state.fate_picks[seat] = fate


def picks_revealed(state: BlightedReachState) -> list[str]:
    """What the table sees of the picks: all of them at once, or nothing (BR-350)."""
    return list(state.fate_picks) if state.fate_picks and all(state.fate_picks) else [""] * len(state.players)


def check_reveal(cbox: CampaignBox, state: BlightedReachState) -> None:
    check_step(cbox, state, "choose_fate")
    if not _offers_open(state) or not all(state.fate_picks):
        raise IllegalAction("not everyone has chosen a Fate")


def change_fate(cbox: CampaignBox, state: BlightedReachState, seat: int, fate: str) -> None:
    """BR-351: the seat's Favors back to their owners, the rest of its old Fate Set not in
    play scrapped (what is in play stays), the old Fate card to the box and the new one
    taken with its Set (whose cards are in no place yet: `fate_steps.unplayed`)."""
    favors.return_all_favors(state, seat)
    state.scrapped.extend(unplayed(cbox, state, state.fates[seat]))
    state.fates[seat] = fate


def reveal_fates(cbox: CampaignBox, state: BlightedReachState) -> list[str]:
    """Everyone's pick at once (BR-350): the act's log line is written, new Fates are taken
    up, the markers leave the track until the next act's setup (BR-075). Ends the
    Intermission."""
    check_reveal(cbox, state)
    record_act(state)
    picks = list(state.fate_picks)
    for seat, fate in enumerate(picks):
        if fate != state.fates[seat]:
            change_fate(cbox, state, seat, fate)
        state.fate_offers[seat] = [fate]
    state.objective_markers = [-1] * len(state.players)
    state.fate_picks = [""] * len(state.players)
    _finish(state, "choose_fate")
    return picks
