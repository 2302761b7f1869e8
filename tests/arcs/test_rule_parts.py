"""The pure rule parts of Arcs that the game's flow is built from: control, following the
lead, declarations and markers, initiative, battle arithmetic and ambition scoring. The
digest's test vectors (section 16) are played here on these parts; the whole-game tests
replay them through the engine once the flow exists."""
from __future__ import annotations

import pytest

from core.errors import BadParameter
from plugins.arcs.battle import (
    ShipHits, apply_building_hits, apply_ship_hits, check_building_hits, check_ship_hits, intercept_hits,
    raid_dice_allowed, total,
)
from plugins.arcs.content import default_box
from plugins.arcs.control import controller
from plugins.arcs.plays import (
    actions_bought, declarable, flip_after_chapter, follow_kinds, initiative_after, next_marker,
)
from plugins.arcs.scoring import PHANTOM, city_bonus, place_gains, score_ambition
from plugins.arcs.state import ArcsState, Building, Marker, PlayerState, Ships, SystemState, Trophy

BOX = default_box()


def system(*ships: tuple[int, int], buildings=()) -> SystemState:
    return SystemState(ships=[Ships(fresh=f, damaged=d) for f, d in ships], buildings=list(buildings))


def test_control_vector_ARCS_319():
    """ARCS-319 (and ARCS-130, ARCS-131, ARCS-132): fresh 3/3/1 -> nobody; X 2 fresh + 3
    damaged against Y 1 fresh -> X; damaged ships and buildings count for nothing."""
    assert controller(system((3, 0), (3, 0), (1, 0))) is None
    assert controller(system((2, 3), (1, 0))) == 0
    assert controller(system((0, 5), (0, 0), buildings=[Building("city", 0)])) is None
    assert controller(system((0, 4), (1, 0))) == 1


def test_surpass_vector_ARCS_320():
    """ARCS-320 (ARCS-091, ARCS-096): lead Construction 3 with an ambition declared (number 0):
    a Construction 2 (or 1) Surpasses; undeclared, the 2 can only Copy."""
    assert "surpass" in follow_kinds(BOX, "CON3", True, "CON2")
    assert "surpass" in follow_kinds(BOX, "CON3", True, "CON1")
    assert follow_kinds(BOX, "CON3", False, "CON2") == {"copy"}
    assert follow_kinds(BOX, "CON3", False, "CON4") == {"copy", "surpass"}


def test_pivot_and_copy_buy_one_action_ARCS_093_094():
    """ARCS-093: a Copy (any card) buys one lead-suit action; ARCS-094: a Pivot (another suit)
    buys one action of its own suit; a Surpass buys its pips of the lead suit (ARCS-091)."""
    assert follow_kinds(BOX, "CON3", False, "AGG6") == {"copy", "pivot"}
    assert actions_bought(BOX, "copy", "CON3", "AGG6") == (1, ["build", "repair"])
    assert actions_bought(BOX, "pivot", "CON3", "AGG6") == (1, ["battle", "move", "secure"])
    assert actions_bought(BOX, "surpass", "CON3", "CON5") == (2, ["build", "repair"])
    assert actions_bought(BOX, "lead", "ADM2", "ADM2") == (4, ["tax", "repair", "influence"])


def test_declarable_ambitions_ARCS_083():
    """ARCS-083: none on a 1, the printed one on 2-6, any on a 7."""
    assert declarable(BOX, "MOB1") == []
    assert declarable(BOX, "MOB4") == ["warlord"]
    assert declarable(BOX, "AGG7") == ["tycoon", "tyrant", "warlord", "keeper", "empath"]


def test_marker_order_by_chapter_ARCS_242_251():
    """ARCS-251: after each chapter the lowest unflipped marker flips (C, then B, then A);
    ARCS-242: declarations take the highest first-place value Available."""
    markers = [Marker("A"), Marker("B"), Marker("C")]
    order = []
    for chapter in range(1, 5):
        left, taken = list(markers), []
        while left:
            m = next_marker(BOX, left)
            taken.append(m.id)
            left.remove(m)
        order.append("".join(taken))
        markers = flip_after_chapter(BOX, markers)
    assert order == ["ABC", "ACB", "BAC", "ABC"]
    assert [m.flipped for m in markers] == [True, True, True]


def test_initiative_after_the_round_ARCS_105_106_107():
    """ARCS-105: a seizer keeps it; ARCS-106: else the highest Surpass; ARCS-107: else the holder."""
    assert initiative_after(0, 2, [(1, 6)]) == 2
    assert initiative_after(0, None, [(1, 4), (3, 6)]) == 3
    assert initiative_after(0, None, []) == 0


def test_raid_dice_vector_ARCS_323():
    """ARCS-323 (ARCS-173): ships but no building in the battle system and a city elsewhere ->
    no raid dice; no buildings anywhere -> raid dice allowed; a building here -> allowed."""
    systems = {"1.1": system((3, 0), (2, 0)), "2.2": system((0, 0), (0, 0), buildings=[Building("city", 1)])}
    assert not raid_dice_allowed(systems, "1.1", 1)
    systems["2.2"].buildings.clear()
    assert raid_dice_allowed(systems, "1.1", 1)
    systems["1.1"].buildings.append(Building("starport", 1))
    assert raid_dice_allowed(systems, "1.1", 1)


def test_intercept_vector_ARCS_321():
    """ARCS-321 (ARCS-178, ARCS-179): 3 intercepts against 2 fresh and 1 damaged defending ships
    -> exactly 2 hits; buildings never intercept; no intercept, no hits."""
    here = system((4, 0), (2, 1), buildings=[Building("city", 1)])
    assert intercept_hits(here, 1, 3) == 2
    assert intercept_hits(here, 1, 1) == 2
    assert intercept_hits(here, 1, 0) == 0


def test_hit_ordering_vector_ARCS_322():
    """ARCS-322 (ARCS-180, ARCS-181, ARCS-128): 3 HIT and 1 BHIT against 1 damaged ship and a fresh
    city: the first HIT destroys the ship, the other two damage then destroy the city, the BHIT
    has no target left and is lost."""
    roll = total(BOX.dice, [("assault", 0), ("assault", 4), ("raid", 2)])  # HIT x2 | HIT+INT | KEY+BHIT
    assert (roll.hit, roll.building_hit, roll.intercept, roll.key) == (3, 1, 1, 1)
    ships, buildings = Ships(fresh=0, damaged=1), [Building("city", 1)]
    left = check_ship_hits(ships, roll.hit, ShipHits(destroy_damaged=1))
    assert left == 2 and apply_ship_hits(ships, ShipHits(destroy_damaged=1)) == Ships()
    check_building_hits(buildings, 1, left + roll.building_hit, {0: 2})
    with pytest.raises(BadParameter):
        check_building_hits(buildings, 1, left + roll.building_hit, {0: 1})  # a hit that can land must
    assert apply_building_hits(buildings, {0: 2}) == ([], [Building("city", 1)])


def test_hits_stack_or_spread_and_ships_come_first_ARCS_185_186():
    """ARCS-185: two hits damage two fresh ships or destroy one; ARCS-180: while a defending ship
    remains, HITs cannot reach buildings; ARCS-186: hits without a target are lost."""
    two_fresh = Ships(fresh=2)
    assert check_ship_hits(two_fresh, 2, ShipHits(damage_fresh=2)) == 0
    assert check_ship_hits(two_fresh, 2, ShipHits(destroy_fresh=1)) == 0
    assert apply_ship_hits(two_fresh, ShipHits(damage_fresh=2)) == Ships(damaged=2)
    with pytest.raises(BadParameter):
        check_ship_hits(two_fresh, 2, ShipHits(damage_fresh=1))  # a hit left for a ship still there
    with pytest.raises(BadParameter):
        check_ship_hits(two_fresh, 2, ShipHits(destroy_damaged=1))  # no damaged ship to destroy
    with pytest.raises(BadParameter):
        check_ship_hits(two_fresh, 2, ShipHits(damage_fresh=3, destroy_fresh=-1))
    assert check_ship_hits(two_fresh, 9, ShipHits(destroy_fresh=2)) == 5
    check_building_hits([], 1, 5, {})  # nothing to hit: all lost
    with pytest.raises(BadParameter):
        check_building_hits([Building("city", 0)], 1, 1, {0: 1})  # not a defending building


def test_warlord_scoring_vector_ARCS_324():
    """ARCS-324 (ARCS-234, ARCS-237): B(3/2) + A(5/3) on Warlord; X 4 Trophies, Y 4, Z 1 -> X and Y
    each gain 5 (the second-place sum), Z nothing."""
    state = ArcsState(game="arcs", players=[PlayerState(), PlayerState(), PlayerState()],
                      ambition_boxes={"warlord": [Marker("B"), Marker("A")]})
    for seat, n in enumerate((4, 4, 1)):
        state.players[seat].trophies = [Trophy(owner=(seat + 1) % 3, kind="ship")] * n
    assert score_ambition(BOX, state, "warlord") == {0: 5, 1: 5, 2: 0}
    state.ambition_boxes = {}
    assert score_ambition(BOX, state, "warlord") == {0: 0, 1: 0, 2: 0}  # ARCS-232: no marker, no score


def test_tycoon_tie_worked_check_ARCS_243():
    """ARCS-243 (ARCS-230, ARCS-222): Tycoon holds A and C (7/3); X counts a Fuel and a Material
    Guild card, Y two Material: they tie for first and each gains 3, no city bonus."""
    x = PlayerState(resources=["fuel", None, None, None, None, None], guild=["BC02"],
                    cities_on_board=[False, False, False, False, True])
    y = PlayerState(resources=["material", "material", None, None, None, None])
    state = ArcsState(game="arcs", players=[x, y, PlayerState()], ambition_boxes={"tycoon": [Marker("A"), Marker("C")]})
    assert score_ambition(BOX, state, "tycoon") == {0: 3, 1: 3, 2: 0}


def test_places_ties_and_city_bonus_ARCS_236_238_239_240():
    """ARCS-236: a zero count cannot place; ARCS-238: tied seconds get nothing; ARCS-239: an
    outright first gets +2 with city slot 4 empty, +5 with slots 4 and 5 empty; ARCS-240: once
    per ambition however many markers."""
    assert place_gains({0: 3, 1: 1, 2: 1}, 8, 5, {}) == {0: 8, 1: 0, 2: 0}
    assert place_gains({0: 3, 1: 0, 2: 0}, 5, 3, {}) == {0: 5, 1: 0, 2: 0}
    assert place_gains({0: 0, 1: 0}, 5, 3, {}) == {0: 0, 1: 0}
    assert place_gains({0: 2, 1: 1}, 8, 5, {0: 5, 1: 5}) == {0: 13, 1: 5}
    four_out = PlayerState(cities_on_board=[False, False, False, False, True])
    all_out = PlayerState(cities_on_board=[False] * 5)
    three_out = PlayerState(cities_on_board=[False, False, False, True, True])
    assert [city_bonus(p, BOX) for p in (three_out, four_out, all_out)] == [0, 2, 5]


def test_two_player_phantom_places_but_never_gains_ARCS_241():
    """ARCS-241: the covered planets' tokens compete as a phantom third player: it can take first
    (pushing a real player to second) or second, and never gains Power."""
    assert place_gains({0: 2, 1: 1, PHANTOM: 4}, 5, 3, {}) == {0: 3, 1: 0}
    assert place_gains({0: 5, 1: 1, PHANTOM: 4}, 5, 3, {}) == {0: 5, 1: 0}
    state = ArcsState(game="arcs", players=[PlayerState(captives=[1]), PlayerState()],
                      ambition_tokens={"tycoon": ["material", "material", "fuel", "fuel"]},
                      ambition_boxes={"tycoon": [Marker("A")]})
    state.players[0].resources = ["material", "fuel", "fuel", None, None, None]
    assert score_ambition(BOX, state, "tycoon") == {0: 3, 1: 0}
