"""The round flow through the engine (digest section 5): leading, declaring, following,
seizing, checking the initiative, passing, and a chapter's end."""
from __future__ import annotations

import pytest

from core.errors import ActionRejected
from core.state import encode_msgpack
from tests.arcs.flow_helpers import act, answer, play_round, prompt_of, restart_round, table


def options(t, seat):
    return [(a.type, dict(a.params)) for a in t.legal(seat)]


def test_lead_declare_and_what_may_follow_ARCS_077_080_083_084_090_091_093_094_096_320():
    """ARCS-077: lead a card or pass; ARCS-083/084: a 3 declares Tyrant, the highest marker (A)
    goes there and the lead's number becomes 0; ARCS-320: then a Construction 2 Surpasses,
    a Mobilization card Pivots and any card Copies (ARCS-091/093/094/096)."""
    t = table(3)
    restart_round(t, [["CON3", "ADM2"], ["CON2", "MOB4"], ["CON4", "AGG6"]], initiative=0)
    assert options(t, 0) == [("lead", {"card": "CON3"}), ("lead", {"card": "ADM2"}), ("pass", {})]
    answer(t, 0, "lead", card="CON3")
    assert options(t, 0) == [("declare", {"ambition": "tyrant"}), ("declare", {"ambition": ""})]
    answer(t, 0, "declare", ambition="tyrant")
    s = t.state
    assert [m.id for m in s.ambition_boxes["tyrant"]] == ["A"] and s.declared
    assert [m.id for m in s.markers_available] == ["B", "C"]
    assert s.turn.pips == 3 and s.turn.actions == ["build", "repair"]  # ARCS-081, ARCS-088
    act(t, 0, "done")
    assert sorted(options(t, 1), key=str) == sorted([("play", {"card": "CON2", "kind": "copy"}),
                                            ("play", {"card": "CON2", "kind": "surpass"}),
                                            ("play", {"card": "MOB4", "kind": "copy"}),
                                            ("play", {"card": "MOB4", "kind": "pivot"})], key=str)


def test_without_a_declaration_a_lower_lead_suit_card_only_copies_ARCS_096_320():
    t = table(3)
    restart_round(t, [["CON3"], ["CON2", "MOB4"], ["CON4"]], initiative=0)
    answer(t, 0, "lead", card="CON3")
    answer(t, 0, "declare", ambition="")
    act(t, 0, "done")
    assert ("play", {"card": "CON2", "kind": "surpass"}) not in options(t, 1)
    assert ("play", {"card": "CON2", "kind": "copy"}) in options(t, 1)


def _round(t, seize_by=None):
    answer(t, 0, "lead", card="CON3")
    answer(t, 0, "declare", ambition="")
    act(t, 0, "done")
    answer(t, 1, "play", card="CON5", kind="surpass")
    answer(t, 1, "seize", card="ADM2" if seize_by == 1 else "")
    act(t, 1, "done")
    answer(t, 2, "play", card="CON6", kind="surpass")
    if seize_by is None or seize_by == 2:
        answer(t, 2, "seize", card="ADM3" if seize_by == 2 else "")
    act(t, 2, "done")


def test_initiative_goes_to_the_highest_surpass_or_the_seizer_ARCS_098_099_103_105_106_108():
    """ARCS-106: the highest Surpass number takes the initiative; ARCS-099/105: a seizer (an
    extra card face down) keeps it, and ARCS-103: nobody else may seize that round;
    ARCS-108: every played card, the seize card too, goes to the discard."""
    t = table(3)
    restart_round(t, [["CON3", "ADM4"], ["CON5", "ADM2"], ["CON6", "ADM3"]], initiative=0)
    _round(t)
    assert t.state.initiative == 2 and prompt_of(t, 2).kind == "lead"
    t = table(3)
    restart_round(t, [["CON3", "ADM4"], ["CON5", "ADM2", "MOB2"], ["CON6", "ADM3"]], initiative=0)
    discard = len(t.state.action_discard)
    _round(t, seize_by=1)
    s = t.state
    assert s.initiative == 1 and prompt_of(t, 1).kind == "lead"
    assert len(s.action_discard) == discard + 4 and s.hands[1] == ["MOB2"]


def test_no_surpass_no_seize_the_holder_keeps_it_ARCS_107():
    t = table(3)
    restart_round(t, [["CON3", "ADM4"], ["MOB5"], ["ADM3"]], initiative=0)
    answer(t, 0, "lead", card="CON3")
    answer(t, 0, "declare", ambition="")
    act(t, 0, "done")
    answer(t, 1, "play", card="MOB5", kind="pivot")
    act(t, 1, "done")
    answer(t, 2, "play", card="ADM3", kind="copy")
    assert t.state.plays[-1].card == ""  # a Copy lies face down (ARCS-093)
    act(t, 2, "done")
    assert t.state.initiative == 0


def test_the_holder_cannot_seize_and_an_empty_hand_skips_ARCS_075_102():
    t = table(3)
    restart_round(t, [["CON3"], ["CON5"], []], initiative=0)
    answer(t, 0, "lead", card="CON3")
    answer(t, 0, "declare", ambition="")
    act(t, 0, "done")
    answer(t, 1, "play", card="CON5", kind="surpass")  # last card: no seize prompt
    assert prompt_of(t, 1).kind == "arcs.act"
    act(t, 1, "done")
    # seat 2 had no card: skipped; the round is over, seat 1 surpassed and leads
    # every hand is empty: the chapter ended; the Surpasser holds the initiative and leads
    assert t.state.initiative == 1 and t.state.chapter == 2 and prompt_of(t, 1).kind == "lead"


def test_pass_moves_the_initiative_and_everyone_passing_ends_the_chapter_ARCS_078_079_245():
    """ARCS-078: a pass ends the round at once, the marker going clockwise to the next holder
    of cards; ARCS-079: when every holder passed in succession all cards are discarded and
    the chapter ends (scored, then the next deal)."""
    t = table(3)
    restart_round(t, [["CON3"], [], ["ADM3"]], initiative=0)
    answer(t, 0, "pass")
    assert t.state.initiative == 2 and prompt_of(t, 2).kind == "lead"
    chapter = t.state.chapter
    answer(t, 2, "pass")
    s = t.state
    assert s.chapter == chapter + 1 and all(len(h) == 6 for h in s.hands)  # ARCS-255


def test_a_chapter_of_rounds_ends_when_the_hands_are_empty_ARCS_109_246_251_257():
    """ARCS-109: no card left, the chapter ends; ARCS-246: the declared ambition is scored;
    ARCS-251: the markers come back with C flipped; ARCS-257: the holder keeps the initiative."""
    t = table(3)
    restart_round(t, [["CON2"], ["CON5"], ["ADM3"]], initiative=0)
    play_round(t, "CON2", [("CON5", "surpass"), ("ADM3", "copy")], ambition="tycoon")
    s = t.state
    assert s.chapter == 2 and s.initiative == 1
    assert [(m.id, m.flipped) for m in s.markers_available] == [("A", False), ("B", False), ("C", True)]
    assert all(not ms for ms in s.ambition_boxes.values())


def test_two_player_mulligan_ARCS_060_256():
    """ARCS-060: the non-holder may redraw six once; the other seat is not asked."""
    t = table(2, seed=3)
    other = 1 - t.state.initiative
    assert prompt_of(t, other).kind == "mulligan" and prompt_of(t, t.state.initiative) is None
    old = list(t.state.hands[other])
    answer(t, other, "mulligan", redraw=True)
    assert t.state.hands[other] != old and len(t.state.hands[other]) == 6
    assert t.rules.hook.conclave_check_invariants(state=t.state) == [[]]


def test_refused_plays_change_nothing():
    """Out of turn, a card not held, a kind the card cannot play: typed errors, state kept."""
    t = table(3)
    restart_round(t, [["CON3"], ["CON2"], ["ADM3"]], initiative=0)
    before = encode_msgpack(t.state)
    for seat, type_, params in [(1, "lead", {"card": "CON2"}), (0, "lead", {"card": "ADM3"}),
                                (0, "play", {"card": "CON3", "kind": "copy"})]:
        with pytest.raises(ActionRejected):
            answer(t, seat, type_, **params)
        assert encode_msgpack(t.state) == before
