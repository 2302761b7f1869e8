"""Rule tests: Alert symbols on the seal slots and the Honorary Seal chart.

Checklist IDs QNC-184 .. QNC-192 (module core).
"""
from __future__ import annotations

import pytest

from plugins.new_capital.content import TRACKS
from plugins.new_capital.scoring import honorary_position
from tests.new_capital.harness import (
    PACK, act, add_column, auto, check, move_card, new_game, options, pl, prompt, set_hand, set_pool,
    until_prompt,
)

ALERT_SLOTS = [i for i, a in enumerate(PACK.board.seal_slots) if a]
PLAIN_SLOTS = [i for i, a in enumerate(PACK.board.seal_slots) if not a]


# -- helpers -------------------------------------------------------------------------
def quiet_round(table, crisis: str = "C1A") -> None:
    """Arrange: nobody holds a card this round; the crisis is one with Hunger penalties only."""
    for seat in range(len(table.state.players)):
        set_hand(table, seat, [])
    move_card(table, crisis, "crisis")


def place_seals(table, seat: int, slots) -> None:
    p = pl(table, seat)
    for i in slots:
        p.seal_slots[i] = True
        p.seals_reserve -= 1


def policy(upgrade_column: int | None = None):
    """auto() answers: seals on a plain slot, the given column for an Upgrade token."""
    def choose(table, p):
        if p.kind == "seal_slot":
            return next((o for o in p.options if o.params["slot"] in PLAIN_SLOTS), None)
        if p.kind == "upgrade_column" and upgrade_column is not None:
            return next((o for o in p.options if o.params["column"] == upgrade_column), None)
        return None
    return choose


def score_seal_prompt(sid: str, seat_pick=lambda t: t.state.first, arranged=()):
    """A quiet round 1 in which the chosen seat's Might track fills in the Score phase;
    returns the table waiting on that seat's seal_slot prompt."""
    table = new_game(players=2, seed=1, scenario=sid)
    seat = seat_pick(table)
    quiet_round(table)
    place_seals(table, seat, arranged)
    add_column(table, seat, "S21")
    pl(table, seat).tracks["might"] = 4
    auto(table, until=until_prompt("seal_slot", seat))
    assert table.state.phase == "score"
    return table, seat


def favored_seal_prompt(sid: str, seed: int = 2):
    """Development: the first player's cube reaches a Favored space; returns the table waiting
    on the seal_slot prompt."""
    table = new_game(players=2, seed=seed, scenario=sid)
    seat = table.state.first
    pl(table, seat).diplomacy = [4, 0]
    set_hand(table, seat, [f"{seat}:B-ADMINISTRATE"])
    act(table, seat, "play", card=f"{seat}:B-ADMINISTRATE")
    events = act(table, seat, "administrate", track=0, direction=1)
    assert [e.type for e in events if e.type == "favored"] == ["favored"]
    assert prompt(table, seat).kind == "seal_slot"
    return table, seat


def arrange_tier3_upgrade(table, seat, t1: str, t2: str, t3: str, hand: bool = True) -> int:
    """Arrange: a column t1+t2 holding one Upgrade token and t3 in the Tier 3 pool
    (plus the Build card in hand); returns the column."""
    col = add_column(table, seat, t1, t2)
    pl(table, seat).columns[col].upgrades = 1
    pool = list(table.state.rows["t3"].pool)
    if t3 not in pool:
        keep = [c for c in pool if c != t3][:2]
        set_pool(table, "t3", [t3] + keep)
    if hand:
        set_hand(table, seat, [f"{seat}:B-BUILD"])
    return col


def build_upgrade(table, seat, col, card):
    """Play Build, take the Upgrade token, finish the column's Tier 3 upgrade with `card`."""
    events = act(table, seat, "play", card=f"{seat}:B-BUILD")
    events += act(table, seat, "build", card="upgrade")
    if prompt(table, seat) and prompt(table, seat).kind == "upgrade_column":
        events += act(table, seat, "upgrade_column", column=col)
    if prompt(table, seat) and prompt(table, seat).kind == "upgrade_card":
        events += act(table, seat, "upgrade_card", column=col, card=card)
    assert pl(table, seat).columns[col].structures[-1] == card
    return events


def honorary_events(events):
    return [e.data["seat"] for e in events if e.type == "honorary_seal"]


# -- Alert ------------------------------------------------------------------------------
@pytest.mark.parametrize("slot", ALERT_SLOTS)
def test_score_seal_on_an_alert_slot_triggers_the_alert_at_once_QNC_184(slot):
    """QNC-184: a seal scored in the Score phase onto an Alert slot gives the scenario's Alert
    effect straight away (Swift Game: a Hunger card), before play moves on."""
    table, seat = score_seal_prompt("swift")
    hunger_before = len(table.state.hunger_deck)
    events = act(table, seat, "seal_slot", slot=slot)
    types = [e.type for e in events]
    i = types.index("seal")
    assert events[i].data == {"seat": seat, "slot": slot, "reason": "track:might", "alert": True}
    assert events[i + 1].type == "hunger" and events[i + 1].data["seat"] == seat
    assert types.index("phase") > i + 1  # before the Score phase ends
    assert pl(table, seat).seal_slots[slot]
    assert events[i + 1].data["card"] in pl(table, seat).discard
    assert len(table.state.hunger_deck) == hunger_before - 1
    check(table)


def test_learning_alert_in_score_phase_asks_for_a_track_at_once_QNC_184():
    """QNC-184: in Learning the Game the Alert opens the attribute choice right after the seal,
    while the Score phase is still running."""
    table, seat = score_seal_prompt("learning")
    act(table, seat, "seal_slot", slot=ALERT_SLOTS[0])
    assert prompt(table, seat).kind == "attr_track"
    assert table.state.phase == "score"
    before = dict(pl(table, seat).tracks)
    act(table, seat, "attr_track", track="influence")
    assert pl(table, seat).tracks["influence"] == before["influence"] + 1
    check(table)


def test_player_chooses_the_empty_slot_and_a_plain_slot_gives_no_alert_QNC_185():
    """QNC-185: the seal goes into an empty slot of the player's choice (every empty slot is
    offered, filled ones are not); a slot without an Alert triggers nothing."""
    table, seat = score_seal_prompt("swift", arranged=[0, ALERT_SLOTS[0]])
    offered = sorted(o["slot"] for o in options(table, seat, "seal_slot"))
    assert offered == [i for i in range(9) if i not in (0, ALERT_SLOTS[0])]
    hunger_before = len(table.state.hunger_deck)
    last_plain = PLAIN_SLOTS[-1]
    events = act(table, seat, "seal_slot", slot=last_plain)
    seal = [e for e in events if e.type == "seal"]
    assert seal[0].data["slot"] == last_plain and seal[0].data["alert"] is False
    assert not [e for e in events if e.type == "hunger"]
    assert len(table.state.hunger_deck) == hunger_before
    p = pl(table, seat)
    assert [i for i, f in enumerate(p.seal_slots) if f] == sorted([0, ALERT_SLOTS[0], last_plain])
    check(table)


@pytest.mark.parametrize("sid", ["swift", "uprising", "learning"])
def test_seal_from_becoming_favored_also_triggers_the_alert_QNC_186(sid):
    """QNC-186: a seal from reaching a Favored space that covers an Alert symbol triggers the
    scenario's Alert (Swift: Hunger, Uprising: Rebellion, Learning: attribute point)."""
    table, seat = favored_seal_prompt(sid)
    events = act(table, seat, "seal_slot", slot=ALERT_SLOTS[1])
    seal = [e for e in events if e.type == "seal"]
    assert seal[0].data["reason"] == "favored" and seal[0].data["alert"] is True
    if sid == "swift":
        assert [e.data["seat"] for e in events if e.type == "hunger"] == [seat]
    elif sid == "uprising":
        assert [e.data["seat"] for e in events if e.type == "rebellion"] == [seat]
        assert sum(c.rebellion for c in pl(table, seat).columns) == 1
    else:
        assert prompt(table, seat).kind == "attr_track"
        act(table, seat, "attr_track", track="might")
        assert pl(table, seat).tracks["might"] == 1
    check(table)


def test_favored_seal_on_a_plain_slot_triggers_nothing_QNC_185_QNC_186():
    """QNC-185/186 control: the same Favored seal on a slot without Alert gives no Rebellion."""
    table, seat = favored_seal_prompt("uprising")
    events = act(table, seat, "seal_slot", slot=PLAIN_SLOTS[0])
    assert not [e for e in events if e.type == "rebellion"]
    assert sum(c.rebellion for c in pl(table, seat).columns) == 0


# -- Honorary Seal --------------------------------------------------------------------------
def test_completing_the_objective_moves_a_reserve_seal_to_the_chart_at_once_QNC_187():
    """QNC-187: the moment the objective is met (here the Tier 3 upgrade in Learning the Game)
    one seal leaves the reserve for the Honorary chart, within the same turn."""
    table = new_game(players=2, seed=3, scenario="learning")
    seat = table.state.first
    col = arrange_tier3_upgrade(table, seat, "S04", "S26", "S46")
    events = build_upgrade(table, seat, col, "S46")
    p = pl(table, seat)
    assert honorary_events(events) == [seat]
    assert p.honorary and p.seals_reserve == 8 and p.seals == 1
    assert not any(p.seal_slots)
    chart = table.state.honorary_chart
    assert len(chart) == 1
    assert chart[0].seats == [seat] and chart[0].round == 1 and chart[0].phase == "development"
    assert prompt(table).seat == 1 - seat and prompt(table).kind == "turn"  # same turn, then on
    check(table)


def test_honorary_seal_counts_toward_the_victory_target_QNC_188():
    """QNC-188: three board seals plus the Honorary Seal reach Learning's target of 4 and end
    the game at the Refresh check; three board seals alone do not."""
    results = []
    for with_honorary in (True, False):
        table = new_game(players=2, seed=3, scenario="learning")
        seat = table.state.first
        quiet_round(table)
        place_seals(table, seat, PLAIN_SLOTS[:3])
        if with_honorary:
            col = arrange_tier3_upgrade(table, seat, "S04", "S26", "S46")
            build_upgrade(table, seat, col, "S46")
        auto(table, until=lambda t: t.state.finished or t.state.round >= 2, policy=policy())
        results.append((table.state.finished, pl(table, seat).seals, sum(pl(table, seat).seal_slots)))
        if with_honorary:
            assert table.state.result["reason"] == "seals"
            assert table.state.result["winners"] == [seat]
            assert table.state.result["seals"][str(seat)] == 4
            check(table)
    assert results == [(True, 4, 3), (False, 3, 3)]


def test_only_one_honorary_seal_per_player_QNC_189():
    """QNC-189: a second Tier 3 structure (Wealth bonus upgrade in the Score phase) gives no
    second Honorary Seal."""
    table = new_game(players=2, seed=3, scenario="learning")
    seat = table.state.first
    quiet_round(table)
    col = arrange_tier3_upgrade(table, seat, "S04", "S26", "S46")
    second = arrange_tier3_upgrade(table, seat, "S06", "S30", "S50", hand=False)
    pl(table, seat).tracks["wealth"] = 4
    set_hand(table, seat, [f"{seat}:B-BUILD"])
    assert "S50" in table.state.rows["t3"].pool
    events = build_upgrade(table, seat, col, "S46")
    assert honorary_events(events) == [seat]
    events = auto(table, until=lambda t: t.state.round >= 2, policy=policy(upgrade_column=second))
    p = pl(table, seat)
    assert p.columns[second].structures == ["S06", "S30", "S50"]  # the second Tier 3
    assert honorary_events(events) == []
    assert len(table.state.honorary_chart) == 1 and table.state.honorary_chart[0].seats == [seat]
    assert p.seals == 2 and sum(p.seal_slots) == 1 and p.seals_reserve == 7  # honorary + wealth
    check(table)


def test_chart_spots_follow_the_order_of_achievement_QNC_190():
    """QNC-190: the first achiever takes spot 1 even when later in turn order; a player who
    achieves it in a later phase takes spot 2."""
    table = new_game(players=2, seed=3, scenario="learning")
    first = table.state.first
    second = 1 - first
    quiet_round(table)
    # the second player upgrades in the Development phase ...
    col_b = arrange_tier3_upgrade(table, second, "S04", "S26", "S46")
    # ... the first player only in the Score phase (Wealth bonus).
    col_a = arrange_tier3_upgrade(table, first, "S06", "S30", "S50", hand=False)
    pl(table, first).tracks["wealth"] = 4
    auto(table, until=until_prompt("turn", second))
    build_upgrade(table, second, col_b, "S46")
    auto(table, until=lambda t: t.state.round >= 2, policy=policy(upgrade_column=col_a))
    chart = table.state.honorary_chart
    assert [e.seats for e in chart] == [[second], [first]]
    assert [e.phase for e in chart] == ["development", "score"]
    assert honorary_position(table.state, second) == 1
    assert honorary_position(table.state, first) == 2
    check(table)


def test_same_phase_achievers_share_one_chart_slot_QNC_191():
    """QNC-191: two players completing the objective in the same phase share chart slot 1;
    a third, completing it in a later phase, gets slot 2."""
    table = new_game(players=3, seed=3, scenario="learning")
    order = [(table.state.first + i) % 3 for i in range(3)]
    a, b, c = order
    quiet_round(table)
    col_a = arrange_tier3_upgrade(table, a, "S04", "S26", "S46")
    col_b = arrange_tier3_upgrade(table, b, "S16", "S39", "S55")
    col_c = arrange_tier3_upgrade(table, c, "S06", "S30", "S50", hand=False)
    pl(table, c).tracks["wealth"] = 4
    events = build_upgrade(table, a, col_a, "S46")
    assert honorary_events(events) == [a]
    events = build_upgrade(table, b, col_b, "S55")
    assert honorary_events(events) == [b]
    auto(table, until=lambda t: t.state.round >= 2, policy=policy(upgrade_column=col_c))
    chart = table.state.honorary_chart
    assert [e.seats for e in chart] == [[a, b], [c]]
    assert honorary_position(table.state, a) == honorary_position(table.state, b) == 1
    assert honorary_position(table.state, c) == 2
    check(table)


def test_uprising_achievers_in_one_crisis_collection_share_a_slot_QNC_191():
    """QNC-191: in Uprising two players whose reserve tokens pass 6/6 during the same Crisis
    phase (collecting their cards' reserve icons) share one chart slot."""
    table = new_game(players=2, seed=5, scenario="uprising")
    quiet_round(table)
    for seat in (0, 1):
        p = pl(table, seat)
        p.reserve_power, p.reserve_control = 7, 6
        set_hand(table, seat, [f"{seat}:B-ENVOY"])  # 1 control token at collection
    auto(table, until=lambda t: t.state.phase == "score" or t.state.round >= 2,
         policy=lambda t, p: next((o for o in p.options if o.type.startswith("bid") and o.params["n"] == 0), None))
    chart = table.state.honorary_chart
    assert len(chart) == 1 and sorted(chart[0].seats) == [0, 1] and chart[0].phase == "crisis"
    check(table)


@pytest.mark.parametrize("sid", ["uprising", "learning"])
def test_honorary_seal_never_covers_an_alert_QNC_192(sid):
    """QNC-192: the Honorary Seal goes to the chart, not onto a seal slot, so it never covers
    an Alert: no slot fills and no Alert effect happens."""
    table = new_game(players=2, seed=2, scenario=sid)
    seat = table.state.first
    if sid == "uprising":
        p = pl(table, seat)
        p.reserve_power, p.reserve_control = 7, 6
        p.diplomacy = [0, 0]
        set_hand(table, seat, [f"{seat}:B-ADMINISTRATE"])  # rebuilds the turn options
        act(table, seat, "board", action="faction", faction="diplomacy")
        events = act(table, seat, "choice", option=1)
    else:
        col = arrange_tier3_upgrade(table, seat, "S04", "S26", "S46")
        events = build_upgrade(table, seat, col, "S46")
    p = pl(table, seat)
    assert honorary_events(events) == [seat] and p.honorary
    assert not any(p.seal_slots)
    assert not [e for e in events if e.type in ("seal", "rebellion", "hunger", "attribute")]
    assert all(q.kind != "attr_track" for q in table.state.prompts)
    assert sum(c.rebellion for c in p.columns) == 0
    assert p.tracks == {t: 0 for t in TRACKS}
    check(table)
