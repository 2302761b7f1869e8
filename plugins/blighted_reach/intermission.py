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
Other areas' duties at a step join `INTERMISSION_HOOKS[step]`; they run as that step
finishes, in the order registered. Fates' Resolution steps that data cannot say are
`RESOLUTION_HANDLERS`; what a seat must do when it gives up its Fate, `FATE_CHANGE_HOOKS`.
"""
from __future__ import annotations

from typing import Callable

from core.errors import BadParameter, EngineError, IllegalAction, NotYourTurn
from core.rng import Rng
from plugins.arcs.chapter import return_city
from plugins.arcs.content import Box
from plugins.arcs.outrage import agent_returns
from plugins.arcs.setup import place_ships
from plugins.blighted_reach.board import EMPIRE
from plugins.blighted_reach.campaign import record_act
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.content import Effect
from plugins.blighted_reach.fate_sets import (
    COUNCIL_IDS,
    Handler,
    RuleMissing,
    check_effects,
    resolution_card,
    run_effects,
    scrap_cards,
    size_lists,
    take_fate_set,
)
from plugins.blighted_reach.objectives import act_over, completed, turn_order, uses_marker
from plugins.blighted_reach.state import FREE, BlightedReachState

STEPS = ("resolve_fate", "clear_court", "clear_pieces", "repair_and_destroy",
         "shift_initiative_and_power", "choose_fate")

Hook = Callable[[BlightedReachState], None]

# Other areas' Intermission duties, run as the named step finishes. The Edicts area's
# `trust.return_to_supply(state)` belongs under "clear_pieces" (BR-264, BR-337: the Imperial
# Trust and every other frozen resource back to the supply); a Court attachments area's
# "attached cards back to the Court deck" under "clear_court" (BR-333).
INTERMISSION_HOOKS: dict[str, list[Hook]] = {step: [] for step in STEPS}

# When a seat takes a new Fate at step F: `hook(state, seat)` before its old Fate Set goes.
# The Summit area's "return every Favor the seat holds to its Rivals" belongs here (BR-351).
FATE_CHANGE_HOOKS: list[Callable[[BlightedReachState, int], None]] = []

# Resolution-card steps named `do: handler` in fates.json, by handler name; the Fates'
# own rules register them. None is built in: a Resolution naming one raises RuleMissing.
RESOLUTION_HANDLERS: dict[str, Handler] = {}


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
        raise EngineError(f"seat {seat} has no objective marker on the track")
    return "completed" if completed(state, seat) else "failed"


def resolution_effects(cbox: CampaignBox, state: BlightedReachState, seat: int, result: str) -> list[Effect]:
    """The steps of the seat's Resolution card for the current act on its result's side."""
    fate = cbox.fates[state.fates[seat]]
    card = resolution_card(cbox, fate.id, state.act)
    if card is None:
        raise RuleMissing(f"{fate.name} has no Resolution card for Act {state.act}")
    if not fate.effects_complete:
        raise RuleMissing(f"{fate.name}'s card effects are not in fates.json yet ({card.id})")
    side = "success" if result == "completed" else "failure"
    effects = [e for e in card.abilities if e.when == side]
    check_effects(effects, RESOLUTION_HANDLERS, card.id)
    return effects


def check_resolve_fates(cbox: CampaignBox, state: BlightedReachState) -> dict[int, list[Effect]]:
    check_step(cbox, state, "resolve_fate")
    size_lists(state)
    return {seat: resolution_effects(cbox, state, seat, fate_result(cbox, state, seat))
            for seat in range(len(state.players))}


def resolve_fates(box: Box, cbox: CampaignBox, state: BlightedReachState, rng: Rng | None = None) -> dict[int, str]:
    """Step A, in turn order: each Resolution card's side for the result, then a failed
    objective costs the Power of its marker's space (BR-090, BR-329; Power may go below 0).
    Every seat's card is checked before the first one resolves."""
    rng = rng or Rng(state)
    effects = check_resolve_fates(cbox, state)
    results = {}
    for seat in turn_order(state):
        result = fate_result(cbox, state, seat)
        run_effects(box, cbox, state, seat, effects[seat], RESOLUTION_HANDLERS, rng)
        if result == "failed":
            state.players[seat].power -= state.objective_markers[seat]
        state.fate_results[seat] = results[seat] = result
    _finish(state, "resolve_fate")
    return results


# -- B. Clear Court (BR-333..BR-335) ------------------------------------------------------


def clear_court(cbox: CampaignBox, state: BlightedReachState) -> None:
    """Every Court card but the Imperial Council back to the Court deck, every agent in the
    Court home, the Court discard pile scrapped."""
    check_step(cbox, state, "clear_court")
    council = [c for c in state.court_row if c in COUNCIL_IDS]
    state.court_deck.extend(c for c in state.court_row if c and c not in COUNCIL_IDS)
    for agents in state.court_agents.values():
        for owner, n in enumerate(agents):
            agent_returns(state, owner, n)
    state.court_row = council
    state.court_agents = {c: [0] * len(state.players) for c in council}
    scrap_cards(state, list(state.court_discard))
    _finish(state, "clear_court")


# -- C. Clear Pieces (BR-336..BR-338) -----------------------------------------------------


def return_piece(box: Box, state: BlightedReachState, owner: int, kind: str) -> None:
    """A piece off the map or out of a Trophies box goes back where it came from: a seat's
    supply (a city to its board), the Free supplies, the Imperial supply."""
    if owner >= 0:
        player = state.players[owner]
        if kind == "ship":
            player.ships += 1
        elif kind == "starport":
            player.starports += 1
        elif kind == "agent":
            agent_returns(state, owner)
        else:
            return_city(box, state, owner)
    elif owner == FREE and kind in ("city", "starport"):
        if kind == "city":
            state.free_city_supply += 1
        else:
            state.free_starport_supply += 1
    elif owner == EMPIRE and kind == "ship":
        state.imperial_supply += 1
    else:
        raise EngineError(f"no supply takes back a {kind} of owner {owner}")


def clear_pieces(box: Box, cbox: CampaignBox, state: BlightedReachState) -> None:
    """Trophies and Captives home; with 2 players the ambition boxes' resources to the
    supply. Frozen resources are the hooks' (the Imperial Trust is the Edicts area's)."""
    check_step(cbox, state, "clear_pieces")
    for holder in state.players:
        trophies, captives = holder.trophies, holder.captives
        holder.trophies, holder.captives = [], []
        for t in trophies:
            return_piece(box, state, t.owner, t.kind)
        for owner in captives:
            agent_returns(state, owner)
    if len(state.players) == 2:
        for ambition, tokens in state.ambition_tokens.items():
            for resource in tokens:
                state.supply[resource] = state.supply.get(resource, 0) + 1
            state.ambition_tokens[ambition] = []
    _finish(state, "clear_pieces")


# -- D. Repair & Destroy (BR-339, BR-340, BR-342, BR-343) ---------------------------------


def _destroy_buildings(box: Box, state: BlightedReachState, system: str, which) -> None:
    # Reading: no player destroys these, so no Outrage and no Ransack follow (digest 7.9
    # names a destroying player); the pieces go back to their owners.
    here = state.systems[system]
    gone = [b for b in here.buildings if which(b)]
    here.buildings = [b for b in here.buildings if not which(b)]
    for b in gone:
        return_piece(box, state, b.owner, b.kind)


def has_ships(state: BlightedReachState, system: str) -> bool:
    """Any ship at all: a player's or the Empire's."""
    imperial = state.imperial.get(system)
    return any(s.total for s in state.systems[system].ships) or (imperial is not None and imperial.total > 0)


def on_the_map(state: BlightedReachState, seat: int) -> bool:
    """The seat has a ship or a starport on the map (the Elimination check, ARCS-271)."""
    return any(here.ships_of(seat).total or any(b.owner == seat and b.kind == "starport" for b in here.buildings)
               for here in state.systems.values())


def repair_and_destroy(box: Box, cbox: CampaignBox, state: BlightedReachState) -> list[int]:
    """1. every damaged Blight repaired; 2. every damaged ship and building destroyed,
    Imperial and Free ones too; 3. every building in a system with Blight and no ship
    destroyed. Returns the seats left with no ship and no starport on the map, who each
    place 3 fresh ships at a gate next (`place_after_elimination`); the step ends with them."""
    check_step(cbox, state, "repair_and_destroy")
    if state.elimination_pending:
        raise IllegalAction("the eliminated players still place their ships")
    for pieces in state.blight.values():
        pieces.fresh, pieces.damaged = pieces.total, 0
    for system, here in state.systems.items():
        for seat, ships in enumerate(here.ships):
            state.players[seat].ships += ships.damaged
            ships.damaged = 0
        _destroy_buildings(box, state, system, lambda b: b.damaged)
    for system, pieces in state.imperial.items():
        state.imperial_supply += pieces.damaged
        pieces.damaged = 0
    state.imperial = {s: p for s, p in state.imperial.items() if p.total}
    for system in state.systems:
        if state.blight.get(system) is not None and state.blight[system].total and not has_ships(state, system):
            _destroy_buildings(box, state, system, lambda b: True)
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
        raise NotYourTurn(f"seat {seat} has no ships to place")
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


def offer_fates(cbox: CampaignBox, state: BlightedReachState, rng: Rng | None = None) -> None:
    """Each seat's two candidates: a completed objective keeps the Fate and draws 1; a failed
    one returns its Fate to the box and draws 2 (BR-348); from the B Fates after Act I, the
    C Fates after Act II (BR-349). Dealt in turn order from the letter's shuffled Fates."""
    check_step(cbox, state, "choose_fate")
    if _offers_open(state):
        raise IllegalAction("the Fates are already offered")
    rng = rng or Rng(state)
    size_lists(state)
    letter = cbox.campaign.next_letter[str(state.act)]
    pool = sorted(f.id for f in cbox.fates_by_letter(letter))
    rng.shuffle(pool)
    draw = cbox.campaign.fate_draw
    offers = [list(o) for o in state.fate_offers] + [[] for _ in range(len(state.players) - len(state.fate_offers))]
    for seat in turn_order(state):
        kept = state.fate_results[seat] == "completed"
        n = draw["completed"] if kept else draw["failed"]
        drawn, pool = pool[:n], pool[n:]
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
        raise BadParameter(f"no seat {seat}")
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
    """BR-351: the old Fate card to the box, the rest of its Set not in play scrapped, the
    seat's Favors back to their owners (a hook), the new Fate Set taken."""
    for hook in FATE_CHANGE_HOOKS:
        hook(state, seat)
    scrap_cards(state, list(state.fate_sets[seat]))
    state.fates[seat] = fate
    take_fate_set(cbox, state, seat)


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
