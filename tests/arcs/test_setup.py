"""Standard setup of a single-session game (digest section 3), and the piece invariants
that every later action must keep."""
from __future__ import annotations

import pytest

from core.rng import seed_state
from core.state import Seat
from plugins.arcs.content import default_box
from plugins.arcs.invariants import problems
from plugins.arcs.setup import open_slots, set_up
from plugins.arcs.state import ArcsState, Trophy

BOX = default_box()


def new_state(players: int, seed: int, setup_card: str = "") -> ArcsState:
    state = ArcsState(game="arcs", seats=[Seat(index=i) for i in range(players)], rng=seed_state(seed))
    set_up(BOX, state, setup_card)
    return state


@pytest.mark.parametrize("card", sorted(BOX.setups))
def test_initial_state_vector_ARCS_316_317_on_every_setup_card(card):
    """ARCS-316: each player has 3 open slots, 2 resources in slots 1-2, 4 cities on the board,
    4 starports and 10 agents in supply, 6 cards, and 7 ships in supply (5 with 2 players);
    ARCS-317: 20 cards for 2-3 players (8 or 2 left in the discard), 28 for 4 (4 left)."""
    players = BOX.setups[card].players
    state = new_state(players, 7, card)
    for seat, p in enumerate(state.players):
        assert len(state.hands[seat]) == 6
        assert len(open_slots(BOX, p)) == 3
        assert p.resources[0] and p.resources[1] and p.resources[2:] == [None] * 4
        assert sum(p.cities_on_board) == 4 and p.starports == 4 and p.agents == 10
        assert p.ships == (5 if players == 2 else 7)
    assert len(state.action_discard) == {2: 8, 3: 2, 4: 4}[players]
    assert problems(BOX, state) == []


def test_positions_pieces_and_resources_ARCS_052_to_058():
    """ARCS-052: position 1 is the initiative holder, then clockwise; ARCS-053/054/055: 3 ships
    and the leftmost city in A, 3 ships and a starport in B, 2 ships in each C, all fresh
    (ARCS-056); ARCS-057: A's resource in slot 1, B's in slot 2; ARCS-058: 3 open slots."""
    state = new_state(4, 3, "4SETUP02")
    card = BOX.setups["4SETUP02"]
    for position, spot in enumerate(card.positions):
        seat = (state.initiative + position) % 4
        a, b, c = state.systems[spot.a], state.systems[spot.b], state.systems[spot.c[0]]
        assert (a.ships[seat].fresh, a.ships[seat].damaged) == (3, 0)
        assert [(x.kind, x.owner, x.damaged) for x in a.buildings] == [("city", seat, False)]
        assert (b.ships[seat].fresh, [(x.kind, x.owner) for x in b.buildings]) == (3, [("starport", seat)])
        assert c.ships[seat].fresh == 2
        p = state.players[seat]
        assert p.resources[:2] == [BOX.systems[spot.a].type, BOX.systems[spot.b].type]
        assert p.cities_on_board == [False, True, True, True, True]
        assert open_slots(BOX, p) == [0, 1, 2]


def test_initiative_court_and_setup_card_are_drawn_at_random_ARCS_041_046_047():
    """ARCS-041: a random initiative holder; ARCS-047: a random setup card of the count;
    ARCS-046 (ruling A-R2): a Court row of 3 with 2 players, 4 with 3-4, from a shuffled deck."""
    holders, cards, rows = set(), set(), set()
    for seed in range(40):
        state = new_state(3, seed)
        holders.add(state.initiative)
        cards.add(state.setup_card)
        rows.add(tuple(state.court_row))
        assert len(state.court_row) == 4 and len(state.court_deck) == 27
    assert holders == {0, 1, 2}
    assert cards == {c for c, s in BOX.setups.items() if s.players == 3}
    assert len(rows) > 30
    assert len(new_state(2, 1).court_row) == 3


def test_out_of_play_clusters_and_two_player_tokens_ARCS_048_049():
    """ARCS-048: the card's clusters leave the map; ARCS-049: with 2 players the covered
    planets' tokens leave the supply for the ambition boxes."""
    state = new_state(2, 5, "2SETUP01")  # clusters 1 and 6 out
    assert not any(s[0] in "16" for s in state.systems) and len(state.systems) == 16
    assert sorted(state.ambition_tokens["tycoon"]) == ["fuel", "fuel", "material", "material"]
    assert state.supply["material"] + 2 + sum(p.resources.count("material") for p in state.players) == 5
    assert problems(BOX, state) == []


def test_hands_and_discard_are_hidden_orders_ARCS_059_061():
    """ARCS-059: six cards each; ARCS-061: the rest face down as the shuffled discard pile;
    two seeds give different deals."""
    a, b = new_state(4, 11), new_state(4, 12)
    assert a.hands != b.hands
    assert a.action_deck == [] and len(a.action_discard) == 4


def test_invariants_catch_a_piece_in_two_places_or_none():
    """The checker itself: a ship, a resource, a card or an agent out of its count is reported."""
    state = new_state(3, 2)
    state.players[0].ships -= 1  # index 0: Seat 1
    state.supply["relic"] += 1
    state.hands[1].append(state.hands[2][0])
    state.players[2].trophies.append(Trophy(owner=1, kind="agent"))
    found = problems(BOX, state)
    assert any("Seat 1 has 14 ships" in p for p in found)
    assert any("relic" in p for p in found)
    assert any("action cards" in p for p in found)
    assert any("Seat 2 has 11 agents" in p for p in found)
