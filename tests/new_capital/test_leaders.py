"""Leader rules of The Queen's New Capital (QNC-100..109), played through the engine."""
from __future__ import annotations

import json
import shutil

import pytest

from core.errors import ActionRejected, ContentError
from core.state import Event
from plugins.new_capital.content import DEFAULT_PACK, LEADER_TYPES, load_pack
from tests.new_capital.harness import (
    PACK, act, add_column, auto, card_of, check, kinds, move_card, new_game, options, pl, prompt,
    put_leader, set_hand, set_pool,
)
from tests.new_capital.harness import clear_leaders, scripted  # shared arrangements

FIRST = 1  # seed 0, 4 players: seat 1 is the first player of round 1


# -- local helpers ----------------------------------------------------------------------


def empty_hands(table) -> None:
    for s in range(len(table.state.players)):
        set_hand(table, s, [])


def phased(events):
    """(round, phase, event) for each event, tracking the phase events."""
    rnd, phase, out = 0, "", []
    for e in events:
        if e.type == "phase":
            rnd, phase = e.data["round"], e.data["phase"]
        out.append((rnd, phase, e))
    return out


def leader_fires(events, card):
    return [(r, ph, e.data["seat"]) for r, ph, e in phased(events) if e.type == "leader" and e.data["card"] == card]


def play_until_round(table, n, policy=None):
    """auto() until round n starts; the events begin with a marker of the current phase."""
    start = Event(type="phase", data={"round": table.state.round, "phase": table.state.phase})
    return [start] + auto(table, until=lambda t: t.state.round >= n, policy=policy)


def recruit(table, seat, leader, column, slot):
    """Play the seat's basic Recruit and take `leader` to (column, slot); returns events."""
    events = act(table, seat, "play", card=card_of(seat, "B-RECRUIT"))
    if prompt(table, seat) and prompt(table, seat).kind == "recruit":
        events += act(table, seat, "recruit", card=leader)
    events += act(table, seat, "leader_slot", card=leader, column=column, slot=slot)
    return events


def recruit_table(pool=("L39", "L27", "L09")):
    """Seat 1 (first player) holds only Recruit, has no leader, and the pool is `pool`."""
    t = new_game(4, seed=0)
    clear_leaders(t)
    set_pool(t, "leaders", list(pool))
    set_hand(t, FIRST, [card_of(FIRST, "B-RECRUIT")])
    return t


# -- QNC-100 ----------------------------------------------------------------------------
def test_every_leader_has_one_of_three_types_matching_its_trigger_QNC_100(tmp_path):
    """QNC-100: each leader is Score, Development or Crisis, and its ability works as that type;
    a pack with a leader of another type, or a type whose trigger does not fit, is refused."""
    triggers = {"score": {"score"}, "development": {"play"},
                "crisis": {"crisis_total", "crisis_reward", "crisis_penalty"}}
    assert set(LEADER_TYPES) == {"score", "development", "crisis"}
    seen = set()
    for leader in PACK.leaders.values():
        assert leader.type in triggers, leader.id
        assert leader.ability.trigger in triggers[leader.type], leader.id
        seen.add(leader.type)
    assert seen == {"score", "development", "crisis"}

    def broken(change):
        folder = tmp_path / change
        shutil.copytree(DEFAULT_PACK, folder)
        data = json.loads((folder / "leaders.json").read_text())
        target = next(d for d in data if d["id"] == "L02")  # a Score leader
        if change == "unknown_type":
            target["type"] = "hero"
        else:
            target["type"] = "development"  # keeps its score trigger
        (folder / "leaders.json").write_text(json.dumps(data))
        return folder

    for change in ("unknown_type", "wrong_trigger"):
        with pytest.raises(ContentError):
            load_pack(broken(change))
    load_pack(DEFAULT_PACK)  # the real pack loads


# -- QNC-101 ----------------------------------------------------------------------------
def test_score_leader_fires_every_score_phase_only_when_its_condition_holds_QNC_101():
    """QNC-101: an unconditional Score leader fires in each Score phase; one needing 3+ columns
    stays silent while its owner has 1 column and fires once the owner has 3."""
    t = new_game(4, seed=0)
    clear_leaders(t)
    put_leader(t, 0, "L02", 0, 0)   # Score: +1 Influence, no condition
    put_leader(t, 0, "L01", 0, 1)   # Score: +1 Influence with 3+ columns
    empty_hands(t)
    events = play_until_round(t, 2)
    assert leader_fires(events, "L02") == [(1, "score", 0)]
    assert leader_fires(events, "L01") == []

    add_column(t, 0, "S01")
    add_column(t, 0, "S02")
    empty_hands(t)
    events2 = play_until_round(t, 3)
    assert leader_fires(events2, "L02") == [(2, "score", 0)]
    assert leader_fires(events2, "L01") == [(2, "score", 0)]
    assert all(ph == "score" for ph in [f[1] for f in leader_fires(events + events2, "L02")])
    check(t)


# -- QNC-102 ----------------------------------------------------------------------------
def test_development_leader_fires_only_on_its_owners_matching_card_plays_QNC_102():
    """QNC-102: a Raise Morale Development leader fires once, when its owner plays Raise Morale;
    not for the owner's other card, nor the owner's board action, nor another seat's Raise
    Morale, nor when the card is revealed in the Crisis phase."""
    t = new_game(4, seed=0)
    clear_leaders(t)
    put_leader(t, 0, "L29", 0, 0)   # Development: when you play Raise Morale, +1 Morale
    empty_hands(t)
    set_hand(t, 0, [card_of(0, "B-ENVOY"), card_of(0, "B-MORALE")])
    set_hand(t, FIRST, [card_of(FIRST, "B-MORALE")])
    plan = {(0, "turn"): [{"action": "scout", "row": "t1", "match": "port"},
                          {"card": card_of(0, "B-ENVOY")}, {"card": card_of(0, "B-MORALE")}]}
    events = play_until_round(t, 2, scripted(plan))
    fires = leader_fires(events, "L29")
    assert fires == [(1, "development", 0)]
    idx = next(i for i, e in enumerate(events) if e.type == "leader" and e.data["card"] == "L29")
    play = max(i for i, e in enumerate(events[:idx]) if e.type == "play")
    assert events[play].data == {"seat": 0, "card": card_of(0, "B-MORALE"), "face_up": False}
    gained = [e.data for e in events[idx:idx + 3] if e.type == "attribute"]
    assert gained and gained[0]["seat"] == 0 and gained[0]["track"] == "morale"
    check(t)


# -- QNC-103 ----------------------------------------------------------------------------
def test_crisis_leaders_act_only_in_the_crisis_phase_QNC_103():
    """QNC-103: a penalty Crisis leader ignores the Hunger from building in the Development
    phase and fires on each crisis penalty in the Crisis phase; a total Crisis leader adds to
    its owner's warfare total in the check."""
    t = new_game(4, seed=0)
    clear_leaders(t)
    move_card(t, "C2C", "crisis")   # warfare: individual 3, Hunger; political: individual 2, Rebellion
    put_leader(t, 0, "L11", 0, 0)   # Crisis: when you take a crisis penalty, +1 control token
    put_leader(t, 0, "L48", 0, 1)   # Crisis: +2 power in the warfare crisis
    empty_hands(t)
    set_hand(t, 0, [card_of(0, "B-BUILD")])
    set_hand(t, 2, [card_of(2, "B-MOBILIZE")])
    events = play_until_round(t, 2)
    built = [e for e in events if e.type == "build" and e.data["seat"] == 0]
    hungry = [(r, ph) for r, ph, e in phased(events) if e.type == "hunger" and e.data["seat"] == 0]
    assert built and (1, "development") in hungry           # the Build gave Hunger ...
    assert leader_fires(events, "L11") == [(1, "crisis", 0), (1, "crisis", 0)]  # ... but no fire
    checks = {e.data["kind"]: e.data for e in events if e.type == "crisis_check"}
    assert checks["warfare"]["totals"][0] == 2   # no cards, +2 from the leader
    assert checks["warfare"]["totals"][2] == 2   # Mobilize Army only
    assert checks["political"]["totals"][0] == 0
    check(t)


# -- QNC-104 / QNC-105 --------------------------------------------------------------------
def test_recruit_onto_occupied_slot_flips_old_leader_which_stops_scoring_QNC_104_105():
    """QNC-104: a recruited leader may take an occupied slot, flipping the old one face down.
    QNC-105: the flipped Score leader no longer fires in the Score phase."""
    t = recruit_table()
    put_leader(t, FIRST, "L02", 0, 0)   # Score: +1 Influence
    ev = recruit(t, FIRST, "L39", 0, 0)  # L39 Score: +1 Might
    assert prompt(t, FIRST).kind == "displace"
    opts = options(t, FIRST, "displace")
    assert {"to": "flip"} in opts and {"to": "0:1"} in opts
    ev += act(t, FIRST, "displace", to="flip")
    slot = pl(t, FIRST).columns[0].slots[0]
    assert slot.leader == "L39" and slot.flipped == ["L02"]
    assert any(e.type == "leader_flipped" and e.data["card"] == "L02" for e in ev)
    empty_hands(t)
    events = play_until_round(t, 2)
    assert leader_fires(events, "L39") == [(1, "score", FIRST)]
    assert leader_fires(events, "L02") == []
    check(t)


def test_flipped_development_leader_no_longer_fires_QNC_105():
    """QNC-105: after its flip, a Raise Morale Development leader ignores its owner's Raise Morale."""
    t = recruit_table()
    put_leader(t, FIRST, "L29", 0, 0)
    set_hand(t, FIRST, [card_of(FIRST, "B-RECRUIT"), card_of(FIRST, "B-MORALE")])
    recruit(t, FIRST, "L39", 0, 0)
    act(t, FIRST, "displace", to="flip")
    assert pl(t, FIRST).columns[0].slots[0].flipped == ["L29"]
    for s in (0, 2, 3):
        set_hand(t, s, [])
    events = play_until_round(t, 2)
    assert any(e.type == "play" and e.data.get("card") == card_of(FIRST, "B-MORALE") for e in events)
    assert leader_fires(events, "L29") == []
    check(t)


# -- QNC-104 / QNC-106 --------------------------------------------------------------------
def test_displaced_leader_moves_only_to_an_empty_slot_without_cascade_QNC_104_106():
    """QNC-104: the old leader may instead move to a valid empty slot. QNC-106: only empty slots
    are offered (never an occupied one), so nobody else moves."""
    t = recruit_table()
    add_column(t, FIRST, "S05")
    put_leader(t, FIRST, "L02", 0, 0)
    put_leader(t, FIRST, "L27", 0, 1)
    put_leader(t, FIRST, "L09", 1, 0)
    recruit(t, FIRST, "L39", 0, 0)
    assert sorted(o["to"] for o in options(t, FIRST, "displace")) == ["1:1", "flip"]
    with pytest.raises(ActionRejected):
        act(t, FIRST, "displace", to="0:1")   # occupied: would cascade
    with pytest.raises(ActionRejected):
        act(t, FIRST, "displace", to="1:0")
    ev = act(t, FIRST, "displace", to="1:1")
    cols = pl(t, FIRST).columns
    assert [s.leader for s in cols[0].slots] == ["L39", "L27"]
    assert [s.leader for s in cols[1].slots] == ["L09", "L02"]
    assert all(not s.flipped for c in cols for s in c.slots)
    assert [e.data["card"] for e in ev if e.type == "leader_moved"] == ["L02"]
    check(t)


# -- QNC-107 ----------------------------------------------------------------------------
def test_with_no_empty_slot_the_recruit_must_replace_a_leader_QNC_107():
    """QNC-107: with both slots of the only column taken, only occupied slots are offered and the
    old leader (nowhere to move) is flipped."""
    t = recruit_table()
    put_leader(t, FIRST, "L02", 0, 0)
    put_leader(t, FIRST, "L27", 0, 1)
    act(t, FIRST, "play", card=card_of(FIRST, "B-RECRUIT"))
    act(t, FIRST, "recruit", card="L39")
    slots = sorted((o["column"], o["slot"]) for o in options(t, FIRST, "leader_slot"))
    assert slots == [(0, 0), (0, 1)]
    ev = act(t, FIRST, "leader_slot", card="L39", column=0, slot=1)
    assert (FIRST, "displace") not in kinds(t)
    slot = pl(t, FIRST).columns[0].slots[1]
    assert slot.leader == "L39" and slot.flipped == ["L27"]
    assert pl(t, FIRST).columns[0].slots[0].leader == "L02"
    assert any(e.type == "leader_flipped" and e.data["card"] == "L27" for e in ev)
    check(t)


# -- QNC-108 ----------------------------------------------------------------------------
@pytest.mark.parametrize("column,bonus", [
    (1, True),    # top structure S05 is Crown, like the Crown leader
    (0, False),   # the draft column's top structure is not Crown
    (2, False),   # Crown at the bottom (S01) but a Guild Tier 2 (S27) on top
])
def test_alignment_bonus_once_when_the_columns_top_structure_shares_the_faction_QNC_108(column, bonus):
    """QNC-108: a leader first placed under a top structure of its own faction gives its
    alignment bonus (L09: +1 control token) once, at once; otherwise none."""
    t = recruit_table(pool=("L09", "L39", "L27"))
    assert PACK.structures[pl(t, FIRST).columns[0].structures[-1]].faction != "crown"
    add_column(t, FIRST, "S05")
    add_column(t, FIRST, "S01", "S27")
    before = pl(t, FIRST).reserve_control
    ev = recruit(t, FIRST, "L09", column, 0)
    assert pl(t, FIRST).columns[column].slots[0].leader == "L09"
    assert [e.data["card"] for e in ev if e.type == "alignment_bonus"] == (["L09"] if bonus else [])
    assert pl(t, FIRST).reserve_control == before + (1 if bonus else 0)
    check(t)


# -- QNC-109 ----------------------------------------------------------------------------
def test_moving_a_leader_under_a_matching_structure_gives_no_bonus_QNC_109():
    """QNC-109: a Crown leader moved into a Crown-topped column gives nothing; only the newly
    recruited, aligned leader gives its bonus."""
    t = recruit_table(pool=("L27", "L39", "L02"))
    assert PACK.structures[pl(t, FIRST).columns[0].structures[-1]].faction == "temple"
    add_column(t, FIRST, "S05")                # Crown
    put_leader(t, FIRST, "L09", 0, 1)          # Crown leader under the Temple column
    ev = recruit(t, FIRST, "L27", 0, 1)        # Temple leader (+1 control token when aligned)
    ev += act(t, FIRST, "displace", to="1:0")  # L09 moves under the Crown structure
    assert pl(t, FIRST).columns[1].slots[0].leader == "L09"
    assert [e.data["card"] for e in ev if e.type == "alignment_bonus"] == ["L27"]
    assert pl(t, FIRST).reserve_control == 1
    check(t)


def test_upgrading_the_top_structure_to_the_leaders_faction_gives_no_bonus_QNC_109():
    """QNC-109: the column's top changes to a Crown structure under a Crown leader: no bonus."""
    t = new_game(4, seed=0)
    clear_leaders(t)
    col = add_column(t, FIRST, "S04")          # March Tier 1 settlement
    put_leader(t, FIRST, "L09", col, 0)        # Crown leader, alignment +1 control token
    pl(t, FIRST).columns[col].upgrades = 1     # arrange: one Upgrade token already there
    set_pool(t, "t2", ["S26", "S30", "S34"])   # only S26 (Crown settlement) matches
    set_hand(t, FIRST, [card_of(FIRST, "B-BUILD")])
    ev = act(t, FIRST, "play", card=card_of(FIRST, "B-BUILD"))
    ev += act(t, FIRST, "build", card="upgrade")
    ev += act(t, FIRST, "upgrade_column", column=col)
    assert pl(t, FIRST).columns[col].structures == ["S04", "S26"]
    assert PACK.structures["S26"].faction == PACK.leaders["L09"].faction
    assert not any(e.type == "alignment_bonus" for e in ev)
    assert pl(t, FIRST).reserve_control == 0
    check(t)
