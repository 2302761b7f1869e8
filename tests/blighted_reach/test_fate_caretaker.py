"""The Caretaker (FATE05, F501-F521) through the engine: the Golems' setup, awakening and
spending them, the Unstable and Golem Worship Vox cards, Knowledge Set Free, the Act II
and III cards. Each test names the card it proves."""
from __future__ import annotations

import msgspec
import pytest

from core.engine import view_events
from plugins.arcs.content import box_for
from plugins.blighted_reach import fate_caretaker as ct
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.invariants import problems
from plugins.blighted_reach.rules_box import rules_box
from plugins.blighted_reach.state import Golem
from tests.blighted_reach.flow_helpers import ready

CBOX = campaign_box()


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def caretaker_table(players: int = 3, seed: int = 1, seat: int = 0):
    return ready(players, seed, wanted={seat: ct.CARETAKER})


def sound(t) -> None:
    assert problems(rules_box(), CBOX, t.state) == []


# -- F501: Act I setup -----------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_F501_sleeping_golems_at_the_gates_of_the_clusters_without_imperial_ships(players):
    """F501: the Caretaker gains F502-F504, the two laws go into the booklet, and one
    Sleeping Golem stands at the gate of each cluster with no Imperial ship (four)."""
    t = caretaker_table(players, seed=3)
    s = t.state
    assert set(s.players[0].lore) >= {"F502", "F503"} and "F504" in s.players[0].guild
    assert ["F505"] in s.booklet and ["F506"] in s.booklet
    box = box_for(s)
    empire = {box.cluster_of(x) for x in s.imperial}
    gates = sorted(c.gate for c in box.map.clusters if c.id not in empire)
    assert len(gates) == 4
    assert sorted(g.place for g in s.golems.values()) == sorted(ct.on_map(g) for g in gates)
    assert sorted(s.golems) == sorted(ct.GOLEMS)
    assert not any(g.awake for g in s.golems.values())
    sound(t)


def test_F501_sleeping_golems_types_are_secret_in_views_and_events():
    """F501/F505: a Sleeping Golem shows no type to anyone (the tokens are shuffled face down)."""
    t = caretaker_table(3, seed=3)
    for viewer in (None, 0, 1, 2):
        shown = t.view(viewer)["golems"]
        assert len(shown) == 4 and all(g["type"] == "" and not g["awake"] for g in shown)


def test_F501_golem_placement_follows_the_table_rng():
    """F501: two tables with the same seed place the same Golems at the same gates; the
    shuffle is announced without its order."""
    a, b = caretaker_table(3, seed=3), caretaker_table(3, seed=3)
    assert a.state.golems == b.state.golems


def test_golems_invariant_finds_a_golem_in_no_place_or_on_a_missing_hearth():
    """Each Golem is in exactly one known place (the Caretaker's pieces)."""
    t = caretaker_table(3, seed=3)
    s = t.state
    s.golems["warrior"] = Golem(place="map:nowhere")
    assert any("warrior" in p for p in problems(rules_box(), CBOX, s))
    s.golems["warrior"] = Golem(place=ct.on_hearth(1))  # seat 1 holds no Golem Hearth
    assert any("Golem Hearth" in p for p in problems(rules_box(), CBOX, s))
    del s.golems["warrior"]
    assert any("not the four" in p for p in problems(rules_box(), CBOX, s))
