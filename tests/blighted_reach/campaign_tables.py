"""Campaign tables for the between-acts tests: a real Act I setup with the Fates the test
names (the draw arranged to offer them), their Setup sides as the Act I flow runs them, the
starting placements and hands; then helpers that arrange the board as a played act left it."""
from __future__ import annotations

from core.plugins import default_registry

import msgspec

from core.flow import Ctx
from core.rng import Rng, seed_state
from core.state import Seat
from plugins.arcs.content import default_box as arcs_box
from plugins.arcs.state import Building, Ships
from plugins.blighted_reach import fates, objectives
from plugins.blighted_reach import setup as br
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.invariants import problems
from plugins.blighted_reach.state import BlightedReachState

BOX, CBOX = arcs_box(), campaign_box()
STEWARD, FOUNDER, MAGNATE, ADVOCATE, CARETAKER, PARTISAN, ADMIRAL, BELIEVER = (f"FATE0{i}" for i in range(1, 9))


def ctx(state: BlightedReachState) -> Ctx:
    """The flow's context for the steps that run Fate effects (the table's rules: a step may
    list actions through the plugin hooks, as the Pirate's Hoard spends do)."""
    return Ctx(state, default_registry().rules_for("blighted-reach", []))


def snapshot(state) -> bytes:
    return msgspec.msgpack.encode(state)


def sound(state: BlightedReachState) -> None:
    """The campaign's invariants: every piece, token, agent and card in one place."""
    found = problems(BOX, CBOX, state)
    assert not found, found


def place_all(state: BlightedReachState) -> None:
    while state.placement_order:
        seat = state.placement_order[0]
        for system in sorted(state.imperial):
            planet = BOX.systems[system]
            if planet is not None and len(state.systems[system].buildings) < planet.slots:
                building = "city" if state.placements_done % 2 == 0 else "starport"
                br.place_start(BOX, CBOX, state, seat, system, building)
                break


def act_one(chosen: list[str], seed: int = 3, starts: dict[int, int] | None = None, roll=None) -> BlightedReachState:
    """Act I set up for these Fates (one per seat), through to the dealt hands."""
    n = len(chosen)
    state = BlightedReachState(game="blighted_reach", seats=[Seat(index=i, name=f"P{i}") for i in range(n)],
                               rng=seed_state(seed))
    br.set_up_act_one(BOX, CBOX, state, Rng(state), roll)
    spare = [f.id for f in CBOX.fates_by_letter("A") if f.id not in chosen]
    for seat, fate in enumerate(chosen):
        state.fate_offers[seat] = [fate, spare[seat]]   # the draw, arranged
        br.choose_fate(state, seat, fate)
    state.play_area = [[] for _ in range(n)]
    run = ctx(state)
    for seat in objectives.turn_order(state):  # as act_flow.fates_chosen does (BR-054)
        fates.run_effects(run, CBOX, seat, fates.objective_card(CBOX, state.fates[seat], state.act).id, "setup")
    objectives.start_objectives(CBOX, state, starts or default_starts(state))
    br.give_first_regent(state)
    place_all(state)
    br.deal_hands(CBOX, state, Rng(state))
    if n == 2:
        br.end_mulligan(state, state.mulligan_open, Rng(state))
    sound(state)
    return state


def default_starts(state: BlightedReachState, space: int = 10) -> dict[int, int]:
    """A start space for every objective fates.json does not record (the table reads it off
    the card); recorded ones are left to the data."""
    starts = {}
    for seat in range(len(state.players)):
        objective = objectives.current_objective(CBOX, state, seat)
        if objective is None or objective.kind == "grand":
            continue
        if objectives.objective_start(objective, len(state.players)) is None:
            starts[seat] = space
    return starts


def end_act(state: BlightedReachState) -> BlightedReachState:
    """The act's last chapter has been scored."""
    state.chapter = objectives.chapters_in_act(CBOX, state.act)
    for hand in state.hands:  # the last round played every card
        state.action_discard.extend(hand)
    state.hands = [[] for _ in state.players]
    return state


def clear_map(state: BlightedReachState) -> None:
    """Every Loyal ship and building back to its owner (a blank map to arrange on)."""
    for here in state.systems.values():
        for seat, ships in enumerate(here.ships):
            state.players[seat].ships += ships.total
        here.ships = [Ships() for _ in state.players]
        for b in [b for b in here.buildings if b.owner >= 0]:
            if b.kind == "starport":
                state.players[b.owner].starports += 1
            else:
                board = state.players[b.owner].cities_on_board
                board[board.index(False)] = True
        here.buildings = [b for b in here.buildings if b.owner < 0]


def put_ships(state: BlightedReachState, seat: int, system: str, fresh: int = 0, damaged: int = 0) -> None:
    state.systems[system].ships[seat].fresh += fresh
    state.systems[system].ships[seat].damaged += damaged
    state.players[seat].ships -= fresh + damaged


def put_building(state: BlightedReachState, seat: int, system: str, kind: str, damaged: bool = False) -> None:
    if kind == "city":
        board = state.players[seat].cities_on_board
        board[board.index(True)] = False
    else:
        state.players[seat].starports -= 1
    state.systems[system].buildings.append(Building(kind=kind, owner=seat, damaged=damaged))


def non_imperial_systems(state: BlightedReachState, planets: bool = True) -> list[str]:
    return [s for s in sorted(state.systems) if s not in state.imperial and (BOX.systems[s] is not None) == planets]


def _spend_no_hoard(state: BlightedReachState) -> None:
    """A Pirate asked to spend its Hoard (F1204) spends nothing: it keeps what fits."""
    from plugins.blighted_reach.fate_pirate import keep_hoard_on_board

    for p in [p for p in state.prompts if p.kind == "hoard_spend"]:
        state.prompts.remove(p)
        keep_hoard_on_board(ctx(state), p.seat, p.args["card"])


def intermission(state: BlightedReachState, picks: dict[int, str] | None = None,
                 eliminated_gate: str = "1G") -> BlightedReachState:
    """Steps A-F with no choice beyond the Fates: a completed objective keeps its Fate unless
    `picks` says otherwise, a failed one takes its first offer."""
    from plugins.blighted_reach import intermission as im

    # These tables take an A Fate where an objective failed (the house rule `a-fates`), so
    # that no later Fate's Setup side asks anything of the next Act's table.
    state.options = {**state.options, "later_fates": "a-fates"}
    im.resolve_fates(ctx(state), CBOX)
    _spend_no_hoard(state)
    im.clear_court(CBOX, state)
    im.clear_pieces(BOX, CBOX, state)
    for seat in im.repair_and_destroy(BOX, CBOX, state):
        im.place_after_elimination(BOX, CBOX, state, seat, eliminated_gate)
    im.shift_initiative_and_power(CBOX, state)
    im.offer_fates(CBOX, state)
    for seat in range(len(state.players)):
        chosen = (picks or {}).get(seat, state.fate_offers[seat][0])
        im.pick_fate(state, seat, chosen)
    im.reveal_fates(CBOX, state)
    return state


def new_table(n: int, seed: int = 5, names=None) -> BlightedReachState:
    """A fresh table (seats and RNG only) to set the next act up on."""
    names = names or [f"P{i}" for i in range(n)]
    return BlightedReachState(game="blighted_reach", seats=[Seat(index=i, name=names[i]) for i in range(n)],
                              rng=seed_state(seed))


def b_fate_intermission(state: BlightedReachState, seat: int, fate: str,
                        others: dict[int, str] | None = None) -> BlightedReachState:
    """Intermission A-F with every objective completed; the seat's offer arranged to hold the
    B Fate `fate` (the B Fates' draw, BR-349) and picked, and likewise each seat of `others`
    its own B Fate; the others keep their Fates."""
    from plugins.blighted_reach import intermission as im

    state.objective_markers = [0] * len(state.players)
    im.resolve_fates(ctx(state), CBOX)
    _spend_no_hoard(state)
    im.clear_court(CBOX, state)
    im.clear_pieces(BOX, CBOX, state)
    for s in im.repair_and_destroy(BOX, CBOX, state):
        im.place_after_elimination(BOX, CBOX, state, s, "1G")
    im.shift_initiative_and_power(CBOX, state)
    state.options = {**state.options, "later_fates": "box"}
    im.offer_fates(CBOX, state)
    picks = {seat: fate, **(others or {})}
    for s, b_fate in picks.items():
        state.fate_offers[s] = [state.fates[s], b_fate]
    for s in range(len(state.players)):
        im.pick_fate(state, s, picks.get(s, state.fates[s]))
    im.reveal_fates(CBOX, state)
    return state
