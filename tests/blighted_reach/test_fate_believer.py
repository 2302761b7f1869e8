"""The Believer (FATE08, F801-F831) through the engine: the Faithful stack, the Faithful
action cards played on their Zeal or Wisdom side, Spreading the Faith, Faithful Disciples,
the laws, the Ideals and Doctrines of Act II and Act III. Each test names the card it proves."""
from __future__ import annotations

import msgspec
import pytest

from plugins.blighted_reach import fate_believer as bv
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.invariants import problems
from plugins.blighted_reach.rules_box import rules_box
from tests.blighted_reach.flow_helpers import ready

CBOX = campaign_box()


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def believer_table(players: int = 3, seed: int = 1, seat: int = 0):
    return ready(players, seed, wanted={seat: bv.BELIEVER})


def sound(t) -> None:
    assert problems(rules_box(), CBOX, t.state) == []


# -- F801: Act I setup -----------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_F801_faithful_cards_stacked_nine_on_top(players):
    """F801: the Believer gains Faithful Disciples (guild) and Spreading the Faith (ability),
    the nine Faithful cards are stacked "9" (F812) on top down to "1" (F804), and the two
    laws F813, F814 go into the booklet."""
    t = believer_table(players, seed=3)
    s = t.state
    assert "F802" in s.players[0].guild and "F803" in s.play_area[0]
    assert s.faithful_stack == ["F812", "F811", "F810", "F809", "F808", "F807", "F806", "F805", "F804"]
    assert ["F813"] in s.booklet and ["F814"] in s.booklet
    assert t.view(1)["faithful_stack"] == s.faithful_stack  # public
    sound(t)


def test_faithful_invariant_finds_a_card_twice_or_lost():
    t = believer_table(3, seed=3)
    s = t.state
    s.hands[1].append("F812")  # also on the stack
    assert any("F812" in p for p in problems(rules_box(), CBOX, s))
    s.hands[1].remove("F812")
    s.faithful_stack.remove("F804")
    assert any("F804" in p and "none" in p for p in problems(rules_box(), CBOX, s))
