"""Act II and Act III setup (rulebook "Act II & III Setup", BR-066..BR-076) from a campaign
log sheet, as pure functions in the style of Act I's `setup.py`.

The flow calls, in order:
  `set_up_later_act`          restore the sheet (BR-066) and table steps A-E (no choices)
  `apply_setup_side` per seat in turn order (step F; `setup_order` gives it), and any seat's
                              `rearrange_resources` (its own choice, any time in step F)
  `start_objectives`          step G (the table gives start spaces fates.json lacks)
  `start_first_chapter`       step H, then the 2-player mulligan exactly as in Act I
                              (`setup.mulligan` / `setup.end_mulligan`)
"""
from __future__ import annotations

from collections import Counter

from core.errors import BadParameter, IllegalAction
from core.rng import Rng
from plugins.arcs.content import Box
from plugins.arcs.plays import marker_value
from plugins.arcs.setup import open_slots
from plugins.arcs.state import Marker
from plugins.blighted_reach.campaign import LogSheet, restore
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.fate_sets import apply_setup_side as _apply_setup_side
from plugins.blighted_reach.fate_sets import check_setup_side
from plugins.blighted_reach.intermission import has_ships
from plugins.blighted_reach.objectives import start_objectives as _start_objectives
from plugins.blighted_reach.objectives import turn_order
from plugins.blighted_reach.setup import COUNCIL, SYMBOLS, Roll, deal_hands, rng_roll
from plugins.blighted_reach.state import BlightedReachState, Pieces


# -- table steps A-E ----------------------------------------------------------------------


def flip_markers(box: Box, cbox: CampaignBox, state: BlightedReachState) -> None:
    """A: the lowest-Power marker (Act II) or two (Act III) on its higher side, the others on
    their lower sides, all Available (BR-067, BR-068)."""
    flips = cbox.campaign.later_acts.flip_lowest_ambition_markers[str(state.act)]
    markers = [Marker(m.id) for m in box.board.ambition_markers]
    lowest = sorted(markers, key=lambda m: marker_value(box, m))[:flips]
    state.markers_available = [Marker(m.id, flipped=m in lowest) for m in markers]
    state.ambition_boxes = {a: [] for a in box.board.ambitions}
    state.declared, state.ambition_declared = False, ""


def deal_court(cbox: CampaignBox, state: BlightedReachState, rng: Rng) -> None:
    """B: the Court deck shuffled, 3 or 4 cards dealt after the Imperial Council, which is
    In Session (BR-069)."""
    n = len(state.players)
    deck = list(state.court_deck)
    rng.shuffle(deck)
    dealt = cbox.campaign.later_acts.court_row[str(n)]
    state.council = COUNCIL
    state.court_row, state.court_deck = [COUNCIL, *deck[:dealt]], deck[dealt:]
    state.court_agents = {c: [0] * n for c in state.court_row}


def _blight(state: BlightedReachState, system: str) -> bool:
    """One damaged Blight from the supply, if any is left (G-3)."""
    if state.blight_supply <= 0:
        return False
    state.blight.setdefault(system, Pieces()).damaged += 1
    state.blight_supply -= 1
    return True


def _has_blight(state: BlightedReachState, system: str) -> bool:
    return state.blight.get(system) is not None and state.blight[system].total > 0


def blight_empty_gates(box: Box, cbox: CampaignBox, state: BlightedReachState) -> list[str]:
    """C: 1 damaged Blight on each gate with no Blight and no ship of anyone's (BR-070)."""
    per = cbox.campaign.later_acts.blight_on_empty_gates
    placed = []
    for cluster in box.map.clusters:
        gate = cluster.gate
        if not _has_blight(state, gate) and not has_ships(state, gate):
            if all(_blight(state, gate) for _ in range(per)):
                placed.append(gate)
    return placed


def blight_rolled_symbol(box: Box, state: BlightedReachState, symbol: str) -> list[str]:
    """D: in each cluster, 1 damaged Blight on the rolled symbol's planet if it has none
    (BR-071); if it has some, 1 on each planet of that cluster with none (BR-072)."""
    placed = []
    for cluster in box.map.clusters:
        target = next((p.id for p in cluster.planets if p.symbol == SYMBOLS[symbol]), None)
        if target is None:
            continue
        if _has_blight(state, target):
            spots = [p.id for p in cluster.planets if not _has_blight(state, p.id)]
        else:
            spots = [target]
        placed += [s for s in spots if _blight(state, s)]
    return placed


def two_player_tokens(box: Box, cbox: CampaignBox, state: BlightedReachState, clusters: list[int]) -> None:
    """E, 2 players: each rolled cluster's planets put their resource on the ambition boxes
    as in Act I step Q, as far as the supply goes (BR-073).
    Reading: the same cluster rolled twice places its tokens twice, as two rolls of one
    cluster each."""
    mapping = cbox.campaign.later_acts.two_player_ambition_tokens
    state.ambition_tokens = {a: list(state.ambition_tokens.get(a, [])) for a in box.board.ambitions}
    for cluster in clusters:
        for planet in next(c for c in box.map.clusters if c.id == cluster).planets:
            if state.supply.get(planet.type, 0) > 0:
                state.ambition_tokens[mapping[planet.type]].append(planet.type)
                state.supply[planet.type] -= 1


def set_up_later_act(box: Box, cbox: CampaignBox, state: BlightedReachState, log: LogSheet,
                     rng: Rng | None = None, roll: Roll | None = None) -> None:
    """The sheet restored (BR-066) and table steps A-E on a fresh state whose seats are set.
    Die rolls go through `roll` as in Act I."""
    rng = rng or Rng(state)
    roll = roll or rng_roll(rng)
    restore(state, log)
    state.chapter = 1
    flip_markers(box, cbox, state)
    deal_court(cbox, state, rng)
    blight_empty_gates(box, cbox, state)
    symbol = str(roll("event", list(cbox.box.event_die_symbols)))
    state.rolls = {"event": symbol}
    blight_rolled_symbol(box, state, symbol)
    if len(state.players) == 2:
        rolls = [int(roll("number", list(cbox.box.number_die)))
                 for _ in range(cbox.campaign.later_acts.two_player_number_rolls)]
        state.rolls["number"] = ",".join(str(r) for r in rolls)
        two_player_tokens(box, cbox, state, rolls)
    state.placement_order, state.placements_done = [], 0


# -- step F: Setup sides and resources (BR-074) -------------------------------------------


def setup_order(state: BlightedReachState) -> list[int]:
    """The seats' Setup sides in turn order (simultaneous play is the table's shortcut)."""
    return turn_order(state)


def apply_setup_side(box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int, rng: Rng | None = None) -> None:
    """The seat performs the Setup side of its objective card for this act."""
    _apply_setup_side(box, cbox, state, seat, rng or Rng(state))


def check_setup_sides(cbox: CampaignBox, state: BlightedReachState) -> None:
    """Every seat's Setup side has its rules (a missing handler is found before any runs)."""
    for seat in setup_order(state):
        check_setup_side(cbox, state, seat)


def check_rearrange(box: Box, state: BlightedReachState, seat: int, row: list[str | None]) -> None:
    """A new order of the seat's own resource tokens: the same tokens, in open slots only."""
    player = state.players[seat]
    if len(row) != len(player.resources):
        raise BadParameter(f"a resource row has {len(player.resources)} slots")
    if Counter(r for r in row if r) != Counter(r for r in player.resources if r):
        raise BadParameter("rearranging keeps the same tokens")
    open_ = set(open_slots(box, player))
    if any(r is not None and i not in open_ for i, r in enumerate(row)):
        raise BadParameter("a city covers one of those slots")


def rearrange_resources(box: Box, state: BlightedReachState, seat: int, row: list[str | None]) -> None:
    """BR-074: during step F each player may rearrange their resource tokens (their choice;
    the flow offers it in step F only)."""
    check_rearrange(box, state, seat, row)
    state.players[seat].resources = list(row)


# -- steps G and H ------------------------------------------------------------------------


def start_objectives(cbox: CampaignBox, state: BlightedReachState, starts: dict[int, int] | None = None) -> None:
    """G: markers on their start spaces; in Act III only C Fates' (BR-075)."""
    _start_objectives(cbox, state, starts)


def start_first_chapter(cbox: CampaignBox, state: BlightedReachState, rng: Rng | None = None) -> None:
    """H: the chapter tile on this act's side (`state.act`), the marker on chapter 1, then
    hands of 6 from the shuffled action deck; with 2 players the seat without initiative may
    mulligan, otherwise the rest is discarded (BR-076)."""
    if state.hands and any(state.hands):
        raise IllegalAction("the hands are already dealt")
    rng = rng or Rng(state)
    state.chapter = 1
    deck = [*state.action_deck, *state.action_discard]
    rng.shuffle(deck)
    state.action_deck, state.action_discard = deck, []
    deal_hands(cbox, state, rng)
