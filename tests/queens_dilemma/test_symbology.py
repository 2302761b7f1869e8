"""Chronicle card triggers and targets."""
from plugins.queens_dilemma.scoring import Balanced, Favored, IdeologyBoard, IdeologyCard
from plugins.queens_dilemma.symbology import building_count, majority, minority, scoring_for, triggered
from plugins.queens_dilemma.voting import Councilor


def test_win_max_and_lose_triggers():
    """QD-365, QD-366, QD-367."""
    b = IdeologyBoard()
    assert not any(triggered(k, i, b) for k in ("win", "lose", "max") for i in ("force", "diplomacy"))
    b.sliders["force"] = -2  # toward Force
    assert triggered("win", "force", b) and triggered("lose", "diplomacy", b)
    assert not triggered("max", "force", b) and not triggered("win", "diplomacy", b)
    b.sliders["force"] = -4
    assert triggered("max", "force", b)


def test_majority_and_minority_target_every_tied_player():
    """QD-369, QD-370 (Resources, points or Power)."""
    cs = [Councilor(seat=0, power=3), Councilor(seat=1, power=5), Councilor(seat=2, power=5)]
    cs[0].resources["gold"], cs[1].resources["gold"], cs[2].resources["gold"] = 1, 1, 4
    cs[0].infamy = 2
    assert majority(cs, "power") == [1, 2] and minority(cs, "power") == [0]
    assert minority(cs, "gold") == [0, 1] and majority(cs, "gold") == [2]
    assert majority(cs, "infamy") == [0] and minority(cs, "infamy") == [1, 2]


def test_building_count_and_scoring_for_an_ideology_targets():
    """QD-371 (at least N of the type, base Buildings included), QD-373 (Favored only)."""
    owned = {0: ["military", "commercial"], 1: ["military", "military"], 2: []}
    assert building_count(owned, "military", 1) == [0, 1] and building_count(owned, "military", 2) == [1]
    cards = {0: IdeologyCard(id="a", character="Xanthe", number=2, favored=[Favored("force", 1)]),
             1: IdeologyCard(id="b", character="Lyrie", number=3, favored=[Favored("liberty", 3)],
                             balanced=[Balanced(["force", "diplomacy"])])}
    assert scoring_for(cards, "force") == [0]  # Lyrie's Balanced pair does not count
