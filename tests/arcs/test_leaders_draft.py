"""Leaders & Lore setup as pure rules (digest section 12): the rows, the reverse-order
draft, what may be picked, the Leaders' starting layouts, the two-Lore variant and the
Leaders' setup instructions."""
from __future__ import annotations

import pytest

from core.errors import BadParameter, IllegalAction
from core.rng import Rng
from plugins.arcs import leaders
from plugins.arcs.invariants import problems
from plugins.arcs.setup import open_slots
from plugins.arcs.state import Ships
from tests.arcs.test_actions import BOX, bare
from tests.arcs.test_lore_cards import refused


def shuffler(state):
    rng = Rng(state)
    return lambda items, what: rng.shuffle(items)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rows_hold_players_plus_one_and_one_more_lore_each_in_the_variant_ARCS_262_266(players):
    """ARCS-262: players + 1 Leaders and players + 1 Lore face up; ARCS-266: the variant lays
    out one more Lore card per player (2 x players + 1)."""
    state = bare(players)
    row_leaders, row_lore = leaders.deal_rows(BOX, players, shuffler(state))
    assert (len(row_leaders), len(row_lore)) == (players + 1, players + 1)
    assert set(row_leaders) <= set(BOX.leaders) and set(row_lore) <= set(BOX.lore)
    row_leaders, row_lore = leaders.deal_rows(BOX, players, shuffler(state), lore_per_player=2)
    assert (len(row_leaders), len(row_lore)) == (players + 1, 2 * players + 1)
    assert len(set(row_lore)) == len(row_lore)


@pytest.mark.parametrize("initiative, order", [(0, [3, 2, 1, 0]), (2, [1, 0, 3, 2])])
def test_draft_goes_in_reverse_turn_order_holder_last_ARCS_263(initiative, order):
    """ARCS-263: the first pick is the seat to the initiative holder's right, then on
    counter-clockwise; round after round until each seat has a Leader and a Lore card."""
    state = bare(4)
    state.initiative = initiative
    assert leaders.draft_order(state) == order
    seen = []
    row_leaders, row_lore = leaders.deal_rows(BOX, 4, shuffler(state))
    while (seat := leaders.next_picker(state)) is not None:
        seen.append(seat)
        allowed = leaders.allowed_picks(BOX, state, seat, row_leaders, row_lore)
        pick = allowed[0] if len(seen) % 2 else allowed[-1]  # some take a Leader first, some a Lore
        leaders.take_pick(BOX, state, seat, row_leaders, row_lore, pick)
    assert seen == order * 2
    assert all(p.leader in BOX.leaders and len(p.lore) == 1 for p in state.players)
    assert len(row_leaders) == 1 and len(row_lore) == 1
    assert len({p.leader for p in state.players}) == 4


def test_a_pick_refused_changes_nothing_ARCS_263():
    """ARCS-263: one card from a row, by the seat whose pick it is, never a second of a type."""
    state = bare(3)
    state.initiative = 0
    row_leaders, row_lore = leaders.deal_rows(BOX, 3, shuffler(state))
    first = leaders.next_picker(state)
    assert first == 2
    refused(leaders.check_pick, state, BOX, state, 1, row_leaders, row_lore, row_leaders[0], error=IllegalAction)
    refused(leaders.check_pick, state, BOX, state, 2, row_leaders, row_lore, "LEAD99", error=BadParameter)
    out_of_row = next(c for c in BOX.lore if c not in row_lore)
    refused(leaders.check_pick, state, BOX, state, 2, row_leaders, row_lore, out_of_row, error=BadParameter)
    leaders.take_pick(BOX, state, 2, row_leaders, row_lore, row_leaders[0])
    leaders.take_pick(BOX, state, 1, row_leaders, row_lore, row_lore[0])
    leaders.take_pick(BOX, state, 0, row_leaders, row_lore, row_lore[0])
    assert leaders.next_picker(state) == 2
    refused(leaders.check_pick, state, BOX, state, 2, row_leaders, row_lore, row_leaders[0], error=IllegalAction)
    assert leaders.allowed_picks(BOX, state, 2, row_leaders, row_lore) == row_lore
    leaders.check_pick(BOX, state, 2, row_leaders, row_lore, row_lore[0])


def test_two_lore_variant_three_picks_each_ARCS_266():
    """ARCS-266: drafting goes on until every seat has 1 Leader and 2 Lore."""
    state = bare(2)
    state.initiative = 1
    row_leaders, row_lore = leaders.deal_rows(BOX, 2, shuffler(state), lore_per_player=2)
    seen = []
    while (seat := leaders.next_picker(state, 2)) is not None:
        seen.append(seat)
        allowed = leaders.allowed_picks(BOX, state, seat, row_leaders, row_lore, 2)
        leaders.check_pick(BOX, state, seat, row_leaders, row_lore, allowed[-1], 2)
        leaders.take_pick(BOX, state, seat, row_leaders, row_lore, allowed[-1])
    assert seen == [0, 1] * 3
    assert all(p.leader and len(p.lore) == 2 for p in state.players)
    assert len(row_lore) == 1


@pytest.mark.parametrize("leader", sorted(BOX.leaders))
def test_each_leader_layout_replaces_the_standard_pieces_ARCS_264_267(leader):
    """ARCS-264/267: the Leader's A, B and C boxes go to the seat's setup-card A, B and C
    systems, its two resources into slots 1 and 2 in printed order; cities leave the board
    leftmost first, opening their slots (ARCS-211)."""
    state = bare(3)
    state.initiative = 1
    seat = 2  # position 2 on the card (ARCS-052)
    state.players[seat].leader = leader
    leaders.place_layout(BOX, state, seat)
    card, data = BOX.setups[state.setup_card], BOX.leaders[leader]
    spot = card.positions[1]
    for placement, system in ((data.a, spot.a), (data.b, spot.b), (data.c, spot.c[0])):
        here = state.systems[system]
        assert here.ships[seat] == Ships(fresh=placement.ships)
        assert [b.kind for b in here.buildings if b.owner == seat] == ([placement.building] if placement.building else [])
    assert state.players[seat].resources[:2] == data.resources
    cities = sum(p.building == "city" for p in (data.a, data.b, data.c))
    assert state.players[seat].cities_on_board == [False] * cities + [True] * (5 - cities)
    assert len(open_slots(BOX, state.players[seat])) == 2 + cities
    assert problems(BOX, state) == []


def test_layout_numbers_from_the_digest_table_ARCS_267():
    """ARCS-267 spot checks: Upstart 4 ships with its city, Rebel 4 + starport and 4 bare,
    Feastbringer two cities and 3 ships in C, Mystic Psionic then Relic."""
    L = BOX.leaders
    assert (L["LEAD04"].a.ships, L["LEAD04"].a.building) == (4, "city")
    assert (L["LEAD05"].a.ships, L["LEAD05"].a.building, L["LEAD05"].b.ships, L["LEAD05"].b.building) == \
        (4, "starport", 4, None)
    assert (L["LEAD07"].b.building, L["LEAD07"].c.ships) == ("city", 3)
    assert L["LEAD02"].resources == ["psionic", "relic"]


def test_two_player_leader_c_entry_goes_to_both_c_systems_ARCS_055_267():
    """ARCS-055: 2-player cards have two C systems; ruling A-R5: the Leader's C entry goes to each."""
    state = bare(2)
    state.initiative = 0
    state.players[0].leader = "LEAD07"  # C: 3 ships
    leaders.place_layout(BOX, state, 0)
    for system in BOX.setups[state.setup_card].positions[0].c:
        assert state.systems[system].ships[0] == Ships(fresh=3)
    assert state.players[0].ships == 15 - 3 - 3 - 3 - 3


def test_layout_needs_a_leader():
    state = bare(3)
    refused(leaders.place_layout, state, BOX, state, 0, error=IllegalAction)


def test_setup_instructions_after_the_draft_in_turn_order_ARCS_265():
    """ARCS-265: the Leaders' setup instructions (Cryptic) run after the draft, in turn order."""
    state = bare(4)
    state.initiative = 2
    for seat, leader in enumerate(["LEAD02", "LEAD01", "LEAD03", "LEAD04"]):
        state.players[seat].leader = leader
    assert leaders.setup_instructions(BOX, state) == {0: ["material", "fuel"]}
    assert state.players[0].outrage == ["material", "fuel"]
    assert all(p.outrage == [] for p in state.players[1:])
    assert problems(BOX, state) == []
