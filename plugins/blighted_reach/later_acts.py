"""Act II and Act III setup (rulebook "Act II & III Setup", BR-066..BR-076) from a campaign
log sheet, as pure functions in the style of Act I's `setup.py`.

The flow calls, in order:
  `set_up_later_act`          restore the sheet (BR-066) and table steps A-E (no choices)
  `check_setup_sides`, then `apply_setup_side(ctx, ...)` per seat in turn order (step F;
                              `setup_order` gives it), and any seat's `rearrange_resources`
                              (its own choice, any time in step F)
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
from plugins.blighted_reach import blight
from plugins.blighted_reach.campaign import LogSheet, restore
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.council import IN_SESSION
from plugins.blighted_reach.fate_steps import RuleMissing, check_side, fate_card, run_side
from plugins.blighted_reach.objectives import start_objectives as _start_objectives
from plugins.blighted_reach.objectives import turn_order
from plugins.blighted_reach.setup import Roll, deal_hands, rng_roll
from plugins.blighted_reach.state import BlightedReachState


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
    state.council, state.council_secured_by = IN_SESSION, -1
    state.court_row, state.court_deck = [IN_SESSION, *deck[:dealt]], deck[dealt:]
    state.court_agents = {c: [0] * n for c in state.court_row}


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
    blight.spread_to_empty_gates(box, state)             # C (BR-070)
    symbol = str(roll("event", list(cbox.box.event_die_symbols)))
    state.rolls = {"event": symbol}
    blight.spread_by_symbol(box, state, symbol)          # D (BR-071, BR-072)
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


def setup_card(cbox: CampaignBox, state: BlightedReachState, seat: int) -> str:
    card = fate_card(cbox, state.fates[seat], state.act, "setup")
    if card is None:
        raise RuleMissing(f"{cbox.fates[state.fates[seat]].name} has no objective card for Act {state.act}")
    return card.id


def check_setup_sides(cbox: CampaignBox, state: BlightedReachState) -> None:
    """Every seat's Setup side has its rules: a missing handler is found before any runs."""
    for seat in setup_order(state):
        check_side(cbox, state.fates[seat], setup_card(cbox, state, seat), "setup")


def apply_setup_side(ctx, cbox: CampaignBox, seat: int) -> None:
    """The seat performs the Setup side of its objective card for this act (through the Fate
    machinery, `ctx` the flow's context); the card then shows its Objective side."""
    state = ctx.state
    run_side(ctx, cbox, seat, state.fates[seat], setup_card(cbox, state, seat), "setup")


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
