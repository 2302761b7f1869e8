"""The digest's test vectors (section 16) played through the engine, not only on the rule
parts: a table created as a client creates one, answers sent as a client sends them."""
from __future__ import annotations

import pytest

from core.errors import IllegalAction
from plugins.arcs.content import default_box
from plugins.arcs.state import Marker, Trophy
from tests.arcs.flow_helpers import act, answer, put, restart_round, table
from tests.arcs.test_rules_b_pieces import city
from tests.arcs.test_rules_b_turn import bare, lead, refused

BOX = default_box()


@pytest.mark.parametrize("card", sorted(BOX.setups))
def test_every_setup_card_deals_the_initial_state_vectors_ARCS_316_317(card):
    """ARCS-316: 3 open slots, 2 resources in slots 1-2, 4 cities on the board, 4 starports
    and 10 agents in supply, 6 cards, 7 ships in supply (5 with 2 players); ARCS-317: the
    action deck is 20 cards for 2-3 players, 28 for 4, and 8 / 2 / 4 stay in the discard."""
    players = BOX.setups[card].players
    t = table(players, seed=3, setup_card=card)
    s = t.state
    assert s.setup_card == card
    for seat, p in enumerate(s.players):
        assert len(s.hands[seat]) == 6
        assert p.resources[0] and p.resources[1] and p.resources[2:] == [None] * 4
        assert sum(p.cities_on_board) == 4 and p.starports == 4 and p.agents == 10
        assert p.ships == (5 if players == 2 else 7)
    assert len(s.action_discard) == {2: 8, 3: 2, 4: 4}[players]
    in_play = sum(len(h) for h in s.hands) + len(s.action_discard) + len(s.action_deck)
    assert in_play == (28 if players == 4 else 20)


def test_control_vector_decides_a_rival_tax_ARCS_319():
    """ARCS-319: fresh ships 3 / 3 / 1 in a system: nobody controls it, so seat 0 may not tax
    seat 1's city there; seat 0 with 2 fresh and 3 damaged against seat 1's 1 fresh controls
    it, and the tax goes through (damaged ships count for nothing)."""
    t = bare()
    lead(t, "ADM4")
    city(t, "2.3", 1)
    put(t, "2.3", 0, fresh=3)
    put(t, "2.3", 1, fresh=3)
    put(t, "2.3", 2, fresh=1)
    refused(t, 0, {"act": "tax", "system": "2.3", "building": 0}, IllegalAction)

    t = bare()
    lead(t, "ADM4")
    city(t, "2.3", 1)
    put(t, "2.3", 0, fresh=2, damaged=3)
    put(t, "2.3", 1, fresh=1)
    act(t, 0, "tax", system="2.3", building=0)
    assert t.state.players[0].captives == [1]


def test_warlord_vector_scored_at_a_chapter_end_ARCS_324():
    """ARCS-324: markers B (3/2) and A (5/3) on Warlord; seats with 4, 4 and 1 Trophies: the
    chapter ends (every seat passes) and the two tied firsts each gain 5 (the second-place
    sum), the third nothing."""
    t = bare()
    s = t.state
    s.ambition_boxes = {"warlord": [Marker("B"), Marker("A")]}
    for seat, n in enumerate((4, 4, 1)):
        s.players[seat].trophies = [Trophy(owner=(seat + 1) % 3, kind="ship") for _ in range(n)]
    before = [p.power for p in s.players]
    restart_round(t, [["ADM4"], ["MOB2"], ["MOB3"]], initiative=0)
    for seat in (0, 1, 2):
        answer(t, seat, "pass")
    assert t.state.chapter == 2
    assert [p.power - b for p, b in zip(t.state.players, before)] == [5, 5, 0]
