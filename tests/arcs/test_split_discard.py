"""The action discard in both modes, through the engine: by default one face-down pile
(ARCS-108, ARCS-111); with the Split Discard variant (ARCS-283) the face-up plays on a public
pile of their own, the face-down cards still secret, draws from the face-down pile."""
from __future__ import annotations

import json

import pytest

from core.engine import create_table
from core.errors import BadOption
from plugins.arcs.graphql import from_view
from plugins.arcs.invariants import problems
from plugins.arcs.content import default_box
from tests.arcs.flow_helpers import act, answer, clear_map, prompt_of, restart_round
from tests.arcs.flow_helpers import play_round as play_whole_round
from tests.arcs.test_abilities_in_play import in_court, listed

HANDS = [["CON3", "ADM4"], ["MOB5", "ADM2", "MOB2"], ["ADM3", "AGG2"]]
VIEWERS = (0, 1, 2, None)


def split_table(on: bool, players: int = 3):
    options = {"setup_card": "3SETUP01"} if players == 3 else {}
    if on:
        options["split_discard"] = True
    return create_table("arcs", players, seed=1, options=options)


def play_round(t) -> None:
    """Seat 0 leads CON3; seat 1 Pivots MOB5 and seizes with ADM2 face down; seat 2 Copies
    ADM3 face down."""
    restart_round(t, HANDS, initiative=0)
    answer(t, 0, "lead", card="CON3")
    answer(t, 0, "declare", ambition="")
    act(t, 0, "done")
    answer(t, 1, "play", card="MOB5", kind="pivot")
    answer(t, 1, "seize", card="ADM2")
    act(t, 1, "done")
    answer(t, 2, "play", card="ADM3", kind="copy")
    act(t, 2, "done")


def seen(t, viewer) -> str:
    return json.dumps(t.view(viewer))


def test_default_mode_discards_every_played_card_face_down_ARCS_108_111():
    """Off (the default): the lead, the Pivot, the Copy and the seize card all go onto the one
    face-down pile (on top); no viewer sees any of them there, only the pile's size."""
    t = split_table(on=False)
    assert t.state.options["split_discard"] is False
    play_round(t)
    s = t.state
    assert s.action_discard[:4] == ["CON3", "MOB5", "ADM2", "ADM3"] and s.action_discard_up == []
    for viewer in VIEWERS:
        view = t.view(viewer)
        assert view["action_discard_up"] == [] and view["action_discard_count"] == len(s.action_discard)
        assert all(card not in seen(t, viewer) for card in ("CON3", "MOB5", "ADM2", "ADM3"))
        gql = from_view(view)
        assert gql.split_discard is False and gql.action_discard_face_up == []
    assert problems(default_box(), s) == []


def test_split_discard_puts_face_up_plays_on_a_public_pile_and_keeps_face_down_ones_secret_ARCS_283():
    """On: the face-up plays (lead, Pivot) go onto the public pile, shown to every viewer and
    over GraphQL; the Copy and the seize card go face down and no other viewer (nor a
    spectator) finds them anywhere in the view; the owner does not see them either once
    discarded (they are in the secret pile)."""
    t = split_table(on=True)
    play_round(t)
    s = t.state
    assert s.action_discard_up == ["CON3", "MOB5"]
    assert s.action_discard[:2] == ["ADM2", "ADM3"] and "CON3" not in s.action_discard
    for viewer in VIEWERS:
        view = t.view(viewer)
        assert view["action_discard_up"] == ["CON3", "MOB5"]
        assert view["action_discard_count"] == len(s.action_discard)
        gql = from_view(view)
        assert gql.split_discard is True and gql.action_discard_face_up == ["CON3", "MOB5"]
        assert gql.action_discard_count == len(s.action_discard)
        if viewer != 1:
            assert "ADM2" not in seen(t, viewer)  # seat 1's seize card
        if viewer != 2:
            assert "ADM3" not in seen(t, viewer)  # seat 2's Copy
    assert problems(default_box(), s) == []


def test_split_discard_option_refuses_a_non_boolean_ARCS_283():
    with pytest.raises(BadOption):
        create_table("arcs", 3, seed=1, options={"split_discard": "yes"})


def _call_to_action(t, face_down: list[str], face_up: list[str]):
    """Seat 0 leads AGG4 and secures Call to Action (BC31) with the discard piles set to
    these cards (every other card in the deck pile, out of the way); the draw comes with
    the Secure."""
    clear_map(t)
    in_court(t, "BC31", [2, 0, 0])
    restart_round(t, [["AGG4"], ["MOB2"], ["MOB3"]], initiative=0)
    s = t.state
    rest = [c for c in s.action_discard if c not in face_down + face_up]
    s.action_discard, s.action_discard_up, s.action_deck = list(face_down), list(face_up), rest
    answer(t, 0, "lead", card="AGG4")
    if prompt_of(t, 0).kind == "declare":
        answer(t, 0, "declare", ambition="")
    (secure,) = listed(t, 0, act="secure", card="BC31", pay=-1)
    t.act(0, secure)  # the draw is mandatory and has no choice: it happens unasked


def test_split_discard_draws_from_the_face_down_pile_bottom_ARCS_283():
    """"Draw from the action discard" (Call to Action, BC31) takes the face-down pile's
    bottom card; the public pile is left alone and nothing is shuffled."""
    t = split_table(on=True)
    _call_to_action(t, face_down=["ADM5", "CON6"], face_up=["ADM2", "CON4"])
    s = t.state
    assert s.hands[0] == ["CON6"] and s.action_discard == ["ADM5"] and s.action_discard_up == ["ADM2", "CON4"]
    assert not [e for e in t.events if e.type == "shuffle"]  # the events of the draw


def test_split_discard_shuffles_both_piles_together_when_the_face_down_one_is_too_small_ARCS_283():
    """The face-down pile empty: the face-up pile joins it, the two are shuffled (a public
    event telling only the count) and the card drawn is one of them; the public pile is gone."""
    t = split_table(on=True)
    _call_to_action(t, face_down=[], face_up=["ADM2", "CON4"])
    s = t.state
    assert s.action_discard_up == [] and len(s.hands[0]) == 1
    assert sorted(s.hands[0] + s.action_discard) == ["ADM2", "CON4"]
    (shuffle,) = [e for e in t.events if e.type == "shuffle"]  # the events of the draw
    assert shuffle.data == {"what": "action discard", "count": 2}
    assert problems(default_box(), s) == []


def test_split_discard_piles_both_go_back_into_the_deal_at_chapter_end_ARCS_283_255():
    """The chapter's last round leaves cards on the public pile; the deal takes every card back
    (ARCS-255): the public pile is empty again and every card is in exactly one place."""
    t = split_table(on=True)
    restart_round(t, [["CON2"], ["CON5"], ["ADM3"]], initiative=0)
    play_whole_round(t, "CON2", [("CON5", "surpass"), ("ADM3", "copy")])
    s = t.state
    assert s.chapter == 2 and s.action_discard_up == []
    assert all(len(h) == 6 for h in s.hands) and len(s.action_discard) == 2  # ARCS-317: 20 cards, 3 players
    assert problems(default_box(), s) == []
