"""Chapters, rounds and the order within a turn (digest sections 5 and 6), played through
the engine: leading, declaring, following, seizing, the initiative and the discard."""
from __future__ import annotations

import pytest

from core.errors import ActionRejected
from core.state import Action, encode_msgpack
from plugins.arcs.state import Marker
from tests.arcs.flow_helpers import act, answer, prompt_of, restart_round, table


def kinds(t, seat: int, card: str) -> set[str]:
    return {a.params["kind"] for a in t.legal(seat) if a.type == "play" and a.params["card"] == card}


def refused(t, seat: int, type_: str, **params) -> None:
    before = encode_msgpack(t.state)
    with pytest.raises(ActionRejected):
        t.act(seat, Action(type_, params))
    assert encode_msgpack(t.state) == before


def lead(t, seat: int, card: str, ambition: str = "") -> None:
    answer(t, seat, "lead", card=card)
    if prompt_of(t, seat) is not None and prompt_of(t, seat).kind == "declare":
        answer(t, seat, "declare", ambition=ambition)


def follow(t, seat: int, card: str, kind: str, seize: str | None = "") -> None:
    answer(t, seat, "play", card=card, kind=kind)
    if prompt_of(t, seat).kind == "seize":
        answer(t, seat, "seize", card=seize)
    act(t, seat, "done")


# -- 5.1 chapters and rounds ----------------------------------------------------------------
def test_ARCS_072_the_game_ends_after_the_fifth_chapter():
    """ARCS-072: a chapter 4 ended by passes is followed by chapter 5; chapter 5's end ends
    the game even though nobody reached the Power to win."""
    t = table(3)
    t.state.chapter = 4
    restart_round(t, [["CON3"], ["CON4"], ["CON5"]], initiative=0)
    for seat in (0, 1, 2):
        answer(t, seat, "pass")
    assert t.state.chapter == 5 and not t.state.finished
    lead_seat = t.state.initiative
    for i in range(3):
        answer(t, (lead_seat + i) % 3, "pass")
    s = t.state
    assert s.finished and s.chapter == 5 and max(p.power for p in s.players) < 30


def test_ARCS_073_110_a_chapter_runs_rounds_until_the_hands_are_empty_no_refill():
    """ARCS-073: with two cards each, the first round leaves the chapter going and a second
    round starts; after the second the hands are empty and the chapter ends. ARCS-110:
    between rounds nobody draws, the hands only shrink."""
    t = table(3)
    restart_round(t, [["CON3", "ADM5"], ["CON4", "MOB3"], ["CON2", "MOB6"]], initiative=0)
    lead(t, 0, "CON3")
    act(t, 0, "done")
    follow(t, 1, "CON4", "surpass")
    follow(t, 2, "CON2", "copy")
    s = t.state
    assert s.chapter == 1 and s.hands == [["ADM5"], ["MOB3"], ["MOB6"]] and s.action_deck == []
    assert s.initiative == 1 and prompt_of(t, 1).kind == "lead"
    lead(t, 1, "MOB3")
    act(t, 1, "done")
    follow(t, 2, "MOB6", "surpass")
    follow(t, 0, "ADM5", "pivot")
    assert t.state.chapter == 2 and all(len(h) == 6 for h in t.state.hands)


def test_ARCS_074_076_one_turn_each_in_order_then_initiative_then_discard():
    """ARCS-074: every player one turn, in turn order from the initiative holder (seat 2
    here, then 0, then 1); ARCS-076: lead, the others clockwise, the initiative checked, the
    cards discarded, a new round led by the holder."""
    t = table(3)
    restart_round(t, [["CON2", "ADM2"], ["CON6", "ADM3"], ["CON3", "ADM4"]], initiative=2)
    discard = len(t.state.action_discard)
    assert [p.seat for p in t.state.prompts] == [2] and prompt_of(t, 2).kind == "lead"
    lead(t, 2, "CON3")
    act(t, 2, "done")
    assert [p.seat for p in t.state.prompts] == [0] and prompt_of(t, 0).kind == "follow"
    follow(t, 0, "CON2", "copy")
    assert [p.seat for p in t.state.prompts] == [1] and prompt_of(t, 1).kind == "follow"
    answer(t, 1, "play", card="CON6", kind="surpass")
    answer(t, 1, "seize", card="")
    assert t.state.initiative == 2  # not checked before the round's last turn
    act(t, 1, "done")
    s = t.state
    assert s.initiative == 1 and [p.seat for p in s.prompts] == [1] and prompt_of(t, 1).kind == "lead"
    assert len(s.action_discard) == discard + 3 and s.plays == [] and s.lead == ""
    assert [len(h) for h in s.hands] == [1, 1, 1]


def test_ARCS_075_a_follower_with_no_cards_is_skipped():
    """ARCS-075: 4 players, seat 2 holds nothing: after seat 1 comes seat 3."""
    t = table(4)
    restart_round(t, [["ADM3"], ["ADM4"], [], ["ADM5"]], initiative=0)
    lead(t, 0, "ADM3")
    act(t, 0, "done")
    follow(t, 1, "ADM4", "surpass")
    assert [p.seat for p in t.state.prompts] == [3] and prompt_of(t, 3).kind == "follow"
    follow(t, 3, "ADM5", "surpass")
    assert t.state.initiative == 3


# -- 5.2 / 5.3 leading and declaring ---------------------------------------------------------
def test_ARCS_080_the_lead_card_sets_the_lead_suit():
    """ARCS-080: the lead card lies face up in the Lead slot for everyone, and its suit rules
    the round: a follower's Copy buys Mobilization actions, and a higher Administration card
    cannot Surpass a Mobilization lead."""
    t = table(3)
    restart_round(t, [["MOB3"], ["ADM6"], ["CON2"]], initiative=0)
    lead(t, 0, "MOB3")
    assert t.view(2)["lead"] == "MOB3" and t.view(None)["lead"] == "MOB3"
    act(t, 0, "done")
    assert kinds(t, 1, "ADM6") == {"copy", "pivot"}
    answer(t, 1, "play", card="ADM6", kind="copy")
    assert set(t.state.turn.actions) == {"move", "influence"} and t.state.turn.pips == 1


def test_ARCS_082_087_only_the_leader_declares_once_before_acting():
    """ARCS-082: the declaration is offered to the leader at once, before the first action;
    a follower is never asked (even with a card of a declarable number); once the turn's
    actions start no declaration is possible. ARCS-087: the lead card declared once."""
    t = table(3)
    restart_round(t, [["ADM2", "ADM5"], ["ADM4", "CON4"], ["ADM3", "CON5"]], initiative=0)
    answer(t, 0, "lead", card="ADM2")
    assert prompt_of(t, 0).kind == "declare" and t.state.turn is None  # no action can come first
    answer(t, 0, "declare", ambition="tycoon")
    assert prompt_of(t, 0).kind == "arcs.act"
    assert not any(a.type == "declare" for a in t.legal(0))
    refused(t, 0, "declare", ambition="tycoon")
    act(t, 0, "done")
    answer(t, 1, "play", card="ADM4", kind="surpass")  # a 4 would declare Warlord if it led
    assert prompt_of(t, 1).kind == "seize"
    refused(t, 1, "declare", ambition="warlord")
    assert [m.id for m in t.state.ambition_boxes["tycoon"]] == ["A"]
    assert all(not t.state.ambition_boxes[a] for a in ("tyrant", "warlord", "keeper", "empath"))


def test_ARCS_084_the_highest_valued_available_marker_goes_and_the_number_becomes_0():
    """ARCS-084: with B (first place 3) and the flipped C (first place 4) Available, the
    declaration takes C; the lead's number is 0, so in 4 players even a 1 Surpasses it."""
    t = table(4)
    restart_round(t, [["ADM2"], ["ADM1"], ["CON3"], ["CON4"]], initiative=0)
    s = t.state
    s.markers_available = [Marker("B"), Marker("C", flipped=True)]
    s.ambition_boxes["keeper"] = [Marker("A")]
    lead(t, 0, "ADM2", "tycoon")
    s = t.state
    assert [(m.id, m.flipped) for m in s.ambition_boxes["tycoon"]] == [("C", True)]
    assert [m.id for m in s.markers_available] == ["B"] and s.declared
    act(t, 0, "done")
    assert "surpass" in kinds(t, 1, "ADM1")


def test_ARCS_086_an_ambition_declared_in_two_rounds_holds_two_markers():
    """ARCS-086: Tycoon declared with a 2 in round 1 (marker A) and again with another 2 in
    round 2 of the same chapter (marker B): its box holds both."""
    t = table(3)
    restart_round(t, [["ADM2", "MOB5"], ["ADM4", "CON2"], ["ADM3", "MOB6"]], initiative=0)
    lead(t, 0, "ADM2", "tycoon")
    act(t, 0, "done")
    follow(t, 1, "ADM4", "surpass")
    follow(t, 2, "ADM3", "surpass")
    assert t.state.initiative == 1 and t.state.chapter == 1
    answer(t, 1, "lead", card="CON2")
    assert [a.params["ambition"] for a in t.legal(1)] == ["tycoon", ""]
    answer(t, 1, "declare", ambition="tycoon")
    s = t.state
    assert [m.id for m in s.ambition_boxes["tycoon"]] == ["A", "B"] and [m.id for m in s.markers_available] == ["C"]


def test_ARCS_089_the_zero_marker_goes_home_at_round_end():
    """ARCS-089: after a declared round the zero marker is off every card: the next round's
    lead (a 3, not declared) keeps its number, so a Construction 2 can only Copy it."""
    t = table(3)
    restart_round(t, [["ADM2", "CON2"], ["ADM4", "CON3"], ["ADM3", "MOB3"]], initiative=0)
    lead(t, 0, "ADM2", "tycoon")
    assert t.state.declared and t.view(1)["declared"]
    act(t, 0, "done")
    follow(t, 1, "ADM4", "surpass")
    follow(t, 2, "ADM3", "surpass")
    s = t.state
    assert s.initiative == 1 and not s.declared and s.ambition_declared == "" and not t.view(0)["declared"]
    lead(t, 1, "CON3", "")
    assert not t.state.declared
    act(t, 1, "done")
    follow(t, 2, "MOB3", "pivot")
    assert kinds(t, 0, "CON2") == {"copy"}


# -- 5.4 following ---------------------------------------------------------------------------
def test_ARCS_090_a_follower_with_cards_must_play_exactly_one():
    """ARCS-090: a follower is offered only plays (no pass); a pass or two cards are refused;
    after the play the hand is one card smaller."""
    t = table(3)
    restart_round(t, [["CON3"], ["CON5", "ADM2"], ["MOB2"]], initiative=0)
    lead(t, 0, "CON3")
    act(t, 0, "done")
    assert {a.type for a in t.legal(1)} == {"play"}
    refused(t, 1, "pass")
    refused(t, 1, "play", card="CON5", kind="surpass", extra="ADM2")
    answer(t, 1, "play", card="CON5", kind="surpass")
    assert t.state.hands[1] == ["ADM2"] and prompt_of(t, 1).kind == "seize"


def test_ARCS_092_a_surpass_is_compared_with_the_lead_only():
    """ARCS-092: after a Construction 6 Surpassed a Construction 2 lead, a Construction 4 may
    still Surpass (4 > 2); the 6 takes the initiative."""
    t = table(3)
    restart_round(t, [["CON2"], ["CON6"], ["CON4"]], initiative=0)
    lead(t, 0, "CON2", "")
    act(t, 0, "done")
    follow(t, 1, "CON6", "surpass")
    assert kinds(t, 2, "CON4") == {"copy", "surpass"}
    answer(t, 2, "play", card="CON4", kind="surpass")
    assert t.state.turn.pips == 3 and t.state.turn.actions == ["build", "repair"]
    act(t, 2, "done")
    assert t.state.initiative == 1


def test_ARCS_095_097_a_pivot_keeps_the_lead_suit_and_plays_lie_in_their_slot():
    """ARCS-095: after an Administration Pivot on a Construction lead, the next follower
    still Surpasses with Construction, Copies for Construction actions and Pivots with
    Administration. ARCS-097: the round's plays are kept apart from the lead, face up but
    the Copy."""
    t = table(3)
    restart_round(t, [["CON3"], ["ADM5"], ["CON4", "ADM6"]], initiative=0)
    lead(t, 0, "CON3", "")
    act(t, 0, "done")
    follow(t, 1, "ADM5", "pivot")
    assert t.state.lead == "CON3"
    assert kinds(t, 2, "CON4") == {"copy", "surpass"} and kinds(t, 2, "ADM6") == {"copy", "pivot"}
    answer(t, 2, "play", card="ADM6", kind="copy")
    answer(t, 2, "seize", card="")
    assert t.state.turn.actions == ["build", "repair"]
    plays = [(p.seat, p.kind, p.card) for p in t.state.plays]
    assert plays == [(0, "lead", "CON3"), (1, "pivot", "ADM5"), (2, "copy", "")]
    assert [p.get("card", "") for p in t.view(0)["plays"]] == ["CON3", "ADM5", ""]


# -- 5.5 seizing -----------------------------------------------------------------------------
def test_ARCS_098_113_seizing_is_offered_on_playing_before_any_prelude_or_action():
    """ARCS-098: the seize choice comes right after the follower's card and before the turn
    opens; ARCS-113: while it is open, no Prelude spend nor action is accepted; once the
    turn has opened, a seize is refused."""
    t = table(3)
    restart_round(t, [["CON3"], ["CON5", "ADM2"], ["MOB2"]], initiative=0)
    lead(t, 0, "CON3", "")
    act(t, 0, "done")
    answer(t, 1, "play", card="CON5", kind="surpass")
    assert prompt_of(t, 1).kind == "seize" and t.state.turn is None
    refused(t, 1, "act", act="spend", pay=0)
    refused(t, 1, "act", act="done")
    answer(t, 1, "seize", card="")
    assert prompt_of(t, 1).kind == "arcs.act" and t.state.turn.prelude
    refused(t, 1, "seize", card="ADM2")
    assert not t.state.seized


def test_ARCS_112_113_turn_order_play_declare_prelude_pips():
    """ARCS-112: the card is played, then the declaration is asked, then the Prelude opens
    (a resource can be spent), then the first pip closes it; ARCS-113: while the
    declaration is open a Prelude spend is refused."""
    t = table(3)
    restart_round(t, [["ADM2"], ["CON5"], ["MOB2"]], initiative=0)
    s = t.state
    assert s.players[0].resources[0] is not None
    answer(t, 0, "lead", card="ADM2")
    assert prompt_of(t, 0).kind == "declare"
    refused(t, 0, "act", act="spend", pay=0)
    answer(t, 0, "declare", ambition="tycoon")
    turn = t.state.turn
    assert turn.prelude and turn.pips == 4
    act(t, 0, "spend", pay=0)
    turn = t.state.turn
    assert turn.prelude and len(turn.aside) == 1 and turn.pips == 4
    act(t, 0, "influence", card=t.state.court_row[0])
    turn = t.state.turn
    assert not turn.prelude and turn.pips == 3 and turn.aside == []
    refused(t, 0, "act", act="spend", pay=1)


def test_ARCS_100_101_a_seven_seizes_by_itself_and_keeps_its_pip():
    """ARCS-100: in 4 players a Surpass with a 7 seizes the initiative, no choice asked, and
    its one pip is still taken; ARCS-101: once someone seized, a later 7 is an ordinary
    Surpass and the first seizer keeps the initiative."""
    t = table(4)
    restart_round(t, [["ADM3"], ["ADM7", "CON2"], ["ADM4"], ["ADM5"]], initiative=0)
    lead(t, 0, "ADM3", "")
    act(t, 0, "done")
    answer(t, 1, "play", card="ADM7", kind="surpass")
    s = t.state
    assert s.seized and s.initiative == 1 and prompt_of(t, 1).kind == "arcs.act"
    assert s.turn.pips == 1 and s.hands[1] == ["CON2"]
    act(t, 1, "done")
    follow(t, 2, "ADM4", "surpass")
    follow(t, 3, "ADM5", "surpass")
    assert t.state.initiative == 1  # the 5 is the highest Surpass after the 7, the seize wins

    t = table(4)
    restart_round(t, [["ADM3"], ["ADM4", "CON2"], ["ADM7"], ["ADM5"]], initiative=0)
    lead(t, 0, "ADM3", "")
    act(t, 0, "done")
    follow(t, 1, "ADM4", "surpass", seize="CON2")
    assert t.state.seized and t.state.initiative == 1
    answer(t, 2, "play", card="ADM7", kind="surpass")
    assert t.state.initiative == 1 and t.state.turn.pips == 1
    act(t, 2, "done")
    follow(t, 3, "ADM5", "surpass")
    assert t.state.initiative == 1


@pytest.mark.parametrize("card, kind", [("CON5", "surpass"), ("ADM5", "pivot"), ("CON2", "copy")])
def test_ARCS_104_a_seizer_plays_any_kind_and_gets_its_actions(card, kind):
    """ARCS-104: seizing (an extra card face down) with a Surpass, a Pivot or a Copy: the
    play buys what its kind buys, and the seizer holds the initiative after the round."""
    t = table(3)
    restart_round(t, [["CON3"], [card, "MOB4"], ["MOB2"]], initiative=0)
    lead(t, 0, "CON3", "")
    act(t, 0, "done")
    answer(t, 1, "play", card=card, kind=kind)
    answer(t, 1, "seize", card="MOB4")
    turn = t.state.turn
    expected = {"surpass": (2, ["build", "repair"]), "pivot": (1, ["tax", "repair", "influence"]),
                "copy": (1, ["build", "repair"])}[kind]
    assert t.state.seized and (turn.pips, turn.actions) == expected
    act(t, 1, "done")
    follow(t, 2, "MOB2", "pivot")
    assert t.state.initiative == 1
