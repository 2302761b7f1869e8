"""Objectives, grand ambitions, final objectives and the campaign's end on real Act I tables
(arranged as the tests' moments need): each test names the BR checklist IDs it proves."""
from __future__ import annotations

import pytest

from core.errors import BadParameter, IllegalAction
from plugins.arcs.state import Marker, Trophy
from plugins.blighted_reach import objectives as ob
from plugins.blighted_reach.campaign import end_campaign
from plugins.blighted_reach.fate_steps import RuleMissing
from plugins.blighted_reach.state import ActRecord, Pieces
from tests.blighted_reach.campaign_tables import (
    ADMIRAL, ADVOCATE, BOX, CBOX, FOUNDER, PARTISAN, STEWARD, act_one, clear_map, non_imperial_systems,
    put_building, put_ships, snapshot,
)

OVERLORD, SURVIVALIST, PATHFINDER = "FATE17", "FATE18", "FATE09"


def clear_resources(state) -> None:
    for p in state.players:
        for i, r in enumerate(p.resources):
            if r:
                state.supply[r] += 1
                p.resources[i] = None


def declare(state, **boxes) -> None:
    """Ambition markers into boxes, e.g. declare(state, tycoon="A")."""
    state.ambition_boxes = {a: [] for a in BOX.board.ambitions}
    used = set(boxes.values())
    for ambition, marker in boxes.items():
        state.ambition_boxes[ambition] = [Marker(marker)]
    state.markers_available = [m for m in state.markers_available if m.id not in used]


def give(state, seat, *resources) -> None:
    for i, r in enumerate(resources):
        state.players[seat].resources[i] = r
        state.supply[r] -= 1


# -- the marker: start and advance -------------------------------------------------------


def test_BR_003_BR_085_BR_092_markers_start_on_the_printed_space():
    """BR-003, BR-055: every player's objective marker is on the Power track; BR-092: the Admiral's
    Act I objective starts on 13 (BR-085: the printed start, here for 3 players: Steward 17,
    Founder 16)."""
    state = act_one([STEWARD, ADMIRAL, FOUNDER])
    assert state.objective_markers == [17, 13, 16]
    assert all(ob.uses_marker(CBOX, state, s) for s in range(3))


def test_BR_085_refused_starts_change_nothing():
    """BR-085: a start contradicting the printed one is refused; a start nobody recorded and
    nobody gave (the A Fates' Act II cards) raises RuleMissing; both leave the markers as
    they were."""
    state = act_one([STEWARD, ADMIRAL, FOUNDER])
    before = snapshot(state)
    with pytest.raises(BadParameter):
        ob.start_objectives(CBOX, state, {0: 17, 1: 12, 2: 16})
    assert snapshot(state) == before
    ob.start_objectives(CBOX, state, {0: 17, 1: 13})
    assert state.objective_markers == [17, 13, 16]
    state.act = 2
    before = snapshot(state)
    with pytest.raises(RuleMissing):
        ob.start_objectives(CBOX, state, {2: 16})
    assert snapshot(state) == before
    ob.start_objectives(CBOX, state, {0: 9, 1: 12, 2: 16})
    assert state.objective_markers == [9, 12, 16]


def test_BR_085_start_by_player_count():
    """BR-085: a card printing one start per player count starts by the table's count (the
    Steward's Act I card: 20/17/14 for 2/3/4 players); one printing a single start (the
    Admiral's 13) starts there at every count."""
    for fates, start in (([STEWARD, ADMIRAL], 20), ([STEWARD, ADMIRAL, FOUNDER], 17),
                         ([STEWARD, ADMIRAL, FOUNDER, ADVOCATE], 14)):
        state = act_one(fates)
        ob.start_objectives(CBOX, state)
        assert state.objective_markers[:2] == [start, 13]


def test_BR_086_advancing_moves_toward_zero_and_completes_there():
    """BR-086: each advance moves the marker one space per point toward 0; at 0 the
    objective is complete and the marker moves no further."""
    state = act_one([STEWARD, ADMIRAL, FOUNDER])
    assert ob.advance(state, 1, 4) == 4 and state.objective_markers[1] == 9
    assert not ob.completed(state, 1)
    assert ob.advance(state, 1, 20) == 9 and state.objective_markers[1] == 0 and ob.completed(state, 1)
    assert ob.advance(state, 1, 3) == 0 and state.objective_markers[1] == 0


# -- advances from ambitions and the chapter's end ---------------------------------------


def lotus_table(title="outlaw"):
    """Lotus (seat 0, the Founder) wins Tycoon and Keeper and controls 3 systems."""
    state = act_one([FOUNDER, STEWARD, ADMIRAL])
    state.titles[0] = title
    clear_resources(state)
    clear_map(state)
    declare(state, tycoon="A", keeper="B")
    give(state, 0, "material", "relic")           # with Parade Fleets (Fuel): Tycoon 2, Keeper 1
    for system in non_imperial_systems(state)[:3]:
        put_ships(state, 0, system, fresh=2)
    return state


def test_BR_087_BR_096_BR_097_lotus_advances_nine():
    """BR-087 (Lotus): an Outlaw Founder winning 2 ambitions and controlling 3 systems at a
    chapter's end advances 2 x 3 + 3 x 1 = 9; BR-096: 3 per ambition won; BR-097: 1 per
    controlled system at the chapter's end."""
    state = lotus_table()
    score = ob.chapter_score(BOX, CBOX, state)
    assert score.winners == {"tycoon": 0, "keeper": 0}
    assert ob.advance_for_ambitions(BOX, CBOX, state, score) == {0: 6}
    assert ob.advance_at_chapter_end(BOX, CBOX, state) == {0: 3}
    assert state.objective_markers[0] == 16 - 9


def test_BR_096_BR_097_a_regent_founder_does_not_advance():
    """BR-096, BR-097: both Founder advances count only while an Outlaw."""
    state = lotus_table(title="regent")
    score = ob.chapter_score(BOX, CBOX, state)
    assert ob.advance_for_ambitions(BOX, CBOX, state, score) == {}
    assert ob.advance_at_chapter_end(BOX, CBOX, state) == {}
    assert state.objective_markers[0] == 16


def test_BR_088_a_tie_for_first_is_not_winning():
    """BR-088: tied first place in Tycoon wins nothing (the tied still score second place);
    Lotus advances only for Keeper, won alone."""
    state = lotus_table()
    give(state, 1, "material", "fuel")
    score = ob.chapter_score(BOX, CBOX, state)
    assert score.winners == {"keeper": 0}
    assert score.gains["tycoon"][0] == score.gains["tycoon"][1] > 0
    assert ob.advance_for_ambitions(BOX, CBOX, state, score) == {0: 3}


def test_BR_086_steward_advances_by_the_power_a_won_ambition_gave():
    """BR-086 with the Steward's Act I count: as First Regent, 1 per Power gained from each
    ambition won, city bonus included."""
    state = act_one([STEWARD, ADMIRAL, FOUNDER])
    assert state.first_regent == 0
    clear_resources(state)
    declare(state, tycoon="A")
    give(state, 0, "material", "material")  # the Founder's Parade Fleets counts 1 Fuel
    board = state.players[0].cities_on_board
    state.players[0].cities_on_board = [False, False, False, False, True]  # as if 4 were built
    score = ob.chapter_score(BOX, CBOX, state)
    state.players[0].cities_on_board = board
    assert score.gains["tycoon"][0] == 5 + 2  # first place on marker A, city bonus 2
    assert ob.advance_for_ambitions(BOX, CBOX, state, score) == {0: 7}
    state.first_regent = 1
    assert ob.advance_for_ambitions(BOX, CBOX, state, score) == {}


def test_BR_093_admiral_advances_for_imperial_ships_anyone_places_while_winning():
    """BR-093: while a Regent and winning an ambition, 1 per Imperial ship anyone places."""
    state = act_one([ADMIRAL, STEWARD, FOUNDER])
    declare(state, warlord="A")
    assert ob.advance_on_event(BOX, CBOX, state, "imperial_ship_placed", 2) == {}
    state.players[0].trophies = [Trophy(1, "ship")]
    state.players[1].ships -= 1
    assert ob.advance_on_event(BOX, CBOX, state, "imperial_ship_placed", 2) == {0: 2}
    state.titles[0] = "outlaw"
    assert ob.advance_on_event(BOX, CBOX, state, "imperial_ship_placed", 2) == {}
    assert state.objective_markers[0] == 11


def test_BR_094_admiral_advances_for_trophies_taken_with_imperial_attackers():
    """BR-094: while a Regent, 1 per Trophy the Admiral takes in a battle with attacking
    Imperial ships (the battle reports it for the attacker's objective only)."""
    state = act_one([ADMIRAL, STEWARD, FOUNDER])
    assert ob.advance_on_event(BOX, CBOX, state, "trophy_with_imperial_attackers", 3, seat=0) == {0: 3}
    assert ob.advance_on_event(BOX, CBOX, state, "trophy_with_imperial_attackers", 3, seat=1) == {}
    assert state.objective_markers[0] == 10


def to_trust(state, *resources) -> None:
    for r in resources:
        state.supply[r] -= 1
        state.trust.append(r)


def test_BR_086_act_two_chapter_end_counts_the_board_answers():
    """BR-086 at a chapter's end in Act II: the Admiral counts planets the Empire controls,
    the Founder Free cities outside the Empire, the Advocate Guild suits and Rivals with fewer
    Guild cards, the Steward (First Regent) clusters with Empire control and the Imperial
    Trust's resources."""
    state = act_one([ADMIRAL, FOUNDER, ADVOCATE, STEWARD])
    state.act = 2
    ob.start_objectives(CBOX, state, {s: 20 for s in range(4)})
    to_trust(state, "relic", "psionic", "fuel")
    moved = ob.advance_at_chapter_end(BOX, CBOX, state)
    empire_planets = sum(1 for s, p in state.imperial.items() if p.fresh and BOX.systems[s] is not None)
    free_outside = sum(b.owner == -1 and b.kind == "city" for s, x in state.systems.items()
                       for b in x.buildings if s not in state.imperial)
    assert empire_planets == 6 and free_outside == 4 and state.first_regent == 3
    assert moved == {0: 6, 1: 4, 2: 2 + 3, 3: 2 + 3}  # Advocate: Psionic + Relic; more than all 3 Rivals


def test_BR_086_a_count_only_a_fates_rules_know_moves_nothing(monkeypatch):
    """BR-086: the Founder's Act II "scoring" advance counts Commonwealth Members, a rule of
    the Founder's own: until it is registered (taken out here: fate_founder registers it),
    scoring refuses and no marker moves."""
    monkeypatch.delitem(ob.COUNT_RULES, "commonwealth_member", raising=False)
    state = act_one([FOUNDER, STEWARD, ADMIRAL])
    state.act = 2
    ob.start_objectives(CBOX, state, {s: 20 for s in range(3)})
    before = snapshot(state)
    with pytest.raises(RuleMissing):
        ob.advance_for_ambitions(BOX, CBOX, state, ob.ChapterScore())
    assert snapshot(state) == before


def test_rivals_with_fewer_lore_count(monkeypatch):
    """The Caretaker's Act II count: Rivals holding fewer lore cards."""
    monkeypatch.delitem(ob.COUNT_RULES, "commonwealth_member", raising=False)  # as if not written
    state = act_one([STEWARD, ADMIRAL, FOUNDER])
    assert ob.count_for("rival_outnumbered_in_lore", BOX, CBOX, state, 0) == 2  # Imperial Authority
    state.players[1].lore = ["L01"]
    assert ob.count_for("rival_outnumbered_in_lore", BOX, CBOX, state, 0) == 1
    with pytest.raises(RuleMissing):  # a count only a Fate's own rules give, not registered
        ob.count_for("commonwealth_member", BOX, CBOX, state, 0)


# -- Act III: grand ambitions ------------------------------------------------------------


def act_three(fates, starts=None, chapter=3):
    """An Act I table carried to Act III with these Fates (chapter arranged)."""
    state = act_one([PARTISAN, ADMIRAL, FOUNDER])
    state.act, state.chapter, state.fates = 3, chapter, list(fates)
    ob.start_objectives(CBOX, state, starts)
    return state


def test_BR_075_BR_098_act_three_a_and_b_fates_leave_the_track():
    """BR-098: in Act III A and B Fates have grand ambitions and no objective marker; BR-075:
    only the C Fate's marker goes on the track."""
    state = act_three([PARTISAN, PATHFINDER, OVERLORD])
    assert state.objective_markers == [ob.OFF_TRACK, ob.OFF_TRACK, 20]  # the Overlord's printed start
    assert [ob.uses_marker(CBOX, state, s) for s in range(3)] == [False, False, True]


def test_BR_100_BR_101_BR_102_BR_103_dane_fulfils_one_grand_ambition_in_chapter_three():
    """BR-103 (Dane): one grand ambition fulfilled at the end of chapter 3 gains 4 Power;
    BR-100: both gain the higher value, not the sum; BR-101: 2/4, 3/8, 4/14, 5/20; BR-102:
    no ambition declared, and no Rival gains from them."""
    state = act_three([PARTISAN, ADMIRAL, OVERLORD])
    state.initiative = 0  # the Partisan holds the initiative, but not more Guild cards
    assert ob.declared_ambitions(state) == []
    powers = [p.power for p in state.players]
    assert ob.score_grand_ambitions(BOX, CBOX, state) == {0: 4, 1: 0, 2: 0}
    assert [p.power for p in state.players] == [powers[0] + 4, powers[1], powers[2]]
    state.players[0].guild.append("CC05")
    assert ob.goals_fulfilled(BOX, CBOX, state, 0) == 2
    assert ob.score_grand_ambitions(BOX, CBOX, state)[0] == 14
    table = {c: (ob.grand_ambition_power(CBOX, c, 1), ob.grand_ambition_power(CBOX, c, 2)) for c in range(1, 5)}
    assert table == {1: (2, 4), 2: (3, 8), 3: (4, 14), 4: (5, 20)}
    assert all(ob.grand_ambition_power(CBOX, c, 0) == 0 for c in range(1, 5))


def test_BR_098_admiral_grand_ambitions_read_the_board():
    """BR-098 (the Admiral's two): a Regent controlling 9 planets; a Regent with more Loyal
    ships on the map than each Rival."""
    state = act_three([PARTISAN, ADMIRAL, OVERLORD])
    clear_map(state)
    planets = [s for s in sorted(state.systems) if BOX.systems[s] is not None and s not in state.imperial]
    for system in planets[:9]:
        put_ships(state, 1, system, fresh=1)
    assert ob.goals_fulfilled(BOX, CBOX, state, 1) == 2
    put_ships(state, 0, planets[0], fresh=1)   # a tie there: 8 planets left
    put_ships(state, 0, "1G", fresh=8)
    assert ob.goals_fulfilled(BOX, CBOX, state, 1) == 1
    state.titles[1] = "outlaw"
    assert ob.goals_fulfilled(BOX, CBOX, state, 1) == 0


def test_BR_104_BR_105_steward_grand_ambitions():
    """BR-104: a Regent, and the Empire controls every Outlaw city (or there is no Outlaw);
    BR-105: the First Regent, with more resources in the Imperial Trust than the chapter."""
    state = act_three([STEWARD, ADMIRAL, OVERLORD])
    state.first_regent = 0
    goal = ob.GENERIC_GOALS["regent_and_empire_holds_outlaw_cities"]
    assert goal(BOX, CBOX, state, 0)
    state.titles[2] = "outlaw"
    outside = non_imperial_systems(state)[0]
    put_building(state, 2, outside, "city")
    assert not goal(BOX, CBOX, state, 0)
    state.imperial[outside] = Pieces(fresh=1)
    state.imperial_supply -= 1
    assert goal(BOX, CBOX, state, 0)
    to_trust(state, "relic", "psionic", "fuel")
    assert ob.goals_fulfilled(BOX, CBOX, state, 0) == 1      # 3 resources, chapter 3
    to_trust(state, "material")
    assert ob.goals_fulfilled(BOX, CBOX, state, 0) == 2
    assert ob.score_grand_ambitions(BOX, CBOX, state)[0] == 14
    state.first_regent = 1
    assert ob.goals_fulfilled(BOX, CBOX, state, 0) == 1
    state.titles[0] = "outlaw"
    assert ob.goals_fulfilled(BOX, CBOX, state, 0) == 0


# -- Act III: final objectives and the winner --------------------------------------------


def test_BR_106_BR_107_final_objective_needs_zero_and_some_power():
    """BR-106: a C Fate's final objective uses the marker; BR-107: marker on 0 and at least
    1 Power wins at a chapter's end."""
    state = act_three([PARTISAN, ADMIRAL, OVERLORD], chapter=2)
    assert ob.current_objective(CBOX, state, 2).kind == "final"
    ob.advance(state, 2, 20)  # from the Overlord's start
    state.players[2].power = 0
    assert ob.final_objective_winner(CBOX, state) is None
    state.players[2].power = 1
    assert ob.final_objective_winner(CBOX, state) == 2


def test_BR_084_BR_108_a_final_objective_wins_before_chapter_four_over_more_power():
    """BR-084: completing a final objective is a way to win; BR-108: it beats more Power."""
    state = act_three([PARTISAN, ADMIRAL, OVERLORD], chapter=2)
    state.players[0].power, state.players[2].power = 40, 3
    assert ob.campaign_winner(CBOX, state) is None
    ob.advance(state, 2, 20)  # from the Overlord's start
    assert ob.campaign_winner(CBOX, state) == 2


def test_BR_109_a_c_fate_can_win_on_most_power_at_chapter_four():
    """BR-109: an unfinished final objective still lets its player win on Power."""
    state = act_three([PARTISAN, ADMIRAL, OVERLORD], chapter=4)
    state.players[0].power, state.players[1].power, state.players[2].power = 10, 11, 12
    assert ob.campaign_winner(CBOX, state) == 2


def test_BR_110_several_final_objectives_go_to_the_most_power():
    """BR-110: two C Fates complete at the same check: the one with more Power wins."""
    state = act_three([PARTISAN, SURVIVALIST, OVERLORD], chapter=1)
    ob.advance(state, 1, 18)  # from the Survivalist's start (3 players)
    ob.advance(state, 2, 20)  # from the Overlord's
    state.players[1].power, state.players[2].power = 6, 9
    assert ob.final_objective_winner(CBOX, state) == 2


def test_BR_111_failing_a_final_objective_costs_nothing():
    """BR-111: at the campaign's end an unfinished final objective takes no Power."""
    state = act_three([PARTISAN, ADMIRAL, OVERLORD], chapter=4)
    state.players[0].power, state.players[2].power = 20, 7
    winner = ob.campaign_winner(CBOX, state)
    end_campaign(CBOX, state, winner)
    assert winner == 0 and state.winner == 0 and state.finished and state.players[2].power == 7
    assert state.act_log[2][-1] == ActRecord(act=3, fate=OVERLORD, result="", power=7)
    with pytest.raises(IllegalAction):
        end_campaign(CBOX, state, 0)


def test_BR_081_BR_082_BR_083_most_power_then_fate_letter_then_turn_order():
    """BR-081: most Power wins; BR-082: a tie goes to the earlier letter (A, then B, then C);
    BR-083: a further tie to the first in turn order."""
    state = act_three([PARTISAN, ADMIRAL, OVERLORD], chapter=4)
    for p, power in zip(state.players, (10, 14, 12)):
        p.power = power
    assert ob.campaign_winner(CBOX, state) == 1
    state.players[2].power = 14
    assert ob.campaign_winner(CBOX, state) == 1             # A over C
    state.fates[1] = PATHFINDER
    state.objective_markers[1] = ob.OFF_TRACK
    assert ob.campaign_winner(CBOX, state) == 1             # B over C
    state.fates[1] = ADMIRAL
    state.players[0].power, state.players[2].power = 14, 0
    state.initiative = 1
    assert ob.campaign_winner(CBOX, state) == 1             # A and A: turn order from seat 1
    state.initiative = 2
    assert ob.campaign_winner(CBOX, state) == 0             # ... from seat 2: 2, 0, 1


def test_BR_077_BR_078_BR_079_BR_089_acts_end_by_chapters_only():
    """BR-077: three acts; BR-078: Acts I and II end after chapter 3, Act III after 4;
    BR-079: never on Power; BR-089: an Intermission after Acts I and II, not III."""
    state = act_one([STEWARD, ADMIRAL, FOUNDER])
    assert ob.acts(CBOX) == 3
    state.players[0].power = 500
    ends = {}
    for act in (1, 2, 3):
        state.act = act
        ends[act] = [c for c in range(1, 6) if (setattr(state, "chapter", c) or ob.act_over(CBOX, state))][0]
    assert ends == {1: 3, 2: 3, 3: 4}
    assert [ob.after_act(CBOX, a) for a in (1, 2, 3)] == ["intermission", "intermission", "campaign_end"]
