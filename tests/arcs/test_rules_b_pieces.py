"""Pieces and control through the engine (digest 7.1-7.5): the fresh/damaged states as
the table shows them, what is placed fresh and Loyal, what control decides, that damage
lasts across a chapter's end, and the Build and Catapult conditions."""
from __future__ import annotations

import core.chance
from core.errors import IllegalAction
from plugins.arcs.state import Building
from tests.arcs.flow_helpers import act, answer, place_first, prompt_of, put, restart_round, table
from tests.arcs.test_rules_b_turn import bare, lead, refused, slots


def city(t, system: str, seat: int, damaged: bool = False) -> None:
    t.state.systems[system].buildings.append(Building(kind="city", owner=seat, damaged=damaged))
    board = t.state.players[seat].cities_on_board
    board[board.index(True)] = False


def test_fresh_and_damaged_are_two_states_everyone_sees_ARCS_127(monkeypatch):
    """ARCS-127: every ship and building is fresh or damaged, and the public view shows which:
    a fresh ship hit once is shown damaged (tipped), a fresh city hit once shows its damaged
    side, to a seat not in the battle as well."""
    t = bare()
    lead(t, "AGG3")
    put(t, "2.3", 0, fresh=2)
    put(t, "2.3", 1, fresh=1)
    city(t, "2.3", 1)
    # a HIT, and a BHIT with a SELF
    monkeypatch.setattr(core.chance, "roll", lambda ctx, seat, dice, which, why="": [("skirmish", 0), ("raid", 3)])
    act(t, 0, "battle", system="2.3", defender=1, skirmish=1, raid=1)
    seen = t.view(2)["systems"]["2.3"]
    assert seen["ships"][0] == [1, 1] and seen["ships"][1] == [0, 1]  # [fresh, damaged]: tipped over
    assert seen["buildings"] == [["city", 1, True]]  # the city shows its damaged side
    assert t.view(None)["systems"]["2.3"] == seen


def test_pieces_placed_are_fresh_and_loyal_ARCS_129():
    """ARCS-129: the starting pieces, a built city, starport and ship (where no one else
    controls) and the safety-net fleet all arrive fresh and owned by the placing seat."""
    t = table(3, setup_card="3SETUP01")
    for here in t.state.systems.values():
        assert all(s.damaged == 0 for s in here.ships) and all(not b.damaged for b in here.buildings)
    t = bare()
    lead(t, "CON4")
    put(t, "2.3", 0, damaged=1)
    act(t, 0, "build", system="2.3", what="city")
    act(t, 0, "build", system="2.3", what="starport")
    act(t, 0, "build", system="2.3", what="ship")
    here = t.state.systems["2.3"]
    assert [(b.kind, b.owner, b.damaged) for b in here.buildings] == [("city", 0, False), ("starport", 0, False)]
    assert (here.ships[0].fresh, here.ships[0].damaged) == (1, 1)
    t = bare()
    t.state.systems["6.3"].ships[0].fresh = 0
    t.state.players[0].ships += 1
    restart_round(t, [["CON4"], ["MOB2"], ["MOB3"]], initiative=0)
    answer(t, 0, "lead", card="CON4")
    answer(t, 0, "declare", ambition="")
    act(t, 0, "done")
    answer(t, 0, "place_fleet", gate="3G")  # nothing left on the map: the safety net (ARCS-271)
    assert (t.state.systems["3G"].ships[0].fresh, t.state.systems["3G"].ships[0].damaged) == (3, 0)


def test_control_decides_rival_tax_damaged_builds_and_catapult_stops_ARCS_133_134():
    """ARCS-133, ARCS-134: controlling a system controls what is in it: seat 0, ruling 2.3, taxes
    seat 1's city there; seat 1 ruling the system instead makes seat 0's building land
    damaged; a gate ruled by seat 1 stops seat 0's Catapult; where nobody rules, none of it."""
    t = bare()
    lead(t, "ADM4")
    put(t, "2.3", 0, fresh=2)
    put(t, "2.3", 1, fresh=1)
    city(t, "2.3", 1)
    act(t, 0, "tax", system="2.3", building=0)
    assert t.state.players[0].captives == [1]
    t = bare()
    lead(t, "CON4")
    put(t, "2.3", 0, damaged=2)
    put(t, "2.3", 1, fresh=1)
    act(t, 0, "build", system="2.3", what="city")
    assert t.state.systems["2.3"].buildings[0].damaged  # seat 1 controls 2.3 (ARCS-146)
    t = bare()
    lead(t, "MOB2")
    s = t.state
    s.systems["2.2"].buildings.append(Building(kind="starport", owner=0))
    s.players[0].starports -= 1
    put(t, "2.2", 0, fresh=2)
    put(t, "3G", 1, fresh=1)
    refused(t, 0, {"act": "move", "origin": "2.2", "path": ["2G", "3G", "3.1"], "fresh": 2}, IllegalAction)
    put(t, "3G", 2, fresh=1)  # now tied at 3G: nobody controls it, the Catapult goes through
    act(t, 0, "move", origin="2.2", path=["2G", "3G", "3.1"], fresh=2)
    assert t.state.systems["3.1"].ships[0].fresh == 2


def test_taxing_a_rival_city_needs_control_at_that_moment_ARCS_137():
    """ARCS-137: tied 1-1 in 2.3, seat 0 may not tax seat 1's city; a Fuel moves a second
    ship in during the Prelude, and from that moment the tax is allowed."""
    t = bare()
    lead(t, "ADM4")
    slots(t, 0, ["fuel", None, None])
    put(t, "2.3", 0, fresh=1)
    put(t, "2G", 0, fresh=1)
    put(t, "2.3", 1, fresh=1)
    city(t, "2.3", 1)
    refused(t, 0, {"act": "tax", "system": "2.3", "building": 0}, IllegalAction)
    act(t, 0, "move", pay=0, origin="2G", path=["2.3"], fresh=1)
    act(t, 0, "tax", system="2.3", building=0)
    place_first(t, 0)
    assert t.state.players[0].resources[0] == "relic" and t.state.players[0].captives == [1]


def test_damage_lasts_through_a_chapter_end_ARCS_135():
    """ARCS-135: damaged ships and buildings stay damaged after a turn ends and after the
    chapter ends (every seat passing) and the next chapter is dealt."""
    t = bare()
    put(t, "2.3", 0, fresh=1, damaged=2)
    city(t, "2.3", 0, damaged=True)
    put(t, "3.3", 1, damaged=1)
    restart_round(t, [["ADM4"], ["MOB2"], ["MOB3"]], initiative=0)
    for seat in (0, 1, 2):
        answer(t, seat, "pass")
    s = t.state
    assert s.chapter == 2 and all(len(h) == 6 for h in s.hands)
    assert (s.systems["2.3"].ships[0].fresh, s.systems["2.3"].ships[0].damaged) == (1, 2)
    assert s.systems["2.3"].buildings[0].damaged and s.systems["3.3"].ships[1].damaged == 1


def test_build_needs_a_loyal_piece_an_empty_slot_and_takes_the_leftmost_city_ARCS_144():
    """ARCS-144: a Loyal piece of any state (here one damaged ship) lets a city or starport
    go into an empty slot of that planet; the city is the leftmost still on the board; a
    planet with only a Rival's piece, a full planet and a gate are refused."""
    t = bare()
    lead(t, "CON4")
    put(t, "2.3", 0, damaged=1)
    put(t, "2.2", 1, fresh=1)
    refused(t, 0, {"act": "build", "system": "2.2", "what": "city"}, IllegalAction)
    refused(t, 0, {"act": "build", "system": "2G", "what": "starport"}, IllegalAction)
    t.state.players[0].cities_on_board = [False, True, True, True, True]
    act(t, 0, "build", system="2.3", what="city")
    assert t.state.players[0].cities_on_board == [False, False, True, True, True]
    act(t, 0, "build", system="2.3", what="starport")
    refused(t, 0, {"act": "build", "system": "2.3", "what": "city"}, IllegalAction)  # both slots taken


def test_nobody_in_control_means_a_fresh_build_ARCS_147():
    """ARCS-147: a tie in fresh ships, or no fresh ships at all, is no one's control: what
    seat 0 builds there is fresh; once seat 1 has the most fresh ships it lands damaged."""
    t = bare()
    lead(t, "CON4")
    put(t, "2.3", 0, fresh=1)
    put(t, "2.3", 1, fresh=1)
    put(t, "3.3", 0, damaged=1)
    put(t, "3.3", 1, damaged=3)
    act(t, 0, "build", system="2.3", what="city")
    act(t, 0, "build", system="3.3", what="starport")
    assert not t.state.systems["2.3"].buildings[0].damaged and not t.state.systems["3.3"].buildings[0].damaged
    put(t, "2.3", 1, fresh=1)
    act(t, 0, "build", system="2.3", what="starport")
    assert t.state.systems["2.3"].buildings[1].damaged


def test_a_damaged_starport_still_catapults_ARCS_156():
    """ARCS-156: the Loyal starport enabling a Catapult may be damaged."""
    t = bare()
    lead(t, "MOB2")
    s = t.state
    s.systems["2.2"].buildings.append(Building(kind="starport", owner=0, damaged=True))
    s.players[0].starports -= 1
    put(t, "2.2", 0, fresh=1, damaged=1)
    act(t, 0, "move", origin="2.2", path=["2G", "3G", "5G"], fresh=1, damaged=1)
    assert (t.state.systems["5G"].ships[0].fresh, t.state.systems["5G"].ships[0].damaged) == (1, 1)
    assert prompt_of(t, 0).kind == "arcs.act"
