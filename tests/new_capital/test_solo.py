"""Solo Mode of The Queen's New Capital (QNC-235..244, with QNC-001 and QNC-015), played
through the engine. Solo is a player count of 1. The phantom die roll is steered by trying
RNG states on a copy of the state (`core.engine.apply` never mutates its input) and keeping
the one whose `crisis_check` event reports the wanted face."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from core import Action, create_table
from core.engine import apply
from core.errors import BadPlayerCount
from plugins.new_capital.content import DEFAULT_PACK, pack_for
from plugins.new_capital.effects import scout_matches
from plugins.new_capital.views import invariant_errors
from tests.new_capital.harness import (
    PACK, act, auto, card_of, check, move_card, new_game, options, pl, prompt, set_hand, until_prompt,
)
from tests.new_capital.harness import _default
from tests.content_files import registry_with_pack

FACES = {-1, 0, 1, 2, 3, 4}
TRACK_MAX = PACK.board.track_max


# -- local helpers ----------------------------------------------------------------------
def solo(seed: int = 0, crisis: str | None = None, scenario: str = "learning", **kw):
    """A solo table at the first turn of round 1, optionally with `crisis` as the active crisis."""
    table = new_game(players=1, seed=seed, scenario=scenario, **kw)
    if crisis:
        move_card(table, crisis, "crisis")
    return table


def cards(*basics: str) -> list[str]:
    return [card_of(0, b) for b in basics]


def _next(table, policy=None):
    p = next(q for q in table.state.prompts if q.blocking)
    choice = policy(table, p) if policy else None
    return p, (choice if choice is not None else _default(p))


def group_checks(events) -> list:
    return [e for e in events if e.type == "crisis_check" and e.data["mode"] == "group"]


def act_rolling(table, seat, action, phantoms: list[int]):
    """Apply `action`, first choosing an RNG state so the group checks it runs roll `phantoms`."""
    for cand in range(1, 5000):
        table.state.rng = cand
        _, trial = apply(table.rules, table.state, seat, action)
        if [e.data["phantom"] for e in group_checks(trial)] == phantoms:
            table.state.rng = cand
            return table.act(seat, action)
    raise AssertionError(f"no RNG state rolls {phantoms}")


def send(table, seat, action, phantom: int | None) -> list:
    """Apply `action`; when it runs group checks, they roll `phantom` (if given)."""
    _, trial = apply(table.rules, table.state, seat, action)
    if group_checks(trial) and phantom is not None:
        return act_rolling(table, seat, action, [phantom] * len(group_checks(trial)))
    return table.act(seat, action)


def finish_crisis(table, phantom: int | None = None, policy=None) -> list:
    """Answer prompts (harness defaults) until the Score phase began; group checks roll `phantom`."""
    events = []
    while not (table.state.finished or any(e.type == "phase" and e.data["phase"] == "score" for e in events)):
        p, choice = _next(table, policy)
        events += send(table, p.seat, choice, phantom)
    return events


def play_round(table, hand: list[str], phantom: int | None = None, policy=None) -> list:
    """Arrange the hand, play each of its cards, then answer prompts until the Score phase began;
    a group check on the way rolls `phantom`. Returns every event."""
    set_hand(table, 0, hand)
    events = []
    for c in hand:
        assert prompt(table, 0).kind == "turn"
        events += send(table, 0, Action(type="play", params={"card": c}), phantom)
    if any(e.type == "phase" and e.data["phase"] == "score" for e in events):
        return events
    return events + finish_crisis(table, phantom, policy)


def check_event(events, kind: str):
    found = [e.data for e in events if e.type == "crisis_check" and e.data["kind"] == kind]
    assert len(found) == 1, found
    return found[0]


def of_kind(events, type_: str, kind: str) -> list:
    return [e.data for e in events if e.type == type_ and e.data["kind"] == kind]


def pack_copy(tmp_path: Path, solo_end_round: int) -> str:
    """A content pack folder identical to the demo pack but for every scenario's solo end round."""
    folder = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK, folder)
    board = json.loads((folder / "board.json").read_text())
    for sc in board["scenarios"]:
        sc["solo_end_round"] = solo_end_round
    (folder / "board.json").write_text(json.dumps(board))
    return str(folder)


def give_seals(table, n: int) -> None:
    """Arrange: the player holds exactly `n` seals on their board (from their reserve)."""
    p = pl(table, 0)
    p.seal_slots = [i < n for i in range(len(p.seal_slots))]
    p.honorary = False
    p.seals_reserve = 9 - n


def phases(events) -> list[tuple[str, int]]:
    return [(e.data["phase"], e.data["round"]) for e in events if e.type == "phase"]


# -- QNC-001 -----------------------------------------------------------------------------
def test_one_seat_is_a_legal_player_count_and_plays_a_whole_solo_game_QNC_001():
    """QNC-001: 1 to 4 players; the single-seat table is Solo Mode and plays to its end."""
    for n in (1, 2, 3, 4):
        assert len(new_game(players=n).state.players) == n
    for bad in (0, 5):
        with pytest.raises(BadPlayerCount):
            create_table("new-capital", bad)
    table = solo(seed=2)
    assert prompt(table, 0).kind == "turn"
    auto(table)
    assert table.state.finished
    assert table.state.result["solo"] in ("win", "loss")
    check(table)


# -- QNC-015 -----------------------------------------------------------------------------
def test_solo_phantom_rolls_use_exactly_the_die_faces_minus1_to_4_QNC_015_QNC_236():
    """QNC-015: the die has faces -1, 0, 1, 2, 3, 4; every solo phantom roll (QNC-236) shows one
    of them and each of the six comes up."""
    table = solo(crisis="C1B")  # warfare: a group challenge
    set_hand(table, 0, cards("B-MOBILIZE"))
    act(table, 0, "play", card=card_of(0, "B-MOBILIZE"))
    # answer prompts until the next answer runs the checks
    while True:
        p, choice = _next(table)
        _, trial = apply(table.rules, table.state, p.seat, choice)
        if group_checks(trial):
            break
        table.act(p.seat, choice)
    seen = []
    for cand in range(1, 400):
        table.state.rng = cand
        _, trial = apply(table.rules, table.state, p.seat, choice)
        seen += [e.data["phantom"] for e in group_checks(trial)]
    assert set(seen) == FACES
    assert len(seen) == 399


# -- QNC-235 -----------------------------------------------------------------------------
@pytest.mark.parametrize("crisis,kind,hand", [
    ("C1B", "warfare", ("B-MOBILIZE",)),
    ("C1A", "political", ("B-MORALE",)),
])
def test_solo_group_challenge_uses_the_two_player_value_QNC_235(crisis, kind, hand):
    """QNC-235: the solo player faces a group challenge's 2-player value (3 here, not the 3- or
    4-player value): 2 of their own + a phantom 1 reaches it exactly and beats the crisis."""
    values = getattr(PACK.crises[crisis], kind).values
    assert values["2"] == 3 and values["3"] > 3
    table = solo(crisis=crisis)
    events = play_round(table, cards(*hand), phantom=1)
    ev = check_event(events, kind)
    assert ev["mode"] == "group"
    assert ev["need"] == values["2"]
    assert ev["totals"] == {0: 2} and ev["phantom"] == 1
    assert ev["beaten"] is True and ev["failed"] == []
    assert of_kind(events, "penalty", kind) == []
    check(table)


# -- QNC-236 -----------------------------------------------------------------------------
@pytest.mark.parametrize("hand,phantom,beaten", [
    (("B-MOBILIZE", "B-ELITE"), -1, False),  # 3 - 1 = 2 < 3: the -1 face subtracts one
    (("B-MOBILIZE", "B-ELITE"), 0, True),    # 3 + 0 = 3
    (("B-MOBILIZE",), 1, True),              # 2 + 1 = 3
    (("B-MOBILIZE",), 0, False),             # 2 + 0 = 2
    (("B-ELITE",), 2, True),                 # 1 + 2 = 3
    (("B-ELITE",), 1, False),                # 1 + 1 = 2
])
def test_solo_phantom_die_adds_its_face_to_the_group_total_QNC_236(hand, phantom, beaten):
    """QNC-236: each solo group check rolls the die; its face (a -1 subtracts one) joins the
    player's total against the 2-player value (3 for C1B warfare). A failed group challenge
    gives the player its penalty."""
    table = solo(crisis="C1B")
    power = sum(PACK.actions[c.split(":")[1]].power for c in cards(*hand))
    events = play_round(table, cards(*hand), phantom=phantom)
    ev = check_event(events, "warfare")
    assert ev["totals"] == {0: power}
    assert ev["phantom"] == phantom
    assert ev["beaten"] is beaten
    assert ev["failed"] == ([] if beaten else [0])
    assert len(of_kind(events, "penalty", "warfare")) == (0 if beaten else 1)
    check(table)


# -- QNC-237 -----------------------------------------------------------------------------
@pytest.mark.parametrize("hand,phantom,rewarded", [
    (("B-MOBILIZE",), 1, True),              # beaten, own 2 >= die 1
    (("B-MOBILIZE",), 2, True),              # beaten, own 2 == die 2: "at least" the die
    (("B-ELITE",), 2, False),                # beaten (1 + 2), but own 1 < die 2
    (("B-ELITE",), 4, False),                # beaten (1 + 4), but own 1 < die 4
    (("B-MOBILIZE", "B-ELITE"), 3, True),    # beaten, own 3 == die 3
    (("B-MOBILIZE", "B-ELITE"), 4, False),   # beaten (3 + 4), but own 3 < die 4
    (("B-MOBILIZE", "B-ELITE"), -1, False),  # not beaten (3 - 1 < 3)
])
def test_solo_group_reward_needs_a_beaten_crisis_and_own_total_at_least_the_die_QNC_237(hand, phantom, rewarded):
    """QNC-237: the group reward goes to the solo player only when the crisis is beaten and
    their own contribution is at least the die result."""
    table = solo(crisis="C1B")
    events = play_round(table, cards(*hand), phantom=phantom)
    ev = check_event(events, "warfare")
    assert ev["phantom"] == phantom
    assert ev["rewarded"] == ([0] if rewarded else [])
    assert len(of_kind(events, "reward", "warfare")) == (1 if rewarded else 0)
    assert pl(table, 0).rewards == (1 if rewarded else 0) + len(of_kind(events, "reward", "political"))
    check(table)


def test_solo_group_reward_resolves_its_effect_when_earned_QNC_237():
    """QNC-237: a rewarded solo group challenge applies the card's reward (C1B warfare: one power
    reserve token, on top of Elite Deploy's own reserve icon)."""
    table = solo(crisis="C1B")
    assert PACK.crises["C1B"].warfare.reward  # demo: one power reserve token
    before = pl(table, 0).reserve_power
    events = play_round(table, cards("B-MOBILIZE", "B-ELITE"), phantom=0)
    assert check_event(events, "warfare")["rewarded"] == [0]
    assert pl(table, 0).reserve_power == before + 1 + 1
    table2 = solo(crisis="C1B")
    events = play_round(table2, cards("B-MOBILIZE", "B-ELITE"), phantom=4)
    assert check_event(events, "warfare")["rewarded"] == []
    assert pl(table2, 0).reserve_power == before + 1
    check(table)
    check(table2)


# -- QNC-238 / QNC-239 -------------------------------------------------------------------
@pytest.mark.parametrize("hand,rewarded,penalised", [
    (("B-MORALE", "B-ENVOY"), True, False),  # 3 > 2: bonus
    (("B-MORALE",), False, False),           # 2 == 2: no bonus, no penalty
    (("B-ENVOY",), False, True),             # 1 < 2: penalty
])
def test_solo_individual_bonus_needs_more_than_the_number_and_penalty_uses_it_QNC_238_QNC_239(
        hand, rewarded, penalised):
    """QNC-238: the solo player earns an individual challenge's bonus only with strictly more than
    its number (C1B political: 2). QNC-239: the penalty keeps the normal threshold, so meeting
    the number exactly avoids it."""
    crisis = PACK.crises["C1B"].political
    assert crisis.mode == "individual" and crisis.value == 2
    table = solo(crisis="C1B")
    events = play_round(table, cards(*hand), phantom=0)
    ev = check_event(events, "political")
    control = sum(PACK.actions[c.split(":")[1]].control for c in cards(*hand))
    assert ev["totals"] == {0: control} and ev["need"] == 2 and ev["phantom"] is None
    assert ev["rewarded"] == ([0] if rewarded else [])
    assert ev["failed"] == ([0] if penalised else [])
    assert len(of_kind(events, "reward", "political")) == (1 if rewarded else 0)
    penalties = of_kind(events, "penalty", "political")
    assert len(penalties) == (1 if penalised else 0)
    if penalised:
        assert penalties[0]["penalty"] == crisis.penalty == "rebellion"
        assert any(c.rebellion for c in pl(table, 0).columns)
    else:
        assert not any(c.rebellion for c in pl(table, 0).columns)
    check(table)


def test_meeting_the_individual_number_is_enough_for_the_bonus_with_two_players_QNC_238():
    """QNC-238 contrast: with two players the same exact 2 control earns the bonus, so the
    strictly-greater threshold is Solo Mode's own."""
    table = new_game(players=2, seed=0)
    move_card(table, "C1B", "crisis")
    first = table.state.first
    other = 1 - first
    set_hand(table, first, [card_of(first, "B-MORALE")])
    set_hand(table, other, [card_of(other, "B-ENVOY")])
    events = auto(table, until=lambda t: t.state.round == 2)
    ev = check_event(events, "political")
    assert ev["totals"][first] == 2
    assert first in ev["rewarded"]
    check(table)


# -- QNC-240 -----------------------------------------------------------------------------
def test_solo_refresh_gives_an_extra_scout_after_the_new_crisis_without_using_the_board_action_QNC_240():
    """QNC-240: in each solo Refresh the player takes a Scout after the new Crisis is revealed;
    it is not a board action (no cube move), so the next round's board action stays open."""
    table = solo(seed=0)
    # round 1: the once-per-round board action is used (the cube covers Resupply)
    act(table, 0, "board", action="resupply")
    assert pl(table, 0).board_cube == "resupply"
    assert not [o for o in options(table, 0) if "action" in o]
    events = auto(table, until=until_prompt("scout", 0))
    assert table.state.phase == "refresh"
    p = prompt(table, 0)
    assert p.kind == "scout" and all(o.type == "scout" for o in p.options)
    types = [e.type for e in events]
    new_crisis = max(i for i, t in enumerate(types) if t == "crisis")
    assert events[new_crisis].data["level"] == 2
    assert new_crisis < types.index("solo_scout")
    # the Scout itself: pick a leader type and the pool redeals until one shows
    opt = next(o for o in p.options if o.params["row"] == "leaders")
    events = table.act(0, opt)
    scouts = [e.data for e in events if e.type == "scout"]
    assert len(scouts) == 1 and scouts[0]["row"] == "leaders"
    assert any(scout_matches(PACK, "leaders", c, opt.params["match"]) for c in table.state.rows["leaders"].pool)
    assert not [e for e in events if e.type == "board_action"]
    # round 2: the board-action cube is free, the board actions are offered
    assert table.state.round == 2 and prompt(table, 0).kind == "turn"
    assert pl(table, 0).board_cube == "top"
    offered = {o["action"] for o in options(table, 0) if "action" in o}
    assert {"resupply", "scout"} <= offered
    check(table)


def test_every_solo_refresh_has_its_scout_and_multiplayer_refresh_has_none_QNC_240():
    """QNC-240: one extra Scout per solo Refresh (rounds 1-5 of a 6-round solo game); a
    2-player Refresh offers none."""
    table = solo(seed=3)
    events = auto(table)
    rounds = [e.data["round"] for e in events if e.type == "phase" and e.data["phase"] == "refresh"]
    assert rounds == [1, 2, 3, 4, 5]
    assert sum(1 for e in events if e.type == "solo_scout") == 5
    duo = new_game(players=2, seed=3)
    events = auto(duo, until=lambda t: t.state.round == 3)
    assert not [e for e in events if e.type == "solo_scout"]
    check(table)


# -- QNC-241 / QNC-242 -------------------------------------------------------------------
def test_solo_game_ends_right_before_the_refresh_of_the_end_round_QNC_241_QNC_242():
    """QNC-241: with the demo value (6) the solo game ends after round 6's Score phase and
    before its Refresh. QNC-242: the result reports a loss below the seal target."""
    assert PACK.scenario("learning").solo_end_round == 6
    table = solo(seed=1)
    events = auto(table)
    assert table.state.finished and table.state.round == 6
    ph = phases(events)
    assert ph[-1] == ("score", 6) and ("refresh", 6) not in ph
    assert ("refresh", 5) in ph
    res = table.state.result
    assert res["reason"] == "solo_end"
    assert res["target"] == 4
    assert res["seals"] == {"0": pl(table, 0).seals}
    assert pl(table, 0).seals < 4
    assert res["solo"] == "loss" and res["winners"] == []
    assert events[-1].type == "game_end"
    check(table)


def test_solo_end_round_is_read_from_the_scenario_data_QNC_241(tmp_path):
    """QNC-241 (ruling QNC-R1): the end round is scenario data; with solo_end_round 3 the game
    stops after round 3's Score phase although the Crisis deck still holds cards."""
    path = pack_copy(tmp_path, 3)
    table = create_table("new-capital", 1, seed=1, options={"scenario": "learning", "pack": "custom"},
                         registry=registry_with_pack(path))
    table.act(0, table.legal(0)[0])
    events = auto(table)
    assert table.state.finished and table.state.round == 3
    ph = phases(events)
    assert ph[-1] == ("score", 3) and ("refresh", 3) not in ph
    assert len(table.state.crisis_deck) == 3
    assert table.state.result["reason"] == "solo_end"
    assert not invariant_errors(table.state, pack_for(path))
    # the value is solo only: a 2-player table with that pack goes on past round 3
    duo = create_table("new-capital", 2, seed=1, options={"scenario": "learning", "pack": "custom"},
                         registry=registry_with_pack(path))
    for seat in range(2):
        duo.act(seat, duo.legal(seat)[0])
    auto(duo, until=lambda t: t.state.round == 4)
    assert not duo.state.finished


def test_solo_game_does_not_end_early_on_reaching_the_seal_target_and_wins_QNC_241_QNC_242(tmp_path):
    """QNC-241: holding the target seals early does not end a solo game (no Refresh victory
    check for solo); QNC-242: at the end round it is a win."""
    path = pack_copy(tmp_path, 3)
    table = create_table("new-capital", 1, seed=1, options={"scenario": "learning", "pack": "custom"},
                         registry=registry_with_pack(path))
    table.act(0, table.legal(0)[0])
    give_seals(table, 4)
    auto(table)
    assert table.state.round == 3
    res = table.state.result
    assert res["reason"] == "solo_end"
    assert res["solo"] == "win" and res["winners"] == [0] and res["target"] == 4
    assert pl(table, 0).seals >= 4


@pytest.mark.parametrize("scenario,target", [("learning", 4), ("uprising", 8)])
@pytest.mark.parametrize("delta,outcome", [(0, "win"), (-1, "loss")])
def test_solo_result_is_a_win_exactly_from_the_scenario_seal_target_QNC_242(scenario, target, delta, outcome):
    """QNC-242 (ruling QNC-R1): at the solo end the player wins with at least the scenario's
    victory seals (target itself is enough), otherwise loses; the result says which."""
    assert PACK.scenario(scenario).seals == target
    table = solo(seed=4, scenario=scenario)
    auto(table, until=lambda t: t.state.round == 6 and prompt(t, 0) is not None and prompt(t, 0).kind == "turn")
    p = pl(table, 0)
    give_seals(table, target + delta)
    p.tracks = {t: 0 for t in p.tracks}  # no track can fill and add a seal this round
    auto(table)
    assert pl(table, 0).seals == target + delta
    res = table.state.result
    assert res["solo"] == outcome
    assert res["winners"] == ([0] if outcome == "win" else [])
    assert res["target"] == target and res["seals"] == {"0": target + delta}
    check(table)


def test_solo_win_through_seals_earned_in_the_last_score_phase_QNC_241_QNC_242():
    """QNC-241/242: the seals from round 6's track resets (Score phase) count, because the
    game only ends after that Score phase; four full tracks give the 4 seals of the target."""
    table = solo(seed=4)
    auto(table, until=lambda t: t.state.round == 6 and prompt(t, 0) is not None and prompt(t, 0).kind == "turn")
    give_seals(table, 0)
    pl(table, 0).tracks = {t: TRACK_MAX for t in pl(table, 0).tracks}
    events = auto(table)
    seals = [e.data for e in events if e.type == "seal"]
    assert len(seals) >= 4
    assert table.state.result["solo"] == "win"
    assert table.state.result["seals"]["0"] == pl(table, 0).seals >= 4
    check(table)


# -- QNC-244 -----------------------------------------------------------------------------
def test_solo_player_is_first_every_round_QNC_244():
    """QNC-244: the solo player is the first player in every round."""
    table = solo(seed=5)
    assert table.state.first == 0
    firsts = []

    def watch(t, p):
        if p.kind == "turn" and pl(t, 0).played == 0:
            firsts.append((t.state.round, t.state.first))
        return None

    events = auto(table, policy=watch)
    assert [e.data["seat"] for e in events if e.type == "first_player"] == [0] * 5
    assert sorted({r for r, _ in firsts}) == [1, 2, 3, 4, 5, 6]
    assert {f for _, f in firsts} == {0}
    check(table)


def test_solo_die_counts_turns_and_then_shows_the_phantom_roll_QNC_244_QNC_236():
    """QNC-244: the die is the solo player's turn counter during Development and the phantom's
    roll in the Crisis phase (QNC-236)."""
    table = solo(crisis="C1B")
    hand = cards("B-MOBILIZE", "B-ELITE", "B-MORALE", "B-ENVOY")
    set_hand(table, 0, hand + cards("B-BUILD"))  # a fifth card stays in hand: a burn prompt follows
    assert table.state.die == 1
    for k, c in enumerate(hand, start=1):
        act(table, 0, "play", card=c)
        assert table.state.die == k
    assert prompt(table, 0).kind == "end_burn" and table.state.phase == "development"
    events = finish_crisis(table, phantom=-1)
    assert check_event(events, "warfare")["phantom"] == -1
    assert table.state.die == -1
    check(table)
