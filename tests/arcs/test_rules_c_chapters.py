"""Chapters, rounds and turns through the engine (digest sections 11 and 14, test vector
ARCS-318): when a chapter ends, what carries over, when Power is checked, the 2-player
mulligan at every deal, and what a round and a turn are."""
from __future__ import annotations

import pytest

from core.bot import play_game
from core.errors import ActionRejected
from core.state import Action, encode_msgpack
from plugins.arcs.actions import do_influence
from plugins.arcs.state import Building, Ships
from tests.arcs.flow_helpers import act, answer, follow, play_round, prompt_of, restart_round, table


def legal(t, seat):
    return [(a.type, dict(a.params)) for a in t.legal(seat)]


def test_a_chapter_ends_only_when_every_holder_passed_in_succession():
    """ARCS-245, ARCS-288: a chapter is the rounds until the cards are played out or every
    player holding cards passes in succession; a pass followed by a lead starts the count
    again, so three passes spread over two successions do not end it."""
    t = table(3)
    restart_round(t, [["CON3", "ADM4"], ["CON5", "MOB2"], ["CON6", "AGG3"]], initiative=0)
    answer(t, 0, "pass")  # one pass: the round ends, seat 1 holds the initiative
    assert t.state.initiative == 1 and t.state.chapter == 1
    answer(t, 1, "lead", card="MOB2")  # a lead: the succession is broken
    answer(t, 1, "declare", ambition="")
    act(t, 1, "done")
    follow(t, 2, "AGG3", "pivot")
    act(t, 2, "done")
    follow(t, 0, "ADM4", "pivot")
    act(t, 0, "done")
    assert t.state.initiative == 1 and t.state.chapter == 1
    answer(t, 1, "pass")
    answer(t, 2, "pass")
    assert t.state.chapter == 1 and t.state.initiative == 0  # only two in succession so far
    answer(t, 0, "pass")
    assert t.state.chapter == 2 and all(len(h) == 6 for h in t.state.hands)


def test_a_chapter_ends_when_every_hand_is_empty():
    """ARCS-245, ARCS-288: the last cards played out, the chapter ends (the next is dealt)."""
    t = table(3)
    restart_round(t, [["CON3"], ["MOB5"], ["ADM3"]], initiative=0)
    answer(t, 0, "lead", card="CON3")
    answer(t, 0, "declare", ambition="")
    act(t, 0, "done")
    follow(t, 1, "MOB5", "pivot")
    assert t.state.chapter == 1
    act(t, 1, "done")
    follow(t, 2, "ADM3", "copy")
    act(t, 2, "done")
    assert t.state.chapter == 2 and prompt_of(t, 0).kind == "lead"


def test_power_is_checked_only_at_chapter_end():
    """ARCS-253: a seat at the 3-player threshold (30) mid-chapter does not end the game;
    the rounds go on, and the game ends when the chapter does."""
    t = table(3)
    restart_round(t, [["CON3", "ADM4"], ["MOB5", "AGG2"], ["ADM3", "MOB3"]], initiative=0)
    t.state.players[1].power = 30
    play_round(t, "CON3", [("MOB5", "pivot"), ("ADM3", "copy")])
    assert not t.state.finished and prompt_of(t, 0).kind == "lead"  # a second round
    answer(t, 0, "lead", card="ADM4")
    answer(t, 0, "declare", ambition="")
    act(t, 0, "done")
    follow(t, 1, "AGG2", "pivot")
    act(t, 1, "done")
    assert not t.state.finished
    follow(t, 2, "MOB3", "pivot")
    act(t, 2, "done")
    assert t.state.finished and t.state.result["winners"] == [1]


def test_the_two_player_mulligan_is_offered_after_every_deal():
    """ARCS-256: after chapter 1 ends the next deal offers the non-holder the redraw again."""
    t = table(2, seed=3)
    restart_round(t, [["CON3"], ["ADM3"]], initiative=0)
    answer(t, 0, "pass")
    answer(t, 1, "pass")
    s = t.state
    assert s.chapter == 2
    other = 1 - s.initiative
    assert prompt_of(t, other).kind == "mulligan" and prompt_of(t, s.initiative) is None
    old = list(s.hands[other])
    answer(t, other, "mulligan", redraw=True)
    assert sorted(t.state.hands[other]) != sorted(old) and len(t.state.hands[other]) == 6
    assert prompt_of(t, t.state.initiative).kind == "lead"


def test_everything_else_persists_between_chapters():
    """ARCS-258: pieces on the map (damaged ones too), resources, Guild cards, Outrage,
    agents on Court cards and the Court row come through a chapter end unchanged."""
    t = table(3)
    restart_round(t, [["CON3"], ["ADM3"], []], initiative=0)
    s = t.state
    system = next(name for name, here in s.systems.items() if here.ships_of(0).total)
    here = s.systems[system]
    here.ships[0] = Ships(fresh=here.ships[0].fresh - 1, damaged=here.ships[0].damaged + 1)
    built = next(name for name, here in s.systems.items() if here.buildings)
    b = s.systems[built].buildings[0]
    s.systems[built].buildings[0] = Building(kind=b.kind, owner=b.owner, damaged=True)
    s.players[1].guild.append("BC01")  # Loyal Engineers: no chapter-end effect
    s.players[2].outrage.append("fuel")
    s.players[2].agents -= 1
    do_influence(s, 1, s.court_row[0])
    before = {"systems": encode_msgpack(s.systems), "players": encode_msgpack(s.players),
              "court": (list(s.court_row), encode_msgpack(s.court_agents)), "supply": dict(s.supply)}
    answer(t, 0, "pass")
    answer(t, 1, "pass")
    s = t.state
    assert s.chapter == 2
    assert encode_msgpack(s.systems) == before["systems"]
    assert s.systems[system].ships_of(0).damaged >= 1 and s.systems[built].buildings[0].damaged
    assert encode_msgpack(s.players) == before["players"]  # resources, Guild, Outrage, agents
    assert (list(s.court_row), encode_msgpack(s.court_agents)) == before["court"]
    assert dict(s.supply) == before["supply"]


def test_a_round_gives_each_seat_one_turn_in_turn_order():
    """ARCS-301, ARCS-311, ARCS-312: in a round each seat puts down one card and takes one
    turn, the initiative holder (here seat 2 of 4) first, then clockwise: 3, 0, 1."""
    t = table(4)
    restart_round(t, [["CON2", "ADM2"], ["MOB3", "ADM3"], ["CON3", "AGG3"], ["MOB4", "ADM4"]], initiative=2)
    turns = []
    answer(t, 2, "lead", card="CON3")
    answer(t, 2, "declare", ambition="")
    turns.append(t.state.turn.seat)
    act(t, 2, "done")
    for seat, card in [(3, "MOB4"), (0, "ADM2"), (1, "MOB3")]:
        assert [p.seat for p in t.state.prompts] == [seat]  # nobody else is asked meanwhile
        answer(t, seat, "play", card=card, kind="pivot")
        answer(t, seat, "seize", card="")
        turns.append(t.state.turn.seat)
        act(t, seat, "done")
    assert turns == [2, 3, 0, 1]
    assert [p.seat for p in t.state.plays] == []  # the round is over: its cards discarded
    assert t.state.initiative == 2 and prompt_of(t, 2).kind == "lead"  # a new round
    assert [len(h) for h in t.state.hands] == [1, 1, 1, 1]  # one card each was played


def test_seizing_never_for_the_holder_nor_after_a_seize():
    """ARCS-303: the seize is offered only to a follower, before its turn's actions; once a
    seat seized nobody else is offered it that round (the holder never is: it leads)."""
    t = table(3)
    restart_round(t, [["CON3", "ADM4"], ["MOB5", "AGG2", "ADM2"], ["ADM3", "MOB3"]], initiative=0)
    answer(t, 0, "lead", card="CON3")
    assert {a for a, _ in legal(t, 0)} == {"declare"}
    answer(t, 0, "declare", ambition="")
    assert "seize" not in {a for a, _ in legal(t, 0)}
    act(t, 0, "done")
    answer(t, 1, "play", card="MOB5", kind="pivot")
    assert {a for a, _ in legal(t, 1)} == {"seize"}
    answer(t, 1, "seize", card="AGG2")
    assert t.state.initiative == 1 and t.state.seized
    act(t, 1, "done")
    answer(t, 2, "play", card="ADM3", kind="pivot")
    assert prompt_of(t, 2).kind == "arcs.act"  # no seize offered after the seize
    act(t, 2, "done")
    assert t.state.initiative == 1


def test_declaring_and_seizing_only_at_their_moment():
    """ARCS-282: the engine keeps the strict order of ARCS-112: the declaration is asked
    right after the lead and before any action (an action sent first is refused and changes
    nothing), the seize right after the follow; neither can be sent once the turn's Prelude
    or actions have begun."""
    t = table(3)
    restart_round(t, [["CON3", "ADM4"], ["MOB5", "AGG2"], ["ADM3", "MOB3"]], initiative=0)
    answer(t, 0, "lead", card="CON3")
    before = encode_msgpack(t.state)
    with pytest.raises(ActionRejected):
        act(t, 0, "done")
    assert encode_msgpack(t.state) == before
    answer(t, 0, "declare", ambition="")
    with pytest.raises(ActionRejected):  # too late to declare
        answer(t, 0, "declare", ambition="tyrant")
    assert not t.state.ambition_boxes["tyrant"]
    act(t, 0, "done")
    answer(t, 1, "play", card="MOB5", kind="pivot")
    before = encode_msgpack(t.state)
    with pytest.raises(ActionRejected):  # the seize question comes first
        act(t, 1, "done")
    assert encode_msgpack(t.state) == before
    answer(t, 1, "seize", card="")
    with pytest.raises(ActionRejected):  # too late to seize
        answer(t, 1, "seize", card="AGG2")
    assert not t.state.seized and t.state.hands[1] == ["AGG2"]


class RoundLog:
    """Per (chapter, round) that had a lead: the seats holding cards when it began and the
    seats with a card down in it; and the chapters where a hand grew (a card effect gave an
    action card back), read after every action of a bot game."""

    def __init__(self):
        self.holders, self.played, self.refilled, self.sizes = {}, {}, set(), None

    def __call__(self, table, seat, action):
        s = table.state
        key = (s.chapter, s.round)
        sizes = (s.chapter, [len(h) for h in s.hands])
        if self.sizes and self.sizes[0] == s.chapter and any(a > b for a, b in zip(sizes[1], self.sizes[1])):
            self.refilled.add(s.chapter)
        self.sizes = sizes
        if not s.lead and any(p.kind == "lead" for p in s.prompts):
            self.holders.setdefault(key, {i for i, h in enumerate(s.hands) if h})
        if s.plays:
            self.played.setdefault(key, set()).update(p.seat for p in s.plays)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_chapter_has_at_most_six_rounds_not_ended_by_a_pass(players):
    """ARCS-318: every round that is not a pass takes a card from every seat holding one, so
    with 6 cards dealt no chapter has more than 6 such rounds (bot games; the bound is
    checked in chapters where no card effect gave an action card back)."""
    for seed in range(3):
        log = RoundLog()
        played = play_game("arcs", players, seed, after_action=log)
        assert played.table.state.finished
        checked = 0
        for key, seats in log.played.items():
            if key in log.holders:
                assert log.holders[key] <= seats, (key, log.holders[key], seats)
                checked += 1
        assert checked
        per_chapter = {}
        for chapter, _ in log.played:
            per_chapter[chapter] = per_chapter.get(chapter, 0) + 1
        for chapter, n in per_chapter.items():
            if chapter not in log.refilled:
                assert n <= 6, (chapter, n)


def test_six_copies_a_round_make_a_chapter_of_six_rounds():
    """ARCS-318: six cards each, one played per seat per round, no pass: exactly 6 rounds,
    then the chapter ends."""
    t = table(3)
    rounds = 0
    while t.state.chapter == 1:
        s = t.state
        holder = s.initiative
        answer(t, holder, "lead", card=s.hands[holder][0])
        if prompt_of(t, holder).kind == "declare":
            answer(t, holder, "declare", ambition="")
        act(t, holder, "done")
        while t.state.chapter == 1 and t.state.lead:
            (p,) = t.state.prompts
            if p.kind == "follow":
                answer(t, p.seat, "play", card=t.state.hands[p.seat][0], kind="copy")
            elif p.kind == "seize":
                answer(t, p.seat, "seize", card="")
            else:
                act(t, p.seat, "done")
        rounds += 1
    assert rounds == 6
