"""The Queen's Dilemma seat-order rules: seat bonuses, the Moderator, region picks by player
count, the Investment draft order, the Ideology card kept."""
from __future__ import annotations

import pytest

from plugins.queens_dilemma.council_rules import (
    INVESTMENTS_USED, REGIONS, investment_draft_order, kept_ideology_card, region_pick_order, seat_bonuses,
)


def test_seat_bonuses_follow_the_clockwise_position_from_the_leader():
    """QD-039, QD-040, QD-041, QD-042, QD-043, QD-044, QD-046."""
    bonuses, moderator = seat_bonuses(6, leader=2)
    assert bonuses[2] == {} and bonuses[3] == {"power": 1} and bonuses[4] == {"independence": 1}
    assert bonuses[5] == {"power": 1, "independence": 1}
    assert bonuses[0] == bonuses[1] == {"power": 1, "gold": 1, "independence": 1}
    assert moderator == 1  # the Leader's right


def test_three_players_get_nothing_one_power_one_independence():
    """QD-045, QD-046."""
    bonuses, moderator = seat_bonuses(3, leader=0)
    assert [bonuses[s] for s in (0, 1, 2)] == [{}, {"power": 1}, {"independence": 1}] and moderator == 2


@pytest.mark.parametrize("players,mains,vassals", [(6, 12, 0), (5, 10, 2), (4, 8, 4), (3, 9, 3)])
def test_region_picks_give_all_twelve_regions_one_owner(players, mains, vassals):
    """QD-050, QD-051 (clockwise from the Leader, then counter-clockwise from the Moderator),
    QD-054, QD-055, QD-056, QD-057, QD-058 (counts; Vassals after every Main)."""
    leader = 1
    _, moderator = seat_bonuses(players, leader)
    order = region_pick_order(players, leader, moderator)
    assert len(order) == len(REGIONS) == 12
    kinds = [k for _, k in order]
    assert kinds.count("main") == mains and len(kinds) - mains == vassals
    assert "main" not in kinds[mains:]  # Vassal picks come after all Main picks
    seats = [s for s, _ in order]
    assert seats[:players] == [(leader + i) % players for i in range(players)]
    assert seats[players:2 * players] == [(moderator - i) % players for i in range(players)]


def test_five_players_the_moderator_picks_a_vassal_and_the_last_goes_to_their_right():
    """QD-055."""
    order = region_pick_order(5, leader=0, moderator=4)
    assert order[-2:] == [(4, "vassal"), (3, "vassal-auto")]


def test_investment_draft_goes_from_least_hegemony_ties_nearest_the_leader():
    """QD-108, QD-109, QD-110."""
    assert investment_draft_order([0, 0, 0, 0], leader=2) == [2, 3, 0, 1]  # the first game
    assert investment_draft_order([5, 1, 3, 1], leader=3) == [3, 1, 2, 0]


def test_investment_cards_used_by_player_count():
    """QD-105, QD-106, QD-107."""
    assert INVESTMENTS_USED == {6: 7, 5: 6, 4: 5, 3: 5}


def test_the_higher_numbered_ideology_card_is_kept():
    """QD-088, QD-089."""
    assert kept_ideology_card([("I3", 3), ("I5", 5)]) == "I5"
    assert kept_ideology_card([("I1a", 1), ("I1b", 1)]) == "I1a"
