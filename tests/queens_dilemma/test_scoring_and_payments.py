"""The Queen's Dilemma: Ideology scoring, Power scoring, Infamy tiers and forced payments,
with the rulebook's worked examples (Xanthe's and Lyrie's scoring, Elinor's Infamy,
Aesyas's Gold). Payments are played through the engine."""
from __future__ import annotations

import pytest

from core import Action, Registry, create_table
from core.errors import BadParameter
from plugins.queens_dilemma.economy import can_afford
from plugins.queens_dilemma.scoring import (
    Balanced, Favored, IdeologyBoard, IdeologyCard, ideology_score, infamy_tier, power_scoring, push, winning,
)
from tests.queens_dilemma import council


def board(sliders=None, tokens=None) -> IdeologyBoard:
    b = IdeologyBoard()
    b.sliders.update(sliders or {})
    b.tokens.update(tokens or {})
    return b


def test_xanthes_scoring_example():
    """QD-235 (and QD-229, QD-230): Favored Order (2 tokens, not winning) scores 2; Favored
    Force (2 tokens, winning, +1) scores 3: 5 Hegemony."""
    card = IdeologyCard(id="demo-x", character="Xanthe", number=2,
                        favored=[Favored("order", 3), Favored("force", 1)])
    b = board(sliders={"order": 2, "force": -1}, tokens={"order": 2, "force": 2})  # Liberty and Force ahead
    assert not winning(b, "order") and winning(b, "force")
    assert ideology_score(card, b) == {"hegemony": 5, "independence": 0}


def test_lyries_scoring_example():
    """QD-236, QD-237 (and QD-232, QD-233, QD-234): Liberty 3 tokens + winning bonus 3 = 6;
    Balanced Force/Diplomacy 1 and 0 tokens gives 1 Independence, its Slider on a silver
    space adds 2: 8 Hegemony and 1 Independence."""
    card = IdeologyCard(id="demo-l", character="Lyrie", number=3,
                        favored=[Favored("liberty", 3)], balanced=[Balanced(["force", "diplomacy"])])
    b = board(sliders={"order": 3, "force": -1}, tokens={"liberty": 3, "force": 1, "diplomacy": 0})
    assert ideology_score(card, b) == {"hegemony": 8, "independence": 1}


def test_winning_needs_the_sliders_half_and_the_centre_wins_for_nobody():
    """QD-228; QD-231 reading: a Favored Ideology without tokens gives 1 Independence and
    keeps its winning bonus."""
    b = board()
    assert not winning(b, "tradition") and not winning(b, "progress")
    card = IdeologyCard(id="d", character="Aesyas", number=1, favored=[Favored("progress", 3)])
    assert ideology_score(card, b) == {"hegemony": 0, "independence": 1}
    assert push(b, "progress", 2) == 2 and winning(b, "progress")
    assert ideology_score(card, b) == {"hegemony": 1 + 3, "independence": 0}
    assert push(b, "progress", 9) == 2  # the Slider stops at the end; the rest is wasted
    assert b.tokens["progress"] == 2     # a token each time the Ideology wins a vote


def test_power_scoring_and_ties():
    """QD-238, QD-239, QD-240 (ruling QD-R6: dense ranks, 0 Power ranks like any amount)."""
    assert power_scoring([5, 3, 1, 0]) == [2, 1, 0, 0]
    assert power_scoring([4, 4, 2, 1]) == [2, 2, 1, 0]
    assert power_scoring([3, 1, 1, 0]) == [2, 1, 1, 0]
    assert power_scoring([3, 0, 0, 0]) == [2, 1, 1, 1]  # second-most with nothing left
    assert power_scoring([2, 2, 0]) == [2, 2, 1]


def test_power_scoring_everyone_equal_gets_2_qd_r6():
    """QD-238, QD-240, ruling QD-R6: when everyone has the same Power left, 0 included,
    everyone gets 2 Independence."""
    assert power_scoring([0, 0, 0]) == [2, 2, 2]
    assert power_scoring([4, 4, 4, 4]) == [2, 2, 2, 2]


def test_infamy_tiers():
    """QD-271, QD-272: a tier per 5 Infamy; only the last full tier counts."""
    assert [infamy_tier(n) for n in (0, 4, 5, 9, 10, 14)] == [0, 0, 1, 1, 2, 2]


@pytest.fixture(scope="module")
def registry():
    return Registry([council], load_entry_points=False)


def forced_table(registry, resources, forced):
    return create_table("qd-council", 3, seed=2, registry=registry,
                        options={"resources": resources, "forced": forced})


def test_elinors_infamy_example(registry):
    """QD-282 (and QD-277): owing 3 Army with 1 in the Treasury, Elinor pays her last Army and
    takes 2 Infamy; refusing entirely would have been 3 Infamy."""
    t = forced_table(registry, [{"army": 1}, {}, {}], [[0, "army", 3]])
    options = [dict(o.params) for o in t.legal(0)]
    assert {"resource": 0, "gold": 0, "infamy": 3} in options
    assert {"resource": 1, "gold": 0, "infamy": 2} in options
    assert all(o["resource"] <= 1 for o in options)  # she cannot pay Army she does not have
    t.act(0, Action("pay", {"resource": 1, "gold": 0, "infamy": 2}))
    me = t.state.councilors[0]
    assert me.resources["army"] == 0 and me.infamy == 2


def test_aesyass_gold_example(registry):
    """QD-283 (and QD-280, QD-281): owing 3 Army with 2 Army and plenty of Gold, Aesyas pays
    2 Army and 2 Gold in place of the third."""
    t = forced_table(registry, [{"army": 2, "gold": 5}, {}, {}], [[0, "army", 3]])
    with pytest.raises(BadParameter):  # 1 Gold is not a unit: Gold goes in pairs
        t.act(0, Action("pay", {"resource": 2, "gold": 1, "infamy": 0}))
    t.act(0, Action("pay", {"resource": 2, "gold": 2, "infamy": 0}))
    me = t.state.councilors[0]
    assert me.resources == {"gold": 3, "food": 0, "army": 0, "materials": 0} and me.infamy == 0


def test_a_player_with_nothing_to_pay_takes_the_infamy_without_a_choice(registry):
    """QD-277: nothing to pay with: the loss is all Infamy (a forced choice, taken at once)."""
    t = forced_table(registry, [{}, {}, {}], [[1, "food", 2]])
    assert t.state.councilors[1].infamy == 2


def test_deliberate_costs_must_be_paid_in_full():
    """QD-278 and QD-280: a deliberate cost is affordable only in full, 2 Gold per missing unit."""
    assert can_afford({"army": 2, "gold": 2}, {"army": 3})
    assert not can_afford({"army": 2, "gold": 1}, {"army": 3})
    assert not can_afford({"gold": 3}, {"gold": 4})
    assert can_afford({"gold": 5, "food": 0}, {"gold": 1, "food": 2})


def test_taxes_discard_half_rounded_up_in_kind_only():
    """QD-253, QD-254 (5 -> 2, 1 -> 0), QD-255 (none held, none paid), QD-256/QD-257 (no
    Infamy, no Gold instead: Gold is untouched)."""
    from plugins.queens_dilemma.economy import tax

    r = {"army": 5, "gold": 6}
    assert tax(r, "army") == 3 and r == {"army": 2, "gold": 6}
    r = {"food": 1}
    assert tax(r, "food") == 1 and r["food"] == 0
    r = {"materials": 0, "gold": 4}
    assert tax(r, "materials") == 0 and r == {"materials": 0, "gold": 4}


def test_investments_are_all_or_nothing_with_gold_pairs_and_never_infamy():
    """QD-241, QD-242, QD-243, QD-244, QD-245 (game 1: Bag value 3)."""
    from plugins.queens_dilemma.economy import investment

    r = {"food": 3, "gold": 0}
    assert investment(r, "food", 3, pay=True) == "success" and r["food"] == 0
    r = {"food": 2, "gold": 2}
    assert investment(r, "food", 3, pay=True) == "success" and r == {"food": 0, "gold": 0}
    r = {"food": 2, "gold": 1}
    assert investment(r, "food", 3, pay=True) == "failure" and r == {"food": 2, "gold": 1}  # nothing paid
    r = {"food": 5}
    assert investment(r, "food", 3, pay=False) == "failure" and r == {"food": 5}  # payment is voluntary
